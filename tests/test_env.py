"""The research environments (ginrummy.env, docs/env.md): PettingZoo and Gymnasium API checks,
the observation against its definition, seeding, rewards and illegal actions."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from ginrummy.actions import Action  # noqa: E402
from ginrummy.cards import cards_of, parse_cards  # noqa: E402
from ginrummy.env import ENV_ID, OBS_SIZE, SCALARS, GinRummyAEC, GinRummySingle, encode_view, plane  # noqa: E402
from ginrummy.errors import IllegalActionError, RuleSetError  # noqa: E402


def play(env: GinRummyAEC, seed: int, rng_seed: int = 0, check=None) -> list[tuple]:
    """One episode with uniformly random legal codes; returns (agent, code, cumulative rewards) per step."""
    env.reset(seed=seed)
    rng = random.Random(rng_seed)
    trace = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if check is not None:
            check(env, agent, obs)
        if term or trunc:
            trace.append((agent, None, reward))
            env.step(None)
            continue
        code = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        trace.append((agent, code, reward))
        env.step(code)
    return trace


def test_pettingzoo_api_test_passes_two_and_three_hand():
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice to use a Box space: ours is Dict with an action mask
        api_test(GinRummyAEC(), num_cycles=150)
        api_test(GinRummyAEC(rules={"players": 3}, scope="game"), num_cycles=150)


def test_gymnasium_check_env_passes_and_id_is_registered():
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(ENV_ID, opponent="novice")
    assert isinstance(env.unwrapped, GinRummySingle)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    env2 = gymnasium.make("ginrummy.env:" + ENV_ID)  # the module:id form Gymnasium imports itself
    assert isinstance(env2.unwrapped, GinRummySingle)


@pytest.mark.parametrize("rules,scope", [("standard", "deal"), ("single", "deal"), ({"preset": "oklahoma", "target": 30}, "game"),
                                         ("straight", "deal"), ({"preset": "hollywood", "target": 15}, "match"),
                                         ({"players": 3}, "deal"), ({"stock_end": "wall"}, "deal")])
def test_observation_is_encode_view_of_the_players_view_every_step(rules, scope):
    """The incremental encoder gives exactly encode_view(match.view(player)) for every player."""
    env = GinRummyAEC(rules=rules, scope=scope)
    steps = [0]

    def check(env, agent, obs):
        core = env.core
        if core.done or steps[0] >= 700:  # the first deals of a game are enough (and quick)
            return
        for p in range(core.n):
            want = encode_view(core.view(p))
            assert np.array_equal(core.observe(p), want)
        assert np.array_equal(obs["observation"], encode_view(core.view(env._index[agent])))
        steps[0] += 1

    for seed in range(3 if scope == "deal" else 1):
        play(env, seed, seed, check)
    assert steps[0] > 100


def test_observation_read_late_is_that_of_its_step():
    """An observation dict read after later steps still holds its own step's vector."""
    env = GinRummyAEC(rules="single")
    env.reset(seed=5)
    rng = random.Random(5)
    kept = []
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        kept.append((obs, encode_view(info["view"])))
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert len(kept) > 20
    for obs, want in reversed(kept):  # read last first: the encoder moves backwards too
        assert np.array_equal(obs["observation"], want)


def test_observation_layout_values():
    """Planes and scalars hold what docs/env.md says, on a known state."""
    env = GinRummyAEC()
    env.reset(seed=11)
    agent = env.agent_selection
    obs, _, _, _, info = env.last()
    view = info["view"]
    o = obs["observation"]
    assert o.shape == (OBS_SIZE,) and o.dtype == np.float32 and OBS_SIZE == 433
    assert sorted(np.flatnonzero(o[plane("hand")]).tolist()) == cards_of(view.hand)
    assert np.flatnonzero(o[plane("top")]).tolist() == [view.pile[-1]] == [view.upcard]
    assert o[plane("pile_order")][view.upcard] == pytest.approx(1 / 52)
    assert o[plane("dead")].sum() == 0 and o[plane("opponent_known")].sum() == 0
    base = 416
    assert o[base + SCALARS.index("stock_size")] == pytest.approx(31 / 31)
    assert o[base + SCALARS.index("phase_upcard_offer")] == 1.0
    assert o[base + SCALARS.index("my_turn")] == 1.0
    assert o[base + SCALARS.index("i_deal")] == 0.0  # the non-dealer acts first (R3.3)
    assert o[base + SCALARS.index("knock_limit")] == pytest.approx(1.0)
    assert o[base + SCALARS.index("opponent_count")] == pytest.approx(10 / 11)
    mask = obs["action_mask"]
    assert mask.dtype == np.int8 and np.flatnonzero(mask).tolist() == [2, 3]  # take upcard, pass (R4.2)
    other = [a for a in env.agents if a != agent][0]
    assert env.observe(other)["action_mask"].sum() == 0
    assert env.infos[other]["view"].hand != view.hand


def test_seeded_resets_replay_identically():
    rules = {"preset": "hollywood", "target": 15}
    env = GinRummyAEC(rules=rules, scope="match", reward="scaled")
    a = play(env, 42, 1)
    b = play(GinRummyAEC(rules=rules, scope="match", reward="scaled"), 42, 1)
    assert a == b and len(a) > 200
    c = play(env, 43, 1)
    assert c != a
    # reset() without a seed continues from the last seeded reset, reproducibly too
    env.reset(seed=7)
    env.reset()
    d1 = env.core.match.deal.hands
    env.reset(seed=7)
    env.reset()
    assert env.core.match.deal.hands == d1
    # ... as documented: the next seeds are drawn from random.Random(7)
    from ginrummy.env import seed_bytes

    gen = random.Random(7)
    for _ in range(2):
        assert env.core.match.seed == seed_bytes(gen.getrandbits(63))
        env.reset()


def test_gymnasium_seeded_episodes_are_identical():
    def episode(seed):
        env = GinRummySingle(opponent="novice", rules="oklahoma")
        obs, info = env.reset(seed=seed)
        rng = random.Random(3)
        out = [obs["observation"].tobytes()]
        done = False
        while not done:
            code = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            obs, r, done, trunc, info = env.step(code)
            out.append((obs["observation"].tobytes(), r))
        return out

    assert episode(9) == episode(9)
    assert episode(9) != episode(10)


def test_illegal_action_raises_clearly_and_changes_nothing():
    env = GinRummyAEC()
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    with pytest.raises(IllegalActionError) as exc:
        env.step(0)  # draw stock during the upcard offer
    msg = str(exc.value)
    assert "action code 0 (draw stock)" in msg and "legal codes: [2, 3]" in msg and "R4.2" in msg
    assert env.agent_selection == agent
    assert np.array_equal(env.observe(agent)["observation"], before)
    with pytest.raises(ValueError, match="out of range 0..160"):
        env.step(161)
    with pytest.raises(ValueError, match="int code"):
        env.step("pass")
    env.step(3)  # pass is legal
    assert env.agent_selection != agent


def test_illegal_action_penalty_option():
    env = GinRummyAEC(illegal="penalty", illegal_penalty=0.5)
    env.reset(seed=1)
    agent = env.agent_selection
    env.step(0)
    assert env.agent_selection == agent  # the same agent acts again
    assert env.rewards[agent] == -0.5 and env._cumulative_rewards[agent] == -0.5
    assert all(r == 0 for a, r in env.rewards.items() if a != agent)
    assert env.core.match.record.actions == []  # nothing applied
    with pytest.raises(RuleSetError, match="illegal="):
        GinRummyAEC(illegal="ignore")


def _final(env, seed):
    """Each agent's total reward over an episode (the sum of what last() showed it each turn)."""
    trace = play(env, seed, seed)
    totals: dict[str, float] = {}
    for agent, _code, reward in trace:
        totals[agent] = totals.get(agent, 0.0) + reward
    return totals


def test_rewards_points_win_scaled_in_a_deal():
    """points: the deal's points to its winner and their negative to the loser; win: +-1;
    scaled: points / target.  A knock from a played deal is needed: pick a seed whose deal is scored."""
    for seed in range(40):
        env = GinRummyAEC(rules="single", reward="points")
        pts = _final(env, seed)
        result = env.core.match.record.result
        if result.winner is not None:
            break
    else:
        pytest.fail("no scored deal in 40 seeds")
    winner = f"player_{env.core.match.seat_players[result.winner]}"
    loser = [a for a in pts if a != winner][0]
    assert pts[winner] == result.points > 0 and pts[loser] == -result.points
    win = _final(GinRummyAEC(rules="single", reward="win"), seed)
    assert win[winner] == 1.0 and win[loser] == -1.0
    scaled = _final(GinRummyAEC(rules="single", reward="scaled"), seed)
    assert scaled[winner] == pytest.approx(result.points / 100)


def test_game_scope_rewards_add_up_to_the_final_margin():
    env = GinRummyAEC(scope="game", rules="classic")
    pts = _final(env, 3)
    sheet = env.core.match.sheet
    assert sheet.finished and len(env.core.match.deals) > 1
    assert pts["player_0"] == sheet.totals[0] - sheet.totals[1] == -pts["player_1"]
    assert env.rules.scoring == "game"
    assert GinRummyAEC(scope="match").rules.scoring == "hollywood"
    with pytest.raises(RuleSetError, match="scope="):
        GinRummyAEC(scope="set")


def test_single_env_plays_the_opponent_and_sums_rewards():
    env = GinRummySingle(opponent="novice", seat=1, rules="single", illegal="raise")
    obs, info = env.reset(seed=4)
    assert info["view"].to_act == 1 and info["view"].seat == 1
    total = 0.0
    done = False
    rng = random.Random(0)
    while not done:
        obs, r, done, trunc, info = env.step(rng.choice(np.flatnonzero(env.action_masks()).tolist()))
        total += r
    result = env.core.match.record.result
    mine = env.core.match.seat_players.index(1)
    expected = 0 if result.winner is None else (result.points if result.winner == mine else -result.points)
    assert total == expected
    with pytest.raises(ValueError, match="unknown player"):
        GinRummySingle(opponent="grandmaster")
    with pytest.raises(RuleSetError, match="two players"):
        GinRummySingle(rules={"players": 3})


def test_single_env_accepts_a_player_object_and_codes_map_to_actions():
    from ginrummy.players import make_player

    env = GinRummySingle(opponent=make_player("random", 1))
    obs, info = env.reset(seed=2)
    legal = {a.code for a in info["view"].legal}
    assert set(np.flatnonzero(obs["action_mask"]).tolist()) == legal
    assert Action.from_code(57 + parse_cards("7H")[0]).text == "knock 7H"


def test_episode_is_what_match_apply_gives():
    """The environment's match (deal records, results, score sheet) equals a Match driven by
    Match.apply with the same actions: the environment's fast path records exactly as it does."""
    from ginrummy.match import Match

    env = GinRummyAEC(rules={"preset": "classic", "target": 40}, scope="game")
    play(env, 8, 8)
    m = env.core.match
    assert m.finished and len(m.deals) > 1
    again = Match.new(m.rules, m.names, m.seed)
    for i, rec in enumerate(m.deals):
        if i:
            again.next_deal()
        for seat, action in rec.actions:
            again.apply(again.seat_players[seat], action)
        assert again.record.result == rec.result
    assert [r.actions for r in again.deals] == [r.actions for r in m.deals]
    assert [r.result for r in again.deals] == [r.result for r in m.deals]
    assert again.sheet.totals == m.sheet.totals and again.winner == m.winner


@pytest.mark.parametrize("rules,scope", [("standard", "deal"), ({"preset": "standard", "discard_taken_card": True}, "deal"),
                                         ({"preset": "oklahoma", "target": 40}, "game"), ({"stock_end": "wall"}, "deal"),
                                         ({"preset": "hollywood", "target": 15}, "match"), ({"players": 3}, "game")])
def test_action_mask_is_the_legal_codes_every_step(rules, scope):
    """The mask (built by its fast paths: cached lists, per-suit discard tables) is exactly the
    codes of the player's legal actions (R4.1-R4.3, R5.1, R7.2), every step, for every agent;
    each call gives a new writable array."""
    env = GinRummyAEC(rules=rules, scope=scope)
    seen = {"discard_only": 0, "with_knock": 0, "taken_left_out": 0}

    def check(env, agent, obs):
        core = env.core
        for other in env.agents:
            mask = env.observe(other)["action_mask"]
            view = env.infos[other]["view"]
            want = sorted(a.code for a in view.legal) if other == env.agent_selection and not core.done else []
            assert mask.dtype == np.int8 and mask.flags.writeable and mask.shape == (161,)
            assert np.flatnonzero(mask).tolist() == want
            assert set(mask.tolist()) <= {0, 1}
        assert np.array_equal(obs["action_mask"], env.observe(agent)["action_mask"])
        assert obs["action_mask"] is not env.observe(agent)["action_mask"]
        deal = core.match.deal
        if deal.phase == "discard":
            codes = np.flatnonzero(obs["action_mask"]).tolist()
            seen["with_knock" if max(codes) >= 57 or 4 in codes else "discard_only"] += 1
            if deal.taken is not None and 5 + deal.taken not in codes and (deal.hands[deal.to_act] >> deal.taken) & 1:
                seen["taken_left_out"] += 1

    for seed in range(4):
        play(env, seed, seed, check)
    assert seen["discard_only"] > 50 and seen["with_knock"] > 0
    assert (seen["taken_left_out"] > 0) == (not env.rules.discard_taken_card)


def test_env_and_raw_env_are_unwrapped_and_check_order_themselves():
    """env() and raw_env() give the environment itself (no PettingZoo wrapper: docs/env.md);
    it makes the order wrapper's check itself: last/step before reset raise a clear error."""
    from ginrummy.env import env as make_env
    from ginrummy.env import raw_env

    for make in (make_env, raw_env):
        e = make(rules="oklahoma")
        assert type(e) is GinRummyAEC and e.unwrapped is e and e.rules.variant == "oklahoma"
        with pytest.raises(RuntimeError, match="reset"):
            e.last()
        with pytest.raises(RuntimeError, match="reset"):
            e.step(0)
        e.reset(seed=1)
        obs, reward, term, trunc, info = e.last()
        assert np.flatnonzero(obs["action_mask"]).tolist() == [2, 3] and not term and reward == 0.0


def test_core_before_reset_says_so_and_step_none_while_playing_changes_nothing():
    # mypy without exemptions (issue 29): GameCore.view before reset() raises a ValueError that
    # says what to do (it was an AttributeError on None); step(None) while the episode goes on is
    # refused before anything changes, with the message GameCore.step gave before
    from ginrummy.env.core import GameCore

    core = GameCore()
    with pytest.raises(ValueError, match=r"^no episode yet: call reset\(\)$"):
        core.view(0)
    assert core.to_act is None and core.legal_codes(0) == []
    env = GinRummyAEC()
    env.reset(seed=5)
    before = (env.agent_selection, env.core.moves, list(env.core.match.record.actions))
    with pytest.raises(ValueError, match=r"^an action is an int code 0\.\.160, not None$"):
        env.step(None)
    assert (env.agent_selection, env.core.moves, list(env.core.match.record.actions)) == before
