"""Turn-based tables in the room (issue 33, item 3; ``docs/protocol.md``, "Turn-based tables"):
the "your turn" list of a signed-in account and the way back to his seat from it.

A turn-based table is an ordinary table whose clock gives days a move (``{"clock": {"days":
D}}``, :mod:`ginrummy.web.room.clock`); the rules of its days are those of
:mod:`ginrummy.compete.correspondence` (a move not made in its days forfeits the match).  A
signed-in person's seats are the rows of ``gin_seat_accounts``; nothing here is stored of its
own, so the list is read again from the tables at each request and survives a restart as the
tables do.  Nothing here reads the clock: ``now`` is given (seconds since the epoch).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from ..community.schema import seat_accounts_t
from ..errors import ErrorCode, WebError
from ..levels import is_bot_kind, seat_level
from ..room.seats import secret_hash
from ..room.table import Table
from ..room.tables import TableManager
from ..texts import W_

__all__ = ["TURN_WHY", "due", "turn_entry", "Turns"]

TURN_WHY = ("move", "seed", "next_deal")
"""Why a table waits for a person: his move in the deal, his client seed for the next deal (sent
by his page when he opens it), or the next deal (any seat may start it; the days run for the
person who sent the last seed)."""


def due(table: Table, player: int) -> str | None:
    """Why ``table`` waits for ``player`` now (one of :data:`TURN_WHY`), or ``None`` when it
    does not (another is to act, or the match is over, R11)."""
    if table.over:
        return None
    m = table.match
    if m is not None and not m.deal.is_over:
        return "move" if m.player_to_act() == player else None
    waiting = table.waiting_for
    if waiting:
        return "seed" if player in waiting else None
    return "next_deal" if m is not None else None


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


def _seat(table: Table, player: int) -> dict[str, Any]:
    """``{"name", "kind": "human" | "computer", "level"}`` of ``player``'s seat, as a state's
    ``table.seats`` gives it: a page shows a name the table made ("Computer (novice)") in its
    reader's language from it."""
    kind = table.row.seats[player]
    return {
        "name": table.names[player],
        "kind": "human" if kind == "human" else "computer",
        "level": seat_level(kind) if is_bot_kind(kind) else None,
    }


def turn_entry(table: Table, player: int, now: float) -> dict[str, Any] | None:
    """The "your turn" entry of ``player`` at the turn-based ``table`` at ``now``, or ``None``
    when the table does not wait for him (:func:`due`): ``{"table": id, "you": name,
    "opponent": name, "opponents": [{"name", "kind", "level"}], "days": days a move, "why": one of TURN_WHY, "deadline": ISO 8601 UTC |
    null, "left": whole seconds | null, "rated": bool, "link": "/table/ID?turn=1"}``;
    ``deadline`` and ``left`` only while his days run: his move, and between deals his client
    seed or the ``next_deal`` he owes (:meth:`~ginrummy.web.room.clock.Clock.between_deals`;
    a ``next_deal`` the other owes is listed without them)."""
    why = due(table, player)
    if why is None or table.clock is None:
        return None
    deadline = table.clock.deadline() if table.clock.turn == player else None
    others = [i for i in range(len(table.names)) if i != player]
    return {
        "table": table.id,
        "you": table.names[player],
        "opponent": ", ".join(table.names[i] for i in others),
        "opponents": [_seat(table, i) for i in others],
        "days": table.clock.days,
        "why": why,
        "deadline": None if deadline is None else _iso(deadline),
        "left": None if deadline is None else max(0, int(deadline - now)),
        "rated": table.rated,
        "link": f"/table/{table.id}?turn=1",
    }


class Turns:
    """The turn-based tables of the accounts of ``manager``'s room."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager

    def _seats(self, account_id: int, table_id: str | None = None) -> list[tuple[str, int]]:
        """``(table id, player)`` of every seat of ``account_id`` (at ``table_id`` only, when given)."""
        q = select(seat_accounts_t.c.table_id, seat_accounts_t.c.player).where(
            seat_accounts_t.c.account_id == account_id
        )
        if table_id is not None:
            q = q.where(seat_accounts_t.c.table_id == table_id)
        with self.manager.store.engine.connect() as conn:
            return [(r.table_id, r.player) for r in conn.execute(q)]

    def _table(self, table_id: str) -> Table | None:
        try:
            return self.manager.load(table_id)
        except WebError:  # gone, or cannot be resumed (logged by the manager)
            return None

    def seats_of(self, account_id: int) -> list[tuple[str, int]]:
        """``(table id, player)`` of every seat of ``account_id`` (one query: the part of
        :meth:`of` a worker thread may run)."""
        return self._seats(account_id)

    def of(self, account_id: int, now: float, seats: list[tuple[str, int]] | None = None) -> list[dict[str, Any]]:
        """The "your turn" list of ``account_id`` at ``now``: a :func:`turn_entry` for each
        turn-based table that waits for him, those whose days run first (nearest deadline
        first), then by table id.  ``seats``: his seats read before (:meth:`seats_of`, in a
        worker thread); this part runs on the event loop, as it may load a table into the
        manager (a load from a thread could put back an older copy of a table the loop has
        just moved on)."""
        out = []
        for table_id, player in self._seats(account_id) if seats is None else seats:
            table = self._table(table_id)
            if table is None or not table.turn_based or player >= len(table.names):
                continue
            entry = turn_entry(table, player, now)
            if entry is not None:
                out.append(entry)
        out.sort(key=lambda e: (e["left"] is None, e["left"] or 0, e["table"]))
        return out

    def seat(self, table_id: str, account_id: int) -> tuple[Table, str]:
        """``(table, new seat token)`` of ``account_id``'s seat at the turn-based ``table_id``:
        the token replaces the seat's earlier one (a link opened from the "your turn" list in
        another browser; a tab still connected with the old one stays connected until it
        reconnects).  Raises :class:`WebError` (``not_found``) when he has no seat at a
        turn-based table of that id."""
        table = self._table(table_id) if table_id.isalnum() and len(table_id) <= 40 else None
        seats = self._seats(account_id, table_id) if table is not None and table.turn_based else []
        if table is None or not seats:
            raise WebError(ErrorCode.NOT_FOUND, W_("you have no seat at a turn-based table of this id"))
        player = seats[0][1]
        token = secrets.token_urlsafe(18)
        if not self.manager.store.reseat(table.id, player, secret_hash(token)):
            raise WebError(ErrorCode.NOT_FOUND, W_("you have no seat at a turn-based table of this id"))
        table.seat_secrets = self.manager.store.seat_secrets(table.id)
        return table, token
