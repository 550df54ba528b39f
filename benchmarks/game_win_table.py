"""Time and memory of ``players.expert.game_win_table(target)`` (issue 27).

    python benchmarks/game_win_table.py            # the table as built now (pure Python, exact to 250, a coarser grid past it)
    python benchmarks/game_win_table.py --old      # also the former pure-Python loop, and compares

Each target is built once from a cold cache (best of ``--repeat`` builds).  ``--old`` times the
former cell-by-cell loop (kept here, not in the package) and checks that both tables hold the
same floats, cell for cell.  Peak memory is the largest traced allocation (tracemalloc, NumPy's
arrays included) during one more build, untimed.  Run from the repository root (it puts ``src/`` on the path itself).
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ginrummy.players.expert import _DEAL_POINTS, _to_go, game_win_table  # noqa: E402


def old_table(target: int) -> list[list[float]]:
    """The former ``game_win_table``: a (target+1)² list filled cell by cell in pure Python."""
    t = target
    v = [[0.0] * (t + 1) for _ in range(t + 1)]
    for a in range(t, -1, -1):
        for b in range(t, -1, -1):
            if a >= t:
                v[a][b] = 1.0
                continue
            if b >= t:
                v[a][b] = 0.0
                continue
            win = sum(p * v[min(t, a + x)][b] for x, p in _DEAL_POINTS)
            lose = sum(p * v[a][min(t, b + x)] for x, p in _DEAL_POINTS)
            v[a][b] = 0.5 * win + 0.5 * lose
    return v


def timed(build, target: int, repeat: int) -> tuple[float, float, object]:
    """(best seconds, peak traced MB, the last table) of ``repeat`` cold builds."""
    best, out = float("inf"), None
    for _ in range(repeat):
        game_win_table.cache_clear()
        _to_go.cache_clear()
        t0 = time.perf_counter()
        out = build(target)
        best = min(best, time.perf_counter() - t0)
    out = None
    game_win_table.cache_clear()
    _to_go.cache_clear()
    tracemalloc.start()  # a separate build: tracing slows Python down several times
    out = build(target)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return best, peak, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--targets", type=int, nargs="*", default=[100, 250, 500, 1000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--old", action="store_true", help="also time the former pure-Python loop and compare")
    args = ap.parse_args()
    head = "| target | now (pure Python) | peak memory now |" + (" before (pure Python) | peak memory before | same floats |" if args.old else "")
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for t in args.targets:
        secs, mb, new = timed(game_win_table, t, args.repeat)
        row = f"| {t} | {secs * 1000:.1f} ms | {mb:.1f} MB |"
        if args.old:
            osecs, omb, old = timed(old_table, t, 1)
            same = all(old[a][b] == new[a, b] for a in range(t + 1) for b in range(t + 1))
            row += f" {osecs * 1000:,.0f} ms | {omb:.1f} MB | {'yes' if same else 'no (coarser grid)'} |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
