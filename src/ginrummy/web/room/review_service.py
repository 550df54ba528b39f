"""The expert's review at the web table (issue 15, item 3; ``docs/protocol.md``, "The review").

A seated player asks ``{"type": "review", "deal": N}`` once deal ``N`` is over, or
``{"type": "review", "deal": null}`` once the match is over.  The review
(:func:`ginrummy.review.build_review`) is CPU-bound, so it runs **off the event loop**, in a
process pool of :data:`WORKERS` worker (``concurrent.futures.ProcessPoolExecutor``, ``spawn``
start method, made on the first review and shut down with the app).  The worker reports
``(job, done, total)`` through a ``multiprocessing`` queue; a thread of the server reads it and
hands each report to the event loop, which sends ``{"type": "review_progress", ...}`` to the
connection that asked.  Then ``{"type": "review", "deal", "result"}`` carries the JSON of
``docs/review.md`` with the reasons and the hindsight line in the connection's language.

What the asker may see (DESIGN principle 3):

* only his own decisions (``player=`` his name), each valued from his own ``PlayerView``;
* a deal only once it is over; the match only once it is over; a spectator nothing;
* the hindsight line (which reads both hands and the stock) only for a deal whose cards are
  public (:func:`ginrummy.record.revealable`: a scored deal when it ends, a drawn deal, R7,
  only once the match is over).  Otherwise the line is withheld: ``"sealed": true``.

Limits: one review at a time per connection (``busy``), at most :data:`MAX_JOBS` queued or
running in the whole server (``server_busy``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ...analysis.review import DEFAULT_BUDGET_MS, Review, build_review, count_decisions
from ...errors import Msg
from ...i18n import translate_error
from ...match import Match
from ...record import dumps, revealable
from ..errors import ErrorCode, WebError
from ..review_budget import BudgetError, ReviewBudget
from ..texts import W_, WebTranslator

__all__ = ["ReviewService", "WORKERS", "MAX_JOBS", "review_json", "check_review"]

log = logging.getLogger("ginrummy.web")

WORKERS = 1
"""Worker processes for reviews: one, so a review never takes more than one core from the tables."""

WORKER_NICE = 10
"""Niceness added to the worker (``os.nice``): the tables' moves get the processor first (RESULTS.md)."""

MAX_JOBS = 8
"""Reviews queued or running in the whole server at once; one more is refused (``server_busy``).
They run one at a time, in the fair order of :mod:`ginrummy.web.review_budget`."""

Send = Callable[[dict[str, Any]], Awaitable[None]]

# -- in the worker process ------------------------------------------------------------------

_QUEUE: Any = None
_CANCEL: Any = None


class JobCancelled(Exception):
    """Raised in the worker when the server cancels the job it runs (``ReviewService.cancel``)."""


def _init_worker(queue: Any, cancel: Any = None) -> None:
    global _QUEUE, _CANCEL
    _QUEUE, _CANCEL = queue, cancel
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)  # the tables' moves first: a review is never urgent (issue 32)


def _work(job: int, text: str, player: str | None, deal: int | None, budget_ms: float, seed: int) -> Review:
    """Run in the worker: the review of ``player``'s decisions (``None``: everyone's) in ``text``,
    reporting ``(job, done, total)`` on the worker's queue."""

    def progress(done: int, total: int) -> None:
        if _CANCEL is not None and _CANCEL.value == job:
            raise JobCancelled(job)  # no one waits for it any more: free the worker
        if _QUEUE is not None:
            _QUEUE.put((job, done, total))

    return build_review(text, player=player, deal=deal, budget_ms=budget_ms, seed=seed, progress=progress)


# -- in the server ----------------------------------------------------------------------------


def check_review(match: Match | None, over: bool, player: int, names: list[str], deal: int | None) -> None:
    """Raise :class:`WebError` unless ``player`` (an index; negative: a spectator) may have the
    review of deal ``deal`` (``None``: the whole match) of ``match`` now: a seated player, a deal
    that exists and is over (R5, R6, R7), or the whole match once it is ``over``."""
    if player < 0:
        raise WebError(ErrorCode.NOT_ALLOWED, W_("a spectator gets no review: it is for the players' own decisions"))
    if match is None:
        raise WebError(ErrorCode.NOT_OVER, W_("no deal is over yet: a review is of a deal that is over"))
    if deal is None:
        if not over:
            raise WebError(
                ErrorCode.NOT_OVER, W_("the match is not over: review a deal that is over, or the match at its end")
            )
        return
    if not 1 <= deal <= len(match.deals):
        raise WebError(ErrorCode.BAD_DEAL, W_("no deal {deal}; deals: 1 to {last}", deal=deal, last=len(match.deals)))
    if match.deals[deal - 1].result is None:
        raise WebError(ErrorCode.NOT_OVER, W_("deal {deal} is not over: it can be reviewed once it ends", deal=deal))
    if len({n.casefold() for n in names}) != len(names):  # pragma: no cover - table names are made unique
        raise WebError(ErrorCode.NOT_ALLOWED, W_("this table's names are not unique, so no review can be given"))


def review_json(review: Review, match: Match, tr: WebTranslator) -> dict[str, Any]:
    """The review's JSON (``docs/review.md``) for the page: reasons in ``tr``'s language, each
    deal's hindsight line kept only when the deal's cards are public (:func:`revealable`), else
    ``{"label": "hindsight", "sealed": true, "text": why, "first_win": {}}``."""
    out = review.to_dict()
    for d_out, d in zip(out["deals"], review.deals):
        for x_out, x in zip(d_out["decisions"], d.decisions):
            x_out["reason"] = translate_error(x.reason, tr)
        rec = match.deals[d.number - 1]
        if revealable(match, rec):
            lines = "; ".join(translate_error(m, tr) for m in d.hindsight.lines())
            d_out["hindsight"]["text"] = translate_error(
                Msg("Hindsight (all hands shown, not part of the review): {lines}.", {"lines": lines}), tr
            )
            d_out["hindsight"]["sealed"] = False
        else:
            d_out["hindsight"] = {
                "label": "hindsight",
                "over": rec.result is not None,
                "sealed": True,
                "first_win": {},
                "text": tr.t("No hindsight yet: the hands of a drawn deal stay secret until the match is over.")
                if rec.result is not None
                else tr.t("No hindsight: this deal is not over."),
            }
    return out


class ReviewService:
    """The reviews of one app: a lazily made process pool, the jobs queued or running, their
    connections, and their budgets (:class:`~ginrummy.web.review_budget.ReviewBudget`: the cost
    of each job, the bounds per request and per client and hour, the round-robin queue).

    Only one job is in the worker at a time; the others wait in the budget's fair queue, so a
    table review is never behind more than one job of any client.  ``budget_ms`` is the budget
    per decision of table reviews (:func:`ginrummy.review.samples_for`); ``seed`` the reviews'
    seed (the same review every time it is asked); ``max_jobs`` the jobs queued or running in
    all (``server_busy`` past it)."""

    def __init__(
        self,
        budget_ms: float = DEFAULT_BUDGET_MS,
        seed: int = 0,
        max_jobs: int = MAX_JOBS,
        budget: ReviewBudget | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.budget_ms = budget_ms
        self.seed = seed
        self.budget = budget or ReviewBudget(max_queued=max_jobs)
        self.budget.max_queued = max_jobs
        self.clock = clock
        self._pool: ProcessPoolExecutor | None = None
        self._queue: Any = None
        self._cancel: Any = None  # the job the worker must stop (a shared int)
        self._reader: threading.Thread | None = None
        self._jobs: dict[int, tuple[asyncio.AbstractEventLoop, Send, int | None]] = {}  # job: loop, send, deal
        self._futures: dict[int, asyncio.Future[Review]] = {}  # job: its result, on the event loop
        self._args: dict[int, tuple[Any, ...]] = {}  # queued job: what _work is given
        self._current: int | None = None  # the job in the worker
        self._cancelled: set[int] = set()
        self._by_conn: dict[int, int] = {}
        self._ids = itertools.count(1)
        self._closing = False

    @property
    def max_jobs(self) -> int:
        """Reviews queued or running in all; one more is refused (``server_busy``)."""
        return self.budget.max_queued

    @max_jobs.setter
    def max_jobs(self, value: int) -> None:
        self.budget.max_queued = value

    @property
    def running(self) -> int:
        """Reviews queued or running now."""
        return self.budget.jobs

    def _start_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")  # no fork of a threaded server
            self._queue = ctx.Queue()
            # progress reports are worth nothing once the server stops: never wait at exit to
            # flush them (a worker terminated mid-write would otherwise hold the process up)
            self._queue.cancel_join_thread()
            self._cancel = ctx.Value("q", 0)
            self._pool = ProcessPoolExecutor(
                max_workers=WORKERS, mp_context=ctx, initializer=_init_worker, initargs=(self._queue, self._cancel)
            )
            self._reader = threading.Thread(target=self._read, name="gin-review-progress", daemon=True)
            self._reader.start()
        return self._pool

    def _read(self) -> None:
        """The thread that passes the worker's progress reports to the event loop."""
        while True:
            try:
                item = self._queue.get()
            except (EOFError, OSError):
                return
            if item is None:
                return
            job, done, total = item
            entry = self._jobs.get(job)
            if entry is None:
                continue
            loop, send, deal = entry
            if job not in self._futures:
                continue  # its connection has closed
            msg = {"type": "review_progress", "deal": deal, "done": done, "total": total}
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(self._progress, job, send, msg)

    def _progress(self, job: int, send: Send, msg: dict[str, Any]) -> None:
        """On the event loop: send a progress report, unless the job has ended meanwhile (its
        result is always the last message of a review)."""
        if job in self._futures:
            asyncio.get_running_loop().create_task(self._send_if(job, send, msg))

    async def _send_if(self, job: int, send: Send, msg: dict[str, Any]) -> None:
        if job in self._futures:
            await _quiet(send, msg)

    # -- budgets and the fair queue (review_budget.py) -------------------------------------------

    def reserve(self, client: str, decisions: int, budget_ms: float) -> None:
        """Check and charge a new job of ``decisions`` decisions at ``budget_ms`` for ``client``
        (:func:`~ginrummy.web.review_budget.client_key`): raises
        :class:`~ginrummy.web.review_budget.BudgetError` ``too_large`` (413), ``server_busy``
        (503) or ``rate_limited`` (429), charging nothing; else the job must be submitted now."""
        self.budget.check_request(decisions, budget_ms)
        self.budget.admit(client)
        self.budget.charge(client, self.budget.cost(decisions, budget_ms), self.clock())

    def submit(
        self, client: str, text: str, player: str | None, deal: int | None, budget_ms: float, seed: int, send: Send
    ) -> tuple[int, asyncio.Future[Review]]:
        """Queue the review of ``player``'s decisions (``None``: everyone's) in the record
        ``text``, deal ``deal`` (``None``: every deal), for ``client`` (after :meth:`reserve`);
        its progress goes to ``send``.  Returns ``(job, future)``: the future (on the running
        event loop) gets the :class:`Review`, the worker's error, or is cancelled
        (:meth:`cancel`)."""
        loop = asyncio.get_running_loop()
        job = next(self._ids)
        self._jobs[job] = (loop, send, deal)
        self._futures[job] = loop.create_future()
        self._args[job] = (job, text, player, deal, budget_ms, seed)
        self.budget.push(client, job)
        self._pump()
        return job, self._futures[job]

    def _pump(self) -> None:
        """On the event loop: give the worker the next job of the fair queue, if it is free."""
        while self._current is None and not self._closing:
            job = self.budget.pop()
            if job is None:
                return
            assert isinstance(job, int)
            args = self._args.pop(job, None)
            if args is None:  # pragma: no cover - ended while queued
                self.budget.done(job)
                continue
            try:
                pool = self._start_pool()
                work = asyncio.wrap_future(pool.submit(_work, *args))
            except Exception as exc:  # pragma: no cover - the pool cannot start
                self._end(job, None, exc)
                continue
            self._current = job
            work.add_done_callback(functools.partial(self._ended, job, pool))

    def _ended(self, job: int, pool: ProcessPoolExecutor, work: asyncio.Future[Review]) -> None:
        if self._current == job:
            self._current = None
        exc = None if work.cancelled() else work.exception()
        if isinstance(exc, BrokenProcessPool) and self._pool is pool and not self._closing:
            self._stop_pool()  # the worker died: the next review starts a new one
        self._end(job, None if exc is not None or work.cancelled() else work.result(), exc)
        self._pump()

    def _end(self, job: int, review: Review | None, exc: BaseException | None) -> None:
        self.budget.done(job)
        self._args.pop(job, None)
        future = self._futures.get(job)
        if future is None or future.done():
            return
        if job in self._cancelled or (review is None and exc is None):
            future.cancel()
        elif exc is not None:
            future.set_exception(exc)
        else:
            future.set_result(review)  # type: ignore[arg-type]
        self._cancelled.discard(job)

    def cancel(self, job: int) -> None:
        """Stop ``job``: a queued one never starts; the one in the worker stops at its next
        decision (the worker is then free).  Its future is cancelled."""
        if job not in self._jobs:
            return
        self._cancelled.add(job)
        if self._current == job:
            if self._cancel is not None:
                self._cancel.value = job  # the worker checks it after each decision
        else:
            self._end(job, None, None)
        future = self._futures.get(job)
        if future is not None and not future.done():
            future.cancel()

    def cancel_idle(self) -> list[int]:
        """Cancel the watched jobs no one polled for the budget's ``idle_seconds``; returns them."""
        jobs = [j for j in self.budget.idle(self.clock()) if isinstance(j, int)]
        for job in jobs:
            self.cancel(job)
        return jobs

    # -- the table's reviews and the replay viewer's --------------------------------------------

    async def start(
        self,
        key: int,
        match: Match | None,
        over: bool,
        player: int,
        names: list[str],
        deal: int | None,
        send: Send,
        tr: Callable[[], WebTranslator],
        reply_to: Any = None,
        client: str = "address:",
    ) -> None:
        """Start the review of deal ``deal`` (``None``: the match) for ``player`` on the
        connection ``key`` (any int unique per connection), spending ``client``'s budget
        (:meth:`reserve`); progress and the result go to ``send``, in the language ``tr()``
        gives when they are sent.  Returns once the job is queued.  Raises
        :class:`WebError` or :class:`~ginrummy.web.review_budget.BudgetError` (nothing is
        started)."""
        check_review(match, over, player, names, deal)
        assert match is not None
        if key in self._by_conn:
            raise WebError(ErrorCode.BUSY, W_("a review is already running for you; wait for it to finish"))
        text = dumps(match)  # private (the deal in progress too): it stays in the server and its worker
        decisions = await asyncio.to_thread(count_decisions, text, player=names[player], deal=deal)
        if key in self._by_conn:  # pragma: no cover - one message at a time per connection
            raise WebError(ErrorCode.BUSY, W_("a review is already running for you; wait for it to finish"))
        try:
            self.reserve(client, decisions, self.budget_ms)
        except BudgetError as exc:  # the table's error message names the code and says why
            raise WebError(exc.code, exc.message) from None
        job, future = self.submit(client, text, names[player], deal, self.budget_ms, self.seed, send)
        self._by_conn[key] = job
        await send(
            {
                "type": "review_progress",
                "deal": deal,
                "done": 0,
                "total": None,
                **({"reply_to": reply_to} if reply_to is not None else {}),
            }
        )
        asyncio.get_running_loop().create_task(self._finish(key, job, future, match, deal, send, tr, reply_to))

    async def _finish(
        self,
        key: int,
        job: int,
        future: Awaitable[Review],
        match: Match,
        deal: int | None,
        send: Send,
        tr: Callable[[], WebTranslator],
        reply_to: Any,
    ) -> None:
        try:
            review = await future
            msg: dict[str, Any] = {"type": "review", "deal": deal, "result": review_json(review, match, tr())}
        except asyncio.CancelledError:
            return
        except Exception:
            if self._closing:  # the server stops: its worker was stopped with it
                return
            log.exception("a review failed")
            msg = {
                "type": "error",
                "code": "internal",
                "message": tr().t("the review could not be made; nothing changed"),
            }
        finally:
            self._jobs.pop(job, None)
            if self._by_conn.get(key) == job:
                del self._by_conn[key]
        if self._futures.pop(job, None) is None:
            return  # its connection has closed
        if reply_to is not None:
            msg["reply_to"] = reply_to
        await _quiet(send, msg)

    async def run(
        self,
        text: str,
        *,
        deal: int | None,
        budget_ms: float,
        seed: int,
        progress: Callable[[int, int | None], None],
        client: str | None = None,
        decisions: int | None = None,
    ) -> Review:
        """The review of every player's decisions in the record ``text`` (deal ``deal``;
        ``None``: every deal), in the worker process like :meth:`start`, for the replay viewer
        (:mod:`ginrummy.web.http.replay_review_routes`): ``progress(done, total)`` is called on the event loop
        as decisions are valued.  The caller has checked who may see ``text``: the whole record
        is reviewed.  With ``client`` and ``decisions`` the job is reserved first
        (:meth:`reserve`: raises ``BudgetError``, nothing started); without, the caller has.
        Raises the worker's error otherwise (``BrokenProcessPool`` when the worker died)."""
        if client is None:
            client = "address:"
        if decisions is not None:
            self.reserve(client, decisions, budget_ms)

        async def report(msg: dict[str, Any]) -> None:
            progress(msg["done"], msg["total"])

        job, future = self.submit(client, text, None, deal, budget_ms, seed, report)
        try:
            return await future
        finally:
            self._jobs.pop(job, None)
            self._futures.pop(job, None)

    def forget(self, key: int) -> None:
        """The connection ``key`` closed: its review is cancelled (queued, it never starts;
        running, the worker stops at its next decision) and nothing more is sent."""
        job = self._by_conn.pop(key, None)
        if job is not None:
            self.cancel(job)
            self._futures.pop(job, None)

    def close(self) -> None:
        """Shut the pool down: queued reviews are cancelled and a review still running is
        stopped (its worker process is terminated), so the server stops at once."""
        self._closing = True
        for job in list(self._futures):
            future = self._futures.get(job)
            if future is not None and not future.done():
                future.cancel()
        self._stop_pool()

    def _stop_pool(self) -> None:
        if self._pool is not None:
            pool = self._pool
            workers = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in workers:
                with contextlib.suppress(Exception):
                    proc.terminate()
            with contextlib.suppress(Exception):
                self._queue.put(None)
            if self._reader is not None:
                self._reader.join(timeout=1)  # a daemon thread: it never holds the server up
            self._pool = None
            # free the pool's and the queue's semaphores now: after a SIGTERM the process ends
            # without running the interpreter's exit hooks (uvicorn raises the signal again once
            # it has shut down), and the resource tracker then warns of leaked semaphores
            pool.shutdown(wait=True)  # its workers are terminated: it returns at once
            queue, self._queue = self._queue, None
            self._cancel = None
            with contextlib.suppress(Exception):
                queue.close()
            del pool, queue


async def _quiet(send: Send, msg: dict[str, Any]) -> None:
    with contextlib.suppress(ConnectionError, RuntimeError):
        await send(msg)
