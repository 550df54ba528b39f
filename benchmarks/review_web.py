"""Benchmark: does the web table stay responsive while the expert's review runs? (issue 15 item 3)

Run from the repository root:

    python benchmarks/review_web.py [--deals 1] [--pings 200] [--budget-ms 100]

Starts ``gin serve`` on 127.0.0.1 (a free port, a temporary SQLite file, computer moves at once),
opens a table of a person against the novice, plays ``--deals`` deals over the WebSocket (a
simple policy: knock or gin when possible, else draw from the stock and discard the highest
card), then measures the round trip of ``{"type": "ping"}`` -> ``pong`` on a second connection
of the same seat:

* at rest: ``--pings`` pings one after the other;
* during the review: the first connection asks ``{"type": "review", "deal": null | 1}``
  (the match if it is over, else deal 1) and the second pings every 20 ms until the review's
  result arrives (``review_progress`` messages counted on the way).

Prints the median, 95th percentile and largest round trip in milliseconds, and the review's
time from request to result.  Every address is 127.0.0.1; every loop is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(port: int, db: str, budget_ms: float) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen([sys.executable, "-m", "ginrummy", "serve", "--port", str(port), "--database-url", db,
                             "--bot-delay", "0", "--review-budget-ms", str(budget_ms), "--log-level", "warning"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    for _ in range(200):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/options", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    raise SystemExit("gin serve did not start")


def pick(legal: list[str]) -> str:
    for kind in ("big gin", "gin ", "knock "):
        for a in legal:
            if a.startswith(kind):
                return a
    for a in ("pass", "draw stock"):
        if a in legal:
            return a
    order = "A23456789TJQK"
    discards = [a for a in legal if a.startswith("discard ")]
    return max(discards, key=lambda a: order.index(a.split()[1][0]))


async def play(url: str, deals: int) -> dict:
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "client_seed", "deal": 1, "seed": "bench1"}))
        played, n = 0, 0
        for _ in range(5000):
            msg = json.loads(await ws.recv())
            if msg["type"] != "state" or not msg["started"]:
                continue
            if msg["match"]["finished"]:
                return msg
            over = any(d["number"] == msg["deal"]["number"] and d["over"] for d in msg["deals"])
            if over:
                played += 1
                if played >= deals:
                    return msg
                nxt = msg["deal"]["number"] + 1
                await ws.send(json.dumps({"type": "client_seed", "deal": nxt, "seed": f"bench{nxt}"}))
                await ws.send(json.dumps({"type": "next_deal"}))
                played -= 1  # counted again when this state comes back
                continue
            if msg["your_turn"]:
                await ws.send(json.dumps({"type": "action", "action": pick(msg["view"]["legal_actions"]), "id": n}))
                n += 1
    raise SystemExit("the deal did not end")


async def ping(ws, i: int) -> float:
    t0 = time.perf_counter()
    await ws.send(json.dumps({"type": "ping", "id": i}))
    for _ in range(1000):
        msg = json.loads(await ws.recv())
        if msg.get("type") == "pong" and msg.get("reply_to") == i:
            return (time.perf_counter() - t0) * 1000
    raise SystemExit("no pong")


def summary(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return f"n={len(xs)} median {statistics.median(xs):.1f} ms, p95 {p95:.1f} ms, max {xs[-1]:.1f} ms"


async def measure(base: str, wsbase: str, deals: int, pings: int) -> None:
    r = httpx.post(base + "/api/tables", json={"seats": [{"kind": "human", "name": "Ann"},
                                                         {"kind": "bot", "level": "novice"}]})
    table = r.json()
    url = f"{wsbase}/ws/table/{table['id']}?seat={table['seats'][0]['token']}"
    last = await play(url, deals)
    deal = None if last["match"]["finished"] else 1
    async with websockets.connect(url) as asker, websockets.connect(url) as pinger:
        rest = [await ping(pinger, i) for i in range(pings)]
        print("ping at rest:        ", summary(rest))
        await asker.send(json.dumps({"type": "review", "deal": deal, "id": "r"}))
        t0 = time.perf_counter()
        done = asyncio.Event()
        progress = 0
        result: dict = {}

        async def listen() -> None:
            nonlocal progress, result
            while True:
                msg = json.loads(await asker.recv())
                if msg["type"] == "review_progress":
                    progress += 1
                elif msg["type"] in ("review", "error") and msg.get("reply_to") == "r":
                    result = msg
                    done.set()
                    return

        task = asyncio.create_task(listen())
        busy: list[float] = []
        i = pings
        while not done.is_set() and i < pings + 100_000:
            busy.append(await ping(pinger, i))
            i += 1
            await asyncio.sleep(0.02)
        await task
        took = time.perf_counter() - t0
        decisions = sum(len(d["decisions"]) for d in result.get("result", {}).get("deals", []))
        print("ping during a review:", summary(busy))
        print(f"review of {'the match' if deal is None else 'deal 1'}: {decisions} decisions, {progress} progress "
              f"messages, {took:.1f} s from request to result ({result.get('type')})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=1)
    ap.add_argument("--pings", type=int, default=200)
    ap.add_argument("--budget-ms", type=float, default=100.0)
    a = ap.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start(port, f"sqlite:///{tmp}/bench.sqlite3", a.budget_ms)
        try:
            asyncio.run(measure(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", a.deals, a.pings))
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
