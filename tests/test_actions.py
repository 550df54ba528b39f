"""Tests of the actions of a deal: text forms, short forms, integer codes and parse errors
(R4.1, R4.2, R5.1, R5.2, R6.5; cards in the notation of R1.4)."""

from __future__ import annotations

import pytest

from ginrummy import actions as A
from ginrummy.actions import NUM_CODES, Action, parse_action
from ginrummy.errors import IllegalActionError
from helpers import c, m


@pytest.mark.parametrize("text,expected", [
    ("take upcard", A.TAKE_UPCARD), ("pass", A.PASS), ("draw stock", A.DRAW_STOCK),
    ("take discard", A.TAKE_DISCARD), ("big gin", A.BIG_GIN),
    ("discard 7H", Action("discard", c("7H"))), ("knock 7H", Action("knock", c("7H"))),
    ("gin 7H", Action("gin", c("7H"))),
])
def test_text_forms_round_trip(text, expected):
    """Each action has one canonical text form, read back to the same action."""
    assert parse_action(text) == expected
    assert expected.text == text and str(expected) == text


@pytest.mark.parametrize("text,kind,card", [
    ("s", "draw_stock", None), ("draw", "draw_stock", None), ("stock", "draw_stock", None),
    ("d", "draw_stock", None), ("t", "take_discard", None), ("take", "take_discard", None),
    ("pile", "take_discard", None), ("u", "take_upcard", None), ("upcard", "take_upcard", None),
    ("take up", "take_upcard", None), ("p", "pass", None), ("biggin", "big_gin", None),
    ("x 7h", "discard", "7H"), ("k 10d", "knock", "TD"), ("g as", "gin", "AS"),
    ("  DISCARD   Kc ", "discard", "KC"), ("Take_Discard", "take_discard", None),
    ("DRAW   STOCK", "draw_stock", None),
])
def test_short_forms_and_case(text, kind, card):
    """Short forms, any case, extra spaces, underscores, and ``10`` for ``T`` (R1.4)."""
    a = parse_action(text)
    assert a.kind == kind
    assert a.card == (None if card is None else c(card))


def test_knock_with_melds_text():
    """R5.2: a knock may name its arrangement; the text form writes it back."""
    a = parse_action("knock 7H melds AS 2S 3S / 4H 4D 4C")
    assert a.kind == "knock" and a.card == c("7H")
    assert a.melds == (m("AS 2S 3S"), m("4H 4D 4C"))
    assert a.text == "knock 7H melds AS 2S 3S / 4C 4D 4H"
    assert parse_action(a.text) == a
    # the code ignores the arrangement
    assert a.code == 57 + c("7H")


def test_integer_codes():
    """Codes: 0 draw stock, 1 take discard, 2 take upcard, 3 pass, 4 big gin, 5 + card discard,
    57 + card knock, 109 + card gin; 161 codes, each read back to its action."""
    assert NUM_CODES == 161
    assert [Action.from_code(i) for i in range(5)] == [A.DRAW_STOCK, A.TAKE_DISCARD, A.TAKE_UPCARD, A.PASS, A.BIG_GIN]
    assert A.discard(c("AC")).code == 5 and A.discard(c("KS")).code == 56
    assert A.knock(c("AC")).code == 57 and A.knock(c("KS")).code == 108
    assert A.gin(c("AC")).code == 109 and A.gin(c("KS")).code == 160
    seen = set()
    for code in range(NUM_CODES):
        a = Action.from_code(code)
        assert a.code == code
        assert parse_action(a.text) == a
        seen.add(a)
    assert len(seen) == NUM_CODES


@pytest.mark.parametrize("code", [-1, 161, 1000, True, 2.0, "3", None])
def test_bad_codes(code):
    """A code outside 0..160 (or not an int) raises IllegalActionError."""
    with pytest.raises(IllegalActionError) as err:
        Action.from_code(code)
    assert "0..160" in str(err.value)


@pytest.mark.parametrize("text", [
    "", "   ", "fly", "discard", "discard 1H", "discard 7X", "discard 7H 8H", "knock",
    "gin 7H melds AS 2S 3S", "discard 7H melds AS 2S 3S", "knock 7H melds AS 2S ZZ",
    "draw stock now", "x", "g",
])
def test_parse_errors(text):
    """Malformed actions raise IllegalActionError naming the text and the allowed forms."""
    with pytest.raises(IllegalActionError) as err:
        parse_action(text)
    msg = str(err.value)
    assert "bad action" in msg or "not an action" in msg


def test_parse_error_lists_forms():
    """The message of an unknown word lists the action forms."""
    with pytest.raises(IllegalActionError) as err:
        parse_action("fly away")
    assert "take upcard" in str(err.value) and "knock CARD" in str(err.value)


def test_parse_non_text():
    """A non-string raises IllegalActionError, not TypeError."""
    with pytest.raises(IllegalActionError):
        parse_action(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["discard", "knock", "k", "gin", "  X  "])
def test_card_word_without_card_asks_for_one(text):
    """``discard`` (or knock, gin, their short forms) with no card says to name one card."""
    with pytest.raises(IllegalActionError) as err:
        parse_action(text)
    assert str(err.value).startswith(f"bad action {text.strip()!r}: name exactly one card; actions: take upcard")


def test_bad_card_is_echoed_as_typed():
    """The card in the error keeps the case the player typed; the words are read in any case."""
    with pytest.raises(IllegalActionError) as err:
        parse_action("Discard 1S")
    assert str(err.value).startswith("bad action 'Discard 1S': not a card: '1S' (")
    assert parse_action("KNOCK 7h MELDS 2c 3c 4c") == parse_action("knock 7H melds 2C 3C 4C")
