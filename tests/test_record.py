"""Tests of the game record (ginrummy.record): round trips under every preset and three-hand
(R10), tampered records, matches in progress, deal-script records, golden records."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ginrummy import record as R
from ginrummy.actions import parse_action
from ginrummy.cards import parse_cards
from ginrummy.deal import deck_from_seed
from ginrummy.errors import RecordError
from ginrummy.match import Match, commitment, deal_seed
from ginrummy.players.base import make_player
from ginrummy.rules import PRESETS

GOLDEN = Path(__file__).parent / "golden"


def play(rules, names, seed: bytes, rng_seed: int = 0, max_actions: int | None = None) -> Match:
    """A match played by novice players (deterministic), stopped after ``max_actions``."""
    m = Match.new(rules, names, seed)
    rng = random.Random(rng_seed)
    players = [make_player("novice", rng) for _ in names]
    n = 0
    while not m.finished and (max_actions is None or n < max_actions):
        if m.deal.is_over:
            m.next_deal()
        p = m.player_to_act()
        v = m.view(p)
        m.apply(p, players[p].choose(v, list(v.legal)))
        n += 1
    return m


def same_state(a: Match, b: Match) -> None:
    assert len(a.deals) == len(b.deals)
    assert a.deal.hands == b.deal.hands
    assert a.deal.pile == b.deal.pile
    assert a.deal.stock[a.deal.drawn:] == b.deal.stock[b.deal.drawn:]
    assert a.deal.phase == b.deal.phase and a.deal.to_act == b.deal.to_act
    assert a.sheet == b.sheet
    assert [(d.seat_players, d.dealer, d.actions) for d in a.deals] == [(d.seat_players, d.dealer, d.actions) for d in b.deals]


@pytest.fixture(scope="module")
def standard_match() -> Match:
    return play(PRESETS["standard"], ["Ann", "Bob"], b"record test", 3)


@pytest.mark.parametrize("name", list(PRESETS))
def test_round_trip_every_preset(name):
    m = play(PRESETS[name].replace(target=60), ["Ann", "Bob"], f"rt {name}".encode(), 5)
    assert m.finished
    text = R.dumps(m, date="2024-05-01")
    rec = R.loads(text)
    assert rec.rules == m.rules and rec.names == ("Ann", "Bob") and rec.date == "2024-05-01"
    assert rec.seed == m.seed and rec.seed_commitment == commitment(m.seed)
    assert [d.deck for d in rec.deals] == [deck_from_seed(d.seed) for d in m.deals]
    assert [[(e.seat, e.action) for e in d.events if isinstance(e, R.RecordedAction)] for d in rec.deals] \
        == [d.actions for d in m.deals]
    same_state(R.replay(text), m)
    report = R.verify(text)
    assert report.ok and report.error is None
    # the replayed match writes the same record again
    assert R.dumps(R.replay(rec), date="2024-05-01") == text


def test_round_trip_three_hand():
    """R10: roles, role draw and the seats of every deal survive the round trip."""
    m = play(PRESETS["standard"].replace(target=60), ["Ann", "Bob", "Cy"], b"three", 7)
    assert m.finished and len(m.deals) >= 2
    text = R.dumps(m)
    rec = R.loads(text)
    assert rec.roles == m.deals[0].seat_players + (3 - sum(m.deals[0].seat_players),)
    assert rec.role_draws == m.role_draws
    assert [d.seat_players for d in rec.deals] == [d.seat_players for d in m.deals]
    back = R.replay(text)
    same_state(back, m)
    assert back.roles == m.roles
    assert R.verify(text).ok


def test_round_trip_big_gin_and_reshuffle():
    rules = PRESETS["single"].replace(big_gin_bonus=31, max_reshuffles=2)
    for i in range(6):
        m = play(rules, ["Ann", "Bob"], f"bg {i}".encode(), i)
        text = R.dumps(m)
        same_state(R.replay(text), m)
        assert R.verify(text).ok


def test_reshuffle_line_written():
    """R7.3: a reshuffle is written as the new stock, top first, and checked on replay."""
    text = (GOLDEN / "scripts" / "reshuffle.record").read_text()
    rec = R.loads(text)
    shuffles = [e for e in rec.deals[0].events if isinstance(e, R.RecordedReshuffle)]
    assert len(shuffles) == 1 and len(shuffles[0].stock) == 31
    m = R.replay(text)
    assert m.deal.stock == shuffles[0].stock and m.deal.reshuffles == 1
    bad = text.replace("reshuffle JC 6D", "reshuffle 6D JC")
    report = R.verify(bad)
    assert not report.ok and "reshuffled stock" in report.error and "position 1" in report.error


def test_header_lines(standard_match):
    text = R.dumps(standard_match, date="2024-05-01")
    lines = [ln for ln in text.splitlines() if not ln.startswith("#")]
    assert lines[0] == "gin-record 1"
    assert lines[1] == "date 2024-05-01"
    assert lines[2] == 'players ["Ann", "Bob"]'
    assert lines[3] == "rules " + standard_match.rules.to_json()
    assert lines[4] == "seed-commitment " + commitment(b"record test")
    d1 = standard_match.deals[0]
    assert lines[5] == f"deal 1 dealer {d1.dealer} seats 0 1 commitment {commitment(deal_seed(b'record test', 1))}"
    assert lines[-1] == "seed " + b"record test".hex()
    assert lines[-2] == f"finished winner {standard_match.winner}"


def test_drawn_card_shown(standard_match):
    text = R.dumps(standard_match)
    rec = R.loads(text)
    deck = rec.deals[0].deck
    draws = [e for e in rec.deals[0].events if isinstance(e, R.RecordedAction) and e.action.kind == "draw_stock"]
    if draws:
        assert draws[0].shown in deck[21:]
    first = rec.deals[0].events[0]
    if first.action.kind == "take_upcard":
        assert first.shown == deck[20]


# -- tampering -------------------------------------------------------------------------------

def _line_no(text: str, prefix: str, nth: int = 0) -> int:
    hits = [i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(prefix)]
    return hits[nth]


def _replace_line(text: str, no: int, new: str) -> str:
    lines = text.splitlines()
    lines[no - 1] = new
    return "\n".join(lines) + "\n"


def test_tampered_deck_card(standard_match):
    text = R.dumps(standard_match)
    no = _line_no(text, "deck ", 1)
    cards = text.splitlines()[no - 1].split()[1:]
    cards[3], cards[40] = cards[40], cards[3]  # swap two cards: still 52 distinct cards
    report = R.verify(_replace_line(text, no, "deck " + " ".join(cards)))
    assert not report.ok and report.line == no
    assert report.error == (f"line {no}: deal 2: the deck is not the one the match seed gives "
                            f"(position 4: the record has {cards[3]}, the seed gives {cards[40]})")
    assert "deal 1: deck and commitment recomputed from the match seed" in report.checks


def test_tampered_action(standard_match):
    text = R.dumps(standard_match)
    no = next(i for i, ln in enumerate(text.splitlines(), 1) if " discard " in ln)
    seat = text.splitlines()[no - 1].split()[0]
    bottom = text.splitlines()[_line_no(text, "deck ") - 1].split()[-1]  # the last card of the stock
    report = R.verify(_replace_line(text, no, f"{seat} discard {bottom}"))
    assert not report.ok and report.line == no
    assert report.error.startswith(f"line {no}: deal 1: seat {seat} discard {bottom}: discard {bottom} is not legal now "
                                   f"({bottom} is not in the hand); legal: ")


def test_tampered_score(standard_match):
    text = R.dumps(standard_match)
    no = _line_no(text, "score ")
    totals = [int(x) for x in text.splitlines()[no - 1].split()[1:]]
    fake = [totals[0] + 1, totals[1]]
    report = R.verify(_replace_line(text, no, f"score {fake[0]} {fake[1]}"))
    assert not report.ok and report.line == no
    assert report.error == (f"line {no}: deal 1: the score line says {fake[0]} {fake[1]}; "
                            f"the sheet gives {totals[0]} {totals[1]}")


def test_tampered_result_points(standard_match):
    text = R.dumps(standard_match)
    no = _line_no(text, "result ")
    line = text.splitlines()[no - 1]
    if " points " in line:
        pts = int(line.split(" points ")[1].split()[0])
        report = R.verify(_replace_line(text, no, line.replace(f" points {pts} ", f" points {pts + 5} ")))
        assert not report.ok and report.line == no and "the result line says" in report.error


def test_wrong_seed(standard_match):
    text = R.dumps(standard_match)
    no = _line_no(text, "seed ")
    report = R.verify(_replace_line(text, no, "seed " + b"another seed".hex()))
    assert not report.ok and report.line == no
    assert report.error == (f"line {no}: the seed does not match the seed-commitment: SHA-256(seed) is "
                            f"{commitment(b'another seed')}, the record committed to {commitment(b'record test')}")


def test_wrong_deal_commitment(standard_match):
    text = R.dumps(standard_match)
    no = _line_no(text, "deal 1 ")
    line = text.splitlines()[no - 1]
    bad = line[:-64] + "0" * 64
    report = R.verify(_replace_line(text, no, bad))
    assert not report.ok and report.line == no and "commitment is not SHA-256 of the deal seed" in report.error


def test_changed_dealer(standard_match):
    text = R.dumps(standard_match)
    no = _line_no(text, "deal 1 ")
    line = text.splitlines()[no - 1]
    d = standard_match.deals[0].dealer
    report = R.verify(_replace_line(text, no, line.replace(f"dealer {d}", f"dealer {1 - d}")))
    assert not report.ok and report.line == no and "R11.2" in report.error


def test_missing_result_line(standard_match):
    text = R.dumps(standard_match)
    no = _line_no(text, "result ")
    lines = text.splitlines()
    del lines[no - 1]
    report = R.verify("\n".join(lines))
    assert not report.ok and report.line == no - 1 and "has no result line" in report.error


# -- syntax errors name the line ----------------------------------------------------------------

@pytest.mark.parametrize("bad, line, words", [
    ("", 1, "empty record"),
    ("hello\n", 1, "starts with 'gin-record 1'"),
    ("gin-record 2\n", 1, "format version 2 is out of range"),
    ('gin-record 1\nplayers ["A"]\n', 2, "2 or 3 distinct names"),
    ('gin-record 1\nplayers ["A","B"]\nrules {"target": 0}\n', 3, "target=0"),
    ('gin-record 1\nplayers ["A","B"]\nrules {"tagret": 1}\n', 3, "unknown rule 'tagret'"),
    ('gin-record 1\nplayers ["A","B"]\nrules {}\ndeal 1 dealer 0 seats 0 1\ndeck AS\n', 5, "a deck has 52 cards, not 1"),
    ('gin-record 1\nplayers ["A","B"]\nrules {}\ndeal 1 dealer 0 seats 0 1\ndeck XX\n', 5, "not a card: 'XX'"),
    ('gin-record 1\nplayers ["A","B"]\nrules {}\ndeal 2 dealer 0 seats 0 1\n', 4, "deal 2 follows deal 0"),
    ('gin-record 1\nplayers ["A","B"]\nrules {}\nfoo\n', 4, "unknown header line 'foo'"),
    ('gin-record 1\nplayers ["A","B"]\nrules {}\ndeal 1 dealer 0 seats 0 1\ndeck ' +
     " ".join(f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK") + "\n2 pass\n", 6, "starts with the deal seat"),
    ('gin-record 1\nplayers ["A","B"]\nrules {}\ndeal 1 dealer 0 seats 0 1\ndeck ' +
     " ".join(f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK") + "\n1 fly away\n", 6, "not an action: 'fly away'"),
])
def test_syntax_errors(bad, line, words):
    with pytest.raises(RecordError) as info:
        R.loads(bad)
    assert str(info.value).startswith(f"line {line}: ")
    assert words in str(info.value)
    assert info.value.line == line
    report = R.verify(bad)
    assert not report.ok and report.line == line


# -- a match in progress -------------------------------------------------------------------------

def test_match_in_progress_hides_seeds():
    m = play(PRESETS["standard"], ["Ann", "Bob"], b"in progress", 1, max_actions=90)
    assert not m.finished and not m.deal.is_over
    text = R.dumps(m)
    assert b"in progress".hex() not in text
    assert m.record.seed.hex() not in text                 # the current deal seed stays secret
    for d in m.deals[:-1]:
        assert f"deal-seed {d.seed.hex()}" in text          # finished deals are revealed
    assert "finished" not in text
    report = R.verify(text)
    assert report.ok
    assert report.checks[-1] == (f"the match seed is not revealed (match in progress); deck of deal "
                                 f"{len(m.deals)} not checked: its deal seed is secret")
    back = R.replay(text)
    same_state(back, m)
    with pytest.raises(RecordError, match="seed="):
        back.apply(back.player_to_act(), back.deal.legal_actions()[0])
    # with the secret seed the match can go on, exactly as the original
    cont = R.replay(text, seed=b"in progress")
    same_state(cont, m)
    a = m.deal.legal_actions()[0]
    m.apply(m.player_to_act(), a)
    cont.apply(cont.player_to_act(), a)
    same_state(cont, m)
    with pytest.raises(RecordError, match="does not match the seed-commitment"):
        R.replay(text, seed=b"wrong")


def test_match_in_progress_between_deals():
    m = play(PRESETS["standard"], ["Ann", "Bob"], b"between", 2, max_actions=400)
    while not m.deal.is_over:
        m.apply(m.player_to_act(), m.deal.legal_actions()[0])
    if m.finished:
        pytest.skip("match ended")  # pragma: no cover
    back = R.replay(R.dumps(m))
    with pytest.raises(RecordError, match="deck is unknown"):
        back.next_deal()


# -- single deal from a deal script ----------------------------------------------------------------

def test_dumps_deal_round_trip():
    deck = parse_cards("AS 2S 3S 4S 7C 7D 7H 2C 3D KH 5S 6S 8C KC KD KS 9C 9D QH JD 2D") + []
    rest = [c for c in range(52) if c not in deck]
    deck += rest
    text = R.dumps_deal(PRESETS["standard"], 0, deck, [parse_action("take upcard"), parse_action("knock KH")],
                        names=("Ann", "Bob"))
    rec = R.loads(text)
    assert rec.is_script and rec.seed is None and len(rec.deals) == 1
    assert "seed" not in text and "commitment" not in text
    assert rec.deals[0].result.outcome == "knock" and rec.deals[0].result.points == 39
    assert rec.deals[0].result.deadwood == (7, 46)
    m = R.replay(text)
    assert m.deal.result.points == 39 and m.sheet.totals == (0, 39)
    report = R.verify(text)
    assert report.ok and report.checks[-1] == "the deck was given by a deal script: there is no seed to check it against"
    # a script deal may go on after the replay (no secret is needed)
    text2 = R.dumps_deal(PRESETS["standard"], 0, deck, [parse_action("pass")])
    m2 = R.replay(text2)
    m2.apply(m2.seat_players[0], parse_action("take upcard"))
    assert m2.deal.phase == "discard"


def test_date_must_be_one_line(standard_match):
    with pytest.raises(RecordError, match="date must be one line"):
        R.dumps(standard_match, date="a\nb")


# -- golden records -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["standard.gin", "three_hand.gin"])
def test_golden_records_verify(name):
    text = (GOLDEN / "records" / name).read_text()
    report = R.verify(text)
    assert report.ok, report.error
    m = R.replay(text)
    assert m.finished
    assert R.dumps(m, date=R.loads(text).date) == text


def test_golden_three_hand_values():
    """R10.1 role draw JH 5H 4H: Ann in the box, Bob captain; R10.4 seats of each deal."""
    m = R.replay((GOLDEN / "records" / "three_hand.gin").read_text())
    assert m.role_draws == [parse_cards("JH 5H 4H")]
    assert [d.seat_players for d in m.deals] == [(0, 1), (1, 2), (2, 0), (2, 1)]
    assert m.sheet.totals == (0, 7, 59) and m.winner == 2
