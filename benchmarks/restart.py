"""A server restarted with many stored tables: how long until it answers? (issue 27 goal)

Goal: "A server restarted with any stored tables comes up within 10 s."

Run from the repository root (127.0.0.1 only, bounded; heavy, so under ``nice``):

    nice -n 10 python benchmarks/restart.py                 # 1,000 tables, 3 starts
    nice -n 10 python benchmarks/restart.py --tables 200 --runs 1

Fills a temp SQLite store through the store's Python API (``benchmarks/storefill.py``: the rows
``gin serve`` writes, moves chosen by the engine's novice) with ``--tables`` tables in these
shares:

* 40% a person against a computer (novice, expert or master in turn), standard rules, stopped
  mid-deal after 5 to 200 steps (the person's client seeds stored for every deal);
* 20% computer-only public tables, ``master`` against ``master`` to 1000 (the bound), stopped
  after 50 to 400 steps: at start-up their next moves resume in the thinking pool;
* 15% three-hand tables (a person and two computers, or three computers), mid-match;
* 25% finished matches (computer-only to 100, and Hollywood matches of a person against novice);

plus ``--bad`` rows that cannot be resumed: rules past a bound written into the row (target
5000, knock limit 99, 50 reshuffles) and a stored step that is not a legal move.

Then ``--runs`` times: starts ``gin serve`` (default options but the port and the store), and
measures the seconds from starting the process to the first ``200`` of ``GET /readyz`` (polled
every 50 ms; uvicorn answers nothing before its start-up, which loads every stored table), the
RSS of the server and its children then, and 10 s later (the resumed tables playing), the main
process's VmHWM, and the "skipped" lines of its log.  Also one start on an empty store, for
comparison.  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import httpx  # noqa: E402
from sqlalchemy import insert, update  # noqa: E402

from abuse import proc_tree, status_kb  # noqa: E402
from load import free_port  # noqa: E402
from storefill import fill_table, rules_of  # noqa: E402


def fill(db: str, n: int, bad: int) -> dict[str, int]:
    """Fill the store ``db`` (a SQLAlchemy URL) with ``n`` tables and ``bad`` broken rows;
    returns counts by kind and the steps stored."""
    from ginrummy.web.db.store import Store, actions_t, tables_t
    store = Store(db)
    rng = random.Random(27)
    counts: dict[str, int] = {}
    steps = 0
    levels = ["novice", "expert", "master"]
    for i in range(n):
        share = i % 20
        if share < 8:
            kind, kinds, rules, most, opts = "person vs computer, mid-deal", ["human", f"bot:{levels[i % 3]}"], \
                rules_of("standard"), rng.randint(5, 200), None
        elif share < 12:
            kind, kinds, rules, most, opts = "master vs master to 1000, public", ["bot:master", "bot:master"], \
                rules_of("standard", target=1000), rng.randint(50, 400), {"public": True}
        elif share < 15:
            kinds = ["human", "bot:novice", "bot:expert"] if share % 2 else ["bot:novice", "bot:novice", "bot:master"]
            kind, rules, most, opts = "three-hand, mid-match", rules_of("standard"), rng.randint(5, 300), None
        elif share < 18:
            kind, kinds, rules, most, opts = "finished, computer-only to 100", ["bot:novice", "bot:novice"], \
                rules_of("standard"), 10 ** 6, None
        else:
            kind, kinds, rules, most, opts = "finished, Hollywood, person vs novice", ["human", "bot:novice"], \
                rules_of("hollywood"), 10 ** 6, None
        _, _, k = fill_table(store, kinds, rules, max_steps=most, rng=rng, options=opts)
        counts[kind] = counts.get(kind, 0) + 1
        steps += k
    broken = [{"target": 5000}, {"knock_limit": 99}, {"max_reshuffles": 50}]
    for j in range(bad):
        tid, _, _ = fill_table(store, ["bot:master", "bot:master"], rules_of("standard"), max_steps=20, rng=rng)
        with store.engine.begin() as conn:
            if j % 4 == 3:  # a step that is not a legal move
                conn.execute(insert(actions_t).values(table_id=tid, seq=21, player=0, kind="action",
                                                      text="discard ZZ", created=Store.now()))
            else:  # rules past a bound
                r = rules_of("standard").to_dict() | broken[j % 4]
                conn.execute(update(tables_t).where(tables_t.c.id == tid).values(rules=json.dumps(r, sort_keys=True)))
    counts["cannot be resumed"] = bad
    counts["steps stored"] = steps
    store.close()
    return counts


def start_once(db: str, tmp: Path, src: str, after: float) -> dict[str, float | int]:
    port = free_port()
    log = tmp / f"server-{port}.log"
    env = {**os.environ, "PYTHONPATH": src}
    t0 = time.perf_counter()
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "ginrummy", "serve", "--host", "127.0.0.1", "--port", str(port),
                                 "--database-url", db, "--log-level", "warning"], env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        up = None
        while time.perf_counter() - t0 < 120 and proc.poll() is None:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                    up = time.perf_counter() - t0
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        rss_up = sum(status_kb(p, "VmRSS") for p in proc_tree(proc.pid))
        procs = len(proc_tree(proc.pid))
        # a bystander's GET /api/options while the resumed tables play
        lat = []
        end = time.perf_counter() + after
        while time.perf_counter() < end and up is not None:
            s = time.perf_counter()
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/options", timeout=10)
                lat.append(time.perf_counter() - s)
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        rss_after = sum(status_kb(p, "VmRSS") for p in proc_tree(proc.pid))
        hwm = status_kb(proc.pid, "VmHWM")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(20)
    text = log.read_text(errors="replace")
    lat.sort()
    return {"ready_s": round(up, 2) if up is not None else -1, "rss_mb_at_ready": rss_up // 1024, "procs": procs,
            "rss_mb_after": rss_after // 1024, "main_hwm_mb": hwm // 1024, "skipped_lines": text.count("skipped"),
            "options_p50_ms": round(1000 * lat[len(lat) // 2], 1) if lat else -1,
            "options_max_ms": round(1000 * lat[-1], 1) if lat else -1}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--bad", type=int, default=8, help="rows that cannot be resumed (default 8)")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--after", type=float, default=10.0, help="seconds measured after ready (default 10)")
    p.add_argument("--src", default=str(ROOT / "src"))
    a = p.parse_args(argv)
    if not 1 <= a.tables <= 20000 or not 1 <= a.runs <= 10 or not 0 <= a.bad <= 100:
        p.error("--tables 1..20000, --runs 1..10, --bad 0..100")
    with tempfile.TemporaryDirectory() as tmp:
        empty = f"sqlite:///{tmp}/empty.sqlite3"
        db = f"sqlite:///{tmp}/gin.sqlite3"
        t = time.perf_counter()
        counts = fill(db, a.tables, a.bad)
        print(f"store: {counts} (filled in {time.perf_counter() - t:.1f} s, "
              f"{os.path.getsize(f'{tmp}/gin.sqlite3') // 1024} KB)")
        print("| store | run | ready after s | RSS at ready MB (processes) | RSS 10 s later MB | main VmHWM MB | "
              "'skipped' log lines | GET /api/options p50 / max ms meanwhile |")
        print("|---|---|---|---|---|---|---|---|")
        runs = [("empty", empty, 1)] + [(f"{a.tables} tables + {a.bad} broken", db, r + 1) for r in range(a.runs)]
        for name, url, r in runs:
            out = start_once(url, Path(tmp), str(Path(a.src).resolve()), a.after)
            print(f"| {name} | {r} | {out['ready_s']} | {out['rss_mb_at_ready']} ({out['procs']}) | {out['rss_mb_after']} "
                  f"| {out['main_hwm_mb']} | {out['skipped_lines']} | {out['options_p50_ms']} / {out['options_max_ms']} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
