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
import concurrent.futures
import contextlib
import itertools
import logging
import multiprocessing
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ...analysis.review import DEFAULT_BUDGET_MS, Review, build_review
from ...errors import Msg
from ...i18n import translate_error
from ...match import Match
from ...record import dumps, revealable
from ..errors import WebError
from ..texts import W_, WebTranslator

__all__ = ["ReviewService", "ReviewError", "WORKERS", "MAX_JOBS", "review_json", "check_review"]

log = logging.getLogger("ginrummy.web")

WORKERS = 1
"""Worker processes for reviews: one, so a review never takes more than one core from the tables."""

MAX_JOBS = 4
"""Reviews queued or running in the whole server at once; one more is refused (``server_busy``)."""

Send = Callable[[dict[str, Any]], Awaitable[None]]

# -- in the worker process ------------------------------------------------------------------

_QUEUE: Any = None


def _init_worker(queue: Any) -> None:
    global _QUEUE
    _QUEUE = queue


def _work(job: int, text: str, player: str | None, deal: int | None, budget_ms: float, seed: int) -> Review:
    """Run in the worker: the review of ``player``'s decisions (``None``: everyone's) in ``text``,
    reporting ``(job, done, total)`` on the worker's queue."""

    def progress(done: int, total: int) -> None:
        if _QUEUE is not None:
            _QUEUE.put((job, done, total))

    return build_review(text, player=player, deal=deal, budget_ms=budget_ms, seed=seed, progress=progress)


# -- in the server ----------------------------------------------------------------------------

ReviewError = WebError
"""A review that cannot be given (:class:`~ginrummy.web.errors.WebError`): ``code``
``not_allowed``, ``not_over``, ``bad_deal``, ``busy``, ``server_busy``."""


def check_review(match: Match | None, over: bool, player: int, names: list[str], deal: int | None) -> None:
    """Raise :class:`ReviewError` unless ``player`` (an index; negative: a spectator) may have the
    review of deal ``deal`` (``None``: the whole match) of ``match`` now: a seated player, a deal
    that exists and is over (R5, R6, R7), or the whole match once it is ``over``."""
    if player < 0:
        raise ReviewError("not_allowed", W_("a spectator gets no review: it is for the players' own decisions"))
    if match is None:
        raise ReviewError("not_over", W_("no deal is over yet: a review is of a deal that is over"))
    if deal is None:
        if not over:
            raise ReviewError(
                "not_over", W_("the match is not over: review a deal that is over, or the match at its end")
            )
        return
    if not 1 <= deal <= len(match.deals):
        raise ReviewError("bad_deal", W_("no deal {deal}; deals: 1 to {last}", deal=deal, last=len(match.deals)))
    if match.deals[deal - 1].result is None:
        raise ReviewError("not_over", W_("deal {deal} is not over: it can be reviewed once it ends", deal=deal))
    if len({n.casefold() for n in names}) != len(names):  # pragma: no cover - table names are made unique
        raise ReviewError("not_allowed", W_("this table's names are not unique, so no review can be given"))


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
    """The reviews of one app: a lazily made process pool, the jobs running, their connections.

    ``budget_ms`` is the budget per decision (:func:`ginrummy.review.samples_for`); ``seed`` the
    review's seed (the same review every time it is asked)."""

    def __init__(self, budget_ms: float = DEFAULT_BUDGET_MS, seed: int = 0, max_jobs: int = MAX_JOBS) -> None:
        self.budget_ms = budget_ms
        self.seed = seed
        self.max_jobs = max_jobs
        self._pool: ProcessPoolExecutor | None = None
        self._queue: Any = None
        self._reader: threading.Thread | None = None
        self._jobs: dict[int, tuple[asyncio.AbstractEventLoop, Send, int | None]] = {}  # job: loop, send, deal
        self._futures: dict[int, concurrent.futures.Future[Review]] = {}
        self._by_conn: dict[int, int] = {}
        self._ids = itertools.count(1)
        self._closing = False

    @property
    def running(self) -> int:
        """Reviews queued or running now."""
        return len(self._jobs)

    def _start_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")  # no fork of a threaded server
            self._queue = ctx.Queue()
            # progress reports are worth nothing once the server stops: never wait at exit to
            # flush them (a worker terminated mid-write would otherwise hold the process up)
            self._queue.cancel_join_thread()
            self._pool = ProcessPoolExecutor(
                max_workers=WORKERS, mp_context=ctx, initializer=_init_worker, initargs=(self._queue,)
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
    ) -> None:
        """Start the review of deal ``deal`` (``None``: the match) for ``player`` on the
        connection ``key`` (any int unique per connection); progress and the result go to
        ``send``, in the language ``tr()`` gives when they are sent.  Returns once the job is
        queued.  Raises :class:`ReviewError` (nothing is started)."""
        check_review(match, over, player, names, deal)
        assert match is not None
        if key in self._by_conn:
            raise ReviewError("busy", W_("a review is already running for you; wait for it to finish"))
        if len(self._jobs) >= self.max_jobs:
            raise ReviewError("server_busy", W_("the server is busy with other reviews; try again in a minute"))
        text = dumps(match)  # private (the deal in progress too): it stays in the server and its worker
        job = next(self._ids)
        loop = asyncio.get_running_loop()
        self._jobs[job] = (loop, send, deal)
        self._by_conn[key] = job
        try:
            pool = self._start_pool()
            work = pool.submit(_work, job, text, names[player], deal, self.budget_ms, self.seed)
            self._futures[job] = work
            future = asyncio.wrap_future(work, loop=loop)
        except Exception:
            self._jobs.pop(job, None)
            self._by_conn.pop(key, None)
            raise
        await send(
            {
                "type": "review_progress",
                "deal": deal,
                "done": 0,
                "total": None,
                **({"reply_to": reply_to} if reply_to is not None else {}),
            }
        )
        loop.create_task(self._finish(key, job, future, pool, match, deal, send, tr, reply_to))

    async def _finish(
        self,
        key: int,
        job: int,
        future: Awaitable[Review],
        pool: ProcessPoolExecutor,
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
        except Exception as exc:
            if self._closing:  # the server stops: its worker was stopped with it
                return
            log.exception("a review failed")
            if isinstance(exc, BrokenProcessPool) and self._pool is pool:
                self._stop_pool()  # the worker died: the next review starts a new one
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
        self, text: str, *, deal: int | None, budget_ms: float, seed: int, progress: Callable[[int, int | None], None]
    ) -> Review:
        """The review of every player's decisions in the record ``text`` (deal ``deal``;
        ``None``: every deal), in the worker process like :meth:`start`, for the replay viewer
        (:mod:`ginrummy.web.http.replay_review_routes`): ``progress(done, total)`` is called on the event loop
        as decisions are valued.  The caller has checked who may see ``text``: the whole record
        is reviewed.  Raises :class:`ReviewError` ``server_busy`` when :attr:`max_jobs` reviews
        run already (nothing is started); the worker's error (a ``RecordError`` for a record that
        does not add up, ``BrokenProcessPool`` when the worker died) otherwise."""
        if len(self._jobs) >= self.max_jobs:
            raise ReviewError("server_busy", W_("the server is busy with other reviews; try again in a minute"))
        job = next(self._ids)
        loop = asyncio.get_running_loop()

        async def report(msg: dict[str, Any]) -> None:
            progress(msg["done"], msg["total"])

        self._jobs[job] = (loop, report, deal)
        pool: ProcessPoolExecutor | None = None
        try:
            pool = self._start_pool()
            work = pool.submit(_work, job, text, None, deal, budget_ms, seed)
            self._futures[job] = work
            return await asyncio.wrap_future(work, loop=loop)
        except BrokenProcessPool:
            if pool is not None and self._pool is pool and not self._closing:
                self._stop_pool()  # the worker died: the next review starts a new one
            raise
        finally:
            self._jobs.pop(job, None)
            self._futures.pop(job, None)

    def forget(self, key: int) -> None:
        """The connection ``key`` closed: its review's result and progress go nowhere (a queued
        review is cancelled; a running one finishes in the worker and is dropped)."""
        job = self._by_conn.pop(key, None)
        future = None if job is None else self._futures.pop(job, None)
        if future is not None:
            future.cancel()  # a review still queued never starts; a running one ends and is dropped

    def close(self) -> None:
        """Shut the pool down: queued reviews are cancelled and a review still running is
        stopped (its worker process is terminated), so the server stops at once."""
        self._closing = True
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
            with contextlib.suppress(Exception):
                queue.close()
            del pool, queue


async def _quiet(send: Send, msg: dict[str, Any]) -> None:
    with contextlib.suppress(ConnectionError, RuntimeError):
        await send(msg)
