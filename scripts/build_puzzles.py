"""Rebuild the shipped puzzle set (``src/ginrummy/analysis/puzzles.jsonl``) exactly, from simulations.

Match ``i`` (``i = 0 .. --matches - 1``) is ``gin simulate``'s match ``i`` of seed ``--seed`` between
the ``novice`` and the ``club`` levels (standard preset, a game to 100,
:func:`ginrummy.analysis.simulate.play_game`); every decision of its record is mined by
:func:`ginrummy.analysis.puzzles.mine_record` (``samples`` sampled deals, the re-check at 4 times
that from other seeds), named ``sim-<seed>-<i>``.  A position found twice is kept once (its
first).  The same arguments give the same file, byte for byte.

    nice -n 15 python scripts/build_puzzles.py --matches 12 --out src/ginrummy/analysis/puzzles.jsonl

``--max-seconds`` stops after the match that passes the limit and prints the ``--matches`` that
rebuilds what was written.  The file is rewritten after every match.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ginrummy.analysis.puzzles import dumps_puzzles, mine_record  # noqa: E402
from ginrummy.analysis.simulate import play_game  # noqa: E402
from ginrummy.rules import preset  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=12)
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument("--levels", default="novice,club")
    ap.add_argument("--out", default=str(ROOT / "src/ginrummy/analysis/puzzles.jsonl"))
    ap.add_argument("--max-seconds", type=float, default=0.0)
    args = ap.parse_args()
    levels = args.levels.split(",")
    rules = preset("standard")
    seen: set[str] = set()
    puzzles = []
    t0 = time.monotonic()
    for i in range(args.matches):
        g = play_game(rules, levels, i, args.seed)
        for p in mine_record(g.match, name=f"sim-{args.seed}-{i}", samples=args.samples, seed=args.seed):
            if p.id not in seen:
                seen.add(p.id)
                puzzles.append(p)
        Path(args.out).write_text(dumps_puzzles(puzzles), encoding="utf-8")
        print(f"match {i}: {len(puzzles)} puzzles, {time.monotonic() - t0:.0f} s", flush=True)
        if args.max_seconds and time.monotonic() - t0 > args.max_seconds:
            print(f"stopped: rebuild with --matches {i + 1}", flush=True)
            break


if __name__ == "__main__":
    main()
