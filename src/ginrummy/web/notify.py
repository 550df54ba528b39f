"""Several ``gin serve`` processes on one PostgreSQL: each hears of the others' steps.

Every step a process stores sends ``NOTIFY gin_steps, '<table id>:<seq>'`` in the transaction
that stores it (:mod:`ginrummy.web.commit`).  A :class:`Follower` in every process

* listens on that channel with a connection of its own, in a thread (``LISTEN gin_steps``);
  a notification is only a wake-up: for a table this process has in memory and has not seen
  at that ``seq``, it reads the new rows from ``gin_actions`` (:meth:`Follower.catch_up`),
  applies them and sends every watcher of its own the new state;
* polls once a second (:data:`POLL_SECONDS`) for the latest ``seq`` of the tables its players
  are at, since notifications can be missed (a listening connection that broke and came back)
  or dropped: a process that missed one catches up within a second;
* is asked by the tables to catch up when a move is refused (a move that looks out of turn on
  a stale copy is tried again on the fresh one), when a player connects and on ``sync``.

No lock is shared between the processes: two writers racing for the same step of a table are
told apart by the primary key ``(table_id, seq)``, and the loser reloads
(:meth:`~ginrummy.web.tables.TableManager._write`).  Only PostgreSQL is followed; a SQLite file
has one server.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select

from .commit import NOTIFY_CHANNEL
from .store import ActionRow, actions_t

if TYPE_CHECKING:  # pragma: no cover
    from .tables import TableManager

__all__ = ["Follower", "POLL_SECONDS", "parse_payload"]

log = logging.getLogger("ginrummy.web")

POLL_SECONDS = 1.0
"""How often the latest steps of the tables with watchers are read, notifications or not."""


def parse_payload(payload: str) -> tuple[str, int] | None:
    """``(table id, seq)`` of a ``gin_steps`` payload ``"<id>:<seq>"``, or ``None`` if it is
    not one (anything may NOTIFY on a channel: a bad payload is ignored)."""
    tid, _, seq = payload.partition(":")
    if not tid.isalnum() or len(tid) > 40 or not seq.isdigit() or len(seq) > 12:
        return None
    return tid, int(seq)


class Follower:
    """Keeps the tables of ``manager`` (on PostgreSQL) up to date with the steps other
    processes store (module docstring).  :meth:`start` from the running event loop, then
    :meth:`stop`.  ``caught_up`` counts the steps applied from elsewhere (tests read it)."""

    def __init__(self, manager: TableManager, listen: bool = True) -> None:
        self.manager = manager
        self.store = manager.store
        self.listen = listen
        self.caught_up = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._poller: asyncio.Task[None] | None = None
        self._due: set[str] = set()
        manager.follower = self

    # -- reading what others wrote ------------------------------------------------------------

    def _steps_after(self, table_id: str, seq: int) -> list[ActionRow]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(actions_t).where(actions_t.c.table_id == table_id, actions_t.c.seq > seq)
                                .order_by(actions_t.c.seq)).all()
        return [ActionRow(r.seq, r.player, r.kind, r.text, r.created) for r in rows]

    def _latest(self, table_ids: list[str]) -> dict[str, int]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(actions_t.c.table_id, func.max(actions_t.c.seq))
                                .where(actions_t.c.table_id.in_(table_ids)).group_by(actions_t.c.table_id)).all()
        return {r[0]: int(r[1]) for r in rows}

    async def catch_up(self, table_id: str) -> int:
        """Read and apply the steps of ``table_id`` stored after the one this process has,
        then send its watchers their state (and play a computer seat that is due, if a player
        of this process is at the table).  Returns how many steps were applied (0 if none, or
        the table is not in memory)."""
        m = self.manager
        table = m.tables.get(table_id)
        if table is None:
            return 0
        async with m._lock(table):
            table = m.tables.get(table_id, table)
            steps = await asyncio.to_thread(self._steps_after, table_id, table.seq)
            steps = [s for s in steps if s.seq > table.seq]
            if not steps:
                return 0
            try:
                table.replay(steps)
            except Exception:  # pragma: no cover - a row this copy cannot apply: rebuild it
                log.exception("catch-up of table %s failed; reloading it", table_id)
                watchers = table.watchers
                m.tables.pop(table_id, None)
                table = m.load(table_id)
                table.watchers = watchers
            self.caught_up += len(steps)
        for p, send in list(table.watchers):
            await m._send(table, p, send, table.state_for(p))
        if table.watchers:
            m.schedule_bot(table)
        m.schedule_clock(table)
        return len(steps)

    def _wake(self, table_id: str, seq: int) -> None:
        """(event loop) A notification or the poll says ``table_id`` has step ``seq``."""
        table = self.manager.tables.get(table_id)
        if table is None or table.seq >= seq or table_id in self._due:
            return
        c = self.manager.committer
        if c.written.get(table_id, 0) >= seq or c.writing.get(table_id, 0) >= seq:
            # our own step, being applied right now (its notification can arrive before the
            # writer has handed back the committed batch)
            return
        self._due.add(table_id)

        async def run() -> None:
            try:
                await self.catch_up(table_id)
            except Exception:  # pragma: no cover - the poll tries again
                log.exception("catch-up of table %s failed", table_id)
            finally:
                self._due.discard(table_id)

        asyncio.get_running_loop().create_task(run())

    # -- listening and polling ------------------------------------------------------------------

    def _listen(self) -> None:
        """(thread) LISTEN on the channel, handing each payload to the event loop; reconnects
        after a broken connection (the poll covers the gap)."""
        while not self._stopping.is_set():
            raw: Any = None
            try:
                raw = self.store.engine.raw_connection()
                conn = raw.driver_connection
                conn.autocommit = True
                conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                while not self._stopping.is_set():
                    for n in conn.notifies(timeout=0.5):
                        parsed = parse_payload(n.payload)
                        if parsed is not None and self._loop is not None:
                            self._loop.call_soon_threadsafe(self._wake, *parsed)
            except Exception as exc:
                if not self._stopping.is_set():
                    log.warning("listening for other servers' steps failed (%s); retrying", type(exc).__name__)
                    self._stopping.wait(1.0)
            finally:
                if raw is not None:
                    try:
                        raw.invalidate()  # never hand a LISTENing connection back to the pool
                    except Exception:  # pragma: no cover
                        pass

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL_SECONDS)
            ids = [tid for tid, t in self.manager.tables.items() if t.watchers]
            if not ids:
                continue
            try:
                latest = await asyncio.to_thread(self._latest, ids)
            except Exception as exc:
                log.warning("polling for other servers' steps failed: %s", type(exc).__name__)
                continue
            for tid, seq in latest.items():
                self._wake(tid, seq)

    def start(self) -> None:
        """Start listening and polling (call from the running event loop)."""
        self._loop = asyncio.get_running_loop()
        self._poller = self._loop.create_task(self._poll(), name="gin-follow-poll")
        if self.listen:
            self._thread = threading.Thread(target=self._listen, name="gin-listen", daemon=True)
            self._thread.start()

    async def stop(self) -> None:
        """Stop listening and polling."""
        self._stopping.set()
        if self._poller is not None:
            self._poller.cancel()
            try:
                await self._poller
            except BaseException:
                pass
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 2.0)
