"""The batched deal engine (``ginrummy.env.batch``, issue 36 item 3) is exact: every move it
applies is replayed through the scalar engine (``GameCore``) and the masks, both seats'
observations, the ends of the deals and their results are equal on every step; a wrong
deadwood bound is caught by the same comparison."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ginrummy import actions as A  # noqa: E402
from ginrummy.cards import cards_of  # noqa: E402
from ginrummy.deal import DISCARD, new_deal  # noqa: E402
from ginrummy.env.batch import BatchDeals, batch_rules_ok, lower_bound, pick  # noqa: E402
from ginrummy.env.core import GameCore, seed_bytes  # noqa: E402
from ginrummy.melds import deadwood_after_discards  # noqa: E402
from ginrummy.rules import preset  # noqa: E402


def _deck_of(core: GameCore) -> tuple[list[int], int]:
    """The deck (new_deal order) and dealer of the core's first deal state."""
    assert core.match is not None
    d = core.match.deal
    nd, dl = d.hands[1 - d.dealer], d.hands[d.dealer]
    return cards_of(nd) + cards_of(dl) + [d.pile[0]] + list(d.stock), d.dealer


def _totals(eng: BatchDeals, i: int, seat: int) -> np.ndarray:
    """(seat's, opponent's) total after the deal: its points to its winner (R11, one deal)."""
    w, p = int(eng.winner[i]), int(eng.points[i])
    return np.array([[p if w == seat else 0, p if w == 1 - seat else 0]])


def _best_discard(hand: int, taken: int) -> int:
    """The discard leaving the least deadwood (not the card just taken, R4.3)."""
    d = deadwood_after_discards(hand, [c for c in cards_of(hand) if c != taken])
    return min(d, key=lambda c: (d[c], c))


def drive(n: int, steps: int, seed: int, bound: Callable | None = None, end: float = 0.0) -> tuple[Counter, BatchDeals]:
    """Random legal play (with ``end``: a gin taken whenever legal, a knock with chance ``end``
    and the discard leaving the least deadwood with chance 0.8, so that the rare ends are met) of ``n`` deals for ``steps`` batch moves through the batched engine and
    ``n`` scalar ``GameCore`` s side by side; assert on every step that the masks, both seats'
    observations (the last one of each deal too), the ends and the results are equal.  Returns
    the count of each outcome and the engine."""
    rng = np.random.default_rng(seed)
    cores = [GameCore() for _ in range(n)]
    eng = BatchDeals(n, cores[0].rules) if bound is None else BatchDeals(n, cores[0].rules, bound)
    seeds = iter(range(seed * 1_000_000, seed * 1_000_000 + 10**6))
    outcomes: Counter = Counter()

    def start(i: int) -> None:
        cores[i].reset(seed_bytes(next(seeds)))
        eng.deal(i, *_deck_of(cores[i]))

    for i in range(n):
        start(i)
    rows = np.arange(n)
    obs = np.zeros((n, 433), dtype=np.float32)
    for _ in range(steps):
        masks = eng.masks(rows)
        for i in range(n):
            assert np.array_equal(masks[i], cores[i].mask_to_act()), i
        for seat in (0, 1):
            eng.observe(seat, rows, obs)
            for i in range(n):
                assert np.array_equal(obs[i], cores[i].observe(seat)), (i, seat)
        codes = pick(masks, (rng.random(n) * masks.sum(axis=1)).astype(np.int64))
        if end:
            top = 160 - np.argmax(masks[:, ::-1], axis=1)  # the highest legal code: gin, else knock
            ends = (top >= 109) | ((top >= 57) & (rng.random(n) < end))
            codes = np.where(ends, top, codes)
            for i in np.flatnonzero(~ends & (eng.phase == 2) & (rng.random(n) < 0.8)).tolist():
                codes[i] = 5 + _best_discard(int(eng.hands[i, eng.to_act[i]]), int(eng.taken[i]))
        ended = set(eng.apply(rows, codes).tolist())
        for i in range(n):
            core = cores[i]
            core.step(int(codes[i]))
            assert core.done == (i in ended), i
            if core.done:
                assert core.match is not None
                res = core.match.deal.result
                assert res is not None
                assert (int(eng.winner[i]), int(eng.points[i])) == (
                    -1 if res.winner is None else res.winner,
                    res.points,
                )
                outcomes[str(res.outcome)] += 1
                for seat in (0, 1):
                    one = np.zeros((1, 433), dtype=np.float32)
                    eng.observe(seat, rows[i : i + 1], one, _totals(eng, i, seat))
                    assert np.array_equal(one[0], core.observe(seat)), (i, seat, "last")
                    assert not eng.masks(rows[i : i + 1]).any()
                start(i)
    return outcomes, eng


def test_batched_engine_equals_the_scalar_engine_on_every_step():
    """64 deals x 3,000 moves of random legal play (about 1,600 deals): masks, observations,
    ends and results equal the scalar engine's at every step; every outcome is met (knock,
    gin, undercut, the draw of R7.1), and the scalar fallback was used (hands with a set)."""
    outcomes, eng = drive(64, 3000, 2, end=0.2)
    assert set(outcomes) == {"knock", "gin", "undercut", "draw"}, outcomes
    assert min(outcomes.values()) >= 10, outcomes
    assert eng.fallbacks > 0


def test_a_zero_bound_sends_every_hand_with_a_set_to_the_scalar_engine_and_stays_equal():
    _, exact = drive(16, 600, 3)
    _, zero = drive(16, 600, 3, bound=lambda h: np.zeros(len(h), dtype=np.int64))
    assert zero.fallbacks > 5 * exact.fallbacks


def test_a_wrong_bound_is_caught():
    """A bound above the true deadwood (the real one + 11) skips knocks the scalar engine allows:
    the equality test fails on the mask."""
    with pytest.raises(AssertionError):
        drive(64, 1500, 1, bound=lambda h: lower_bound(h) + 11)


_MELDS = [A.meld_mask(i) for i in range(A.NUM_MELD_IDS)]  # the sets and the runs of 3 to 5 cards


@settings(max_examples=400, deadline=None)
@given(
    st.permutations(range(52)),
    st.lists(st.integers(0, len(_MELDS) - 1), max_size=3),
    st.integers(0, 10),
    st.booleans(),
)
def test_discard_turn_mask_of_any_hand(deck, melds, taken_at, take):
    """For any 11-card hand (up to three melds, overlapping or not, filled up from a shuffled
    deck: near knocks and gins as often as far from them) and card just taken from the pile (or
    none): the discard turn's mask equals the scalar engine's (R4.3, R5.1, R6.1)."""
    rules = preset("standard")
    chosen: list[int] = []
    for m in melds:
        for c in cards_of(_MELDS[m]):
            if c not in chosen and len(chosen) < 11:
                chosen.append(c)
    deck = chosen + [c for c in deck if c not in chosen]
    hand = sorted(deck[:11])
    taken = deck[taken_at] if take else None
    # the scalar state: the non-dealer (seat 1) holds the 11 cards after drawing deck[0]
    s = new_deal(rules, 0, deck[1:11] + deck[11:21] + deck[21:22] + [deck[0]] + deck[22:])
    s, _ = s.apply(1, s.legal_actions()[1])  # pass
    s, _ = s.apply(0, s.legal_actions()[1])  # pass
    s, _ = s.apply(1, s.legal_actions()[0])  # draws deck[0]
    assert s.phase == DISCARD and cards_of(s.hands[1]) == hand
    s.taken = taken
    s._legal = None
    want = np.zeros(161, dtype=np.int8)
    for a in s.legal_actions():
        want[a.code] = 1
    eng = BatchDeals(1, rules)
    eng.deal(0, deck[1:11] + deck[11:21] + deck[21:22] + [deck[0]] + deck[22:], 0)
    eng.hands[0, 1] = s.hands[1]
    eng.phase[0] = 2
    eng.to_act[0] = 1
    eng.taken[0] = -1 if taken is None else taken
    assert np.array_equal(eng.masks(np.arange(1))[0], want)


def test_rules_the_batched_engine_plays():
    assert batch_rules_ok(preset("standard")) is None
    assert batch_rules_ok(preset("oklahoma")) == "variant='standard' (not 'oklahoma')"
    assert batch_rules_ok(preset("standard").replace(stock_end="wall")) == "stock_end='draw_at_two' (not 'wall')"


def _same(a, b) -> None:
    """Two results of ``reset`` or ``step`` (observations dict first) are equal, infos included."""
    if isinstance(a, dict) and "observation" in a:
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
        return
    assert set(a) == set(b)
    for k in a:
        if k == "final_obs":
            for x, y in zip(a[k], b[k], strict=True):
                assert (x is None) == (y is None)
                if x is not None:
                    _same(x, y)
        else:
            assert np.array_equal(a[k], b[k]), k


def vector_pair(n: int, steps: int, seed: int, bad: float = 0.0, end: float = 0.0, **kw) -> int:
    """``GinRummyVector`` on both backends, the same seed and the same codes (random legal ones,
    a knock or gin when legal with chance ``end`` and then the discard leaving the least
    deadwood with chance 0.8, an out-of-mask one with chance ``bad``);
    every return value equal at every step.  Returns the episodes ended."""
    from ginrummy.env import GinRummyVector

    rng = np.random.default_rng(seed)
    scalar = GinRummyVector(n, backend="scalar", **kw)
    batch = GinRummyVector(n, backend="batch", **kw)
    a, b = scalar.reset(seed=seed), batch.reset(seed=seed)
    _same(a[0], b[0])
    ended = 0
    for _ in range(steps):
        mask = a[0]["action_mask"]
        codes = pick(mask, (rng.random(n) * mask.sum(axis=1)).astype(np.int64))
        top = 160 - np.argmax(mask[:, ::-1], axis=1)
        ends = (top >= 57) & (rng.random(n) < end)
        codes = np.where(ends, top, codes)
        if end:  # else the discard leaving the least deadwood with chance 0.8 (the agent knocks more)
            obs = a[0]["observation"]
            for i in np.flatnonzero(~ends & (mask[:, 5:57].any(axis=1)) & (rng.random(n) < 0.8)).tolist():
                hand = int(sum(1 << c for c in np.flatnonzero(obs[i, :52])))
                taken = np.flatnonzero(obs[i, 364:416])
                codes[i] = 5 + _best_discard(hand, int(taken[0]) if len(taken) else -1)
        wrong = rng.random(n) < bad
        codes[wrong] = rng.integers(0, 161, int(wrong.sum()))
        a, b = scalar.step(codes), batch.step(codes)
        _same(a[0], b[0])
        for x, y in zip(a[1:4], b[1:4], strict=True):
            assert np.array_equal(x, y)
        _same(a[4], b[4])
        ended += int(a[2].sum() + a[3].sum())
    assert batch.moves == scalar.moves
    return ended


def test_vector_env_batch_backend_equals_the_scalar_backend():
    """64 sub-environments x 1,500 steps: observations, masks, rewards, terminations, final
    observations and the moves played are the same on both backends (the random opponent makes
    the same choices); seat 1 and the other rewards too."""
    assert vector_pair(64, 1500, 5, end=0.3) > 500
    assert vector_pair(16, 300, 6, seat=1, reward="win") > 50
    assert vector_pair(16, 300, 7, reward="scaled") > 50


@pytest.mark.parametrize(
    "rules",
    [
        {"scoring": "deal"},  # one deal is the game: its bonuses are in the last observation's totals
        {"scoring": "hollywood"},
        {"knock_limit": 5, "undercut_bonus": 10, "gin_bonus": 20, "target": 25},
        {"knock_limit": 0},  # a knock must be gin
    ],
)
def test_vector_env_batch_backend_other_standard_options(rules):
    assert vector_pair(32, 400, 3, end=0.5, rules=rules) > 100


def test_vector_env_batch_backend_illegal_codes_and_step_limit():
    """Illegal codes under "penalty" (nothing moves, the penalty) and "end" (the episode ends),
    and ``max_cycles`` truncating episodes, the same on both backends."""
    assert vector_pair(16, 400, 8, bad=0.1) > 0
    assert vector_pair(16, 300, 9, bad=0.05, illegal="end") > 0
    assert vector_pair(16, 300, 10, bad=0.3, max_cycles=40) > 0
    assert vector_pair(16, 100, 12, max_cycles=2) > 0  # the opponent's first move can use it up


@pytest.mark.parametrize("backend", ["scalar", "batch"])
def test_vector_env_never_returns_an_episode_the_opponent_ended_before_the_agent_moved(backend):
    """Seed 4850 (seat 0): the random opponent knocks on its first turn, so the episode is over
    before the agent's first move.  The vector env starts the next episode in that row (seed
    from its seeder): every row has legal codes and a step works (it raised "the episode is
    over" before)."""
    from ginrummy.env import GinRummySingle, GinRummyVector

    single = GinRummySingle()
    single.start(4850)
    assert single.core.done  # the case itself
    vec = GinRummyVector(2, backend=backend)
    obs, _ = vec.reset(seed=4849)  # row 1: seed 4850
    assert obs["action_mask"].sum(axis=1).min() > 0
    codes = obs["action_mask"].argmax(axis=1)
    obs, *_ = vec.step(codes)
    assert obs["action_mask"].sum(axis=1).min() > 0


def test_gymnasium_env_never_returns_an_episode_the_opponent_ended_before_the_agent_moved():
    """``GinRummySingle.reset(seed=4850)`` returned an episode already over (no legal code; a
    step raised "the episode is over").  It now deals the next from its seeder, the same deal
    at every reset with that seed, and a step works."""
    from ginrummy.env import GinRummySingle

    a, b = GinRummySingle(), GinRummySingle()
    obs, _ = a.reset(seed=4850)
    again, _ = b.reset(seed=4850)
    assert not a.core.done and obs["action_mask"].sum() > 0
    assert (obs["observation"] == again["observation"]).all() and (obs["action_mask"] == again["action_mask"]).all()
    assert a.step(int(obs["action_mask"].argmax()))[0]["observation"].shape == (433,)
    for seed in (7055, 13112):  # the two other seeds below 20,000 where the opponent ends the deal at once
        obs, _ = a.reset(seed=seed)
        assert not a.core.done and obs["action_mask"].sum() > 0
    # the step limit spent in the opponent's opening moves: the same (seat 0 deals at seed 0)
    c = GinRummySingle(max_cycles=1)
    obs, _ = c.reset(seed=0)
    assert not c.core.done and obs["action_mask"].sum() > 0


def test_vector_env_batch_backend_refuses_a_bad_batch_and_what_it_does_not_play():
    """A bad batch (an illegal code under "raise", a code out of range, the wrong length) raises
    naming it and moves no sub-environment; a configuration the batched engine does not play
    is refused naming what it needs; an unknown backend names the allowed ones."""
    from ginrummy.env import GinRummyVector
    from ginrummy.errors import IllegalActionError, RuleSetError

    vec = GinRummyVector(3, illegal="raise", backend="batch")
    obs, _ = vec.reset(seed=11)
    before = {k: v.copy() for k, v in vec._batch.eng.__dict__.items() if isinstance(v, np.ndarray)}
    codes = obs["action_mask"].argmax(axis=1)
    illegal = codes.copy()
    illegal[2] = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal in sub-environment 2"):
        vec.step(illegal)
    with pytest.raises(ValueError, match="an action is an int code 0..160, not 161"):
        vec.step([codes[0], codes[1], 161])
    with pytest.raises(ValueError, match="step takes 3 actions, not 2"):
        vec.step(codes[:2])
    for k, v in before.items():
        assert np.array_equal(getattr(vec._batch.eng, k), v), k
    assert vec.moves == vec._batch.moves
    vec.step(codes)  # the legal batch still steps
    with pytest.raises(RuleSetError, match=r"it needs opponent='random' \(not 'novice'\)"):
        GinRummyVector(2, opponent="novice", backend="batch")
    with pytest.raises(RuleSetError, match=r"it needs scope='deal' \(not 'game'\)"):
        GinRummyVector(2, scope="game", backend="batch")
    with pytest.raises(RuleSetError, match=r"it needs stock_end='draw_at_two' \(not 'wall'\)"):
        GinRummyVector(2, rules={"stock_end": "wall"}, backend="batch")
    with pytest.raises(RuleSetError, match=r"backend='numpy' is not allowed; allowed: 'auto', 'scalar', 'batch'"):
        GinRummyVector(2, backend="numpy")


def test_vector_env_auto_backend():
    """The default ``backend="auto"`` takes the batched engine from 64 sub-environments on when
    it plays the configuration, else the scalar path."""
    from ginrummy.env import GinRummyVector

    assert GinRummyVector(64).backend == "batch" and GinRummyVector(64).envs == []
    assert GinRummyVector(63).backend == "scalar" and len(GinRummyVector(63).envs) == 63
    assert GinRummyVector(64, opponent="novice").backend == "scalar"
    assert GinRummyVector(64, scope="game").backend == "scalar"
    assert GinRummyVector(64, rules="oklahoma").backend == "scalar"
    assert GinRummyVector(64, backend="scalar").backend == "scalar"


def test_vector_env_batch_backend_deal_options_as_the_scalar_one():
    """``reset(options={"deck", "dealer"})`` gives every sub-environment that deal on both
    backends (the same observations and masks), and a bad option raises before anything changes."""
    from ginrummy.env import GinRummyVector

    deck = list(range(52))[::-1]
    a = GinRummyVector(2, backend="scalar").reset(seed=3, options={"deck": deck, "dealer": 1})
    b = GinRummyVector(2, backend="batch").reset(seed=3, options={"deck": deck, "dealer": 1})
    _same(a[0], b[0])
    assert a[0]["observation"][0, 51] == 1.0  # seat 0 does not deal: the non-dealer's hand deck[0:10]
    with pytest.raises(ValueError, match="options\\['dealer'\\] is player 0 or 1, not 2"):
        GinRummyVector(2, backend="batch").reset(seed=3, options={"dealer": 2})
