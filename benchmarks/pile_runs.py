"""How long the runs of draws from the discard pile are in computer games, and how often the
computer players' stock draw after :data:`ginrummy.players.base.PILE_RUN_LIMIT` takes in a row
(``stock_draw_due``, R4.4) decides a draw.

Run from the repository root:

    python benchmarks/pile_runs.py [--games 200] [--seed 7] [--presets standard,eaai]
                                   [--pairs sage-fast:sage-fast,club:club,sage-fast:club,novice:club]

Each pairing plays ``--games`` games of each preset (``ginrummy.analysis.simulate.play_game``,
the seats as ``gin simulate`` gives them).  A run is the number of draws in a row, either
seat's, that took the discard pile or the upcard (``take_discard``, ``take_upcard``) since the
deal's last stock draw; a deal's longest run is counted.  A line a pairing and preset: games,
deals, the longest run of any deal, the deals whose longest run is 6 or more, 9 or more, and
the deals where the limit was reached (the stock draw decided at least once).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ginrummy.analysis.simulate import play_game  # noqa: E402
from ginrummy.players.base import PILE_RUN_LIMIT  # noqa: E402
from ginrummy.rules import preset  # noqa: E402


def longest_run(actions) -> int:
    """The longest run of pile takes (``take_discard``, ``take_upcard``) between stock draws in
    one deal's ``(seat, action)`` list."""
    run = most = 0
    for _, a in actions:
        if a.kind in ("take_discard", "take_upcard"):
            run += 1
            most = max(most, run)
        elif a.kind == "draw_stock":
            run = 0
    return most


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--presets", default="standard,eaai")
    ap.add_argument("--pairs", default="sage-fast:sage-fast,club:club,sage-fast:club,novice:club")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be 1 or more")
    print(f"limit {PILE_RUN_LIMIT}; {args.games} games a pairing and preset, seed {args.seed}")
    print("| pairing | preset | games | deals | longest run | deals with a run >= 6 | >= 9 | "
          f"limit reached ({PILE_RUN_LIMIT}) | seconds |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.presets.split(","):
        rules = preset(name)
        for pair in args.pairs.split(","):
            levels = pair.split(":")
            t0 = time.perf_counter()
            runs = []
            for i in range(args.games):
                outcome = play_game(rules, levels, i, args.seed)
                runs += [longest_run(rec.actions) for rec in outcome.match.deals]
            print(f"| {' vs '.join(levels)} | {name} | {args.games} | {len(runs)} | {max(runs)} | "
                  f"{sum(r >= 6 for r in runs)} | {sum(r >= 9 for r in runs)} | "
                  f"{sum(r >= PILE_RUN_LIMIT for r in runs)} | {time.perf_counter() - t0:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
