"""Benchmarks of the review (``gin review``, ``ginrummy.analysis.review``; issue 15).

Run from the repository root:

    python benchmarks/review.py records --out /tmp/review-bench
        writes deal.gin (one deal of a standard game, novice against novice) and hollywood.gin (a
        whole Hollywood match, novice against novice), seeded (--seed), for timing
        ``gin review FILE`` as a whole process (the commands are in benchmarks/RESULTS.md).
    python benchmarks/review.py loss --deals 50
        plays --deals deals (one deal a match, standard rules, seats alternating) of the expert
        (its default 150 ms a decision) against the novice, reviews every deal at the default
        budget, and prints each level's decisions, marks, mean loss and accuracy.

Prints a summary on stdout; nothing is written to RESULTS.md by the script.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ginrummy.match import Match  # noqa: E402
from ginrummy.players import make_player  # noqa: E402
from ginrummy.record import dumps  # noqa: E402
from ginrummy.analysis.review import DEFAULT_BUDGET_MS, build_review  # noqa: E402
from ginrummy.rules import preset  # noqa: E402


def play(match: Match, levels: list[str], seed: int, whole: bool) -> Match:
    """Play ``match`` (one deal, or to its end when ``whole``) with players of ``levels``."""
    players = [make_player(level, random.Random(f"{seed}/{i}")) for i, level in enumerate(levels)]
    while True:
        if match.deal.is_over:
            if not whole or match.finished:
                return match
            match.next_deal()
        p = match.player_to_act()
        assert p is not None
        v = match.view(p)
        match.apply(p, players[p].choose(v, v.legal))


def records(out: Path, seed: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    deal = play(Match.new(preset("standard"), ["Ann", "Bob"], f"deal/{seed}".encode()), ["novice", "novice"], seed,
                False)
    (out / "deal.gin").write_text(dumps(deal), encoding="utf-8")
    match = play(Match.new(preset("hollywood"), ["Ann", "Bob"], f"hollywood/{seed}".encode()), ["novice", "novice"],
                 seed, True)
    (out / "hollywood.gin").write_text(dumps(match), encoding="utf-8")
    for name, m in (("deal.gin", deal), ("hollywood.gin", match)):
        actions = sum(len(d.actions) for d in m.deals)
        print(f"{out / name}: {len(m.deals)} deal(s), {actions} actions")


def loss(deals: int, seed: int, budget_ms: float) -> None:
    totals: dict[str, list[float]] = {"expert": [], "novice": []}
    marks: dict[str, list[int]] = {"expert": [0, 0, 0, 0], "novice": [0, 0, 0, 0]}
    for i in range(deals):
        levels = ["expert", "novice"] if i % 2 == 0 else ["novice", "expert"]
        m = play(Match.new(preset("standard"), levels, f"loss/{seed}/{i}".encode()), levels, seed + i, False)
        review = build_review(m, budget_ms=budget_ms, seed=seed)
        for d in review.deals:
            for x in d.decisions:
                totals[x.player].append(x.loss)
                marks[x.player][0] += x.loss <= x.noise
                marks[x.player][1] += x.mark == "inaccuracy"
                marks[x.player][2] += x.mark == "mistake"
                marks[x.player][3] += x.mark == "blunder"
        print(f"deal {i + 1}/{deals} reviewed", file=sys.stderr, flush=True)
    print(f"{deals} deals, standard rules, expert (150 ms a decision) against novice, reviewed at {budget_ms:g} ms "
          f"a decision, seed {seed}")
    print("| level | decisions | mean loss (pp of win chance) | accuracy | inaccuracies | mistakes | blunders |")
    print("|---|---|---|---|---|---|---|")
    for level, xs in totals.items():
        n = len(xs)
        within, ina, mis, blu = marks[level]
        print(f"| {level} | {n} | {sum(xs) / n:.3f} | {100 * within / n:.1f}% | {ina} | {mis} | {blu} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("records", help="write deal.gin and hollywood.gin")
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--seed", type=int, default=1)
    lo = sub.add_parser("loss", help="mean loss of expert and novice play")
    lo.add_argument("--deals", type=int, default=50)
    lo.add_argument("--seed", type=int, default=1)
    lo.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS)
    args = ap.parse_args()
    if args.cmd == "records":
        records(args.out, args.seed)
    else:
        loss(args.deals, args.seed, args.budget_ms)


if __name__ == "__main__":
    main()
