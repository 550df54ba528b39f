"""The expert's review in the replay viewer (issue 15, item 3; ``docs/review.md``, "In the
replay viewer"; ``docs/protocol.md``, "The review of a replay").

A replay shows a record with both hands open: a finished match of this server
(``/replay/ID``, the public record that ``GET /api/replays/ID`` shows, to whoever may replay
it) or a record someone uploads (``/replay``).  Its review values **every** player's decisions,
each from that player's own :class:`~ginrummy.views.PlayerView` at that moment
(:func:`ginrummy.review.build_review`): it shows nothing the replay does not show already.
A live match is never reviewed here (it has no replay; its players ask for their own review
at the table, :mod:`ginrummy.web.room.review_service`).

* ``POST /api/replays/ID/review?deal=&budget_ms=``: the review of finished match ``ID``
  (the same check as its replay: a public match or one you played; else ``404 not_found``).
* ``POST /api/reviews?deal=&budget_ms=`` with a record's text as the body (at most
  :data:`~ginrummy.web.protocol.replay_frames.MAX_RECORD_BYTES`): the review of an uploaded record (checked
  first as ``POST /api/replays`` checks it: ``400 bad_record`` naming the line).
* ``GET /api/reviews/KEY``: how the review ``KEY`` is going.

The query is :class:`~ginrummy.web.protocol.inbound.ReviewQuery` (``400 bad_message`` naming the
field).  Each answers ``{"key", "status": "running", "done", "total"}`` (``202``) while the
review runs in the review worker (:meth:`ReviewService.run`, off the event loop), then
``{"key", "status": "done", "done", "total", "result"}`` (``200``), ``result`` being the JSON of
``docs/review.md`` with its reasons and hindsight lines in the request's language.  Errors:
``404 not_found`` (an unknown or forgotten key), ``503 server_busy``, ``500 internal``.

**Budgets** (:mod:`ginrummy.web.review_budget`): a review's cost (its decisions times the
budget) is counted before it starts and bounded per request (``413 too_large``) and per client
and hour (``429 rate_limited``, ``Retry-After``); jobs run one at a time in a round-robin of
clients shared with the tables; a review no one polls for 30 s is cancelled.

**Reuse.** A review is kept per (record text, deal, budget; the seed is the server's) in memory, the
:data:`CACHE_SIZE` most recent ones: asking again, or stepping through the replay, never runs it
again, and two people asking for the same review share one run.  ``KEY`` is an HMAC of those
four with a secret made when the server starts: it is handed out only after the check of who
may see the record, and cannot be made from the record alone.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...analysis.review import Review, count_decisions
from ...errors import GinRummyError, Msg
from ...i18n import translate_error
from ...record import loads
from ..errors import ErrorCode, WebError
from ..protocol.inbound import ReviewQuery, parse_query
from ..review_budget import BudgetError, client_key
from ..room.review_service import ReviewService
from ..texts import W_, WebTranslator, request_lang, web_translator
from .common import error_response, uploaded_record

__all__ = ["ReplayReviews", "replay_review_json", "replay_review_routes", "CACHE_SIZE"]

log = logging.getLogger("ginrummy.web")

CACHE_SIZE = 64
"""Reviews kept in memory (the most recently asked); running ones are never dropped."""

SEED = 0
"""The seed of every replay review, chosen by the server (as the table's reviews): identical
requests (record, deal, budget) share one job whoever asks, and a client cannot make new jobs of
one record by changing the seed (issue 27: four seeds held the worker for hours).  Another seed
would add nothing a reader needs: each decision shows its sampling noise (``noise``)."""


@dataclass
class _Entry:
    """One review: running (``review`` and ``failed`` unset) or done."""

    done: int = 0
    total: int | None = None
    review: Review | None = None
    failed: bool = False
    code: str = "internal"
    job: int | None = None  # its job while queued or running (ReviewService)


def replay_review_json(review: Review, tr: WebTranslator) -> dict[str, Any]:
    """The review's JSON (``docs/review.md``) for the replay viewer: reasons and hindsight lines
    in ``tr``'s language.  The record is one whose every unsealed deal the viewer shows with both
    hands open, so a deal that is over gets its hindsight line; one in progress (an uploaded
    record stopped mid-deal) says it has none."""
    out = review.to_dict()
    for d_out, d in zip(out["deals"], review.deals):
        for x_out, x in zip(d_out["decisions"], d.decisions):
            x_out["reason"] = translate_error(x.reason, tr)
        if d.hindsight.over:
            lines = "; ".join(translate_error(m, tr) for m in d.hindsight.lines())
            d_out["hindsight"]["text"] = translate_error(
                Msg("Hindsight (all hands shown, not part of the review): {lines}.", {"lines": lines}), tr
            )
        else:
            d_out["hindsight"]["text"] = tr.t("No hindsight: this deal is not over.")
        d_out["hindsight"]["sealed"] = False
    return out


class ReplayReviews:
    """The replay reviews of one app: a bounded cache of :class:`_Entry` by key, the runs going
    on in ``service``'s worker (at most its ``max_jobs`` at once, shared with the tables)."""

    def __init__(self, service: ReviewService, size: int = CACHE_SIZE) -> None:
        self.service = service
        self.size = size
        self._secret = secrets.token_bytes(32)
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    def key(self, text: str, deal: int | None, budget_ms: float, seed: int = 0) -> str:
        """The review's key: an HMAC-SHA256 (hex, 32 digits) of the record, deal, budget and seed."""
        msg = f"{deal}|{float(budget_ms)!r}|{seed}|".encode() + text.encode()
        return hmac.new(self._secret, msg, hashlib.sha256).hexdigest()[:32]

    def get(self, key: str) -> _Entry | None:
        """The review ``key``, or ``None`` (never asked, or dropped from the cache).  Asking
        keeps a running review alive (:data:`~ginrummy.web.review_budget.IDLE_SECONDS`)."""
        entry = self._entries.get(key)
        if entry is not None:
            self._entries.move_to_end(key)
            if entry.job is not None:
                self.service.budget.polled(entry.job, self.service.clock())
        return entry

    def ask(
        self, text: str, deal: int | None, budget_ms: float, client: str = "address:", decisions: int = 0
    ) -> tuple[str, _Entry]:
        """The review of ``text`` (checked already: a record whose reader may see all of it, with
        ``decisions`` decisions to value), started for ``client`` unless it is kept or running
        (then it costs nothing: one job whoever asks).  The seed is the server's, :data:`SEED`.
        Returns ``(key, entry)``.  Must be called on the event loop.  Raises
        :class:`~ginrummy.web.review_budget.BudgetError` (nothing started, nothing charged)."""
        key = self.key(text, deal, budget_ms, SEED)
        kept = self.get(key)
        if kept is not None and not kept.failed:
            return key, kept
        self.service.reserve(client, decisions, budget_ms)

        async def report(msg: dict[str, Any]) -> None:
            entry.done, entry.total = msg["done"], msg["total"]

        job, future = self.service.submit(client, text, None, deal, budget_ms, SEED, report)
        entry = _Entry(job=job)
        self._entries[key] = entry
        self.service.budget.polled(job, self.service.clock())
        self._trim()

        async def run() -> None:
            try:
                entry.review = await future
                entry.total = entry.done = sum(len(d.decisions) for d in entry.review.deals)
            except asyncio.CancelledError:
                entry.failed = True
                if self._entries.get(key) is entry:  # abandoned: asking again starts it again
                    del self._entries[key]
            except Exception:
                if not self.service._closing:
                    log.exception("a replay review failed")
                entry.failed = True
            finally:
                entry.job = None
                self.service._jobs.pop(job, None)
                self.service._futures.pop(job, None)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        self._watch()
        return key, entry

    def _watch(self) -> None:
        """Start the sweeper unless it runs: every few seconds it cancels the reviews no one
        polled for the budget's ``idle_seconds`` (:meth:`ReviewService.cancel_idle`), and stops
        once no review runs."""
        if self._sweeper is not None and not self._sweeper.done():
            return

        async def sweep() -> None:
            while any(e.job is not None for e in self._entries.values()):
                await asyncio.sleep(max(0.05, min(5.0, self.service.budget.idle_seconds / 4)))
                self.service.cancel_idle()

        self._sweeper = asyncio.get_running_loop().create_task(sweep())

    def _trim(self) -> None:
        """Drop the least recently asked finished reviews beyond :attr:`size`."""
        for k in list(self._entries):
            if len(self._entries) <= self.size:
                return
            e = self._entries[k]
            if e.review is not None or e.failed:
                del self._entries[k]


def _status(key: str, entry: _Entry, tr: WebTranslator) -> Response:
    if entry.failed and entry.code == "server_busy":
        return JSONResponse(
            {
                "key": key,
                "status": "failed",
                "code": "server_busy",
                "error": translate_error(W_("the server is busy with other reviews; try again in a minute"), tr),
            },
            status_code=503,
        )
    if entry.failed:
        return JSONResponse(
            {
                "key": key,
                "status": "failed",
                "code": "internal",
                "error": tr.t("the review could not be made; nothing changed"),
            },
            status_code=500,
        )
    if entry.review is None:
        return JSONResponse(
            {"key": key, "status": "running", "done": entry.done, "total": entry.total},
            status_code=202,
            headers={"Cache-Control": "no-store"},
        )
    return JSONResponse(
        {
            "key": key,
            "status": "done",
            "done": entry.done,
            "total": entry.total,
            "result": replay_review_json(entry.review, tr),
        },
        headers={"Cache-Control": "no-store"},
    )


def _check(text: str, deal: int | None) -> int:
    """The decisions a review of ``text`` (deal ``deal``; ``None``: every deal) values
    (:func:`~ginrummy.analysis.review.count_decisions`: its cost, known before it runs).  Raises
    :class:`~ginrummy.errors.RecordError` unless ``text`` is a record that adds up
    (``ginrummy.record.replay``), and :class:`WebError` ``bad_deal`` unless ``deal`` (if
    given) is one of its deals with its cards shown."""
    rec = loads(text)
    if deal is not None:
        if not 1 <= deal <= len(rec.deals):
            raise WebError(ErrorCode.BAD_DEAL, W_("no deal {deal}; deals: 1 to {last}", deal=deal, last=len(rec.deals)))
        if rec.deals[deal - 1].sealed:
            raise WebError(
                ErrorCode.BAD_DEAL,
                W_("deal {deal} is sealed: its cards are still secret, so it cannot be reviewed", deal=deal),
            )
    return count_decisions(rec, deal=deal)  # replays the record first (RecordError naming the line)


def replay_review_routes(
    reviews: ReplayReviews,
    may_replay: Callable[[Request, str], Any],
    default_budget_ms: float,
    client_of: Callable[[Request], str] | None = None,
) -> list[Route]:
    """The routes of this module.  ``may_replay(request, result_id)`` is the replay's own check
    (a coroutine): the match's public record text when the request may replay it, else ``None``;
    ``client_of(request)`` whose review budget the request spends
    (:func:`~ginrummy.web.review_budget.client_key`; default: its address)."""
    if client_of is None:

        def client_of(request: Request) -> str:
            return client_key(request.client.host if request.client else None)

    def query(request: Request) -> ReviewQuery:
        return parse_query(list(request.query_params.multi_items()))

    async def start(request: Request, text: str, q: ReviewQuery, tr: WebTranslator) -> Response:
        try:
            decisions = await asyncio.to_thread(_check, text, q.deal)
        except WebError as exc:
            return error_response(exc, tr, 400, exc.code)
        except (GinRummyError, ValueError) as exc:
            return JSONResponse({"error": translate_error(exc, tr), "code": "bad_record"}, status_code=400)
        budget = default_budget_ms if q.budget_ms is None else q.budget_ms
        try:
            key, entry = reviews.ask(text, q.deal, budget, client_of(request), decisions)
        except BudgetError as exc:  # 413 too_large, 429 rate_limited, 503 server_busy
            r = error_response(exc, tr, exc.status, exc.code)
            if exc.retry_after:
                r.headers["Retry-After"] = str(exc.retry_after)
            return r
        return _status(key, entry, tr)

    async def review_of(request: Request) -> Response:
        tr = web_translator(request_lang(request))
        rid = request.path_params["result_id"]
        try:
            q = query(request)
        except WebError as exc:
            return error_response(exc, tr)
        text = await may_replay(request, rid)
        if text is None:
            return error_response(W_("no finished match {id} that you may replay", id=rid[:60]), tr, 404, "not_found")
        return await start(request, text, q, tr)

    async def review_upload(request: Request) -> Response:
        tr = web_translator(request_lang(request))
        try:
            q = query(request)
        except WebError as exc:
            return error_response(exc, tr)
        text = await uploaded_record(request, tr)
        if isinstance(text, Response):
            return text
        return await start(request, text, q, tr)

    async def review_status(request: Request) -> Response:
        tr = web_translator(request_lang(request))
        key = request.path_params["key"]
        entry = reviews.get(key) if len(key) == 32 else None
        if entry is None:
            return error_response(W_("no review {key}: ask for it again", key=key[:40]), tr, 404, "not_found")
        return _status(key, entry, tr)

    return [
        Route("/api/replays/{result_id}/review", review_of, methods=["POST"]),
        Route("/api/reviews", review_upload, methods=["POST"]),
        Route("/api/reviews/{key}", review_status),
    ]
