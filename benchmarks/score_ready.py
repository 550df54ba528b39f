"""How long the score of a match takes to be ready after its end, with and without other tables
playing, and what the background scoring costs those tables (issue 32; benchmarks/RESULTS.md,
"Score at the web table").

Run from the repository root:

    python benchmarks/score_ready.py                       # 20 other tables, 2 s a move, 3 matches
    python benchmarks/score_ready.py --others 0            # the score alone
    python benchmarks/score_ready.py --no-table-scores     # the same load, nothing scored
    python benchmarks/score_ready.py --json
    # sustained load: 20 tables for 300 s and more, the measured match starting after 240 s
    python benchmarks/score_ready.py --others 20 --matches 1 --measure-after 240 --min-seconds 330 --max-seconds 600

What it does, on 127.0.0.1 only, with a server of its own (``gin serve --bot-delay 0`` on a temp
SQLite file, at ``--review-budget-ms``, default the server's 100; stopped at the end):

* ``--others`` tables of a scripted person against the novice, each person moving every
  ``--pace`` seconds (a brisk person), for the whole run; a match that ends opens a new table.
  Every move's ``ack`` latency is measured (from sending to the ack): p50, p99, max;
* one measured table at a time, a scripted person against the novice moving every
  ``--measured-pace`` seconds (0.5: a fast person), for ``--matches`` matches of ``--deals`` deals
  or more (standard rules to ``--target`` 150, so that most matches are long enough; a shorter
  one is thrown away and not counted).  For each: the seconds from the ack of the move
  that ends the match to the ``score`` message of the match (``"deal": null``), its deals and
  decisions, and the sampled deals a decision its score was made on (``samples``: fewer than 50
  when the server scored it at a smaller budget because deals were waiting).  With
  ``--measure-after S`` the measured table starts only after ``S`` seconds of the other tables'
  load, so its match ends late in a sustained run;
* the other tables' ``score`` messages of deals are counted by their ``samples`` (how often the
  server had to score at a smaller budget), and the load average is printed at the start and end.

The run is bounded: ``--max-seconds`` (default 600) in all; the server is killed at the end.
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
from bystander import summary  # noqa: E402
from load import free_port, pick  # noqa: E402
from serving import start_server, stop_server  # noqa: E402


class Run:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.port = free_port()
        self.stop = False
        self.acks: list[float] = []
        self.ready: list[dict[str, Any]] = []
        self.thrown = 0
        self.errors: dict[str, int] = {}
        self.other_samples: dict[int, int] = {}  # samples of the other tables' deal scores: count
        self.proc: subprocess.Popen[bytes] | None = None
        self.started = time.monotonic()

    def start_server(self, tmp: Path) -> None:
        a = self.args
        self.proc, self.log = start_server(
            "score_ready.py", self.port, tmp, "--tables-per-minute", "0", "--bot-delay", "0",
            "--review-budget-ms", str(a.review_budget_ms), *([] if a.table_scores else ["--no-table-scores"]),
            src=a.server_src or ROOT / "src")

    def stop_server(self) -> None:
        stop_server(self.proc, grace=0)

    async def post_table(self, target: int = 100) -> tuple[str, str]:
        def post() -> dict[str, Any]:
            body = json.dumps({"preset": "standard", "rules": {"target": target},
                               "seats": [{"kind": "human"}, {"kind": "bot", "level": "novice"}]})
            req = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/tables", data=body.encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read())
        t = await asyncio.to_thread(post)
        return t["id"], t["seats"][0]["token"]

    async def other(self, rng: random.Random) -> None:
        """A scripted person at successive tables, a move every ``--pace`` s, acks measured."""
        while not self.stop:
            tid, token = await self.post_table()
            try:
                async with websockets.connect(f"ws://127.0.0.1:{self.port}/ws/table/{tid}?seat={token}",
                                              max_size=2 ** 22, open_timeout=30, ping_interval=None) as ws:
                    await self.session(ws, rng, self.args.pace, self.acks)
            except Exception as exc:  # counted; the run goes on
                self.errors[type(exc).__name__] = self.errors.get(type(exc).__name__, 0) + 1
                await asyncio.sleep(0.5)

    async def session(self, ws: Any, rng: random.Random, pace: float, acks: list[float] | None) -> dict[str, Any]:
        """Play one match; returns the last state (the match over) and when its last ack came."""
        state: dict[str, Any] | None = None
        last: dict[str, Any] = {}
        n = 0
        while not self.stop:
            if state is None:
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                except TimeoutError:
                    continue
                self.note(msg, acks)
                if msg.get("type") != "state":
                    continue
                state = msg
            last = state
            if state.get("match", {}).get("finished"):
                return last
            pending = (state.get("fair") or {}).get("pending")
            if pending is not None and pending["yours"] is None:
                out: dict[str, Any] = {"type": "client_seed", "deal": pending["deal"], "seed": f"s{rng.getrandbits(64):x}"}
            elif state.get("your_turn"):
                out = {"type": "action", "action": pick(state["view"]["legal_actions"], rng)}
            elif state.get("can_next_deal"):
                out = {"type": "next_deal"}
            else:
                state = None
                continue
            state = None
            n += 1
            out["id"] = n
            if pace:
                await asyncio.sleep(pace)
            sent = time.monotonic()
            await ws.send(json.dumps(out))
            while not self.stop:
                reply = json.loads(await ws.recv())
                self.note(reply, acks)
                if reply.get("reply_to") == n and reply.get("type") in ("ack", "error"):
                    break
                if reply.get("type") == "state":
                    state = reply
            if acks is not None:
                acks.append(time.monotonic() - sent)
            last["_acked"] = time.monotonic()
        return last

    def note(self, msg: dict[str, Any], acks: list[float] | None) -> None:
        """Count an other table's deal score by its sampled deals a decision."""
        if acks is not None and msg.get("type") == "score" and msg.get("deal") is not None and msg["players"]:
            s = min(p.get("samples", 50) for p in msg["players"])
            self.other_samples[s] = self.other_samples.get(s, 0) + 1

    async def measured(self) -> None:
        """Matches at one table after another; the time from the match's end to its score."""
        a = self.args
        rng = random.Random(7)
        await asyncio.sleep(a.measure_after)
        while not self.stop and len(self.ready) < a.matches:
            tid, token = await self.post_table(a.target)
            async with websockets.connect(f"ws://127.0.0.1:{self.port}/ws/table/{tid}?seat={token}",
                                          max_size=2 ** 22, open_timeout=30, ping_interval=None) as ws:
                end = await self.session(ws, rng, a.measured_pace, None)
                if self.stop:
                    return
                ended = time.monotonic()
                deals = int((end.get("deal") or {}).get("number") or 0)  # the last deal's number
                if deals < a.deals:
                    self.thrown += 1
                    continue
                if not a.table_scores:  # nothing to wait for: the match only paces the run
                    self.ready.append({"deals": deals, "decisions": None, "ready_s": None})
                    continue
                while not self.stop:
                    msg = json.loads(await ws.recv())
                    if msg.get("type") == "score" and msg.get("deal") is None:
                        self.ready.append({
                            "deals": deals,
                            "decisions": sum(p["decisions"] for p in msg["players"]),
                            "ready_s": round(time.monotonic() - ended, 2),
                            "ended_at_s": round(ended - self.started, 1),
                            "samples": min(p.get("samples", 50) for p in msg["players"]),
                        })
                        break

    async def main(self) -> dict[str, Any]:
        a = self.args
        others = [asyncio.create_task(self.other(random.Random(i))) for i in range(a.others)]
        await asyncio.sleep(a.warmup)
        self.acks.clear()
        started = self.started = time.monotonic()
        load_start = [round(x, 2) for x in os.getloadavg()]
        try:
            await asyncio.wait_for(self.measured(), a.max_seconds - a.warmup)
        except TimeoutError:
            pass
        if a.others and time.monotonic() - started < a.min_seconds:  # enough acks for a p99
            await asyncio.sleep(a.min_seconds - (time.monotonic() - started))
        self.stop = True
        acks = list(self.acks)
        for t in others:
            t.cancel()
        await asyncio.gather(*others, return_exceptions=True)
        return {"table_scores": a.table_scores, "others": a.others, "pace_s": a.pace,
                "review_budget_ms": a.review_budget_ms, "measured_s": round(time.monotonic() - started, 1),
                "others_ack": summary(acks), "measured_pace_s": a.measured_pace, "matches": self.ready,
                "thrown_short_matches": self.thrown,
                "other_deal_scores_by_samples": dict(sorted(self.other_samples.items())),
                "load_average_start_end": [load_start, [round(x, 2) for x in os.getloadavg()]],
                "errors": self.errors}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--others", type=int, default=20, help="other tables playing meanwhile (default 20)")
    p.add_argument("--pace", type=float, default=2.0, help="seconds between two moves of an other table's person")
    p.add_argument("--matches", type=int, default=3, help="measured matches (default 3)")
    p.add_argument("--deals", type=int, default=5, help="a measured match has at least this many deals (default 5)")
    p.add_argument("--measured-pace", type=float, default=0.5,
                   help="seconds between two moves of the measured table's person (default 0.5: a fast person)")
    p.add_argument("--target", type=int, default=150,
                   help="the measured matches' target (R11; default 150, so that most have 5 deals or more)")
    p.add_argument("--review-budget-ms", type=float, default=100.0)
    p.add_argument("--no-table-scores", dest="table_scores", action="store_false")
    p.add_argument("--warmup", type=float, default=10.0)
    p.add_argument("--measure-after", type=float, default=0.0,
                   help="the measured table starts after this many seconds of load (after the warmup)")
    p.add_argument("--min-seconds", type=float, default=60.0, help="the other tables' acks are measured at least this long")
    p.add_argument("--max-seconds", type=float, default=600.0, help="the whole run's bound")
    p.add_argument("--server-src", default="",
                   help="the server's sources (default this tree's src/; e.g. an older commit's, `git archive`d)")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    run = Run(a)
    with tempfile.TemporaryDirectory() as tmp:
        run.start_server(Path(tmp))
        try:
            out = asyncio.run(run.main())
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
