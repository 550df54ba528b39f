"""A 64-entrant, 5-round Swiss tournament through the room's store, pairing and tables, with the
server process killed (SIGKILL) during round 3 (issue 33 goal).  No browser, no HTTP: each
"server" is a process running :class:`ginrummy.web.contests.tournaments.Tournaments` over a
:class:`~ginrummy.web.room.tables.TableManager` on one SQLite file, as ``gin serve`` does, its
people scripted (gin or knock when they may, else the first legal action; client seeds sent),
the computer entrants (random, novice, club) played by the manager's own computer seats.

Run from the repository root (bounded: at most ``--limit`` seconds a process):

    nice -n 10 python benchmarks/tournament_swiss.py                  # 64 entrants, 5 rounds, kill in round 3
    nice -n 10 python benchmarks/tournament_swiss.py --kill-round 0   # no kill
    nice -n 10 python benchmarks/tournament_swiss.py --servers 2      # two servers at once, one killed

Prints a Markdown table: each round's seconds (from its pairing to the next event of the
next round, read from the stored events' times), the steps stored, and the checks: no pairing
repeated, every game with its result, one ``paired`` event per round, and the standings equal
to a recomputation from the stored tables (each rebuilt from its steps by a fresh manager).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from argon2 import PasswordHasher
from sqlalchemy import func, select

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ginrummy.compete import swiss  # noqa: E402
from ginrummy.compete.tournament import TournamentSettings  # noqa: E402
from ginrummy.web.community.accounts import Accounts  # noqa: E402
from ginrummy.web.community.members import Players  # noqa: E402
from ginrummy.web.contests.tournament_view import games_from_tables  # noqa: E402
from ginrummy.web.contests.tournaments import Tournaments  # noqa: E402
from ginrummy.web.db.store import Store, actions_t  # noqa: E402
from ginrummy.web.db.tournaments import events_t  # noqa: E402
from ginrummy.web.room.tables import TableManager  # noqa: E402

LEVELS = ["random", "novice", "club"]


def _app(url: str) -> tuple[Store, TableManager, Tournaments]:
    store = Store(url)
    manager = TableManager(store, bot_delay=0, workers=1)
    accounts = Accounts(store.engine, hasher=PasswordHasher(time_cost=1, memory_cost=64, parallelism=1))
    players = Players(store.engine, manager, accounts=accounts)
    return store, manager, Tournaments(manager, players)


async def _play_table(manager: TableManager, table) -> None:  # noqa: ANN001
    table = manager.current(table)
    if table.over:
        return
    n = table.next_deal_number
    for p in list(table.waiting_for):
        await manager.client_seed(table, p, n, f"seed{p}{n}")
    table = manager.current(table)
    if table.match is not None and table.match.deal.is_over and not table.over and not table.waiting_for:
        await manager.next_deal(table, None)
        return
    for p in table.humans:
        legal = manager.current(table).legal_now(p)
        if legal:
            pick = next((a for a in legal if a.kind in ("gin", "big_gin", "knock")), legal[0])
            await manager.act(manager.current(table), p, pick)


async def _serve(url: str, tid: str, limit: float) -> None:
    """A server process: resume the stored tables, then step the tournament and play the
    people's seats until it is finished (or ``limit`` seconds)."""
    store, manager, ts = _app(url)
    manager.load_all()
    manager.start()
    end = time.monotonic() + limit
    while time.monotonic() < end:
        await ts.advance(tid)
        if ts.load(tid).state == "finished":
            break
        await asyncio.gather(
            *(_play_table(manager, t) for t in list(manager.tables.values()) if not t.over), return_exceptions=True
        )
        await asyncio.sleep(0)
    await manager.stop()
    store.close()


def _setup(url: str, entrants: int, rounds: int) -> str:
    store, _manager, ts = _app(url)
    people = [ts.players.accounts.sign_up(f"entrant{i:02d}", "a long enough password") for i in range(entrants - 3)]
    settings = TournamentSettings(
        name="Benchmark Swiss",
        kind="swiss",
        start=datetime.now(UTC) + timedelta(seconds=2),
        rounds=rounds,
        scoring="deal",
        levels=tuple(LEVELS),
        max_players=entrants,
    )
    tid = ts.create(people[0], settings)
    for p in people:
        ts.join(tid, p)
    store.close()
    return tid


def _spawn(url: str, tid: str, limit: float) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, __file__, "--serve", url, tid, "--limit", str(limit)], start_new_session=True
    )


def _paired_rounds(store: Store, tid: str) -> int:
    with store.engine.connect() as conn:
        return int(
            conn.execute(
                select(func.count()).where(events_t.c.tournament_id == tid, events_t.c.kind == "paired")
            ).scalar_one()
        )


def _results_in_round(store: Store, tid: str, round_no: int) -> int:
    with store.engine.connect() as conn:
        return int(
            conn.execute(
                select(func.count()).where(
                    events_t.c.tournament_id == tid, events_t.c.kind == "result", events_t.c.game.like(f"{round_no}-%")
                )
            ).scalar_one()
        )


def _check(url: str, tid: str) -> dict:
    store, manager, ts = _app(url)
    t = ts.load(tid)
    pairs = [frozenset((g.a, g.b)) for g in t.games if g.b is not None]
    games = games_from_tables(tid, t, manager.load)
    with store.engine.connect() as conn:
        times = [
            (r.kind, r.round, r.created)
            for r in conn.execute(
                select(events_t.c.kind, events_t.c.round, events_t.c.created)
                .where(events_t.c.tournament_id == tid)
                .order_by(events_t.c.seq)
            )
        ]
        steps = conn.execute(select(func.count()).select_from(actions_t)).scalar_one()
    store.close()
    marks = [datetime.fromisoformat(c) for k, _r, c in times if k in ("paired", "finished")]
    return {
        "state": t.state,
        "rounds": t.round,
        "paired_events": sum(1 for k, _r, _c in times if k == "paired"),
        "games": len(pairs),
        "repeats": len(pairs) - len(set(pairs)),
        "without_result": sum(1 for g in t.games if g.b is not None and g.result is None),
        "standings_equal": t.swiss_table() == swiss.standings(t.players, games),
        "round_seconds": [round((b - a).total_seconds(), 1) for a, b in zip(marks, marks[1:])],
        "steps": steps,
        "withdrawn": len(t.withdrawn),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entrants", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--kill-round", type=int, default=3, help="SIGKILL the server during this round (0: never)")
    ap.add_argument("--limit", type=float, default=900.0, help="seconds a server process may run")
    ap.add_argument("--servers", type=int, default=1, help="server processes at once on the one database")
    ap.add_argument("--serve", nargs=2, metavar=("URL", "TID"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.serve:
        asyncio.run(_serve(a.serve[0], a.serve[1], a.limit))
        return
    folder = tempfile.mkdtemp(prefix="gin-swiss-")
    url = f"sqlite:///{os.path.join(folder, 'gin.sqlite3')}"
    t0 = time.monotonic()
    tid = _setup(url, a.entrants, a.rounds)
    setup = time.monotonic() - t0
    t1 = time.monotonic()
    others = [_spawn(url, tid, a.limit) for _ in range(a.servers - 1)]  # these run to the end
    proc = _spawn(url, tid, a.limit)
    killed = None
    if a.kill_round:
        store = Store(url)
        deadline = time.monotonic() + a.limit
        while time.monotonic() < deadline and proc.poll() is None:
            # during the round: paired, and some of its games (not all) have their results
            if _paired_rounds(store, tid) >= a.kill_round and _results_in_round(store, tid, a.kill_round) >= 4:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(30)
                killed = _results_in_round(store, tid, a.kill_round)
                break
            time.sleep(0.05)
        store.close()
        proc = _spawn(url, tid, a.limit)
    proc.wait(a.limit + 60)
    for other in others:
        other.wait(a.limit + 60)
    wall = time.monotonic() - t1
    c = _check(url, tid)
    print(
        "| entrants | rounds | setup s | wall s | kill | steps | games | repeats | without result | paired events | standings = recomputation |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    kill = "none" if not a.kill_round else f"round {a.kill_round}, {killed} of {a.entrants // 2} results in"
    print(
        f"| {a.entrants} | {c['rounds']} ({c['state']}) | {setup:.1f} | {wall:.1f} | {kill} | {c['steps']} | "
        f"{c['games']} | {c['repeats']} | {c['without_result']} | {c['paired_events']} | {c['standings_equal']} |"
    )
    print(f"\nseconds per round (pairing to the next pairing or the finish): {c['round_seconds']}")
    print(f"withdrawn: {c['withdrawn']}")


if __name__ == "__main__":
    main()
