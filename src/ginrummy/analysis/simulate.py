"""Computer against computer: play whole matches (games) and collect statistics.

:func:`simulate` plays ``games`` matches between computer players of the given levels (see
:func:`ginrummy.players.make_player`) under one rule set, driving each through
:class:`ginrummy.match.Match` and giving each player only its :meth:`Match.view` and the
legal actions of that view (DESIGN principle 3).  The result is a :class:`SimulationSummary`:
matches won by each level with a 95% Wilson interval (:func:`wilson_interval`), deals, how
they ended, and mean deal points.

Pure: no I/O, no clock, no global random state.  Everything follows from ``seed`` (an int):
match ``i`` (0-based) is seeded with :func:`match_seed` ``(seed, i)``, and each player's
``random.Random`` with :func:`player_seed` of that match seed, so the same arguments always
give the same summary.  A match depends on ``seed`` and its number alone, so the matches can be
played in any order and in any process: :class:`SimulationTask` plays one and returns its small
:class:`GameResult`, :func:`summarise` adds results up in any order, and
:func:`ginrummy.analysis.shards.simulate_sharded` splits a simulation between local processes or Ray
workers with the same summary as :func:`simulate`.

Fairness: levels are given to the match's player indexes so that the first role rotates from
game to game.  Two-hand: in game ``i`` the level ``levels[i % 2]`` is the first dealer
(R3.1, R11.2).  Three-hand (R10): in game ``i`` the levels in the order ``i, i+1, i+2``
(mod 3) start in the box, as captain and sitting out (R10.1).  Over an even number of games
(a multiple of 3 for three-hand) every level has each starting role equally often.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import RuleSetError
from ..match import Match
from ..players import make_player
from ..rules import RuleSet

__all__ = [
    "SimulationSummary",
    "GameOutcome",
    "GameResult",
    "SimulationTask",
    "simulate",
    "summarise",
    "play_game",
    "wilson_interval",
    "match_seed",
    "player_seed",
    "seat_levels",
    "OUTCOMES",
]

#: Deal outcomes counted by :func:`simulate` (R6, R7).
OUTCOMES = ("knock", "gin", "big_gin", "undercut", "draw")


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (``z = 1.96``: 95%).

    With ``p = wins / n``::

        centre = (p + z²/(2n)) / (1 + z²/n)
        half   = z * sqrt(p(1 - p)/n + z²/(4n²)) / (1 + z²/n)

    returns ``(max(0, centre - half), min(1, centre + half))``; for ``n == 0`` it is
    ``(0.0, 1.0)`` (nothing is known).

    Raises :class:`ValueError` unless ``0 <= wins <= n`` are ints and ``z > 0``.
    """
    if type(wins) is not int or type(n) is not int or n < 0 or not 0 <= wins <= n:
        raise ValueError(f"wilson_interval needs ints 0 <= wins <= n, not wins={wins!r}, n={n!r}")
    if not z > 0:
        raise ValueError(f"wilson_interval needs z > 0, not {z!r}")
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def match_seed(seed: int, index: int) -> bytes:
    """The secret seed (32 bytes) of match ``index`` (0-based) of a simulation seeded with
    ``seed``: SHA-256 of ``"ginrummy/simulate/<seed>/<index>"``."""
    return hashlib.sha256(f"ginrummy/simulate/{seed}/{index}".encode()).digest()


def player_seed(seed: bytes, player: int) -> int:
    """The seed (an int below 2**64) of player index ``player``'s ``random.Random`` in the
    match seeded with ``seed`` (bytes)."""
    digest = hashlib.sha256(seed + b"/player/" + str(player).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _first_order(rules: RuleSet, n: int, seed: bytes) -> tuple[int, ...]:
    """Player indexes in the order of their first roles in a match with ``seed``:
    (first dealer, non-dealer) for two hands, (box, captain, sits out) for three (R10.1)."""
    probe = Match.new(rules, [f"P{k}" for k in range(n)], seed)
    if probe.roles is not None:
        return probe.roles
    dealer_player = probe.seat_players[probe.deal.dealer]
    return (dealer_player, 1 - dealer_player)


def seat_levels(rules: RuleSet, levels: Sequence[str], index: int, seed: bytes) -> tuple[int, ...]:
    """Which player index each level position plays as in match ``index`` seeded with ``seed``.

    Returns ``order`` with ``order[j]`` the player index of ``levels[j]``: the level
    ``levels[(index + k) % n]`` takes the ``k``-th first role (two-hand: first dealer,
    non-dealer; three-hand: box, captain, sits out), so the first role rotates among the levels
    from game to game (see the module docstring).
    """
    n = len(levels)
    first = _first_order(rules, n, seed)
    order = [0] * n
    for k, player in enumerate(first):
        order[(index + k) % n] = player
    return tuple(order)


@dataclass(frozen=True)
class GameOutcome:
    """One simulated match, as passed to the ``on_game`` callback of :func:`simulate`.

    Attributes:
        index: the match's 0-based number in the simulation.
        match: the finished :class:`Match` (its deals, sheet and seed; for records).
        levels: the level of each player index of ``match`` (its ``names`` are these levels,
            made distinct when two are equal).
        order: for each level position of the simulation (the ``levels`` argument), the player
            index it played as.
        winner: the level position that won the match, or ``None`` if it has no winner.
    """

    index: int
    match: Match
    levels: tuple[str, ...]
    order: tuple[int, ...]
    winner: int | None


def _names(levels: Sequence[str]) -> list[str]:
    if len(set(levels)) == len(levels):
        return list(levels)
    return [f"{lv}-{k + 1}" for k, lv in enumerate(levels)]


def play_game(rules: RuleSet, levels: Sequence[str], index: int, seed: int) -> GameOutcome:
    """Play match ``index`` of a simulation seeded with ``seed`` to its end.

    ``levels`` are computer player levels (``"random"``, ``"novice"``, ...), 2 or 3 of them;
    the returned :class:`GameOutcome` maps them to the match's player indexes.  Each player
    chooses from ``match.view(player)`` and its ``legal`` actions only.

    Raises :class:`GinRummyError` (``ValueError``) for an unknown level, and
    :class:`IllegalActionError` if a player returns an action that is not legal.
    """
    n = len(levels)
    mseed = match_seed(seed, index)
    order = seat_levels(rules, levels, index, mseed)
    seat = [""] * n
    names = [""] * n
    for j, name in enumerate(_names(levels)):
        seat[order[j]] = levels[j]
        names[order[j]] = name
    match = Match.new(rules, names, mseed)
    match.play_out([make_player(seat[p], random.Random(player_seed(mseed, p))) for p in range(n)])
    w = match.winner
    winner = None if w is None else order.index(w)
    return GameOutcome(index, match, tuple(seat), order, winner)


@dataclass(frozen=True)
class SimulationSummary:
    """What :func:`simulate` found.  Every tuple has one entry per level, in the order of the
    ``levels`` argument.

    Attributes:
        players: the levels.
        games: matches played.
        wins: matches won by each level (R11.1, R12.5).
        deals: deals played, drawn deals included.
        knocks: deals the knocker won by a knock (R6.2; undercuts are not counted here).
        gins: deals won by gin or big gin (R6.1, R6.5).
        undercuts: deals won by the defender with an undercut (R6.3).
        draws: drawn deals (R7).  ``knocks + gins + undercuts + draws == deals``.
        points: points each level scored in deals (R6, Oklahoma doubling R9.3 included; game,
            box and shutout bonuses R11.3 not included).
        seed: the simulation seed.
    """

    players: tuple[str, ...]
    games: int
    wins: tuple[int, ...]
    deals: int
    knocks: int
    gins: int
    undercuts: int
    draws: int
    points: tuple[int, ...]
    seed: int = 0

    @property
    def win_rate(self) -> tuple[float, ...]:
        """Matches won / matches played, per level (0.0 when no match was played)."""
        return tuple(w / self.games if self.games else 0.0 for w in self.wins)

    @property
    def interval95(self) -> tuple[tuple[float, float], ...]:
        """The 95% Wilson interval (:func:`wilson_interval`) of each level's win rate."""
        return tuple(wilson_interval(w, self.games) for w in self.wins)

    @property
    def points_per_deal(self) -> tuple[float, ...]:
        """Deal points scored per deal played (drawn deals included), per level."""
        return tuple(p / self.deals if self.deals else 0.0 for p in self.points)

    def to_json(self) -> dict[str, Any]:
        """The ``gin simulate --json`` form::

        {"players": [level...], "games": int, "wins": [int...], "win_rate": [float...],
         "interval95": [[lo, hi]...], "deals": int, "knocks": int, "gins": int,
         "undercuts": int, "draws": int, "points_per_deal": [float...]}
        """
        return {
            "players": list(self.players),
            "games": self.games,
            "wins": list(self.wins),
            "win_rate": list(self.win_rate),
            "interval95": [list(iv) for iv in self.interval95],
            "deals": self.deals,
            "knocks": self.knocks,
            "gins": self.gins,
            "undercuts": self.undercuts,
            "draws": self.draws,
            "points_per_deal": list(self.points_per_deal),
        }


def _check(rules: RuleSet, levels: Sequence[str], games: int, seed: int) -> tuple[RuleSet, list[str]]:
    """Validate the arguments of :func:`simulate`; the rules with ``players = len(levels)``."""
    levels = list(levels)
    if len(levels) not in (2, 3):
        raise RuleSetError(f"a simulation has 2 or 3 players, not {len(levels)} ({', '.join(map(str, levels))})")
    if type(games) is not int or games < 0:
        raise ValueError(f"games must be an int >= 0, not {games!r}")
    if type(seed) is not int:
        raise ValueError(f"seed must be an int, not {seed!r}")
    if rules.players != len(levels):
        rules = rules.replace(players=len(levels))
    for lv in levels:  # fail early on an unknown level
        make_player(lv, random.Random(0))
    return rules, levels


@dataclass(frozen=True)
class GameResult:
    """What one simulated match adds to a :class:`SimulationSummary`: small and picklable, so
    that worker processes send it back instead of the whole :class:`Match`.

    Attributes:
        index: the match's 0-based number in the simulation.
        winner: the level position that won the match, or ``None``.
        outcomes: how many of its deals ended in each of :data:`OUTCOMES` (same order).
        points: deal points scored by each level position (as in :class:`SimulationSummary`).
        record: the match's record (:func:`ginrummy.record.dumps`) when asked for, else ``None``.
    """

    index: int
    winner: int | None
    outcomes: tuple[int, ...]
    points: tuple[int, ...]
    record: str | None = None

    @property
    def deals(self) -> int:
        """Deals played in the match, drawn deals included."""
        return sum(self.outcomes)

    @classmethod
    def of(cls, game: GameOutcome, record: bool = False) -> GameResult:
        """The result of a finished :class:`GameOutcome` (with its record text if ``record``)."""
        counts = dict.fromkeys(OUTCOMES, 0)
        points = [0] * len(game.order)
        for deal in game.match.deals:
            result = deal.result
            assert result is not None
            counts[result.outcome] += 1
            if result.winner is not None:
                points[game.order.index(deal.seat_players[result.winner])] += result.points
        text = None
        if record:
            from ..record import dumps

            text = dumps(game.match)
        return cls(game.index, game.winner, tuple(counts[o] for o in OUTCOMES), tuple(points), text)


@dataclass(frozen=True)
class SimulationTask:
    """One simulation's games as a task for :mod:`ginrummy.analysis.shards` (picklable).

    ``play(index, seed)`` plays match ``index`` with :func:`play_game` and returns its
    :class:`GameResult` (with the record text when ``records``).  Build it with
    :meth:`SimulationTask.new`, which checks the arguments as :func:`simulate` does.
    """

    rules: RuleSet
    levels: tuple[str, ...]
    records: bool = False

    @classmethod
    def new(cls, rules: RuleSet, levels: Sequence[str], records: bool = False) -> SimulationTask:
        """A checked task; raises as :func:`simulate` does for bad ``rules`` or ``levels``."""
        rules, checked = _check(rules, levels, 0, 0)
        return cls(rules, tuple(checked), records)

    def play(self, index: int, seed: int) -> GameResult:
        """Play match ``index`` of the simulation seeded with ``seed``; its :class:`GameResult`."""
        return GameResult.of(play_game(self.rules, self.levels, index, seed), self.records)


def summarise(levels: Sequence[str], games: int, seed: int, results: Iterable[GameResult]) -> SimulationSummary:
    """The :class:`SimulationSummary` of ``results`` (one :class:`GameResult` per match, in any
    order: the sums do not depend on it).  Raises ``ValueError`` if the number of results is not
    ``games``."""
    n = len(levels)
    wins = [0] * n
    points = [0] * n
    counts = [0] * len(OUTCOMES)
    played = 0
    for game in results:
        played += 1
        if game.winner is not None:
            wins[game.winner] += 1
        for k in range(n):
            points[k] += game.points[k]
        for k, c in enumerate(game.outcomes):
            counts[k] += c
    if played != games:
        raise ValueError(f"summarise: {played} results for {games} games")
    by = dict(zip(OUTCOMES, counts))
    return SimulationSummary(
        players=tuple(levels),
        games=games,
        wins=tuple(wins),
        deals=sum(counts),
        knocks=by["knock"],
        gins=by["gin"] + by["big_gin"],
        undercuts=by["undercut"],
        draws=by["draw"],
        points=tuple(points),
        seed=seed,
    )


def simulate(
    rules: RuleSet,
    levels: Sequence[str],
    games: int,
    seed: int = 0,
    on_game: Callable[[GameOutcome], None] | None = None,
) -> SimulationSummary:
    """Play ``games`` whole matches between computer players of ``levels`` under ``rules``,
    in this process, in order (:func:`ginrummy.analysis.shards.simulate_sharded` splits them between
    processes or Ray workers and gives the same summary).

    Args:
        rules: the rule set; its ``players`` field is set to ``len(levels)`` (R10).
        levels: 2 or 3 computer player levels (names for :func:`make_player`), e.g.
            ``["novice", "random"]``; a level may appear twice.
        games: number of matches (an int >= 0).
        seed: an int; match ``i`` uses :func:`match_seed` ``(seed, i)``.
        on_game: called with each :class:`GameOutcome` as soon as its match ends (for a
            progress bar or to save records).

    Returns a :class:`SimulationSummary` (entries in the order of ``levels``).

    Raises:
        RuleSetError: not 2 or 3 levels, or three levels with Hollywood scoring (R10.6).
        GinRummyError: an unknown level (the message names the known ones).
        ValueError: ``games`` or ``seed`` is not a suitable int.
    """
    rules, levels = _check(rules, levels, games, seed)

    def results() -> Iterator[GameResult]:
        for i in range(games):
            game = play_game(rules, levels, i, seed)
            if on_game is not None:
                on_game(game)
            yield GameResult.of(game)

    return summarise(levels, games, seed, results())
