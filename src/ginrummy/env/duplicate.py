"""Duplicate evaluation of two agents through the environments' game core (``docs/env.md``).

Each deal seed is played twice with the same cards: agent A as ``player_0`` and B as
``player_1``, then the seats swapped (A holds what B held, and has B's role: the same deck and
first dealer come from the seed, R3.1).  The luck of the cards cancels in a pair's total, so
far fewer seeds tell two agents apart than independent episodes would
(:mod:`ginrummy.analysis.duplicate` does the same for ``gin simulate``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..players.base import Player, make_player
from ..players.layout import choose_move
from ..rules import RuleSet
from .core import MAX_CYCLES, GameCore, derive_seed, seed_bytes

__all__ = ["DuplicateResult", "duplicate_eval", "Agent"]

#: an agent: a level name (``make_player``), a ``Player`` (``choose(view, legal)``), or a callable
#: taking ``{"observation": float32[433], "action_mask": int8[161]}`` and returning a code
Agent = str | Player | Callable[[dict], int]


@dataclass(frozen=True)
class DuplicateResult:
    """A's result against B over ``pairs`` duplicate pairs (two episodes each).

    Attributes:
        pairs: the number of deal seeds (each played twice).
        points: A's mean reward a pair (the sum of A's rewards over both episodes of the pair,
            deal points R6 under ``reward="points"``), with ``points_low``/``points_high`` its
            95% interval (normal approximation over the pairs, which are independent).
        win_rate: A's share of the episodes won (an episode with a total reward of 0 counts a
            half), with ``win_low``/``win_high`` its 95% interval over the pairs.
        per_pair: A's summed reward of each pair, in seed order.
        truncated: episodes cut by the step limit (``max_cycles``).
    """

    pairs: int
    points: float
    points_low: float
    points_high: float
    win_rate: float
    win_low: float
    win_high: float
    per_pair: tuple[float, ...]
    truncated: int = 0


def _interval(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    mu = sum(xs) / n
    if n < 2:
        return mu, mu, mu
    var = sum((x - mu) ** 2 for x in xs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mu, mu - half, mu + half


def _chooser(agent: Agent, core: GameCore, rng_seed: int) -> Callable[[int], int]:
    if isinstance(agent, str):
        agent = make_player(agent, random.Random(rng_seed))
    if hasattr(agent, "choose"):
        player = agent

        def by_view(p: int) -> int:
            view = core.view(p)
            return choose_move(player, view, view.legal).code

        return by_view
    if callable(agent):
        fn = agent

        def by_obs(p: int) -> int:
            return fn({"observation": core.observe(p), "action_mask": core.mask(p)})

        return by_obs
    raise ValueError(
        f"an agent is a level name, a Player or a callable(observation) -> code, not {type(agent).__name__}"
    )


def duplicate_eval(
    agent_a: Agent,
    agent_b: Agent,
    seeds: Iterable[int],
    rules: str | RuleSet | Mapping[str, Any] = "standard",
    scope: str = "deal",
    reward: str = "points",
    max_cycles: int | None = MAX_CYCLES,
) -> DuplicateResult:
    """Play every seed of ``seeds`` (ints, as ``reset(seed=)`` takes them) twice, A as
    ``player_0`` then as ``player_1``, and return A's :class:`DuplicateResult` against B.

    ``agent_a``/``agent_b``: a level name (rebuilt for every episode with a generator seeded from
    the seed and the seat, so a run replays exactly), a ``Player``, or a callable from the
    observation dict to a code.  ``rules``, ``scope``, ``reward``, ``max_cycles`` as for the
    environments (two-hand only; an episode cut by ``max_cycles`` counts the rewards it gave,
    ``truncated`` in the result counts them: two agents that always take the discard and
    throw it back never end a deal).  An illegal code raises :class:`~ginrummy.errors.IllegalActionError`.
    Raises ``ValueError`` for no seed, a bad option or agent, three players."""
    core = GameCore(rules, scope, reward, "raise", 1.0, max_cycles)
    if core.n != 2:
        raise ValueError("duplicate evaluation is for two-hand gin")
    per_pair: list[float] = []
    wins: list[float] = []
    truncated = 0
    for seed in seeds:
        match_seed = seed_bytes(seed)
        pair_points = 0.0
        pair_wins = 0.0
        for a_player in (0, 1):
            core.reset(match_seed)
            choose_a = _chooser(agent_a, core, derive_seed(match_seed, f"A/{a_player}"))
            choose_b = _chooser(agent_b, core, derive_seed(match_seed, f"B/{1 - a_player}"))
            choose = [choose_a, choose_b] if a_player == 0 else [choose_b, choose_a]
            total = 0.0
            while (p := core.to_act) is not None:  # None once the episode is over
                total += core.step(choose[p](p))[a_player]
            truncated += core.truncated
            pair_points += total
            pair_wins += 1.0 if total > 0 else 0.5 if total == 0 else 0.0
        per_pair.append(pair_points)
        wins.append(pair_wins / 2)
    if not per_pair:
        raise ValueError("duplicate_eval needs at least one seed")
    pts, pts_lo, pts_hi = _interval(per_pair)
    w, wl, wh = _interval(wins)
    return DuplicateResult(
        len(per_pair), pts, pts_lo, pts_hi, w, max(0.0, wl), min(1.0, wh), tuple(per_pair), truncated
    )
