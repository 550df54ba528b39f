"""Group commit: the web table's steps are written off the event loop, many to a transaction.

:class:`GroupCommitter` takes the steps that the tables hand it (:meth:`GroupCommitter.append`,
awaited by :meth:`~ginrummy.web.room.tables.TableManager.act` and ``next_deal``) and writes them
with one writer that runs the database work in a worker thread, never on the event loop.
While one transaction commits, the next steps wait in a list; when it is done, every waiting
step goes into the next transaction together.  So a server with one step in flight commits
it at once, and a busy one commits hundreds in one go: the cost of the commit itself (a
``fsync`` of SQLite's WAL, PostgreSQL's WAL flush) is shared by every step in it.

Each step's ``append`` returns only after the transaction holding it has committed, so a
step is acknowledged to a player only once it is on disk, with the store's full durability:
SQLite in WAL mode with ``synchronous=FULL`` (the WAL is synced at every commit), PostgreSQL
with its default ``synchronous_commit=on`` (docs/deploy.md, "Durability").

A step whose ``seq`` is already stored (another process on the same PostgreSQL got there
first) fails alone, with ``sqlalchemy.exc.IntegrityError``, and the other steps of its batch
commit: on PostgreSQL the insert skips the rows already stored (``ON CONFLICT DO NOTHING``) and
says which went in, so the batch still commits in one transaction (the other rows of a group
that lost are deleted again before the commit: a group is all or nothing).  Any other failure
makes the writer try each group of the batch in a transaction of its own.

On PostgreSQL, once a transaction has committed, the writer sends ``NOTIFY gin_steps,
'<table id>:<seq>'`` for every step it stored, in a short transaction of its own
(:meth:`GroupCommitter._notify` says why; :mod:`ginrummy.web.room.follower` listens).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert, text
from sqlalchemy.exc import IntegrityError

from .store import Store, actions_t

__all__ = ["GroupCommitter", "CommitterStopped", "PendingStep", "NOTIFY_CHANNEL", "MAX_BATCH"]

log = logging.getLogger("ginrummy.web")

NOTIFY_CHANNEL = "gin_steps"
"""The PostgreSQL notification channel of new steps; payload ``"<table id>:<seq>"``."""

MAX_BATCH = 1000
"""The most steps one transaction takes; the rest wait for the next one."""


_PG_INSERT = text(
    "INSERT INTO gin_actions (table_id, seq, player, kind, text, created) "
    "SELECT t, q, p, k, x, c FROM unnest(CAST(:tids AS varchar[]), CAST(:seqs AS integer[]), "
    "CAST(:players AS integer[]), CAST(:kinds AS varchar[]), CAST(:texts AS varchar[]), CAST(:createds AS varchar[])) "
    "AS u(t, q, p, k, x, c) "
    "ON CONFLICT (table_id, seq) DO NOTHING "
    "RETURNING table_id, seq"
)
"""The rows of a batch in one statement; a row whose ``(table_id, seq)`` is already stored
(another process's step) is skipped and not returned, so the rest of the batch still commits
in the same transaction."""

_PG_NOTIFY = text(
    "SELECT count(pg_notify(:channel, t || ':' || s)) "
    "FROM unnest(CAST(:tids AS varchar[]), CAST(:seqs AS integer[])) AS u(t, s)"
)
"""The notifications of the steps a transaction stored, sent in a transaction of their own
right after it (:meth:`GroupCommitter._notify`)."""

_PG_DELETE = text(
    "DELETE FROM gin_actions WHERE (table_id, seq) IN "
    "(SELECT * FROM unnest(CAST(:tids AS varchar[]), CAST(:seqs AS integer[])))"
)
"""Takes back, before the commit, the rows of a group whose other step was already stored."""


def _lost_race(s: PendingStep) -> IntegrityError:
    return IntegrityError(
        "INSERT INTO gin_actions", None, Exception(f"step {s.seq} of table {s.table_id} is already stored")
    )


_SQLITE_INSERT = "INSERT INTO gin_actions (table_id, seq, player, kind, text, created) VALUES (?, ?, ?, ?, ?, ?)"


@dataclass
class PendingStep:
    """One step waiting for its transaction: the row of ``gin_actions`` (see
    :mod:`ginrummy.web.db.store`) and the future that is resolved when it has committed (result
    ``None``) or failed (the exception)."""

    table_id: str
    seq: int
    player: int | None
    kind: str
    text: str
    created: str
    future: asyncio.Future[None] = field(repr=False)
    also: Callable[[Any], None] | None = field(default=None, repr=False)


class CommitterStopped(RuntimeError):
    """A step was asked for after :meth:`GroupCommitter.stop`: nothing was stored."""


class GroupCommitter:
    """Writes steps to ``store`` in group commits (module docstring).

    One instance per :class:`~ginrummy.web.room.tables.TableManager`; its writer task lives on the
    event loop that first calls :meth:`append`.  ``batches`` and ``steps`` count the
    transactions committed and the steps in them (the tests read them).
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.notify = store.is_postgresql
        self._pending: list[PendingStep] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        self.on_commit: Callable[[float], None] | None = None  # seconds of each commit (web/ops.py metrics)
        self.steps = 0
        self.written: dict[str, int] = {}  # table id -> the last seq this process stored
        # table id -> the last seq this process handed to a transaction (committed or not yet):
        # the notifications of those steps are our own (web/room/follower.py ignores them)
        self.writing: dict[str, int] = {}
        # the one thread that writes (a pool of its own: the loop's default pool also serves
        # table creation and reviews), and on SQLite its own driver connection (_sqlite_commit)
        self._executor: ThreadPoolExecutor | None = None
        self._raw: Any = None
        # the event loop on which stop() ran: a step asked for there afterwards is refused, so
        # no writer thread and connection start again after the store is closed (a later loop,
        # a new run of the same app, starts afresh)
        self._stopped_on: asyncio.AbstractEventLoop | None = None

    async def append(
        self,
        table_id: str,
        seq: int,
        player: int | None,
        kind: str,
        text: str,
        created: str | None = None,
        also: Callable[[Any], None] | None = None,
    ) -> None:
        """Store step ``seq`` of a table at time ``created`` (ISO 8601, UTC; now by default);
        returns once its transaction has committed.

        Raises ``sqlalchemy.exc.IntegrityError`` when that ``seq`` is already stored (another
        writer got there first), or the database's error when the write failed; nothing of
        that step is stored then."""
        await self.append_steps(table_id, [(seq, player, kind, text)], created, also)

    async def append_steps(
        self,
        table_id: str,
        steps: list[tuple[int, int | None, str, str]],
        created: str | None = None,
        also: Callable[[Any], None] | None = None,
    ) -> None:
        """Store several steps of one table, ``(seq, player, kind, text)`` each, all at time
        ``created``, in one transaction: all of them or none (a person's move and the
        computer's immediate answer, :meth:`~ginrummy.web.room.tables.TableManager.act`).  Returns
        once they have committed; raises as :meth:`append` when any of them cannot be stored
        (then none is).  ``also(conn)`` runs in the same transaction.  Raises
        :class:`CommitterStopped` (nothing stored) once :meth:`stop` has run on this event loop."""
        loop = asyncio.get_running_loop()
        if self._stopped_on is loop:
            raise CommitterStopped("the server is stopping: the step was not stored")
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._wake = asyncio.Event()
            self._task = loop.create_task(self._run(), name="gin-group-commit")
        fut: asyncio.Future[None] = loop.create_future()
        at = created or Store.now()
        last = len(steps) - 1
        # the steps of a group share one future; ``also`` runs once, with the last of them
        self._pending.extend(
            PendingStep(table_id, seq, player, kind, text, at, fut, also if i == last else None)
            for i, (seq, player, kind, text) in enumerate(steps)
        )
        assert self._wake is not None
        self._wake.set()
        await fut

    async def _run(self) -> None:
        assert self._wake is not None
        wake = self._wake
        while True:
            await wake.wait()
            wake.clear()
            while self._pending:
                n = min(MAX_BATCH, len(self._pending))
                while n < len(self._pending) and self._pending[n].future is self._pending[n - 1].future:
                    n += 1  # a group of steps is never split between two transactions
                batch, self._pending = self._pending[:n], self._pending[n:]
                for s in batch:
                    if s.seq > self.writing.get(s.table_id, 0):
                        self.writing[s.table_id] = s.seq
                if self._executor is None:
                    self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gin-writer")
                try:
                    errors = await asyncio.get_running_loop().run_in_executor(self._executor, self._write, batch)
                except BaseException as exc:  # cancelled while writing: tell the waiters
                    for s in batch:
                        if not s.future.done():
                            s.future.set_exception(exc if isinstance(exc, Exception) else RuntimeError("stopped"))
                    raise
                for i, (s, err) in enumerate(zip(batch, errors)):
                    if err is None and s.seq > self.written.get(s.table_id, 0):
                        self.written[s.table_id] = s.seq
                    elif err is not None:  # another writer has this seq: its notification is not ours
                        self.writing[s.table_id] = self.written.get(s.table_id, 0)
                    if s.future.done():  # its waiter was cancelled (or its group was answered)
                        continue
                    if err is None:
                        if i + 1 == len(batch) or batch[i + 1].future is not s.future:
                            s.future.set_result(None)  # the last step of its group
                    else:
                        s.future.set_exception(err)

    def _insert(self, conn: Any, batch: list[PendingStep]) -> None:
        self._insert_rows(conn, batch)
        for s in batch:  # work that belongs to a step's transaction (a rated match's result)
            if s.also is not None:
                s.also(conn)

    def _notify(self, stored: list[PendingStep]) -> None:
        """(PostgreSQL, worker thread) ``NOTIFY gin_steps, '<table id>:<seq>'`` for each step
        just committed, in a short transaction of its own with ``synchronous_commit`` off.

        Not in the steps' own transaction: PostgreSQL holds one lock for the whole cluster
        from a notifying transaction's pre-commit to its end, so a step transaction that
        notified would hold it across its WAL flush, and the servers sharing the database
        would commit one at a time.  This transaction writes nothing but the notifications,
        and does not wait for its flush.  A notification is only a wake-up: one lost here (the
        process dies between the two commits, or this fails) is made up by the other
        processes' poll within a second (:mod:`ginrummy.web.room.follower`)."""
        if not stored:
            return
        try:
            with self.store.engine.begin() as conn:
                conn.exec_driver_sql("SET LOCAL synchronous_commit TO off")
                conn.execute(
                    _PG_NOTIFY,
                    {"channel": NOTIFY_CHANNEL, "tids": [s.table_id for s in stored], "seqs": [s.seq for s in stored]},
                )
        except Exception as exc:  # the poll of the other processes covers it
            log.warning("notifying the other servers failed (%s)", type(exc).__name__)

    def _insert_pg(self, conn: Any, batch: list[PendingStep]) -> list[Exception | None]:
        """(PostgreSQL) Insert ``batch``; a step another process stored
        first fails with its whole group (the group's other rows are deleted again in the same
        transaction) while the other steps stay in.  Each step's error or ``None``; ``also``
        runs for the steps that stay."""
        rows = conn.execute(
            _PG_INSERT,
            {
                "tids": [s.table_id for s in batch],
                "seqs": [s.seq for s in batch],
                "players": [s.player for s in batch],
                "kinds": [s.kind for s in batch],
                "texts": [s.text for s in batch],
                "createds": [s.created for s in batch],
            },
        ).all()
        stored = {(r[0], r[1]) for r in rows}
        lost = {id(s.future) for s in batch if (s.table_id, s.seq) not in stored}
        if lost:
            back = [s for s in batch if id(s.future) in lost and (s.table_id, s.seq) in stored]
            if back:
                conn.execute(_PG_DELETE, {"tids": [s.table_id for s in back], "seqs": [s.seq for s in back]})
        out: list[Exception | None] = []
        for s in batch:
            if id(s.future) in lost:
                out.append(_lost_race(s))
                continue
            if s.also is not None:
                s.also(conn)
            out.append(None)
        return out

    def _insert_rows(self, conn: Any, batch: list[PendingStep]) -> None:
        if self.store.is_sqlite:
            # one executemany of plain tuples through the driver (no per-row processing of
            # bound parameters by the SQL toolkit: the columns are plain strings and integers)
            conn.exec_driver_sql(
                _SQLITE_INSERT, [(s.table_id, s.seq, s.player, s.kind, s.text, s.created) for s in batch]
            )
            return
        conn.execute(
            insert(actions_t),
            [
                {
                    "table_id": s.table_id,
                    "seq": s.seq,
                    "player": s.player,
                    "kind": s.kind,
                    "text": s.text,
                    "created": s.created,
                }
                for s in batch
            ],
        )

    def _sqlite_commit(self, steps: list[PendingStep]) -> None:
        """(SQLite, writer thread) Insert ``steps`` and commit, on the writer's own connection
        of the driver (taken from the store's pool, so with its pragmas: WAL,
        ``synchronous=FULL``), without the SQL toolkit's transaction: for the steps of a
        batch that has no ``also`` work, a third of the processor time of a transaction
        (``docs/deploy.md``, "Group commit").  The same statement, the same durability.  Raises
        ``sqlalchemy.exc.IntegrityError`` for a ``seq`` already stored (nothing of the batch
        is stored then), or the driver's error."""
        if self._raw is None:
            self._raw = self.store.engine.raw_connection()
        db = self._raw.driver_connection
        try:
            db.executemany(_SQLITE_INSERT, [(s.table_id, s.seq, s.player, s.kind, s.text, s.created) for s in steps])
            db.commit()
        except BaseException as exc:
            try:
                db.rollback()
            except Exception:  # the connection is broken: the next batch takes a new one
                self._close_raw(broken=True)
            if isinstance(exc, sqlite3.IntegrityError):
                raise IntegrityError(_SQLITE_INSERT, None, exc) from None
            raise

    def _close_raw(self, broken: bool = False) -> None:
        """Give the writer's connection back to the pool, or drop it when it is ``broken``
        (a broken connection must not be handed to anyone else)."""
        raw, self._raw = self._raw, None
        if raw is not None:
            try:
                raw.invalidate() if broken else raw.close()
            except Exception:  # pragma: no cover - closing a broken connection
                pass

    def _commit(self, steps: list[PendingStep]) -> list[Exception | None]:
        """Write ``steps`` in one transaction and commit it (then, on PostgreSQL, notify the
        steps that went in); each step's error or ``None``.  Raises when the transaction
        fails as a whole."""
        started = time.perf_counter()
        if self.store.is_sqlite and all(s.also is None for s in steps):
            self._sqlite_commit(steps)
            errors: list[Exception | None] = [None] * len(steps)
        else:
            with self.store.engine.begin() as conn:
                if self.notify:
                    errors = self._insert_pg(conn, steps)
                else:
                    self._insert(conn, steps)
                    errors = [None] * len(steps)
        if self.on_commit is not None:
            self.on_commit(time.perf_counter() - started)
        self.batches += 1
        self.steps += errors.count(None)
        if self.notify:
            self._notify([s for s, e in zip(steps, errors) if e is None])
        return errors

    def _write(self, batch: list[PendingStep]) -> list[Exception | None]:
        """Write ``batch`` in one transaction (worker thread); on failure, each group alone.
        Returns each step's error or ``None``."""
        try:
            return self._commit(batch)
        except Exception as exc:
            if batch[0].future is batch[-1].future:  # one step, or one group: nothing to split
                return [exc] * len(batch)
            log.info("group commit of %d steps failed (%s); writing them one by one", len(batch), type(exc).__name__)
        out: list[Exception | None] = []
        groups: list[list[PendingStep]] = []
        for s in batch:  # the steps of one group (one future) stay in one transaction
            if groups and groups[-1][-1].future is s.future:
                groups[-1].append(s)
            else:
                groups.append([s])
        for group in groups:
            try:
                out.extend(self._commit(group))
            except Exception as exc:
                out.extend([exc] * len(group))
        return out

    async def stop(self) -> None:
        """Write what is waiting, then stop the writer; steps asked for afterwards on this
        event loop are refused (:class:`CommitterStopped`), so that no write starts again once
        the store is being closed."""
        self._stopped_on = asyncio.get_running_loop()
        for _ in range(500):  # at most 5 s
            if not self._pending or self._task is None or self._task.done():
                break
            await asyncio.sleep(0.01)
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except BaseException:
                pass
            self._task = None
        if self._executor is not None:
            executor, self._executor = self._executor, None
            # the writer's connection is closed in its own thread, after any write in flight
            await asyncio.get_running_loop().run_in_executor(executor, self._close_raw)
            executor.shutdown(wait=False)
