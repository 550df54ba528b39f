"""Connections and spectators against a real ``gin serve`` on 127.0.0.1 (issue 27, items 5 and 7).

    python benchmarks/connections.py                      # this tree's server
    python benchmarks/connections.py --src /work/main/src --old   # another tree (no new options)

Two measurements, each bounded in count and time:

* **idle sockets**: the server runs with an open-files limit of 1,024 (soft and hard, so it
  cannot raise it); ``--idle`` sockets (default 1,100) connect from 127.0.0.1 and send half a
  request line; then ``--probes`` requests (default 40) from 127.0.0.2 ask ``GET /api/options``
  each on a new connection, 0.1 s apart: how many are answered 200, and their latency.  The
  same probes run again 15 s later (past the header deadline).
* **spectators**: a public table (a person, connected, against the computer) is watched by
  ``--spectators`` WebSocket connections (default 1,000) from 20 addresses 127.0.0.1-20 (the
  per-address cap is 100), opened 50 at a time: the seconds until every one has its first
  state, and the messages the person's connection received meanwhile.

Prints one Markdown table of the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(src: str, tmp: Path, old: bool, nofile: int | None) -> tuple[subprocess.Popen, int]:
    port = free_port()
    args = [sys.executable, "-m", "ginrummy", "serve", "--port", str(port), "--database-url",
            f"sqlite:///{tmp / 'gin.sqlite3'}", "--log-level", "warning"]
    env = {**os.environ, "PYTHONPATH": src}

    def limit() -> None:
        if nofile:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=limit, start_new_session=True)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/options", timeout=1).status_code == 200:
                return proc, port
        except httpx.HTTPError:
            time.sleep(0.2)
    stop(proc)
    raise SystemExit("the server did not start")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def probe(port: int, source: str) -> float | None:
    """Seconds for one ``GET /api/options`` on a new connection from ``source``; None if it
    failed or was not 200 within 5 s."""
    t0 = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0)) as s:
            s.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        return time.perf_counter() - t0 if data.startswith(b"HTTP/1.1 200") else None
    except OSError:
        return None


def probes(port: int, n: int) -> str:
    times = []
    for _ in range(n):
        times.append(probe(port, "127.0.0.2"))
        time.sleep(0.1)
    ok = sorted(t for t in times if t is not None)
    if not ok:
        return f"0 of {n} answered"
    return f"{len(ok)} of {n} answered, p50 {ok[len(ok) // 2] * 1000:.0f} ms, max {ok[-1] * 1000:.0f} ms"


def idle_sockets(src: str, old: bool, idle: int, n: int) -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start(src, Path(tmp), old, 1024)
        held: list[socket.socket] = []
        try:
            refused = 0
            for _ in range(idle):
                try:
                    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.1", 0))
                    s.sendall(b"GET / HT")
                    held.append(s)
                except OSError:
                    refused += 1
            time.sleep(1.0)
            first = probes(port, n)
            time.sleep(15)
            closed = answered = 0
            for s in held:
                s.setblocking(False)
                try:
                    data = s.recv(65536)
                    closed += data == b""  # the server closed it without a word (header deadline)
                    answered += data.startswith(b"HTTP/1.1 503")  # refused at once for the cap
                except BlockingIOError:  # still open
                    pass
                except OSError:  # reset by the server
                    closed += 1
            later = probes(port, n)
        finally:
            for s in held:
                s.close()
            stop(proc)
    return [(f"{idle} idle sockets from 127.0.0.1 (open-files limit 1,024): requests from 127.0.0.2", first),
            ("the same 15 s later", later),
            ("idle sockets after 16 s: closed by the header deadline / refused 503 at once / still open",
             f"{closed} / {answered} / {len(held) - closed - answered} of {len(held)}")]


async def spectators(port: int, table: dict, n: int) -> list[tuple[str, str]]:
    url = f"ws://127.0.0.1:{port}/ws/table/{table['id']}"
    ann = await websockets.connect(f"{url}?seat={table['seats'][0]['token']}", max_size=None)
    await ann.recv()
    got = {"n": 0}

    async def count() -> None:
        try:
            async for _ in ann:
                got["n"] += 1
        except websockets.ConnectionClosed:
            pass

    counter = asyncio.create_task(count())
    conns: list = []
    failed = 0

    async def one(i: int) -> None:
        nonlocal failed
        try:
            ws = await websockets.connect(f"{url}?watch=1", max_size=None, open_timeout=30,
                                          local_addr=(f"127.0.0.{1 + i % 20}", 0))
            await asyncio.wait_for(ws.recv(), 30)
            conns.append(ws)
        except Exception:
            failed += 1

    t0 = time.perf_counter()
    for start_at in range(0, n, 50):
        await asyncio.gather(*(one(i) for i in range(start_at, min(n, start_at + 50))))
    took = time.perf_counter() - t0
    await asyncio.sleep(1.0)
    during = got["n"]
    for ws in conns:
        await ws.close()
    await ann.close()
    counter.cancel()
    return [(f"{n} spectators join one table, 50 at a time", f"{took:.1f} s ({failed} failed)"),
            ("messages the seated person received meanwhile", str(during))]


def spectator_run(src: str, old: bool, n: int) -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start(src, Path(tmp), old, None)
        try:
            r = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={
                "preset": "standard", "public": True,
                "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": ""}]})
            return asyncio.run(asyncio.wait_for(spectators(port, r.json(), n), 300))
        finally:
            stop(proc)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", default=str(Path(__file__).resolve().parents[1] / "src"))
    ap.add_argument("--old", action="store_true", help="the server has no connection options (a tree before them)")
    ap.add_argument("--idle", type=int, default=1100)
    ap.add_argument("--probes", type=int, default=40)
    ap.add_argument("--spectators", type=int, default=1000)
    ap.add_argument("--only", choices=["idle", "spectators"])
    a = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(8192, hard)), hard))  # this client holds 2,000
    rows: list[tuple[str, str]] = []
    if a.only in (None, "idle"):
        rows += idle_sockets(a.src, a.old, min(a.idle, 2000), min(a.probes, 100))
    if a.only in (None, "spectators"):
        rows += spectator_run(a.src, a.old, min(a.spectators, 2000))
    print(f"| measure ({a.src}) | result |\n|---|---|")
    for k, v in rows:
        print(f"| {k} | {v} |")


if __name__ == "__main__":
    main()
