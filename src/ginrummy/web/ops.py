"""The operator's view of a running ``gin serve`` (issue 30; docs/deploy.md, "Health and metrics").

``GET /healthz``
    ``200 {"status": "alive"}`` while the process serves requests (no database access).
``GET /readyz``
    ``200 {"status": "ready", "revision": R}`` when the database answers and its schema is at
    this version's newest migration; else ``503 {"status": "not_ready", "reason": ...}`` (the
    reason names no URL or password).
``GET /metrics``
    Prometheus text (``prometheus-client``), only with ``gin serve --metrics``, and then only
    to a client at a loopback address or one of ``--metrics-allow`` (addresses or networks);
    otherwise ``404``, the answer to any unknown page.  Metrics (:class:`Metrics`):

    - ``gin_live_tables``: tables in memory whose match is not over (gauge);
    - ``gin_connections``: open table WebSocket connections, seats and spectators (gauge);
    - ``gin_moves_acked_total``: ``action`` messages answered by an ``ack`` (counter);
    - ``gin_ack_seconds``: from reading an ``action`` to queueing its ``ack`` (histogram);
    - ``gin_commit_seconds``: one group commit of steps to the database (histogram);
    - ``gin_errors_total{code}``: ``error`` messages sent on table connections, by code;
    - ``gin_review_jobs``: the expert's reviews queued or running (gauge).

Each app has its own registry, so several apps in one process (the tests) do not mix.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

__all__ = ["Metrics", "ops_routes", "parse_allow"]

_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Histogram buckets in seconds: an ack or a commit takes milliseconds; seconds mean trouble."""


class _Live:
    """A collector whose gauges are read at scrape time from ``read()``: ``{name: (help, value)}``."""

    def __init__(self, read: Callable[[], dict[str, tuple[str, float]]]) -> None:
        self.read = read

    def collect(self) -> Iterable[GaugeMetricFamily]:
        for name, (doc, value) in self.read().items():
            yield GaugeMetricFamily(name, doc, value=value)


class Metrics:
    """The counters and histograms of one app (see the module docstring for each metric).

    ``manager``: the :class:`~ginrummy.web.room.tables.TableManager` whose tables and connections
    are counted at scrape time; ``reviews``: the review service (its ``running`` count), or ``None``.
    """

    def __init__(self, manager: Any, reviews: Any = None) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.acked = Counter("gin_moves_acked", "Action messages answered by an ack", registry=self.registry)
        self.ack_seconds = Histogram(
            "gin_ack_seconds",
            "From reading an action message to queueing its ack, seconds",
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.commit_seconds = Histogram(
            "gin_commit_seconds",
            "One group commit of steps to the database, seconds",
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.errors = Counter(
            "gin_errors", "Error messages sent on table connections, by code", ["code"], registry=self.registry
        )
        self.manager = manager
        self.reviews = reviews
        self.registry.register(_Live(self._live))

    def _live(self) -> dict[str, tuple[str, float]]:
        tables = list(self.manager.tables.values())
        live = sum(1 for t in tables if t.match is None or not t.match.finished)
        connections = sum(len(t.watchers) for t in tables)
        out = {
            "gin_live_tables": ("Tables in memory whose match is not over", float(live)),
            "gin_connections": ("Open table WebSocket connections (seats and spectators)", float(connections)),
        }
        running = getattr(self.reviews, "running", None)
        if isinstance(running, int):
            out["gin_review_jobs"] = ("The expert's reviews queued or running", float(running))
        return out

    def move_acked(self, started: float) -> None:
        """An ``action`` read at ``started`` (``time.perf_counter()``) was acknowledged now."""
        self.acked.inc()
        self.ack_seconds.observe(time.perf_counter() - started)

    def sent(self, msg: Any) -> None:
        """A message queued for a table connection: an ``error`` is counted by its code."""
        if type(msg) is dict and msg.get("type") == "error":
            self.errors.labels(str(msg.get("code", "?"))[:40]).inc()

    def committed(self, seconds: float) -> None:
        """One group commit took ``seconds``."""
        self.commit_seconds.observe(seconds)

    def text(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)


def parse_allow(items: Sequence[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """``--metrics-allow`` values (``10.0.0.5``, ``10.0.0.0/24``, ``::1``) as networks.  Raises
    ``ValueError`` naming the first one that is not an address or network."""
    out = []
    for item in items:
        try:
            out.append(ipaddress.ip_network(item.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{item!r} is not an IP address or network (e.g. 10.0.0.5 or 10.0.0.0/24)") from None
    return out


def _allowed(host: str | None, allow: Sequence[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    try:
        addr = ipaddress.ip_address(host or "")
    except ValueError:
        return False
    if addr.is_loopback:
        return True
    return any(addr in net for net in allow)


def ops_routes(
    store: Any, metrics: Metrics | None, allow: Sequence[str] = (), not_found: Callable[..., Any] | None = None
) -> list[Route]:
    """The routes ``/healthz``, ``/readyz`` and ``/metrics`` (see the module docstring).
    ``metrics``: ``None`` when ``--metrics`` is off (``/metrics`` then answers as an unknown
    page, through ``not_found(request, exc)``); ``allow``: ``--metrics-allow`` values."""
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException

    networks = parse_allow(allow)

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "alive"}, headers={"Cache-Control": "no-store"})

    def _ready() -> tuple[bool, str]:
        from sqlalchemy import text

        from .db.migrations import current_revision, head_revision

        try:
            with store.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
            now, head = current_revision(store.engine), head_revision()
        except Exception as exc:
            return False, f"the database does not answer ({type(exc).__name__})"
        if now != head:
            return False, f"the database is at revision {now or 'none'}, this version needs {head}: run gin db upgrade"
        return True, head

    async def readyz(request: Request) -> Response:
        ok, said = await run_in_threadpool(_ready)
        body = {"status": "ready", "revision": said} if ok else {"status": "not_ready", "reason": said}
        return JSONResponse(body, status_code=200 if ok else 503, headers={"Cache-Control": "no-store"})

    async def metrics_page(request: Request) -> Response:
        if metrics is None or not _allowed(request.client.host if request.client else None, networks):
            if not_found is not None:
                return await not_found(request, HTTPException(404))
            return Response("Not Found", status_code=404)
        return Response(metrics.text(), media_type=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"})

    return [Route("/healthz", healthz), Route("/readyz", readyz), Route("/metrics", metrics_page)]
