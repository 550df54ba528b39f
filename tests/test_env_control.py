"""Issue 36: deals under control (``reset(options={"deck", "dealer"})``), illegal actions that end
the episode, the step limit ``max_cycles``, ``render_mode="human"`` and the parallel API
(PettingZoo's ``render_test``, ``max_cycles_test``, ``parallel_api_test``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from ginrummy.cards import cards_str, mask_of  # noqa: E402
from ginrummy.env import GinRummyAEC, GinRummySingle  # noqa: E402
from ginrummy.env import parallel as parallel_module  # noqa: E402
from ginrummy.errors import RuleSetError  # noqa: E402

DECK = list(range(52))  # AC..TC to the non-dealer, JC..7D to the dealer, upcard 8D (20)
DECK_TEXT = cards_str(DECK)


@pytest.mark.parametrize("deck", [DECK, DECK_TEXT, DECK_TEXT.split(), np.arange(52)])
@pytest.mark.parametrize("dealer", [0, 1])
def test_aec_reset_deals_the_given_deck_with_the_given_dealer(deck, dealer):
    env = GinRummyAEC()
    env.reset(seed=7, options={"deck": deck, "dealer": dealer})
    deal = env.core.match.deal
    assert deal.dealer == dealer  # two-hand: deal seat = player
    assert deal.hands[1 - dealer] == mask_of(range(10)) and deal.hands[dealer] == mask_of(range(10, 20))
    assert deal.pile == (20,) and deal.stock == tuple(range(21, 52))
    assert env.agent_selection == f"player_{1 - dealer}"  # the non-dealer is offered the upcard (R4.2)
    assert env.infos[f"player_{1 - dealer}"]["view"].hand == mask_of(range(10))


def test_dealer_alone_and_seed_alone_keep_the_seeds_deck():
    env = GinRummyAEC()
    env.reset(seed=3)
    seeded = env.core.match.deal
    env.reset(seed=3, options={"dealer": 1 - seeded.dealer})
    swapped = env.core.match.deal
    assert swapped.dealer == 1 - seeded.dealer
    assert swapped.stock == seeded.stock and swapped.upcard == seeded.upcard
    env.reset(seed=3, options={"options": 1})  # keys of others (PettingZoo's api_test) are left alone
    assert env.core.match.deal.hands == seeded.hands


def test_single_env_reset_options_and_replay():
    env = GinRummySingle(opponent="random")
    obs, info = env.reset(seed=11, options={"deck": DECK, "dealer": 1})
    # the agent (player 0) is the non-dealer: it holds deck[0:10] and is offered the upcard
    assert info["view"].hand == mask_of(range(10))
    assert obs["action_mask"].nonzero()[0].tolist() == [2, 3]
    obs2, info2 = env.reset(seed=11, options={"deck": DECK_TEXT, "dealer": 1})
    assert np.array_equal(obs["observation"], obs2["observation"])


@pytest.mark.parametrize("options, message", [
    ({"deck": DECK[:51]}, "has 51 cards"),
    ({"deck": DECK[:51] + [0]}, "gives AC more than once"),
    ({"deck": DECK[:51] + [52]}, "52 is not a card int 0..51"),
    ({"deck": DECK[:51] + [True]}, "True is not a card int"),
    ({"deck": DECK_TEXT.replace("AC", "1C")}, "not a card: '1C'"),
    ({"deck": 5}, "not int"),
    ({"dealer": 2}, "player 0 or 1, not 2"),
    ({"dealer": True}, "player 0 or 1, not True"),
    ({"decks": DECK}, "'decks' not known; allowed: 'deck', 'dealer'"),
    ("deck", "options is a dict"),
])
def test_bad_options_raise_clearly_and_change_nothing(options, message):
    env = GinRummyAEC()
    env.reset(seed=5)
    before = env.core.match
    with pytest.raises(ValueError, match=message):
        env.reset(seed=6, options=options)
    assert env.core.match is before
    with pytest.raises(ValueError, match=message):
        GinRummySingle().reset(seed=6, options=options)


def test_three_hand_takes_a_deck_but_no_dealer():
    env = GinRummyAEC(rules={"players": 3})
    env.reset(seed=2, options={"deck": DECK})
    assert env.core.match.deal.pile == (20,)
    with pytest.raises(ValueError, match=r"three-hand gin the box deals \(R10.3\)"):
        env.reset(seed=2, options={"dealer": 0})


def test_illegal_end_terminates_at_minus_one():
    env = GinRummyAEC(illegal="end")
    env.reset(seed=1)
    agent = env.agent_selection
    other = next(a for a in env.agents if a != agent)
    env.step(0)  # draw stock during the upcard offer: illegal
    assert env.rewards == {agent: -1.0, other: 0.0}
    assert env.terminations == {agent: True, other: True}
    assert env.truncations == {agent: False, other: False}
    assert env.last()[1] == (-1.0 if env.agent_selection == agent else 0.0)
    single = GinRummySingle(illegal="end", illegal_penalty=2)
    single.reset(seed=1)
    illegal = int(np.flatnonzero(single.action_masks() == 0)[0])
    _, reward, terminated, truncated, _ = single.step(illegal)
    assert (reward, terminated, truncated) == (-2.0, True, False)


def test_max_cycles_truncates_a_hollywood_match():
    env = GinRummyAEC(scope="match", max_cycles=50)
    env.reset(seed=4)
    rng = random.Random(0)
    steps = 0
    for _agent in env.agent_iter(1000):
        obs, _r, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    assert steps == 50 and not env.agents
    assert GinRummyAEC().core.max_cycles == 100_000
    with pytest.raises(RuleSetError, match="max_cycles must be an int >= 1 or None"):
        GinRummyAEC(max_cycles=0)


def test_single_env_max_cycles_counts_both_seats_and_illegal_codes():
    env = GinRummySingle(opponent="random", illegal="penalty", max_cycles=3)
    env.reset(seed=1, options={"dealer": 1})  # the agent is offered the upcard first
    mask = env.action_masks()
    illegal = int(np.flatnonzero(~mask)[0])
    assert env.step(illegal)[2:4] == (False, False)
    assert env.step(illegal)[2:4] == (False, False)
    assert env.step(illegal)[1:4] == (-1.0, False, True)


def test_pettingzoo_render_and_max_cycles_tests_pass(capsys):
    from pettingzoo.test import max_cycles_test, render_test

    render_test(lambda render_mode=None: GinRummyAEC(render_mode=render_mode))
    render_test(lambda render_mode=None: parallel_module.env(render_mode=render_mode))
    out = capsys.readouterr().out
    assert "phase=" in out
    max_cycles_test(parallel_module)


def test_human_render_prints_the_ansi_frame(capsys):
    env = GinRummyAEC(render_mode="human")
    env.reset(seed=1, options={"deck": DECK, "dealer": 1})
    assert env.render() is None
    ansi = GinRummyAEC(render_mode="ansi")
    ansi.reset(seed=1, options={"deck": DECK, "dealer": 1})
    text = ansi.render()
    assert capsys.readouterr().out == text + "\n"
    assert text == ("player_0 phase=upcard_offer hand=AC 2C 3C 4C 5C 6C 7C 8C 9C TC pile=8D stock=31 "
                    "legal=take upcard, pass")
    single = GinRummySingle(render_mode="human")
    single.reset(seed=1, options={"deck": DECK, "dealer": 1})
    assert single.render() is None
    assert capsys.readouterr().out.startswith("phase=upcard_offer hand=AC 2C")


def test_parallel_env_passes_the_parallel_api_test_and_needs_the_acting_agent():
    from pettingzoo.test import parallel_api_test

    parallel_api_test(parallel_module.parallel_env(), num_cycles=200)
    env = parallel_module.parallel_env()
    obs, infos = env.reset(seed=1, options={"deck": DECK, "dealer": 1})
    assert obs["player_0"]["action_mask"].nonzero()[0].tolist() == [2, 3]
    assert not obs["player_1"]["action_mask"].any()
    with pytest.raises(ValueError, match="player_0 is to act"):
        env.step({"player_1": 3})
    _, rewards, terms, truncs, _ = env.step({"player_0": 0, "player_1": 0})  # illegal: penalty
    assert rewards == {"player_0": -1.0, "player_1": 0.0}
    env.step({"player_0": 3, "player_1": 5})  # pass; player_1's action is ignored
    assert env.core.to_act == 1


def _first(obs):
    return int(np.flatnonzero(obs["action_mask"])[0])


def _last(obs):
    return int(np.flatnonzero(obs["action_mask"])[-1])


def test_duplicate_eval_exact_values():
    from ginrummy.env import duplicate_eval

    r = duplicate_eval(_first, _last, range(6))
    assert r.per_pair == (-152.0, -95.0, -14.0, -85.0, -37.0, -78.0)
    assert (r.pairs, r.points, r.win_rate, r.truncated) == (6, -461 / 6, 1 / 12, 0)
    assert r.points_low == pytest.approx(-115.34593409954721) and r.points_high == pytest.approx(-38.32073256711946)
    assert (r.win_low, r.win_high) == (0.0, pytest.approx(0.2466666666666667))
    levels = duplicate_eval("novice", "random", range(6))
    assert levels.per_pair == (98.0, 122.0, 103.0, 97.0, 163.0, 127.0) and levels.win_rate == 1.0
    assert duplicate_eval("novice", "random", range(6)) == levels  # levels are reseeded: it replays


def test_duplicate_eval_of_an_agent_against_itself_cancels_the_cards():
    from ginrummy.env import duplicate_eval

    r = duplicate_eval(_first, _first, range(5))
    assert r.per_pair == (0.0,) * 5 and r.win_rate == 0.5
    # two agents that take the discard and throw one back for ever: the step limit ends it
    stuck = duplicate_eval(_last, _last, range(2), max_cycles=1000)
    assert (stuck.per_pair, stuck.truncated) == ((0.0, 0.0), 4)
    with pytest.raises(ValueError, match="at least one seed"):
        duplicate_eval(_first, _first, [])
    with pytest.raises(ValueError, match="two-hand"):
        duplicate_eval(_first, _first, [1], rules={"players": 3})


def test_vector_env_rows_are_the_single_envs_episodes():
    from ginrummy.env import GinRummyVector

    vec = GinRummyVector(3, opponent="random")
    obs, _ = vec.reset(seed=10)
    singles = [GinRummySingle(opponent="random") for _ in range(3)]
    firsts = [s.reset(seed=10 + i)[0] for i, s in enumerate(singles)]
    for i in range(3):
        assert np.array_equal(obs["observation"][i], firsts[i]["observation"])
        assert np.array_equal(obs["action_mask"][i], firsts[i]["action_mask"])
    rng = random.Random(3)
    done = [False] * 3
    for _ in range(150):
        codes = [rng.choice(np.flatnonzero(obs["action_mask"][i]).tolist()) for i in range(3)]
        obs, rewards, terms, truncs, infos = vec.step(codes)
        for i, s in enumerate(singles):
            if done[i]:
                continue
            o, r, t, tr, _ = s.step(codes[i])
            assert rewards[i] == r and terms[i] == t and truncs[i] == tr
            if t or tr:
                done[i] = True
                assert infos["_final_obs"][i]
                assert np.array_equal(infos["final_obs"][i]["observation"], o["observation"])
            else:
                assert np.array_equal(obs["observation"][i], o["observation"])
                assert np.array_equal(obs["action_mask"][i], o["action_mask"])
    assert any(done)  # an episode ended and was reset in the same step
    assert vec.observation_space.contains({"observation": obs["observation"], "action_mask": obs["action_mask"]})
    with pytest.raises(ValueError, match="step takes 3 actions, not 2"):
        vec.step([0, 0])
    with pytest.raises(RuleSetError, match="num_envs must be an int >= 1"):
        GinRummyVector(0)
    with pytest.raises(ValueError, match=r"takes one int or 3 seeds, not True"):  # not a TypeError
        vec.reset(seed=True)
    assert vec._obs.shape == (3, 433) and vec._mask.shape == (3, 161)
