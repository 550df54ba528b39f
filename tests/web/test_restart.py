"""A server killed with SIGKILL mid-deal and started again resumes the table exactly: every
acknowledged action was stored before the acknowledgement (DESIGN "The server"; the group
commit of web/db/commit.py acknowledges only after its transaction commits).  On a SQLite file
and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest
import websockets

from .conftest import STORES, database_url

GIN = [sys.executable, "-m", "ginrummy"]
RECV_SECONDS = 60  # the longest wait for one message: generous, for a loaded machine (no time is asserted)


@pytest.fixture(params=STORES)
def db_url(request, tmp_path):
    yield from database_url(request.param, tmp_path)


def _free_port() -> int:
    """A port of 127.0.0.1 no one listens on, for a server started next.  It is drawn below the
    ephemeral range: the machine's outgoing connections take their ports from that range, so on
    a busy machine one of them could take a port found free there before the server binds it."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    rng = random.Random()
    for _ in range(200):
        port = rng.randrange(max(1024, low - 12000), low)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:  # pragma: no cover - every one of them taken
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(port: int, db: str) -> subprocess.Popen:
    # the output goes to a file, not a pipe no one reads (a full pipe would stop the server)
    out = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        GIN + ["serve", "--port", str(port), "--database-url", db, "--bot-delay", "0", "--log-level", "warning"],
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 90  # generous: a loaded machine imports slowly; no time is asserted
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/options", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
        if proc.poll() is not None:
            break
    proc.kill()
    proc.wait(10)
    out.seek(0)
    raise AssertionError(f"gin serve did not start: {out.read().decode(errors='replace')}")


async def _state(ws) -> dict:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), RECV_SECONDS))
        assert msg["type"] != "error", msg
        if msg["type"] == "state":
            return msg


def _pick(legal: list[str]) -> str:
    for kind in ("gin", "knock"):
        for a in legal:
            if a.startswith(kind):
                return a
    return "draw stock" if "draw stock" in legal else ("pass" if "pass" in legal else legal[0])


async def _play(url: str, steps: int | None) -> dict:
    """Play as the human seat until ``steps`` of his actions are acknowledged, or the deal is over."""
    async with websockets.connect(url) as ws:  # offers permessage-deflate, as browsers do
        # gin serve answers without it (docs/deploy.md, "WebSocket compression")
        assert ws.response.headers.get("Sec-WebSocket-Extensions") is None
        st = await _state(ws)
        done = 0
        while not st["started"]:  # the first deal waits for this seat's client seed
            pending = st["fair"]["pending"]
            if pending["yours"] is None:
                await ws.send(json.dumps({"type": "client_seed", "deal": pending["deal"], "seed": "restart0"}))
            st = await _state(ws)
        while st["view"]["phase"] != "over" and (steps is None or done < steps):
            if not st["your_turn"]:
                st = await _state(ws)
                continue
            await ws.send(json.dumps({"type": "action", "action": _pick(st["view"]["legal_actions"]), "id": done}))
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), RECV_SECONDS))
                assert msg["type"] != "error", msg
                if msg["type"] == "state":
                    st = msg
                if msg["type"] == "ack":
                    break
            done += 1
        return st


def test_sigkill_and_restart_resumes_the_deal(db_url: str) -> None:
    db = db_url
    port = _free_port()
    proc = _start(port, db)
    try:
        csrf = {"gin_csrf": "restart-test-csrf-token-0123"}  # the double-submit pair (docs/accounts.md)
        r = httpx.post(
            f"http://127.0.0.1:{port}/api/tables",
            cookies=csrf,
            headers={"X-CSRF-Token": csrf["gin_csrf"]},
            json={
                "preset": "standard",
                "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}],
            },
        )
        t = r.json()
        token = t["seats"][0]["token"]
        url = f"ws://127.0.0.1:{port}/ws/table/{t['id']}?seat={token}"
        before = asyncio.run(_play(url, 3))
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
    assert before["seq"] >= 3
    proc = _start(port, db)
    try:

        async def reconnect() -> dict:
            async with websockets.connect(url) as ws:
                return await _state(ws)

        again = asyncio.run(reconnect())
        # nothing acknowledged was lost: the same hand, pile and history (the computer may have
        # moved on since, if its move was pending at the kill)
        assert again["seq"] >= before["seq"]
        assert again["deal"]["commitment"] == before["deal"]["commitment"]
        n = len(before["view"]["history"])
        assert again["view"]["history"][:n] == before["view"]["history"]
        if again["seq"] == before["seq"]:
            assert again["view"]["hand"] == before["view"]["hand"]
            assert again["view"]["discard_pile"] == before["view"]["discard_pile"]
        end = asyncio.run(_play(url, None))
        assert end["view"]["phase"] == "over"
        assert end["deals"][0]["over"]
        assert (end["deal"]["seed"] is not None) == (end["deals"][0]["outcome"] != "draw")  # R7: a draw stays sealed
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
