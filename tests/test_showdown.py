"""Tests of the layouts and the score of a knock (R5.2-R5.5, R6), with hand-worked examples.

:func:`ginrummy.showdown.showdown` is called directly with the knocker's ten cards after his
discard (eleven for big gin) and the defender's ten; a few tests go through a deal to check that
the deal engine passes the right cards and knowledge.
"""

from __future__ import annotations

import pytest

from ginrummy.cards import FULL_DECK
from ginrummy.errors import IllegalActionError
from ginrummy.rules import PRESETS
from ginrummy.showdown import showdown
from helpers import STANDARD, act, c, deal, m


def sd(knocker: str, defender: str, *, rules=STANDARD, limit=10, mult=1, melds=None, unseen=None):
    return showdown(rules, m(knocker), m(defender), knock_limit=limit, multiplier=mult,
                    melds=None if melds is None else tuple(m(x) for x in melds), unseen=unseen)


# R5.2: two arrangements with the least deadwood (3): A = AC AD AH / AS 2S 3S / 2C 2D 2H, 3H
# dead (a layoff spot: 4S); B = AC AD AS / AH 2H 3H / 2C 2D 2S, 3S dead (spot: 4H).
TIE_HAND = "AC AD AH AS 2S 3S 2H 3H 2C 2D"
ARR_A = {m("AC AD AH"), m("AS 2S 3S"), m("2C 2D 2H")}
ARR_B = {m("AC AD AS"), m("AH 2H 3H"), m("2C 2D 2S")}
FAR = "6D 8D TD QD 5C 9C JC KH 7H 9H"  # no meld, nothing to lay off on A or B: 6+8+10+10+5+9+10+10+7+9 = 84


def test_r5_2_least_deadwood_then_fewest_layoffs():
    """R5.2: the proposed arrangement has the least deadwood and, among those, leaves the fewest
    layoffs among the cards the knocker cannot see.  If 4S is known (not unseen: e.g. in the
    discard pile) arrangement A exposes nothing and is proposed; if 4H is known, B."""
    hand = m(TIE_HAND)
    s = sd(TIE_HAND, FAR, unseen=FULL_DECK & ~hand & ~m("4S"))
    assert set(s.knocker.melds) == ARR_A and s.knocker.deadwood == m("3H")
    s = sd(TIE_HAND, FAR, unseen=FULL_DECK & ~hand & ~m("4H"))
    assert set(s.knocker.melds) == ARR_B and s.knocker.deadwood == m("3S")
    assert s.knocker.deadwood_value == 3
    assert (s.outcome, s.points) == ("knock", 84 - 3)


def test_r5_2_the_defender_gets_what_the_arrangement_allows():
    """R5.2, R5.4: the arrangement decides the layoffs: a defender holding 4H lays it off on B's
    run AH 2H 3H but not on A.  Defender 4H + FAR minus 9H."""
    hand = m(TIE_HAND)
    defender = "4H 6D 8D TD QD 5C 9C JC KH 7H"  # 4 + 75 = 79
    a = sd(TIE_HAND, defender, melds=["AC AD AH", "AS 2S 3S", "2C 2D 2H"])
    b = sd(TIE_HAND, defender, melds=["AC AD AS", "AH 2H 3H", "2C 2D 2S"])
    assert a.defender.deadwood_value == 79 and a.defender.layoffs == ()
    assert b.defender.deadwood_value == 75 and [x.card for x in b.defender.layoffs] == [c("4H")]
    assert (a.points, b.points) == (76, 72)
    # the proposal, with every other card unseen, is one of the two
    p = sd(TIE_HAND, defender, unseen=FULL_DECK & ~hand)
    assert set(p.knocker.melds) in (ARR_A, ARR_B)


def test_r5_2_in_a_deal_the_pile_is_known():
    """R5.2: in a deal the cards in the discard pile are not 'unseen': with 4S discarded before
    the knock, the engine proposes arrangement A (4S cannot be laid off anyway; A leaves no
    unseen layoff spot, B leaves 4H).  Non-dealer TIE_HAND minus 2D plus 9S; the upcard is 4S;
    both pass; he draws 2D and knocks with 9S."""
    nd = "AC AD AH AS 2S 3S 2H 3H 2C 9S"
    s = act(deal(nd, FAR, "4S", "2D"), "pass", "pass", "draw stock", "knock 9S")
    assert set(s.result.showdown.knocker.melds) == ARR_A


def test_r5_4_layoff_fourth_card_on_a_set():
    """R5.4: a fourth card onto a set of three.  Knocker 9C 9D 9S, 2H 3H 4H, JC QC KC, AS (K = 1);
    defender 9H JD QD KD 5S 6S 8C 4D 7D TH: own run JD QD KD; 9H laid off on the nines;
    deadwood 5 + 6 + 8 + 4 + 7 + 10 = 40; knocker scores 39."""
    s = sd("9C 9D 9S 2H 3H 4H JC QC KC AS", "9H JD QD KD 5S 6S 8C 4D 7D TH")
    assert [(x.card, x.onto) for x in s.defender.layoffs] == [(c("9H"), m("9C 9D 9S"))]
    assert s.defender.melds == (m("JD QD KD"),)
    assert s.defender.deadwood_value == 40
    assert (s.outcome, s.winner, s.points) == ("knock", "knocker", 39)


def test_r5_4_layoffs_chain_at_both_ends():
    """R5.4: cards laid off at both ends of a run, each extending it for the next: knocker run
    5H 6H 7H; defender 3H 4H 8H 9H lays off 4H, 3H (below) and 8H, 9H (above).  Knocker
    5H 6H 7H, KC KD KS, 2C 3C 4C, AD (K = 1).  Defender 3H 4H 8H 9H TS JS 5D 6D 8S 7C: own melds
    none; deadwood TS JS 5D 6D 8S 7C = 10+10+5+6+8+7 = 46; knocker scores 45."""
    s = sd("5H 6H 7H KC KD KS 2C 3C 4C AD", "3H 4H 8H 9H TS JS 5D 6D 8S 7C")
    laid = [x.card for x in s.defender.layoffs]
    assert sorted(laid) == sorted([c("3H"), c("4H"), c("8H"), c("9H")])
    # the chain order: 4H before 3H, 8H before 9H; each 'onto' holds the cards laid before
    assert laid.index(c("4H")) < laid.index(c("3H")) and laid.index(c("8H")) < laid.index(c("9H"))
    for lay in s.defender.layoffs:
        assert lay.onto & m("5H 6H 7H") == m("5H 6H 7H")
    onto_9h = next(x.onto for x in s.defender.layoffs if x.card == c("9H"))
    assert onto_9h & m("8H")
    assert s.defender.deadwood_value == 46 and s.points == 45


def test_r5_4_no_layoffs_onto_gin():
    """R5.4, R6.1: the defender never lays off onto a gin hand: knocker 5H 6H 7H KC KD KS 2C 3C
    4C 5C (gin); defender 4H 8H 6C 9D TD JS QS 2D 3D AS: 4H, 8H, 6C would lay off but do not;
    D = 4+8+6+9+10+10+10+2+3+1 = 63; gin scores 25 + 63 = 88."""
    s = sd("5H 6H 7H KC KD KS 2C 3C 4C 5C", "4H 8H 6C 9D TD JS QS 2D 3D AS")
    assert s.defender.layoffs == ()
    assert s.defender.deadwood_value == 63
    assert (s.outcome, s.points, s.bonus) == ("gin", 88, 25)


def test_r5_5_meld_or_layoff_chosen_jointly():
    """R5.5: the defender's 8H may lay off on the knocker's 5H 6H 7H or meld in 8C 8D 8H.
    Knocker 5H 6H 7H, 9C 9D 9S, JC QC KC, 2S (K = 2).  Defender 8H 8C 8D 9H 3D 4S 6S KD QH AC.
    Laying off 8H and 9H leaves 8C 8D: 16 + 3+4+6+10+10+1 = 50.  Melding 8C 8D 8H and laying 9H
    off on 9C 9D 9S leaves 3+4+6+10+10+1 = 34: the engine takes the minimum, 34.  Points 32."""
    s = sd("5H 6H 7H 9C 9D 9S JC QC KC 2S", "8H 8C 8D 9H 3D 4S 6S KD QH AC")
    assert s.defender.melds == (m("8C 8D 8H"),)
    assert [x.card for x in s.defender.layoffs] == [c("9H")]
    assert s.defender.deadwood_value == 34
    assert s.points == 32


def test_r6_2_knock_win_points():
    """R6.2: K < D: the knocker scores D - K (no bonus)."""
    s = sd("5H 6H 7H 9C 9D 9S JC QC KC 2S", "8C 8D 3D 4S 6S KD QH AC TD 2C")
    # defender: nothing melds or lays off: 8+8+3+4+6+10+10+1+10+2 = 62
    assert (s.outcome, s.winner, s.base_points, s.points, s.bonus) == ("knock", "knocker", 60, 60, 0)


def test_r6_3_undercut_tie_and_more():
    """R6.3: K = 8 (8S).  Defender deadwood 8 (tie): undercut 25 + 0; deadwood 5: 25 + 3;
    with the classic bonus 10: 10 + 3."""
    knocker = "5H 6H 7H 9C 9D 9S JC QC KC 8S"
    tie = sd(knocker, "AD AH AC 2D 3D 4D KD QD JD 8C")
    assert tie.defender.deadwood_value == 8
    assert (tie.outcome, tie.winner, tie.points, tie.bonus) == ("undercut", "defender", 25, 25)
    less = sd(knocker, "AD AH AC 2D 3D 4D KD QD JD 5C")
    assert (less.outcome, less.points) == ("undercut", 28)
    classic = sd(knocker, "AD AH AC 2D 3D 4D KD QD JD 5C", rules=PRESETS["classic"])
    assert (classic.outcome, classic.points, classic.bonus) == ("undercut", 13, 10)
    # the defender keeps TH (10 > 8): the knocker wins by 2
    win = sd(knocker, "AD AH AC 2D 3D 4D KD QD JD TH")
    assert (win.outcome, win.winner, win.points) == ("knock", "knocker", 2)


def test_r6_1_gin_bonus_option():
    """R6.1: gin bonus 25 by default, 20 in some books (``gin_bonus=20``)."""
    knocker = "5H 6H 7H 9C 9D 9S JC QC KC TC"
    defender = "AD 2C 3D 4S 6S KD QH 8C TD 2H"  # 1+2+3+4+6+10+10+8+10+2 = 56
    assert sd(knocker, defender).points == 81
    assert sd(knocker, defender, rules=STANDARD.replace(gin_bonus=20)).points == 76


def test_r6_5_big_gin_scores_31_plus_d():
    """R6.5: eleven melded cards: 31 + D, no layoffs.  Not played when the option is off."""
    big = "5H 6H 7H 8H 9C 9D 9S JC QC KC TC"
    defender = "AD 2C 3D 4S 6S KD QH 4H TD 2H"  # 4H would lay off; 1+2+3+4+6+10+10+4+10+2 = 52
    s = sd(big, defender, rules=STANDARD.replace(big_gin_bonus=31))
    assert (s.outcome, s.points, s.bonus) == ("big_gin", 83, 31)
    assert s.defender.layoffs == ()
    with pytest.raises(IllegalActionError):
        sd(big, defender)


def test_r6_4_multiplier_applies_to_points_and_bonus():
    """R9.3, R6.4: the multiplier doubles the whole score, bonus included."""
    s = sd("5H 6H 7H 9C 9D 9S JC QC KC TC", "AD 2C 3D 4S 6S KD QH 8C TD 2H", mult=2)
    assert (s.base_points, s.points, s.to_json()["bonus"]) == (81, 162, 50)


def test_showdown_rejects_illegal_knocks():
    """R5.1, R8.1: deadwood above the limit, or any deadwood when only gin is allowed, raise."""
    with pytest.raises(IllegalActionError):
        sd("5H 6H 7H 9C 9D 9S JC QC 2S 3D", "AD 2C 3D 4S 6S KD QH 8C TD 2H")
    with pytest.raises(IllegalActionError):
        sd("5H 6H 7H 9C 9D 9S JC QC KC 2S", "AD 2C 3D 4S 6S KD QH 8C TD 2H", limit=None)
    with pytest.raises(IllegalActionError):
        sd("5H 6H 7H 9C 9D 9S JC QC KC 2S", "AD 2C 3D 4S 6S KD QH 8C TD 2H", limit=1)
    with pytest.raises(IllegalActionError):
        sd("5H 6H 7H 9C 9D 9S JC QC KC 2S", "2S 2C 3D 4S 6S KD QH 8C TD 2H")  # shared card
