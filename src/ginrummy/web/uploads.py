"""Limits on record uploads (issue 27, item 4; ``docs/protocol.md``, "Uploads").

``POST /api/replays`` and ``POST /api/reviews`` take a record of up to 512 KiB and parse and
replay it.  Eight clients uploading 471 KB records for 25 s took the server from 88 to 180 MB and
everyone's ping p99 to 1.5 s.  :class:`UploadGate`, an ASGI middleware on those paths:

* lets at most :data:`MAX_UPLOADS` uploads be read and parsed at once; one more is answered
  ``503 server_busy`` with ``Retry-After`` at once (nothing of its body is read);
* reads the body itself, chunk by chunk, refusing it ``413 too_large`` as soon as it passes the
  limit (a chunked body has no ``Content-Length`` to refuse it by);
* gives the whole body :data:`UPLOAD_SECONDS` to arrive: one that trickles in is answered
  ``408 timeout`` and its slot freed.

The body read is handed to the app as one message, so the routes are unchanged.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Collection, MutableMapping
from typing import Any

from ..errors import Msg
from .texts import W_

__all__ = ["UploadGate", "MAX_UPLOADS", "UPLOAD_SECONDS", "UPLOAD_PATHS"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_UPLOADS = 2
"""Uploads read and parsed at once (one per core of the reference machine); more wait for none:
they are answered 503 at once with ``Retry-After: 2``."""

UPLOAD_SECONDS = 20.0
"""The time a whole upload body has to arrive (512 KiB in 20 s is 26 KB/s), in seconds."""

UPLOAD_PATHS = frozenset({"/api/replays", "/api/reviews"})
"""The paths whose ``POST`` bodies are uploads."""


class UploadGate:
    """ASGI middleware: the upload limits of the module docstring for ``POST`` to ``paths``.

    Args:
        app: the ASGI app.
        limit: the largest body, in bytes (``MAX_RECORD_BYTES``).
        message: ``message(scope, msg)``: the text of the web :class:`~ginrummy.errors.Msg`
            ``msg`` in the request's language.
        paths, max_uploads, seconds: :data:`UPLOAD_PATHS`, :data:`MAX_UPLOADS`, :data:`UPLOAD_SECONDS`.
        clock: a monotonic clock in seconds.
    """

    def __init__(
        self,
        app: ASGIApp,
        limit: int,
        message: Callable[[Scope, Msg], str],
        paths: Collection[str] = UPLOAD_PATHS,
        max_uploads: int = MAX_UPLOADS,
        seconds: float = UPLOAD_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.limit = limit
        self.message = message
        self.paths = frozenset(paths)
        self.max_uploads = max_uploads
        self.seconds = seconds
        self.clock = clock
        self.active = 0
        """Uploads being read or parsed now."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST" or scope.get("path") not in self.paths:
            await self.app(scope, receive, send)
            return
        if self.active >= self.max_uploads:
            await self._answer(
                scope,
                send,
                503,
                "server_busy",
                W_("the server is reading {count} uploads already; try again in a few seconds", count=self.max_uploads),
                retry_after=2,
            )
            return
        self.active += 1
        try:
            body = await self._read(scope, receive, send)
            if body is None:
                return
            sent = False

            async def replay_body() -> Message:
                nonlocal sent
                if not sent:
                    sent = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()  # after the body: only a disconnect comes

            await self.app(scope, replay_body, send)
        finally:
            self.active -= 1

    async def _read(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or ``None`` once an error is answered (too large, too slow, gone)."""
        chunks: list[bytes] = []
        seen = 0
        deadline = self.clock() + self.seconds
        while True:
            left = deadline - self.clock()
            try:
                if left <= 0:
                    raise TimeoutError
                msg = await asyncio.wait_for(receive(), left)
            except TimeoutError:
                await self._answer(
                    scope,
                    send,
                    408,
                    "timeout",
                    W_(
                        "the upload took too long: a body must arrive within {seconds} s",
                        seconds=int(self.seconds) if float(self.seconds).is_integer() else self.seconds,
                    ),
                )
                return None
            if msg["type"] == "http.disconnect":
                return None  # no one hears an answer
            chunk = msg.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await self._answer(
                    scope,
                    send,
                    413,
                    "too_large",
                    W_("request body too large; the limit is {limit} bytes", limit=self.limit),
                )
                return None
            chunks.append(chunk)
            if not msg.get("more_body", False):
                return b"".join(chunks)

    async def _answer(self, scope: Scope, send: Send, status: int, code: str, msg: Msg, retry_after: int = 0) -> None:
        body = json.dumps({"error": self.message(scope, msg), "code": code}, ensure_ascii=False).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"connection", b"close"),
            (b"content-length", str(len(body)).encode()),
        ]
        if retry_after:
            headers.append((b"retry-after", str(retry_after).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
