"""What the tournaments' every-second step (``Tournaments.tick``, web/contests/tournaments.py)
costs with many tournaments, and whether it keeps the store off the event loop.

Run from the repository root (bounded; 127.0.0.1 only; every server it starts is stopped):

    nice -n 10 python benchmarks/tournament_tick.py                    # 25 open + 25 running, 20 live tables
    nice -n 10 python benchmarks/tournament_tick.py --open 100 --running 100 --ticks 10
    nice -n 10 python benchmarks/tournament_tick.py --tables 0         # the tick alone, no server

It fills a temp SQLite file with ``--open`` tournaments open for entries (starting tomorrow, four
people entered) and ``--running`` tournaments started, each with its two tables of people who
never come (a time bank of an hour, so nobody is forfeited during the run), then:

1. in this process, as a server process does (a :class:`TableManager` that loaded the stored
   tables, a :class:`Tournaments` over it): ``--ticks`` calls of ``tick()``, timing each (p50,
   max, ms), the longest the event loop was held meanwhile (a 1 ms sleeper's worst lateness),
   and the store connections opened on the event loop's thread (SQLAlchemy's ``engine_connect``
   event) rather than in worker threads;
2. with ``--tables`` > 0: a ``gin serve`` on a copy without the tournaments and one on the file
   with them, each with ``--tables`` live tables (a scripted person against the novice, a move
   every ``--pace`` s) for ``--seconds``: the moves' ``ack`` latency p50 / p99 / max (ms).

Prints a Markdown table (``--json``: JSON).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from argon2 import PasswordHasher  # noqa: E402
from sqlalchemy import event, text  # noqa: E402

from ginrummy.compete.tournament import TournamentSettings  # noqa: E402
from ginrummy.web.community.accounts import Accounts  # noqa: E402
from ginrummy.web.community.members import Players  # noqa: E402
from ginrummy.web.contests.tournaments import Tournaments  # noqa: E402
from ginrummy.web.db.store import Store  # noqa: E402
from ginrummy.web.room.tables import TableManager  # noqa: E402
from load import free_port  # noqa: E402
from scripted import answer_to, next_message  # noqa: E402
from serving import start_server, stop_server  # noqa: E402


def _app(url: str, clock: Any = None) -> tuple[Store, TableManager, Tournaments]:
    store = Store(url)
    manager = TableManager(store, bot_delay=0, workers=1)
    accounts = Accounts(store.engine, hasher=PasswordHasher(time_cost=1, memory_cost=64, parallelism=1))
    players = Players(store.engine, manager, accounts=accounts)
    ts = Tournaments(manager, players) if clock is None else Tournaments(manager, players, clock)
    return store, manager, ts


def fill(url: str, n_open: int, n_running: int) -> None:
    """``n_open`` tournaments open for entries and ``n_running`` started with their tables."""
    soon = datetime.now(UTC) + timedelta(seconds=5)
    ahead = [timedelta(0)]  # the setup's clock: now, then past the start to start them at once
    store, manager, ts = _app(url, clock=lambda: datetime.now(UTC) + ahead[0])
    people = [ts.players.accounts.sign_up(f"entrant{i:03d}", "a long enough password") for i in range(4)]
    with store.engine.begin() as conn:  # a moderator has no limit of open tournaments
        conn.execute(text("UPDATE gin_accounts SET role = 'moderator' WHERE id = :i"), {"i": people[0].id})

    def settings(i: int, start: datetime) -> TournamentSettings:
        return TournamentSettings(name=f"Tick {i}", kind="swiss", start=start, rounds=3, scoring="game",
                                  clock_bank=3600, levels=())

    async def make() -> None:
        for i in range(n_open + n_running):
            start = soon + timedelta(days=1) if i < n_open else soon
            tid = ts.create(people[0], settings(i, start))
            for p in people:
                ts.join(tid, p)
            if i >= n_open:
                ahead[0] = timedelta(seconds=30)
                await ts.advance(tid)
                ahead[0] = timedelta(0)  # started, paired, its two tables opened and stored
        await manager.stop()

    asyncio.run(make())
    store.close()


async def _ticks(url: str, n: int) -> dict[str, Any]:
    store, manager, ts = _app(url)
    manager.load_all()
    loop_thread = threading.get_ident()
    on_loop = [0, 0]  # connections opened on the loop's thread, in other threads

    def connected(_conn: Any) -> None:
        on_loop[0 if threading.get_ident() == loop_thread else 1] += 1

    event.listen(store.engine, "engine_connect", connected)
    late: list[float] = []
    stop = False

    async def sleeper() -> None:
        while not stop:
            t = time.perf_counter()
            await asyncio.sleep(0.001)
            late.append(time.perf_counter() - t - 0.001)

    spy = asyncio.get_running_loop().create_task(sleeper())
    await ts.tick()  # warm
    on_loop[:] = [0, 0]
    late.clear()
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        await ts.tick()
        times.append(time.perf_counter() - t0)
    stop = True
    await spy
    with store.engine.connect() as conn:  # every one (TournamentStore.rows is bounded)
        states = [r[0] for r in conn.execute(text("SELECT state FROM gin_tournaments"))]
    event.remove(store.engine, "engine_connect", connected)
    await manager.stop()
    store.close()
    return {
        "tournaments": len(states),
        "running": states.count("running"),
        "tables": len(manager.tables),
        "tick_p50_ms": round(1000 * statistics.median(times), 1),
        "tick_max_ms": round(1000 * max(times), 1),
        "loop_held_max_ms": round(1000 * max(late, default=0.0), 1),
        "connects_on_loop_per_tick": round(on_loop[0] / n, 1),
        "connects_in_threads_per_tick": round(on_loop[1] / n, 1),
    }


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return round(1000 * s[min(len(s) - 1, int(q * len(s)))], 1) if s else 0.0


async def _table(port: int, rng: random.Random, pace: float, acks: list[float], end: float) -> None:
    import websockets

    def post() -> tuple[str, str]:
        body = json.dumps({"preset": "standard", "seats": [{"kind": "human"}, {"kind": "bot", "level": "novice"}]})
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", data=body.encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(req, timeout=60) as r:
            t = json.loads(r.read())
        return t["id"], t["seats"][0]["token"]

    while time.monotonic() < end:
        tid, token = await asyncio.to_thread(post)
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/table/{tid}?seat={token}", max_size=2**22,
                                      ping_interval=None) as ws:
            n, state = 0, None
            while time.monotonic() < end:
                while state is None:
                    try:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                    except TimeoutError:
                        if time.monotonic() >= end:
                            return
                        continue
                    state = msg if msg.get("type") == "state" else None
                if state.get("match", {}).get("finished"):
                    break
                out = next_message(state, rng)
                state = None
                if out is None:
                    continue
                n += 1
                out["id"] = n
                await asyncio.sleep(pace * rng.uniform(0.5, 1.5))
                sent = time.monotonic()
                await ws.send(json.dumps(out))
                _reply, state = await answer_to(ws, n, ("ack", "error"))
                if out["type"] == "action":
                    acks.append(time.monotonic() - sent)


def _acks(db: Path, tmp: Path, a: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    proc, _log = start_server("tournament_tick.py", port, tmp, "--database-url", f"sqlite:///{db}",
                              "--tables-per-minute", "0", "--bot-delay", "0")
    acks: list[float] = []
    try:
        async def run() -> None:  # the tables start at once; the warm-up's acks are dropped
            end = time.monotonic() + a.warmup + a.seconds
            rng = random.Random(a.seed)
            loop = asyncio.get_running_loop()
            tasks = [loop.create_task(_table(port, random.Random(rng.getrandbits(32)), a.pace, acks, end))
                     for _ in range(a.tables)]
            await asyncio.sleep(a.warmup)
            acks.clear()
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), a.seconds + 60)

        asyncio.run(run())
    finally:
        stop_server(proc)
    return {"n": len(acks), "p50_ms": _pct(acks, 0.5), "p99_ms": _pct(acks, 0.99), "max_ms": _pct(acks, 1.0)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--open", type=int, default=25, help="tournaments open for entries (default 25)")
    ap.add_argument("--running", type=int, default=25, help="tournaments running, two tables each (default 25)")
    ap.add_argument("--ticks", type=int, default=20, help="ticks timed in process (default 20)")
    ap.add_argument("--tables", type=int, default=20, help="live tables at the server (default 20; 0: no server)")
    ap.add_argument("--pace", type=float, default=0.5, help="seconds between a table's moves (default 0.5)")
    ap.add_argument("--seconds", type=float, default=30.0, help="measured seconds a server (default 30)")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gin-tick-") as d:
        tmp = Path(d)
        (tmp / "a").mkdir()
        (tmp / "b").mkdir()
        empty, full = tmp / "a" / "gin.sqlite3", tmp / "b" / "gin.sqlite3"
        fill(f"sqlite:///{empty}", 0, 0)
        t0 = time.monotonic()
        fill(f"sqlite:///{full}", a.open, a.running)
        out: dict[str, Any] = {"fill_s": round(time.monotonic() - t0, 1)}
        spare = tmp / "b" / "spare.sqlite3"
        shutil.copy(full, spare)  # the server runs on a copy the ticks did not change
        out["ticks"] = asyncio.run(_ticks(f"sqlite:///{full}", a.ticks))
        if a.tables:
            out["acks_without"] = _acks(empty, tmp / "a", a)
            out["acks_with"] = _acks(spare, tmp / "b", a)
    if a.json:
        print(json.dumps(out))
        return
    t = out["ticks"]
    print(f"{a.open} open + {a.running} running tournaments (filled in {out['fill_s']} s); {a.ticks} ticks in process\n")
    print("| tournaments (running after the ticks) | tables | tick p50 / max ms | loop held max ms | store connects a tick: on the loop / in threads |")
    print("|---|---|---|---|---|")
    print(f"| {t['tournaments']} ({t['running']}) | {t['tables']} | {t['tick_p50_ms']} / {t['tick_max_ms']} | {t['loop_held_max_ms']} | "
          f"{t['connects_on_loop_per_tick']} / {t['connects_in_threads_per_tick']} |")
    if a.tables:
        print(f"\n{a.tables} live tables, a move every {a.pace} s, {a.seconds:g} s measured\n")
        print("| server | acks | ack p50 / p99 / max ms |")
        print("|---|---|---|")
        for k, name in (("acks_without", "no tournaments"), ("acks_with", f"{a.open + a.running} tournaments")):
            r = out[k]
            print(f"| {name} | {r['n']} | {r['p50_ms']} / {r['p99_ms']} / {r['max_ms']} |")


if __name__ == "__main__":
    main()
