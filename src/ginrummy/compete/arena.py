"""Arena scoring and pairing (``docs/compete.md``, "Arena"), after lichess's arena.

For a fixed time, a player who is free is paired again at once with another free player of
near score.  Points: a win 2, a draw 1, a loss 0; after two wins in a row a player is **on a
streak**: each later game counts double (a win 4, a draw 2) until a game he does not win,
which ends the streak.  A forfeit counts as a loss for the forfeiter and a win for the other.
Games that end after the arena's end time do not count; no game starts after it.  Ranking:
points, then points a game (fewer games for the same points ranks higher), then shared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["OUTCOMES", "arena_points", "arena_pairs", "ArenaStanding", "arena_standings"]

OUTCOMES = ("win", "draw", "loss")
"""A game's outcome for one player."""


def arena_points(outcomes: Sequence[str]) -> tuple[list[int], bool]:
    """``(points of each game, on a streak now)`` for a player's ``outcomes`` in the order
    played: 2 a win, 1 a draw, 0 a loss, doubled while on a streak (after two wins in a row,
    until a game not won).  Raises ``ValueError`` for an outcome not in :data:`OUTCOMES`."""
    out: list[int] = []
    in_a_row = 0
    for o in outcomes:
        if o not in OUTCOMES:
            raise ValueError(f"an arena outcome is one of {', '.join(OUTCOMES)}, not {o!r}")
        base = {"win": 2, "draw": 1, "loss": 0}[o]
        out.append(base * (2 if in_a_row >= 2 else 1))
        in_a_row = in_a_row + 1 if o == "win" else 0
    return out, in_a_row >= 2


def arena_pairs(
    waiting: Sequence[str], points: dict[str, int], last_opponent: dict[str, str], order: Sequence[str]
) -> list[tuple[str, str]]:
    """Pairs of the free players ``waiting``: sorted by ``points`` (high first, then entry
    ``order``), each is paired with the nearest below him who was not his last opponent (or
    the nearest, if every one was); an odd one out waits for the next call."""
    seed = {p: i for i, p in enumerate(order)}
    rest = sorted(waiting, key=lambda p: (-points.get(p, 0), seed.get(p, len(seed))))
    out = []
    while len(rest) >= 2:
        first = rest.pop(0)
        j = next((i for i, o in enumerate(rest) if last_opponent.get(first) != o and last_opponent.get(o) != first), 0)
        out.append((first, rest.pop(j)))
    return out


@dataclass(frozen=True)
class ArenaStanding:
    """A row of an arena table: ``rank`` (shared), ``player``, ``points``, ``games``,
    ``wins``, ``streak`` (on a streak now)."""

    rank: int
    player: str
    points: int
    games: int
    wins: int
    streak: bool

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON object with the same keys."""
        return dict(self.__dict__)


def arena_standings(players: Sequence[str], outcomes: Mapping[str, Sequence[str]]) -> list[ArenaStanding]:
    """The arena table of ``players`` (entry order) from each player's ``outcomes`` in order:
    by points, then points a game, best first; equal on both share a rank."""
    rows = []
    for p in players:
        pts, fire = arena_points(outcomes.get(p, ()))
        rows.append((p, sum(pts), len(pts), sum(o == "win" for o in outcomes.get(p, ())), fire))
    seed = {p: i for i, p in enumerate(players)}

    def key(r: tuple[str, int, int, int, bool]) -> tuple[int, float]:
        return r[1], (r[1] / r[2] if r[2] else 0.0)

    rows.sort(key=lambda r: (-key(r)[0], -key(r)[1], seed[r[0]]))
    out: list[ArenaStanding] = []
    for i, r in enumerate(rows):
        same = out and (out[-1].points, out[-1].points / out[-1].games if out[-1].games else 0.0) == key(r)
        out.append(ArenaStanding(out[-1].rank if same else i + 1, r[0], r[1], r[2], r[3], r[4]))
    return out
