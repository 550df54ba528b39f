"""The research environments' quick paths give exactly the defined values (issue 36, item 3):
the incremental observation (``SeatEncoder``, updated from the events of each step in a reused
buffer) against the from-scratch ``encode_view`` at every step of many random deals, read in
order, late, backwards and on branches; the vector env's batch rows against single envs, a bad
batch changing nothing, and the returned arrays safe to write into."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from ginrummy.deal import deck_from_seed, new_deal  # noqa: E402
from ginrummy.env import GinRummySingle, GinRummyVector, encode_view  # noqa: E402
from ginrummy.env.core import GameCore  # noqa: E402
from ginrummy.env.observation import OBS_SIZE, SeatEncoder, score_scale  # noqa: E402
from ginrummy.errors import IllegalActionError  # noqa: E402
from ginrummy.rules import preset  # noqa: E402
from ginrummy.views import view_of  # noqa: E402

RULESETS = [
    ("standard", 120),
    ("oklahoma", 40),
    ("straight", 30),
    ("single", 40),  # stock_end="reshuffle": reshuffles (R7.3) go through the encoder's resync
    ({"stock_end": "wall"}, 40),
    ({"layout": "players"}, 30),  # the layout moves of R5.6 go through the resync too
]


@pytest.mark.parametrize("rules,deals", RULESETS)
def test_incremental_observation_is_encode_view_at_every_step_of_many_deals(rules, deals):
    """GameCore.observe (the events of each step applied to a reused buffer) equals encode_view of
    the player's view for both players at every step of ``deals`` random deals, and the quick
    path is the one taken (the encoder follows the deal's own event list)."""
    core = GameCore(rules, "deal", illegal="raise")
    rng = random.Random(36)
    steps = followed = 0
    for d in range(deals):
        core.reset(b"incremental/%d" % d)
        while not core.done:
            for p in (0, 1):
                got = core.observe(p)
                assert np.array_equal(got, core.observe_slow(p)), (rules, d, steps, p)
                enc = core.obs_base[p][0]
                events, n = core.match.deal.log_position()
                followed += enc.events is events and enc.nlog == n
            codes = np.flatnonzero(core.mask_to_act()).tolist()
            core.step(rng.choice(codes))
            steps += 1
        for p in (0, 1):  # the last state too (the deal is over)
            assert np.array_equal(core.observe(p), core.observe_slow(p))
    assert steps > 20 * deals
    assert followed == 2 * steps  # every read of a deal under way followed the events


def test_encoder_reads_states_in_any_order_and_on_branches():
    """One encoder given the states of a deal shuffled (earlier, later, another deal, a branch
    from an earlier state) gives encode_view of each: it resyncs when the events do not lead
    from what it holds to the state asked for."""
    rules = preset("standard")
    rng = random.Random(7)
    states = []
    for d in range(6):
        s = new_deal(rules, d % 2, deck_from_seed(b"order/%d" % d))
        line = []
        while s.result is None:
            line.append(s)
            s, _ = s.apply(s.to_act, rng.choice(s.legal_actions()))
        line.append(s)
        # a branch: another action from a state in the middle (a new event list from there)
        mid = line[len(line) // 2]
        if mid.result is None:
            b, _ = mid.apply(mid.to_act, mid.legal_actions()[-1])
            line.append(b)
        states += line
    encs = [SeatEncoder(0, score_scale(rules)), SeatEncoder(1, score_scale(rules))]
    order = list(range(len(states)))
    for rounds in range(2):
        for i in order:
            s = states[i]
            for seat in (0, 1):
                odisc = 0
                for e in s.log:
                    if e.seat == 1 - seat and e.kind in ("discard", "knock", "gin"):
                        odisc |= 1 << e.card
                want = encode_view(view_of(s, seat))
                assert np.array_equal(encs[seat].observe(s, odisc, (0, 0)), want), (rounds, i, seat)
        rng.shuffle(order)


def test_encoder_writes_into_the_given_row_and_refuses_a_bad_buffer():
    batch = np.zeros((2, OBS_SIZE), dtype=np.float32)
    enc = SeatEncoder(1, 100, OBS_SIZE, batch[1])
    s = new_deal(preset("standard"), 0, deck_from_seed(b"row"))
    out = enc.observe_view(s, 0, (0, 0))
    assert out.base is batch or np.shares_memory(out, batch)
    assert np.array_equal(batch[1], encode_view(view_of(s, 1))) and not batch[0].any()
    with pytest.raises(ValueError, match=r"C-contiguous float32 array of shape \(433,\)"):
        SeatEncoder(0, 100, OBS_SIZE, np.zeros(433, dtype=np.float64))
    with pytest.raises(ValueError, match=r"shape \(433,\)"):
        SeatEncoder(0, 100, OBS_SIZE, batch[:, 0])


@pytest.mark.parametrize(
    "rules,scope,n,steps,min_ends",
    [
        ("standard", "deal", 8, 400, 10),
        ({"layout": "players"}, "deal", 3, 300, 5),  # the layout moves (R5.6), codes up to 397
        ({"preset": "hollywood", "target": 15}, "match", 2, 500, 0),  # many deals an episode, totals
    ],
)
def test_vector_env_rows_are_single_envs_over_many_episodes(rules, scope, n, steps, min_ends):
    """Sub-environments over hundreds of steps (autoresets, new deals): every row, reward, end
    and final observation equals that of a GinRummySingle given the same seeds and codes."""
    vec = GinRummyVector(n, opponent="random", rules=rules, scope=scope)
    obs, _ = vec.reset(seed=500)
    seeder = random.Random(500)  # the vector env's generator of the seeds of later episodes
    singles = [GinRummySingle(opponent="random", rules=rules, scope=scope) for _ in range(n)]
    last = [s.reset(seed=500 + i)[0] for i, s in enumerate(singles)]
    rng = random.Random(1)
    ends = 0
    for _ in range(steps):
        for i in range(n):
            assert np.array_equal(obs["observation"][i], last[i]["observation"])
            assert np.array_equal(obs["action_mask"][i], last[i]["action_mask"])
        codes = [rng.choice(np.flatnonzero(obs["action_mask"][i]).tolist()) for i in range(n)]
        obs, rewards, terms, truncs, infos = vec.step(np.array(codes))
        for i, s in enumerate(singles):
            o, r, t, tr, _ = s.step(codes[i])
            assert (rewards[i], terms[i], truncs[i]) == (r, t, tr)
            if t or tr:
                ends += 1
                assert infos["_final_obs"][i]
                assert np.array_equal(infos["final_obs"][i]["observation"], o["observation"])
                o = s.reset(seed=seeder.getrandbits(63))[0]
            last[i] = o
    assert ends >= min_ends


def test_vector_env_bad_batch_changes_nothing():
    """A batch with one bad code (out of range, not an int, or under illegal="raise" illegal)
    raises naming it before any sub-environment moves."""
    vec = GinRummyVector(3, opponent="random", illegal="raise")
    obs, _ = vec.reset(seed=9)
    before = (obs["observation"].copy(), obs["action_mask"].copy())
    deals = [e.core.match.deal for e in vec.envs]
    good = [int(np.flatnonzero(obs["action_mask"][i])[0]) for i in range(3)]
    with pytest.raises(ValueError, match=r"an action is an int code 0\.\.160, not 161"):
        vec.step([good[0], good[1], 161])
    with pytest.raises(ValueError, match=r"an action is an int code 0\.\.160, not 1\.5"):
        vec.step([good[0], good[1], 1.5])
    illegal = 0  # draw from the stock: not legal on the upcard offer (R4.2)
    with pytest.raises(IllegalActionError, match=r"action code 0 \(draw stock\) is not legal in sub-environment 2"):
        vec.step([good[0], good[1], illegal])
    with pytest.raises(ValueError, match="step takes 3 actions, not 2"):
        vec.step(good[:2])
    assert [e.core.match.deal for e in vec.envs] == deals  # not one moved
    assert np.array_equal(obs["observation"], before[0]) and np.array_equal(obs["action_mask"], before[1])
    vec.step(good)  # and it goes on


def test_vector_env_arrays_may_be_written_into():
    """The returned batch arrays are the caller's to change: the next step's rows are still
    those of single envs (the encoders keep their own batch)."""
    vec = GinRummyVector(2, opponent="random")
    obs, _ = vec.reset(seed=3)
    singles = [GinRummySingle(opponent="random") for _ in range(2)]
    last = [s.reset(seed=3 + i)[0] for i, s in enumerate(singles)]
    rng = random.Random(2)
    for _ in range(30):
        codes = [rng.choice(np.flatnonzero(obs["action_mask"][i]).tolist()) for i in range(2)]
        obs["observation"][:] = 0.5  # scribble
        obs["action_mask"][:] = 1
        obs, _r, terms, truncs, _ = vec.step(codes)
        for i, s in enumerate(singles):
            last[i], _, t, tr, _ = s.step(codes[i])
            if t or tr:
                return  # an episode ended: enough
            assert np.array_equal(obs["observation"][i], last[i]["observation"])
            assert np.array_equal(obs["action_mask"][i], last[i]["action_mask"])
