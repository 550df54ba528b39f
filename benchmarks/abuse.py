"""One address repeating one request 60 times a minute: does anyone else notice? (issue 27 goal)

Goal: "No request, alone or repeated 60 times a minute from one address, raises another
visitor's ping p99 above 50 ms or the server's memory above 1 GB."

Run from the repository root (127.0.0.1 only; every loop bounded in count and time; heavy, so
under ``nice``):

    nice -n 10 python benchmarks/abuse.py                      # every kind, 30 s each, twice
    nice -n 10 python benchmarks/abuse.py --only hint_expert --runs 1 --seconds 20

For each kind of request, one after the other, a fresh ``gin serve`` (default options: the
natural bot delay, 60 tables a minute per address, the default thinking pool, header timeout
and connection caps; a temp SQLite file holding one long stored match, a free port) and:

* a **bystander** from 127.0.0.2: a lobby socket sending a ``ping`` every 100 ms (the pong's
  latency) and a table against ``novice`` where it moves 100 ms after each of its turns comes
  (the ``ack`` latency of its moves);
* an **attacker** from 127.0.0.1, one request a second for ``--seconds`` (each request runs as
  its own task, so a slow answer does not slow the rate; at most 120 at once):

  ``idle``            nothing: the bystander alone (the baseline on this shared machine);
  ``create_master``   ``POST /api/tables`` target 1000 (the bound) against ``master``, and the
                      attacker plays each such table as fast as it can (so every ``master`` thinks);
  ``bots_public``     a public computer-only table (``master`` against ``master``) to 1000, each
                      watched by a spectator socket held open;
  ``hint_expert``     a ``hint`` at a table against ``expert`` (4 tables; the hinted move is played);
  ``review_big``      ``POST /api/reviews?budget_ms=400`` of a big record (a Hollywood match to
                      1000 of novice against novice, 111 KB, 106 deals): the whole record, then
                      ``deal=1, 2, ...`` in turn (never polled);
  ``replay_upload``   ``POST /api/replays`` of the same record;
  ``signup``          ``POST /api/account`` with a new name (argon2);
  ``record_download`` ``GET /api/tables/ID/record`` of a stored match of 25,000 steps (to 1000, a
                      person against ``novice``);
  ``sheet_big``       ``POST /api/sheet``: 500 results, the most allowed, to 1000 (about 4.5 KB);
  ``ws_frame_64k``    a new lobby socket sending one 64 KiB frame (the largest read), then closed;
  ``deep_json``       8 KiB of ``[`` as a ``POST /api/tables`` body, and 2 KiB of ``[`` as a
                      WebSocket message (the deepest a body or a message can be), in turn.

Measured over the attack's seconds: the bystander's ping p50/p99/max and ack p50/p99, the
server's peak memory: VmHWM of the main process, and the peak of the sum of VmRSS of the main
process and its children (the thinking pool, the review worker) sampled every 0.2 s, with the
most processes seen; the attacker's answers by status.  Prints a Markdown table (``--json``:
JSON lines).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import httpx  # noqa: E402
import websockets  # noqa: E402

from load import free_port  # noqa: E402
from scripted import answer_to, next_message  # noqa: E402
from serving import start_server, stop_server  # noqa: E402
from storefill import fill_table, rules_of  # noqa: E402

KINDS = ["idle", "create_master", "bots_public", "hint_expert", "review_big", "replay_upload", "signup",
         "record_download", "sheet_big", "ws_frame_64k", "deep_json"]
ATTACKER, BYSTANDER = "127.0.0.1", "127.0.0.2"


def big_record() -> str:
    """A finished Hollywood match to 1000 (the bound), novice against novice: 111 KB, 106 deals."""
    from ginrummy.match import Match
    from ginrummy.players import make_player
    from ginrummy.record import dumps
    m = Match.new(rules_of("hollywood", target=1000), ["Ann", "Bob"], b"abuse/1")
    ps = [make_player("novice", random.Random(i)) for i in range(2)]
    while True:
        if m.deal.is_over:
            if m.finished:
                return dumps(m)
            m.next_deal()
        p = m.player_to_act()
        v = m.view(p)
        m.apply(p, ps[p].choose(v, v.legal))


def pct(xs: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``xs`` seconds, in ms (nearest rank); 0 for none."""
    if not xs:
        return 0.0
    s = sorted(xs)
    return round(1000 * s[min(len(s) - 1, int(q * len(s)))], 1)


def proc_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ppid = int(Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def status_kb(pid: int, field: str) -> int:
    try:
        for ln in Path(f"/proc/{pid}/status").read_text().splitlines():
            if ln.startswith(field + ":"):
                return int(ln.split()[1])
    except (OSError, ValueError):
        pass
    return 0


class Run:
    def __init__(self, args: argparse.Namespace, kind: str, record: str, tmp: Path) -> None:
        self.args, self.kind, self.record, self.tmp = args, kind, record, tmp
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.stop = False
        self.measuring = False
        self.pings: list[float] = []
        self.acks: list[float] = []
        self.answers: dict[str, int] = {}
        self.errors: dict[str, int] = {}
        self.rss_peak = 0
        self.warm = 0  # the bystander's moves acknowledged so far
        self.procs = 0
        self.held: list[Any] = []  # the attacker's sockets kept open
        self.proc: subprocess.Popen[bytes] | None = None

    # -- the server ---------------------------------------------------------------------------

    def start(self) -> None:
        from ginrummy.web.db.store import Store
        store = Store(f"sqlite:///{self.tmp / 'gin.sqlite3'}")
        self.rec_table = fill_table(store, ["human", "bot:novice"], rules_of("standard", target=1000),
                                    max_steps=25000, rng=random.Random(7))
        store.close()
        self.proc, self.log = start_server("abuse.py", self.port, self.tmp, src=self.args.src, ready="/readyz",
                                           seconds=90)

    def kill(self) -> None:
        stop_server(self.proc, grace=20)

    async def sample(self) -> None:
        assert self.proc is not None
        while not self.stop:
            if self.measuring:
                tree = await asyncio.to_thread(proc_tree, self.proc.pid)
                self.rss_peak = max(self.rss_peak, sum(status_kb(p, "VmRSS") for p in tree))
                self.procs = max(self.procs, len(tree))
            await asyncio.sleep(0.2)

    # -- the bystander (127.0.0.2) ---------------------------------------------------------------

    async def lobby(self) -> None:
        async with websockets.connect(f"ws://127.0.0.1:{self.port}/ws/lobby", open_timeout=30, ping_interval=None,
                                      max_size=2 ** 22, local_addr=(BYSTANDER, 0)) as ws:
            n = 0
            while not self.stop:
                n += 1
                sent = time.monotonic()
                await ws.send(json.dumps({"type": "ping", "id": n}))
                while True:
                    reply = json.loads(await ws.recv())
                    if reply.get("type") == "pong" and reply.get("reply_to") == n:
                        break
                if self.measuring:
                    self.pings.append(time.monotonic() - sent)
                await asyncio.sleep(0.1)

    async def bystander_table(self) -> None:
        async with httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=BYSTANDER), timeout=60) as c:
            while not self.stop:
                r = await c.post(f"{self.base}/api/tables", json={
                    "seats": [{"kind": "human"}, {"kind": "bot", "level": "novice"}]})
                c.cookies.clear()
                t = r.json()
                url = f"ws://127.0.0.1:{self.port}/ws/table/{t['id']}?seat={t['seats'][0]['token']}"
                async with websockets.connect(url, max_size=2 ** 22, open_timeout=30, ping_interval=None,
                                              local_addr=(BYSTANDER, 0)) as ws:
                    await self.play(ws, random.Random(1), pace=0.1, timed=True)

    async def play(self, ws: Any, rng: random.Random, pace: float, timed: bool, hint: bool = False) -> None:
        """Play one match at ``ws`` as a scripted person (client seeds, moves, next deals);
        ``timed``: record each move's ack latency; ``hint``: ask a hint before each move (one at
        a time, through :attr:`hint_gate`)."""
        state: dict[str, Any] | None = None
        n = 0
        while not self.stop:
            if state is None:
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
                await self.hint_gate.get()  # one hint a second, across the tables
                n += 1
                await ws.send(json.dumps({"type": "hint", "id": f"h{n}"}))
                reply, newer = await answer_to(ws, f"h{n}", ("hint", "error"), lambda: not self.stop)
                state = newer or state
                if reply is not None:
                    key = "hint" if reply.get("type") == "hint" else f"hint {reply.get('code')}"
                    self.answers[key] = self.answers.get(key, 0) + 1
                    if reply.get("type") == "hint" and reply.get("action") in state["view"]["legal_actions"]:
                        out["action"] = reply["action"]
            state = None
            n += 1
            out["id"] = n
            if pace:
                await asyncio.sleep(pace)
            sent = time.monotonic()
            await ws.send(json.dumps(out))
            _reply, state = await answer_to(ws, n, ("ack", "error"), lambda: not self.stop)
            if timed and out["type"] == "action":
                self.warm += 1
                if self.measuring:
                    self.acks.append(time.monotonic() - sent)

    # -- the attacker (127.0.0.1) ----------------------------------------------------------------

    def count(self, key: str) -> None:
        self.answers[key] = self.answers.get(key, 0) + 1

    async def attack_once(self, c: httpx.AsyncClient, i: int) -> None:
        k, base = self.kind, self.base
        c.cookies.clear()  # a client without cookies needs no CSRF header (docs/protocol.md)
        if k == "create_master":
            r = await c.post(f"{base}/api/tables", json={"rules": {"target": 1000}, "seats": [
                {"kind": "human"}, {"kind": "bot", "level": "master"}]})
            c.cookies.clear()
            self.count(str(r.status_code))
            if r.status_code == 201:
                t = r.json()
                ws = await websockets.connect(f"ws://127.0.0.1:{self.port}/ws/table/{t['id']}?seat="
                                              f"{t['seats'][0]['token']}", max_size=2 ** 22, open_timeout=30,
                                              ping_interval=None, local_addr=(ATTACKER, 0))
                self.held.append(ws)
                await self.play(ws, random.Random(i), pace=0.0, timed=False)
        elif k == "bots_public":
            r = await c.post(f"{base}/api/tables", json={"public": True, "rules": {"target": 1000}, "seats": [
                {"kind": "bot", "level": "master"}, {"kind": "bot", "level": "master"}]})
            c.cookies.clear()
            self.count(str(r.status_code))
            if r.status_code == 201:
                ws = await websockets.connect(f"ws://127.0.0.1:{self.port}/ws/table/{r.json()['id']}?watch=1",
                                              max_size=2 ** 22, open_timeout=30, ping_interval=None,
                                              local_addr=(ATTACKER, 0))
                self.held.append(ws)
                async for _ in ws:  # a spectator reads every state
                    if self.stop:
                        break
        elif k == "review_big":
            q = "budget_ms=400" + ("" if i % 2 == 0 else f"&deal={i // 2 + 1}")
            r = await c.post(f"{base}/api/reviews?{q}", content=self.record.encode(),
                             headers={"Content-Type": "text/plain"})
            self.count(f"{r.status_code} {r.json().get('code', r.json().get('status', ''))}")
        elif k == "replay_upload":
            r = await c.post(f"{base}/api/replays", content=self.record.encode(),
                             headers={"Content-Type": "text/plain"})
            self.count(f"{r.status_code} {r.json().get('code', '') if r.status_code >= 400 else ''}".strip())
        elif k == "signup":
            r = await c.post(f"{base}/api/account", json={"name": f"Atk{i}", "password": "correct horse battery"})
            self.count(f"{r.status_code} {r.json().get('code', '') if r.status_code >= 400 else ''}".strip())
        elif k == "record_download":
            tid, token, _ = self.rec_table
            r = await c.get(f"{base}/api/tables/{tid}/record?seat={token}")
            self.count(f"{r.status_code} {len(r.content) // 1024} KB")
        elif k == "sheet_big":
            results = [f"{('Al', 'Bo')[j % 2]}:{1 + j % 3}" for j in range(500)]
            r = await c.post(f"{base}/api/sheet", json={"preset": "standard", "rules": {"target": 1000},
                                                         "names": ["Al", "Bo"], "results": results})
            self.count(f"{r.status_code} {len(r.request.content)} B")
        elif k == "ws_frame_64k":
            async with websockets.connect(f"ws://127.0.0.1:{self.port}/ws/lobby", max_size=2 ** 22, open_timeout=30,
                                          ping_interval=None, local_addr=(ATTACKER, 0)) as ws:
                frame = json.dumps({"type": "ping", "id": 1, "pad": "x" * (65536 - 40)})
                frame += " " * (65536 - len(frame.encode()))
                await ws.send(frame)
                self.count(await self.error_reply(ws))
        elif k == "deep_json":
            if i % 2 == 0:
                r = await c.post(f"{base}/api/tables", content=b"[" * 8192,
                                 headers={"Content-Type": "application/json"})
                self.count(f"http {r.status_code} {r.json().get('code', '')}")
            else:
                async with websockets.connect(f"ws://127.0.0.1:{self.port}/ws/lobby", max_size=2 ** 22,
                                              open_timeout=30, ping_interval=None, local_addr=(ATTACKER, 0)) as ws:
                    await ws.send("[" * 2048)
                    self.count("ws " + await self.error_reply(ws))
        c.cookies.clear()  # a client without cookies needs no CSRF header (docs/protocol.md)

    @staticmethod
    async def error_reply(ws: Any) -> str:
        """The code of the first ``error`` message on ``ws`` (the lobby's own messages skipped),
        or how it was closed."""
        try:
            for _ in range(20):
                reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if reply.get("type") == "error":
                    return f"error {reply.get('code')}"
            return "no error"
        except websockets.ConnectionClosed as exc:
            return f"closed {exc.rcvd.code if exc.rcvd else ''}"

    async def attacker(self) -> None:
        tasks: set[asyncio.Task[None]] = set()
        async with httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=ATTACKER), timeout=60) as c:
            if self.kind == "hint_expert":
                self.hint_gate: asyncio.Queue[None] = asyncio.Queue()
                for j in range(4):
                    r = await c.post(f"{self.base}/api/tables", json={"seats": [
                        {"kind": "human"}, {"kind": "bot", "level": "expert"}]})
                    c.cookies.clear()
                    t = r.json()
                    tasks.add(asyncio.create_task(self.hint_table(t, j)))
            start = time.monotonic()
            for i in range(int(self.args.seconds)):
                if self.kind == "hint_expert":
                    self.hint_gate.put_nowait(None)
                elif self.kind != "idle" and len(tasks) < 120:
                    task = asyncio.create_task(self.guarded(self.attack_once(c, i)))
                    tasks.add(task)
                    task.add_done_callback(tasks.discard)
                await asyncio.sleep(max(0.0, start + i + 1 - time.monotonic()))
            self.stop = True
            for t in list(tasks):
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def hint_table(self, t: dict[str, Any], j: int) -> None:
        url = f"ws://127.0.0.1:{self.port}/ws/table/{t['id']}?seat={t['seats'][0]['token']}"
        async with websockets.connect(url, max_size=2 ** 22, open_timeout=30, ping_interval=None,
                                      local_addr=(ATTACKER, 0)) as ws:
            await self.guarded(self.play(ws, random.Random(j), pace=0.0, timed=False, hint=True))

    async def guarded(self, coro: Any) -> None:
        try:
            await coro
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # counted: the run goes on
            self.errors[type(exc).__name__] = self.errors.get(type(exc).__name__, 0) + 1

    async def main(self) -> dict[str, Any]:
        assert self.proc is not None
        side = [asyncio.create_task(self.guarded(self.lobby())),
                asyncio.create_task(self.guarded(self.bystander_table())),
                asyncio.create_task(self.sample())]
        # the bystander settles in: its computer opponent has moved (the thinking pool is up)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.warm < 3:
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)
        base_pings = len(self.pings)
        self.measuring = True
        await self.attacker()
        self.measuring = False
        for ws in self.held:
            await ws.close()
        for t in side:
            t.cancel()
        await asyncio.gather(*side, return_exceptions=True)
        hwm = status_kb(self.proc.pid, "VmHWM")
        return {"kind": self.kind, "ping_n": len(self.pings) - base_pings, "ping_p50": pct(self.pings, 0.5),
                "ping_p99": pct(self.pings, 0.99), "ping_max": pct(self.pings, 1.0), "ack_n": len(self.acks),
                "ack_p50": pct(self.acks, 0.5), "ack_p99": pct(self.acks, 0.99),
                "main_hwm_mb": hwm // 1024, "tree_rss_peak_mb": self.rss_peak // 1024, "procs": self.procs,
                "answers": dict(sorted(self.answers.items())), "errors": self.errors}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=30.0, help="seconds of attack per kind (default 30)")
    p.add_argument("--runs", type=int, default=2, help="runs of every kind (default 2: the machine is shared)")
    p.add_argument("--only", action="append", choices=KINDS, help="only this kind (repeatable)")
    p.add_argument("--src", default=str(ROOT / "src"), help="the source folder the server runs")
    p.add_argument("--json", action="store_true", help="print one JSON line per kind and run")
    a = p.parse_args(argv)
    if not 1 <= a.seconds <= 120 or not 1 <= a.runs <= 5:
        p.error("--seconds 1..120 and --runs 1..5")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(4096, hard)), hard))
    record = big_record()
    rows = []
    if not a.json:
        print("| kind | run | ping p50 / p99 / max ms (n) | ack p50 / p99 ms (n) | main VmHWM MB | "
              "peak RSS all processes MB (processes) | attacker's answers | client errors |")
        print("|---|---|---|---|---|---|---|---|")
    for run in range(1, a.runs + 1):
        for kind in a.only or KINDS:
            with tempfile.TemporaryDirectory() as tmp:
                r = Run(a, kind, record, Path(tmp))
                try:
                    r.start()
                    out = asyncio.run(asyncio.wait_for(r.main(), a.seconds + 90))
                finally:
                    r.kill()
            out["run"] = run
            rows.append(out)
            if a.json:
                print(json.dumps(out), flush=True)
            else:
                ans = ", ".join(f"{k}: {v}" for k, v in out["answers"].items())
                errs = ", ".join(f"{k}: {v}" for k, v in out["errors"].items()) or "-"
                print(f"| {kind} | {run} | {out['ping_p50']} / {out['ping_p99']} / {out['ping_max']} ({out['ping_n']}) "
                      f"| {out['ack_p50']} / {out['ack_p99']} ({out['ack_n']}) | {out['main_hwm_mb']} "
                      f"| {out['tree_rss_peak_mb']} ({out['procs']}) | {ans} | {errs} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
