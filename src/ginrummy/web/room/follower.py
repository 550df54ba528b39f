"""Several ``gin serve`` processes on one PostgreSQL: each hears of the others' steps.

Every step a process stores sends ``NOTIFY gin_steps, '<table id>:<seq>'`` in the transaction
that stores it (:mod:`ginrummy.web.db.commit`).  A :class:`Follower` in every process

* listens on that channel with a connection of its own, in a thread (``LISTEN gin_steps``);
  a notification is only a wake-up: for a table this process has in memory and has not seen
  at that ``seq``, it reads the new rows from ``gin_actions``, applies them and sends every
  watcher of its own the new state.  Notifications are handled in bursts, like the group
  commit that sends them: the thread keeps only the highest ``seq`` heard for each table and
  wakes the event loop once for all that came meanwhile; the event loop reads the new steps of
  every table due in one query (at most one such read in flight; what is heard during it
  waits for the next), then applies each table's steps under that table's own lock;
* polls once a second (:data:`POLL_SECONDS`) for the latest ``seq`` of the tables its players
  are at, since notifications can be missed (a listening connection that broke and came back)
  or dropped: a process that missed one catches up within a second;
* is asked by the tables to catch up when a move is refused (a move that looks out of turn on
  a stale copy is tried again on the fresh one), when a player connects and on ``sync``.

No lock is shared between the processes: two writers racing for the same step of a table are
told apart by the primary key ``(table_id, seq)``, and the loser reloads
(:meth:`~ginrummy.web.room.tables.TableManager._write`).  Only PostgreSQL is followed; a SQLite file
has one server.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select, text

from ..db.commit import NOTIFY_CHANNEL
from ..db.store import ActionRow, StepKind, actions_t

if TYPE_CHECKING:  # pragma: no cover
    from .tables import TableManager

__all__ = ["Follower", "POLL_SECONDS", "parse_payload"]

log = logging.getLogger("ginrummy.web")

POLL_SECONDS = 1.0
"""How often the latest steps of the tables with watchers are read, notifications or not."""

_STEPS_SINCE = text(
    "SELECT a.table_id, a.seq, a.player, a.kind, a.text, a.created FROM gin_actions AS a "
    "JOIN unnest(CAST(:tids AS varchar[]), CAST(:seqs AS integer[])) AS u(t, s) "
    "ON a.table_id = u.t AND a.seq > u.s ORDER BY a.table_id, a.seq"
)
"""The steps of many tables after a ``seq`` of each, in one query (the primary key's index)."""


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
    :meth:`stop`.  ``caught_up`` counts the steps applied from elsewhere, ``reads`` the queries
    made for notified or polled tables (the tests read them)."""

    def __init__(self, manager: TableManager, listen: bool = True) -> None:
        self.manager = manager
        self.store = manager.store
        self.listen = listen
        self.caught_up = 0
        self.reads = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._poller: asyncio.Task[None] | None = None
        # (listening thread -> event loop) table id -> the highest seq heard since the last hand-over
        self._heard: dict[str, int] = {}
        self._heard_lock = threading.Lock()
        self._handover = False  # a hand-over of ``_heard`` is scheduled on the event loop
        # (event loop) table id -> the highest seq known to be stored, waiting for the next read
        self._due: dict[str, int] = {}
        self._reader: asyncio.Task[None] | None = None
        manager.follower = self

    # -- reading what others wrote ------------------------------------------------------------

    def _steps_after(self, table_id: str, seq: int) -> list[ActionRow]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(actions_t)
                .where(actions_t.c.table_id == table_id, actions_t.c.seq > seq)
                .order_by(actions_t.c.seq)
            ).all()
        return [ActionRow(r.seq, r.player, r.kind, r.text, r.created) for r in rows]

    def _steps_since(self, since: dict[str, int]) -> dict[str, list[ActionRow]]:
        """(worker thread) The stored steps of each table ``tid`` after ``since[tid]``, in
        ``seq`` order, in one query; tables without new steps are left out."""
        out: dict[str, list[ActionRow]] = {}
        with self.store.engine.connect() as conn:
            rows = conn.execute(_STEPS_SINCE, {"tids": list(since), "seqs": list(since.values())}).all()
        for r in rows:
            out.setdefault(r[0], []).append(ActionRow(r[1], r[2], r[3], r[4], r[5]))
        return out

    def _latest(self, table_ids: list[str]) -> dict[str, int]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(actions_t.c.table_id, func.max(actions_t.c.seq))
                .where(actions_t.c.table_id.in_(table_ids))
                .group_by(actions_t.c.table_id)
            ).all()
        return {r[0]: int(r[1]) for r in rows}

    async def catch_up(self, table_id: str) -> int:
        """Read and apply the steps of ``table_id`` stored after the one this process has,
        then send its watchers their state (and play a computer seat that is due, if a player
        of this process is at the table).  Returns how many steps were applied (0 if none, or
        the table is not in memory).  Used when a move is refused, a player connects or asks
        for ``sync``; notifications are read in bursts instead (:meth:`_read_due`)."""
        m = self.manager
        table = m.tables.get(table_id)
        if table is None:
            return 0
        async with m.lock(table):
            table = m.current(table)
            steps = await asyncio.to_thread(self._steps_after, table_id, table.seq)
            self.reads += 1
            table, applied = self._apply_locked(table, steps)
        if applied:
            await self._tell(table)
        return applied

    def _apply_locked(self, table: Any, steps: list[ActionRow]) -> tuple[Any, int]:
        """(table lock held) Apply the steps of ``steps`` that ``table`` has not got yet (they
        follow on from its ``seq``: read after it); returns the table (a fresh copy if the
        steps could not be applied to this one) and how many steps were new."""
        m = self.manager
        steps = [s for s in steps if s.seq > table.seq]
        if not steps:
            return table, 0
        try:
            if steps[0].seq != table.seq + 1:  # pragma: no cover - never: read after table.seq
                raise ValueError(f"step {steps[0].seq} does not follow step {table.seq}")
            table.replay(steps)
            for s in steps:  # a person who moves through another process is not away (docs/deploy.md)
                if s.player is not None and s.kind in (StepKind.ACTION, StepKind.CLIENT_SEED):
                    m.autoplay.came_back(table, s.player)
        except Exception:  # pragma: no cover - a row this copy cannot apply: rebuild it
            log.exception("catch-up of table %s failed; reloading it", table.id)
            watchers = table.watchers
            m.tables.pop(table.id, None)
            table = m.load(table.id)
            table.watchers = watchers
        self.caught_up += len(steps)
        return table, len(steps)

    async def _tell(self, table: Any) -> None:
        """Send every watcher of ``table`` its state; schedule the computer's and the clock's moves."""
        m = self.manager
        for p, send in list(table.watchers):
            await m.send_to(table, p, send, table.state_for(p))
        if table.watchers:
            m.schedule_bot(table)
        m.schedule_clock(table)

    def _wake(self, table_id: str, seq: int) -> None:
        """(event loop) A notification or the poll says ``table_id`` has step ``seq``: it is
        read with the next burst unless this process has it, or wrote it."""
        table = self.manager.tables.get(table_id)
        if table is None or table.seq >= seq or self._due.get(table_id, 0) >= seq:
            return
        c = self.manager.committer
        if c.written.get(table_id, 0) >= seq or c.writing.get(table_id, 0) >= seq:
            # our own step, being applied right now (its notification can arrive before the
            # writer has handed back the committed batch)
            return
        self._due[table_id] = seq
        if self._reader is None or self._reader.done():
            self._reader = asyncio.get_running_loop().create_task(self._read_due(), name="gin-follow-read")

    async def _read_due(self) -> None:
        """(event loop) Read the new steps of every table due in one query, apply them, and
        again while notifications came in meanwhile."""
        m = self.manager
        while self._due:
            due, self._due = self._due, {}
            since = {tid: t.seq for tid, seq in due.items() if (t := m.tables.get(tid)) is not None and t.seq < seq}
            if not since:
                continue
            try:
                found = await asyncio.to_thread(self._steps_since, since)
            except Exception as exc:  # the poll (or the next message) tries again
                log.warning("reading other servers' steps failed: %s", type(exc).__name__)
                continue
            self.reads += 1
            for tid, steps in found.items():
                table = m.tables.get(tid)
                if table is None:
                    continue
                lock = m.lock(table)
                if lock.locked():  # a move of this process is being stored: wait for it apart
                    asyncio.get_running_loop().create_task(self._apply_later(tid, steps))
                    continue
                try:
                    async with lock:  # free: taken at once, without yielding
                        table, applied = self._apply_locked(m.current(table), steps)
                    if applied:
                        await self._tell(table)
                except Exception:  # pragma: no cover - the poll tries again
                    log.exception("catch-up of table %s failed", tid)

    async def _apply_later(self, table_id: str, steps: list[ActionRow]) -> None:
        m = self.manager
        try:
            table = m.tables.get(table_id)
            if table is None:
                return
            async with m.lock(table):
                table, applied = self._apply_locked(m.current(table), steps)
            if applied:
                await self._tell(table)
        except Exception:  # pragma: no cover - the poll tries again
            log.exception("catch-up of table %s failed", table_id)

    def _heard_from_thread(self) -> None:
        """(event loop) Take what the listening thread heard since the last hand-over."""
        with self._heard_lock:
            heard, self._heard = self._heard, {}
            self._handover = False
        for tid, seq in heard.items():
            self._wake(tid, seq)

    # -- listening and polling ------------------------------------------------------------------

    def _listen(self) -> None:
        """(thread) LISTEN on the channel, keeping the highest ``seq`` heard for each table and
        waking the event loop once for all heard meanwhile; reconnects after a broken
        connection (the poll covers the gap)."""
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
                        loop = self._loop
                        if parsed is None or loop is None:
                            continue
                        tid, seq = parsed
                        with self._heard_lock:
                            if seq > self._heard.get(tid, 0):
                                self._heard[tid] = seq
                            if self._handover:
                                continue
                            self._handover = True
                        loop.call_soon_threadsafe(self._heard_from_thread)
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
        """Stop listening, polling and reading."""
        self._stopping.set()
        for task in (self._poller, self._reader):
            if task is not None and not task.done():
                task.cancel()
                try:
                    await task
                except BaseException:
                    pass
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 2.0)
