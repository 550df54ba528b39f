"""The most one deal can score (``scoring.max_deal_score``) and the scorekeeper's refusal of
anything above it: ``ScoreSheet``, ``parse_results``, ``gin sheet`` and the web scorekeeper
(R6.1-R6.5, R8.1, R9.1, R9.3, R2.4)."""

from __future__ import annotations

from itertools import combinations

import pytest

from ginrummy.cards import mask_of, parse_cards
from ginrummy.cli.main import main
from ginrummy.errors import IllegalActionError, RecordError
from ginrummy.melds import deadwood
from ginrummy.rules import make_rules, preset
from ginrummy.scoring import MAX_DEADWOOD, ScoreSheet, max_deal_score, parse_results
from ginrummy.showdown import showdown

#: the defender's hand of 98 deadwood (no set, no run: R2.1, R2.2) and a gin hand beside it
NINETY_EIGHT = "TC TD QC QD JH JS KH KS 9H 9S"
GIN = "AC 2C 3C 4D 5D 6D 7D 2H 3H 4H"


def test_max_deadwood_is_98_and_reached():
    """R2.4: the deadwood cards of the best arrangement hold no meld, so at most two of each
    ten-valued rank (8 x 10) and then two nines: 98.  Checked over every 10-card hand of the
    twenty cards 9..K (any lower card is worth less), and reached by NINETY_EIGHT."""
    assert deadwood(mask_of(parse_cards(NINETY_EIGHT))) == MAX_DEADWOOD == 98
    high = parse_cards("9C 9D 9H 9S TC TD TH TS JC JD JH JS QC QD QH QS KC KD KH KS")
    assert max(deadwood(mask_of(h)) for h in combinations(high, 10)) == 98


@pytest.mark.parametrize("name, expected", [
    ("standard", 25 + 98),          # gin: 25 + 98 (R6.1)
    ("classic", 25 + 98),
    ("hollywood", 123),
    ("single", 123),
    ("oklahoma", (25 + 98) * 2),    # a spade upcard doubles it (R9.3)
    ("straight", 123),
    ("eaai", 123),
])
def test_bound_of_each_preset(name, expected):
    assert max_deal_score(preset(name)) == expected


def test_bound_follows_every_rule_field():
    assert max_deal_score(make_rules("standard", ["big_gin_bonus=31"])) == 31 + 98        # R6.5
    assert max_deal_score(make_rules("oklahoma", ["spade_doubles=false"])) == 123          # R9.3 off
    assert max_deal_score(make_rules("standard", ["gin_bonus=0", "undercut_bonus=0"])) == 98  # gin, no bonus
    assert max_deal_score(make_rules("standard", ["gin_bonus=0", "undercut_bonus=200"])) == 210  # R6.3: 200 + 10
    assert max_deal_score(make_rules("straight", ["gin_bonus=0", "undercut_bonus=200"])) == 98  # R8.1: no undercut


def test_the_bound_is_reached_by_a_real_gin():
    """Gin against 98 deadwood scores 25 + 98 (R6.1), doubled on an Oklahoma spade (R9.3)."""
    sd = showdown(preset("standard"), mask_of(parse_cards(GIN)), mask_of(parse_cards(NINETY_EIGHT)), knock_limit=10)
    assert (sd.outcome, sd.points) == ("gin", max_deal_score(preset("standard")))
    sd = showdown(preset("oklahoma"), mask_of(parse_cards(GIN)), mask_of(parse_cards(NINETY_EIGHT)),
                  knock_limit=10, multiplier=2)
    assert sd.points == max_deal_score(preset("oklahoma")) == 246


def test_score_sheet_refuses_a_deal_above_the_bound():
    sheet = ScoreSheet(preset("standard"), 2)
    assert sheet.add(0, 123).totals == (123 + 100 + 200 // 2 + 25, 0)  # a shutout game (R11.3)
    with pytest.raises(IllegalActionError, match=r"124 points is more than one deal can score under these rules \(at most 123\)"):
        sheet.add(0, 124)
    with pytest.raises(IllegalActionError, match="at most 123"):
        ScoreSheet(preset("standard"), 2, ((1, 1_000_000_000),))
    assert sheet.results == ()  # unchanged


def test_parse_results_with_rules_names_the_argument():
    rules = preset("oklahoma")
    assert parse_results(["Ann:246"], ["Ann", "Bob"], rules) == [(0, 246)]
    with pytest.raises(RecordError, match=r"result 'Bob:1000000000': 1000000000 points .* \(at most 246"):
        parse_results(["Ann:10", "Bob:1000000000"], ["Ann", "Bob"], rules)
    assert parse_results(["Bob:1000000000"], ["Ann", "Bob"]) == [(1, 1_000_000_000)]  # no rules: the form only


def test_gin_sheet_refuses_an_impossible_deal(capsys):
    rc = main(["sheet", "Ann:10", "Bob:1000000000"])
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    assert "1000000000 points is more than one deal can score" in err and "at most 123" in err
    rc = main(["sheet", "--preset", "oklahoma", "--players", "Ann,Bob", "Ann:246"])
    assert rc == 0


@pytest.mark.filterwarnings("ignore:.*httpx.*")
def test_web_scorekeeper_refuses_an_impossible_deal(tmp_path):
    from starlette.testclient import TestClient

    from ginrummy.web.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", bot_delay=0)) as client:
        client.get("/api/me")  # the CSRF cookie, repeated in the header of every POST (docs/accounts.md)
        client.headers["X-CSRF-Token"] = client.cookies["gin_csrf"]
        r = client.post("/api/sheet", json={"names": ["Ann", "Bob"], "results": ["Ann:1000000000"]})
        assert r.status_code == 400
        assert "1000000000 points is more than one deal can score under these rules (at most 123)" in r.json()["error"]
        r = client.post("/api/sheet", json={"names": ["Ann", "Bob"], "results": ["Ann:124"]},
                        headers={"Accept-Language": "fi"})
        assert r.status_code == 400 and "123" in r.json()["error"] and "points is more" not in r.json()["error"]
        r = client.post("/api/sheet", json={"names": ["Ann", "Bob"], "results": ["Ann:123"]})
        assert r.status_code == 200 and r.json()["totals"]["Ann"] == 123 + 200 + 25


def test_parse_results_too_many_points_is_translated_like_too_few():
    """parse_results' "more than one deal can score" (R6, R9.3) is an N_ message with its
    placeholders, as its "less than a won deal scores" sibling, so it reads in el, fi, mt, es."""
    from ginrummy.i18n import translate_error, translator

    with pytest.raises(RecordError) as err:
        parse_results(["Ann:124"], ["Ann", "Bob"], preset("standard"))
    assert str(err.value) == ("result 'Ann:124': 124 points is more than one deal can score under these rules "
                              "(at most 123: docs/rules.md, R6 and R9.3)")
    assert err.value.key == ("result {text!r}: {points} points is more than one deal can score under these rules "
                             "(at most {most}: docs/rules.md, R6 and R9.3)")
    assert err.value.params == {"text": "Ann:124", "points": 124, "most": 123}
    assert translate_error(err.value, translator("el")) == (
        "αποτέλεσμα 'Ann:124': 124 πόντοι είναι περισσότεροι απ' όσους μπορεί να φέρει μία μοιρασιά με αυτούς "
        "τους κανόνες (το πολύ 123: docs/rules.md, R6 και R9.3)")
    assert translate_error(err.value, translator("fi")) == (
        "tulos 'Ann:124': 124 pistettä on enemmän kuin yksi jako voi tuottaa näillä säännöillä "
        "(enintään 123: docs/rules.md, R6 ja R9.3)")
    assert translate_error(err.value, translator("mt")) == (
        "riżultat 'Ann:124': 124 punt huma aktar milli tqassim wieħed jista' jagħti b'dawn ir-regoli "
        "(l-aktar 123: docs/rules.md, R6 u R9.3)")
    assert translate_error(err.value, translator("es")) == (
        "resultado 'Ann:124': 124 puntos es más de lo que una mano puede sumar con estas reglas "
        "(como máximo 123: docs/rules.md, R6 y R9.3)")
