"""The web server's own work per move, without HTTP, WebSockets or a second process.

Run from the repository root (a whole-process figure: this process's CPU time per
acknowledged move):

    python benchmarks/serverpath.py                 # 200 tables, 10 s, a temp SQLite file
    python benchmarks/serverpath.py --tables 50 --seconds 20
    python benchmarks/serverpath.py --json          # the figures as JSON

It drives :class:`ginrummy.web.room.tables.TableManager` directly, as ``gin serve`` does (computer
seats of level ``novice`` moving at once, ``--bot-delay 0``; a new SQLite file with the group
commit; the garbage collector set as ``gin serve`` sets it): one scripted person a table, who
reads each state it is sent as JSON text (``StateMessage.to_text``, then parsed), moves as soon
as it is his turn (gin, else knock, else pass or draw from the stock, else a seeded discard),
sends his client seeds, starts the next deal, and opens a new table when a match is over.

It is ``benchmarks/load.py`` without uvicorn, Starlette, the WebSocket frames and the load
generator's process: on a machine shared with other work it measures the server's own code
(the states, the engine, the computer's choice, the group commit, asyncio) with much less
noise, so two versions of that code compare well run after run.  The figure includes the
scripted people's parsing of the states (about a tenth of it).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ginrummy.rules import preset  # noqa: E402
from ginrummy.web.protocol.state import StateMessage  # noqa: E402
from ginrummy.web.db.store import Store  # noqa: E402
from ginrummy.web.room.tables import SeatSpec, TableManager  # noqa: E402

from load import pick  # noqa: E402  (the scripted person's move, the same as load.py's; this folder is on the path)


async def run(tables: int, seconds: float, warmup: float, folder: str) -> dict[str, Any]:
    """Play ``tables`` tables for ``warmup`` + ``seconds`` seconds; the figures of the last
    ``seconds``."""
    store = Store(f"sqlite:///{folder}/serverpath.db")
    manager = TableManager(store, bot_delay=0)
    acked = 0
    stopping = False

    async def person(i: int) -> None:
        nonlocal acked
        rng = random.Random(i)
        while not stopping:
            seats = [SeatSpec("human"), SeatSpec("bot", level="novice")]
            if hasattr(manager, "create_async"):
                table, _ = await manager.create_async(preset("standard"), seats)
            else:  # the code before create_async (to compare with it)
                table, _ = manager.create(preset("standard"), seats)
            arrived = asyncio.Event()
            box: dict[str, Any] = {}

            async def send(msg: dict[str, Any]) -> None:
                box["msg"] = json.loads(msg.to_text() if type(msg) is StateMessage else json.dumps(msg))
                arrived.set()

            manager.watch(table, 0, send)
            await manager.changed(table)
            while not stopping:
                await arrived.wait()
                arrived.clear()
                st = box["msg"]
                if st["match"]["finished"]:
                    break
                t = manager.tables[table.id]
                pending = st["fair"]["pending"]
                if pending is not None and pending["yours"] is None:
                    await manager.client_seed(t, 0, pending["deal"], f"s{rng.getrandbits(64):x}")
                elif st["your_turn"]:
                    await manager.act(t, 0, pick(st["view"]["legal_actions"], rng))
                    await manager.flushed(t)
                    acked += 1
                elif st["can_next_deal"]:
                    await manager.next_deal(t, 0)

    tasks = [asyncio.create_task(person(i)) for i in range(tables)]
    await asyncio.sleep(warmup)
    a0, c0, t0 = acked, time.process_time(), time.monotonic()
    await asyncio.sleep(seconds)
    a1, c1, t1 = acked, time.process_time(), time.monotonic()
    stopping = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await manager.stop()
    store.close()
    n = max(1, a1 - a0)
    return {"tables": tables, "seconds": round(t1 - t0, 1), "acked_moves_per_s": round(n / (t1 - t0), 1),
            "cpu_percent": round(100 * (c1 - c0) / (t1 - t0), 1), "cpu_ms_per_acked_move": round(1000 * (c1 - c0) / n, 3)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200, help="tables played at once (default 200)")
    p.add_argument("--seconds", type=float, default=10.0, help="measured time (default 10)")
    p.add_argument("--warmup", type=float, default=3.0, help="seconds played before measuring (default 3)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    a = p.parse_args(argv)
    if a.tables < 1 or a.seconds <= 0 or a.warmup < 0:
        p.error("--tables is 1 or more, --seconds above 0, --warmup 0 or more")
    try:
        from ginrummy.cli.server.serve import GC_YOUNG_THRESHOLD
    except ImportError:  # the code before it: gin serve kept Python's default
        GC_YOUNG_THRESHOLD = gc.get_threshold()[0]
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])  # as gin serve
    logging.disable(logging.CRITICAL)  # the tables cut off at the end log their last refused moves
    try:
        import uvloop  # uvicorn[standard] brings it; gin serve runs on it
        new_loop = uvloop.new_event_loop
    except ImportError:  # pragma: no cover
        new_loop = asyncio.new_event_loop
    with tempfile.TemporaryDirectory(prefix="gin-serverpath-") as folder:
        with asyncio.Runner(loop_factory=new_loop) as runner:
            out = runner.run(run(a.tables, a.seconds, a.warmup, folder))
    if a.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"python benchmarks/serverpath.py {' '.join(argv if argv is not None else sys.argv[1:])}".rstrip())
    print(f"  {out['tables']} tables, {out['seconds']:g} s measured: {out['acked_moves_per_s']:,} acknowledged moves/s, "
          f"CPU {out['cpu_percent']}% of a core, {out['cpu_ms_per_acked_move']} ms a move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
