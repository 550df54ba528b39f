"""Leaderboard and player page answer times on a big ladder (docs/accounts.md).

Run from the repository root:

    python benchmarks/players.py [--players 10000] [--matches 100000] [--requests 1000] [--seed 1] [--write]
                                 [--db FILE [--fill-only]]

It fills a fresh SQLite database (in a temporary folder, or ``--db FILE`` when that file does
not exist yet; an existing ``--db FILE`` is used as it is) with ``--players`` accounts and
``--matches`` recorded rated matches between random pairs of them (two ``gin_result_players``
rows a match), starts ``gin serve`` on it (127.0.0.1, a free port), and asks, one request at a
time over one kept-alive connection, ``GET /api/leaderboard?limit=50&offset=K`` for random
pages and ``GET /api/players/NAME`` for random players, and, for comparison, ``GET /api/me`` of
a guest (an answer without database work: what the machine and the HTTP stack cost).  Each request's time is taken by the
client from sending it to having read the whole answer (so it includes HTTP, JSON and the
loopback); the figures are the median, the 99th percentile and the slowest, per endpoint,
after 50 warm-up requests of each.  ``--write`` replaces the section "Players" of
``benchmarks/RESULTS.md``; the section quotes ``uptime`` (the load averages) taken right
after the measured requests.

On a shared machine, fill the database once at low priority, outside the lock that the
machine's benchmarks take in turn, then time it under that lock (the fill is not timed)::

    nice -n 19 python benchmarks/players.py --db /tmp/players.sqlite3 --fill-only
    flock BENCH.lock python benchmarks/players.py --db /tmp/players.sqlite3 --write
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import httpx  # noqa: E402
from sqlalchemy import create_engine, insert  # noqa: E402

from ginrummy.web.community.accounts import accounts_t, metadata  # noqa: E402
from ginrummy.web.community.ratings import ordinal, result_players_t, results_t  # noqa: E402
from ginrummy.web.db.store import Store  # noqa: E402

SECTION = "## Players: leaderboard and player page"


def fill(url: str, players: int, matches: int, seed: int) -> list[str]:
    """Make the tables (as the server does) and insert the accounts and matches; the names."""
    Store(url).close()  # the table store's tables
    engine = create_engine(url)
    metadata.create_all(engine)
    rng = random.Random(seed)
    names = [f"player{i:05d}" for i in range(players)]
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    with engine.begin() as conn:
        rows = []
        for name in names:
            mu, sigma = rng.gauss(25, 4), rng.uniform(1.5, 8.3)
            rows.append({"name": name, "name_key": name, "kind": "human", "password_hash": None,
                         "created": start.isoformat(), "deleted": 0, "mu": mu, "sigma": sigma,
                         "ordinal": ordinal(mu, sigma), "matches": 2 * matches // players})
        conn.execute(insert(accounts_t), rows)
    with engine.begin() as conn:
        batch_r: list[dict] = []
        batch_p: list[dict] = []
        for i in range(matches):
            a, b = rng.sample(range(1, players + 1), 2)
            when = (start + timedelta(seconds=i * 60)).isoformat(timespec="seconds")
            rid = f"bench{i:07d}"
            batch_r.append({"id": rid, "finished": when, "rated": 1, "source": "table", "public": 1})
            win = rng.random() < 0.5
            for p, (me, other) in enumerate(((a, b), (b, a))):
                deals = rng.randint(3, 12)
                knocks = rng.randint(0, deals)
                batch_p.append({
                    "result_id": rid, "player": p, "account_id": me, "opponent_id": other,
                    "opponent_name": names[other - 1], "finished": when,
                    "outcome": "win" if win == (p == 0) else "loss", "deals": deals,
                    "deals_won": rng.randint(0, deals), "knocks": knocks, "gins": rng.randint(0, 2),
                    "undercuts_made": rng.randint(0, 1), "undercuts_suffered": rng.randint(0, 1),
                    "points": rng.randint(0, 150), "knock_deadwood": knocks * rng.randint(0, 9),
                    "mu_before": 25.0, "sigma_before": 8.0, "mu_after": rng.gauss(25, 3), "sigma_after": 7.5})
            if len(batch_r) >= 5000:
                conn.execute(insert(results_t), batch_r)
                conn.execute(insert(result_players_t), batch_p)
                batch_r, batch_p = [], []
        if batch_r:
            conn.execute(insert(results_t), batch_r)
            conn.execute(insert(result_players_t), batch_p)
    engine.dispose()
    return names


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` by the nearest-rank method."""
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(round(q * len(s) + 0.5)) - 1))
    return s[k]


def measure(base: str, names: list[str], requests: int, seed: int) -> dict[str, list[float]]:
    """Milliseconds per request for each endpoint (after 50 warm-up requests of each)."""
    rng = random.Random(seed + 1)
    out: dict[str, list[float]] = {"leaderboard": [], "player": [], "baseline": []}
    pages = max(1, len(names) // 50)
    with httpx.Client(base_url=base, timeout=30) as c:
        for k in range(requests + 50):
            for what in ("leaderboard", "player", "baseline"):
                url = (f"/api/leaderboard?limit=50&offset={50 * rng.randrange(pages)}" if what == "leaderboard"
                       else f"/api/players/{rng.choice(names)}" if what == "player" else "/api/me")
                t0 = time.perf_counter()
                r = c.get(url)
                r.read()
                ms = (time.perf_counter() - t0) * 1000
                assert r.status_code == 200, (url, r.status_code, r.text[:200])
                if k >= 50:
                    out[what].append(ms)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--matches", type=int, default=100_000)
    ap.add_argument("--requests", type=int, default=1000, help="measured requests per endpoint")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", action="store_true", help="write the section of benchmarks/RESULTS.md")
    ap.add_argument("--db", help="the SQLite file to use: filled first if it does not exist, else used as it is")
    ap.add_argument("--fill-only", action="store_true", help="with --db: fill the database and stop")
    args = ap.parse_args(argv)
    if args.fill_only and not args.db:
        ap.error("--fill-only needs --db FILE")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(args.db) if args.db else Path(tmp) / "bench.sqlite3"
        url = f"sqlite:///{db}"
        names = [f"player{i:05d}" for i in range(args.players)]
        if not db.exists():
            t0 = time.time()
            names = fill(url, args.players, args.matches, args.seed)
            print(f"filled {args.players} players and {args.matches} matches in {time.time() - t0:.0f} s", flush=True)
        if args.fill_only:
            return 0
        port = _free_port()
        proc = subprocess.Popen([sys.executable, "-m", "ginrummy", "serve", "--port", str(port), "--database-url", url,
                                 "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(base + "/api/me", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("gin serve did not start")
                time.sleep(0.2)
            got = measure(base, names, args.requests, args.seed)
            uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(20)
    lines = [SECTION, "",
             "```",
             *([f"nice -n 19 python {shlex.join(['benchmarks/players.py', '--db', args.db, '--fill-only'])}  # not timed"]
               if args.db else []),
             "python " + shlex.join(["benchmarks/players.py", *(argv if argv is not None else sys.argv[1:])]), "```", "",
             f"{args.players:,} accounts and {args.matches:,} rated matches in SQLite (WAL), `gin serve` on 127.0.0.1, "
             f"one request at a time over a kept-alive connection, {args.requests:,} measured requests per endpoint "
             f"after 50 warm-up requests; the time of a request is taken by the client, from sending it to having "
             f"read the whole answer. {platform.python_implementation()} {platform.python_version()}, "
             f"{os.cpu_count()} cores shared with other work, {datetime.now(timezone.utc):%Y-%m-%d}; "
             f"`uptime` right after the measured requests: `{uptime}`.", "",
             "| endpoint | median ms | p99 ms | slowest ms | goal |", "|---|---|---|---|---|"]
    for what, label in (("leaderboard", "`GET /api/leaderboard?limit=50&offset=K` (random page)"),
                        ("player", "`GET /api/players/NAME` (random player: stats, 20 recent, rating history)"),
                        ("baseline", "for comparison: `GET /api/me` of a guest (no database work)")):
        v = got[what]
        p99 = percentile(v, 0.99)
        goal = "-" if what == "baseline" else f"p99 < 100 ms: {'met' if p99 < 100 else 'not met'}"
        lines.append(f"| {label} | {percentile(v, 0.5):.1f} | {p99:.1f} | {max(v):.1f} | {goal} |")
    lines += ["", "Indexes: `gin_accounts (deleted, ordinal, id, matches)` for the ladder order (a page's ids come from this index alone, then their 50 rows), the unique `name_key` for a name, "
              "`gin_result_players (account_id, finished)` for a player's statistics, recent matches and history.", ""]
    text = "\n".join(lines)
    print(text)
    if args.write:
        path = ROOT / "benchmarks" / "RESULTS.md"
        old = path.read_text(encoding="utf-8")
        if SECTION in old:  # replaced where it stands
            head, rest = old.split(SECTION, 1)
            nxt = rest.find("\n## ")
            new = head + text + ("\n" + rest[nxt + 1:] if nxt >= 0 else "")
        else:
            new = old.rstrip("\n") + "\n\n" + text
        path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
