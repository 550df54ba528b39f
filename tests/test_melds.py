"""Tests of ginrummy.melds: best arrangement and deadwood (R2), knock discards (R5.1), big gin
(R6.5), the knocker's proposed arrangement (R5.2) and the defender's melds plus layoffs
(R5.4, R5.5).

Two kinds of check: hand-worked examples with exact expected values, and an independent
brute-force reference (every arrangement of disjoint melds, every legal set of layoffs) that
the fast search must match on Hypothesis-generated hands.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginrummy.cards import CARD_VALUES, FULL_DECK, cards_of, mask_of, mask_value, parse_cards
from ginrummy.melds import (
    Arrangement,
    DefenderLayout,
    best_arrangement,
    best_discard_deadwood,
    deadwood,
    defender_layout,
    discard_options,
    is_big_gin,
    is_meld,
    knock_arrangement,
    layoff_cards,
    min_deadwood_arrangements,
)


def m(text: str) -> int:
    return mask_of(parse_cards(text))


# --- independent brute-force reference ------------------------------------------------------


def _all_melds() -> list[int]:
    """Every legal meld of the deck, built from the definitions: sets of 3 or 4 of a rank
    (R2.1), runs of 3+ consecutive cards of a suit, ace low, no wrap (R1.2, R2.2)."""
    out = []
    for r in range(13):
        four = [s * 13 + r for s in range(4)]
        out.append(mask_of(four))
        for skip in four:
            out.append(mask_of(c for c in four if c != skip))
    for s in range(4):
        for lo in range(13):
            for hi in range(lo + 2, 13):
                out.append(mask_of(s * 13 + r for r in range(lo, hi + 1)))
    return out


ALL_MELDS = _all_melds()
MELD_SET = frozenset(ALL_MELDS)
MELDS_BY_CARD = [[x for x in ALL_MELDS if (x >> c) & 1] for c in range(52)]


@cache
def bf_deadwood(mask: int) -> int:
    """Least deadwood over every arrangement (R2.4): the lowest card is either deadwood or in
    exactly one meld made of cards of the hand (R2.3)."""
    if not mask:
        return 0
    low = mask & -mask
    c = low.bit_length() - 1
    best = CARD_VALUES[c] + bf_deadwood(mask ^ low)
    for meld in MELDS_BY_CARD[c]:
        if meld & mask == meld:
            d = bf_deadwood(mask ^ meld)
            if d < best:
                best = d
    return best


def bf_arrangements(mask: int) -> list[tuple[int, ...]]:
    """Every arrangement of ``mask`` as a tuple of disjoint melds (the rest is deadwood)."""
    if not mask:
        return [()]
    low = mask & -mask
    c = low.bit_length() - 1
    out = list(bf_arrangements(mask ^ low))
    for meld in MELDS_BY_CARD[c]:
        if meld & mask == meld:
            out.extend((meld,) + rest for rest in bf_arrangements(mask ^ meld))
    return out


def bf_layable(cards: int, knocker_melds: list[int]) -> bool:
    """Whether ``cards`` can all be laid off on ``knocker_melds`` (R5.4): some assignment of
    each card to one meld makes every meld plus its cards a legal meld (layoffs chain, so any
    such extension can be laid card by card from the meld outwards)."""
    cl = cards_of(cards)
    if not cl:
        return True
    # a set takes only its rank, a run only its suit
    choices = []
    for c in cl:
        opts = []
        for i, km in enumerate(knocker_melds):
            kc = cards_of(km)
            if len({x % 13 for x in kc}) == 1:
                if c % 13 == kc[0] % 13:
                    opts.append(i)
            elif c // 13 == kc[0] // 13:
                opts.append(i)
        if not opts:
            return False
        choices.append(opts)
    for assign in product(*choices):
        ext = list(knocker_melds)
        for c, i in zip(cl, assign):
            ext[i] |= 1 << c
        if all(e in MELD_SET for e in ext):
            return True
    return False


def bf_defender(defender: int, knocker_melds: list[int]) -> int:
    """The defender's least deadwood (R5.5): over every subset of his cards that can legally
    be laid off, the best melds of the rest."""
    cards = cards_of(defender)
    best = bf_deadwood(defender)
    for bits in range(1, 1 << len(cards)):
        sub = mask_of(c for i, c in enumerate(cards) if (bits >> i) & 1)
        if bf_layable(sub, knocker_melds):
            best = min(best, bf_deadwood(defender & ~sub))
    return best


def check_arrangement(mask: int, arr: Arrangement) -> None:
    """An arrangement is legal: disjoint legal melds of cards of the hand (R2.1-R2.3) and the
    deadwood is exactly the rest, valued by R1.3."""
    union = 0
    for meld in arr.melds:
        assert meld in MELD_SET, f"not a meld: {cards_of(meld)}"
        assert union & meld == 0, "a card in two melds (R2.3)"
        union |= meld
    assert union & ~mask == 0
    assert arr.deadwood == mask & ~union
    assert arr.deadwood_value == mask_value(arr.deadwood)


def check_defender(defender: int, knocker_melds: list[int], lay: DefenderLayout) -> None:
    """A defender layout is legal: own melds legal and disjoint; each layoff goes onto a
    knocker meld as it stands then (chaining, R5.4) and leaves a legal meld; every card is in
    exactly one of melds, layoffs, deadwood."""
    used = 0
    for meld in lay.melds:
        assert meld in MELD_SET
        assert used & meld == 0
        used |= meld
    table = list(knocker_melds)
    for lo in lay.layoffs:
        assert (defender >> lo.card) & 1
        assert not (used >> lo.card) & 1, "card used twice"
        used |= 1 << lo.card
        assert lo.onto in table, "layoff onto a meld that is not on the table"
        grown = lo.onto | (1 << lo.card)
        assert grown in MELD_SET, "layoff does not make a meld"
        table[table.index(lo.onto)] = grown
    assert used & lay.deadwood == 0
    assert used | lay.deadwood == defender
    assert lay.deadwood_value == mask_value(lay.deadwood)


hands = st.lists(st.integers(0, 51), min_size=0, max_size=13, unique=True).map(mask_of)


def hand_of(n: int) -> st.SearchStrategy[int]:
    return st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True).map(mask_of)


@st.composite
def meld_rich_hands(draw: st.DrawFn, n: int = 10) -> int:
    """Hands built from a few melds (often sharing cards) plus random cards in a narrow band of
    ranks, so that sets and runs compete for cards."""
    lo = draw(st.integers(0, 8))
    band = [s * 13 + r for s in range(4) for r in range(lo, lo + 5)]
    chosen = 0
    for meld in draw(st.lists(st.sampled_from([x for x in ALL_MELDS if x & mask_of(band) == x]), max_size=3)):
        chosen |= meld
    cards = cards_of(chosen)[:n]
    rest = [c for c in band if c not in cards]
    extra = draw(st.lists(st.sampled_from(rest), min_size=0, max_size=n, unique=True))
    cards = (cards + extra)[:n]
    if len(cards) < n:
        others = [c for c in range(52) if c not in cards]
        cards += draw(st.lists(st.sampled_from(others), min_size=n - len(cards), max_size=n - len(cards), unique=True))
    return mask_of(cards)


# --- R2: hand-worked examples ----------------------------------------------------------------


def test_set_of_three_r2_1() -> None:
    assert deadwood(m("7C 7D 7H")) == 0
    assert deadwood(m("7C 7D 7H KS 2D")) == 12


def test_set_of_four_r2_1() -> None:
    assert deadwood(m("QC QD QH QS")) == 0
    assert best_arrangement(m("QC QD QH QS 3C")).melds == (m("QC QD QH QS"),)


def test_two_of_a_kind_is_not_a_set_r2_1() -> None:
    assert deadwood(m("7C 7D")) == 14
    assert not is_meld(m("7C 7D"))


def test_runs_r2_2() -> None:
    assert deadwood(m("3S 4S 5S")) == 0
    assert deadwood(m("8D 9D TD JD QD KD")) == 0
    # not consecutive
    assert deadwood(m("3S 4S 6S")) == 13
    # consecutive ranks but two suits
    assert deadwood(m("3S 4S 5H")) == 12
    assert not is_meld(m("3S 4S 5H"))
    # ace low only (R1.2)
    assert deadwood(m("QH KH AH")) == 21
    assert deadwood(m("AH 2H 3H")) == 0


def test_is_meld_examples() -> None:
    assert is_meld(m("9C 9D 9S"))
    assert is_meld(m("9C 9D 9H 9S"))
    assert is_meld(m("TH JH QH KH"))
    assert not is_meld(m("9C 9D 9S TS"))
    assert not is_meld(m("TH JH KH"))
    assert not is_meld(0)


def test_card_in_one_meld_only_r2_3() -> None:
    # 7H would complete both the run 5H-6H-7H and the set of sevens; it may be in one only
    hand = m("5H 6H 7H 7C 7D")
    assert deadwood(hand) == 11  # set of sevens, 5H 6H dead (the run would leave 7C 7D = 14)
    arr = best_arrangement(hand)
    assert arr.melds == (m("7C 7D 7H"),)
    assert arr.deadwood == m("5H 6H")


def test_four_of_a_kind_fourth_card_goes_to_a_run_r2_3() -> None:
    # set 7C 7D 7H, and 7S starts the run 7S 8S 9S
    hand = m("7C 7D 7H 7S 8S 9S")
    assert deadwood(hand) == 0
    arr = best_arrangement(hand)
    assert set(arr.melds) == {m("7C 7D 7H"), m("7S 8S 9S")}
    check_arrangement(hand, arr)


def test_four_of_a_kind_vs_two_runs() -> None:
    # the set of four costs two runs; the runs with a set of three are better
    hand = m("5C 5D 5H 5S 6S 7S 6H 7H KC QC")
    # sets of 3 + run: e.g. 5C 5D 5H + 5S 6S 7S, dead 6H 7H KC QC = 33
    # two runs 5S-7S, 5H-7H, dead 5C 5D KC QC = 30
    assert deadwood(hand) == 30
    assert bf_deadwood(hand) == 30


def test_gin_hand_r2_5() -> None:
    hand = m("AS 2S 3S 4S 9C 9D 9H JD QD KD")
    assert deadwood(hand) == 0
    arr = best_arrangement(hand)
    assert arr.deadwood == 0 and arr.deadwood_value == 0
    assert set(arr.melds) == {m("AS 2S 3S 4S"), m("9C 9D 9H"), m("JD QD KD")}


def test_deadwood_value_r2_4() -> None:
    hand = m("AS 2S 3S 9C 9D 9H KD QC 4H 5D")
    assert deadwood(hand) == 10 + 10 + 4 + 5
    arr = best_arrangement(hand)
    assert arr.deadwood == m("KD QC 4H 5D")
    assert arr.deadwood_cards() == cards_of(m("KD QC 4H 5D"))
    assert sorted(map(sorted, arr.meld_cards())) == sorted(sorted(cards_of(x)) for x in (m("AS 2S 3S"), m("9C 9D 9H")))


def test_empty_and_no_meld_hands() -> None:
    assert deadwood(0) == 0
    assert deadwood(m("AC 3D 5H 7S 9C JD KH")) == 1 + 3 + 5 + 7 + 9 + 10 + 10


def test_two_four_of_a_kinds_and_runs() -> None:
    # two ranks held four times: every combination of set choices is needed
    hand = m("4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H")
    assert deadwood(hand) == bf_deadwood(hand) == 0
    # 4C 4H 4S + 5C 5H 5S + 4D 5D 6D, 3S dead
    hand = m("4C 4D 4H 4S 5C 5D 5H 5S 3S 6D")
    assert deadwood(hand) == bf_deadwood(hand) == 3
    check_arrangement(hand, best_arrangement(hand))
    assert best_arrangement(hand).deadwood == m("3S")


def test_min_deadwood_arrangements_lists_each_best_arrangement() -> None:
    # gin three ways: four 4s and two three-card runs, or a set of three and a four-card run
    hand = m("4C 4D 4H 4S 5S 6S 7S 5H 6H 7H")
    arrs = min_deadwood_arrangements(hand)
    assert {frozenset(a.melds) for a in arrs} == {
        frozenset({m("4C 4D 4H 4S"), m("5S 6S 7S"), m("5H 6H 7H")}),
        frozenset({m("4C 4D 4H"), m("4S 5S 6S 7S"), m("5H 6H 7H")}),
        frozenset({m("4C 4D 4S"), m("5S 6S 7S"), m("4H 5H 6H 7H")}),
    }
    for a in arrs:
        assert a.deadwood_value == 0
        check_arrangement(hand, a)
    # the two runs beat any set of 4s: one arrangement only
    hand = m("4C 4D 4H 4S 5S 6S 5H 6H AC AD")
    arrs = min_deadwood_arrangements(hand)
    assert [set(a.melds) for a in arrs] == [{m("4S 5S 6S"), m("4H 5H 6H")}]
    assert arrs[0].deadwood == m("4C 4D AC AD")


# --- R2: brute force on generated hands ------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(hands)
def test_deadwood_matches_brute_force_random(hand: int) -> None:
    assert deadwood(hand) == bf_deadwood(hand)
    arr = best_arrangement(hand)
    check_arrangement(hand, arr)
    assert arr.deadwood_value == bf_deadwood(hand)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 12).flatmap(meld_rich_hands))
def test_deadwood_matches_brute_force_meld_rich(hand: int) -> None:
    assert deadwood(hand) == bf_deadwood(hand)
    arr = best_arrangement(hand)
    check_arrangement(hand, arr)
    assert arr.deadwood_value == bf_deadwood(hand)
    arrs = min_deadwood_arrangements(hand)
    assert arrs
    for a in arrs:
        check_arrangement(hand, a)
        assert a.deadwood_value == bf_deadwood(hand)


# --- R5.1 discards, R6.5 big gin -------------------------------------------------------------


def test_discard_options_hand_worked() -> None:
    # after drawing KC: AS 2S 3S + 9C 9D 9H + JD QD KD + 4S + KC
    hand = m("AS 2S 3S 4S 9C 9D 9H JD QD KD KC")
    opts = dict(discard_options(hand))
    assert list(opts) == cards_of(hand)  # card order
    assert opts[m("KC").bit_length() - 1] == 0  # discard KC: gin
    assert opts[m("AS").bit_length() - 1] == 10  # 2S-4S still a run, KC dead
    assert opts[m("4S").bit_length() - 1] == 10
    assert opts[m("2S").bit_length() - 1] == 1 + 3 + 4 + 10  # breaks the run
    assert opts[m("9D").bit_length() - 1] == 9 + 9 + 10
    assert best_discard_deadwood(hand) == 0


def test_best_discard_hand_worked_r5_1() -> None:
    # keep the four 8s and 2C-4C; discard KD: 5H 6H 9S dead
    assert best_discard_deadwood(m("8C 8D 8H 8S 2C 3C 4C 5H 6H 9S KD")) == 5 + 6 + 9
    # the set of sevens is broken by the discard of 7H: 5C-7C, 5D-7D, JS-KS, 2H dead
    hand = m("7C 7D 7H 5C 6C 5D 6D KS QS JS 2H")
    assert deadwood(hand) == 2 + 7
    assert best_discard_deadwood(hand) == 2
    assert dict(discard_options(hand))[m("7H").bit_length() - 1] == 2


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=1, max_size=13, unique=True).map(mask_of))
def test_discards_match_brute_force(hand: int) -> None:
    expected = [(c, bf_deadwood(hand & ~(1 << c))) for c in cards_of(hand)]
    assert discard_options(hand) == expected
    assert best_discard_deadwood(hand) == min(d for _, d in expected)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meld_rich_hands(11))
def test_best_discard_matches_brute_force_meld_rich(hand: int) -> None:
    assert best_discard_deadwood(hand) == min(bf_deadwood(hand & ~(1 << c)) for c in cards_of(hand))
    assert is_big_gin(hand) == (bf_deadwood(hand) == 0)


def test_is_big_gin_r6_5() -> None:
    assert is_big_gin(m("AS 2S 3S 4S 7C 7D 7H 7S TD JD QD"))  # 4 + 4 + 3
    assert is_big_gin(m("AS 2S 3S 4S 5S 7C 7D 7H TD JD QD"))  # 5 + 3 + 3
    assert not is_big_gin(m("AS 2S 3S 7C 7D 7H TD JD QD KD 5H"))  # 5H dead
    # gin after a discard is not big gin
    hand = m("AS 2S 3S 4S 9C 9D 9H JD QD KD KC")
    assert best_discard_deadwood(hand) == 0 and not is_big_gin(hand)


# --- R5.2 the knocker's proposed arrangement -------------------------------------------------


def test_knock_arrangement_prefers_fewest_layoffs_r5_2() -> None:
    hand = m("4C 4D 4H 4S 5S 6S 7S 5H 6H 7H")
    # three gin arrangements; 3S fits only on 4S-7S, 3H only on 4H-7H: the set of four hides both
    arr = knock_arrangement(hand, unseen=m("3S 3H"))
    assert set(arr.melds) == {m("4C 4D 4H 4S"), m("5S 6S 7S"), m("5H 6H 7H")}
    # 8S and 8H fit every arrangement; 3S 2S only the one with 4S-7S
    arr = knock_arrangement(hand, unseen=m("8S 8H 3S 2S"))
    assert layoff_cards(m("8S 8H 3S 2S"), arr.melds) == m("8S 8H")
    assert m("4S 5S 6S 7S") not in arr.melds


def test_knock_arrangement_keeps_four_of_a_kind_when_it_hides_layoffs_r5_2() -> None:
    # gin either way: set of four 8s + 5H-7H, or 8C 8D 8S + 5H-8H; the first offers fewer
    # layoffs (4H..AH, TC 9C) than the second (4H..AH, 9H..KH, TC 9C)
    hand = m("5H 6H 7H 8C 8D 8H 8S JC QC KC")
    arr = knock_arrangement(hand)
    assert arr.deadwood_value == 0
    assert set(arr.melds) == {m("8C 8D 8H 8S"), m("5H 6H 7H"), m("JC QC KC")}
    assert layoff_cards(FULL_DECK & ~hand, arr.melds) == m("AH 2H 3H 4H 9C TC")


def test_knock_arrangement_least_deadwood_first_r5_2() -> None:
    # the set of sevens leaves less deadwood than the run, whatever the layoffs
    hand = m("5H 6H 7H 7C 7D KS QS JS 2C 3D")
    arr = knock_arrangement(hand)
    assert arr.deadwood_value == deadwood(hand) == 5 + 6 + 2 + 3


def test_layoff_cards_chains_r5_4() -> None:
    melds = [m("5H 6H 7H"), m("9C 9D 9S")]
    pool = m("3H 4H 8H 9H TH 2H 9C KD")
    # 4H, then 3H, then 2H down; 8H, 9H, TH up; 9H onto the set
    assert layoff_cards(pool, melds) == m("2H 3H 4H 8H 9H TH")
    # a gap stops the chain
    assert layoff_cards(m("3H 8H"), melds) == m("8H")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meld_rich_hands(10), st.sets(st.integers(0, 51), max_size=20))
def test_knock_arrangement_brute_force(hand: int, unseen_cards: set[int]) -> None:
    unseen = mask_of(unseen_cards) & ~hand
    arr = knock_arrangement(hand, unseen=unseen)
    check_arrangement(hand, arr)
    best = bf_deadwood(hand)
    assert arr.deadwood_value == best
    fewest = min(
        layoff_cards(unseen, a).bit_count()
        for a in bf_arrangements(hand)
        if mask_value(hand & ~sum(a)) == best
    )
    assert layoff_cards(unseen, arr.melds).bit_count() == fewest


# --- R5.4, R5.5 the defender's layout ---------------------------------------------------------


def laid(lay: DefenderLayout) -> int:
    return mask_of(lo.card for lo in lay.layoffs)


def test_defender_chained_layoffs_both_ends_of_a_run_r5_4() -> None:
    knocker = [m("5H 6H 7H"), m("JC JD JS")]
    defender = m("3H 4H 8H 9H KC 2C 2D 6S 7D AS")
    lay = defender_layout(defender, knocker)
    check_defender(defender, knocker, lay)
    assert laid(lay) == m("3H 4H 8H 9H")
    # 4H before 3H, 8H before 9H: each onto the run as it stands
    order = [lo.card for lo in lay.layoffs]
    assert order.index(m("4H").bit_length() - 1) < order.index(m("3H").bit_length() - 1)
    assert order.index(m("8H").bit_length() - 1) < order.index(m("9H").bit_length() - 1)
    assert lay.deadwood == m("KC 2C 2D 6S 7D AS")
    assert lay.deadwood_value == 10 + 2 + 2 + 6 + 7 + 1


def test_defender_fourth_card_onto_a_set_r5_4() -> None:
    knocker = [m("8C 8D 8H"), m("2S 3S 4S")]
    defender = m("8S 5S KC KD QH 9C 3C 7D 6H TD")
    lay = defender_layout(defender, knocker)
    check_defender(defender, knocker, lay)
    assert laid(lay) == m("8S 5S")
    assert lay.deadwood_value == 10 + 10 + 10 + 9 + 3 + 7 + 6 + 10


def test_defender_set_of_four_takes_no_layoff() -> None:
    knocker = [m("8C 8D 8H 8S")]
    defender = m("7C 9C 7H 9H KD")
    lay = defender_layout(defender, knocker)
    assert lay.layoffs == ()
    assert lay.deadwood_value == 7 + 9 + 7 + 9 + 10


def test_defender_no_layoffs_onto_gin_r5_4_r6_1() -> None:
    knocker = [m("5H 6H 7H"), m("JC JD JS"), m("AS 2S 3S 4S")]
    defender = m("3H 4H 8H 9H JH 5S 2C 2D 6D 7D")
    lay = defender_layout(defender, knocker, allow_layoffs=False)
    assert lay.layoffs == ()
    assert lay.deadwood_value == deadwood(defender) == 3 + 4 + 8 + 9 + 10 + 5 + 2 + 2 + 6 + 7
    # with layoffs allowed he would lay off everything but 2C 2D 6D 7D
    lay = defender_layout(defender, knocker)
    check_defender(defender, knocker, lay)
    assert lay.deadwood_value == 2 + 2 + 6 + 7


def test_defender_two_runs_of_one_suit_compete_for_cards_r5_4() -> None:
    # 6H fits both the 3H-5H run (up) and the 7H-9H run (down): laid once
    knocker = [m("3H 4H 5H"), m("7H 8H 9H")]
    defender = m("6H KC KD 2S 3S 9D TD JC QS 4C")
    lay = defender_layout(defender, knocker)
    check_defender(defender, knocker, lay)
    assert laid(lay) == m("6H")
    assert len(lay.layoffs) == 1
    assert lay.deadwood_value == deadwood(defender) - 6
    # runs 3H-5H and 8H-TH: 6H, 7H can go on either, or one on each
    knocker = [m("3H 4H 5H"), m("8H 9H TH")]
    defender = m("6H 7H 2H JH KC KD 2S 3S 9D 4C")
    lay = defender_layout(defender, knocker)
    check_defender(defender, knocker, lay)
    assert laid(lay) == m("2H 6H 7H JH")
    assert lay.deadwood_value == 10 + 10 + 2 + 3 + 9 + 4


def test_defender_card_worth_more_melded_than_laid_off_r5_5() -> None:
    # 8H could go on the knocker's 5H-7H run (and 9H after it), but melding 8C 8D 8H saves
    # more: deadwood 9H = 9, against 8C 8D = 16 after laying off 8H 9H
    knocker = [m("5H 6H 7H"), m("QC QD QS")]
    defender = m("8H 8C 8D 9H")
    lay = defender_layout(defender, knocker)
    check_defender(defender, knocker, lay)
    assert lay.melds == (m("8C 8D 8H"),)
    assert lay.layoffs == ()
    assert lay.deadwood == m("9H") and lay.deadwood_value == 9


def test_defender_card_worth_more_laid_off_than_melded_r5_5() -> None:
    # four 8s could all be melded (9H dead), but melding three and laying off 8H then 9H
    # leaves nothing
    knocker = [m("5H 6H 7H"), m("QC QD QS")]
    defender = m("8C 8D 8H 8S 9H")
    lay = defender_layout(defender, knocker)
    check_defender(defender, knocker, lay)
    assert lay.melds == (m("8C 8D 8S"),)
    assert [lo.card for lo in lay.layoffs] == cards_of(m("8H 9H"))
    assert lay.layoffs[1].onto == m("5H 6H 7H 8H")
    assert lay.deadwood_value == 0


def test_defender_prefers_fewer_layoffs_at_equal_deadwood() -> None:
    # 8H 9H TH can be melded or laid off: same deadwood, no layoffs needed
    knocker = [m("5H 6H 7H")]
    defender = m("8H 9H TH KS")
    lay = defender_layout(defender, knocker)
    assert lay.deadwood_value == 10
    assert lay.layoffs == ()


@st.composite
def knock_positions(draw: st.DrawFn) -> tuple[int, list[int]]:
    """A knocker's melds (one to three disjoint melds, from a narrow band of ranks) and a
    defender of 4 to 10 cards from the rest, mostly from the same band."""
    lo = draw(st.integers(0, 7))
    band = mask_of(s * 13 + r for s in range(4) for r in range(lo, lo + 6))
    candidates = [x for x in ALL_MELDS if x & band == x]
    melds: list[int] = []
    used = 0
    for x in draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=3)):
        if not x & used:
            melds.append(x)
            used |= x
    near = cards_of(band & ~used)
    far = cards_of(FULL_DECK & ~band)
    n = draw(st.integers(4, 10))
    k = draw(st.integers(0, min(n, len(near))))
    cards = draw(st.lists(st.sampled_from(near), min_size=k, max_size=k, unique=True))
    cards += draw(st.lists(st.sampled_from(far), min_size=n - k, max_size=n - k, unique=True))
    return mask_of(cards), melds


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(knock_positions())
def test_defender_layout_matches_brute_force_r5_5(position: tuple[int, list[int]]) -> None:
    defender, knocker = position
    lay = defender_layout(defender, knocker)
    check_defender(defender, knocker, lay)
    assert lay.deadwood_value == bf_defender(defender, knocker)
    no_lay = defender_layout(defender, knocker, allow_layoffs=False)
    check_defender(defender, knocker, no_lay)
    assert no_lay.layoffs == ()
    assert no_lay.deadwood_value == bf_deadwood(defender)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=0, max_size=11, unique=True), st.integers(0, 51))
def test_melds_with_matches_every_meld_of_the_deck(hand_cards, card):
    """R2.1, R2.2: melds_with(card, hand) holds exactly when some set or run of any length that
    holds ``card`` lies within hand + card (checked against every meld of the deck)."""
    from ginrummy.melds import melds_with

    hand = mask_of(c for c in hand_cards if c != card)
    full = hand | (1 << card)
    expected = any(m & full == m for m in MELDS_BY_CARD[card])
    assert melds_with(card, hand) is expected


def test_melds_with_examples():
    """R1.2 ace low, R2.1 sets, R2.2 runs."""
    from ginrummy.melds import melds_with

    c = parse_cards
    assert melds_with(c("7H")[0], mask_of(c("7C 7D")))
    assert melds_with(c("7H")[0], mask_of(c("5H 6H")))
    assert melds_with(c("AH")[0], mask_of(c("2H 3H")))
    assert not melds_with(c("KH")[0], mask_of(c("AH 2H")))       # no wrap-around (R1.2)
    assert not melds_with(c("7H")[0], mask_of(c("5H 8H 7S")))
