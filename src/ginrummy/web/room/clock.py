"""Clocks of the web table: seconds per move and a time bank, kept by the server.

A table made with ``clock = {"move": M, "bank": B}`` gives every person M seconds for each
move (each action: a draw is a move, a discard is a move) and a bank of B seconds for the
whole match.  Time over M comes out of the bank; when a move is not made within M seconds plus
what is left in the bank, the server makes it for the player with the ``novice`` level and
counts it; :data:`FORFEIT_AFTER` such moves in a row forfeit the match (unless that move ended the
match by the rules), and the other player wins it.  Computer seats have no clock.

The clock is rebuilt from the stored steps' times (``gin_actions.created``), so it survives a
restart: a turn that ran out while the server was down is timed out when it comes back.
Nothing here reads the clock itself: the times are given (seconds since the epoch), so the
rules of the clock are tested with exact values.

A **turn-based** table (``clock = {"days": D}``, D one of :data:`~ginrummy.compete.correspondence.DAYS`)
gives each move D days (``move`` = D x :data:`DAY` seconds, no bank).  A move not made in its
days is not made by the server: the player **forfeits the match at once** (``docs/compete.md``,
"Turn-based play"; the server stores a ``time`` step, :mod:`~ginrummy.web.room.autoplay`), so
:meth:`Clock.forfeits` is never true there.

**Between deals** a two-hand table's clock runs too (:meth:`Clock.between_deals`): the next deal
waits for each person's client seed and a ``next_deal``, and the person who owes the next of
those has his move's time (D days, or M seconds and his bank); when it runs out he forfeits the
match at once (a ``time`` step), as no move can be made for him there (a client seed chosen by
the server would let it pick the deck).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

__all__ = ["Clock", "DAY", "FORFEIT_AFTER", "parse_time"]

DAY = 86400.0
"""Seconds in a day of a turn-based table's clock."""

FORFEIT_AFTER = 3
"""Moves made by the server in a row (timeouts) after which a player forfeits the match."""


def parse_time(text: str) -> float:
    """A stored ``created`` time (ISO 8601, UTC) as seconds since the epoch; 0.0 if unreadable."""
    try:
        return datetime.fromisoformat(text).timestamp()
    except (TypeError, ValueError):
        return 0.0


@dataclass
class Clock:
    """The clocks of one table.

    Attributes:
        move: seconds for each move.
        bank: each player's time bank at the start, in seconds.
        banks: seconds left in each player's bank.
        in_a_row: timeouts in a row, per player.
        timeouts: timeouts in the match, per player.
        turn: the player whose clock runs, or ``None``.
        since: when that player's clock started (seconds since the epoch).
        forfeit: the player who forfeited the match, or ``None``.
        days: days a move at a turn-based table (then ``move`` is that many :data:`DAY`), else 0.
    """

    move: float
    bank: float
    banks: dict[int, float] = field(default_factory=dict)
    in_a_row: dict[int, int] = field(default_factory=dict)
    timeouts: dict[int, int] = field(default_factory=dict)
    turn: int | None = None
    since: float = 0.0
    forfeit: int | None = None
    days: int = 0

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Clock | None:
        """The clock of a table's ``options["clock"]`` (``{"move": s, "bank": s}``, or ``{"days":
        d}`` at a turn-based table: ``d`` x :data:`DAY` seconds a move, no bank), or ``None``."""
        c = options.get("clock")
        if not isinstance(c, dict):
            return None
        if c.get("days"):
            days = int(c["days"])
            return cls(move=days * DAY, bank=0.0, days=days)
        return cls(move=float(c.get("move", 0)), bank=float(c.get("bank", 0)))

    def left(self, player: int) -> float:
        """Seconds left in ``player``'s bank."""
        return self.banks.get(player, self.bank)

    def deadline(self) -> float | None:
        """When the running clock runs out (seconds since the epoch), or ``None``."""
        if self.turn is None or self.forfeit is not None:
            return None
        return self.since + self.move + self.left(self.turn)

    def forfeits(self, player: int, *, timed_out: bool, match_over: bool = False) -> bool:
        """Whether a move of ``player`` (made by the server when ``timed_out``) forfeits the
        match: his :data:`FORFEIT_AFTER`-th timeout in a row, unless the move ends the match by
        the rules (``match_over``: a finished match is not forfeited).  Never at a turn-based
        table (:attr:`days`): the server makes no move there, the player forfeits by a ``time``
        step.  Nothing changes."""
        return (
            not self.days
            and timed_out
            and not match_over
            and self.forfeit is None
            and self.in_a_row.get(player, 0) + 1 >= FORFEIT_AFTER
        )

    def moved(self, player: int, at: float, *, timed_out: bool, match_over: bool = False) -> None:
        """``player`` moved at ``at``: charge his bank for the time over ``move``; count a
        timeout (and a forfeit after :data:`FORFEIT_AFTER` in a row, see :meth:`forfeits`)
        when the server moved for him, else clear his run of timeouts.  ``match_over``: the
        move ended the match by the rules (R11.1, R12.5), which then stands."""
        self.charge(player, at)
        forfeits = self.forfeits(player, timed_out=timed_out, match_over=match_over)
        if timed_out:
            self.in_a_row[player] = self.in_a_row.get(player, 0) + 1
            self.timeouts[player] = self.timeouts.get(player, 0) + 1
            if forfeits:
                self.forfeit = player
        else:
            self.in_a_row[player] = 0

    def charge(self, player: int, at: float) -> None:
        """``player`` made a step at ``at``: if his clock ran, the time over ``move`` comes out of
        his bank (never below 0)."""
        if self.turn == player:
            over = max(0.0, at - self.since - self.move)
            self.banks[player] = max(0.0, self.left(player) - over)

    def between_deals(self, waiting: list[int], people: list[int], by: int | None, at: float) -> None:
        """Run the clock between deals (R11: the match goes on) after a step of ``by`` (``None``:
        the server's) at ``at``: the next deal waits for the client seeds of ``waiting``, then
        for a ``next_deal`` of any of ``people``, and one of them owes it.  While seeds are
        missing, the clock of a person in ``waiting`` runs: the one whose clock runs already
        keeps it (another's seed does not restart it), else one who did not make the step (the
        deal's last mover has just moved), else the first.  Once every seed is in, the clock
        of the person who sent the last one runs (he owes the ``next_deal``), else of the first
        person.  When it runs out he forfeits the match
        (:meth:`~ginrummy.web.room.autoplay.AutoPlay.check_clock`).  Nothing is charged here
        (the step's own charge is :meth:`moved` or :meth:`charge`)."""
        if waiting:
            if self.turn in waiting and self.turn != by:
                return
            others = [p for p in waiting if p != by]
            self.start((others or waiting)[0], at)
        else:
            self.start(by if by in people else (people[0] if people else None), at)

    def start(self, player: int | None, at: float) -> None:
        """The clock of ``player`` (a person to act, or ``None``: nobody's clock runs) starts at ``at``."""
        self.turn, self.since = player, at

    def to_json(self, names: list[str], now: float) -> dict[str, Any]:
        """``{"move", "bank", "banks": {name: seconds}, "turn": name | None, "left": seconds of
        the running clock, "deadline": when it runs out (seconds since the epoch) | None,
        "timeouts": {name: n}, "forfeit": name | None, "days": days a move (0: a live clock)}``
        (seconds rounded to tenths)."""
        deadline = self.deadline()
        return {
            "move": self.move,
            "bank": self.bank,
            "banks": {names[p]: round(self.left(p), 1) for p in range(len(names))},
            "turn": None if self.turn is None else names[self.turn],
            "left": None if deadline is None else round(max(0.0, deadline - now), 1),
            "deadline": None if deadline is None else round(deadline, 1),
            "timeouts": {names[p]: n for p, n in self.timeouts.items()},
            "forfeit": None if self.forfeit is None else names[self.forfeit],
            "days": self.days,
        }

    @property
    def turn_based(self) -> bool:
        """Whether this is a turn-based table's clock (days a move)."""
        return self.days > 0
