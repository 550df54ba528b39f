"""Duplicate play: every match seed played twice, the levels swapping seats.

Two levels playing games to 100 with independent seeds see very different cards; the luck of
the deal dominates the result, so many games are needed to tell two close levels apart.  In
*duplicate* play each match seed (:func:`ginrummy.analysis.simulate.match_seed`) is played twice: in the
second game of the pair every level sits where the other sat in the first (the player index,
so the same cards of every deal, R3.1, and the same first dealer, R11.2), and the luck of the
cards cancels out in the pair's total.

Numbering (as :mod:`ginrummy.analysis.shards` plays it): duplicate game ``i`` is pair ``i // 2``, and
the second of its pair (seats swapped) when ``i`` is odd (:func:`pair_of`).  The seating of the
first game is :func:`ginrummy.analysis.simulate.seat_levels` of the pair number; the second reverses it
(:func:`duplicate_order`).

:func:`summarise_pairs` gives the pair statistics: games won and the duplicate points
difference, each as a mean with a 95% interval over the pairs (their natural unit: the pairs
are independent, the two games of a pair are not), and how much duplicate play cut the
variance compared with as many independent games.  Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import RuleSet
from .simulate import seat_levels

__all__ = ["pair_of", "duplicate_order", "PairStats", "summarise_pairs", "mean_interval"]


def pair_of(index: int) -> tuple[int, bool]:
    """``(pair, swapped)`` of duplicate game ``index`` (an int >= 0): games ``2p`` and ``2p + 1``
    are pair ``p``, the second with the seats swapped.  Raises ``ValueError`` for a negative or
    non-int index."""
    if type(index) is not int or index < 0:
        raise ValueError(f"a duplicate game index is an int >= 0, not {index!r}")
    return index // 2, bool(index % 2)


def duplicate_order(rules: RuleSet, levels: Sequence[str], pair: int, seed: bytes, swapped: bool) -> tuple[int, ...]:
    """``order[j]``: the player index level ``levels[j]`` plays as, in the game of duplicate
    pair ``pair`` seeded with ``seed`` (its :func:`~ginrummy.analysis.simulate.match_seed`).

    The first game of the pair is seated as :func:`~ginrummy.analysis.simulate.seat_levels` seats game
    ``pair``; the swapped game gives each level the other's player index, hence the other's
    cards in every deal and the other's first role (R3.1, R11.2).  Two-hand only: raises
    ``ValueError`` for any other number of levels."""
    if len(levels) != 2:
        raise ValueError(f"duplicate play is for two levels, not {len(levels)}")
    order = seat_levels(rules, levels, pair, seed)
    return (order[1], order[0]) if swapped else tuple(order)


def mean_interval(xs: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean of ``xs`` and its normal-approximation interval
    ``mean ± z * sd / sqrt(n)`` (``z = 1.96``: 95%; ``sd`` with ``n - 1``).  With fewer than two
    values the interval is the mean itself.  Raises ``ValueError`` for an empty ``xs``."""
    n = len(xs)
    if n == 0:
        raise ValueError("mean_interval needs at least one value")
    mu = sum(xs) / n
    if n < 2:
        return mu, mu, mu
    half = z * math.sqrt(_var(xs) / n)
    return mu, mu - half, mu + half


def _var(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    mu = sum(xs) / n
    return sum((x - mu) ** 2 for x in xs) / (n - 1)


@dataclass(frozen=True)
class PairStats:
    """Duplicate statistics of level A against level B over ``pairs`` complete pairs.

    Attributes:
        pairs: complete pairs (two games each).
        games_won: A's games won out of ``2 * pairs`` (a game without a winner counts a half).
        win_rate, win_low, win_high: A's share of the games and its 95% interval over the
            pairs (each pair scores 0, 0.5 or 1).
        points_diff, points_low, points_high: the duplicate points difference, A's game points
            minus B's summed over the two games of a pair (deal points, R6), mean a pair and 95%
            interval.
        win_variance_ratio, points_variance_ratio: the variance of a pair's mean (wins; points
            difference) divided by the variance of the mean of two independent games, estimated
            from the same games taken one by one; below 1 duplicate play is the more precise,
            and ``1 - ratio`` is the share of the variance it removed (as many games give an
            interval ``sqrt(ratio)`` times as wide).  ``nan`` when a game variance is 0.
    """

    pairs: int
    games_won: float
    win_rate: float
    win_low: float
    win_high: float
    points_diff: float
    points_low: float
    points_high: float
    win_variance_ratio: float
    points_variance_ratio: float


def summarise_pairs(games: Sequence[tuple[int, bool, float, float]]) -> PairStats:
    """The :class:`PairStats` of ``games``: one ``(pair, swapped, a_won, a_minus_b_points)``
    per game (``a_won`` 1 or 0, a tie 0.5; points as A's game points minus B's).  Pairs with only
    one of their two games are left out.  Raises ``ValueError`` when no pair is complete or a
    game is given twice."""
    by: dict[int, dict[bool, tuple[float, float]]] = {}
    for pair, swapped, won, diff in games:
        slot = by.setdefault(pair, {})
        if swapped in slot:
            raise ValueError(f"duplicate pair {pair}: its {'second' if swapped else 'first'} game is given twice")
        slot[swapped] = (float(won), float(diff))
    full = [slot for _, slot in sorted(by.items()) if len(slot) == 2]
    if not full:
        raise ValueError("no complete duplicate pair (each pair needs both its games)")
    wins = [(s[False][0] + s[True][0]) / 2 for s in full]
    diffs = [s[False][1] + s[True][1] for s in full]
    single_w = [s[k][0] for s in full for k in (False, True)]
    single_d = [s[k][1] for s in full for k in (False, True)]
    w, wl, wh = mean_interval(wins)
    d, dl, dh = mean_interval(diffs)

    def ratio(pair_values: list[float], singles: list[float], scale: float) -> float:
        # var(mean of a pair) against var(mean of two independent games) = var(single) / 2
        v1 = _var(singles)
        return math.nan if v1 == 0 else _var(pair_values) / scale / (v1 / 2)

    return PairStats(
        len(full),
        sum(single_w),
        w,
        max(0.0, wl),
        min(1.0, wh),
        d,
        dl,
        dh,
        ratio(wins, single_w, 1.0),
        ratio(diffs, single_d, 4.0),
    )
