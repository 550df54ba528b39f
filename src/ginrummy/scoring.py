"""The score sheet: games, bonuses and the Hollywood sheet (R10.5, R10.6, R11, R12).

A :class:`ScoreSheet` is an immutable record of every deal of a match, in order, as
``(winner, points)`` pairs: ``winner`` is a player index (0-based) or ``None`` for a drawn
deal (R6.4, R7), ``points`` the whole game points the winner scored in that deal (R6; 0 for a
draw).  Everything else (the games, their bonuses, the totals, who won) is derived from that
list and the :class:`~ginrummy.rules.RuleSet` by replaying it, so two sheets with the same
rules, player count and results are equal.  :meth:`ScoreSheet.add` returns a new sheet and
never changes the old one; a rejected deal raises and leaves the caller's sheet as it was.

Pure code: no I/O, no clock, no randomness.

Scoring modes (option ``scoring``, R11.1):

* ``"game"``: one game; a player wins it when his running points reach ``target`` (>=).
* ``"deal"``: one game that the first *scored* deal ends; a drawn deal does not end it (R7.1).
* ``"hollywood"``: three games on one sheet (R12), two players only (R10.6).

Decisions where RULES.md leaves room (documented here and tested):

* A won deal scores :func:`min_deal_score` to :func:`max_deal_score` points; anything else is
  refused.  A deal won with 0 points (possible only with a 0 undercut or gin bonus) is still a won deal: it
  counts for R12.2, for the box bonus (R11.3) and, in ``"deal"`` scoring, it ends the game.
* Hollywood, ``hollywood_late_entry="nowhere"`` (R12.3): a win credited to some finished and
  some open games is written to the open ones only; a win credited only to finished games is
  written nowhere.  Under ``"next_open"`` only that last case changes: the win is written to
  the lowest-numbered game still open.  Either way the win counts for R12.2.
* A deal written to a game counts as one of that game's deals for its box bonus (R12.4),
  including a late entry under ``"next_open"``.
* The Hollywood match has a winner only once it is finished (all three games, R12.5).
* ``"deal"`` scoring with bonuses on pays them as for any game (R11.3): the loser has 0 points
  in that game, so the game bonus is a shutout bonus.  (The ``single`` preset has none.)
* Three players (R10.5, R10.6) never get game or box bonuses, whatever the rule set says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from .errors import N_, IllegalActionError, RecordError, RuleSetError
from .rules import RuleSet

__all__ = ["GameSheet", "ScoreSheet", "max_deal_score", "min_deal_score", "parse_results", "Result", "MAX_DEADWOOD"]

Result = tuple[int | None, int]
"""One deal on the sheet: ``(winner index or None for a draw, points)``."""

#: The largest deadwood value ten cards can have (R1.3, R2.4): two of each of the ranks 10, J,
#: Q, K arranged so that no three make a run (for example 10C 10D QC QD JH JS KH KS: 80), and
#: two nines that meld with nothing (9H 9S: 18).  A third card of a ten-valued rank would make a
#: set (R2.1), so ten cards hold at most eight worth 10, and the next best are nines: 98.
MAX_DEADWOOD = 98


def max_deal_score(rules: RuleSet) -> int:
    """The most points one deal can score under ``rules`` (whole game points, bonuses of R6
    included, the game and box bonuses of R11.3 not: they are not deal scores).

    With ``D = MAX_DEADWOOD`` (98, the defender's deadwood at most, R2.4) and ``L`` the highest
    knock limit a deal can have (``knock_limit`` in standard gin, R5.1; 10 in Oklahoma, R9.1;
    none in Straight gin, R8.1, where nobody knocks and there is no undercut)::

        max(gin_bonus + D,                         # gin (R6.1)
            big_gin_bonus + D     if big gin is on, # big gin (R6.5)
            undercut_bonus + L    if knocking)      # undercut: K - D <= L (R6.3)
        * 2 if Oklahoma with spade_doubles (R9.3), else * 1

    A won knock scores D - K <= 97 (R6.2), never more than gin.  Every term is reached by some
    deal, so this is the bound, not an estimate.  The scorekeeper
    (:class:`ScoreSheet`, ``gin sheet``, the web scorekeeper) refuses any deal above it.

    >>> from ginrummy.rules import preset
    >>> max_deal_score(preset("standard"))
    123
    """
    candidates = [rules.gin_bonus + MAX_DEADWOOD]
    if rules.big_gin_bonus is not None:
        candidates.append(rules.big_gin_bonus + MAX_DEADWOOD)
    if rules.variant != "straight":
        limit = 10 if rules.variant == "oklahoma" else rules.knock_limit
        candidates.append(rules.undercut_bonus + limit)
    factor = 2 if rules.variant == "oklahoma" and rules.spade_doubles else 1
    return max(candidates) * factor


def min_deal_score(rules: RuleSet) -> int:
    """The fewest points the winner of a deal (R6.4) can score under ``rules``: a won deal
    scores at least this, a drawn deal (R7) 0 and has no winner.

    A knock below the opponent wins ``D - K >= 1`` (R6.2); gin scores ``gin_bonus + D`` with
    ``D >= 0`` (R6.1), big gin ``big_gin_bonus + D`` when it is on (R6.5), an undercut
    ``undercut_bonus + K - D`` with ``K >= D`` (R6.3; a tie is an undercut)::

        min(gin_bonus,                              # gin, the defender all melded (R6.1)
            big_gin_bonus       if big gin is on,   # (R6.5)
            1, undercut_bonus   if a knock short of gin can happen)

    A knock short of gin needs ``1 <= K <=`` the knock limit: never in Straight gin (R8.1) nor
    in standard gin with ``knock_limit=0`` (a knock with K = 0 is gin, R2.5, R5.1); always
    possible in Oklahoma (most upcards allow one, R9.1).  Spade doubling (R9.3) never lowers
    the least score: the deals whose upcard is not a spade are not doubled.  So the default
    rules give 1, and 0 is possible only with a bonus of 0 (``undercut_bonus=0``: equal
    deadwood; ``gin_bonus=0``: gin against a fully melded hand).  Every term is reached by
    some deal, so this is the bound, not an estimate.  With :func:`max_deal_score` it is the
    range the scorekeeper (:class:`ScoreSheet`, ``gin sheet``, the web scorekeeper) accepts
    for a won deal."""
    candidates = [rules.gin_bonus]
    if rules.big_gin_bonus is not None:
        candidates.append(rules.big_gin_bonus)
    if rules.variant == "oklahoma" or (rules.variant == "standard" and rules.knock_limit >= 1):
        candidates += [1, rules.undercut_bonus]
    return min(candidates)


def _too_many(text: str, points: int, rules: RuleSet) -> Any:
    """:func:`parse_results`'s error for a won deal above :func:`max_deal_score` (a translatable
    message, as :func:`_too_few`; R6, R9.3)."""
    return N_(
        "result {text!r}: {points} points is more than one deal can score under these rules "
        "(at most {most}: docs/rules.md, R6 and R9.3)",
        text=text,
        points=points,
        most=max_deal_score(rules),
    )


def _too_few(text: str, points: int, rules: RuleSet) -> Any:
    return N_(
        "deal result {text!r}: {points} points is less than a won deal scores under these rules "
        "(allowed: {least} to {most} points; a deal nobody won is a draw, R6, R7)",
        text=text,
        points=points,
        least=min_deal_score(rules),
        most=max_deal_score(rules),
    )


def _not_points(text: str, points: str, rules: RuleSet) -> Any:
    """:func:`parse_results`' error for POINTS that are not ASCII digits (``-5``, ``ten``), with
    rules: it names the range :func:`_too_few` and :func:`_too_many` allow, so that no answer
    allows what the next one refuses (``0`` under the standard rules, R6.2)."""
    if re.fullmatch(r"-\s*[0-9]+", points):
        return N_(
            "result {text!r}: points {points!r} is negative (allowed: {least} to {most} "
            "points; a deal nobody won is a draw, R6, R7)",
            text=text,
            points=points,
            least=min_deal_score(rules),
            most=max_deal_score(rules),
        )
    return N_(
        "result {text!r}: points {points!r} is not a whole number of points (allowed: {least} to {most} "
        "points; a deal nobody won is a draw, R6, R7)",
        text=text,
        points=points,
        least=min_deal_score(rules),
        most=max_deal_score(rules),
    )


#: How many games each mode has on the sheet (R11.1, R12.1).
_GAME_COUNT = {"deal": 1, "game": 1, "hollywood": 3}


@dataclass(frozen=True)
class GameSheet:
    """One game of a score sheet (one column of the Hollywood sheet, R12.1).

    Every tuple has one entry per player index.  Points are whole game points (ints).

    Attributes:
        number: the game's number, 1..3 for Hollywood (R12), 1 otherwise.
        points: points credited to this game by its deals; bonuses NOT included (they never
            count toward the target, R11.3).
        deals_won: deals each player won that were written to this game (R11.3, R12.4).
        finished: whether a player's points reached the target (or, in ``"deal"`` scoring,
            whether a deal was scored).
        winner: the player who won the game, ``None`` while it is open.
        game_bonus: the game bonus (R11.3) of each player: ``rules.game_bonus`` for the winner,
            doubled for a shutout (the loser has 0 points in this game) when
            ``rules.shutout_doubles``; 0 for everyone else, while open, and with three players.
        box_bonus: ``rules.box_bonus * deals_won`` for each player once the game is finished
            (R11.3); 0 while open and with three players (R10.6).
        total: ``points + game_bonus + box_bonus`` for each player.
    """

    number: int
    points: tuple[int, ...]
    deals_won: tuple[int, ...]
    finished: bool
    winner: int | None
    game_bonus: tuple[int, ...]
    box_bonus: tuple[int, ...]
    total: tuple[int, ...]


class _OpenGame:
    """Mutable working copy of one game during a replay (internal)."""

    __slots__ = ("number", "points", "deals_won", "winner")

    def __init__(self, number: int, players: int) -> None:
        self.number = number
        self.points = [0] * players
        self.deals_won = [0] * players
        self.winner: int | None = None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def copy(self) -> _OpenGame:
        """An independent copy (a later sheet goes on from it; this one stays as it is)."""
        c = _OpenGame(self.number, len(self.points))
        c.points, c.deals_won, c.winner = list(self.points), list(self.deals_won), self.winner
        return c

    def write(self, winner: int, points: int, target: int | None) -> None:
        """Credit one won deal; finish the game if ``winner`` reached ``target`` (None: at once)."""
        self.points[winner] += points
        self.deals_won[winner] += 1
        if target is None or self.points[winner] >= target:
            self.winner = winner

    def freeze(self, rules: RuleSet, players: int) -> GameSheet:
        game_bonus = [0] * players
        box_bonus = [0] * players
        if self.winner is not None and players == 2:  # R10.6: no bonuses for three players
            loser = 1 - self.winner
            shutout = self.points[loser] == 0
            game_bonus[self.winner] = rules.game_bonus * (2 if shutout and rules.shutout_doubles else 1)
            box_bonus = [rules.box_bonus * n for n in self.deals_won]
        total = [p + g + b for p, g, b in zip(self.points, game_bonus, box_bonus)]
        return GameSheet(
            number=self.number,
            points=tuple(self.points),
            deals_won=tuple(self.deals_won),
            finished=self.finished,
            winner=self.winner,
            game_bonus=tuple(game_bonus),
            box_bonus=tuple(box_bonus),
            total=tuple(total),
        )


#: Where a replay of a score sheet stopped: its open games, the deals each player won, and the
#: number of deals replayed (internal; :meth:`ScoreSheet.add` goes on from it).
_Open = tuple[tuple[_OpenGame, ...], tuple[int, ...], int]


def _result_text(winner: object, points: object) -> str:
    return "draw" if winner is None else f"{winner}:{points}"


@dataclass(frozen=True)
class ScoreSheet:
    """The score sheet of one match: every deal in order, and the games derived from them.

    Attributes:
        rules: the rule set; its ``scoring``, ``target``, ``game_bonus``, ``shutout_doubles``,
            ``box_bonus`` and ``hollywood_late_entry`` fields are read (R11, R12, R14).
        players: 2, or 3 for three-hand gin (R10).  This value, not ``rules.players``, sets the
            number of seats on the sheet.
        results: every deal in order as ``(winner index or None for a drawn deal, points)``.

    Raises:
        RuleSetError: ``players`` is not 2 or 3, ``rules`` is not a RuleSet, or three players
            are combined with Hollywood scoring (R10.6).
        IllegalActionError: a result is invalid (see :meth:`add`) or follows the end of the
            match.
    """

    rules: RuleSet
    players: int
    results: tuple[Result, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.rules, RuleSet):
            raise RuleSetError(N_("rules must be a RuleSet, not {type}", type=type(self.rules).__name__))
        if type(self.players) is not int or self.players not in (2, 3):
            raise RuleSetError(N_("players={players!r} is not allowed; allowed: 2, 3 (R10)", players=self.players))
        if self.players == 3 and self.rules.scoring == "hollywood":
            raise RuleSetError(
                N_("scoring='hollywood' is for two players (R10.6); three-hand gin allows 'game' or 'deal'")
            )
        try:
            results = tuple(tuple(r) for r in self.results)
        except TypeError:
            raise IllegalActionError(
                N_("results must be a sequence of (winner, points) pairs, not {results!r}", results=self.results)
            ) from None
        for r in results:
            if len(r) != 2:
                raise IllegalActionError(N_("result {result!r} is not a (winner, points) pair", result=r))
        object.__setattr__(self, "results", results)
        self._settle(self._replay(cast(tuple[Result, ...], results)))  # pairs, checked just above

    def _settle(self, replayed: tuple[tuple[GameSheet, ...], tuple[int, ...], _Open]) -> None:
        games, wins, open_ = replayed
        object.__setattr__(self, "_games", games)
        object.__setattr__(self, "_wins", wins)
        object.__setattr__(self, "_open", open_)  # where the replay stopped: add() goes on from it
        # the sheet never changes (add returns a new one): its end is known once
        object.__setattr__(self, "_finished", all(g.finished for g in games))
        object.__setattr__(self, "_totals", tuple(sum(g.total[p] for g in games) for p in range(self.players)))

    # -- replay -----------------------------------------------------------------------------

    def _check(self, winner: Any, points: Any) -> None:
        text = _result_text(winner, points)
        if winner is not None and (type(winner) is not int or not 0 <= winner < self.players):
            raise IllegalActionError(
                N_(
                    "deal result {text!r}: winner {winner!r} is not a player index "
                    "(allowed: 0..{last}, or None for a drawn deal)",
                    text=text,
                    winner=winner,
                    last=self.players - 1,
                ),
                action=text,
            )
        if type(points) is not int or points < 0:
            raise IllegalActionError(
                N_("deal result {text!r}: points {points!r} must be an integer >= 0", text=text, points=points),
                action=text,
            )
        if points > max_deal_score(self.rules):
            raise IllegalActionError(
                N_(
                    "deal result {text!r}: {points} points is more than one deal can score under these rules "
                    "(at most {most})",
                    text=text,
                    points=points,
                    most=max_deal_score(self.rules),
                ),
                action=text,
            )
        if winner is not None and points < min_deal_score(self.rules):
            raise IllegalActionError(_too_few(text, points, self.rules), action=text)
        if winner is None and points != 0:
            raise IllegalActionError(
                N_(
                    "deal result {text!r}: a drawn deal (winner None) scores 0 points, not {points!r} (R6.4, R7)",
                    text=text,
                    points=points,
                ),
                action=text,
            )

    def _replay(
        self, results: tuple[Result, ...], start: _Open | None = None
    ) -> tuple[tuple[GameSheet, ...], tuple[int, ...], _Open]:
        """The games and wins after ``results``, from the empty sheet or from ``start`` (where an
        earlier replay stopped: its games, wins and deal count, copied, never changed), and
        where this replay stops.  Raises as :meth:`add`."""
        rules, n = self.rules, self.players
        if start is None:
            games = [_OpenGame(i + 1, n) for i in range(_GAME_COUNT[rules.scoring])]
            wins, done = [0] * n, 0
        else:
            games, wins, done = [g.copy() for g in start[0]], list(start[1]), start[2]
        hollywood = rules.scoring == "hollywood"
        target = None if rules.scoring == "deal" else rules.target
        for index, (winner, points) in enumerate(results, done):
            self._check(winner, points)
            text = _result_text(winner, points)
            if all(g.finished for g in games):
                raise IllegalActionError(
                    N_(
                        "deal result {text!r} (deal {number}): the match is already finished",
                        text=text,
                        number=index + 1,
                    ),
                    action=text,
                )
            if winner is None:  # a drawn deal changes no points (R6.4, R7)
                continue
            wins[winner] += 1
            if not hollywood:
                games[0].write(winner, points, target)
                continue
            # R12.2: 1st win -> game 1; 2nd -> games 1, 2; 3rd and later -> games 1, 2, 3.
            credited = games[: min(wins[winner], 3)]
            targets = [g for g in credited if not g.finished]  # R12.3: finished games take no more
            if not targets and rules.hollywood_late_entry == "next_open":
                targets = [next(g for g in games if not g.finished)]  # R12.3 option
            for g in targets:
                g.write(winner, points, target)
        return tuple(g.freeze(rules, n) for g in games), tuple(wins), (tuple(games), tuple(wins), done + len(results))

    # -- public API -------------------------------------------------------------------------

    def add(self, winner: int | None, points: int) -> ScoreSheet:
        """A new sheet with one more deal: ``winner`` a player index or ``None`` for a drawn
        deal (then ``points`` must be 0), ``points`` an int >= 0 (R6).

        The sheet itself is unchanged (it is frozen).

        Raises:
            IllegalActionError: the match is finished (R11.1, R12.5); ``winner`` is not
                ``None`` or an index 0..players-1; ``points`` is not an int >= 0, or is above
                :func:`max_deal_score` of the rules, or a won deal's is below
                :func:`min_deal_score` (0 points where the rules make every win worth at least
                1, R6.2); or a draw has nonzero points.  IllegalActionError is also a ValueError.
        """
        self._check(winner, points)
        if self.finished:
            text = _result_text(winner, points)
            raise IllegalActionError(
                N_("deal result {text!r}: the match is already finished; no more deals can be added", text=text),
                action=text,
            )
        # one more deal replayed from where this sheet stopped: adding n deals one by one costs
        # O(n), not O(n^2) (the scorekeeper adds up to 500: issue 27)
        sheet = object.__new__(ScoreSheet)
        for name, value in (
            ("rules", self.rules),
            ("players", self.players),
            ("results", self.results + ((winner, points),)),
        ):
            object.__setattr__(sheet, name, value)
        sheet._settle(self._replay(((winner, points),), start=self._open))  # type: ignore[attr-defined]
        return sheet

    @property
    def games(self) -> tuple[GameSheet, ...]:
        """The games: one for ``"deal"`` and ``"game"`` scoring, three for ``"hollywood"`` (R12.1)."""
        games: tuple[GameSheet, ...] = self._games  # type: ignore[attr-defined]
        return games

    @property
    def totals(self) -> tuple[int, ...]:
        """Per player: the sum of the totals (points plus bonuses) of all games (R12.5)."""
        totals: tuple[int, ...] = self._totals  # type: ignore[attr-defined]
        return totals

    @property
    def finished(self) -> bool:
        """Whether the match is over: its game is finished, or for Hollywood all three (R12.5)."""
        finished: bool = self._finished  # type: ignore[attr-defined]
        return finished

    @property
    def match_winner(self) -> int | None:
        """The player index who won the match, ``None`` while it is not finished.

        ``"game"``/``"deal"``: the game's winner (R11.1, R10.5).  Hollywood: the winner of two
        (or three) games once all three are finished (R12.5); if no player won more games than
        every other (impossible with two players) it is ``None``.
        """
        if not self.finished:
            return None
        games_won = [0] * self.players
        for g in self.games:
            assert g.winner is not None
            games_won[g.winner] += 1
        best = max(games_won)
        leaders = [p for p, n in enumerate(games_won) if n == best]
        return leaders[0] if len(leaders) == 1 else None

    @property
    def wins(self) -> tuple[int, ...]:
        """Per player: deals won over the whole match, written to a game or not (R12.2)."""
        wins: tuple[int, ...] = self._wins  # type: ignore[attr-defined]
        return wins

    def to_dict(self, names: Sequence[str]) -> dict[str, Any]:
        """The sheet as the JSON of the ``gin sheet`` command; ``names`` the players' names
        by index.

        Shape (every number an int, every ``{name: ...}`` map keyed by the names in order)::

            {"scoring": str, "target": int,
             "games": [{"number": int, "points": {name: int}, "deals_won": {name: int},
                        "finished": bool, "winner": name | None,
                        "bonuses": {name: {"game": int, "box": int}}, "total": {name: int}}, ...],
             "totals": {name: int}, "finished": bool, "match_winner": name | None}

        Raises:
            IllegalActionError: ``names`` does not have one distinct string per player.
        """
        names = list(names)
        if len(names) != self.players or not all(isinstance(x, str) for x in names):
            raise IllegalActionError(
                N_("names {names!r} must be {n} strings, one per player", names=names, n=self.players)
            )
        if len(set(names)) != len(names):
            raise IllegalActionError(N_("names {names!r} must be distinct", names=names))

        def by_name(values: Sequence[Any]) -> dict[str, Any]:
            return dict(zip(names, values))

        def name_of(index: int | None) -> str | None:
            return None if index is None else names[index]

        return {
            "scoring": self.rules.scoring,
            "target": self.rules.target,
            "games": [
                {
                    "number": g.number,
                    "points": by_name(g.points),
                    "deals_won": by_name(g.deals_won),
                    "finished": g.finished,
                    "winner": name_of(g.winner),
                    "bonuses": by_name([{"game": gb, "box": bb} for gb, bb in zip(g.game_bonus, g.box_bonus)]),
                    "total": by_name(g.total),
                }
                for g in self.games
            ],
            "totals": by_name(self.totals),
            "finished": self.finished,
            "match_winner": name_of(self.match_winner),
        }


_POINTS = re.compile(r"[0-9]+")


def parse_results(args: Sequence[str], names: Sequence[str], rules: RuleSet | None = None) -> list[Result]:
    """Read the RESULT arguments of ``gin sheet``: each ``NAME:POINTS`` or ``draw``.

    NAME is matched case-insensitively (surrounding spaces ignored) against ``names``; the
    result's winner is that name's index.  POINTS is a non-negative integer in ASCII digits.
    ``draw`` (any case) is a drawn deal, ``(None, 0)`` (R6.4, R7).  The text is split at its
    last ``:``, so a name may itself contain ``:``.  With ``rules``, POINTS above
    :func:`max_deal_score` (the most one deal can score under them) or below
    :func:`min_deal_score` (the least a won deal scores: 1 under the default rules, R6.2) is
    refused here, naming the argument and the allowed range; :class:`ScoreSheet` refuses it
    anyway.  POINTS that are not a whole number are refused naming the same range (with
    ``rules``; without, "a whole number >= 0").

    Returns one ``(winner index or None, points)`` pair per argument, in order.

    Raises:
        RecordError: an argument is not of that form, names no player, or names a player
            ambiguously (two names equal ignoring case).  RecordError is also a ValueError.
    """
    form = "expected NAME:POINTS (for example " + (f"{names[0]}:25" if names else "Bob:25") + ") or draw"
    folded = [str(n).strip().casefold() for n in names]
    out: list[Result] = []
    for arg in args:
        if not isinstance(arg, str):
            raise RecordError(f"result {arg!r} is not text; {form}")
        if arg.strip().casefold() == "draw":
            out.append((None, 0))
            continue
        name, sep, points = arg.rpartition(":")
        if not sep:
            raise RecordError(f"result {arg!r} is not understood; {form}")
        key = name.strip().casefold()
        matches = [i for i, n in enumerate(folded) if n == key]
        if not matches:
            raise RecordError(f"result {arg!r}: {name.strip()!r} is not a player; players: {', '.join(names)}")
        if len(matches) > 1:
            raise RecordError(f"result {arg!r}: {name.strip()!r} matches more than one player")
        points = points.strip()
        if not _POINTS.fullmatch(points):
            if rules is not None:  # the range the checks below allow, not a looser ">= 0" (R6, R7)
                raise RecordError(_not_points(arg, points, rules))
            raise RecordError(f"result {arg!r}: points {points!r} must be a whole number >= 0; {form}")
        value = int(points)
        if rules is not None and value > max_deal_score(rules):
            raise RecordError(_too_many(arg, value, rules))
        if rules is not None and value < min_deal_score(rules):
            raise RecordError(_too_few(arg, value, rules))
        out.append((matches[0], value))
    return out
