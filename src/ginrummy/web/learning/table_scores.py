"""The performance score at the web table (issue 32; ``docs/protocol.md``, "The score").

When a deal ends, :class:`TableScores` reviews it in the background: every player's decisions
(computer players too), each valued from that player's own view, in the expert's review worker
(:class:`~ginrummy.web.room.review_service.ReviewService`, the same fair queue and budgets as
the players' own reviews, so the tables' moves are never slowed: the review has one process of
its own, and at most :data:`SLOTS` table scores are queued at once so that they never fill the
queue the players' reviews need; a deal of a match that is over takes the next slot before the
deals of matches going on, and a table nobody watches goes last, :class:`_Slots`).  Each deal
is reviewed at :func:`~ginrummy.web.review_budget.score_budget_ms` of its backlog (the deals
being reviewed and waiting before it or with it): the server's budget a decision while few
wait, less (down to 16 sampled deals a decision) as more do, so that the worker keeps up with
a room of busy tables; the score then says so (each player's ``samples`` and a wider
interval, ``docs/design-notes.md``, "The score under load").  Every watcher of the table (players and spectators) gets
``score_progress`` while it runs and then ``score`` with each player's
:class:`~ginrummy.analysis.performance.Performance` of the deal.  When the match is over, the
deal reviews are put together into the match's score (``"deal": null``): it is ready as soon
as the last deal is reviewed.  The match score of each player with an account is kept
(:func:`~ginrummy.web.community.performance.store_scores`) for the player page's trend.

The scores are aggregates (no card, no single decision), sent only for deals that are over.
Each table's reviews are charged to the client ``table:ID`` of the review budget.  The scores
are kept in memory (the latest :data:`MAX_TABLES` tables) and sent to a connection that opens
later; a server restarted during a match scores only the deals that end after the restart.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Engine

from ...analysis.performance import performance
from ...analysis.review import count_decisions
from ...record import dumps
from ..community.performance import store_scores
from ..protocol.outbound import score_message, score_progress_message
from ..review_budget import BudgetError, score_budget_ms
from ..room.review_service import ReviewService
from ..room.tables import Table, TableManager

__all__ = ["TableScores", "SLOTS", "MAX_TABLES", "RETRIES"]

log = logging.getLogger("ginrummy.web")

SLOTS = 2
"""Table-score reviews queued or running in the review worker at once (of its ``max_jobs``)."""

MAX_TABLES = 1000
"""Tables whose scores are kept in memory (the least recently changed are forgotten)."""

RETRIES = 600
"""How many times (one a second) a deal's review is asked again while the worker's queue is
full, before that deal is given up (logged)."""


@dataclass
class _Scored:
    """What :class:`TableScores` knows of one table: the reviews of its deals, the deals
    waiting, the messages sent (for a connection that opens later)."""

    deals: dict[int, Any] = field(default_factory=dict)  # deal number -> DealReview (None: given up)
    waiting: deque[int] = field(default_factory=deque)
    seen: set[int] = field(default_factory=set)  # deals queued or done
    sent: dict[int | None, dict[str, Any]] = field(default_factory=dict)  # deal (None: match) -> score
    task: asyncio.Task[None] | None = None


class _Slots:
    """At most ``n`` holders at once; when one is freed, the waiter whose ``rank()`` is lowest
    goes next (then the first come).  The rank is asked at that moment, not when the waiter
    came: a table whose match has ended since (rank 0, its players wait for the match's score)
    passes the deals of matches going on (rank 1), even the ones it queued before its end, and
    both pass the tables nobody watches (rank 2)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.free = n
        self._waiting: list[tuple[int, Callable[[], int], asyncio.Future[None]]] = []
        self._order = itertools.count()

    async def acquire(self, rank: Callable[[], int]) -> None:
        """Wait for a slot."""
        if self.free > 0 and not self._waiting:
            self.free -= 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((next(self._order), rank, fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()  # it was handed a slot as it was cancelled: pass it on
            raise

    def ahead(self, rank: int) -> int:
        """The holders and the waiters whose rank is now at most ``rank``: the backlog of a job
        of that rank (:func:`~ginrummy.web.review_budget.score_budget_ms`)."""
        return self.n - self.free + sum(1 for _, r, fut in self._waiting if not fut.done() and r() <= rank)

    def release(self) -> None:
        """Hand the slot to the first waiter by rank, else free it."""
        self._waiting = [w for w in self._waiting if not w[2].done()]
        if not self._waiting:
            self.free += 1
            return
        best = min(self._waiting, key=lambda w: (w[1](), w[0]))
        self._waiting.remove(best)
        best[2].set_result(None)


@dataclass(frozen=True)
class _Deals:
    """A match's deal reviews as :func:`~ginrummy.analysis.performance.performance` reads them."""

    players: tuple[str, ...]
    deals: Sequence[Any]


class TableScores:
    """The table's background scoring (module docstring): hooked into ``manager``
    (``manager.on_changed``), reviewing in ``reviews``, keeping match scores in ``engine`` (``None``:
    nothing kept).  ``slots``: :data:`SLOTS`."""

    def __init__(
        self, manager: TableManager, reviews: ReviewService, engine: Engine | None = None, slots: int = SLOTS
    ) -> None:
        self.manager = manager
        self.reviews = reviews
        self.engine = engine
        self.slots = slots
        self._tables: OrderedDict[str, _Scored] = OrderedDict()
        self._slots = _Slots(slots)
        self._telling: set[asyncio.Task[None]] = set()
        manager.on_changed = self.changed

    def known(self, table_id: str) -> list[dict[str, Any]]:
        """The ``score`` messages of the table sent so far (deals in order, then the match)."""
        st = self._tables.get(table_id)
        if st is None:
            return []
        return [st.sent[k] for k in sorted(st.sent, key=lambda d: (d is None, d or 0))]

    def changed(self, table: Table) -> None:
        """Called after every step of ``table``: queue the review of each deal that has ended
        and is not queued yet.  Cheap while a deal is on (no deal ended since the last call)."""
        m = table.match
        if m is None or not m.deals or len(table.names) != 2:
            return
        st = self._tables.get(table.id)
        ended = [i + 1 for i, d in enumerate(m.deals) if d.result is not None]
        over = table.over
        if st is None:
            if not ended and not over:
                return
            st = self._tables[table.id] = _Scored()
            while len(self._tables) > MAX_TABLES:
                self._tables.popitem(last=False)
        self._tables.move_to_end(table.id)
        new = [n for n in ended if n not in st.seen]
        if not new:
            return
        for n in new:
            st.seen.add(n)
            st.waiting.append(n)
        if st.task is None or st.task.done():
            st.task = asyncio.get_running_loop().create_task(self._run(table.id, st))

    async def _run(self, table_id: str, st: _Scored) -> None:
        try:
            while st.waiting:
                deal = st.waiting[0]
                st.deals[deal] = await self._review(table_id, deal)
                st.waiting.popleft()
                if st.deals[deal] is not None:
                    await self._send(table_id, st, deal, [st.deals[deal]])
                table = self.manager.tables.get(table_id)
                done = [st.deals[n] for n in sorted(st.deals) if st.deals[n] is not None]
                if not st.waiting and table is not None and table.over and None not in st.sent and done:
                    msg = await self._send(table_id, st, None, done)
                    if self.engine is not None:
                        await asyncio.to_thread(store_scores, self.engine, table_id, msg["players"])
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the score could not be made", table_id)
        finally:
            st.task = None

    async def _review(self, table_id: str, deal: int) -> Any:
        """The review of deal ``deal`` of the table (every player), or ``None`` if it cannot
        be made (the table is gone, the budget refuses it for good, the worker failed)."""
        table = self.manager.tables.get(table_id)
        if table is None or table.match is None:
            return None
        await self._slots.acquire(lambda: self._rank(table_id))
        try:
            budget = score_budget_ms(self.reviews.budget_ms, self._slots.ahead(self._rank(table_id)))
            return await self._review_in_slot(table_id, deal, budget)
        finally:
            self._slots.release()

    def _rank(self, table_id: str) -> int:
        """0 for a table that is gone (nothing to do) or whose match is over and someone watches,
        2 for a table nobody watches (no player's nor spectator's connection: nobody will see its
        score soon), else 1: a match going on (:class:`_Slots`)."""
        table = self.manager.tables.get(table_id)
        if table is None:
            return 0
        if not table.watchers:
            return 2
        return 0 if table.over else 1

    async def _review_in_slot(self, table_id: str, deal: int, budget_ms: float) -> Any:
        """:meth:`_review` once a slot is held, at ``budget_ms`` a decision."""
        table = self.manager.tables.get(table_id)
        if table is None or table.match is None:
            return None
        decisions = await asyncio.to_thread(count_decisions, dumps(table.match), deal=deal)
        await self._tell(table_id, score_progress_message(deal, 0, decisions))

        def progress(done: int, total: int | None) -> None:
            task = asyncio.get_running_loop().create_task(
                self._tell(table_id, score_progress_message(deal, done, total))
            )
            self._telling.add(task)
            task.add_done_callback(self._telling.discard)

        for _ in range(RETRIES):
            table = self.manager.tables.get(table_id)
            if table is None or table.match is None:
                return None
            text = dumps(table.match)
            try:
                review = await self.reviews.run(
                    text,
                    deal=deal,
                    budget_ms=budget_ms,
                    seed=self.reviews.seed,
                    progress=progress,
                    client=f"table:{table_id}",
                    decisions=decisions,
                )
            except BudgetError as exc:
                if exc.code != "server_busy":
                    log.warning("table %s: deal %s is not scored: %s", table_id, deal, exc.code)
                    return None
                await asyncio.sleep(1.0)
                continue
            except Exception:
                log.exception("table %s: deal %s is not scored: the review failed", table_id, deal)
                return None
            return review.deals[0] if review.deals else None
        log.warning("table %s: deal %s is not scored: the review worker stayed busy", table_id, deal)
        return None

    async def _send(self, table_id: str, st: _Scored, deal: int | None, deals: list[Any]) -> dict[str, Any]:
        table = self.manager.tables.get(table_id)
        names = tuple(table.names) if table is not None else ()
        perf = performance(_Deals(names, deals))
        msg = dict(score_message(deal, [{"name": n, **perf[n].to_dict()} for n in names]))
        st.sent[deal] = msg
        await self._tell(table_id, msg)
        return msg

    async def _tell(self, table_id: str, msg: dict[str, Any]) -> None:
        table = self.manager.tables.get(table_id)
        if table is None:
            return
        for p, send in list(table.watchers):
            await self.manager.send_to(table, p, send, msg)
