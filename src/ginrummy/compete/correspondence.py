"""Turn-based play over days (``docs/compete.md``, "Turn-based play").

A turn-based table gives each move (each action: a draw and a discard are two moves, as the
live clock counts them) :data:`DAYS` days.  The deadline of a move is the time the turn began
plus that many days.  A move not made by its deadline **forfeits the match** at once (days are
long enough that the live clock's three server-made moves in a row would only prolong a
table that was abandoned): the other player wins, and a rated table's ratings move as for a
forfeit on the live clock (``docs/accounts.md``; the web records it with ``forfeit`` =
the player).  Reminders go to the player to move :data:`REMINDERS` before the deadline, each
at most once, and only those still ahead when the turn began.

Times are aware ``datetime`` values passed in (no clock here), so a faked clock tests it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from ..errors import N_
from .errors import CompeteError

__all__ = ["DAYS", "REMINDERS", "check_days", "deadline", "late", "reminders_due", "timed_out", "Turn", "your_turn"]

_When = TypeVar("_When", datetime, float)

DAYS = (1, 2, 3)
"""The days a move a turn-based table may give."""

REMINDERS = (timedelta(hours=24), timedelta(hours=2))
"""How long before a deadline a reminder is sent."""


def check_days(days: int) -> int:
    """``days`` if it is one of :data:`DAYS`; else :class:`CompeteError`."""
    if type(days) is not int or days not in DAYS:
        raise CompeteError(
            N_(
                "a turn-based table gives {allowed} days a move, not {days}",
                allowed=", ".join(map(str, DAYS)),
                days=days,
            )
        )
    return days


def _aware(t: datetime) -> datetime:
    if not isinstance(t, datetime) or t.tzinfo is None:
        raise ValueError("times are aware datetimes (UTC)")
    return t


def deadline(turn_began: datetime, days: int) -> datetime:
    """When a move begun at ``turn_began`` must be made: ``days`` (:data:`DAYS`) later."""
    return _aware(turn_began) + timedelta(days=check_days(days))


def late(due: _When, now: _When) -> bool:
    """Whether a move due by ``due`` is out of time at ``now``: only once ``now`` is past
    ``due``; a move made at the deadline itself is in time.  The one rule of every clock: the
    days of a turn-based table here (aware ``datetime`` values) and the web room's clocks, live
    and days alike (seconds since the epoch, :mod:`ginrummy.web.room.autoplay`), so the
    server forfeits a player exactly when this says his move would be late."""
    return now > due


def timed_out(turn_began: datetime, days: int, now: datetime) -> bool:
    """Whether the player to move has forfeited at ``now``: his deadline has passed (:func:`late`:
    a move made at the deadline itself is in time)."""
    return late(deadline(turn_began, days), _aware(now))


def reminders_due(turn_began: datetime, days: int, now: datetime, sent: Iterable[datetime] = ()) -> list[datetime]:
    """The reminder times of this turn that are due at ``now`` and not in ``sent``: each of
    :data:`REMINDERS` before the deadline that falls after ``turn_began`` and at or before
    ``now`` (none once the deadline has passed: the match is forfeited then)."""
    end = deadline(turn_began, days)
    if late(end, _aware(now)):
        return []
    done = set(sent)
    times = sorted(end - r for r in REMINDERS)
    return [t for t in times if turn_began < t <= now and t not in done]


@dataclass(frozen=True)
class Turn:
    """A turn-based table waiting for a move: ``table`` id, ``player`` to move, when his turn
    ``began``, ``days`` a move, and the ``opponent``."""

    table: str
    player: str
    began: datetime
    days: int
    opponent: str = ""

    def to_json(self, now: datetime) -> dict[str, Any]:
        """``{"table", "opponent", "deadline": ISO, "seconds_left"}`` at ``now``."""
        end = deadline(self.began, self.days)
        return {
            "table": self.table,
            "opponent": self.opponent,
            "deadline": end.isoformat(),
            "seconds_left": max(0, int((end - now).total_seconds())),
        }


def your_turn(turns: Sequence[Turn], player: str, now: datetime) -> list[Turn]:
    """The "your turn" list of ``player`` at ``now``: his turns not yet timed out, the
    nearest deadline first (then by table id)."""
    mine = [t for t in turns if t.player == player and not timed_out(t.began, t.days, now)]
    return sorted(mine, key=lambda t: (deadline(t.began, t.days), t.table))
