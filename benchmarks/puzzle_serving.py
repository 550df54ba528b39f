"""How fast the next puzzle is served (issue 32 goal: "a person can solve puzzles in the browser
for 10 minutes without a wait over 300 ms between puzzles").

A ``gin serve`` of its own on 127.0.0.1 (a temp SQLite file), then two people, one after the
other: a guest and a signed-in account (its answers rated and stored). Each solves ``--puzzles``
puzzles as the page does: ``GET /api/puzzles/next?after=ID`` (the wait between puzzles, timed),
then ``POST /api/puzzles/ID/answer`` (timed too; the first legal move, the second at every
third puzzle). A puzzle starts every ``--interval`` seconds (0.42: 286 requests a minute, under
the server's 300 a minute per address, and faster than anyone solves), so ``--puzzles 150`` is
about a minute a person; the run is bounded in time (``--max-seconds``) and the server is
stopped at the end.

    PYTHONPATH=src python benchmarks/puzzle_serving.py --puzzles 150

By time instead of by count: ``--seconds 600`` has the two people solve **at the same time**
(two threads, one address: 4 requests a second at ``--interval 1``, under its 300 a minute) for
600 s each, a puzzle every ``--interval`` seconds (1.0: 600 puzzles, fewer than the 706 shipped,
so the signed-in person never runs out of unanswered puzzles), and prints also the largest wait
of each minute (does it grow as the account's answers pile up?):

    PYTHONPATH=src python benchmarks/puzzle_serving.py --seconds 600 --interval 1

Prints, per person and request kind: count, median, p99 and largest wait in ms.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from serving import start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent


def _port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _start(port: int, tmp: Path) -> subprocess.Popen[bytes]:
    return start_server("puzzle_serving.py", port, tmp, ready="/api/puzzles")[0]


def _stop(proc: subprocess.Popen[bytes]) -> None:
    stop_server(proc)


def _stats(xs: list[float]) -> dict[str, float]:
    ms = sorted(x * 1000 for x in xs)
    return {"n": len(ms), "median_ms": round(statistics.median(ms), 1),
            "p99_ms": round(ms[min(len(ms) - 1, int(0.99 * len(ms)))], 1), "max_ms": round(ms[-1], 1)}


def session(base: str, n: int, deadline: float, sign_up: bool, interval: float) -> dict[str, Any]:
    waits: dict[str, list[float]] = {"next": [], "answer": []}
    per_minute: dict[int, float] = {}  # minute of the run: largest wait (next or answer), ms
    with httpx.Client(base_url=base, timeout=30) as c:
        c.get("/api/me")
        c.headers["X-CSRF-Token"] = c.cookies["gin_csrf"]
        if sign_up:
            r = c.post("/api/account", json={"name": "Bench", "password": "correct horse"})
            assert r.status_code == 201, r.text
        after = None
        start = time.monotonic()
        for i in range(n):
            if time.monotonic() > deadline:
                break
            time.sleep(max(0.0, start + i * interval - time.monotonic()))
            t0 = time.perf_counter()
            r = c.get("/api/puzzles/next", params={} if after is None else {"after": after})
            waits["next"].append(time.perf_counter() - t0)
            minute = int((time.monotonic() - start) // 60)
            per_minute[minute] = max(per_minute.get(minute, 0.0), round(waits["next"][-1] * 1000, 1))
            assert r.status_code == 200, r.text
            p = r.json()["puzzle"]
            move = p["legal_actions"][1 if i % 3 == 0 else 0]
            t0 = time.perf_counter()
            r = c.post(f"/api/puzzles/{p['id']}/answer", json={"move": move})
            waits["answer"].append(time.perf_counter() - t0)
            per_minute[minute] = max(per_minute[minute], round(waits["answer"][-1] * 1000, 1))
            assert r.status_code == 200, r.text
            after = p["id"]
    out: dict[str, Any] = {k: _stats(v) for k, v in waits.items()}
    out["seconds"] = round(time.monotonic() - start, 1)
    out["max_ms_by_minute"] = [per_minute[m] for m in sorted(per_minute)]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--puzzles", type=int, default=150)
    ap.add_argument("--interval", type=float, default=0.42)
    ap.add_argument("--max-seconds", type=float, default=600.0)
    ap.add_argument("--seconds", type=float, default=0.0,
                    help="run by time: both people at once for this many seconds each (0: by --puzzles)")
    args = ap.parse_args()
    port = _port()
    with tempfile.TemporaryDirectory() as d:
        proc = _start(port, Path(d))
        try:
            base = f"http://127.0.0.1:{port}"
            if args.seconds:
                deadline = time.monotonic() + args.seconds
                n = int(args.seconds / args.interval) + 1
                with ThreadPoolExecutor(2) as pool:
                    guest = pool.submit(session, base, n, deadline, False, args.interval)
                    signed = pool.submit(session, base, n, deadline, True, args.interval)
                    out = {"guest": guest.result(), "signed_in": signed.result()}
            else:
                deadline = time.monotonic() + args.max_seconds
                out = {"guest": session(base, args.puzzles, deadline, False, args.interval),
                       "signed_in": session(base, args.puzzles, deadline, True, args.interval)}
            out["load_average"] = list(os.getloadavg())
        finally:
            _stop(proc)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
