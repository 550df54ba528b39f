"""A bystander's latency while many tables make the computer think (issue 27, item 2).

Run from the repository root:

    python benchmarks/bystander.py                          # 40 master tables hinting, 30 s
    python benchmarks/bystander.py --tables 10 --level expert --seconds 20
    python benchmarks/bystander.py --src /path/to/other/checkout/src   # the same load on other code

What it does, on 127.0.0.1 only, with a server of its own (``gin serve --bot-delay 0`` on a temp
SQLite file, stopped at the end):

* opens ``--tables`` tables of a scripted person against a computer of ``--level`` (``master``
  by default).  At every turn the person asks a ``hint``, waits for it, and then plays the
  hinted move.  A match that ends opens a new table;
* opens one bystander table, a scripted person against the ``novice``, that plays a move every
  ``--pace`` seconds and measures each move's ``ack`` latency (from sending to the ``ack``);
* opens a lobby socket that sends a ``ping`` every ``--pace`` seconds and measures the ``pong``;
* after ``--warmup`` seconds, measures for ``--seconds``: the bystander's ack and ping latency
  (p50, p99, max, in ms), the hints' latency, the moves the loaded tables made, the server's
  CPU (% of one core, the main process only) and RSS.

``--workers N`` is passed to ``gin serve`` (leave it out for code that has no such option).
``--json`` prints the figures as JSON.  The whole run is bounded: warmup + seconds + 60 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import websockets  # noqa: E402

from load import free_port  # noqa: E402
from scripted import answer_to, next_message  # noqa: E402
from serving import start_server, stop_server  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def pct(xs: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``xs`` in ms (nearest rank), 0 for none."""
    if not xs:
        return 0.0
    s = sorted(xs)
    return round(1000 * s[min(len(s) - 1, int(q * len(s)))], 1)


def summary(xs: list[float]) -> dict[str, Any]:
    return {"n": len(xs), "p50_ms": pct(xs, 0.5), "p99_ms": pct(xs, 0.99), "max_ms": pct(xs, 1.0)}


class Run:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.port = free_port()
        self.stop = False
        self.window = (0.0, 0.0)
        self.acks: list[float] = []
        self.pings: list[float] = []
        self.hints: list[float] = []
        self.moves = 0
        self.errors: dict[str, int] = {}
        self.proc: subprocess.Popen[bytes] | None = None

    def inside(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]

    def start_server(self, tmp: Path) -> None:
        a = self.args
        workers = ["--workers", str(a.workers)] if a.workers else []
        self.proc, self.log = start_server(
            "bystander.py", self.port, tmp, "--tables-per-minute", "0", "--bot-delay", "0", *workers, src=a.src)

    def stop_server(self) -> None:
        stop_server(self.proc)

    def cpu_rss(self) -> tuple[float, int]:
        assert self.proc is not None
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
            rss = next(int(ln.split()[1]) for ln in status.splitlines() if ln.startswith("VmRSS"))
            return (int(fields[11]) + int(fields[12])) / TICKS, rss
        except (OSError, StopIteration, IndexError, ValueError):
            return 0.0, 0

    async def post_table(self, level: str) -> tuple[str, str]:
        def post() -> dict[str, Any]:
            body = json.dumps({"preset": "standard", "seats": [{"kind": "human"}, {"kind": "bot", "level": level}]})
            req = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/tables", data=body.encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read())
        t = await asyncio.to_thread(post)
        return t["id"], t["seats"][0]["token"]

    async def player(self, level: str, hint: bool, pace: float, rng: random.Random) -> None:
        """A scripted person at successive tables against ``level``; ``hint``: ask one first at
        every turn; ``pace``: seconds between two moves (the bystander)."""
        while not self.stop:
            tid, token = await self.post_table(level)
            url = f"ws://127.0.0.1:{self.port}/ws/table/{tid}?seat={token}"
            try:
                async with websockets.connect(url, max_size=2 ** 22, open_timeout=30, ping_interval=None) as ws:
                    await self.session(ws, hint, pace, rng, bystander=not hint)
            except Exception as exc:  # counted and retried: the run goes on
                self.errors[type(exc).__name__] = self.errors.get(type(exc).__name__, 0) + 1
                await asyncio.sleep(0.5)

    async def session(self, ws: Any, hint: bool, pace: float, rng: random.Random, bystander: bool) -> None:
        state: dict[str, Any] | None = None
        n = 0
        while not self.stop:
            if state is None:  # act on the last state seen, else wait for the next one
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                except asyncio.TimeoutError:
                    continue
                if msg.get("type") != "state":
                    continue
                state = msg
            if state.get("match", {}).get("finished"):
                return
            out = next_message(state, rng, "b")
            if out is None:
                state = None
                continue
            if hint and out["type"] == "action":
                n += 1
                sent = time.monotonic()
                await ws.send(json.dumps({"type": "hint", "id": f"h{n}"}))
                reply, newer = await answer_to(ws, f"h{n}", ("hint", "error"), lambda: not self.stop)
                state = newer or state
                if reply is not None and reply.get("type") == "hint":
                    if self.inside(time.monotonic()):
                        self.hints.append(time.monotonic() - sent)
                    if reply["action"] in state["view"]["legal_actions"]:
                        out["action"] = reply["action"]
            state = None
            n += 1
            out["id"] = n
            if pace:
                await asyncio.sleep(pace)
            sent = time.monotonic()
            await ws.send(json.dumps(out))
            _reply, state = await answer_to(ws, n, ("ack", "error"), lambda: not self.stop)  # the ack (or an error)
            now = time.monotonic()
            if self.inside(now):
                if bystander:
                    self.acks.append(now - sent)
                else:
                    self.moves += 1

    async def lobby(self) -> None:
        async with websockets.connect(f"ws://127.0.0.1:{self.port}/ws/lobby", open_timeout=30,
                                      ping_interval=None, max_size=2 ** 22) as ws:
            n = 0
            while not self.stop:
                n += 1
                sent = time.monotonic()
                await ws.send(json.dumps({"type": "ping", "id": n}))
                while True:
                    reply = json.loads(await ws.recv())
                    if reply.get("type") == "pong" and reply.get("reply_to") == n:
                        break
                if self.inside(time.monotonic()):
                    self.pings.append(time.monotonic() - sent)
                await asyncio.sleep(self.args.pace)

    async def main(self) -> dict[str, Any]:
        a = self.args
        now = time.monotonic()
        self.window = (now + a.warmup, now + a.warmup + a.seconds)
        tasks = [asyncio.create_task(self.player(a.level, True, 0.0, random.Random(i))) for i in range(a.tables)]
        tasks.append(asyncio.create_task(self.player("novice", False, a.pace, random.Random(-1))))
        tasks.append(asyncio.create_task(self.lobby()))
        await asyncio.sleep(a.warmup)
        cpu0, _ = self.cpu_rss()
        await asyncio.sleep(a.seconds)
        cpu1, rss = self.cpu_rss()
        self.stop = True
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return {"tables": a.tables, "level": a.level, "workers": a.workers or "default", "seconds": a.seconds,
                "bystander_ack": summary(self.acks), "lobby_ping": summary(self.pings),
                "hint": summary(self.hints), "loaded_moves_per_s": round(self.moves / a.seconds, 1),
                "server_cpu_pct": round(100 * (cpu1 - cpu0) / a.seconds), "server_rss_mb": rss // 1024,
                "errors": self.errors}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=40, help="loaded tables (default 40)")
    p.add_argument("--level", default="master", help="their computer's level (default master)")
    p.add_argument("--seconds", type=float, default=30.0, help="measured seconds (default 30)")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (default 5)")
    p.add_argument("--pace", type=float, default=0.1, help="seconds between the bystander's moves and pings")
    p.add_argument("--workers", type=int, default=0, help="gin serve --workers (default: not passed)")
    p.add_argument("--src", default=str(ROOT / "src"), help="the source folder the server runs")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    a = p.parse_args(argv)
    if not 1 <= a.tables <= 200 or not 1 <= a.seconds <= 300:
        p.error("--tables 1..200 and --seconds 1..300")
    run = Run(a)
    with tempfile.TemporaryDirectory() as tmp:
        run.start_server(Path(tmp))
        try:
            out = asyncio.run(asyncio.wait_for(run.main(), a.warmup + a.seconds + 60))
        finally:
            run.stop_server()
    if a.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
