"""The environments' text mode, ``observation_mode="text"`` (issue 35, item 2; docs/env.md):
the observation is the view as text, the info dict is JSON-ready as it is, and a model's
answer read by ``reply_code`` is the move the environment applies."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from ginrummy.env import GinRummyAEC, GinRummySingle  # noqa: E402
from ginrummy.env.text import reply_code  # noqa: E402
from ginrummy.errors import IllegalActionError, RuleSetError  # noqa: E402


def test_aec_text_mode_plays_a_deal_through_replies():
    env = GinRummyAEC(rules={"stock_end": "wall"}, observation_mode="text")
    env.reset(seed=3)
    rng = random.Random(3)
    steps = 0
    for agent in env.agent_iter(max_iter=500):
        obs, reward, term, trunc, info = env.last()
        json.dumps(info)  # JSON-ready as it is
        if term or trunc:
            assert "Phase: the deal is over." in obs["observation"]
            env.step(None)
            continue
        text = obs["observation"]
        assert env.observation_space(agent).contains(obs)
        codes = info["view"]["legal_codes"]
        assert sorted(codes) == obs["action_mask"].nonzero()[0].tolist()
        i = rng.randrange(len(codes)) + 1
        assert f"\n{i}. " in text
        code = reply_code(f"My move: {i}", codes)
        assert code == codes[i - 1]
        with pytest.raises(IllegalActionError, match="legal moves: 1. "):
            reply_code(str(len(codes) + 1), codes)
        env.step(code)
        steps += 1
    assert steps > 10 and not env.agents


def test_single_text_mode_info_serialises():
    env = GinRummySingle(opponent="novice", observation_mode="text")
    obs, info = env.reset(seed=5)
    assert isinstance(obs["observation"], str) and obs["observation"].startswith("Gin Rummy. You are player_0")
    data = json.loads(json.dumps(info))
    assert data["view"]["legal_codes"] == [i for i, x in enumerate(info["action_mask"]) if x]
    assert data["view"]["scores"]["names"] == ["player_0", "player_1"]
    obs, reward, done, trunc, info = env.step(reply_code("1", info["view"]["legal_codes"]))
    json.dumps(info)


def test_vector_mode_unchanged_and_bad_mode_refused():
    env = GinRummyAEC()
    env.reset(seed=1)
    obs, *_, info = env.last()
    assert obs["observation"].shape == (433,) and hasattr(info["view"], "legal")
    with pytest.raises(RuleSetError, match="observation_mode='words' is not allowed; allowed: 'vector', 'text'"):
        GinRummyAEC(observation_mode="words")
    with pytest.raises(RuleSetError, match="observation_mode='words'"):
        GinRummySingle(observation_mode="words")
