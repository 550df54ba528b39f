"""Issue 35's goal: a scripted bot plays N rated games against the computer levels through the
bot API with 0 errors.  Starts ``gin serve`` on 127.0.0.1 (a fresh SQLite file, --bot-delay 0),
makes a bot account and a token over HTTP as the account page does, then runs ``gin bot
--server --token --command examples/gin_bot.py --challenge LEVEL --rated --games K`` for each
level in turn (N games in all, bounded by --max-seconds), and prints the figures.

    PYTHONPATH=src python benchmarks/bot_api.py --games 100 --levels novice,club,random
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_bot_server_e2e import PASSWORD, Browser, _bot_token  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--levels", default="novice,club,random")
    ap.add_argument("--max-seconds", type=float, default=1800)
    ap.add_argument("--db", default="/tmp/gin-bot-api-bench.sqlite3")
    args = ap.parse_args()
    Path(args.db).unlink(missing_ok=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = subprocess.Popen(
        [sys.executable, "-m", "ginrummy", "serve", "--host", "127.0.0.1", "--port", str(port), "--bot-delay", "0",
         "--log-level", "warning", "--database-url", f"sqlite:///{args.db}"],
        env=ENV, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        owner = Browser(base)
        owner.call("POST", "/api/account", {"name": "Owner", "password": PASSWORD})
        token = _bot_token(base, owner, "Scripty")
        # the API opens at most 30 tables a token in 10 minutes (TABLES_PER_WINDOW): a chunk of
        # at most 25 games a token, each chunk against the next level
        levels, per, left_games = [], [], args.games
        names = args.levels.split(",")
        while left_games > 0:
            levels.append(names[len(levels) % len(names)])
            per.append(min(25, left_games))
            left_games -= per[-1]
        tokens = [token] + [
            owner.call("POST", "/api/bots/Scripty/tokens", {"name": f"t{i}", "scopes": ["challenge", "play"]})["token"]
            for i in range(1, len(levels))
        ]
        script = f"{sys.executable} {ROOT / 'examples' / 'gin_bot.py'}"
        totals = {"games": 0, "won": 0, "moves": 0, "refused": 0, "fallback": 0, "checked": 0, "deals": 0, "errors": 0}
        start = time.monotonic()
        for level, k, token in zip(levels, per, tokens):
            left = args.max_seconds - (time.monotonic() - start)
            p = subprocess.run(
                [sys.executable, "-m", "ginrummy", "bot", "--server", base, "--command", script,
                 "--challenge", level, "--rated", "--games", str(k)],
                env={**ENV, "GIN_BOT_TOKEN": token}, capture_output=True, text=True, timeout=max(left, 1),
            )
            m = re.fullmatch(
                r"(\d+) games played as Scripty: (\d+) won; (\d+) moves sent, (\d+) refused, (\d+) played by the "
                r"fallback; fair-deal checks: (\d+) of (\d+) deals passed\n", p.stdout)
            if p.returncode != 0 or m is None:
                totals["errors"] += 1
                print(level, "ERROR", p.returncode, p.stdout, p.stderr[-2000:])
                continue
            g, w, mv, rf, fb, ck, dl = (int(x) for x in m.groups())
            print(f"{level}: {g} rated matches, {w} won, {dl} deals, {mv} moves, {rf} refused, {fb} fallback, "
                  f"{ck}/{dl} fair-deal checks passed ({time.monotonic() - start:.0f} s so far)")
            for key, v in zip(("games", "won", "moves", "refused", "fallback", "checked", "deals"), (g, w, mv, rf, fb, ck, dl)):
                totals[key] += v
        player = json.loads(urllib.request.urlopen(base + "/api/players/Scripty", timeout=20).read())
        totals["rated_matches_on_ladder"] = player["rated_matches"]
        totals["rating"] = player["rating"]
        totals["seconds"] = round(time.monotonic() - start, 1)
        print(json.dumps(totals))
    finally:
        os.killpg(srv.pid, signal.SIGTERM)
        srv.wait(30)


if __name__ == "__main__":
    main()
