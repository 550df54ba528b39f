"""Tests of the hints of every computer player level: ``hint(view, legal) -> (action, reason)``
gives a legal action and a reason that is a :class:`~ginrummy.errors.Msg` (English text whose
key, and the key of every message inside it, is in the ``messages`` catalog), so the terminal
(`gin play` ``hint``/``auto``) and the web table say it in the player's language.  Cards in a
reason are in their text form (R1.4, ``7H``), as in the actions the hint names.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from ginrummy.cli.main import main
from ginrummy.errors import Msg
from ginrummy.i18n import translate_error, translator
from ginrummy.match import Match
from ginrummy.players import make_player
from ginrummy.players.expert import ExpertPlayer
from ginrummy.rules import make_rules
from ginrummy.views import view_of
from helpers import act, deal

ROOT = Path(__file__).resolve().parents[1]
LEVELS = ["random", "novice", "club", "expert"]


def _pot_ids() -> set[str]:
    with open(ROOT / "src" / "ginrummy" / "locale" / "messages.pot", "rb") as f:
        return {m.id for m in read_po(f) if isinstance(m.id, str) and m.id}


POT_IDS = _pot_ids()


def hinter(level: str, seed: int):
    """A player of ``level`` whose hints do not depend on the clock (expert: a fixed number of
    sampled deals)."""
    if level == "expert":
        return ExpertPlayer(random.Random(seed), budget_ms=None, samples=8)
    return make_player(level, random.Random(seed))


def keys(msg: Msg) -> list[str]:
    """The key of ``msg`` and of every message inside its parameters."""
    out = [msg.key]
    for v in msg.params.values():
        if isinstance(v, Msg):
            out += keys(v)
    return out


def check_reason(reason: str) -> None:
    assert isinstance(reason, Msg) and reason
    missing = [k for k in keys(reason) if k not in POT_IDS]
    assert missing == [], "a hint reason is not in the messages catalog (scripts/i18n.sh)"
    for lang in ("el", "fi", "mt", "fr", "es", "de"):
        said = translate_error(reason, translator(lang))
        assert said and said != str(reason) and "{" not in said, (lang, str(reason), said)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_hints_a_legal_action_with_a_translatable_reason(level):
    """A match between two club players, stopped after 40 steps: at every position the hint of
    ``level`` is one of the legal actions, its reason in the catalog and translated."""
    m = Match.new(make_rules("standard"), ["A", "B"], bytes(range(32)))
    bots = [make_player("club", 1), make_player("club", 2)]
    asked = 0
    for step in range(40):
        if m.deal.is_over:
            m.next_deal()
            continue
        p = m.player_to_act()
        v = m.view(p)
        if level != "expert" or step % 5 == 0:  # the expert is slower: every fifth position
            action, reason = hinter(level, step).hint(v, v.legal)
            assert action in v.legal
            check_reason(reason)
            asked += 1
        m.apply(p, bots[p].choose(v, v.legal))
    assert asked >= 8


def test_gin_reasons_in_four_languages():
    # the non-dealer holds AC 2C 3C 4D 5D 6D 9H 9S 9C KS and draws 9D: discarding KS is gin (R6.1)
    s = deal("AC 2C 3C 4D 5D 6D 9H 9S 9C KS", "7C 7D 4S 6S 8S TC TD 2H 3H KC", "QH", "9D 8D QD")
    s = act(s, "pass", "pass", "draw stock")
    v = view_of(s, 0)
    action, reason = hinter("novice", 0).hint(v, v.legal)
    assert action.text == "gin KS" and reason == "discarding KS leaves gin"
    assert reason.key == "discarding {card} leaves gin" and reason.params == {"card": "KS"}
    for level in ("club", "expert"):
        action, reason = hinter(level, 0).hint(v, v.legal)
        assert action.text == "gin KS" and reason == "discarding KS leaves gin (R6.1)"
        assert translate_error(reason, translator("el")) == "αν πετάξεις το KS, έχεις τζιν (R6.1)"
        assert translate_error(reason, translator("fi")) == "kortin KS heittäminen jättää ginin (R6.1)"
        assert translate_error(reason, translator("mt")) == "jekk tarmi KS ikollok gin (R6.1)"
        assert translate_error(reason, translator("es")) == "descartar KS deja gin (R6.1)"


def test_upcard_that_makes_a_meld():
    # 9H 9S in hand: the upcard 9C makes a set (R2.1), so the novice takes it (R4.2)
    s = deal("AC 2C 3C 4D 5D 6D 9H 9S JC KS", "7C 7D 4S 6S 8S TC TD 2H 3H KC", "9C", "9D 8D QD")
    v = view_of(s, 0)
    action, reason = hinter("novice", 0).hint(v, v.legal)
    assert action.text == "take upcard" and reason == "9C makes a meld with the hand"
    assert translate_error(reason, translator("fi")) == "9C muodostaa yhdistelmän käden korttien kanssa"


def test_club_reason_inside_a_reason_and_numbers_in_the_language():
    """With 1 deadwood after three turns the club player plays on for gin (R5.1, R6.1): the
    discard reason carries the knock reason inside it, both translated, and its decimal numbers
    are written with the language's decimal sign."""
    s = deal("AC 2C 3C 4D 5D 6D 9H 9S 9C AS", "7C 7D 4S 6S 8S TC TD 2H 3H KC", "QH", "KD 8D QD")
    s = act(s, "pass", "pass", "draw stock")
    v = view_of(s, 0)
    action, reason = hinter("club", 0).hint(v, v.legal)
    assert action.text == "discard KD"
    assert reason.key == "{reason}; not knocking: {why}"
    why = reason.params["why"]
    assert why == "1 deadwood this early: play on for gin"
    inner = reason.params["reason"]
    assert inner.params["card"] == "KD" and inner.params["deadwood"] == 1
    saving = inner.params["saving"]
    assert isinstance(saving, float) and round(saving, 1) == saving
    assert str(reason) == f"{inner}; not knocking: {why}"
    el = translate_error(reason, translator("el"))
    assert el.startswith("πέτα το KD: μένουν 1 ασυνδύαστα, ")
    assert el.endswith("· χωρίς χτύπημα: 1 ασυνδύαστα τόσο νωρίς: συνέχισε για τζιν")
    if saving != int(saving):
        assert f"{saving}".replace(".", ",") in el and f"{saving}" in str(reason)


def test_gin_play_hint_in_greek(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "160")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\nquit\n"))
    assert main(["play", "--lang", "el", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    # seed 1: the person acts first at the upcard offer (K♠, no meld): the novice says pass, in Greek
    assert re.search(r"^Συμβουλή: pass \(το ανοιχτό φύλλο δεν κάνει συνδυασμό με το χέρι\)$", out, re.M)
