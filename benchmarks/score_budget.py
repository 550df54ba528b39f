"""What a smaller review budget does to the performance score's rating (issue 32: the table's
score under load, ``ginrummy.analysis.performance.BUDGET_NOISE``; benchmarks/RESULTS.md,
"Score at the web table").

Plays ``--matches`` matches of computer levels (random, novice, club: the levels the table's
people are near), reviews each match at the calibration's budget (100 ms, 50 sampled deals a
decision) with one seed and again with another seed at each of ``--budgets`` (default 100, 50,
32: 50, 25 and 16 sampled deals), and reports for each budget, over every player of every match:
the mean of (rating at the budget - rating at 100 ms) (the bias: a smaller sample of deals
makes the best move look better than the one played more often, so the loss grows and the
rating drops), the rating being :func:`~ginrummy.analysis.performance.rating_estimate`'s centre,
the standard deviation of that difference scaled to a match of the calibration's 85 decisions
(x sqrt(decisions / 85): the noise), and the review's milliseconds of processor a decision on
this machine.  The 100 ms row is the noise of the review itself at the calibration's budget,
already inside the calibration's interval.

    nice -n 10 python benchmarks/score_budget.py --matches 16
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ginrummy.analysis.performance import CALIBRATION, CALIBRATION_BUDGET_MS  # noqa: E402
from ginrummy.analysis.review import build_review, samples_for  # noqa: E402
from ginrummy.analysis.simulate import play_game  # noqa: E402
from ginrummy.rules import preset  # noqa: E402


def centre(loss: float) -> float:
    """The fit's rating for a loss per decision (no clamping: the differences are what is measured)."""
    return CALIBRATION["a"] + CALIBRATION["b"] * math.log(loss + CALIBRATION["c"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=16)
    ap.add_argument("--budgets", default="100,50,32")
    ap.add_argument("--seed", type=int, default=32)
    args = ap.parse_args()
    budgets = [float(b) for b in args.budgets.split(",")]
    pairs = itertools.cycle([("random", "novice"), ("novice", "club"), ("random", "club"), ("novice", "novice")])
    diffs: dict[float, list[float]] = {b: [] for b in budgets}  # scaled to 85 decisions
    raw: dict[float, list[float]] = {b: [] for b in budgets}
    secs: dict[float, list[float]] = {b: [] for b in budgets}
    rules = preset("standard")
    for i in range(args.matches):
        levels = next(pairs)
        g = play_game(rules, list(levels), i, args.seed)
        ref = build_review(g.match, budget_ms=CALIBRATION_BUDGET_MS, seed=1000 + i)
        per = {}
        for k, b in enumerate(budgets):
            t0 = time.process_time()
            per[b] = build_review(g.match, budget_ms=b, seed=2000 + 10 * i + k)
            secs[b].append((time.process_time() - t0) / max(1, sum(len(d.decisions) for d in per[b].deals)))
        for name in g.match.names:
            ds = [x for d in ref.deals for x in d.decisions if x.player == name]
            if not ds:
                continue
            base = centre(sum(x.loss for x in ds) / len(ds))
            scale = math.sqrt(len(ds) / CALIBRATION["decisions"])
            for b in budgets:
                xs = [x for d in per[b].deals for x in d.decisions if x.player == name]
                d = centre(sum(x.loss for x in xs) / len(xs)) - base
                raw[b].append(d)
                diffs[b].append(d * scale)
        print(i, levels, {b: round(diffs[b][-1], 1) for b in budgets}, file=sys.stderr, flush=True)
    out = {}
    for b in budgets:
        out[str(b)] = {"samples": samples_for(b), "n": len(diffs[b]), "bias": round(statistics.mean(raw[b]), 1),
                       "sd": round(statistics.stdev(diffs[b]), 1),
                       "ms_per_decision": round(1000 * statistics.mean(secs[b]), 1)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
