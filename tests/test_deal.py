"""Rule-by-rule tests of the deal state machine (R3-R9) with hand-worked deal scripts.

Every deal is built by :func:`helpers.deal`: seat 1 deals, so seat 0 is the non-dealer and
acts first (R3.3) unless a test says otherwise.  Expected values were worked out by hand from
RULES.md and are written next to each script.
"""

from __future__ import annotations

import pytest

from ginrummy.actions import Action, parse_action
from ginrummy.cards import cards_of, mask_of, parse_cards
from ginrummy.deal import DISCARD, DRAW, OVER, UPCARD_OFFER, WALL, new_deal
from ginrummy.errors import IllegalActionError, NotYourTurnError, RecordError
from ginrummy.rules import PRESETS, RuleSet
from helpers import STANDARD, act, build_deck, c, deal, legal_texts, m, snapshot

# Non-dealer hand: melds AS 2S 3S, 4C 4D 4H, 7C 8C 9C; deadwood KD = 10.
ND_KD = "AS 2S 3S 4H 4D 4C 7C 8C 9C KD"
# A hand with no meld and no card touching ND_KD's melds: deadwood 5+7+9+10+10+2+6+8+10+10 = 77.
DL_HIGH = "5S 7S 9S TH QH 2D 6D 8D JS KH"


def discards(*cards: str) -> set[str]:
    return {f"discard {x}" for x in cards}


def all_discards(state) -> set[str]:
    from ginrummy.cards import card_str

    return {f"discard {card_str(x)}" for x in cards_of(state.hands[state.to_act])}


# -- R3: the deal -----------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1])
def test_r3_2_deal_ten_each_upcard_and_stock(dealer):
    """R3.2: ten cards each, the next card is the upcard (first card of the discard pile), the
    rest (31 cards) is the stock; R3.3 the non-dealer acts first, with the upcard offer (R4.2)."""
    deck = build_deck(ND_KD, DL_HIGH, "5H", "6H 7H")
    s = new_deal(STANDARD, dealer, deck)
    nd = 1 - dealer
    assert s.dealer == dealer and s.non_dealer == nd
    assert s.hands[nd] == m(ND_KD)
    assert s.hands[dealer] == m(DL_HIGH)
    assert s.upcard == c("5H") and s.pile == (c("5H"),)
    assert s.stock_size == 31
    assert s.stock[s.drawn] == c("6H") and s.stock[s.drawn + 1] == c("7H")
    assert s.phase == UPCARD_OFFER and s.to_act == nd
    assert legal_texts(s) == {"take upcard", "pass"}
    assert s.result is None and not s.is_over


def test_r3_2_bad_deck_and_dealer_raise():
    """R3.2: a deck is 52 distinct cards; the dealer is seat 0 or 1."""
    deck = build_deck(ND_KD, DL_HIGH, "5H")
    with pytest.raises(RecordError):
        new_deal(STANDARD, 1, deck[:51])
    with pytest.raises(RecordError):
        new_deal(STANDARD, 1, deck[:51] + [deck[0]])
    with pytest.raises(RecordError):
        new_deal(STANDARD, 2, deck)


def test_r3_3_dealer_cannot_act_first():
    """R3.3: the non-dealer acts first; the dealer acting first is out of turn."""
    s = deal(ND_KD, DL_HIGH, "5H")
    with pytest.raises(NotYourTurnError) as err:
        s.apply(1, parse_action("take upcard"))
    assert err.value.seat == 1 and err.value.to_act == 0


# -- R4.1, R4.2: turns and the upcard offer ---------------------------------------------------


def test_r4_2_non_dealer_takes_upcard_then_dealer_plays():
    """R4.2: the non-dealer takes the upcard, completes his turn by discarding, then the dealer
    takes a normal turn (R4.1) with both draws open."""
    s = deal(ND_KD, DL_HIGH, "5H")
    s = act(s, "take upcard")
    assert s.phase == DISCARD and s.to_act == 0
    assert s.hands[0] == m(ND_KD + " 5H") and s.pile == ()
    s = act(s, "discard KD")
    assert s.pile == (c("KD"),) and s.phase == DRAW and s.to_act == 1
    assert legal_texts(s) == {"draw stock", "take discard"}
    assert s.stock_size == 31  # nobody drew from the stock yet


def test_r4_2_non_dealer_passes_dealer_takes():
    """R4.2: non-dealer passes, the dealer may take or pass; the dealer takes, discards, and
    then the non-dealer takes a normal turn."""
    s = deal(ND_KD, DL_HIGH, "5H")
    s = act(s, "pass")
    assert s.phase == UPCARD_OFFER and s.to_act == 1
    assert legal_texts(s) == {"take upcard", "pass"}
    s = act(s, "take upcard")
    assert s.phase == DISCARD and s.to_act == 1 and s.hands[1] == m(DL_HIGH + " 5H")
    s = act(s, "discard KH")
    assert s.phase == DRAW and s.to_act == 0
    assert legal_texts(s) == {"draw stock", "take discard"}
    assert s.top_discard == c("KH")


def test_r4_2_both_pass_non_dealer_must_draw_stock():
    """R4.2: both pass; the non-dealer starts by drawing the top of the stock: taking the upcard
    from the discard pile is not legal then."""
    s = deal(ND_KD, DL_HIGH, "5H", "QC")
    s = act(s, "pass", "pass")
    assert s.phase == DRAW and s.to_act == 0 and s.stock_only
    assert legal_texts(s) == {"draw stock"}
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, parse_action("take discard"))
    assert err.value.legal == ["draw stock"]
    s = act(s, "draw stock")
    assert s.hands[0] == m(ND_KD + " QC") and s.stock_size == 30 and s.phase == DISCARD
    s = act(s, "discard QC")
    # play goes on normally: the dealer may take the discard or draw
    assert s.to_act == 1 and legal_texts(s) == {"draw stock", "take discard"}
    assert s.pile == (c("5H"), c("QC"))


def test_r4_1_draw_then_discard():
    """R4.1: a turn is a draw, then a discard; no discard before the draw, no second draw."""
    s = act(deal(ND_KD, DL_HIGH, "5H", "QC 2H"), "take upcard", "discard KD")
    assert s.to_act == 1 and s.phase == DRAW
    with pytest.raises(IllegalActionError):
        s.apply(1, parse_action("discard KH"))
    s = act(s, "draw stock")
    assert s.hands[1] == m(DL_HIGH + " QC")
    assert s.phase == DISCARD
    with pytest.raises(IllegalActionError):
        s.apply(1, parse_action("draw stock"))
    with pytest.raises(IllegalActionError):
        s.apply(1, parse_action("take discard"))
    s = act(s, "discard QC")
    assert s.to_act == 0 and s.phase == DRAW and s.hands[1] == m(DL_HIGH)


def test_r4_1_take_discard_moves_top_card():
    """R4.1: taking the discard puts the top of the pile in the hand; the stock is untouched."""
    s = act(deal(ND_KD, DL_HIGH, "5H"), "take upcard", "discard KD", "take discard")
    assert s.hands[1] == m(DL_HIGH + " KD") and s.pile == () and s.stock_size == 31
    assert s.taken == c("KD")


# -- R4.3: the card taken may not be discarded --------------------------------------------------


def test_r4_3_taken_card_cannot_be_discarded_or_knocked_with():
    """R4.3 (default): the non-dealer takes the upcard 5H; discarding 5H, or knocking with it,
    is illegal.  ND_KD + 5H: knocking with KD leaves 5H = 5 points (legal, R5.1); knocking with
    5H would leave KD = 10 (forbidden by R4.3 only)."""
    s = act(deal(ND_KD, DL_HIGH, "5H"), "take upcard")
    legal = legal_texts(s)
    assert "discard 5H" not in legal and "knock 5H" not in legal
    assert legal == discards("AS", "2S", "3S", "4H", "4D", "4C", "7C", "8C", "9C", "KD") | {"knock KD"}
    before = snapshot(s)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, parse_action("discard 5H"))
    assert "R4.3" in str(err.value)
    with pytest.raises(IllegalActionError):
        s.apply(0, parse_action("knock 5H"))
    assert snapshot(s) == before


def test_r4_3_option_discard_taken_card():
    """R4.3 option ``discard_taken_card=true``: the taken card may be discarded or knocked with."""
    rules = STANDARD.replace(discard_taken_card=True)
    s = act(deal(ND_KD, DL_HIGH, "5H", rules=rules), "take upcard")
    assert {"discard 5H", "knock 5H", "knock KD"} <= legal_texts(s)
    s = act(s, "discard 5H")
    assert s.pile == (c("5H"),) and s.hands[0] == m(ND_KD)


def test_r4_3_card_drawn_from_stock_may_be_discarded():
    """R4.3 concerns the discard pile only: a card drawn from the stock may be discarded."""
    s = act(deal(ND_KD, DL_HIGH, "5H", "5C"), "pass", "pass", "draw stock")
    assert {"discard 5C", "knock 5C", "knock KD"} <= legal_texts(s)


# -- R4.4, R5.1: knocking -----------------------------------------------------------------------


def test_r5_1_knock_limit_boundary_and_gin_actions():
    """R5.1: knock is legal iff the deadwood after the discard is at most 10; gin iff it is 0.
    ND_KD drawing 5C: knock KD leaves 5 (legal), knock 5C leaves KD = 10 (legal, at the limit);
    discarding anything else leaves more than 10 (e.g. AS: 2+3+5+10 = 20).  No gin."""
    s = act(deal(ND_KD, DL_HIGH, "5H", "5C"), "pass", "pass", "draw stock")
    knocks = {t for t in legal_texts(s) if not t.startswith("discard")}
    assert knocks == {"knock KD", "knock 5C"}


def test_r5_1_gin_action_only_when_zero():
    """R5.1, R2.5: ND hand AS 2S 3S 4H 4D 4C 7C 8C 9C TC is already gin (run 7C-TC).  After
    drawing KS only ``gin KS`` leaves deadwood 0.  Discarding TC or 7C leaves KS = 10: a knock
    at the limit; AS leaves 2S 3S KS = 15, 3S leaves AS 2S KS = 13, a 4 leaves two 4s and KS:
    no knock.  Reading: with deadwood 0 the action is ``gin``, never ``knock`` (a knock with no
    deadwood is a gin, R6.1), so ``knock KS`` is not listed."""
    hand = "AS 2S 3S 4H 4D 4C 7C 8C 9C TC"
    s = act(deal(hand, DL_HIGH, "5H", "KS"), "pass", "pass", "draw stock")
    legal = legal_texts(s)
    gins = {t for t in legal if t.startswith("gin")}
    knocks = {t for t in legal if t.startswith("knock")}
    assert gins == {"gin KS"}
    assert knocks == {"knock TC", "knock 7C"}
    assert "knock KS" not in legal
    with pytest.raises(IllegalActionError):
        s.apply(0, parse_action("knock KS"))
    with pytest.raises(IllegalActionError):
        s.apply(0, parse_action("gin TC"))


def test_r5_1_knock_on_first_turn_by_non_dealer():
    """R5.1 (the first turn included) and R6.2: the non-dealer takes the upcard 5H and knocks
    with KD at once: K = 5.  Defender DL_HIGH has no meld and nothing to lay off on AS 2S 3S,
    4C 4D 4H, 7C 8C 9C: D = 77.  Knocker scores 77 - 5 = 72."""
    s = act(deal(ND_KD, DL_HIGH, "5H"), "take upcard", "knock KD")
    assert s.phase == OVER and s.to_act is None
    r = s.result
    assert (r.outcome, r.winner, r.points, r.knocker) == ("knock", 0, 72, 0)
    assert r.showdown.knocker.deadwood_value == 5
    assert r.showdown.defender.deadwood_value == 77
    assert s.pile[-1] == c("KD")


def test_r5_1_knock_on_first_turn_by_dealer():
    """R5.1: the dealer, taking the upcard after the non-dealer passed, may knock at once."""
    s = act(deal(DL_HIGH, ND_KD, "5H"), "pass", "take upcard", "knock KD")
    r = s.result
    assert (r.outcome, r.winner, r.points, r.knocker) == ("knock", 1, 72, 1)


def test_r4_4_never_required_to_knock():
    """R4.4: a player who may knock may discard instead, and play goes on."""
    s = act(deal(ND_KD, DL_HIGH, "5H", "5C"), "pass", "pass", "draw stock")
    assert "knock KD" in legal_texts(s) and "discard KD" in legal_texts(s)
    s = act(s, "discard KD")
    assert s.phase == DRAW and s.to_act == 1 and s.result is None


def test_r5_2_knock_with_own_arrangement():
    """R5.2: the knocker chooses his arrangement.  After drawing 5C and knocking with KD he
    holds AS 2S 3S 4S 4C 4D 7C 8C 9C 5C.  Laid out as AS 2S 3S / 4S 4C 4D / 7C 8C 9C, K = 5
    (5C) and the defender lays 4H off on the set; laid out as AS 2S 3S 4S / 7C 8C 9C, 4C 4D 5C
    are deadwood, K = 13 > 10: not allowed (R5.1).  A group that is not a meld, or uses a card
    not in the hand, is rejected with the legal actions listed, and the state is unchanged."""
    hand = "AS 2S 3S 4S 4C 4D 7C 8C 9C KD"
    s = act(deal(hand, "4H 7S 9S TH QH 2D 6D 8D JS KH", "5H", "5C"), "pass", "pass", "draw stock")
    before = snapshot(s)
    bad = parse_action("knock KD melds AS 2S 3S 4S / 7C 8C 9C")
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, bad)
    assert "13" in str(err.value) and err.value.legal
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, parse_action("knock KD melds AS 2S 4S / 7C 8C 9C"))  # not a meld
    assert "knock KD" in err.value.legal
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, parse_action("knock KD melds AS 2S 3S / KD QD JD"))  # not in the hand
    assert "knock KD" in err.value.legal
    assert snapshot(s) == before
    s2 = act(s, "knock KD melds AS 2S 3S / 4S 4C 4D / 7C 8C 9C")
    sd = s2.result.showdown
    assert sd.knocker.melds == (m("AS 2S 3S"), m("4C 4D 4S"), m("7C 8C 9C")) or set(sd.knocker.melds) == {
        m("AS 2S 3S"), m("4C 4D 4S"), m("7C 8C 9C")}
    assert sd.knocker.deadwood_value == 5
    # defender: 4H laid off on the set; the rest 7+9+10+10+2+6+8+10+10 = 72
    assert [lay.card for lay in sd.defender.layoffs] == [c("4H")]
    assert sd.defender.deadwood_value == 72
    assert (s2.result.outcome, s2.result.points) == ("knock", 67)


def test_r5_2_gin_with_arrangement_must_be_gin():
    """R5.2, R6.1: a ``gin`` action naming an arrangement that leaves deadwood is not a gin:
    rejected (it must not be scored as a knock)."""
    hand = "AS 2S 3S 4H 4D 4C 7C 8C 9C TC"
    s = act(deal(hand, DL_HIGH, "5H", "KS"), "pass", "pass", "draw stock")
    before = snapshot(s)
    with pytest.raises(IllegalActionError):
        s.apply(0, Action("gin", c("KS"), (m("AS 2S 3S"), m("7C 8C 9C TC"))))
    # TC left over: deadwood 10, within the knock limit -- still not a gin
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, Action("gin", c("KS"), (m("AS 2S 3S"), m("4H 4D 4C"), m("7C 8C 9C"))))
    assert "gin KS" in err.value.legal
    assert snapshot(s) == before


# -- R5.4 - R6: showdown inside a deal -------------------------------------------------------------


KNOCKER = "5H 6H 7H 4C 4D 4S JC QC KC 2D"


def test_r5_4_layoffs_chain_and_r6_2_knock_score():
    """R5.4, R6.2: knocker (non-dealer) KNOCKER takes the upcard AD and knocks with 2D (AD may
    not be discarded, R4.3): melds 5H 6H 7H, 4C 4D 4S, JC QC KC; K = 1 (AD).
    Defender 8H 9H 4H 2C 3C 5C TS TD 9S 8S: own run 8S 9S TS; lays off 4H (on the run or the
    set), 8H then 9H (a chain on 5H-7H); deadwood 2C 3C 5C TD = 20.  Knocker scores 19."""
    s = act(deal(KNOCKER, "8H 9H 4H 2C 3C 5C TS TD 9S 8S", "AD"), "take upcard")
    assert "knock 2D" in legal_texts(s) and "knock AD" not in legal_texts(s)
    s = act(s, "knock 2D")
    sd = s.result.showdown
    assert sd.knocker.deadwood_value == 1
    assert {lay.card for lay in sd.defender.layoffs} == {c("4H"), c("8H"), c("9H")}
    assert sd.defender.melds == (m("8S 9S TS"),)
    assert sd.defender.deadwood == m("2C 3C 5C TD") and sd.defender.deadwood_value == 20
    assert (s.result.outcome, s.result.winner, s.result.points) == ("knock", 0, 19)


def _undercut_deal(rules: RuleSet, defender: str):
    """KNOCKER minus 2D plus 9D: both pass, non-dealer draws KS and knocks with it: K = 9."""
    hand = "5H 6H 7H 4C 4D 4S JC QC KC 9D"
    s = act(deal(hand, defender, "QD", "KS", rules=rules), "pass", "pass", "draw stock")
    return act(s, "knock KS")


def test_r6_3_tie_is_undercut():
    """R6.3: K = 9 (9D).  Defender 8S 9S TS AD AH AC 4H 8H 2C 7D: melds 8S-TS and the aces,
    lays off 4H and 8H, deadwood 2C 7D = 9 = K: a tie is an undercut, defender scores 25 + 0."""
    s = _undercut_deal(STANDARD, "8S 9S TS AD AH AC 4H 8H 2C 7D")
    r = s.result
    assert r.showdown.defender.deadwood_value == 9
    assert (r.outcome, r.winner, r.points, r.knocker) == ("undercut", 1, 25, 0)
    assert r.showdown.bonus == 25


def test_r6_3_undercut_classic_bonus_10():
    """R6.3 option: the older books' undercut bonus 10 (preset ``classic``), K - D added:
    defender 8S 9S TS AD AH AC 4H 8H 2C 3D: deadwood 5, K = 9: 10 + 4 = 14."""
    s = _undercut_deal(PRESETS["classic"], "8S 9S TS AD AH AC 4H 8H 2C 3D")
    r = s.result
    assert (r.outcome, r.winner, r.points) == ("undercut", 1, 14)
    s = _undercut_deal(STANDARD, "8S 9S TS AD AH AC 4H 8H 2C 3D")
    assert (s.result.outcome, s.result.points) == ("undercut", 29)


def test_r6_1_gin_no_layoffs_defender_scores_nothing():
    """R6.1, R5.4: gin scores 25 + D; the defender lays nothing off onto a gin hand, even
    though 8C and 5S fit the knocker's melds.  Knocker AS 2S 3S 4H 4D 4C 7C 8C 9C TC draws KH
    and goes gin with it.  Defender 4S JC QD 2H 3H 9H 6D 8D TS JH: no meld; 4S would extend
    AS-3S and JC the run 7C-TC, but there are no layoffs on gin: D = 4+10+10+2+3+9+6+8+10+10
    = 72.  Knocker scores 25 + 72 = 97."""
    s = act(deal("AS 2S 3S 4H 4D 4C 7C 8C 9C TC", "4S JC QD 2H 3H 9H 6D 8D TS JH", "5H", "KH"),
            "pass", "pass", "draw stock", "gin KH")
    r = s.result
    assert r.showdown.defender.layoffs == ()
    assert r.showdown.defender.deadwood_value == 72
    assert (r.outcome, r.winner, r.points, r.knocker) == ("gin", 0, 97, 0)


def test_r6_1_gin_defender_with_zero_deadwood_scores_nothing():
    """R6.1: gin scores 25 + D with no layoffs; a defender with deadwood 0 scores nothing
    and the gin scores exactly 25.  (Taking the upcard 5H first, the gin hand cannot go gin:
    5H may not be discarded (R4.3) and is deadwood.)"""
    s = act(deal("AS 2S 3S 4H 4D 4C 7C 8C 9C TC", "5D 6D 7D 8H 9H TH JS QS KS 2C", "5H", "KH"),
            "take upcard")
    assert not any(t.startswith("gin") for t in legal_texts(s))
    s = act(deal("AS 2S 3S 4H 4D 4C 7C 8C 9C TC", "5D 6D 7D 8H 9H TH JS QS KS 2C", "5H", "2D"),
            "pass", "pass", "draw stock", "gin 2D")
    r = s.result
    # defender melds 5D-7D, 8H-TH, JS-KS; 2C deadwood = 2 (no layoff on gin)
    assert r.showdown.defender.deadwood_value == 2
    assert (r.outcome, r.points) == ("gin", 27)
    # a defender who holds gin himself (5D-7D, 8H-JH, JS-KS) still scores nothing
    s = act(deal("AS 2S 3S 4H 4D 4C 7C 8C 9C TC", "5D 6D 7D 8H 9H TH JS QS KS JH", "5H", "2D"),
            "pass", "pass", "draw stock", "gin 2D")
    r = s.result
    assert r.showdown.defender.deadwood_value == 0
    assert (r.outcome, r.winner, r.points) == ("gin", 0, 25)


def test_r6_5_big_gin():
    """R6.5: with ``big_gin_bonus=31`` a player whose eleven cards are all melded after the draw
    lays them all down without discarding: 31 + D.  ND AS 2S 3S 4H 4D 4C 7C 8C 9C TC draws JC
    (run 7C-JC): 11 cards melded.  Defender DL_HIGH: D = 77 (no layoffs on big gin).
    Points 31 + 77 = 108.  Not legal when big gin is off (default)."""
    rules = STANDARD.replace(big_gin_bonus=31)
    s = act(deal("AS 2S 3S 4H 4D 4C 7C 8C 9C TC", DL_HIGH, "5H", "JC", rules=rules),
            "pass", "pass", "draw stock")
    assert "big gin" in legal_texts(s)
    pile_before = s.pile
    s = act(s, "big gin")
    r = s.result
    assert (r.outcome, r.winner, r.points, r.knocker) == ("big_gin", 0, 108, 0)
    assert s.hands[0].bit_count() == 11 and s.pile == pile_before
    assert r.showdown.bonus == 31 and r.showdown.defender.layoffs == ()
    s = act(deal("AS 2S 3S 4H 4D 4C 7C 8C 9C TC", DL_HIGH, "5H", "JC"), "pass", "pass", "draw stock")
    assert "big gin" not in legal_texts(s)
    with pytest.raises(IllegalActionError, match=r"big gin is not played under these rules \(big_gin_bonus is null, R6\.5\)"):
        s.apply(0, parse_action("big gin"))


def test_r6_5_big_gin_not_legal_with_deadwood():
    """R6.5: big gin needs all eleven cards melded: ND_KD drawing 5C is not big gin (KD and 5C unmatched: 15)."""
    rules = STANDARD.replace(big_gin_bonus=31)
    s = act(deal(ND_KD, DL_HIGH, "5H", "5C", rules=rules), "pass", "pass", "draw stock")
    assert "big gin" not in legal_texts(s)
    with pytest.raises(IllegalActionError, match=r"big gin needs all 11 cards melded; deadwood is 15 \(R6\.5\)"):
        s.apply(0, parse_action("big gin"))


# -- R7: end of the stock -----------------------------------------------------------------------


def _draw_and_discard(s, turns: int):
    """Each turn: draw from the stock and discard the card drawn (never knocking, R4.4)."""
    for _ in range(turns):
        s = act(s, "draw stock")
        drawn = s.log[-1].card
        s, _ = s.apply(s.to_act, Action("discard", drawn))
    return s


def test_r7_1_draw_when_two_cards_remain():
    """R7.1: 31 stock cards at the start; the last two are never drawn.  Both pass, then 29
    draw-and-discard turns: after the 29th discard two cards remain and the deal is a draw with
    no winner and no score.  After 28 turns (three left) the deal goes on."""
    s = act(deal(ND_KD, DL_HIGH, "5H"), "pass", "pass")
    s = _draw_and_discard(s, 28)
    assert s.stock_size == 3 and s.phase == DRAW and s.to_act == 0
    s = _draw_and_discard(s, 1)
    assert s.stock_size == 2
    assert s.phase == OVER and s.to_act is None
    r = s.result
    assert (r.outcome, r.winner, r.points, r.knocker, r.reason) == ("draw", None, 0, None, "R7.1")
    assert len(s.pile) == 30


def test_r7_1_knock_allowed_on_the_last_draw():
    """R7.1: the player who draws the 29th card (leaving two) may still knock instead of
    discarding.  The 29th card is drawn by the non-dealer (draws 1, 3, ..., 29)."""
    s = act(deal(ND_KD, DL_HIGH, "5H"), "pass", "pass")
    s = _draw_and_discard(s, 28)
    s = act(s, "draw stock")
    assert s.stock_size == 2 and s.to_act == 0
    assert "knock KD" in legal_texts(s)
    s = act(s, "knock KD")
    assert s.result.outcome in ("knock", "undercut", "gin")


def test_r7_1_stock_count_when_upcard_taken():
    """R7.1: taking the upcard does not use the stock: with the upcard taken and every later
    turn drawing from the stock, the draw still comes after 29 stock draws."""
    s = act(deal(ND_KD, DL_HIGH, "5H"), "take upcard", "discard KD")
    s = _draw_and_discard(s, 28)
    assert s.stock_size == 3 and not s.is_over
    s = _draw_and_discard(s, 1)
    assert s.result.outcome == "draw" and s.result.reason == "R7.1"


# Dealer hand for the wall tests: 7C 8C need 6C or 9C; with 9C: AS-3S, 4s, 7C-9C melded, KD QD
# dead; discarding KD leaves QD = 10: a knock.  No other card lets it knock.
WALL_DEALER = "AS 2S 3S 4H 4D 4C 7C 8C KD QD"
WALL_ND = "5S 7S 9S TH QH 2D 6D 8D JS KH"


def _wall_deal(wall_card: str):
    """Stock order: the 29th card (drawn by the non-dealer, who discards it) is ``wall_card``."""
    used = mask_cards(WALL_DEALER + " " + WALL_ND + " 5H 6C 9C") | {c(wall_card)}
    filler = [x for x in range(52) if x not in used]
    stock = filler[:28] + [c(wall_card)]
    from ginrummy.cards import card_str

    rules = STANDARD.replace(stock_end="wall")
    return deal(WALL_ND, WALL_DEALER, "5H", " ".join(card_str(x) for x in stock), rules=rules)


def mask_cards(text: str) -> set[int]:
    return set(parse_cards(text))


def test_r7_2_wall_take_discard_only_to_knock():
    """R7.2: after the discard that leaves two cards, the next player (the dealer) may take that
    discard (9C) only to knock or go gin at once; drawing from the stock is not allowed."""
    s = act(_wall_deal("9C"), "pass", "pass")
    s = _draw_and_discard(s, 29)
    assert s.stock_size == 2 and s.top_discard == c("9C")
    assert s.phase == WALL and s.to_act == 1
    assert legal_texts(s) == {"take discard", "pass"}
    with pytest.raises(IllegalActionError):
        s.apply(1, parse_action("draw stock"))
    s2 = act(s, "take discard")
    assert s2.must_knock
    legal = legal_texts(s2)
    assert not any(t.startswith("discard") for t in legal)
    assert legal == {"knock KD", "knock QD"}
    with pytest.raises(IllegalActionError):
        s2.apply(1, parse_action("discard KD"))
    s3 = act(s2, "knock KD")
    assert s3.result.knocker == 1 and s3.result.showdown.knocker.deadwood_value == 10
    # passing at the wall ends the deal as a draw
    s4 = act(s, "pass")
    assert (s4.result.outcome, s4.result.reason, s4.result.points) == ("draw", "R7.2", 0)


def test_r7_2_wall_no_knock_possible_is_a_draw():
    """R7.2: when the discard that leaves two cards does not let the next player knock, the deal
    is a draw at once."""
    s = act(_wall_deal("KS"), "pass", "pass")
    s = _draw_and_discard(s, 29)
    assert s.phase == OVER and s.result.outcome == "draw" and s.result.reason == "R7.2"
    assert s.stock_size == 2


def test_r7_3_reshuffle_then_draw():
    """R7.3: under ``stock_end="reshuffle"`` the stock may be drawn to the end (31 cards).
    When it is empty after a discard, the discard pile except its top card becomes the new
    stock (31 cards: the upcard and the first 30 discards), the top card stays; after
    ``max_reshuffles`` (1) rebuilds, the next empty stock ends the deal as a draw."""
    rules = STANDARD.replace(stock_end="reshuffle")
    s = act(deal(ND_KD, DL_HIGH, "5H", rules=rules), "pass", "pass")
    s = _draw_and_discard(s, 30)
    assert s.stock_size == 1 and not s.is_over
    pile_before = s.pile
    s = _draw_and_discard(s, 1)
    assert s.reshuffles == 1 and s.phase == DRAW
    top = s.log[-2].card  # the discard just made (the last event is the reshuffle)
    assert s.log[-1].kind == "reshuffle"
    assert s.pile == (top,)
    assert s.stock_size == 31
    assert sorted(s.stock[s.drawn:]) == sorted(pile_before)
    # the other player may take the top card or draw from the new stock
    assert legal_texts(s) == {"draw stock", "take discard"}
    s = _draw_and_discard(s, 30)
    assert not s.is_over and s.stock_size == 1
    s = _draw_and_discard(s, 1)
    assert (s.result.outcome, s.result.reason) == ("draw", "R7.3")


def test_r7_3_max_reshuffles_zero():
    """R7.3: with ``max_reshuffles=0`` the first empty stock ends the deal as a draw."""
    rules = STANDARD.replace(stock_end="reshuffle", max_reshuffles=0)
    s = act(deal(ND_KD, DL_HIGH, "5H", rules=rules), "pass", "pass")
    s = _draw_and_discard(s, 31)
    assert s.stock_size == 0 and (s.result.outcome, s.result.reason) == ("draw", "R7.3")


def test_r7_3_reshuffle_is_reproducible():
    """R7.3: the reshuffle comes from the deal's seed: the same deal replays identically."""
    rules = STANDARD.replace(stock_end="reshuffle")

    def run():
        s = act(deal(ND_KD, DL_HIGH, "5H", rules=rules), "pass", "pass")
        return _draw_and_discard(s, 31).stock

    assert run() == run()


# -- R8: Straight gin -------------------------------------------------------------------------------


def test_r8_1_straight_no_knock_only_gin():
    """R8.1: Straight gin: no knock action ever, even with deadwood 5; gin is legal and scores
    as R6.1 (25 + D)."""
    rules = PRESETS["straight"]
    s = act(deal(ND_KD, DL_HIGH, "5H", "5C", rules=rules), "pass", "pass", "draw stock")
    assert s.knock_limit is None
    assert not any(t.startswith("knock") for t in legal_texts(s))
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, parse_action("knock KD"))
    assert "R8.1" in str(err.value)
    s = act(deal("AS 2S 3S 4H 4D 4C 7C 8C 9C TC", DL_HIGH, "5H", "KS", rules=rules),
            "pass", "pass", "draw stock")
    assert {t for t in legal_texts(s) if not t.startswith("discard")} == {"gin KS"}
    s = act(s, "gin KS")
    assert (s.result.outcome, s.result.points) == ("gin", 25 + 77)


# -- R9: Oklahoma gin --------------------------------------------------------------------------------


@pytest.mark.parametrize("upcard,limit", [("7H", 7), ("KC", 10), ("TD", 10), ("JH", 10), ("2C", 2)])
def test_r9_1_oklahoma_limit_is_upcard_value(upcard, limit):
    """R9.1: the knock limit is the value of the first upcard, face cards 10."""
    s = deal(ND_KD, DL_HIGH, upcard, rules=PRESETS["oklahoma"])
    assert s.knock_limit == limit and s.multiplier == 1


def test_r9_1_oklahoma_knock_boundary():
    """R9.1: upcard 7H -> limit 7.  ND_KD draws 5C: knock KD leaves 5C = 5 <= 7 (legal);
    knock 5C leaves KD = 10 > 7 (not legal)."""
    s = act(deal(ND_KD, "5S 7S 9S TH QH 2D 6D 8D JS KH", "7H", "5C", rules=PRESETS["oklahoma"]),
            "pass", "pass", "draw stock")
    knocks = {t for t in legal_texts(s) if t.startswith("knock")}
    assert knocks == {"knock KD"}
    with pytest.raises(IllegalActionError):
        s.apply(0, parse_action("knock 5C"))


def test_r9_1_oklahoma_ignores_knock_limit_field():
    """R9.1, R14: ``knock_limit`` is ignored by Oklahoma."""
    rules = PRESETS["oklahoma"].replace(knock_limit=3)
    assert deal(ND_KD, DL_HIGH, "9H", rules=rules).knock_limit == 9


def test_r9_2_oklahoma_ace_gin_only_or_one():
    """R9.2: an ace upcard: gin only (no knock even with 1 point); ``oklahoma_ace="one"``: limit 1.
    Upcard AC, both pass, ND_KD draws AH: knocking with KD leaves AH = 1 point."""
    base = PRESETS["oklahoma"]
    s = act(deal(ND_KD, DL_HIGH, "AC", "AH", rules=base), "pass", "pass", "draw stock")
    assert s.knock_limit is None
    assert not any(t.startswith("knock") for t in legal_texts(s))
    one = base.replace(oklahoma_ace="one")
    s = act(deal(ND_KD, DL_HIGH, "AC", "AH", rules=one), "pass", "pass", "draw stock")
    assert s.knock_limit == 1
    assert {t for t in legal_texts(s) if t.startswith("knock")} == {"knock KD"}
    s = act(s, "knock KD")
    # K = 1, D = 77 (DL_HIGH: nothing to lay off), points 76; AC is a club, no doubling
    assert (s.result.outcome, s.result.points) == ("knock", 76)


def test_r9_3_spade_upcard_doubles_everything():
    """R9.3: a spade upcard doubles every score of the deal, bonuses included.
    Gin with upcard 8S: (25 + 77) * 2 = 204 against DL_HIGH.  Knock with upcard TS (limit 10):
    K = 9 (9D), the defender's deadwood 36 (see below): (36 - 9) * 2 = 54."""
    okl = PRESETS["oklahoma"]
    s = act(deal("AS 2S 3S 4H 4D 4C 7C 8C 9C TC", DL_HIGH, "8S", "KD", rules=okl),
            "pass", "pass", "draw stock", "gin KD")
    r = s.result
    assert s.multiplier == 2
    assert (r.outcome, r.points, r.showdown.base_points, r.showdown.multiplier) == ("gin", 204, 102, 2)
    assert r.showdown.to_json()["bonus"] == 50
    hand = "5H 6H 7H 4C 4D 4S JC QC KC 9D"
    s = act(deal(hand, "8S 9S QS AD AH AC 4H 8H 2C 7D", "TS", "KS", rules=okl),
            "pass", "pass", "draw stock", "knock KS")
    # defender: aces melded, 4H and 8H laid off; 8S 9S QS + 2C 7D: 8+9+10+2+7 = 36 > 9 -> knock
    assert (s.result.outcome, s.result.points) == ("knock", (36 - 9) * 2)


def test_r9_3_undercut_doubled_and_option_off():
    """R9.3: an undercut bonus is doubled too; with ``spade_doubles=false`` nothing is doubled.
    K = 9, defender 8C 9C TC AD AH AC 4H 8H 2H 7D: melds 8C-TC and the aces, lays off 4H and
    8H, deadwood 2H 7D = 9 = K: undercut 25 + 0, doubled 50."""
    okl = PRESETS["oklahoma"]
    hand = "5H 6H 7H 4C 4D 4S JC QC KC 9D"
    defender = "8C 9C TC AD AH AC 4H 8H 2H 7D"
    s = act(deal(hand, defender, "TS", "KS", rules=okl), "pass", "pass", "draw stock", "knock KS")
    assert (s.result.outcome, s.result.winner, s.result.points) == ("undercut", 1, 50)
    off = okl.replace(spade_doubles=False)
    s = act(deal(hand, defender, "TS", "KS", rules=off), "pass", "pass", "draw stock", "knock KS")
    assert (s.result.outcome, s.result.points) == ("undercut", 25)


def test_r9_3_spade_does_not_double_standard():
    """R9.3 is an Oklahoma rule: a spade upcard in standard gin doubles nothing."""
    s = deal(ND_KD, DL_HIGH, "8S")
    assert s.multiplier == 1 and s.knock_limit == 10


# -- errors: out of turn, illegal, state unchanged ----------------------------------------------------


def test_errors_leave_state_unchanged():
    """An action out of turn raises NotYourTurnError, an illegal one IllegalActionError with
    ``.legal`` filled; neither changes the state (hands, pile, phase, log)."""
    s = act(deal(ND_KD, DL_HIGH, "5H", "5C"), "pass", "pass")
    before = snapshot(s)
    with pytest.raises(NotYourTurnError):
        s.apply(1, parse_action("draw stock"))
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, parse_action("discard KD"))
    assert err.value.legal == ["draw stock"] and err.value.action == "discard KD"
    with pytest.raises(IllegalActionError):
        s.apply(0, "draw stock")  # not an Action object
    assert snapshot(s) == before
    s = act(s, "draw stock")
    before = snapshot(s)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, parse_action("discard QH"))  # not in the hand
    assert "not in the hand" in str(err.value)
    assert "discard KD" in err.value.legal and "knock KD" in err.value.legal
    with pytest.raises(IllegalActionError):
        s.apply(0, parse_action("gin KD"))
    assert snapshot(s) == before


def test_errors_after_the_deal_is_over():
    """Once over, every action is out of turn (NotYourTurnError) and nothing is legal."""
    s = act(deal(ND_KD, DL_HIGH, "5H"), "take upcard", "knock KD")
    assert s.legal_actions() == []
    with pytest.raises(NotYourTurnError):
        s.apply(0, parse_action("draw stock"))
    with pytest.raises(NotYourTurnError):
        s.apply(1, parse_action("draw stock"))


def test_apply_returns_events_and_keeps_old_state():
    """``apply`` returns a new state and the events; the old state is untouched."""
    s0 = deal(ND_KD, DL_HIGH, "5H", "5C")
    s1, ev = s0.apply(0, parse_action("pass"))
    assert [e.kind for e in ev] == ["pass"]
    assert s0.phase == UPCARD_OFFER and s0.to_act == 0 and s0.log == ()
    s2, ev = act(s1, "pass").apply(0, parse_action("draw stock"))
    assert ev[0].kind == "draw_stock" and ev[0].card == c("5C") and ev[0].private


# -- invariants over many seeded deals ----------------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "straight", "oklahoma"])
@pytest.mark.parametrize("stock_end", ["draw_at_two", "wall", "reshuffle"])
def test_invariants_over_seeded_deals(variant, stock_end):
    """Over 12 seeded deals per rule set, played by a seeded policy (random draws, discards that
    keep the least deadwood, knocking or going gin half the time it may): the 52 cards are
    always all present once (R1.1); hands hold 10 cards between turns; a draw ends with two
    stock cards (R7.1, R7.2) or an empty stock after ``max_reshuffles`` rebuilds (R7.3); a knock
    has 0 < K <= limit and K < D, an undercut K >= D (R6.2, R6.3); Straight ends only by gin
    (R8.1); points are the base points times the multiplier (R9.3)."""
    import random

    from ginrummy.deal import deck_from_seed
    from ginrummy.melds import deadwood

    rules = RuleSet(variant=variant, stock_end=stock_end, big_gin_bonus=31)
    full = (1 << 52) - 1
    for i in range(12):
        rng = random.Random(i)
        s = new_deal(rules, i % 2, deck_from_seed(bytes([i]) + stock_end.encode()))
        while not s.is_over:
            legal = s.legal_actions()
            ends = [a for a in legal if a.kind in ("knock", "gin", "big_gin")]
            if ends and rng.random() < 0.5:
                a = rng.choice(ends)
            elif s.phase == DISCARD and any(x.kind == "discard" for x in legal):
                hand = s.hands[s.to_act]
                a = min((x for x in legal if x.kind == "discard"),
                        key=lambda x: (deadwood(hand & ~(1 << x.card)), rng.random()))
            else:
                a = rng.choice(legal)
            s, _ = s.apply(s.to_act, a)
            everything = s.hands[0] | s.hands[1] | mask_of(s.pile) | mask_of(s.stock[s.drawn:])
            size = s.hands[0].bit_count() + s.hands[1].bit_count() + len(s.pile) + s.stock_size
            assert everything == full and size == 52
            if s.phase in (DRAW, UPCARD_OFFER, WALL):
                assert s.hands[0].bit_count() == s.hands[1].bit_count() == 10
        r = s.result
        if r.outcome == "draw":
            if stock_end == "reshuffle":
                assert s.stock_size == 0 and s.reshuffles == rules.max_reshuffles and r.reason == "R7.3"
            else:
                assert s.stock_size == 2 and r.reason == ("R7.1" if stock_end == "draw_at_two" else "R7.2")
            continue
        sd = r.showdown
        k, d = sd.knocker.deadwood_value, sd.defender.deadwood_value
        assert r.points == sd.base_points * s.multiplier
        if variant == "straight":
            assert r.outcome in ("gin", "big_gin")
        if r.outcome == "knock":
            assert 0 < k <= s.knock_limit and k < d and sd.base_points == d - k
        elif r.outcome == "undercut":
            assert 0 < k <= s.knock_limit and k >= d and sd.base_points == 25 + k - d
        elif r.outcome == "gin":
            assert k == 0 and sd.base_points == 25 + d
        else:
            assert k == 0 and sd.base_points == 31 + d


def test_r5_1_knock_refused_names_the_deadwood_left():
    """R5.1: a knock whose discard leaves more than the knock limit names the deadwood it
    leaves; one that leaves none says to go gin (R6.1).  Nothing changes."""
    hand = "AS 2S 3S 4H 4D 4C 7C 8C 9C TC"
    s = act(deal(hand, DL_HIGH, "5H", "KS"), "pass", "pass", "draw stock")
    before = snapshot(s)
    # after the draw: AS 2S 3S, 4H 4D 4C, 7C 8C 9C TC melded and KS; discarding AS leaves
    # 2S 3S (5) + KS (10) = 15
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, parse_action("knock AS"))
    assert "(discarding AS leaves 15 deadwood, above the knock limit 10 (R5.1))" in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, parse_action("knock KS"))
    assert "(discarding KS leaves no deadwood: that is gin, so go gin with it (R6.1))" in str(err.value)
    assert snapshot(s) == before


@pytest.mark.parametrize("rules", [PRESETS["standard"], PRESETS["standard"].replace(discard_taken_card=True),
                                   PRESETS["straight"], PRESETS["oklahoma"], PRESETS["standard"].replace(stock_end="wall")])
def test_discards_only_and_the_discard_check_agree_with_the_legal_list(rules):
    """DealState.discards_only() is the cards of the legal actions exactly when these are plain
    discards (R4.1, R4.3, R5.1, R7.2); apply() of each of our 52 discard actions on a state whose
    list was never built (its quick check) accepts exactly the discards of legal_actions()."""
    import random

    from ginrummy.deal import _DISCARDS, deck_from_seed

    rng = random.Random(3)
    only = mixed = 0
    for d in range(12):
        state = new_deal(rules, d % 2, deck_from_seed(bytes([d, 7])))
        while state.phase != OVER:
            bits = state.discards_only()
            if state.phase == DISCARD:
                for x in range(52):
                    probe = state._copy()  # the same state, its list of legal actions not built
                    try:
                        probe.apply(state.to_act, _DISCARDS[x])
                        ok = True
                    except IllegalActionError:
                        ok = False
                    assert ok == (_DISCARDS[x] in state.legal_actions()), x
                    with pytest.raises(NotYourTurnError):
                        state._copy().apply(1 - state.to_act, _DISCARDS[x])
            legal = state.legal_actions()
            if bits is not None:
                only += 1
                assert legal == [_DISCARDS[x] for x in cards_of(bits)]
            elif state.phase == DISCARD:
                mixed += 1
                assert any(a.kind != "discard" for a in legal)
            state, _ = state.apply(state.to_act, rng.choice(legal))
    assert only > 100
    assert mixed > 0 or rules.variant != "standard"  # random play seldom nears gin or a low Oklahoma limit


def test_public_shared_actions_and_legal_list():
    """The names ginrummy.env takes from the engine are public (issue 29): the shared action
    objects per card, and the engine's own legal list (computed once per state, shared)."""
    from ginrummy.actions import discard, gin, knock
    from ginrummy.cards import CARD_STRS, card_str
    from ginrummy.deal import DISCARD_ACTIONS, GIN_ACTIONS, KNOCK_ACTIONS

    assert [len(DISCARD_ACTIONS), len(KNOCK_ACTIONS), len(GIN_ACTIONS)] == [52, 52, 52]
    assert DISCARD_ACTIONS[5] == discard(5) and KNOCK_ACTIONS[5] == knock(5) and GIN_ACTIONS[5] == gin(5)
    assert CARD_STRS == tuple(card_str(x) for x in range(52)) and CARD_STRS[:2] == ("AC", "2C")
    s = new_deal(STANDARD, 0, list(range(52)))
    assert s.legal_actions_known is False
    shared = s.legal_actions_shared()
    assert s.legal_actions_known is True
    assert shared is s.legal_actions_shared() and shared == s.legal_actions() and shared is not s.legal_actions()
    # a discard the engine lists is the shared object itself
    while s.phase != DISCARD:
        s, _ = s.apply(s.to_act, s.legal_actions()[0])
    listed = [a for a in s.legal_actions_shared() if a.kind == "discard"]
    assert listed and all(a is DISCARD_ACTIONS[a.card] for a in listed)


def test_phases_outcomes_and_action_kinds_are_str_enums():
    """Phases, outcomes and action kinds are StrEnums (issue 29): equal to, and written as, the
    strings they were, so JSON, records and texts stay byte-identical."""
    import json

    import orjson

    from ginrummy.actions import KINDS, ActionKind, discard
    from ginrummy.deal import PHASES, Outcome, Phase

    assert [str(p) for p in PHASES] == ["upcard_offer", "draw", "discard", "wall", "over"]
    assert all(isinstance(p, Phase) for p in PHASES) and [str(k) for k in KINDS] == [
        "take_upcard", "pass", "draw_stock", "take_discard", "discard", "knock", "gin", "big_gin"]
    assert [str(o) for o in Outcome] == ["knock", "undercut", "gin", "big_gin", "draw"]
    s = new_deal(STANDARD, 0, list(range(52)))
    assert s.phase is Phase.UPCARD_OFFER and s.phase == "upcard_offer"
    assert json.dumps({"phase": s.phase, "kind": ActionKind.BIG_GIN}) == '{"phase": "upcard_offer", "kind": "big_gin"}'
    assert orjson.dumps({"o": Outcome.UNDERCUT}) == b'{"o":"undercut"}'
    assert repr(discard(5)) == "Action(kind='discard', card=5, melds=None)"
    assert repr(s).startswith("DealState(phase='upcard_offer', ")
    assert repr((Phase.WALL, Outcome.GIN, ActionKind.PASS)) == "('wall', 'gin', 'pass')"  # golden digests hash reprs
