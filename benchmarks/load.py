"""Load test of the web table: many tables of scripted players over real WebSockets.

Run from the repository root (whole-process figures; the servers and this load generator
share the machine's cores, so its own CPU is reported too):

    python benchmarks/load.py                       # 200 tables, one server, a temp SQLite file
    python benchmarks/load.py --tables 50 --seconds 20
    python benchmarks/load.py --database-url postgresql://gin@127.0.0.1:5432/postgres
    python benchmarks/load.py --database-url postgresql://... --servers 2
    python benchmarks/load.py --kills 10            # SIGKILL the server 10 times during the run
    python benchmarks/load.py --deflate             # the players ask for permessage-deflate, as browsers do

What it does:

* starts ``--servers`` ``gin serve`` processes on 127.0.0.1 (``--bot-delay 0``) on one store:
  a new SQLite file in a temp folder, or a schema of its own (dropped afterwards) in the
  PostgreSQL database of ``--database-url`` (two or more servers need PostgreSQL);
* opens ``--tables`` tables.  One server: a scripted person against a computer seat of level
  ``--opponent`` (novice by default), or with ``--opponent person`` two scripted people at the
  same server (the two-server workload on one process, to compare the two).  Two servers: two
  scripted people, seat 1 on server 1 and seat 2 on server 2, so every step crosses from one
  process to the other (LISTEN/NOTIFY);
* each scripted person moves as soon as the server says it is his turn (gin, else knock, else
  pass or draw from the stock, else a discard drawn from a seeded generator), starts the next
  deal, and opens a new table when a match is over.  ``--rate R`` paces them instead, as
  people who think do: each table waits ``tables / R`` seconds on average between two of its
  moves (its first at a random moment of that interval), so the tables together offer about R
  moves a second.  With ``--think random`` (the default) each wait is drawn from an
  exponential distribution, as people take longer over one move than another; with
  ``--think fixed`` it is exactly ``tables / R``.  A table whose answer comes later than its
  next move was due moves at once, and its next wait starts then.  (With fixed waits, the
  tables answered together after a slow commit are due together again one wait later, so a
  hiccup comes back in waves: a load no people make.);
* measures for ``--seconds`` after ``--warmup``: acknowledged moves a second (the scripted
  people's moves whose ``ack`` came back), every stored step a second (the computer's moves
  too), the ack latency (p50, p99: from sending a move to its ``ack``), each server's CPU
  (user + system, % of one core) and RSS from ``/proc`` (Linux), the load generator's own CPU,
  and the errors by code;
* ``--kills K`` kills a server with SIGKILL K times, evenly spread over the measured time,
  and starts it again at once; the players reconnect.  At the end it reads the store and
  checks that every acknowledged step is stored, and that every table moved on after the
  last restart ("stuck" tables: no new step within ``--stuck-seconds`` after the measured time).

Exit status 0, or 1 if an acknowledged step is missing or a table is stuck.  ``--json`` prints
the figures as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import orjson  # noqa: E402
import websockets  # noqa: E402
from sqlalchemy import create_engine, func, select, text  # noqa: E402

from ginrummy.web.db.store import actions_t, engine_url, masked_url  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One ``gin serve`` process; :meth:`cpu_seconds` adds up every incarnation (kills)."""

    def __init__(self, url: str, log_dir: Path, index: int) -> None:
        self.url, self.port, self.index = url, free_port(), index
        self.log = log_dir / f"server{index}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.cpu_before = 0.0  # CPU of the killed incarnations
        self.peak_rss_kb = 0
        self.starts = 0

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "ginrummy", "serve", "--port", str(self.port), "--database-url", self.url,
                 "--tables-per-minute", "0",
                 "--bot-delay", "0", "--log-level", "warning"],
                stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        self.starts += 1
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"load.py: server {self.index} exited at start; see {self.log}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/options", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"load.py: server {self.index} did not start in 120 s; see {self.log}")

    def _stat(self) -> tuple[float, int, int]:
        """(CPU seconds, RSS KB, peak RSS KB) of the running incarnation."""
        assert self.proc is not None
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / TICKS
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
            kb = {ln.split(":")[0]: int(ln.split()[1]) for ln in status.splitlines() if ln.startswith(("VmRSS", "VmHWM"))}
            return cpu, kb.get("VmRSS", 0), kb.get("VmHWM", 0)
        except (OSError, IndexError, ValueError):
            return 0.0, 0, 0

    def cpu_seconds(self) -> float:
        return self.cpu_before + self._stat()[0]

    def rss_kb(self) -> tuple[int, int]:
        _, rss, peak = self._stat()
        self.peak_rss_kb = max(self.peak_rss_kb, peak)
        return rss, self.peak_rss_kb

    def kill(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        cpu, _, peak = self._stat()
        self.cpu_before += cpu
        self.peak_rss_kb = max(self.peak_rss_kb, peak)
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)


def post_json(server: Server, path: str, data: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", data=json.dumps(data).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def post_table(server: Server, seats: list[dict[str, Any]], preset: str) -> dict[str, Any]:
    return post_json(server, "/api/tables", {"preset": preset, "seats": seats})


@dataclass
class Stats:
    """What the players saw: latencies (seconds) and counts, inside the measured window."""

    window: tuple[float, float] = (0.0, 0.0)
    latencies: list[float] = field(default_factory=list)
    acked: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    matches: int = 0

    def inside(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]


@dataclass
class TableRun:
    """A table being played: its id, each seat's (server, token), the acknowledged seqs."""

    id: str
    seats: list[tuple[Server, str]]
    acked: set[int] = field(default_factory=set)
    progress_at: float = 0.0
    seq: int = 0
    finished: bool = False
    next_at: float = 0.0  # with --rate: the earliest moment of this table's next move


def pick(legal: list[str], rng: random.Random) -> str:
    """The scripted person's move: gin, else knock, else pass / draw from the stock, else a
    random discard."""
    for kind in ("big gin", "gin", "knock"):
        for a in legal:
            if a.startswith(kind):
                return a
    for a in ("pass", "draw stock"):
        if a in legal:
            return a
    return rng.choice(sorted(legal))


class Player:
    """One scripted person at one seat of successive tables (a new one when a match ends)."""

    def __init__(self, bench: Bench, slot: int, seat: int, rng: random.Random) -> None:
        self.bench, self.slot, self.seat, self.rng = bench, slot, seat, rng

    async def run(self) -> None:
        b = self.bench
        while not b.stopping:
            table = b.slots[self.slot]
            server, token = table.seats[self.seat]
            url = f"ws://127.0.0.1:{server.port}/ws/table/{table.id}?seat={token}"
            try:
                async with websockets.connect(url, max_size=2 ** 22, compression=b.compression, open_timeout=30,
                                              ping_interval=None) as ws:
                    await self.session(ws, table)
            except (OSError, asyncio.TimeoutError, websockets.ConnectionClosed, websockets.InvalidHandshake):
                if b.stopping:
                    return
                if b.clock() > b.stats.window[0]:
                    b.stats.reconnects += 1
                await asyncio.sleep(0.2)

    async def session(self, ws: Any, table: TableRun) -> None:
        b, stats = self.bench, self.bench.stats
        sent_at = 0.0
        waiting = False
        state: dict[str, Any] | None = None
        while not b.stopping:
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except asyncio.TimeoutError:
                if b.slots[self.slot] is not table:
                    return  # the match is over and a new table is open
                if waiting and b.clock() - sent_at > 30:
                    stats.errors["no answer in 30 s"] += 1
                    return
                continue
            now = b.clock()
            msg = orjson.loads(raw)  # the states are most of this process's work: parsed by orjson
            kind = msg.get("type")
            if kind == "ack":
                waiting = False
                table.acked.add(msg["seq"])
                if stats.inside(now):
                    stats.acked += 1
                    stats.latencies.append(now - sent_at)
            elif kind == "error":
                waiting = False
                if stats.inside(now):
                    stats.errors[msg.get("code", "?")] += 1
            elif kind == "state":
                state = msg
                if msg["seq"] > table.seq:
                    table.seq, table.progress_at = msg["seq"], now
            if waiting or state is None:
                continue
            if state["match"]["finished"]:
                if self.seat == 0 and not table.finished:
                    table.finished = True
                    if stats.inside(now):
                        stats.matches += 1
                    await b.new_table(self.slot)
                if b.slots[self.slot] is not table:
                    return
                continue
            pending = state["fair"]["pending"]
            if pending is not None and pending["yours"] is None:  # the deal waits for our client seed
                out = {"type": "client_seed", "deal": pending["deal"], "seed": f"load{self.rng.getrandbits(64):x}"}
            elif state["your_turn"]:
                out = {"type": "action", "action": pick(state["view"]["legal_actions"], self.rng)}
            elif state["can_next_deal"] and self.seat == 0 and not (pending and pending["waiting_for"]):
                # (at a table with client seeds, only once every person's seed for it is in)
                out = {"type": "next_deal"}
            else:
                continue
            out["id"] = state["seq"]
            if b.pace:
                due = table.next_at
                if due > b.clock():
                    await asyncio.sleep(due - b.clock())
                table.next_at = max(due, b.clock()) + (self.rng.expovariate(1.0 / b.pace) if b.think == "random" else b.pace)
            waiting, sent_at = True, b.clock()
            await ws.send(orjson.dumps(out).decode())
            state = None  # act again only on the next state


class Bench:
    """The whole run (module docstring)."""

    def __init__(self, args: argparse.Namespace, url: str, log_dir: Path) -> None:
        self.args = args
        self.url = url
        self.servers = [Server(url, log_dir, i) for i in range(args.servers)]
        self.slots: list[TableRun] = []
        self.tables: list[TableRun] = []
        self.stats = Stats()
        self.stopping = False
        self.clock = time.monotonic
        #: with --rate: seconds between two moves of one table (0: as soon as the server answers)
        self.pace = args.tables / args.rate if args.rate else 0.0
        self.think = args.think
        self._phases = random.Random(args.seed)
        # websockets' default offers permessage-deflate (browsers do too); None asks for none
        self.compression = "deflate" if args.deflate else None

    def seats(self) -> list[dict[str, Any]]:
        if len(self.servers) == 1 and self.args.opponent != "person":
            return [{"kind": "human", "name": "Load"}, {"kind": "bot", "level": self.args.opponent}]
        return [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]

    def _open(self, slot: int) -> TableRun:
        home = self.servers[slot % len(self.servers)]
        t = post_table(home, self.seats(), self.args.preset)
        tokens = []
        for i, s in enumerate(t["seats"]):  # the host's token; every other person claims his invite
            if "token" in s:
                tokens.append(s["token"])
            elif "invite" in s:
                server = self.servers[(slot + i) % len(self.servers)]
                code = s["invite"].split("invite=", 1)[1]
                tokens.append(post_json(server, f"/api/tables/{t['id']}/claim", {"invite": code})["token"])
        seats = [(self.servers[(slot + i) % len(self.servers)], tok) for i, tok in enumerate(tokens)]
        now = self.clock()
        run = TableRun(t["id"], seats, progress_at=now, next_at=now + self._phases.uniform(0.0, self.pace))
        self.tables.append(run)
        return run

    async def new_table(self, slot: int) -> None:
        for _ in range(60):
            try:
                self.slots[slot] = await asyncio.to_thread(self._open, slot)
                return
            except OSError:  # the server is being restarted
                await asyncio.sleep(0.5)

    async def run(self) -> dict[str, Any]:
        a = self.args
        for s in self.servers:
            await asyncio.to_thread(s.start)
        self.slots = [self._open(i) for i in range(a.tables)]
        rng = random.Random(a.seed)
        players = [Player(self, i, seat, random.Random(rng.getrandbits(64)))
                   for i, t in enumerate(self.slots) for seat in range(len(t.seats))]
        tasks = [asyncio.create_task(p.run()) for p in players]
        start = self.clock() + a.warmup
        end = start + a.seconds
        self.stats.window = (start, float("inf"))
        await asyncio.sleep(max(0.0, start - self.clock()))
        cpu0 = [s.cpu_seconds() for s in self.servers]
        me0 = resource.getrusage(resource.RUSAGE_SELF)
        steps0 = await asyncio.to_thread(self.stored_steps)
        kill_times = [start + (i + 1) * a.seconds / (a.kills + 1) for i in range(a.kills)]
        kills = 0
        resumed_from = start  # every table must make a step after this (the last restart)
        rss_samples: list[int] = []
        while self.clock() < end or kills < len(kill_times):  # a slow restart may run over
            if kills < len(kill_times) and self.clock() >= kill_times[kills]:
                victim = self.servers[kills % len(self.servers)]
                victim.kill()
                await asyncio.to_thread(victim.start)
                resumed_from = self.clock()
                kills += 1
            rss_samples.append(sum(s.rss_kb()[0] for s in self.servers))
            await asyncio.sleep(0.25)
        end = self.clock()
        self.stats.window = (start, end)
        secs = end - start
        cpu1 = [s.cpu_seconds() for s in self.servers]
        me1 = resource.getrusage(resource.RUSAGE_SELF)
        steps1 = await asyncio.to_thread(self.stored_steps)
        peak = [s.rss_kb()[1] for s in self.servers]
        # outside the figures: give every table up to --stuck-seconds to show a step made after
        # the last restart; those that do not are stuck
        grace = self.clock() + a.stuck_seconds
        while self.clock() < grace and any(not t.finished and t.progress_at <= resumed_from for t in self.slots):
            await asyncio.sleep(0.1)
        stuck = [t.id for t in self.slots if not t.finished and t.progress_at <= resumed_from]
        self.stopping = True
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for s in self.servers:
            s.kill()
        missing, checked = await asyncio.to_thread(self.check_stored)
        lat = sorted(self.stats.latencies)

        def pct(p: float) -> float | None:
            return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else None

        gen_cpu = (me1.ru_utime + me1.ru_stime) - (me0.ru_utime + me0.ru_stime)
        return {
            "tables": a.tables, "servers": a.servers, "store": "postgresql" if "postgres" in self.url else "sqlite",
            "opponent": a.opponent if a.servers == 1 else "person", "preset": a.preset, "seconds": round(secs, 1),
            "offered_moves_per_s": a.rate or None, "think": a.think if a.rate else None,
            "acked_moves_per_s": round(self.stats.acked / secs, 1),
            "stored_steps_per_s": round((steps1 - steps0) / secs, 1),
            "ack_p50_ms": pct(0.50), "ack_p99_ms": pct(0.99),
            "server_cpu_percent": [round(100 * (c1 - c0) / secs, 1) for c0, c1 in zip(cpu0, cpu1)],
            "server_rss_mb": round(max(rss_samples or [0]) / 1024, 1),
            "server_peak_rss_mb": [round(p / 1024, 1) for p in peak],
            "generator_cpu_percent": round(100 * gen_cpu / secs, 1),
            # CPU the servers spent per acknowledged move (the computer's reply included): what
            # the rate would be on an idle core, whatever else the machine runs
            "server_cpu_ms_per_acked_move": (round(1000 * sum(c1 - c0 for c0, c1 in zip(cpu0, cpu1)) / self.stats.acked, 2)
                                             if self.stats.acked else None),
            "errors": dict(self.stats.errors), "reconnects": self.stats.reconnects,
            "matches_finished": self.stats.matches,
            "kills": kills, "acked_steps_checked": checked, "acked_steps_missing": missing,
            "stuck_tables": len(stuck),
        }

    def stored_steps(self) -> int:
        engine = create_engine(engine_url(self.url))
        try:
            with engine.connect() as conn:
                return int(conn.execute(select(func.count()).select_from(actions_t)).scalar_one())
        finally:
            engine.dispose()

    def check_stored(self) -> tuple[int, int]:
        """(acknowledged steps missing from the store, acknowledged steps checked)."""
        engine = create_engine(engine_url(self.url))
        missing = checked = 0
        try:
            with engine.connect() as conn:
                for t in self.tables:
                    if not t.acked:
                        continue
                    stored = {r[0] for r in conn.execute(select(actions_t.c.seq).where(actions_t.c.table_id == t.id))}
                    checked += len(t.acked)
                    missing += len(t.acked - stored)
        finally:
            engine.dispose()
        return missing, checked


def fresh_store(url: str | None, tmp: Path) -> tuple[str, Any]:
    """The store URL for this run and a clean-up function: a new SQLite file, or a new schema
    in the PostgreSQL database of ``url``."""
    if not url:
        return f"sqlite:///{tmp / 'load.sqlite3'}", lambda: None
    u = engine_url(url)
    if u.get_backend_name() != "postgresql":
        return url, lambda: None
    schema = "load_" + secrets.token_hex(5)
    engine = create_engine(u)
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in url else "?"

    def drop() -> None:
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()

    return f"{url}{sep}options=-csearch_path%3D{schema}", drop


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200, help="tables played at once (default 200)")
    p.add_argument("--seconds", type=float, default=20.0, help="measured time (default 20)")
    p.add_argument("--warmup", type=float, default=3.0, help="seconds played before measuring (default 3)")
    p.add_argument("--servers", type=int, default=1, help="gin serve processes (2 or more need PostgreSQL)")
    p.add_argument("--database-url", default="", help="a PostgreSQL URL (a schema of its own is made in it); "
                                                      "default a new SQLite file")
    p.add_argument("--rate", type=float, default=0.0, help="pace the tables: at most this many moves a second over all "
                                                          "tables, each table a move every tables/RATE s (default 0: "
                                                          "each move as soon as the server answers)")
    p.add_argument("--think", choices=("random", "fixed"), default="random",
                   help="with --rate: each table's wait between two moves is random (exponential, the default) or fixed")
    p.add_argument("--kills", type=int, default=0, help="SIGKILL a server this many times during the run")
    p.add_argument("--opponent", default="novice", help="the computer seat's level with one server (default novice), or "
                   "'person': two scripted people at each table, as with two servers")
    p.add_argument("--preset", default="standard", help="rules preset (R13; default standard)")
    p.add_argument("--stuck-seconds", type=float, default=5.0, help="a table without a step after the last restart (or the start) this long after the "
                        "measured time is stuck (default 5)")
    p.add_argument("--seed", type=int, default=2024, help="seed of the scripted people's discards")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--deflate", action="store_true",
                   help="ask for permessage-deflate as browsers do (default: uncompressed frames)")
    a = p.parse_args(argv)
    if a.tables < 1 or a.seconds <= 0 or a.servers < 1 or a.kills < 0 or a.warmup < 0 or a.rate < 0:
        p.error("--tables, --servers are 1 or more; --seconds above 0; --kills, --warmup, --rate 0 or more")
    if a.servers > 1 and "postgres" not in a.database_url:
        p.error("--servers 2 needs --database-url postgresql://... (one SQLite file has one server)")
    return a


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gin-load-") as tmp:
        url, drop = fresh_store(a.database_url, Path(tmp))
        try:
            bench = Bench(a, url, Path(tmp))
            try:
                out = asyncio.run(bench.run())
            finally:
                for s in bench.servers:
                    s.kill()
        finally:
            drop()
    out["load_average"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
    out["command"] = "python benchmarks/load.py " + " ".join(shlex.quote(x) for x in (argv if argv is not None else sys.argv[1:]))
    out["database"] = masked_url(a.database_url) if a.database_url else "a new SQLite file"
    out["command"] = out["command"].replace(a.database_url, out["database"]) if a.database_url else out["command"]
    if a.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{out['command']}\n"
              f"  {out['tables']} tables, {out['servers']} server(s), {out['store']}, {out['seconds']:g} s measured\n"
              + (f"  offered: about {out['offered_moves_per_s']:,g} moves/s (--rate, --think {out['think']})\n" if out["offered_moves_per_s"] else "")
              + f"  acknowledged moves/s: {out['acked_moves_per_s']:,}   stored steps/s (computer moves too): "
              f"{out['stored_steps_per_s']:,}\n"
              f"  ack latency p50 {out['ack_p50_ms']} ms, p99 {out['ack_p99_ms']} ms\n"
              f"  server CPU (% of one core): {out['server_cpu_percent']}, RSS {out['server_rss_mb']} MB "
              f"(peak {out['server_peak_rss_mb']} MB); load generator CPU {out['generator_cpu_percent']}%\n"
              f"  server CPU per acknowledged move: {out['server_cpu_ms_per_acked_move']} ms; "
              f"load average at the end: {out['load_average']}\n"
              f"  errors {out['errors'] or 0}, reconnect attempts {out['reconnects']}, matches finished {out['matches_finished']}\n"
              f"  kills {out['kills']}: acknowledged steps checked {out['acked_steps_checked']:,}, "
              f"missing {out['acked_steps_missing']}; stuck tables {out['stuck_tables']}")
    return 0 if out["acked_steps_missing"] == 0 and out["stuck_tables"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
