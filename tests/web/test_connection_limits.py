"""Connection limits of a real ``gin serve`` on 127.0.0.1 (issue 27, item 5): a connection that
never finishes its request line or headers is closed after ``--header-timeout``; one address
holds at most ``--max-per-address`` connections (HTTP and WebSocket alike), the next
is answered 503 ``too_many_connections`` with ``Retry-After``, while another address (127.0.0.2,
any 127/8 address reaches the loopback) is served.  Every wait is bounded; no time is asserted."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from .test_hostile_server import free_port

GIN = [sys.executable, "-m", "ginrummy"]
CAP = 12
WAIT = 30.0  # the longest wait for a close or an answer (generous: a loaded machine)


class Server:
    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.log = tmp / "serve.log"
        self._out = self.log.open("wb")
        self.proc = subprocess.Popen(
            GIN
            + [
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                f"sqlite:///{tmp / 'gin.sqlite3'}",
                "--bot-delay",
                "0",
                "--log-level",
                "warning",
                "--header-timeout",
                "1",
                "--max-per-address",
                str(CAP),
            ],
            stdout=self._out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url("/api/options"), timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
            if self.proc.poll() is not None:
                break
        self.stop()
        raise AssertionError(f"gin serve did not start: {self.log.read_text()}")

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        self._out.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    s = Server(tmp_path_factory.mktemp("conn"))
    yield s
    s.stop()


def _connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def _read_all(s: socket.socket) -> bytes:
    """Everything the server sends until it closes (at most :data:`WAIT` seconds)."""
    s.settimeout(WAIT)
    out = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            return out
        out += chunk


def _get(port: int, source: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
    """``GET /api/options`` on a fresh connection from ``source``: (status, headers, body)."""
    with contextlib.closing(_connect(port, source)) as s:
        s.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        raw = _read_all(s)
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    return int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize(
    "sent",
    [b"", b"GET /api/options HT", b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n"],
    ids=["nothing", "half a request line", "headers never ended"],
)
def test_a_connection_that_never_finishes_its_headers_is_closed(server, sent):
    with contextlib.closing(_connect(server.port)) as s:
        s.sendall(sent)
        assert _read_all(s) == b""  # closed without an answer (on main: never closed)


def test_a_kept_alive_connection_whose_next_request_stalls_is_closed(server):
    with contextlib.closing(_connect(server.port)) as s:
        s.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        s.settimeout(WAIT)
        first = s.recv(65536)
        assert first.startswith(b"HTTP/1.1 200")
        s.sendall(b"GET /api/options HTTP/1.1\r\nHo")
        rest = _read_all(s)
        assert b"HTTP/1.1" not in rest  # closed, the second request never answered


def test_a_slow_but_complete_request_is_answered(server):
    with contextlib.closing(_connect(server.port)) as s:
        s.sendall(b"GET /api/options HTTP/1.1\r\n")
        time.sleep(0.3)
        s.sendall(b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert _read_all(s).startswith(b"HTTP/1.1 200")


def test_one_address_at_its_cap_is_refused_and_another_address_is_served(server):
    held = [_connect(server.port) for _ in range(CAP)]
    try:
        time.sleep(0.2)  # let the server accept them all (none is answered: no time is asserted)
        status, headers, body = _get(server.port)
        assert status == 503
        assert headers["retry-after"] == "10"
        assert json.loads(body)["code"] == "too_many_connections"
        status, _, body = _get(server.port, "127.0.0.2")
        assert status == 200 and b"presets" in body
    finally:
        for s in held:
            s.close()
    # the header deadline (1 s) or the close frees the address's count
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if _get(server.port)[0] == 200:
            break
        time.sleep(0.2)
    assert _get(server.port)[0] == 200


def test_websocket_connections_count_toward_the_cap_until_they_close(server):
    r = httpx.post(
        server.url("/api/tables"),
        json={
            "preset": "standard",
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}],
            "public": True,
        },
    )
    assert r.status_code == 201, r.text
    url = f"ws://127.0.0.1:{server.port}/ws/table/{r.json()['id']}?watch=1"

    async def go() -> tuple[int, int]:
        sockets: list[Any] = []
        try:
            for _ in range(CAP):
                ws = await websockets.connect(url)
                await asyncio.wait_for(ws.recv(), WAIT)
                sockets.append(ws)
            await asyncio.sleep(1.5)  # past the header deadline: an upgraded connection is not closed by it
            for ws in sockets:
                await ws.send(json.dumps({"type": "ping", "id": "p"}))
            status_full = (await asyncio.to_thread(_get, server.port))[0]
        finally:
            for ws in sockets:
                await ws.close()
        await asyncio.sleep(0.3)
        status_after = (await asyncio.to_thread(_get, server.port))[0]
        return status_full, status_after

    assert asyncio.run(go()) == (503, 200)
