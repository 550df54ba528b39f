"""The tournament page's live feed (issue 33; web/contests/feed.py): how soon a game's end
reaches the pages watching, and what a push to many watchers costs.

In one process, as ``gin serve`` runs it: a :class:`~ginrummy.web.contests.tournaments.Tournaments`
over a :class:`~ginrummy.web.room.tables.TableManager` on a new SQLite file (``--bot-delay 0``),
the manager's ``on_changed`` wired to ``Tournaments.table_changed`` as ``create_app`` does, and
no tick running: only a table's end moves the tournament.  An arena of computer entrants
(each game one scored deal) runs for ``--games`` games while ``--watchers`` fake pages watch it
(each a coroutine that decodes what it is sent).  For every game it measures the delay from
the change that ended its table to the push that shows its result; and the time and bytes of
one push to all the watchers.

Run from the repository root (bounded by ``--games`` and ``--limit`` seconds):

    nice -n 10 python benchmarks/tournament_feed.py
    nice -n 10 python benchmarks/tournament_feed.py --watchers 500 --games 40
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ginrummy.compete.tournament import TournamentSettings  # noqa: E402
from ginrummy.web.community.members import Players  # noqa: E402
from ginrummy.web.contests.tournaments import Tournaments, table_id_of  # noqa: E402
from ginrummy.web.db.store import Store  # noqa: E402
from ginrummy.web.room.tables import TableManager  # noqa: E402

T0 = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


async def run(watchers: int, games: int, limit: float) -> dict[str, Any]:
    folder = tempfile.mkdtemp(prefix="gin-feed-")
    store = Store(f"sqlite:///{folder}/feed.sqlite3")
    manager = TableManager(store, bot_delay=0)
    players = Players(store.engine, manager)
    now = [T0]
    ts = Tournaments(manager, players, lambda: now[0])
    ended: dict[str, float] = {}

    def changed(table: Any) -> None:
        if table.over and table.id not in ended:
            ended[table.id] = time.perf_counter()
        ts.table_changed(table)

    manager.on_changed = changed
    owner = players.accounts.sign_up("Owner", "a long enough password")
    settings = TournamentSettings.model_validate(
        {
            "name": "Feed",
            "kind": "arena",
            "start": (T0 + timedelta(minutes=1)).isoformat(),
            "minutes": 600,
            "scoring": "deal",
            "levels": ["random", "novice", "club", "expert"],
        }
    )
    tid = ts.create(owner, settings)
    seen: dict[str, float] = {}
    sizes: list[int] = []
    push_times: list[float] = []
    last_push: list[float] = [0.0]

    async def first(text: str) -> None:  # the first watcher stamps each game's result
        t = time.perf_counter()
        last_push[0] = t
        sizes.append(len(text.encode()))
        for r in json.loads(text)["view"]["pairings"]:
            for g in r["games"]:
                if g["result"] is not None and g["id"] not in seen:
                    seen[g["id"]] = t

    async def other(text: str) -> None:
        json.loads(text)

    async def last(text: str) -> None:  # the last watcher: the push reached everyone
        push_times.append(time.perf_counter() - last_push[0])

    ts.feed.max_per_tournament = ts.feed.max_watchers = watchers
    ts.feed.watch(tid, first, None)
    for i in range(watchers - 2):
        ts.feed.watch(tid, (lambda i: lambda text: other(text))(i), None)
    ts.feed.watch(tid, last, owner.id)
    now[0] = T0 + timedelta(minutes=1)
    await ts.advance(tid)  # the start and the first pairings; then only the tables' ends
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and len(seen) < games:
        await asyncio.sleep(0.005)
    t = ts.load(tid)
    delays = []
    for gid in seen:
        table_id = table_id_of(tid, gid)
        if table_id in ended:
            delays.append(seen[gid] - ended[table_id])
    logging.getLogger("ginrummy").setLevel(logging.CRITICAL)  # the games cut short by the stop
    await manager.stop()
    store.close()
    return {
        "watchers": watchers,
        "games": len(delays),
        "events": len(t.events),
        "delays": delays,
        "push_to_all": push_times,
        "bytes": sizes,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--watchers", type=int, default=200)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--limit", type=float, default=120.0, help="seconds at most")
    a = ap.parse_args()
    out = asyncio.run(run(max(2, a.watchers), a.games, a.limit))
    d = sorted(out["delays"])
    p = sorted(out["push_to_all"])

    def ms(xs: list[float], q: float) -> str:
        return f"{1000 * xs[min(len(xs) - 1, int(q * len(xs)))]:.1f}" if xs else "-"

    print(
        "| watchers | games | game end -> push: median ms | p95 ms | max ms | one push to all: median ms | max ms | view bytes (last) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print(
        f"| {out['watchers']} | {out['games']} | {1000 * statistics.median(d):.1f} | {ms(d, 0.95)} | {ms(d, 1.0)} "
        f"| {1000 * statistics.median(p):.1f} | {ms(p, 1.0)} | {out['bytes'][-1] if out['bytes'] else 0} |"
    )


if __name__ == "__main__":
    main()
