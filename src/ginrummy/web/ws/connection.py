"""One WebSocket connection of the web table, written once for the game and the lobby sockets:
its bounded outbound queue and writer task, the decoding of its inbound frames, and its
per-connection state (language, chat limiter, address, spectator number).

Each connection has one writer behind a queue of :data:`OUTBOUND_QUEUE` messages: a client that
stops reading fills its own queue and is dropped (close code 4408); it never makes a table wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket

from ..limits import ChatLimiter
from ..protocol.inbound import MAX_MESSAGE_BYTES
from ..texts import WebTranslator

__all__ = ["Connection", "OUTBOUND_QUEUE", "SLOW_CLOSE_SECONDS", "json_text"]

log = logging.getLogger("ginrummy.web")

OUTBOUND_QUEUE = 64
"""Messages that may wait for one connection; a client that lets more pile up is dropped."""

SLOW_CLOSE_SECONDS = 30.0
"""How long a dropped slow reader has to read what its socket already holds before the close
frame 4408 behind it is given up (nothing can reach a client that never reads again)."""


def json_text(msg: Any) -> str:
    """``msg`` as Starlette's ``send_json`` writes it (compact, not ASCII-escaped)."""
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


class Connection:
    """One accepted WebSocket and what the server keeps of it.

    Args:
        ws: the accepted socket.
        tr: the connection's language (``set_lang`` changes it).
        encode: a queued message -> the text frame sent.
        drop_slow: when the queue is full, close the connection with 4408 at once (the game
            socket); otherwise :meth:`send` only raises and the reader closes it (the lobby).
        label: what the log calls the connection (``"table ID"``, ``"lobby"``).
        on_send: called with each message queued (the operator's metrics), or ``None``.

    Attributes:
        address: the client's address (the thinking pool's fair-queue key), or ``None``.
        limiter: the connection's chat limiter.
        watcher: a spectator's number ("spectator 2" in the chat), else ``None``.
        closing: set once the writer stopped or the connection was dropped.
    """

    def __init__(
        self,
        ws: WebSocket,
        tr: WebTranslator,
        encode: Callable[[Any], str],
        *,
        drop_slow: bool,
        label: str,
        on_send: Callable[[Any], None] | None = None,
    ) -> None:
        self.ws = ws
        self.tr = tr
        self.address: str | None = ws.client.host if ws.client else None
        self.limiter = ChatLimiter()
        self.watcher: int | None = None
        self.closing = asyncio.Event()
        self.queue: asyncio.Queue[Any] = asyncio.Queue(OUTBOUND_QUEUE)
        self._encode = encode
        self._drop_slow = drop_slow
        self._label = label
        self._on_send = on_send
        self._drop: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the writer task."""
        self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        try:
            while True:
                msg = await self.queue.get()
                if msg is None:
                    break
                await self.ws.send_text(self._encode(msg))
        except Exception as exc:  # the socket is gone: the reader loop ends too
            log.debug("%s: a connection's writer stopped (%s)", self._label, type(exc).__name__)
        finally:
            if self._drop_slow:
                self.closing.set()

    async def send(self, msg: Any) -> None:
        """Queue ``msg``; raises ``ConnectionError`` when the connection is closing or its queue
        is full (a client that stopped reading: then the game socket is dropped with 4408)."""
        if self.closing.is_set():
            raise ConnectionError("connection closed")
        if self._on_send is not None:
            self._on_send(msg)
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:
            if self._drop_slow:
                self.closing.set()
                log.warning("%s: a connection stopped reading; dropped", self._label)
                self._drop = asyncio.get_running_loop().create_task(self.close_slow())
            raise ConnectionError("too slow") from None

    async def receive(self) -> str | bytes | None:
        """The next inbound message as text (bytes above :data:`MAX_MESSAGE_BYTES` as they came,
        for the size check), or ``None`` once the client disconnected."""
        raw = await self.ws.receive()
        if raw.get("type") == "websocket.disconnect":
            return None
        text = raw.get("text")
        if text is None:
            data = raw.get("bytes") or b""
            return data if len(data) > MAX_MESSAGE_BYTES else data.decode("utf-8", "replace")
        return str(text)

    async def yield_to_writer(self) -> None:
        """Let the writer send queued answers now: messages that arrive together are read without
        a pause, and their answers must not fill the queue of a client that reads."""
        if self.queue.qsize():
            await asyncio.sleep(0)

    async def close_slow(self) -> None:
        """Close a connection that stopped reading with code 4408: its writer (waiting for the
        socket to drain) is cancelled, so the close frame is the next thing written once the
        client reads what its socket already holds (at most :data:`SLOW_CLOSE_SECONDS`)."""
        if self._writer is not None:
            self._writer.cancel()
        try:
            await asyncio.wait_for(
                self.ws.close(code=4408, reason="too slow: messages were not read"), SLOW_CLOSE_SECONDS
            )
        except Exception as exc:
            log.debug("%s: the close frame 4408 was not sent (%s)", self._label, type(exc).__name__)

    async def finish(self) -> None:
        """Stop the writer once the reader is done: the close frame 4408 of a dropped connection
        first, then what is queued (up to 5 seconds)."""
        if self._drop is not None:  # the close frame 4408 first: returning now would close without it
            await asyncio.wait([self._drop])
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)
        if self._writer is None:
            return
        if self.closing.is_set():
            self._writer.cancel()
        # asyncio.wait, not wait_for: a cancelled writer must not raise out of the handler
        await asyncio.wait([self._writer], timeout=5)

    def cancel(self) -> None:
        """Stop the writer now (the lobby socket's end)."""
        if self._writer is not None:
            self._writer.cancel()
