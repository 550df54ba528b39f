"""``GinRummyParallel``: the PettingZoo parallel API over the engine (``docs/env.md``).

Gin is played in turns, so a parallel step is one action: every live agent hands in an action,
the one of the agent to act is applied and the others are ignored (their action mask is all
0).  A *cycle* is one parallel step, so ``max_cycles`` bounds the actions of an episode.

This module is what PettingZoo's ``max_cycles_test`` takes: :func:`parallel_env` gives the
parallel environment and :func:`env` its AEC form (``pettingzoo.utils.parallel_to_aec``: every
agent steps once a cycle).  The turn-based AEC environment, where only the agent to act is
selected, is :class:`~ginrummy.env.GinRummyAEC` (``ginrummy.env.env``).
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from ..rules import RuleSet
from .aec import action_space, frame, observation_space
from .core import MAX_CYCLES, GameCore, deal_options, seed_bytes

__all__ = ["GinRummyParallel", "parallel_env", "env", "raw_env"]


class GinRummyParallel(ParallelEnv):
    """Gin Rummy under PettingZoo's parallel API (agents ``player_0``, ``player_1``[, ``player_2``]).

    Args: as :class:`~ginrummy.env.GinRummyAEC`, except that ``illegal`` defaults to
    ``"penalty"``: every agent hands in an action of its space each step, as the parallel API's
    random tests do, and an illegal one of the agent to act changes nothing and costs it
    ``illegal_penalty`` (``"raise"`` and ``"end"`` are allowed too).  ``max_cycles`` (default
    100,000; ``None``: no limit) is the most parallel steps of an episode: the step that reaches
    it truncates every agent.

    ``step(actions)`` needs the action of the agent to act (``ValueError`` naming him
    otherwise; the others' actions may be missing or anything, they are ignored) and returns
    ``(observations, rewards, terminations, truncations, infos)`` with a value for every agent
    that was live; the episode is over when ``agents`` is empty.
    """

    metadata = {"name": "ginrummy_parallel_v0", "render_modes": ["human", "ansi"], "is_parallelizable": True}

    def __init__(
        self,
        rules: str | RuleSet | Mapping[str, Any] = "standard",
        scope: str = "deal",
        reward: str = "points",
        illegal: str = "penalty",
        illegal_penalty: float = 1.0,
        render_mode: str | None = None,
        max_cycles: int | None = MAX_CYCLES,
    ) -> None:
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode={render_mode!r} is not allowed; allowed: None, 'ansi', 'human'")
        self.core = GameCore(rules, scope, reward, illegal, illegal_penalty, max_cycles)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.core.n)]
        c = self.core
        self.observation_spaces = {a: observation_space(c.obs_size, c.num_codes) for a in self.possible_agents}
        self.action_spaces = {a: action_space(c.num_codes) for a in self.possible_agents}
        self.agents: list[str] = []
        self._seeder: random.Random | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent`` (the AEC environment's)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(161)`` (``Discrete(398)`` under ``layout="players"``, R5.6)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Start an episode (``seed`` and ``options`` as :meth:`GinRummyAEC.reset`); returns
        ``(observations, infos)``.  Raises ``ValueError`` naming a bad option."""
        deck, dealer = deal_options(options, self.core.n)
        if seed is not None:
            self._seeder = random.Random(int(seed))
            match_seed = seed_bytes(seed)
        else:
            if self._seeder is None:
                self._seeder = random.Random(int.from_bytes(os.urandom(8), "big"))
            match_seed = seed_bytes(self._seeder.getrandbits(63))
        self.core.reset(match_seed, deck, dealer)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        core = self.core
        return {
            a: {"observation": core.observe(i), "action_mask": core.mask(i)} for i, a in enumerate(self.possible_agents)
        }

    def step(self, actions: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Apply the action of the agent to act (see the class)."""
        core = self.core
        to_act = core.to_act
        if not self.agents or to_act is None:
            raise RuntimeError("the episode is over (or not started): call reset()")
        agent = self.possible_agents[to_act]
        if agent not in actions or actions[agent] is None:
            raise ValueError(f"{agent} is to act: actions must hold its code 0..160")
        rewards = core.step(actions[agent])
        live = self.agents
        over = core.done
        obs = self._observations()
        out_r = {a: float(r) for a, r in zip(self.possible_agents, rewards)}
        terms = {a: over and not core.truncated for a in live}
        truncs = {a: over and core.truncated for a in live}
        infos: dict[str, dict] = {a: {} for a in live}
        if over:
            self.agents = []
        return obs, out_r, terms, truncs, infos

    def render(self) -> str | None:
        """The acting player's view as text (``"ansi"``), printed (``"human"``)."""
        core = self.core
        if self.render_mode is None or core.match is None:
            return None
        p = core.to_act if core.to_act is not None else 0
        text = f"player_{p} {frame(core.view(p))}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def parallel_env(**kwargs: Any) -> GinRummyParallel:
    """A :class:`GinRummyParallel` (PettingZoo's module-level constructor)."""
    return GinRummyParallel(**kwargs)


def env(**kwargs: Any):
    """The AEC form of :func:`parallel_env` (every agent steps once a cycle; the agent not to
    act hands in any action, ignored), as ``pettingzoo.utils.parallel_to_aec`` makes it."""
    from pettingzoo.utils.conversions import parallel_to_aec

    return parallel_to_aec(parallel_env(**kwargs))


raw_env = env
