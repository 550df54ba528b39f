"""The computer thinks off the event loop (issue 27): a pool of worker processes for the
computer's moves and the hints of the levels that sample (``expert``, ``master``), a fair
queue in front of it, and a deadline per decision that the server enforces.

* **The pool** (:class:`ThinkingPool`): ``workers`` processes (default
  :func:`default_workers`, one less than the cores; ``gin serve --workers N``), started with
  ``spawn`` (no fork of a threaded server) and warmed by an initializer that loads the player
  levels.  A decision is a picklable call (:func:`move_text`, :func:`hint_text`) on the
  seat's :class:`~ginrummy.views.PlayerView`; the result comes back to the event loop through
  ``asyncio.wrap_future``.  The levels whose decision costs well under a millisecond
  (:data:`CHEAP_LEVELS`) decide on the event loop: a round trip to a process would cost more.
* **Same moves**: a decision is seeded as before (:func:`decision_seed`, the match seed, the
  player and the step), so the pool makes the move :func:`~ginrummy.web.room.autoplay.bot_choice`
  makes in the server process, and a restart makes the same move (levels that read the clock,
  the expert's and the master's moves, are as deterministic as their time budget allows).
* **A deadline per decision** (:func:`move_deadline`, :data:`HINT_DEADLINE`): the expert
  and the master spend a time budget (150 ms and 1 s, ``players/expert.py``); the server
  waits twice that plus :data:`GRACE` seconds, counted from when the job reaches a worker.
  Past it the decision is made by the :data:`FALLBACK_LEVEL` from the same seed, logged, and
  the pool, whose worker is stuck, is replaced (the other jobs it ran are queued again).
* **The fair queue**: the jobs wait in one queue per *owner* (the address of the person
  at the table, or the table itself for a table of computers only), served in turn (round
  robin); an owner has at most one job running while another owner waits, and a table at
  most one at any time.  A job's place is known when it is queued (:meth:`ThinkingPool.run`
  ``on_queued(ahead)``): the table shows "thinking", the person asking a hint "N ahead"
  (``docs/protocol.md``, ``thinking`` and ``hint_queued``).

The reviews keep a pool of their own (``web/room/review_service.py``): see ``docs/design-notes.md``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import logging
import multiprocessing
import os
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from ...errors import Msg
from ...players import make_player
from ...players.base import load_levels
from ...views import PlayerView

__all__ = [
    "ThinkingPool",
    "default_workers",
    "decision_seed",
    "move_text",
    "hint_text",
    "move_deadline",
    "CHEAP_LEVELS",
    "FALLBACK_LEVEL",
    "GRACE",
    "HINT_DEADLINE",
    "WARM_GRACE",
]

log = logging.getLogger("ginrummy.web")

CHEAP_LEVELS = frozenset({"random", "novice", "club"})
"""Levels that decide on the event loop: a move or a hint costs them under a millisecond."""

FALLBACK_LEVEL = "club"
"""The level that decides when a worker misses its deadline (seeded as the late decision)."""

GRACE = 1.0
"""Seconds a worker is given beyond twice the level's time budget (:func:`move_deadline`)."""

HINT_DEADLINE = 2.0
"""Seconds a worker is given for a hint (a sampling hint has no clock: 64 sampled deals, about
40 ms on one core for the expert and the master)."""

WARM_GRACE = 20.0
"""Seconds added to the deadline of a job given to a pool whose processes are still starting."""


def default_workers() -> int:
    """The default size of the pool: one process less than the cores this process may run on
    (one is left to the event loop), at least one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


def decision_seed(seed: bytes, what: str, player: int, seq: int) -> int:
    """The seed of a computer decision: ``what`` (``"bot"`` a move, ``"hint"`` a hint,
    ``"timeout"`` a move for a person out of time) for ``player`` after ``seq`` stored steps
    of the match whose secret seed is ``seed``; an int below 2**64."""
    return int.from_bytes(hashlib.sha256(seed + f"/{what}/{player}/{seq}".encode()).digest()[:8], "big")


def move_text(level: str, seed: int, view: PlayerView) -> str:
    """The move a player of ``level`` makes in ``view`` drawing from ``random.Random(seed)``,
    in its text form (``"discard 7H"``).  Runs in a worker or in the server alike."""
    return make_player(level, random.Random(seed)).choose(view, view.legal).text


def hint_text(level: str, seed: int, view: PlayerView) -> tuple[str, Msg]:
    """The hint of ``level`` in ``view`` (:func:`~ginrummy.web.room.seats.advise` drawing from
    ``random.Random(seed)``): ``(action text, reason)``."""
    from .seats import advise

    action, reason = advise(level, random.Random(seed), view)
    return action.text, reason


_BUDGETS: dict[str, float] = {}


def move_deadline(level: str) -> float:
    """Seconds the server waits for a move of ``level`` once a worker has it: twice the level's
    time budget (``budget_ms``; 0 for a level without one) plus :data:`GRACE`."""
    if level not in _BUDGETS:
        budget = getattr(make_player(level, random.Random(0)), "budget_ms", None)
        _BUDGETS[level] = float(budget or 0.0) / 1000.0
    return 2.0 * _BUDGETS[level] + GRACE


def _init_worker() -> None:
    """The worker's initializer: load every level and the expert's tables once, so that the
    first decision does not pay for them."""
    load_levels()
    with contextlib.suppress(Exception):
        from ...players.expert import game_win_table

        game_win_table(100)


def _warm() -> int:
    return os.getpid()


@dataclass(eq=False)
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    owner: str
    table: str
    deadline: float
    fallback: Callable[[], Any]
    future: asyncio.Future[Any]
    tries: int = 0
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    executor: Any = field(default=None, repr=False)


class ThinkingPool:
    """The worker processes of one server and the fair queue in front of them.

    ``workers``: processes (``None``: :func:`default_workers`).  Raises ``ValueError`` for
    fewer than one.  Use from one event loop; :meth:`close` stops the processes."""

    def __init__(self, workers: int | None = None) -> None:
        n = default_workers() if workers is None else workers
        if type(n) is not int or n < 1:
            raise ValueError(f"workers must be an int >= 1, not {workers!r}")
        self.workers = n
        self._executor: ProcessPoolExecutor | None = None
        self._warming: list[Any] = []
        self._queues: dict[str, collections.deque[_Job]] = {}
        self._served: dict[str, int] = {}  # owner: when it was last served (its turn in the round robin)
        self._tick = 0
        self._running: set[_Job] = set()
        self._owners_busy: collections.Counter[str] = collections.Counter()
        self._tables_busy: set[str] = set()
        self.replaced = 0
        """How many times a stuck pool was replaced."""
        self.late = 0
        """How many decisions missed their deadline (made by :data:`FALLBACK_LEVEL`)."""

    # -- the processes ---------------------------------------------------------------------

    def start(self) -> None:
        """Start the processes now and warm them (else they start with the first job)."""
        self._pool()

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            ctx = multiprocessing.get_context("spawn")  # no fork of a threaded server
            self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=_init_worker)
            self._warming = [self._executor.submit(_warm) for _ in range(self.workers)]
        return self._executor

    @property
    def warm(self) -> bool:
        """Whether every process of the pool has started and run its initializer."""
        return self._executor is not None and all(f.done() for f in self._warming)

    @staticmethod
    def _kill(executor: ProcessPoolExecutor) -> None:
        procs = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for proc in procs:
            with contextlib.suppress(Exception):
                proc.terminate()

    def close(self) -> None:
        """Stop the processes; queued decisions are made by :data:`FALLBACK_LEVEL` at once."""
        executor, self._executor = self._executor, None
        if executor is not None:
            self._kill(executor)
            with contextlib.suppress(Exception):
                executor.shutdown(wait=True)
        for q in list(self._queues.values()):
            for job in q:
                self._settle(job, None)
        self._queues.clear()
        self._served.clear()

    # -- the queue -------------------------------------------------------------------------

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker."""
        return sum(len(q) for q in self._queues.values())

    @property
    def running(self) -> int:
        """Jobs a worker has now."""
        return len(self._running)

    def _order(self) -> list[str]:
        """The owners with queued jobs, the longest unserved first (round robin)."""
        return sorted(self._queues, key=lambda o: self._served[o])

    def ahead(self, job: _Job) -> int:
        """How many jobs go before ``job``: those running, and those the round robin serves
        first (one per owner and turn, the owner served longest ago first)."""
        q = self._queues.get(job.owner)
        if q is None or job not in q:
            return 0
        k = list(q).index(job)
        n = len(self._running) + k
        before = True
        for owner in self._order():
            if owner == job.owner:
                before = False
                continue
            n += min(len(self._queues[owner]), k + 1 if before else k)
        return n

    async def run(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        *,
        owner: str,
        table: str,
        deadline: float,
        fallback: Callable[[], Any],
        on_queued: Callable[[int], None] | None = None,
    ) -> Any:
        """Run ``fn(*args)`` (a module-level function: it goes to a worker process) when its
        turn comes; returns its result, or ``fallback()`` (called on the event loop) when the
        worker does not answer within ``deadline`` seconds of taking the job, fails, or the pool
        is closed.  ``owner`` and ``table`` are the fair queue's keys; ``on_queued(ahead)`` is
        called once the job is queued, with the jobs going before it (0: it runs at once)."""
        loop = asyncio.get_running_loop()
        job = _Job(fn, args, owner, table, deadline, fallback, loop.create_future())
        self._enqueue(job)
        self._dispatch()
        if on_queued is not None:
            with contextlib.suppress(Exception):
                on_queued(self.ahead(job))
        try:
            return await asyncio.shield(job.future)
        except asyncio.CancelledError:
            q = self._queues.get(owner)
            if q is not None and job in q:
                q.remove(job)
                if not q:
                    del self._queues[owner]
                    del self._served[owner]
            raise

    def _enqueue(self, job: _Job, *, first: bool = False) -> None:
        """Queue ``job``; an owner that had nothing queued joins the end of the round robin
        (``first``: a job its lost pool ran goes first)."""
        if job.owner not in self._queues:
            self._queues[job.owner] = collections.deque()
            self._tick += 1
            self._served[job.owner] = -self._tick if first else self._tick
        if first:
            self._queues[job.owner].appendleft(job)
        else:
            self._queues[job.owner].append(job)

    def _pick(self) -> _Job | None:
        """The next job: of the owner served longest ago that has none running (any owner when
        every waiting one has), its first job whose table has none running."""
        order = self._order()
        for strict in (True, False):
            for owner in order:
                if strict and self._owners_busy[owner]:
                    continue
                q = self._queues[owner]
                for job in q:
                    if job.table not in self._tables_busy:
                        q.remove(job)
                        self._tick += 1
                        self._served[owner] = self._tick  # to the end of the round robin
                        if not q:
                            del self._queues[owner]
                            del self._served[owner]
                        return job
        return None

    def _dispatch(self) -> None:
        while len(self._running) < self.workers:
            job = self._pick()
            if job is None:
                return
            self._start(job)

    def _start(self, job: _Job) -> None:
        loop = asyncio.get_running_loop()
        self._running.add(job)
        self._owners_busy[job.owner] += 1
        self._tables_busy.add(job.table)
        try:
            executor = self._pool()
            wait = job.deadline if self.warm else job.deadline + WARM_GRACE
            cf = executor.submit(job.fn, *job.args)
        except Exception as exc:  # a pool broken meanwhile: a fresh one next time
            log.warning("thinking pool: could not submit a job (%s); replacing the pool", exc)
            self._replace(self._executor)
            self._release(job)
            self._settle(job, None)
            return
        job.executor = executor
        job.timer = loop.call_later(wait, self._late, job)
        asyncio.wrap_future(cf).add_done_callback(lambda f: self._done(job, f))

    def _release(self, job: _Job) -> None:
        if job in self._running:
            self._running.discard(job)
            self._owners_busy[job.owner] -= 1
            if self._owners_busy[job.owner] <= 0:
                del self._owners_busy[job.owner]
            self._tables_busy.discard(job.table)
        if job.timer is not None:
            job.timer.cancel()
            job.timer = None

    def _settle(self, job: _Job, result: Any, *, ok: bool = False) -> None:
        if job.future.done():
            return
        if ok:
            job.future.set_result(result)
            return
        try:
            job.future.set_result(job.fallback())
        except Exception as exc:  # pragma: no cover - the fallback level is pure and cheap
            job.future.set_exception(exc)

    def _done(self, job: _Job, f: asyncio.Future[Any]) -> None:
        if job not in self._running:
            return  # already answered by the fallback (late)
        self._release(job)
        if f.cancelled() or isinstance(f.exception(), BrokenProcessPool):
            if job.tries < 1 and not job.future.done():  # its pool was replaced: once more
                job.tries += 1
                self._enqueue(job, first=True)
            else:
                log.warning("thinking pool: a decision at table %s was lost twice; fallback move", job.table)
                self._settle(job, None)
        elif f.exception() is not None:
            log.error("thinking pool: a decision at table %s failed: %r; fallback move", job.table, f.exception())
            self._settle(job, None)
        else:
            self._settle(job, f.result(), ok=True)
        self._dispatch()

    def _late(self, job: _Job) -> None:
        if job not in self._running:
            return
        job.timer = None
        self.late += 1
        log.warning(
            "thinking pool: a decision at table %s took more than %.1f s; made by the %s level, "
            "and the worker pool is replaced",
            job.table,
            job.deadline,
            FALLBACK_LEVEL,
        )
        self._release(job)
        self._settle(job, None)
        self._replace(job.executor)
        self._dispatch()

    def _replace(self, executor: ProcessPoolExecutor | None) -> None:
        if executor is not None and executor is self._executor:
            self._executor = None
            self._warming = []
            self.replaced += 1
            self._kill(executor)
