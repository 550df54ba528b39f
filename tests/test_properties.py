"""Property tests (Hypothesis) over random deals: seeded decks, random legal actions biased to
knock sometimes, for every preset of R13 and with big gin on (R6.5).

Checked at every step: the 52 cards are conserved (R1.1, R3.2: hands + discard pile + stock);
what a seat sees hides the opponent's cards (DESIGN principle 3); a rejected action leaves the
state unchanged.  At the end: the record of the deal replays to the same state, and the score
follows R6 recomputed from the deadwood values (R6.1-R6.5, R9.3).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy import record as R
from ginrummy.actions import NUM_CODES, Action
from ginrummy.cards import mask_of, suit_of
from ginrummy.deal import DealState, deck_from_seed, new_deal
from ginrummy.errors import IllegalActionError
from ginrummy.melds import deadwood
from ginrummy.rules import PRESETS
from ginrummy.views import view_of

RULES = {**PRESETS, "big_gin": PRESETS["standard"].replace(big_gin_bonus=31),
         "wall": PRESETS["standard"].replace(stock_end="wall", discard_taken_card=True)}
FULL = (1 << 52) - 1
_FIELDS = [n for n in DealState.__slots__ if n != "_legal"]


def snapshot(s: DealState) -> tuple:
    return tuple(getattr(s, n) for n in _FIELDS)


def choose(s: DealState, rng: random.Random) -> Action:
    """A random legal action: a knock or gin 30% of the time when one is legal, and the discard
    that leaves the least deadwood 85% of the time (so knocks, gins and undercuts happen)."""
    legal = s.legal_actions()
    enders = [a for a in legal if a.kind in ("knock", "gin", "big_gin")]
    if enders and rng.random() < 0.3:
        return rng.choice(enders)
    discards = [a for a in legal if a.kind == "discard"]
    if discards and rng.random() < 0.85:
        hand = s.hands[s.to_act]
        return min(discards, key=lambda a: deadwood(hand & ~(1 << a.card)))
    return rng.choice(legal)


def check_cards(s: DealState) -> None:
    stock = s.stock[s.drawn:]
    parts = [s.hands[0], s.hands[1], mask_of(s.pile), mask_of(stock)]
    assert sum(p.bit_count() for p in parts) == 52
    assert parts[0] | parts[1] | parts[2] | parts[3] == FULL
    assert len(s.pile) == parts[2].bit_count() and len(stock) == parts[3].bit_count()


def check_views(s: DealState) -> None:
    for seat in (0, 1):
        v = view_of(s, seat)
        other = 1 - seat
        assert v.hand == s.hands[seat]
        assert v.opponent_count == s.hands[other].bit_count()
        assert v.opponent_seen & ~s.hands[other] == 0          # only cards he really holds
        assert v.stock_size == s.stock_size and v.pile == s.pile
        for e in v.history:                                    # the opponent's stock draws are hidden
            if e.kind == "draw_stock" and e.seat == other:
                assert e.card is None
            if e.kind == "draw_stock" and e.seat == seat:        # his own draws are shown to him
                assert e.card is not None
        if s.to_act == seat and not s.is_over:
            assert list(v.legal) == s.legal_actions()
        else:
            assert v.legal == ()


def check_rejected(s: DealState, rng: random.Random) -> None:
    legal = {a.code for a in s.legal_actions()}
    illegal = [c for c in range(NUM_CODES) if c not in legal]
    before = snapshot(s)
    for code in rng.sample(illegal, 3):
        seat = s.to_act if s.to_act is not None else 0
        with pytest.raises(IllegalActionError):
            s.apply(seat, Action.from_code(code))
        assert snapshot(s) == before
    if s.to_act is not None and legal:
        with pytest.raises(IllegalActionError):                # the other seat may not act
            s.apply(1 - s.to_act, Action.from_code(next(iter(legal))))
        assert snapshot(s) == before


def check_score(s: DealState) -> None:
    """R6 recomputed from the result's deadwood values (K knocker, D defender after layoffs)."""
    res = s.result
    assert res is not None
    if res.outcome == "draw":
        assert res.winner is None and res.points == 0 and res.reason in ("R7.1", "R7.2", "R7.3")
        return
    sd = res.showdown
    rules = s.rules
    k, d = sd.knocker.deadwood_value, sd.defender.deadwood_value
    mult = 2 if rules.variant == "oklahoma" and rules.spade_doubles and suit_of(s.upcard) == 3 else 1
    assert sd.multiplier == mult
    knocker_hand = s.hands[res.knocker]
    defender_hand = s.hands[1 - res.knocker]
    assert k == deadwood(knocker_hand)                        # the proposed arrangement is a best one (R5.2)
    if res.outcome == "big_gin":
        assert knocker_hand.bit_count() == 11 and k == 0 and d == deadwood(defender_hand)
        expected, winner = rules.big_gin_bonus + d, res.knocker
    elif res.outcome == "gin":
        assert k == 0 and d == deadwood(defender_hand) and sd.defender.layoffs == ()   # R6.1
        expected, winner = rules.gin_bonus + d, res.knocker
    elif k < d:
        assert res.outcome == "knock"                          # R6.2
        expected, winner = d - k, res.knocker
    else:
        assert res.outcome == "undercut"                       # R6.3
        expected, winner = rules.undercut_bonus + k - d, 1 - res.knocker
    assert d <= deadwood(defender_hand)                        # layoffs only lower it (R5.4)
    assert res.points == expected * mult and res.winner == winner
    limit = s.knock_limit
    if res.outcome == "knock" or res.outcome == "undercut":
        assert limit is not None and 0 < k <= limit           # R5.1, R8.1, R9


@pytest.mark.parametrize("name", list(RULES))
@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=st.binary(min_size=1, max_size=6), dealer=st.integers(0, 1), rng_seed=st.integers(0, 2**32))
def test_random_deals(name, seed, dealer, rng_seed):
    rules = RULES[name]
    rng = random.Random(rng_seed)
    deck = deck_from_seed(seed)
    s = new_deal(rules, dealer, deck)
    actions = []
    check_cards(s)
    while not s.is_over:
        check_views(s)
        if len(actions) % 4 == 0:
            check_rejected(s, rng)
        a = choose(s, rng)
        actions.append((s.to_act, a))
        s, _ = s.apply(s.to_act, a)
        check_cards(s)
    check_views(s)
    check_rejected(s, rng)
    check_score(s)
    text = R.dumps_deal(rules, dealer, deck, actions)
    m = R.replay(text)
    assert (m.deal.hands, m.deal.pile, m.deal.stock[m.deal.drawn:], m.deal.result) == \
        (s.hands, s.pile, s.stock[s.drawn:], s.result)
    assert R.verify(text).ok
