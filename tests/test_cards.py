"""Tests of ginrummy.cards: the card encoding, values (R1.3) and text notation (R1.4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ginrummy.cards import (
    CARD_VALUES,
    FULL_DECK,
    card,
    card_str,
    cards_of,
    cards_str,
    mask_of,
    mask_value,
    parse_card,
    parse_cards,
    popcount,
    rank_of,
    sort_cards,
    suit_of,
    value_of,
)
from ginrummy.errors import CardParseError
from ginrummy.melds import is_meld


def m(text: str) -> int:
    return mask_of(parse_cards(text))


# --- R1.4 text notation ---------------------------------------------------------------------


def test_parse_card_encoding_suits_c_d_h_s() -> None:
    # R1.1: suit order C D H S; R1.2: ace is rank 0
    assert parse_card("AC") == 0
    assert parse_card("KC") == 12
    assert parse_card("AD") == 13
    assert parse_card("AH") == 26
    assert parse_card("AS") == 39
    assert parse_card("KS") == 51
    assert parse_card("TD") == card(9, 1) == 22


def test_parse_card_ten_written_10_or_t() -> None:
    # R1.4: "10" is accepted for "T"
    assert parse_card("10H") == parse_card("TH") == 35
    assert parse_card("10s") == parse_card("ts") == 48


def test_parse_card_case_insensitive_and_strips_space() -> None:
    # R1.4: case-insensitive on input
    assert parse_card("kh") == parse_card("KH") == parse_card("Kh") == parse_card("kH") == 38
    assert parse_card("  qd ") == 24


def test_card_str_is_upper_case() -> None:
    # R1.4: upper case on output
    assert card_str(0) == "AC"
    assert card_str(22) == "TD"
    assert card_str(38) == "KH"
    assert card_str(39) == "AS"
    assert card_str(parse_card("10h")) == "TH"


@given(st.integers(0, 51))
def test_card_str_parse_round_trip(c: int) -> None:
    assert parse_card(card_str(c)) == c
    assert parse_card(card_str(c).lower()) == c


def test_card_str_rejects_non_card() -> None:
    with pytest.raises(CardParseError):
        card_str(52)
    with pytest.raises(CardParseError):
        card_str(-1)


def test_parse_cards_commas_and_spaces_keep_order() -> None:
    # R1.4: several cards separated by commas and/or spaces
    assert parse_cards("AS 2S,3S") == [39, 40, 41]
    assert parse_cards(" 10c ,  jc,qc  ") == [9, 10, 11]
    assert parse_cards("KH,,AD") == [38, 13]
    assert parse_cards(["AS 2S", "3s"]) == [39, 40, 41]
    assert parse_cards("") == []


def test_parse_cards_repeated_card_is_an_error() -> None:
    with pytest.raises(CardParseError, match="7H is given twice"):
        parse_cards("7H 8H 7h")
    # "10" and "T" are the same card
    with pytest.raises(CardParseError, match="TC is given twice"):
        parse_cards("10C TC")
    assert parse_cards("7H 7H", allow_repeats=True) == [32, 32]


@pytest.mark.parametrize("text", ["1H", "11S", "ZZ", "AX", "A", "KHS", "0D", "10", "H7"])
def test_parse_card_malformed_error_names_the_text(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_parse_cards_malformed_card_named_in_error() -> None:
    with pytest.raises(CardParseError) as info:
        parse_cards("AS, 2S, XQ, 4S")
    assert "'XQ'" in str(info.value)


def test_cards_str_mask_is_written_in_card_order() -> None:
    assert cards_str(m("KS AC TD")) == "AC TD KS"
    assert cards_str([38, 0], sep=",") == "KH,AC"


# --- R1.3 values ----------------------------------------------------------------------------


def test_values_ace_one_pips_face_value_faces_ten() -> None:
    # R1.3
    expected = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10}
    for suit in "CDHS":
        for rank, v in expected.items():
            assert value_of(parse_card(rank + suit)) == v
    assert sum(CARD_VALUES) == 4 * 85


def test_mask_value_sums_card_values() -> None:
    assert mask_value(m("AC KD 7H TS")) == 1 + 10 + 7 + 10
    assert mask_value(0) == 0
    assert mask_value(FULL_DECK) == 340


@given(st.sets(st.integers(0, 51)))
def test_mask_of_cards_of_round_trip(cards: set[int]) -> None:
    mask = mask_of(cards)
    assert cards_of(mask) == sorted(cards)
    assert popcount(mask) == len(cards)
    assert mask_value(mask) == sum(value_of(c) for c in cards)


def test_rank_suit_of() -> None:
    c = parse_card("9H")
    assert (rank_of(c), suit_of(c)) == (8, 2)


def test_sort_cards_by_suit_and_by_rank() -> None:
    cards = parse_cards("KS 2C 2S AD")
    assert cards_str(sort_cards(cards)) == "2C AD 2S KS"
    assert cards_str(sort_cards(cards, by="rank")) == "AD 2C 2S KS"


# --- R1.2 ace low ---------------------------------------------------------------------------


def test_ace_low_a_2_3_is_a_run() -> None:
    # R1.2, R2.2
    assert is_meld(m("AS 2S 3S"))
    assert is_meld(m("AD 2D 3D 4D"))


def test_ace_not_high_q_k_a_is_not_a_run() -> None:
    # R1.2: Q-K-A is not a run, runs never wrap around
    assert not is_meld(m("QS KS AS"))
    assert not is_meld(m("KH AH 2H"))
    assert is_meld(m("JS QS KS"))
