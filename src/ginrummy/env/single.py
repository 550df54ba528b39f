"""``GinRummySingle``: a Gymnasium environment for one seat against a computer player
(``gymnasium.make("ginrummy/GinRummy-v0")``, ``docs/env.md``)."""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np

from ..deal import DealState
from ..match import Match
from ..players.base import Player, make_player
from ..players.layout import choose_move
from ..players.simple import RandomPlayer
from ..rules import RuleSet
from .aec import _LazyDict, action_space, frame, observation_space
from .core import MAX_CYCLES, GameCore, code_of, deal_options, derive_seed, seed_bytes
from .text import check_observation_mode, json_info, text_obs, text_observation_space

__all__ = ["GinRummySingle"]


class GinRummySingle(gym.Env):
    """Gin Rummy for one agent (``player_0`` unless ``seat`` says otherwise) against a computer
    player; two-hand only.

    Args:
        opponent: a level name (``random``, ``novice``, ``club``, ``expert``, ...; see
            :func:`~ginrummy.players.make_player`) or any :class:`~ginrummy.players.Player`.
            A level is rebuilt at every reset with a generator seeded from the episode seed, so
            seeded episodes replay exactly; a given ``Player`` object is used as it is.
        seat: the agent's player index, 0 or 1 (who deals first comes from the seed, R3.1).
        rules, scope, reward, illegal, illegal_penalty: as for
            :class:`~ginrummy.env.GinRummyAEC`, except that ``illegal`` defaults to
            ``"penalty"`` here: Gymnasium's contract is that every action of the space may be
            passed to ``step`` (an illegal code then changes nothing and costs
            ``illegal_penalty``).  Pass ``illegal="raise"`` for an error instead.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the agent's view as text) or
            ``"human"`` (prints it).
        max_cycles: the most engine steps (both seats', illegal codes included) an episode may
            last (default 100,000; ``None``: no limit); the step that reaches it returns
            ``truncated=True``.
        observation_mode: ``"vector"`` (default) or ``"text"`` (for language models: the
            observation's ``"observation"`` is the view as text, and ``info`` is JSON-ready,
            ``{"view": view.to_json(agent=True), "action_mask": [0/1 x 161]}``;
            :mod:`ginrummy.env.text`).

    Observation: the agent's ``{"observation", "action_mask"}`` (the AEC layout); ``info`` has
    ``"view"`` (the agent's :class:`~ginrummy.views.PlayerView`) and ``"action_mask"``.
    ``action_masks()`` gives the mask (the method MaskablePPO looks for).  ``step`` applies the
    agent's code, then plays the opponent until the agent is to act again or the episode ends; the
    reward is the agent's sum over that stretch.  Raises
    :class:`~ginrummy.errors.RuleSetError` (a ``ValueError``) for a bad option or three players.
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(
        self,
        opponent: str | Player = "random",
        seat: int = 0,
        rules: str | RuleSet | Mapping[str, Any] = "standard",
        scope: str = "deal",
        reward: str = "points",
        illegal: str = "penalty",
        illegal_penalty: float = 1.0,
        render_mode: str | None = None,
        max_cycles: int | None = MAX_CYCLES,
        observation_mode: str = "vector",
    ) -> None:
        from ..errors import RuleSetError

        self.core = GameCore(rules, scope, reward, illegal, illegal_penalty, max_cycles)
        if self.core.n != 2:
            raise RuleSetError("GinRummySingle is for two players; use GinRummyAEC for three-hand gin")
        if seat not in (0, 1) or isinstance(seat, bool):
            raise RuleSetError(f"seat must be 0 or 1, not {seat!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode={render_mode!r} is not allowed; allowed: None, 'ansi', 'human'")
        if isinstance(opponent, str):
            make_player(opponent)  # an unknown level fails here, naming the known ones
            self._level: str | None = opponent
            self.opponent: Player = make_player(opponent, 0)
        elif hasattr(opponent, "choose"):
            self._level = None
            self.opponent = opponent
        else:
            raise RuleSetError(f"opponent must be a level name or a Player, not {type(opponent).__name__}")
        self.seat = seat
        self.render_mode = render_mode
        self.text_mode = check_observation_mode(observation_mode) == "text"
        c = self.core
        self.observation_space = (
            text_observation_space(c.num_codes) if self.text_mode else observation_space(c.obs_size, c.num_codes)
        )
        self.action_space = action_space(c.num_codes)
        self._seeder: random.Random | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Start an episode; ``seed`` (int) makes it exactly reproducible (opponent included when it
        was given by level).  ``options``: ``{"deck": ..., "dealer": 0 or 1}`` as for
        :meth:`GinRummyAEC.reset` (``dealer`` is a player index: the agent is ``seat``).
        Returns ``(observation, info)``; raises ``ValueError`` naming a bad option.

        An episode that ends before the agent's first decision (the opponent knocks or goes gin
        on his first turn: about one seed in 4,000 against ``random``; or ``max_cycles`` runs
        out in the opponent's opening moves) is no episode of the agent's: the next is started
        from the seeder, which ``seed`` seeded (options are not carried over: a given deck gives
        that deal once), as :class:`~ginrummy.env.GinRummyVector` does, so the returned
        observation always has a legal code and a seeded reset still replays exactly."""
        self.start(seed, options)
        while self.core.done:
            self.start(None, None)
        return self._obs(), self._info()

    def start(self, seed: int | None = None, options: dict | None = None) -> None:
        """What :meth:`reset` does before it builds the observation and info (the vector
        environment writes those into its batch itself)."""
        deck, dealer = deal_options(options, 2)
        super().reset(seed=seed)
        if seed is not None:
            self._seeder = random.Random(int(seed))
            match_seed = seed_bytes(seed)
        else:
            if self._seeder is None:
                self._seeder = random.Random(int.from_bytes(os.urandom(8), "big"))
            match_seed = seed_bytes(self._seeder.getrandbits(63))
        if self._level is not None:
            self.opponent = make_player(self._level, random.Random(derive_seed(match_seed, "opponent")))
        self.core.reset(match_seed, deck, dealer)
        self._play_opponent()

    def _play_opponent(self) -> float:
        core = self.core
        total = 0.0
        seat = self.seat
        opponent = self.opponent
        if type(opponent) is RandomPlayer:
            # Speed: the random level needs no view; it draws from the same list (the engine's
            # legal actions, in the view's order) with the same generator, so the play is the same
            # (the engine's shared list, not a copy: the same choices; codes by identity, not .code)
            choice = opponent.rng.choice
            match = core.match  # the same Match the whole episode (reset() made it)
            assert match is not None
            step = core.step
            while not core.done and core.player != seat:
                total += step(code_of(choice(match.deal.legal_actions_shared())))[seat]
            return total
        while (p := core.to_act) is not None and p != seat:  # None: the episode is over
            view = core.view(p)
            action = choose_move(opponent, view, view.legal)  # the layout decisions (R5.6): layout_move
            total += core.step(action.code)[seat]
        return total

    def step(self, action: int) -> tuple[dict, float, bool, bool, dict]:
        """Apply the agent's code ``action`` (0..160) and let the opponent play.  Returns
        ``(observation, reward, terminated, truncated, info)``.  Raises what
        :meth:`GameCore.step` raises (``ValueError`` for a bad code, the episode over, or under
        ``illegal="raise"`` an illegal code)."""
        core = self.core
        reward = core.step(action)[self.seat]
        if core.to_act != self.seat:
            reward += self._play_opponent()
        truncated = core.truncated
        return self._obs(), float(reward), core.done and not truncated, truncated, self._info()

    def _obs(self) -> dict[str, np.ndarray]:
        core = self.core
        mask = self._mask = core.mask(self.seat)
        if self.text_mode:
            return text_obs(core.view(self.seat), mask)
        return {"observation": core.observe(self.seat), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        if self.text_mode:
            return json_info(self.core.view(self.seat), action_mask=self._mask.tolist())
        info = _LazyViewInfo()
        info["action_mask"] = self._mask.copy()
        match = self.core.match
        assert match is not None  # the info of a step or a reset
        info._later = (match, self.seat, match.deal)
        return info

    def action_masks(self) -> np.ndarray:
        """The agent's action mask now (``bool``, 161)."""
        return self.core.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        """``"ansi"``: the agent's view as text; ``"human"``: prints it and returns ``None``."""
        if self.render_mode is None or self.core.match is None:
            return None
        text = frame(self.core.view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text


class _LazyViewInfo(_LazyDict):
    """``{"view": PlayerView, "action_mask": int8[161]}`` whose view is built when first read
    (a view costs more than the rest of a step; most loops never read it).  It is the view of
    the step the info was made at (the deal state is immutable; the totals are those when
    read, which change only when a deal ends).  Every way of reading the dict builds it first."""

    __slots__ = ("_later",)
    #: (match, seat, deal state) of the step, until the view is built; then None
    _later: tuple[Match, int, DealState] | None

    def _build(self) -> None:
        later = self._later
        if later is not None:
            self._later = None
            match, seat, deal = later
            dict.__setitem__(self, "view", match.view(seat, deal) if deal.result is None else match.view(seat))
