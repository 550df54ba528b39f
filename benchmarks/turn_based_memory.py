"""What idle turn-based tables hold in memory (issue 33, item 3: "do not hold hundreds of idle
tables' tasks forever").

Run from the repository root (in-process, a temp SQLite file, no server, no network; bounded
by ``--tables``):

    PYTHONPATH=src python benchmarks/turn_based_memory.py --tables 300

Opens ``--tables`` two-person tables of one day a move through ``TableManager`` (bot delay 0),
deals each (both client seeds), makes two moves at each, then waits for the loop to settle and
reports: the Python heap the tables added (``tracemalloc``, traced from before the first table)
in total and per table, the asyncio tasks still pending, and the loop's scheduled timers (one
``TimerHandle`` per running days clock).  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import tempfile
import tracemalloc
from pathlib import Path

from ginrummy.rules import preset
from ginrummy.web.db.store import Store
from ginrummy.web.room.tables import SeatSpec, TableManager


async def run(tables: int, db: str) -> dict[str, float]:
    manager = TableManager(Store(db), bot_delay=0, workers=1)
    seats = [SeatSpec("human", "Ann"), SeatSpec("human", "Bob")]
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    for _ in range(tables):
        t, _ = await manager.create_async(preset("standard"), seats, options={"clock": {"days": 1}}, seat_all=True)
        await manager.client_seed(t, 0, 1, "a")
        await manager.client_seed(t, 1, 1, "b")
        for _ in range(2):
            t = manager.tables[t.id]
            p = t.match.player_to_act()
            await manager.act(t, p, t.match.view(p).legal[0])
    await asyncio.sleep(0.2)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    loop = asyncio.get_running_loop()
    pending = [x for x in asyncio.all_tasks() if x is not asyncio.current_task() and not x.done()]
    timers = sum(1 for h in getattr(loop, "_scheduled", []) if not h.cancelled())  # cancelled ones wait for cleanup
    names = sorted({getattr(x.get_coro(), "__qualname__", "?") for x in pending})
    clocks = sum(1 for t in manager.tables.values() if t.clock_timer is not None)
    await manager.stop()
    return {
        "tables": tables,
        "heap": used,
        "per_table": used / tables,
        "tasks": len(pending),
        "names": names,
        "timers": timers,
        "clocks": clocks,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=300)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        r = asyncio.run(run(max(1, min(args.tables, 5000)), f"sqlite:///{Path(d) / 'gin.sqlite3'}"))
    print("| tables | heap added (MiB) | per table (KiB) | pending tasks | loop timers | clock timers |")
    print("|---|---|---|---|---|---|")
    print(
        f"| {r['tables']} | {r['heap'] / 2**20:.1f} | {r['per_table'] / 1024:.1f} | {r['tasks']} ({', '.join(r['names'])}) "
        f"| {r['timers']} | {r['clocks']} |"
    )


if __name__ == "__main__":
    main()
