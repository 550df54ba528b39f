"""The budgets of the expert's review (issue 27, item 3; ``docs/protocol.md``, "Review budgets").

The server has one review worker (:mod:`ginrummy.web.room.review_service`).  Before this module, four
uploads of a 446-deal record with seeds 1 to 4 held it for 3.5 hours, and every table review
answered ``server_busy`` meanwhile.  :class:`ReviewBudget` holds the rules that stop that, as a
pure class (no clock, no I/O: every method that needs the time is given ``now``, in seconds of
any monotonic clock), so they are tested without a server:

* **Cost.**  A job costs ``decisions x budget_ms`` milliseconds of the worker's budget
  (:meth:`ReviewBudget.cost`), known before it runs (the decisions of the record are counted
  when it is checked, :func:`ginrummy.analysis.review.count_decisions`).
* **Per request.**  A job costing more than :data:`MAX_REQUEST_MS` is refused (``413
  too_large``, naming the most decisions allowed at the asked budget).
* **Per client and hour.**  One client (``account:ID`` when signed in, else ``address:IP``:
  :func:`client_key`) may start jobs costing at most :data:`MAX_CLIENT_MS_PER_HOUR` in any
  :data:`WINDOW_SECONDS`; more is refused (``429 rate_limited`` with ``Retry-After``).  A
  review that is kept or already running costs nothing to ask again: it is one job.
* **Fair order.**  Queued jobs are served round-robin by client (:meth:`ReviewBudget.push`,
  :meth:`ReviewBudget.pop`): one client's four jobs take turns with everyone else's, table
  reviews and replay reviews alike.  At most :data:`MAX_QUEUED_PER_CLIENT` queued per client
  and the service's ``max_jobs`` in all (``server_busy`` past them).
* **Abandoned jobs.**  A replay review that no one has polled for :data:`IDLE_SECONDS` is
  cancelled, queued or running (:meth:`ReviewBudget.idle`); its worker is freed.
* **The table's score under load.**  The background score of a deal at the table
  (:mod:`ginrummy.web.learning.table_scores`) is reviewed at :func:`score_budget_ms` of the
  backlog: the full budget while few deals wait, less as more wait, so the worker keeps up with
  20 busy tables (``docs/design-notes.md``, "The score under load"); the score says so (its
  ``samples``, a wider interval: :func:`ginrummy.analysis.performance.rating_estimate`).
"""

from __future__ import annotations

import math
from collections import OrderedDict, deque
from collections.abc import Hashable
from typing import Any

from ..analysis.review import MIN_SAMPLES, SAMPLES_PER_MS
from ..errors import Msg
from .errors import WebError
from .texts import W_

__all__ = [
    "ReviewBudget",
    "BudgetError",
    "client_key",
    "MAX_REQUEST_MS",
    "MAX_CLIENT_MS_PER_HOUR",
    "WINDOW_SECONDS",
    "MAX_QUEUED_PER_CLIENT",
    "IDLE_SECONDS",
    "SCORE_BUDGET_STEPS",
    "score_budget_ms",
]

MAX_REQUEST_MS = 120_000.0
"""The largest cost of one review, in milliseconds of budget (decisions x ``budget_ms``): two
minutes of the worker, so a table review never waits behind one job for much longer than that.
At the largest budget (400 ms) that is 300 decisions, at the default (100 ms) 1,200."""

MAX_CLIENT_MS_PER_HOUR = 600_000.0
"""The most budget one client may start in any :data:`WINDOW_SECONDS`: ten minutes of the worker
an hour (five of the largest reviews)."""

WINDOW_SECONDS = 3600.0
"""The sliding window of :data:`MAX_CLIENT_MS_PER_HOUR`, in seconds."""

MAX_QUEUED_PER_CLIENT = 2
"""Reviews one client may have queued or running at once; one more is ``server_busy``."""

IDLE_SECONDS = 30.0
"""A replay review not polled for this long is cancelled (the page polls every 0.4 s)."""

SCORE_BUDGET_STEPS: tuple[tuple[int, float], ...] = ((2, 1.0), (6, 0.5))
"""``(most, share)``: a table score whose backlog (:func:`score_budget_ms`) is at most ``most``
deals is reviewed at ``share`` of the server's budget a decision; past the last step, at the
floor (the budget of the fewest sampled deals, ``MIN_SAMPLES``)."""

MAX_CLIENTS = 100_000
"""Clients whose spending is remembered; past it the oldest are forgotten (bounded memory)."""


def client_key(address: str | None, account_id: int | None = None) -> str:
    """Whose budget a request spends: ``"account:ID"`` for a signed-in account, else
    ``"address:IP"`` (``"address:"`` when the address is unknown)."""
    return f"account:{account_id}" if account_id is not None else f"address:{address or ''}"


class BudgetError(WebError):
    """A review refused by its budget (a :class:`~ginrummy.web.errors.WebError`, the web's one
    error type): ``code`` ``too_large``, ``rate_limited`` or ``server_busy``, ``status`` (413,
    429, 503: the code's own in :data:`~ginrummy.web.errors.HTTP_STATUS`), ``retry_after``
    (whole seconds, or 0) and ``message`` (a :class:`~ginrummy.errors.Msg` of the web domain)."""

    message: Msg

    def __init__(self, code: str, status: int, message: Msg, retry_after: int = 0) -> None:
        super().__init__(code, message, retry_after=retry_after)
        assert status == self.status, (code, status)  # one code -> status table (web/errors.py)


class ReviewBudget:
    """The ledger, the bounds and the fair queue of the review worker (module docstring).

    Args:
        max_request_ms: :data:`MAX_REQUEST_MS`.
        max_client_ms: :data:`MAX_CLIENT_MS_PER_HOUR` (per ``window`` seconds).
        window: :data:`WINDOW_SECONDS`.
        max_queued: jobs queued or running in all (the service's ``max_jobs``).
        max_queued_per_client: :data:`MAX_QUEUED_PER_CLIENT`.
        idle_seconds: :data:`IDLE_SECONDS`.
    """

    def __init__(
        self,
        max_request_ms: float = MAX_REQUEST_MS,
        max_client_ms: float = MAX_CLIENT_MS_PER_HOUR,
        window: float = WINDOW_SECONDS,
        max_queued: int = 8,
        max_queued_per_client: int = MAX_QUEUED_PER_CLIENT,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        self.max_request_ms = max_request_ms
        self.max_client_ms = max_client_ms
        self.window = window
        self.max_queued = max_queued
        self.max_queued_per_client = max_queued_per_client
        self.idle_seconds = idle_seconds
        self._spent: OrderedDict[str, deque[tuple[float, float]]] = OrderedDict()  # client: (time, cost)
        self._queues: OrderedDict[str, deque[Hashable]] = OrderedDict()  # client: its queued jobs; turn order
        self._owner: dict[Hashable, str] = {}  # every job queued or running: its client
        self._polled: dict[Hashable, float] = {}  # watched jobs: when last polled

    # -- cost and ledger ------------------------------------------------------------------

    @staticmethod
    def cost(decisions: int, budget_ms: float) -> float:
        """The cost of a review of ``decisions`` decisions at ``budget_ms`` each, in ms."""
        return float(decisions) * float(budget_ms)

    def check_request(self, decisions: int, budget_ms: float) -> None:
        """Raise :class:`BudgetError` ``too_large`` (413) if one review of ``decisions``
        decisions at ``budget_ms`` costs more than ``max_request_ms``."""
        if self.cost(decisions, budget_ms) > self.max_request_ms:
            most = int(self.max_request_ms // budget_ms)
            raise BudgetError(
                "too_large",
                413,
                W_(
                    "this review has {decisions} decisions; at {budget} ms a decision one review may have at most "
                    "{limit}: ask for one deal (deal=N) or a smaller budget_ms",
                    decisions=decisions,
                    budget=_num(budget_ms),
                    limit=most,
                ),
            )

    def _events(self, client: str, now: float) -> deque[tuple[float, float]]:
        q = self._spent.get(client)
        if q is None:
            q = self._spent[client] = deque()
            while len(self._spent) > MAX_CLIENTS:
                self._spent.popitem(last=False)
        while q and q[0][0] <= now - self.window:
            q.popleft()
        return q

    def spent(self, client: str, now: float) -> float:
        """What ``client`` has started in the last ``window`` seconds before ``now``, in ms."""
        return sum(c for _, c in self._events(client, now))

    def retry_after(self, client: str, cost: float, now: float) -> int:
        """0 if ``client`` may start a job of ``cost`` now, else the whole seconds until it may."""
        q = self._events(client, now)
        used = sum(c for _, c in q)
        if used + cost <= self.max_client_ms:
            return 0
        for t, c in q:  # the oldest spending leaves the window first
            used -= c
            if used + cost <= self.max_client_ms:
                return max(1, math.ceil(t + self.window - now))
        return max(1, math.ceil(self.window))  # pragma: no cover - a single job is within the request bound

    def charge(self, client: str, cost: float, now: float) -> None:
        """Count a job of ``cost`` (ms) started by ``client`` at ``now``.  Raises
        :class:`BudgetError` ``rate_limited`` (429, with ``retry_after``) instead, counting
        nothing, when it would take the client past ``max_client_ms`` in the window."""
        wait = self.retry_after(client, cost, now)
        if wait:
            raise BudgetError(
                "rate_limited",
                429,
                W_(
                    "you have asked for {used} s of reviews in the last hour; the limit is {limit} s an hour: "
                    "try again in {retry} s",
                    used=_num(self.spent(client, now) / 1000),
                    limit=_num(self.max_client_ms / 1000),
                    retry=wait,
                ),
                retry_after=wait,
            )
        self._events(client, now).append((now, cost))
        self._spent.move_to_end(client)

    # -- the fair queue ---------------------------------------------------------------------

    @property
    def jobs(self) -> int:
        """Jobs queued or running."""
        return len(self._owner)

    def admit(self, client: str) -> None:
        """Raise :class:`BudgetError` ``server_busy`` (503) if no job of ``client`` may be
        queued now (``max_queued`` in all, or ``max_queued_per_client`` of its own)."""
        if len(self._owner) >= self.max_queued:
            raise BudgetError(
                "server_busy", 503, W_("the server is busy with other reviews; try again in a minute"), retry_after=60
            )
        if sum(1 for c in self._owner.values() if c == client) >= self.max_queued_per_client:
            raise BudgetError(
                "server_busy",
                503,
                W_(
                    "you have {count} reviews queued or running already; wait for one to finish",
                    count=self.max_queued_per_client,
                ),
                retry_after=10,
            )

    def push(self, client: str, job: Hashable) -> None:
        """Queue ``job`` (any hashable, unique) of ``client``.  Call :meth:`admit` first."""
        self._owner[job] = client
        self._queues.setdefault(client, deque()).append(job)

    def pop(self) -> Hashable | None:
        """The next job to run (``None``: nothing queued): the first of the client whose turn it
        is; that client then goes to the back of the turn order.  The job stays counted in
        :attr:`jobs` until :meth:`done`."""
        while self._queues:
            client, q = next(iter(self._queues.items()))
            del self._queues[client]
            if q:
                job = q.popleft()
                if q:
                    self._queues[client] = q  # its next job waits for everyone else's turn
                return job
        return None

    def done(self, job: Hashable) -> None:
        """``job`` has ended (run, failed or cancelled): it no longer counts, queued or not."""
        client = self._owner.pop(job, None)
        self._polled.pop(job, None)
        if client is None:
            return
        q = self._queues.get(client)
        if q is not None and job in q:
            q.remove(job)
            if not q:
                del self._queues[client]

    def queued(self, job: Hashable) -> bool:
        """Whether ``job`` waits in the queue (not yet popped)."""
        client = self._owner.get(job)
        return client is not None and job in self._queues.get(client, ())

    # -- abandoned jobs ---------------------------------------------------------------------

    def polled(self, job: Hashable, now: float) -> None:
        """Someone asked about ``job`` at ``now``: it is watched (:meth:`idle` drops it only
        after ``idle_seconds`` without this)."""
        if job in self._owner:
            self._polled[job] = now

    def idle(self, now: float) -> list[Hashable]:
        """The watched jobs no one polled for ``idle_seconds`` before ``now``, to cancel: each is
        returned once (it is no longer watched)."""
        out = [job for job, t in self._polled.items() if now - t >= self.idle_seconds]
        for job in out:
            del self._polled[job]
        return out


def score_budget_ms(base_ms: float, backlog: int) -> float:
    """The budget a decision (ms) of the table score of a deal, given the server's ``base_ms``
    (``--review-budget-ms``) and ``backlog``, the deals to be scored before it or with it (those
    being reviewed, itself included, and those waiting that go first or with it): by
    :data:`SCORE_BUDGET_STEPS`, ``base_ms`` for a backlog of at most 2, half of it up to 6,
    else the floor ``MIN_SAMPLES / SAMPLES_PER_MS`` (32 ms: 16 sampled deals, the fewest a
    review gives a decision, so no smaller budget is quicker); never more than ``base_ms``.  At
    100 ms: 100, 50, 32.  Raises ``ValueError`` for a ``base_ms`` not > 0 or a negative
    ``backlog``."""
    if isinstance(base_ms, bool) or not isinstance(base_ms, (int, float)) or not math.isfinite(base_ms) or base_ms <= 0:
        raise ValueError(f"base_ms is a number > 0, not {base_ms!r}")
    if isinstance(backlog, bool) or not isinstance(backlog, int) or backlog < 0:
        raise ValueError(f"backlog is an int >= 0, not {backlog!r}")
    floor = min(float(base_ms), MIN_SAMPLES / SAMPLES_PER_MS)
    for most, share in SCORE_BUDGET_STEPS:
        if backlog <= most:
            return max(floor, float(base_ms) * share)
    return floor


def _num(x: float) -> Any:
    """``x`` as an int when whole (``400``, not ``400.0``), else rounded to one decimal."""
    return int(x) if float(x).is_integer() else round(float(x), 1)
