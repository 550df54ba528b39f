"""Benchmark: review budgets and fair order (issue 27, item 3).

Run from the repository root (127.0.0.1 only; every loop bounded):

    python benchmarks/review_budget.py [--budget-ms 400] [--seconds 90]

Starts ``gin serve`` (a free port, a temporary SQLite file), makes a Hollywood record of
novice against novice (many deals), then, as one client (the address 127.0.0.1):

1. uploads the whole record for review 4 times with 4 budgets (the seed is no longer the
   client's): the answers (413 past the request bound);
2. uploads deals 1 to 4 at ``--budget-ms`` (4 jobs; the 3rd and 4th are 503: 2 per client),
   polling them to keep them alive;

and as a second client (a signed-in account: its own budget and turn), asks for the review of
one deal at 10 ms: the time until it is done (the wait a table review sees: it shares the queue),
while a bystander does ``GET /api/options`` every 50 ms (median, p99, max in ms).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ginrummy.match import Match  # noqa: E402
from ginrummy.players import make_player  # noqa: E402
from ginrummy.record import dumps  # noqa: E402
from ginrummy.rules import preset  # noqa: E402


def record(seed: int = 1) -> str:
    m = Match.new(preset("hollywood"), ["Ann", "Bob"], f"budget/{seed}".encode())
    players = [make_player("novice", random.Random(f"{seed}/{i}")) for i in range(2)]
    while True:
        if m.deal.is_over:
            if m.finished:
                return dumps(m)
            m.next_deal()
        p = m.player_to_act()
        v = m.view(p)
        m.apply(p, players[p].choose(v, v.legal))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget-ms", type=float, default=400.0)
    ap.add_argument("--seconds", type=float, default=90.0)
    args = ap.parse_args()
    text = record()
    port = free_port()
    db = f"sqlite:///{tempfile.mkdtemp()}/gin.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen([sys.executable, "-m", "ginrummy", "serve", "--port", str(port), "--database-url", db,
                             "--log-level", "warning"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                if httpx.get(f"{base}/api/options", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        a = httpx.Client(base_url=base, timeout=30)

        def csrf(c: httpx.Client) -> dict[str, str]:  # a client that keeps cookies sends the token back
            return {"X-CSRF-Token": c.cookies.get("gin_csrf", "")}
        a.get("/api/options")
        print(f"record: {text.count(chr(10))} lines, {len(text.encode())} bytes")
        for b in (400, 399, 398, 397):
            r = a.post(f"/api/reviews?budget_ms={b}", content=text.encode(), headers=csrf(a))
            print(f"whole record at {b} ms: {r.status_code} {r.json().get('code', r.json().get('status'))}: "
                  f"{r.json().get('error', '')[:110]}")
        keys = []
        for d in (1, 2, 3, 4):
            r = a.post(f"/api/reviews?budget_ms={args.budget_ms:g}&deal={d}", content=text.encode(),
                       headers=csrf(a))
            print(f"deal {d} at {args.budget_ms:g} ms: {r.status_code} {r.json().get('code', r.json().get('status'))}")
            if r.status_code == 202:
                keys.append(r.json()["key"])
        z = httpx.Client(base_url=base, timeout=30)
        z.get("/api/options")
        z.post("/api/account", json={"name": "Zed", "password": "correct horse"}, headers=csrf(z))
        t0 = time.perf_counter()
        r = z.post("/api/reviews?budget_ms=10&deal=5", content=text.encode(), headers=csrf(z))
        zkey, zdone = r.json().get("key"), None
        pings: list[float] = []
        end = time.monotonic() + args.seconds
        while time.monotonic() < end and zdone is None:
            s = time.perf_counter()
            httpx.get(f"{base}/api/options", timeout=30)
            pings.append((time.perf_counter() - s) * 1000)
            for k in keys:
                a.get(f"/api/reviews/{k}")
            if z.get(f"/api/reviews/{zkey}").json().get("status") == "done":
                zdone = time.perf_counter() - t0
            time.sleep(0.05)
        pings.sort()
        print(f"second client's review (deal 5, 10 ms): "
              f"{'not done' if zdone is None else f'done after {zdone:.1f} s'}")
        print(f"bystander GET /api/options: {len(pings)} requests, median {statistics.median(pings):.1f} ms, "
              f"p99 {pings[int(len(pings) * 0.99) - 1]:.1f} ms, max {pings[-1]:.1f} ms")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


if __name__ == "__main__":
    main()
