"""The examples of the research environments (examples/): the random agent and the numpy
learning agent run, and a short training already beats the untrained policy on fixed deals."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))

import learning_agent  # noqa: E402
import random_agent  # noqa: E402

from ginrummy.env import GinRummyAEC  # noqa: E402


def test_random_agent_episode_is_zero_sum():
    env = GinRummyAEC(rules="classic", scope="game")
    steps, totals = random_agent.run_episode(env, 2, random.Random(2))
    assert steps > 100 and env.core.done
    assert totals["player_0"] == -totals["player_1"] != 0  # a game always has a winner (R11)


def test_features_of_a_knock_and_a_take():
    obs = np.zeros(433, dtype=np.float32)
    hand = [0, 1, 2, 13, 26]  # AC 2C 3C AD AH
    obs[hand] = 1.0
    obs[156 + 39] = 1.0  # top of the pile: AS (plane 3)
    f = learning_agent.features(obs, np.array([1, 57 + 2, 5 + 13]))
    assert f[0, 1] == 1.0 and f[0, 8] == pytest.approx(3 / 3)  # AS would meet three aces
    assert f[1, 6] == 1.0 and f[1, 11] == pytest.approx(0.3) and f[1, 13] == pytest.approx(0.5)
    assert f[2, 5] == 1.0 and f[2, 12] == pytest.approx(2 / 3)  # AD meets AC and AH


def test_short_training_beats_the_untrained_policy():
    policy = learning_agent.LinearPolicy(np.random.default_rng(0))
    before = learning_agent.evaluate(policy, 15, 5000)
    learning_agent.train(policy, 40, 0)
    after = learning_agent.evaluate(policy, 15, 5000)
    assert after[0] > before[0] + 5, (before, after)
    assert policy.w[6] > 0  # it learned to knock
    lo, hi = learning_agent.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
