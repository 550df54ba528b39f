"""What the parts of the room need of the table manager: :class:`TableHost`, a typed interface
(``typing.Protocol``) that :class:`~ginrummy.web.room.tables.TableManager` satisfies.  The
collaborators (:class:`~ginrummy.web.room.autoplay.AutoPlay`,
:class:`~ginrummy.web.room.lobby.Room`) hold a host, not a subclass of the manager, so each is
read and tested on its own and none imports the manager."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from ...actions import Action
from ..db.commit import GroupCommitter
from ..db.store import StepKind, Store
from .seats import SeatSpec
from .table import Table, Watcher
from .thinking import ThinkingPool

__all__ = ["TableHost"]


class TableHost(Protocol):
    """The table manager as its collaborators see it (the manager's methods of these names)."""

    tables: dict[str, Table]
    store: Store
    committer: GroupCommitter
    thinking: ThinkingPool
    bot_delay: float | None
    held_steps: int
    now: Callable[[], float]
    account_name_taken: Callable[[str], bool] | None
    leave_grace: float
    on_end: Callable[[Table, int, str], Callable[[Any], None] | None] | None

    async def _write(
        self, table: Table, player: int | None, kind: str, text: str, also: Callable[[Any], None] | None = None
    ) -> None:
        """Store one step of ``table`` (``also(conn)`` in its transaction)."""
        ...

    def lobby_changed(self) -> None:
        """Send the lobby list to its watchers soon."""
        ...

    def current(self, table: Table) -> Table:
        """The manager's own copy of ``table`` (the one it holds now), else ``table``."""
        ...

    def load(self, table_id: str) -> Table:
        """The table ``table_id`` (raises ``WebError`` ``not_found``)."""
        ...

    def create(self, rules: Any, seats: list[SeatSpec], **kwargs: Any) -> tuple[Table, dict[int, tuple[str, str]]]:
        """Open a table; ``(table, {seat: ("token" | "invite", secret)})``."""
        ...

    def lock(self, table: Table) -> asyncio.Lock:
        """The lock of ``table``'s steps."""
        ...

    async def send_to(self, table: Table, player: int, send: Watcher, msg: dict[str, Any]) -> None:
        """Send ``msg`` to one watcher of ``table`` (a watcher that is gone is dropped)."""
        ...

    async def changed(self, table: Table, *, after_person: bool = False) -> None:
        """Send every watcher of ``table`` its state."""
        ...

    async def act(self, table: Table, player: int, text: str | Action, *, kind: str = StepKind.ACTION) -> int:
        """Apply one action of ``player``; the step's number."""
        ...

    async def next_deal(self, table: Table, player: int | None) -> None:
        """Start the next deal."""
        ...

    async def deal_first_if_ready(self, table: Table) -> None:
        """Deal the first deal once every client seed is in (under :meth:`lock`)."""
        ...
