"""Limits on the connections ``gin serve`` holds (issue 27, item 5): a deadline for a request's
headers, a cap of open connections per client address and in all, and the open-files limit.

uvicorn closes a kept-alive connection that sends nothing after a response
(``timeout_keep_alive``), but nothing closes a connection that never finishes its request line
or headers, nor one that sends nothing at all: each holds a file descriptor for ever, and about
1,000 of them (the usual open-files limit) stop every other visitor's requests.

:func:`guarded_protocols` makes subclasses of uvicorn's HTTP and WebSocket protocol classes
that share one :class:`ConnectionGuard`:

* a connection whose request headers are not complete :attr:`ConnectionGuard.header_seconds`
  after it opened (or after the first byte of its next request) is closed without an answer;
* a connection from an address that already holds :attr:`ConnectionGuard.per_address` open
  connections (HTTP and WebSocket alike), or beyond :attr:`ConnectionGuard.total` in all, is
  answered at once ``503`` with ``Retry-After`` and a JSON error of code
  ``too_many_connections``, and closed (nothing of its request is read).

:func:`raise_open_files_limit` raises the process's soft ``RLIMIT_NOFILE`` toward the hard one.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Callable
from typing import Any

__all__ = [
    "RateLimiter",
    "ConnectionGuard",
    "guarded_protocols",
    "raise_open_files_limit",
    "REFUSAL_RETRY_SECONDS",
    "ChatLimiter",
    "CHAT_BURST",
    "CHAT_WINDOW",
]

REFUSAL_RETRY_SECONDS = 10
"""The ``Retry-After`` of a connection refused for the caps (seconds)."""


class ConnectionGuard:
    """The open connections of one server by client address, and the caps on them.

    Args:
        per_address: the most connections one client address may hold open (0: no cap).
        total: the most connections open in all (0: no cap).
        header_seconds: seconds a connection has to send its request line and headers (and the
            same for each later request on a kept-alive connection, from its first byte);
            0 for no deadline.
    """

    def __init__(self, per_address: int, total: int, header_seconds: float) -> None:
        self.per_address = per_address
        self.total = total
        self.header_seconds = header_seconds
        self.by_address: dict[str, int] = {}
        self.held: dict[int, str] = {}
        """``id(transport)`` -> client address of each counted connection."""
        self.refused = 0
        self.timed_out = 0

    def admit(self, transport: Any, address: str) -> bool:
        """Count ``transport`` as open for ``address`` and say whether the caps allow it (a
        refused one is not counted).  Idempotent for one transport."""
        if id(transport) in self.held:
            return True
        if (self.per_address and self.by_address.get(address, 0) >= self.per_address) or (
            self.total and len(self.held) >= self.total
        ):
            self.refused += 1
            return False
        self.held[id(transport)] = address
        self.by_address[address] = self.by_address.get(address, 0) + 1
        return True

    def release(self, transport: Any) -> None:
        """``transport`` is closed: it no longer counts.  Idempotent."""
        address = self.held.pop(id(transport), None)
        if address is not None:
            left = self.by_address.get(address, 1) - 1
            if left > 0:
                self.by_address[address] = left
            else:
                self.by_address.pop(address, None)


REFUSAL_LINGER_SECONDS = 1.0
"""How long a refused connection stays open after its answer, its input dropped."""


def _refusal() -> bytes:
    body = json.dumps(
        {
            "error": "too many connections from your address; close some and try again in "
            f"{REFUSAL_RETRY_SECONDS} seconds",
            "code": "too_many_connections",
        }
    ).encode()
    return (
        b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\n"
        b"retry-after: "
        + str(REFUSAL_RETRY_SECONDS).encode()
        + b"\r\ncontent-length: "
        + str(len(body)).encode()
        + b"\r\n\r\n"
        + body
    )


def _address(transport: Any) -> str:
    peer = transport.get_extra_info("peername")
    if isinstance(peer, (tuple, list)) and peer:
        return str(peer[0])
    return str(peer or "?")


def guarded_protocols(
    http_class: type[asyncio.Protocol], ws_class: type[asyncio.Protocol] | None, guard: ConnectionGuard
) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol] | None]:
    """Subclasses of uvicorn's ``http_class`` (httptools or h11) and ``ws_class`` (any of its
    WebSocket protocols) that apply ``guard``; pass them to ``uvicorn.Config(http=..., ws=...)``.

    A WebSocket connection keeps its count after the upgrade (the WebSocket protocol releases
    it when it closes)."""

    class GuardedHTTP(http_class):  # type: ignore[valid-type,misc]
        _deadline: asyncio.TimerHandle | None = None
        _refused = False

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            if not guard.admit(transport, _address(transport)):
                # the answer, then no more: what the client sends meanwhile is dropped, and the
                # socket closes a moment later (closing at once with its request unread would
                # reset the connection before the client reads the answer)
                self._refused = True
                transport.write(_refusal())
                if transport.can_write_eof():
                    transport.write_eof()
                asyncio.get_running_loop().call_later(REFUSAL_LINGER_SECONDS, transport.close)
                return
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            guard.release(self.transport)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._refused or self.transport.is_closing():
                return
            super().data_received(data)
            if self.transport.get_protocol() is not self or self._in_request():
                self._disarm()  # upgraded to a WebSocket, or the headers are complete
            elif self._deadline is None:
                self._arm()  # the first bytes of a later request on a kept-alive connection

        def _in_request(self) -> bool:
            cycle = getattr(self, "cycle", None)
            return cycle is not None and not cycle.response_complete

        def _arm(self) -> None:
            if guard.header_seconds > 0 and self._deadline is None:
                self._deadline = asyncio.get_running_loop().call_later(guard.header_seconds, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            self._deadline = None
            if self.transport.get_protocol() is not self or self._in_request():
                return
            if not self.transport.is_closing():
                guard.timed_out += 1
                self.transport.close()

    if ws_class is None:
        return GuardedHTTP, None

    class CountedWS(ws_class):  # type: ignore[valid-type,misc]
        def connection_made(self, transport: Any) -> None:
            self._guarded_transport = transport
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            guard.release(self._guarded_transport)
            super().connection_lost(exc)

    return GuardedHTTP, CountedWS


def raise_open_files_limit(wanted: int) -> tuple[int, int]:
    """Raise the process's soft open-files limit (``RLIMIT_NOFILE``) to ``wanted``, at most to
    the hard limit (never lower it).  Returns ``(soft, hard)`` after, 0 for no limit (also
    where the system has none: not Unix)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return 0, 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # pragma: no cover
            pass
    infinite = resource.RLIM_INFINITY
    return (0 if soft == infinite else soft), (0 if hard == infinite else hard)


class RateLimiter:
    """At most ``limit`` events per key in any ``window`` seconds (a sliding window kept in
    memory; ``clock`` returns seconds, ``time.monotonic`` by default)."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._seen: dict[str, deque[float]] = {}

    def _events(self, key: str) -> deque[float]:
        now = self.clock()
        q = self._seen.setdefault(key, deque())
        while q and q[0] <= now - self.window:
            q.popleft()
        if not q:
            self._seen.pop(key, None)
            if len(self._seen) > 100_000:  # bounded memory under a flood of names
                self._seen.clear()
            q = self._seen.setdefault(key, deque())
        return q

    def retry_after(self, key: str) -> int:
        """0 if another event of ``key`` is allowed now, else whole seconds to wait."""
        q = self._events(key)
        if len(q) < self.limit:
            return 0
        return max(1, int(q[0] + self.window - self.clock()) + 1)

    def hit(self, key: str) -> None:
        """Count one event of ``key``."""
        self._events(key).append(self.clock())


CHAT_BURST = 5
"""Chat messages a connection may send in :data:`CHAT_WINDOW` seconds (the table's and the lobby's)."""
CHAT_WINDOW = 10.0


class ChatLimiter:
    """At most :data:`CHAT_BURST` messages per :data:`CHAT_WINDOW` seconds of :attr:`clock`
    (seconds, ``time.monotonic``; a test may stop it)."""

    clock: Callable[[], float] = staticmethod(time.monotonic)

    def __init__(self) -> None:
        self.times: deque[float] = deque()

    def allow(self) -> bool:
        now = self.clock()
        while self.times and now - self.times[0] > CHAT_WINDOW:
            self.times.popleft()
        if len(self.times) >= CHAT_BURST:
            return False
        self.times.append(now)
        return True
