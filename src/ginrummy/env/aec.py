"""``GinRummyAEC``: the PettingZoo AEC environment over the engine (``docs/env.md``)."""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable

from ..actions import NUM_CODES
from ..rules import RuleSet
from .core import MAX_CYCLES, GameCore, deal_options, seed_bytes
from .observation import OBS_SIZE
from .text import check_observation_mode, json_info, text_obs, text_observation_space

__all__ = ["GinRummyAEC", "observation_space", "action_space", "env", "raw_env"]


def observation_space(obs_size: int = OBS_SIZE, num_codes: int = NUM_CODES) -> spaces.Dict:
    """``Dict(observation=Box(0, 1, (433,), float32), action_mask=Box(0, 1, (161,), int8))``;
    under ``layout="players"`` (R5.6) ``obs_size`` 593 and ``num_codes`` 398
    (:func:`~ginrummy.env.observation.obs_size`, :func:`~ginrummy.env.core.num_codes`)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (obs_size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (num_codes,), dtype=np.int8),
        }
    )


def action_space(num_codes: int = NUM_CODES) -> spaces.Discrete:
    """``Discrete(161)``: the engine's action codes (:mod:`ginrummy.actions`); ``Discrete(398)``
    under ``layout="players"`` (the layout decisions, R5.6, are codes 161..397)."""
    return spaces.Discrete(num_codes)


class _LazyDict(dict[str, Any]):
    """A dict with a part built when it is first read: every way of reading it (item, ``get``,
    ``in``, iteration, length, keys/values/items, copy, equality, repr, pickling) calls
    :meth:`_build` first.  Subclasses define ``_build``."""

    __slots__ = ()

    def _build(self) -> None:
        raise NotImplementedError

    def __getitem__(self, key: str) -> Any:
        self._build()
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        self._build()
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        self._build()
        return dict.__contains__(self, key)

    def __iter__(self):
        self._build()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._build()
        return dict.__len__(self)

    def keys(self):
        self._build()
        return dict.keys(self)

    def values(self):
        self._build()
        return dict.values(self)

    def items(self):
        self._build()
        return dict.items(self)

    def copy(self) -> dict[str, Any]:
        self._build()
        return dict(dict.items(self))

    def __eq__(self, other: object) -> bool:
        self._build()
        return dict.__eq__(self, other)

    __hash__ = None

    def __repr__(self) -> str:
        self._build()
        return dict.__repr__(self)

    def __reduce__(self):
        self._build()
        return (dict, (dict(dict.items(self)),))


class _ViewInfo(_LazyDict):
    """One agent's info, ``{"view": PlayerView}``, the view built when read: a view costs more
    than the rest of a step, and most training loops never read it.  It always shows the
    environment as it is when read."""

    __slots__ = ("_env", "_agent", "_built")

    def __init__(self, env: GinRummyAEC, agent: str) -> None:
        super().__init__()
        self._env = env
        self._agent = agent
        self._built = -1

    def _build(self) -> None:
        version = self._env._version
        if self._built != version:
            self._built = version
            dict.__setitem__(self, "view", self._env._view_of(self._agent))


class _Observation(dict[str, Any]):
    """``{"observation": float32[433], "action_mask": int8[161]}`` whose observation vector is
    encoded when first read: a loop that reads only the mask (a random agent) does not pay for
    it.  The deal state is immutable, so it is the observation of the step it was made at,
    whenever it is read.

    Speed: the dict holds the mask from the start and the vector once read, so ``obs[key]`` is
    a plain dict lookup; a missing ``"observation"`` is built by ``__missing__``.  Every other
    way of reading the dict (``get``, ``in``, iteration, ``len``, ``keys``, ``items``, ``copy``,
    ``==``, ``repr``, pickling) builds it first, so the dict always looks like both keys.
    """

    __slots__ = ("_later",)
    #: what GameCore.observe_later gave, until the vector is built; then None
    _later: tuple[Any, ...] | None

    def _build(self) -> None:
        later = self._later
        if later is not None:
            self._later = None
            encoder, state, odisc, totals = later
            dict.__setitem__(self, "observation", encoder.observe(state, odisc, totals))

    def __missing__(self, key: str) -> Any:
        later = self._later
        if key == "observation" and later is not None:  # _build, inlined (the hot path)
            self._later = None
            obs = later[0].observe_view(later[1], later[2], later[3]).copy()
            dict.__setitem__(self, "observation", obs)
            return obs
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._build()
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        return key in ("observation", "action_mask")

    def __iter__(self):
        self._build()
        return dict.__iter__(self)

    def __len__(self) -> int:
        return 2

    def keys(self):
        self._build()
        return dict.keys(self)

    def values(self):
        self._build()
        return dict.values(self)

    def items(self):
        self._build()
        return dict.items(self)

    def copy(self) -> dict[str, Any]:
        self._build()
        return dict(dict.items(self))

    def __eq__(self, other: object) -> bool:
        self._build()
        return dict.__eq__(self, other)

    __hash__ = None

    def __repr__(self) -> str:
        self._build()
        return dict.__repr__(self)

    def __reduce__(self):
        self._build()
        return (dict, (dict(dict.items(self)),))


def _observation(mask: np.ndarray, later: tuple) -> _Observation:
    obs = _Observation()
    obs["action_mask"] = mask
    obs._later = later
    return obs


class _AgentIterable(AECIterable):
    """What :meth:`GinRummyAEC.agent_iter` returns: PettingZoo's ``AECIterable`` whose iterator
    is a generator (the same agents, the same ``max_iter`` limit, a cheaper ``next``)."""

    def __iter__(self):
        return _agents(self.env, self.max_iter)


def _agents(env: GinRummyAEC, left: int):
    while left > 0 and env.agents:
        left -= 1
        yield env.agent_selection


class _Infos(dict):
    """``infos``: agent -> its :class:`_ViewInfo`."""

    def __init__(self, env: GinRummyAEC, agents: list[str]) -> None:
        super().__init__((a, _ViewInfo(env, a)) for a in agents)


class GinRummyAEC(AECEnv):
    """Gin Rummy as a PettingZoo AEC environment (agents ``player_0``, ``player_1``, and
    ``player_2`` for three-hand gin, R10).

    Args:
        rules: a preset name (R13), a :class:`~ginrummy.rules.RuleSet`, or a dict of rule fields
            (R14) with an optional ``"preset"``.
        scope: ``"deal"`` (one deal, default), ``"game"`` (a game to the target, R11) or
            ``"match"`` (a Hollywood match, R12).
        reward: ``"points"`` (default), ``"win"`` or ``"scaled"``; see :meth:`GameCore.step`.
        illegal: ``"raise"`` (default: an illegal code raises
            :class:`~ginrummy.errors.IllegalActionError` naming it and the legal codes),
            ``"penalty"`` (nothing happens, the same agent acts again, and it is given
            ``-illegal_penalty``) or ``"end"`` (the episode ends, every agent terminated, the
            offender given ``-illegal_penalty`` and the others 0: PettingZoo's classic
            environments, ``TerminateIllegalWrapper``).
        illegal_penalty: see ``illegal`` (default 1.0).
        max_cycles: the most steps of live agents an episode may last (default 100,000;
            ``None``: no limit); the step that reaches it truncates every agent.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the acting agent's view as text)
            or ``"human"`` (``render()`` prints that text and returns ``None``).
        observation_mode: ``"vector"`` (default, below) or ``"text"`` (for language models: the
            observation's ``"observation"`` is the view as text, the info JSON-ready;
            :mod:`ginrummy.env.text`).

    Observations: ``{"observation": float32[433], "action_mask": int8[161]}`` from the agent's
    own :class:`~ginrummy.views.PlayerView` (layout in :mod:`ginrummy.env.observation`); the
    full view is ``infos[agent]["view"]``.  Actions: ``Discrete(161)``, the codes of
    :mod:`ginrummy.actions`.  Under ``layout="players"`` (R5.6: the knocker lays his melds, the
    defender lays off and lays his, as OpenSpiel's ``gin_rummy`` asks) the observation is
    ``float32[593]`` and the actions ``Discrete(398)`` (codes 161..397 the layout decisions).  ``reset(seed=k)`` replays exactly: the match seed is
    :func:`~ginrummy.env.core.seed_bytes` of ``k``; ``reset()`` without a seed draws the next
    seed from the generator of the last seeded reset (or from the system the first time).
    Raises :class:`~ginrummy.errors.RuleSetError` (a ``ValueError``) for a bad option.
    """

    metadata = {"name": "ginrummy_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}
    agent_selection: str | None = None  # until reset()

    def __init__(
        self,
        rules: str | RuleSet | Mapping[str, Any] = "standard",
        scope: str = "deal",
        reward: str = "points",
        illegal: str = "raise",
        illegal_penalty: float = 1.0,
        render_mode: str | None = None,
        max_cycles: int | None = MAX_CYCLES,
        observation_mode: str = "vector",
    ) -> None:
        super().__init__()
        self.text_mode = check_observation_mode(observation_mode) == "text"
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode={render_mode!r} is not allowed; allowed: None, 'ansi', 'human'")
        self.core = GameCore(rules, scope, reward, illegal, illegal_penalty, max_cycles)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.core.n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        c = self.core
        self.observation_spaces = {
            a: text_observation_space(c.num_codes) if self.text_mode else observation_space(c.obs_size, c.num_codes)
            for a in self.possible_agents
        }
        self.action_spaces = {a: action_space(c.num_codes) for a in self.possible_agents}
        self._seeder: random.Random | None = None
        self._seeder_seed: int | None = None
        self._version = 0  # counts resets and steps: a view in infos is rebuilt when it changes
        self._scored = False  # whether the last step gave rewards (so rewards must be cleared)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent`` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(161)`` for every agent."""
        return self.action_spaces[agent]

    @property
    def rules(self) -> RuleSet:
        """The rule set played (scope applied)."""
        return self.core.rules

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new episode; ``seed`` (int) makes it exactly reproducible.

        ``options``: ``{"deck": ..., "dealer": 0 or 1}``, both optional: the first deal's deck
        (52 card ints, 52 card texts or one text, in deal order: ``deck[0:10]`` the non-dealer's
        hand, ``deck[10:20]`` the dealer's, ``deck[20]`` the upcard, R3.2) and the player who
        deals it (R3.1, two-hand); the rest still comes from the seed.  Raises ``ValueError``
        naming a bad option (the environment is unchanged then)."""
        deck, dealer = deal_options(options, self.core.n)
        if seed is not None:
            match_seed = seed_bytes(seed)
            # the generator of later unseeded resets, random.Random(seed), is made when first needed
            self._seeder = None
            self._seeder_seed = int(seed)
        else:
            if self._seeder is None:
                base = self._seeder_seed
                self._seeder = random.Random(int.from_bytes(os.urandom(8), "big") if base is None else base)
                self._seeder_seed = None
            match_seed = seed_bytes(self._seeder.getrandbits(63))
        self.core.reset(match_seed, deck, dealer)
        self._version += 1
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._scored = False
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = _Infos(self, self.agents)
        to_act = self.core.to_act
        assert to_act is not None  # a new episode has a player to act
        self.agent_selection = self.possible_agents[to_act]

    def _view_of(self, agent: str):
        view = self.core.view(self._index[agent])
        return json_info(view)["view"] if self.text_mode else view

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation and action mask now (the mask is all 0 unless it is to act).

        A dict of both; the observation vector is encoded when first read (see
        :class:`_Observation`), exactly as it was at this step.  Arrays are new at every call."""
        i = self._index[agent]
        core = self.core
        if self.text_mode:
            return text_obs(core.view(i), core.mask(i))
        return _observation(core.mask(i), core.observe_later(i))

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """``(observation, cumulative reward, terminated, truncated, info)`` of ``agent_selection``,
        as PettingZoo's ``AECEnv.last`` (which it overrides only to be quicker)."""
        agent = self.agent_selection
        if agent is None:
            raise RuntimeError("call reset() before last()")
        core = self.core
        if not observe:
            obs = None
        elif core.done or self.text_mode:
            obs = self.observe(agent)
        else:  # agent_selection is the player to act (step and reset keep them so)
            assert core.player is not None and core.match is not None  # not done
            encoder, other, totals = core.obs_base[core.player]
            obs = _Observation()
            obs["action_mask"] = core.mask_to_act()
            obs._later = (encoder, core.match.deal, core.odisc[other], totals)
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        """The agents in turn, ``agent_selection`` at each ``next`` until no agent is left or
        ``max_iter`` agents were given (PettingZoo's ``agent_iter``, with a generator)."""
        return _AgentIterable(self, max_iter)

    def step(self, action: int | None) -> None:
        """Apply ``action`` (a code 0..160) for ``agent_selection``.

        Raises ``ValueError`` for a code outside 0..160 or a non-int, and
        :class:`~ginrummy.errors.IllegalActionError` for an illegal code under
        ``illegal="raise"``; the environment is unchanged then.  Once the episode is over each
        agent steps ``None`` in turn (PettingZoo's dead step) and leaves ``agents``.
        """
        core = self.core
        if core.done:  # every agent is terminated then, and only then
            if core.match is None:
                raise RuntimeError("call reset() before step()")
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        assert agent is not None  # not done: reset() chose it
        if action is None:  # only a done agent steps None (the dead step above)
            raise ValueError(f"an action is an int code 0..{core.num_codes - 1}, not None")
        rewards = core.step(action)
        self._cumulative_rewards[agent] = 0.0
        if rewards is core.no_rewards:  # the deal goes on: no one scores
            if self._scored:
                self._scored = False
                rw = self.rewards
                for a in rw:
                    rw[a] = 0.0
        else:
            self._scored = True
            rw = self.rewards
            cum = self._cumulative_rewards
            for a, r in zip(self.possible_agents, rewards):
                rw[a] = r
                cum[a] += r
        self._version += 1
        if core.done:
            ends = self.truncations if core.truncated else self.terminations
            for a in self.agents:
                ends[a] = True
        else:
            assert core.player is not None  # not done
            self.agent_selection = self.possible_agents[core.player]

    def render(self) -> str | None:
        """``"ansi"``: the acting agent's view as text (hand, pile, stock, legal actions);
        ``"human"``: prints that text and returns ``None``; no render mode: ``None``."""
        if self.render_mode is None or self.agent_selection is None:
            return None
        text = f"{self.agent_selection} {frame(self.core.view(self._index[self.agent_selection]))}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def frame(v) -> str:
    """One line of text of the view ``v``: phase, hand, the pile's last five cards, stock size,
    legal actions (what ``render()`` shows)."""
    from ..cards import card_str, cards_of

    return (
        f"phase={v.phase} hand={' '.join(card_str(c) for c in cards_of(v.hand))} "
        f"pile={' '.join(card_str(c) for c in v.pile[-5:])} stock={v.stock_size} "
        f"legal={', '.join(a.text for a in v.legal)}"
    )


def env(**kwargs: Any) -> GinRummyAEC:
    """A :class:`GinRummyAEC` (PettingZoo's usual module-level constructor), unwrapped.

    PettingZoo's own environments return ``raw_env()`` inside wrappers (order enforcing, bounds
    assertions) from ``env()``; here both give the same unwrapped environment, because those
    wrappers cost each step more than the environment's own protocol does and the environment
    makes their checks itself: ``step``/``last`` before ``reset`` raise ``RuntimeError``, a code
    outside 0..160 raises ``ValueError``, an illegal one :class:`~ginrummy.errors.IllegalActionError`
    (or the penalty).  Wrap it yourself if you want them (``pettingzoo.utils.wrappers``)."""
    return GinRummyAEC(**kwargs)


def raw_env(**kwargs: Any) -> GinRummyAEC:
    """The same as :func:`env`: a :class:`GinRummyAEC` with no wrapper."""
    return GinRummyAEC(**kwargs)
