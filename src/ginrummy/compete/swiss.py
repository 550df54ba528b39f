"""Swiss pairings and standings (``docs/compete.md``, "Swiss").

A game's result is one of :data:`RESULTS`, seen from its first player ``a``: ``"a"`` (a
won), ``"b"``, ``"draw"``, ``"forfeit_a"`` (a forfeited: b wins), ``"forfeit_b"``, or
``"forfeit_both"`` (neither scores).  A win scores 1, a draw ½, a loss or forfeit 0, a bye 1.

Pairing (:func:`pair_round`), each round: the players still in are ordered by score, then by
entry order (their seed).  With an odd number, the bye goes to the lowest in that order who has
had no bye, for whom the others can still be paired with no repeat; then, from the top, each
player is paired with the nearest below him he has not met, backtracking when the rest could
not be paired without a repeat.  Only when no pairing without a repeat exists (for any bye
allowed) are repeats allowed, fewest first (greedy from the top).

Standings (:func:`standings`): score, then Buchholz (the sum of the opponents' scores; a bye
adds nothing), then Sonneborn-Berger (the sum of each opponent's score times the points
taken from him), shared ranks when all three are equal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["RESULTS", "Game", "points_of", "pair_round", "Standing", "standings"]

RESULTS = ("a", "b", "draw", "forfeit_a", "forfeit_b", "forfeit_both")
"""The results of a game, seen from its first player ``a``."""

_POINTS = {
    "a": (1.0, 0.0),
    "b": (0.0, 1.0),
    "draw": (0.5, 0.5),
    "forfeit_a": (0.0, 1.0),
    "forfeit_b": (1.0, 0.0),
    "forfeit_both": (0.0, 0.0),
}


@dataclass(frozen=True)
class Game:
    """A pairing: ``a`` against ``b`` in round ``round`` (``b`` ``None``: a bye for ``a``),
    ``result`` one of :data:`RESULTS` or ``None`` while in play (a bye has no result)."""

    round: int
    a: str
    b: str | None
    result: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"round", "a", "b", "result"}``."""
        return {"round": self.round, "a": self.a, "b": self.b, "result": self.result}


def points_of(game: Game) -> tuple[float, float]:
    """``(a's points, b's points)`` of a game: a bye is ``(1, 0)``, a game in play ``(0, 0)``."""
    if game.b is None:
        return 1.0, 0.0
    if game.result is None:
        return 0.0, 0.0
    return _POINTS[game.result]


def _scores(players: Sequence[str], games: Sequence[Game]) -> dict[str, float]:
    s = {p: 0.0 for p in players}
    for g in games:
        pa, pb = points_of(g)
        s[g.a] = s.get(g.a, 0.0) + pa
        if g.b is not None:
            s[g.b] = s.get(g.b, 0.0) + pb
    return s


def _met(games: Sequence[Game]) -> set[frozenset[str]]:
    return {frozenset((g.a, g.b)) for g in games if g.b is not None}


def _pair_no_repeat(order: list[str], met: set[frozenset[str]]) -> list[tuple[str, str]] | None:
    failed: set[frozenset[str]] = set()

    def go(rest: tuple[str, ...]) -> list[tuple[str, str]] | None:
        if not rest:
            return []
        key = frozenset(rest)
        if key in failed:
            return None
        first = rest[0]
        for i in range(1, len(rest)):
            other = rest[i]
            if frozenset((first, other)) in met:
                continue
            tail = go(rest[1:i] + rest[i + 1 :])
            if tail is not None:
                return [(first, other), *tail]
        failed.add(key)
        return None

    return go(tuple(order))


def _pair_fewest_repeats(order: list[str], met: set[frozenset[str]]) -> list[tuple[str, str]]:
    rest = list(order)
    out = []
    while rest:
        first = rest.pop(0)
        j = next((i for i, o in enumerate(rest) if frozenset((first, o)) not in met), 0)
        out.append((first, rest.pop(j)))
    return out


def pair_round(
    players: Sequence[str], games: Sequence[Game], round_no: int, withdrawn: Sequence[str] = ()
) -> list[Game]:
    """The games of round ``round_no``: ``players`` in entry order (their seed), ``games`` all
    the games so far, ``withdrawn`` the players not to pair any more.  Returns the boards in
    order (top score first), the bye (if any) last.  Raises ``ValueError`` with fewer than two
    players in."""
    gone = set(withdrawn)
    active = [p for p in players if p not in gone]
    if len(active) < 2:
        raise ValueError("a Swiss round needs at least two players in")
    seed = {p: i for i, p in enumerate(players)}
    score = _scores(players, games)
    order = sorted(active, key=lambda p: (-score[p], seed[p]))
    met = _met(games)
    had_bye = {g.a for g in games if g.b is None}
    bye: str | None = None
    pairs: list[tuple[str, str]] | None = None
    if len(order) % 2:
        candidates = [p for p in reversed(order) if p not in had_bye] or list(reversed(order))
        for c in candidates:
            pairs = _pair_no_repeat([p for p in order if p != c], met)
            if pairs is not None:
                bye = c
                break
        if pairs is None:
            bye = candidates[0]
            pairs = _pair_fewest_repeats([p for p in order if p != bye], met)
    else:
        pairs = _pair_no_repeat(order, met) or _pair_fewest_repeats(order, met)
    out = [Game(round_no, a, b) for a, b in pairs]
    if bye is not None:
        out.append(Game(round_no, bye, None))
    return out


@dataclass(frozen=True)
class Standing:
    """A row of the standings: ``rank`` (shared by ties), ``player``, ``score``, ``buchholz``,
    ``sonneborn_berger``, ``wins`` (byes and forfeit wins included), ``games`` (byes
    included)."""

    rank: int
    player: str
    score: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    games: int

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON object with the same keys."""
        return dict(self.__dict__)


def standings(players: Sequence[str], games: Sequence[Game]) -> list[Standing]:
    """The standings of ``players`` (entry order) after ``games`` (games in play count
    nothing), best first: by score, Buchholz, Sonneborn-Berger; equal on all three share a
    rank and are listed in entry order."""
    score = _scores(players, games)
    bh = {p: 0.0 for p in players}
    sb = {p: 0.0 for p in players}
    wins = {p: 0 for p in players}
    count = {p: 0 for p in players}
    for g in games:
        pa, pb = points_of(g)
        if g.b is None:
            wins[g.a] += 1
            count[g.a] += 1
            continue
        if g.result is None:
            continue
        for me, other, mine in ((g.a, g.b, pa), (g.b, g.a, pb)):
            count[me] += 1
            bh[me] += score[other]
            sb[me] += score[other] * mine
            wins[me] += mine == 1.0
    seed = {p: i for i, p in enumerate(players)}
    key = {p: (score[p], bh[p], sb[p]) for p in players}
    order = sorted(players, key=lambda p: (tuple(-x for x in key[p]), seed[p]))
    out: list[Standing] = []
    for i, p in enumerate(order):
        r = out[-1].rank if out and key[out[-1].player] == key[p] else i + 1
        out.append(Standing(r, p, score[p], bh[p], sb[p], wins[p], count[p]))
    return out
