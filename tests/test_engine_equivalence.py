"""The deal engine's behaviour is frozen by a golden digest (Speed issue: optimisations must not
change what the engine does).

Seeded deals are played under every preset (R13) and a few extra rule sets (the wall, R7.2; big
gin, R6.5; taking back the discard, R4.3; two reshuffles, R7.3), half by a random player that
prefers knock/gin when it may (so showdowns, R5-R6, are reached often) and half by ``novice``
against ``random`` driven through :func:`ginrummy.views.view_of` as a real table does.  After
every action the whole state is digested: both hands, the discard pile, the stock left, phase,
seat to act, the legal actions' text in order, the events (private cards included), the log,
both seats' views (hand, pile, counts, legal, history as seen) and the result.  Each deal's
SHA-256 (first 16 hex digits) must equal the one in ``tests/golden/engine_equivalence.json``,
generated before the engine was optimised.

Regenerate (only for a deliberate rule change): ``python tests/test_engine_equivalence.py``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from pathlib import Path

import pytest

from ginrummy.deal import DealState, deck_from_seed, new_deal
from ginrummy.melds import deadwood
from ginrummy.players.simple import NovicePlayer, RandomPlayer
from ginrummy.rules import PRESETS, RuleSet
from ginrummy.views import view_of

GOLDEN = Path(__file__).parent / "golden" / "engine_equivalence.json"
DEALS_PER_CONFIG = 30  # per rule set: 10 greedy-random, 10 novice-vs-random, 10 novice-vs-novice


def configs() -> dict[str, RuleSet]:
    """Every preset, plus rule sets that reach the rarer paths of the engine."""
    out = dict(PRESETS)
    std = PRESETS["standard"]
    out["wall"] = std.replace(stock_end="wall", name="wall")
    out["big_gin"] = std.replace(big_gin_bonus=31, name="big_gin")
    out["take_back"] = std.replace(discard_taken_card=True, name="take_back")
    out["reshuffle2"] = PRESETS["single"].replace(max_reshuffles=2, name="reshuffle2")
    out["straight_reshuffle"] = PRESETS["straight"].replace(stock_end="reshuffle", name="straight_reshuffle")
    out["oklahoma_wall"] = PRESETS["oklahoma"].replace(stock_end="wall", oklahoma_ace="one",
                                                       big_gin_bonus=50, name="oklahoma_wall")
    return out


def _history(v) -> tuple:
    return tuple((e.kind, e.seat, e.card, e.private) for e in v.history)


def _view_key(state: DealState, seat: int, full: bool = False) -> tuple:
    """A view's fields; its history in full if ``full``, else its length and last three events."""
    v = view_of(state, seat)
    history = v.history if full else v.history[-3:]
    return (v.seat, v.phase, v.to_act, v.dealer, v.hand, v.pile, v.stock_size, v.opponent_count,
            v.opponent_seen, v.upcard, v.knock_limit, v.multiplier, v.taken, v.stock_only,
            v.must_knock, tuple(a.text for a in v.legal), v.reshuffles, len(v.history),
            tuple((e.kind, e.seat, e.card, e.private) for e in history),
            None if v.result is None else json.dumps(v.result.to_json(), sort_keys=True))


def _state_key(s: DealState) -> tuple:
    return (s.dealer, s.hands, s.stock[s.drawn:], s.stock_size, s.pile, s.phase, s.to_act, s.upcard,
            s.knock_limit, s.multiplier, s.taken, s.stock_only, s.must_knock, s.reshuffles, s.seen,
            s.turn, s.offer_passes, s.is_over, s.top_discard,
            tuple(a.text for a in s.legal_actions()),
            None if s.result is None else json.dumps(s.result.to_json(), sort_keys=True))


def greedy_random(state: DealState, legal: list, rng: random.Random, end_odds: float = 0.7):
    """Knock or gin when allowed with odds ``end_odds`` (never with odds 0: then a discard
    always leaves the least deadwood, which leads to the wall, R7.2), else discard the card
    leaving the least deadwood with odds 0.6, else a random legal action."""
    ending = [a for a in legal if a.kind in ("knock", "gin", "big_gin")]
    if ending and rng.random() < end_odds:
        return rng.choice(ending)
    discards = [a for a in legal if a.kind == "discard"]
    if discards and (end_odds == 0 or rng.random() < 0.6):
        hand = state.hands[state.to_act]
        return min(discards, key=lambda a: (deadwood(hand & ~(1 << a.card)), a.card))
    if end_odds == 0 and state.phase == "wall":
        return legal[0]  # take the discard at the wall
    rest = [a for a in legal if a not in ending] if end_odds == 0 else legal
    return rng.choice(rest or legal)  # after a take at the wall only knock or gin is legal


@functools.cache
def play_deal(rules: RuleSet, index: int) -> tuple[str, DealState, bool]:
    """Play deal ``index`` of ``rules``; return its digest (16 hex digits), its last state and
    whether the wall (R7.2) was reached."""
    seed = f"equivalence/{rules.name}/{index}".encode()
    state = new_deal(rules, index % 2, deck_from_seed(seed))
    rng = random.Random(f"{rules.name}/{index}")
    mode = index % 3  # 0 greedy-random on the state, 1 novice vs random, 2 novice vs novice
    players = {}
    if mode:
        novice_seat = (index // 3) % 2
        players = {novice_seat: NovicePlayer(random.Random(index)),
                   1 - novice_seat: (RandomPlayer if mode == 1 else NovicePlayer)(random.Random(-index))}
    h = hashlib.sha256()
    h.update(repr(_state_key(state)).encode())
    all_events: list = []
    walled = False
    while not state.is_over:
        walled |= state.phase == "wall"
        seat = state.to_act
        legal = state.legal_actions()
        if players:
            action = players[seat].choose(view_of(state, seat), legal)
        else:
            action = greedy_random(state, legal, rng, 0.7 if index % 2 else 0.0)
        state, events = state.apply(seat, action)
        all_events.extend(events)
        assert state.log == tuple(all_events)
        h.update(repr((seat, action.text, [(e.kind, e.seat, e.card, e.private, e.text) for e in events])).encode())
        h.update(repr(_state_key(state)).encode())
        h.update(repr((_view_key(state, 0), _view_key(state, 1))).encode())
    h.update(repr((_view_key(state, 0, True), _view_key(state, 1, True))).encode())
    return h.hexdigest()[:16], state, walled


def digests() -> dict[str, list[str]]:
    return {name: [play_deal(rules, i)[0] for i in range(DEALS_PER_CONFIG)] for name, rules in configs().items()}


@pytest.mark.parametrize("name", list(configs()))
def test_engine_matches_golden_digest(name: str) -> None:
    """Every state of every seeded deal equals what the engine did before optimisation."""
    golden = json.loads(GOLDEN.read_text())[name]
    rules = configs()[name]
    got = [play_deal(rules, i)[0] for i in range(DEALS_PER_CONFIG)]
    bad = [i for i, (a, b) in enumerate(zip(got, golden)) if a != b]
    assert len(golden) == DEALS_PER_CONFIG
    assert bad == [], f"{name}: deals {bad} differ from the golden digest"


def test_golden_covers_the_rarer_paths() -> None:
    """The golden deals reach knocks, gins, undercuts, the three stock-end draws (R7.1-R7.3),
    the wall (R7.2) and reshuffles (R7.3)."""
    outcomes: set[str] = set()
    reshuffled = walled = False
    for rules in configs().values():
        for i in range(DEALS_PER_CONFIG):
            _, state, wall = play_deal(rules, i)
            walled |= wall
            reshuffled |= state.reshuffles > 0
            outcomes.add(state.result.outcome + state.result.reason)
    assert {"knock", "undercut", "gin", "drawR7.1", "drawR7.2", "drawR7.3"} <= outcomes
    assert walled and reshuffled


def test_branching_from_an_older_state_keeps_every_log() -> None:
    """States share one event list; applying from an older state (a branch) must not change
    the log or the views' history of any state (the engine is immutable, DESIGN)."""
    s0 = new_deal(PRESETS["standard"], 0, deck_from_seed(b"branch"))
    s1, ev1 = s0.apply(1, s0.legal_actions()[1])        # non-dealer passes the upcard (R4.2)
    s2, ev2 = s1.apply(0, s1.legal_actions()[1])        # dealer passes too
    t1, evt = s0.apply(1, s0.legal_actions()[0])        # branch: the non-dealer takes the upcard
    s3, ev3 = s2.apply(1, s2.legal_actions()[0])        # the first line goes on
    t2, evt2 = t1.apply(1, t1.legal_actions()[0])
    assert s0.log == () and s0.history(0) == ()
    assert s1.log == tuple(ev1) and [e.text for e in s2.log] == ["1 pass", "0 pass"]
    assert s3.log == tuple(ev1 + ev2 + ev3) and s3.log[-1].kind == "draw_stock"
    assert t1.log == tuple(evt) and t2.log == tuple(evt + evt2)
    assert [e.text for e in t2.history(0)] == [e.text for e in t2.log]
    assert s3.history(0)[-1].card is None and s3.history(1)[-1].card == s3.log[-1].card  # hidden draw


def test_novice_deadwood_after_each_discard_is_the_meld_search() -> None:
    """melds.deadwood_after_discards (the per-suit shortcut that novice and the deal engine use)
    equals melds.deadwood for every discard (R2.4), on random and set-rich 11-card hands."""
    from ginrummy.cards import cards_of
    from ginrummy.melds import deadwood_after_discards

    rng = random.Random(7)
    for i in range(3000):
        if i % 2:
            cards = rng.sample(range(52), 11)
        else:  # a rank three times, and runs nearby
            r = rng.randrange(13)
            cards = [r + 13 * s for s in rng.sample(range(4), 3)]
            cards += rng.sample([c for c in range(52) if c not in cards], 8)
        hand = sum(1 << c for c in cards)
        assert deadwood_after_discards(hand, cards_of(hand)) == {c: deadwood(hand & ~(1 << c)) for c in cards_of(hand)}


if __name__ == "__main__":
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(digests(), indent=1) + "\n")
    print(f"written: {GOLDEN}")
