"""Two levels on duplicate single deals: a quick measure of strength on a shared machine.

Run from the repository root:

    python benchmarks/deals_duplicate.py --pairs 40 [--start 0] [--seed 37] [--levels ismcts:expert]
                                         [--budget-ms MS] [--cpu-clock] [--out FILE.jsonl]
    python benchmarks/deals_duplicate.py --merge FILE.jsonl ...

Each pair is one deal (the ``eaai`` preset with ``scoring="deal"``: one deal is the whole
game, R11.1) played twice from the same seed (``ginrummy.analysis.simulate.match_seed(seed, pair)``),
the two levels swapping player indexes, hence cards and first role (R3.1): the luck of the
cards cancels out in the pair (:mod:`ginrummy.analysis.duplicate`).  A drawn deal counts half
to each.  It prints A's share of the deals won and A's points minus B's a pair, each with its
95% interval over the pairs, and each level's decision times (median and 99th percentile,
decisions with two or more legal actions).  Levels are built by ``benchmarks/strength.py``'s
``build`` (``expert@ms280``, ``ismcts@ms150``, ...).  ``--out`` appends one JSON line a deal, so
an interrupted run keeps its figures; ``--merge`` sums such files.

A game to 100 is about 4.5 deals; the issue's 600 duplicate games at about 25 decisions a deal
a side and 0.2 s a decision are about 8 processor-hours, which is why single deals are
measured here.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from ginrummy.analysis.duplicate import summarise_pairs  # noqa: E402
from ginrummy.analysis.simulate import match_seed, player_seed  # noqa: E402
from ginrummy.match import Match  # noqa: E402
from ginrummy.rules import preset  # noqa: E402
from strength import Timed, build  # noqa: E402

RULES = preset("eaai").replace(scoring="deal")


def play_deal(levels: tuple[str, str], pair: int, swapped: bool, seed: int, budget_ms: float | None,
              cpu_clock: bool) -> dict:
    """One deal of duplicate pair ``pair``: level ``levels[0]`` as player index 0 (1 when
    ``swapped``).  Its JSON line: ``{"levels", "seed", "pair", "swapped", "won", "points", "times"}``
    with ``won`` A's share (1, 0 or 0.5 for a drawn deal) and ``points`` A's deal points minus B's."""
    mseed = match_seed(seed, pair)
    order = (1, 0) if swapped else (0, 1)  # order[j]: the player index of levels[j]
    match = Match.new(RULES, ["p0", "p1"], mseed)
    times: list[list[float]] = [[], []]
    players = {}
    for j in range(2):
        players[order[j]] = Timed(build(levels[j], random.Random(player_seed(mseed, j)), budget_ms, cpu_clock),
                                  times[j])
    t0 = time.perf_counter()
    while not match.deal.is_over:
        who = match.player_to_act()
        view = match.view(who)
        match.apply(who, players[who].choose(view, view.legal))
    rec = match.deals[-1]
    r = rec.result
    won, diff = 0.5, 0
    if r is not None and r.winner is not None:
        a_won = rec.seat_players[r.winner] == order[0]
        won = 1.0 if a_won else 0.0
        diff = r.points if a_won else -r.points
    return {"levels": list(levels), "seed": seed, "pair": pair, "swapped": swapped, "won": won, "points": diff,
            "times": times, "seconds": time.perf_counter() - t0, "clock": "process" if cpu_clock else "wall"}


def report(lines: list[dict]) -> str:
    """The summary of ``lines`` (JSON lines of :func:`play_deal` of one pairing)."""
    games = [(r["pair"], r["swapped"], r["won"], r["points"]) for r in lines]
    st = summarise_pairs(games)
    a, b = lines[0]["levels"]
    ta = [x for r in lines for x in r["times"][0]]
    tb = [x for r in lines for x in r["times"][1]]

    def q(xs: list[float], p: float) -> str:
        if not xs:
            return "-"
        xs = sorted(xs)
        return f"{1000 * xs[min(len(xs) - 1, int(p * len(xs)))]:.1f}"

    return (f"{a} vs {b}: {st.pairs} pairs ({len(lines)} deals); {a}'s share of deals "
            f"{100 * st.win_rate:.1f}% ({100 * st.win_low:.1f}%-{100 * st.win_high:.1f}%); points a pair "
            f"{st.points_diff:+.1f} ({st.points_low:+.1f} to {st.points_high:+.1f}); "
            f"variance vs independent deals wins {st.win_variance_ratio:.2f} points {st.points_variance_ratio:.2f}; "
            f"ms/decision {a} median {q(ta, 0.5)} p99 {q(ta, 0.99)}, {b} median {q(tb, 0.5)} p99 {q(tb, 0.99)} "
            f"({len(ta)} / {len(tb)} decisions)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=20, help="duplicate pairs (deals played twice)")
    ap.add_argument("--start", type=int, default=0, help="first pair number")
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--levels", default="ismcts:expert", help="A:B")
    ap.add_argument("--budget-ms", type=float, default=None, help="a budget for both levels (default: their own)")
    ap.add_argument("--cpu-clock", action="store_true", help="budgets count the process's processor time")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--merge", type=Path, nargs="+")
    args = ap.parse_args(argv)
    if args.merge:
        lines = [json.loads(x) for p in args.merge for x in p.read_text().splitlines() if x.strip()]
        print(report(lines))
        return 0
    a, b = args.levels.split(":")
    lines = []
    for pair in range(args.start, args.start + args.pairs):
        for swapped in (False, True):
            line = play_deal((a, b), pair, swapped, args.seed, args.budget_ms, args.cpu_clock)
            lines.append(line)
            if args.out:
                with args.out.open("a") as f:
                    f.write(json.dumps(line) + "\n")
        print(report(lines), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
