"""Calibration of the performance score (issue 32): loss per decision against the ladder's rating.

The computer levels play each other on duplicate matches (each match seed played twice, the
levels swapping seats, as :mod:`ginrummy.analysis.duplicate` plays them), every match is reviewed
by the expert (``ginrummy.analysis.review``, at ``--budget-ms``), and the levels are rated with
the ladder's own code (``ginrummy.web.community.ratings``: OpenSkill Plackett-Luce, one update a match in
match order, ``display_rating``).  The fit relates each level's mean loss per decision to its
rating; ``ginrummy.analysis.performance`` carries the fitted constants.

Run from the repository root (each step can be stopped and resumed: ``play`` appends one line
a match to ``--data`` and skips the matches it already has):

    nice -n 15 python benchmarks/calibration.py play --pairs 4 --data benchmarks/calibration-data.jsonl
        plays --pairs duplicate pairs (2 matches each) of every pair of --levels (default
        random,novice,club,expert), games to 100 (standard preset), and reviews each match.
        ``--shard K/N`` plays only the pairs p with p % N == K: N processes (one a core) side by
        side append to the same data file without playing a match twice.
    python benchmarks/calibration.py fit --data benchmarks/calibration-data.jsonl \\
            --out benchmarks/calibration.json --svg docs/performance-calibration.svg
        rates the levels (ladder code), fits rating = a + b * ln(loss + c) by least squares
        through the levels' mean losses (weighted by their decisions; c on a grid up to
        --c-max, default 2; the per-match points give
        the residual spread of one match), prints the table of benchmarks/RESULTS.md with each
        level's ladder interval and whether its prediction falls inside, and writes the fit and
        the plot.

The full-size version is ``--pairs 25`` with ``--levels random,novice,club,expert,master``
(hours on one core: a master match takes minutes); see benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ginrummy.analysis.performance import decision_score  # noqa: E402
from ginrummy.analysis.review import build_review  # noqa: E402
from ginrummy.analysis.simulate import play_game  # noqa: E402
from ginrummy.rules import preset  # noqa: E402

BUDGET_MS = 100.0  # 50 sampled deals a decision (the review default): the budget the fit is made at (see performance.py)


def play(args: argparse.Namespace) -> None:
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    rules = preset("standard")
    data = Path(args.data)
    have = set()
    if data.exists():
        for line in data.read_text().splitlines():
            if line.strip():
                have.add(json.loads(line)["match"])
    index = 0
    t_start = time.monotonic()
    shard, shards = _shard(args.shard)
    for p in range(args.pairs):
        if p % shards != shard:
            continue
        for a, b in itertools.combinations(levels, 2):
            for swapped in (False, True):
                key = f"{a}-{b}/{p}/{int(swapped)}"
                seed_index = p * 1000 + levels.index(a) * 10 + levels.index(b)
                index += 1
                if key in have:
                    continue
                if args.max_seconds and time.monotonic() - t_start > args.max_seconds:
                    print("time limit reached; run again to go on", file=sys.stderr)
                    return
                t0 = time.monotonic()
                g = play_game(rules, [b, a] if swapped else [a, b], seed_index, args.seed)
                t1 = time.monotonic()
                review = build_review(g.match, budget_ms=args.budget_ms, seed=seed_index)
                t2 = time.monotonic()
                names = list(g.match.names)
                row = {"match": key, "pair": p, "swapped": swapped, "levels": dict(zip(names, g.levels)),
                       "winner": None if g.match.winner is None else names[g.match.winner],
                       "deals": len(g.match.deals), "budget_ms": args.budget_ms, "players": {}}
                for name in names:
                    ds = [x for d in review.deals for x in d.decisions if x.player == name]
                    row["players"][name] = {"decisions": len(ds), "loss": round(sum(x.loss for x in ds), 4),
                                            "score_sum": round(sum(decision_score(x.loss) for x in ds), 4),
                                            "blunders": sum(x.mark == "blunder" for x in ds)}
                row["seconds"] = {"play": round(t1 - t0, 1), "review": round(t2 - t1, 1)}
                with data.open("a") as f:
                    f.write(json.dumps(row) + "\n")
                print(key, row["seconds"], {n: round(v["loss"] / max(1, v["decisions"]), 2)
                                            for n, v in row["players"].items()}, flush=True)


def _shard(text: str) -> tuple[int, int]:
    """``"K/N"`` -> (K, N): this process plays the pairs p with p % N == K (so N processes
    appending to one data file never play the same match); raises SystemExit for a bad value."""
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise SystemExit(f"--shard is K/N with 0 <= K < N, not {text!r}") from None
    if not 0 <= k < n:
        raise SystemExit(f"--shard is K/N with 0 <= K < N, not {text!r}")
    return k, n


def _fit(xs: list[float], ys: list[float], ws: list[float] | None = None) -> tuple[float, float]:
    """Weighted least squares ``y = a + b x``: ``(a, b)``."""
    w = [1.0] * len(xs) if ws is None else ws
    n = sum(w)
    mx, my = sum(wi * x for wi, x in zip(w, xs)) / n, sum(wi * y for wi, y in zip(w, ys)) / n
    sxx = sum(wi * (x - mx) ** 2 for wi, x in zip(w, xs))
    b = sum(wi * (x - mx) * (y - my) for wi, x, y in zip(w, xs, ys)) / sxx
    return my - b * mx, b


def fit(args: argparse.Namespace) -> None:
    from ginrummy.web.community.ratings import MODEL, display_rating, ordinal

    rows = [json.loads(line) for line in Path(args.data).read_text().splitlines() if line.strip()]
    rows.sort(key=lambda r: (r["pair"], r["match"]))
    levels = sorted({lv for r in rows for lv in r["levels"].values()},
                    key=["random", "novice", "club", "expert", "master"].index)
    ratings = {lv: MODEL.rating() for lv in levels}
    for r in rows:  # one OpenSkill update a match, as the ladder does (web/ratings.record_match)
        names = list(r["levels"])
        lv = [r["levels"][n] for n in names]
        ranks = [0, 0] if r["winner"] is None else [0 if n == r["winner"] else 1 for n in names]
        new = MODEL.rate([[ratings[lv[0]]], [ratings[lv[1]]]], ranks=ranks)
        ratings[lv[0]], ratings[lv[1]] = new[0][0], new[1][0]
    shown = {lv: display_rating(float(r.mu), float(r.sigma)) for lv, r in ratings.items()}
    # the level's strength on the ladder's scale without the "-3 sigma" caution: 1000 + 40 (mu - 3 sigma) uses
    # the conservative ordinal; the fit uses the same formula so the numbers read like the ladder's
    obs = []  # (level, loss per decision, decisions) per player-match
    per_level: dict[str, list[float]] = {lv: [0.0, 0.0, 0.0] for lv in levels}
    for r in rows:
        for name, p in r["players"].items():
            lv = r["levels"][name]
            if p["decisions"]:
                obs.append((lv, p["loss"] / p["decisions"], p["decisions"]))
                per_level[lv][0] += p["loss"]
                per_level[lv][1] += p["decisions"]
                per_level[lv][2] += p["score_sum"]
    # the curve maps a level's mean loss to its rating: fitted through the levels' means, each
    # weighted by its decisions (a least-squares line through the per-match points is flattened
    # by their noise in loss -- regression dilution -- and pulls every level toward the middle);
    # the per-match spread around that curve gives one match's interval.  c too is chosen by
    # least squares, on a grid of 0.05 up to --c-max: the fit keeps improving as c grows and the
    # curve straightens (a line is its limit), so the bound is the choice of how far it may
    means = {lv: per_level[lv][0] / per_level[lv][1] for lv in levels}
    weights = [per_level[lv][1] for lv in levels]
    level_y = [float(shown[lv]) for lv in levels]

    def sse(cc: float) -> float:
        xa, xb = _fit([math.log(means[lv] + cc) for lv in levels], level_y, weights)
        return sum(w * (y - xa - xb * math.log(means[lv] + cc)) ** 2 for w, y, lv in zip(weights, level_y, levels))

    c = min((round(0.05 * k, 2) for k in range(1, int(round(args.c_max / 0.05)) + 1)), key=sse)
    xs = [math.log(loss + c) for _, loss, _ in obs]
    ys = [float(shown[lv]) for lv, _, _ in obs]
    pa, pb = _fit(xs, ys)
    a, b = _fit([math.log(means[lv] + c) for lv in levels], level_y, weights)
    resid = [y - (a + b * x) for x, y in zip(xs, ys)]
    dec = sum(n for _, _, n in obs) / len(obs)
    sd = math.sqrt(sum(e * e for e in resid) / max(1, len(resid) - 2))
    table = []
    for lv in levels:
        loss = per_level[lv][0] / per_level[lv][1]
        pred = a + b * math.log(loss + c)
        table.append({"level": lv, "rating": shown[lv], "mu": round(float(ratings[lv].mu), 2),
                      "sigma": round(float(ratings[lv].sigma), 2),
                      "ordinal": round(ordinal(float(ratings[lv].mu), float(ratings[lv].sigma)), 2),
                      "decisions": int(per_level[lv][1]), "loss_per_decision": round(loss, 3),
                      "score": round(per_level[lv][2] / per_level[lv][1], 1), "predicted": round(pred),
                      "interval": [round(pred - 1.96 * sd), round(pred + 1.96 * sd)],
                      # the ladder rating's own 95% interval on the display scale (40 points a unit of mu)
                      "ladder_interval": [round(shown[lv] - 40 * 1.96 * float(ratings[lv].sigma)),
                                          round(shown[lv] + 40 * 1.96 * float(ratings[lv].sigma))]})
    for t in table:
        t["inside"] = t["ladder_interval"][0] <= t["predicted"] <= t["ladder_interval"][1]
    by_ladder = [t["level"] for t in sorted(table, key=lambda t: t["rating"])]
    by_loss = [t["level"] for t in sorted(table, key=lambda t: t["predicted"])]
    out = {"model": "rating = a + b * ln(loss_per_decision + c)", "a": round(a, 2), "b": round(b, 2), "c": c,
           "residual_sd": round(sd, 1), "decisions_per_match": round(dec, 1), "budget_ms": rows[0]["budget_ms"],
           "matches": len(rows), "levels": table,
           "goal": {"order_by_ladder": by_ladder, "order_by_prediction": by_loss,
                    "same_order": by_ladder == by_loss, "all_inside": all(t["inside"] for t in table)},
           "observations": [{"level": lv, "loss_per_decision": round(x, 4), "decisions": n} for lv, x, n in obs]}
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(f"fit over {len(rows)} matches: rating = {a:.1f} + {b:.1f} ln(loss + {c}) through the levels' means; "
          f"residual sd of one match {sd:.0f} (a match of {dec:.0f} decisions)")
    print(f"(a line through the per-match points instead: rating = {pa:.1f} + {pb:.1f} ln(loss + {c}), predicting "
          + ", ".join(f"{lv} {pa + pb * math.log(means[lv] + c):.0f}" for lv in levels) + ")")
    print("| level | ladder rating (mu, sigma) | its 95% | decisions | loss / decision | score | predicted (95%) | "
          "predicted inside the ladder's 95% |")
    print("|---|---|---|---|---|---|---|---|")
    for t in table:
        lo, hi = t["ladder_interval"]
        print(f"| {t['level']} | {t['rating']} ({t['mu']}, {t['sigma']}) | {lo}..{hi} | {t['decisions']} | "
              f"{t['loss_per_decision']} | {t['score']} | {t['predicted']} ({t['interval'][0]}..{t['interval'][1]}) | "
              f"{'yes' if t['inside'] else 'no'} |")
    print(f"order by the ladder: {', '.join(by_ladder)}; by the prediction: {', '.join(by_loss)} "
          f"({'the same' if by_ladder == by_loss else 'NOT the same'}); every prediction inside its level's ladder "
          f"interval: {'yes' if all(t['inside'] for t in table) else 'NO'}")
    if args.svg:
        Path(args.svg).write_text(svg(out))


def svg(out: dict) -> str:
    """The calibration curve as a hand-written SVG: the per-match observations (dots, by level),
    each level's mean (a ring at its ladder rating, a bar over the ladder rating's 95% interval)
    and the fitted curve with its 95% band."""
    w, h, m = 640, 400, 60
    obs = out["observations"]
    xmax = max(4.0, max(o["loss_per_decision"] for o in obs) * 1.05)
    ys = [t["rating"] for t in out["levels"]] + [t["predicted"] for t in out["levels"]]
    ys += [v for t in out["levels"] for v in t.get("ladder_interval", ())]
    ymin, ymax = min(ys) - 150, max(ys) + 150

    def px(x: float) -> float:
        return m + (w - 2 * m) * x / xmax

    def py(y: float) -> float:
        return h - m - (h - 2 * m) * (y - ymin) / (ymax - ymin)

    colours = {"random": "#d62728", "novice": "#ff7f0e", "club": "#2ca02c", "expert": "#1f77b4", "master": "#9467bd"}
    a, b, c, sd = out["a"], out["b"], out["c"], out["residual_sd"]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
             'font-family="sans-serif" font-size="12">',
             f'<rect width="{w}" height="{h}" fill="white"/>',
             f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">Loss per decision against the ladder rating '
             f'({out["matches"]} duplicate matches, review at {out["budget_ms"]:g} ms)</text>']
    curve, upper, lower = [], [], []
    for i in range(101):
        x = xmax * i / 100
        y = a + b * math.log(x + c)
        curve.append(f"{px(x):.1f},{py(max(ymin, min(ymax, y))):.1f}")
        upper.append(f"{px(x):.1f},{py(max(ymin, min(ymax, y + 1.96 * sd))):.1f}")
        lower.append(f"{px(x):.1f},{py(max(ymin, min(ymax, y - 1.96 * sd))):.1f}")
    parts.append(f'<polygon points="{" ".join(upper + lower[::-1])}" fill="#cccccc" fill-opacity="0.5"/>')
    parts.append(f'<polyline points="{" ".join(curve)}" fill="none" stroke="black" stroke-width="2"/>')
    parts.append(f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="black"/>')
    parts.append(f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="black"/>')
    for k in range(int(xmax) + 1):
        parts.append(f'<text x="{px(k):.1f}" y="{h - m + 16}" text-anchor="middle">{k}</text>')
    step = 200
    for yv in range(int(math.ceil(ymin / step) * step), int(ymax) + 1, step):
        parts.append(f'<text x="{m - 6}" y="{py(yv) + 4:.1f}" text-anchor="end">{yv}</text>')
        parts.append(f'<line x1="{m}" y1="{py(yv):.1f}" x2="{w - m}" y2="{py(yv):.1f}" stroke="#eeeeee"/>')
    parts.append(f'<text x="{w / 2}" y="{h - 20}" text-anchor="middle">mean loss per decision '
                 '(percentage points of the chance to win)</text>')
    parts.append(f'<text x="16" y="{h / 2}" text-anchor="middle" transform="rotate(-90 16 {h / 2})">'
                 'ladder rating</text>')
    for o in obs:  # each match's loss on the curve (those whose point falls outside the plot are left out)
        if not ymin <= a + b * math.log(o["loss_per_decision"] + c) <= ymax:
            continue
        parts.append(f'<circle cx="{px(o["loss_per_decision"]):.1f}" cy="{py(a + b * math.log(o["loss_per_decision"] + c)):.1f}" '
                     f'r="2" fill="{colours.get(o["level"], "gray")}" fill-opacity="0.6"/>')
    for i, t in enumerate(out["levels"]):
        col = colours.get(t["level"], "gray")
        if "ladder_interval" in t:  # the ladder rating's 95% interval: a bar through the ring
            lo, hi = t["ladder_interval"]
            x = px(t["loss_per_decision"])
            parts.append(f'<line x1="{x:.1f}" y1="{py(lo):.1f}" x2="{x:.1f}" y2="{py(hi):.1f}" stroke="{col}" '
                         'stroke-width="1.5"/>')
        parts.append(f'<circle cx="{px(t["loss_per_decision"]):.1f}" cy="{py(t["rating"]):.1f}" r="6" fill="none" '
                     f'stroke="{col}" stroke-width="2"/>')
        parts.append(f'<text x="{w - m - 100}" y="{m + 16 * i}" fill="{col}">{t["level"]}: {t["rating"]}</text>')
    parts.append("</svg>\n")
    return "\n".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("--levels", default="random,novice,club,expert")
    p.add_argument("--pairs", type=int, default=4)
    p.add_argument("--seed", type=int, default=32)
    p.add_argument("--budget-ms", type=float, default=BUDGET_MS)
    p.add_argument("--data", default="benchmarks/calibration-data.jsonl")
    p.add_argument("--max-seconds", type=float, default=0.0, help="stop starting matches after this long (0: no limit)")
    p.add_argument("--shard", default="0/1", help="K/N: play only the pairs p with p %% N == K (N processes side by side)")
    f = sub.add_parser("fit")
    f.add_argument("--data", default="benchmarks/calibration-data.jsonl")
    f.add_argument("--out", default="benchmarks/calibration.json")
    f.add_argument("--svg", default="docs/performance-calibration.svg")
    f.add_argument("--c-max", type=float, default=2.0, help="the largest c of rating = a + b ln(loss + c) tried "
                   "(least squares on a grid of 0.05; default 2: about the largest mean loss a level has)")
    args = ap.parse_args()
    play(args) if args.cmd == "play" else fit(args)


if __name__ == "__main__":
    main()
