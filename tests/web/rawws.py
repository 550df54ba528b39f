"""A minimal WebSocket client on a plain socket, for the tests that must control exactly what
is read and when (a client that stops reading, a body streamed in chunks): RFC 6455 framing,
client frames masked, no extensions.  Only ever used against 127.0.0.1."""

from __future__ import annotations

import base64
import os
import select
import socket
import struct
import time

__all__ = ["RawWS", "frame", "CloseFrame"]


def frame(payload: bytes, opcode: int = 1) -> bytes:
    """One masked client frame (FIN set) carrying ``payload``; ``opcode`` 1 text, 2 binary."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    mask = os.urandom(4)
    if n:
        body = (int.from_bytes(payload, "big") ^ int.from_bytes((mask * (n // 4 + 1))[:n], "big")).to_bytes(n, "big")
    else:
        body = b""
    return head + mask + body


class CloseFrame(Exception):
    """The server sent a close frame: ``code`` (``None`` if it gave none) and ``reason``."""

    def __init__(self, code: int | None, reason: str) -> None:
        super().__init__(f"closed with {code} {reason!r}")
        self.code = code
        self.reason = reason


class RawWS:
    """A WebSocket connection to ``ws://127.0.0.1:port{path}``; ``rcvbuf`` sets a small receive
    buffer (before connecting) so that a client that stops reading fills up quickly."""

    def __init__(self, port: int, path: str, *, rcvbuf: int | None = None, timeout: float = 10.0) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(head.decode("latin-1"))

    def send(self, payload: bytes | str, opcode: int | None = None) -> None:
        data = payload.encode() if isinstance(payload, str) else payload
        self.sock.sendall(frame(data, opcode or (1 if isinstance(payload, str) else 2)))

    def _need(self, n: int, deadline: float) -> None:
        while len(self.buf) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no frame in time")
            ready, _, _ = select.select([self.sock], [], [], left)
            if ready:
                chunk = self.sock.recv(1 << 20)
                if not chunk:
                    raise ConnectionError("closed without a close frame")
                self.buf += chunk

    def recv(self, timeout: float = 10.0) -> tuple[int, bytes]:
        """The next frame ``(opcode, payload)``; raises :class:`CloseFrame` for a close frame,
        ``ConnectionError`` if the connection ends without one, ``TimeoutError``."""
        deadline = time.monotonic() + timeout
        self._need(2, deadline)
        b0, b1 = self.buf[0], self.buf[1]
        n, at = b1 & 0x7F, 2
        if n == 126:
            self._need(4, deadline)
            n, at = struct.unpack("!H", self.buf[2:4])[0], 4
        elif n == 127:
            self._need(10, deadline)
            n, at = struct.unpack("!Q", self.buf[2:10])[0], 10
        self._need(at + n, deadline)
        payload, self.buf = self.buf[at : at + n], self.buf[at + n :]
        opcode = b0 & 0x0F
        if opcode == 8:
            code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
            raise CloseFrame(code, payload[2:].decode("utf-8", "replace"))
        return opcode, payload

    def close(self) -> None:
        self.sock.close()
