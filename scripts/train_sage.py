"""Build the ``sage`` player's network (``src/ginrummy/players/sage_model.json``) from a seed.

Two steps, run from the repository root:

    python scripts/train_sage.py data --games 200 [--start 0] [--seed 37] [--samples 64] --out DATA.jsonl
    python scripts/train_sage.py train DATA.jsonl ... [--seed 37] [--hidden 24] [--epochs 40]
                                 [--out src/ginrummy/players/sage_model.json] [--curve CURVE.json]
                                 [--svg docs/sage-training.svg]

``data`` plays games to 100 under the ``eaai`` preset (R13) between two copies of the expert's
search at ``--samples`` sampled deals a decision (no clock: the same seed gives the same
games on any machine), seeds ``match_seed(seed, game)``.  At every decision with two or more
candidates (the expert's candidates and the ``club`` player's move) every candidate is played
on the same sampled deals (:meth:`ExpertPlayer.outcomes`) and valued by the expert's utility
(the chance of winning the game); the move played is the expert's rule on those values (the
club move unless another beats it by 1.5 standard errors).  One JSON line a game, appended (an
interrupted run keeps its games; shards by ``--start``): for each decision the candidates'
:data:`~ginrummy.players.sage.FEATURES` rows, their mean values and the club move's index.

``train`` fits the network (one hidden layer of ``tanh`` units) by Adam on the centred values
(each decision's values less their mean, times 10: a listwise regression, so that only the
differences between one decision's moves count), holding out every tenth game.  It prints the
curve (training and held-out loss, and the held-out regret: the value lost against the best
candidate's estimate, of the network's choice, of the club move and of a random candidate)
and writes the model as JSON.  NumPy only; the same data and seed give the same weights.
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

from ginrummy.analysis.simulate import match_seed, player_seed  # noqa: E402
from ginrummy.match import Match  # noqa: E402
from ginrummy.players.expert import ExpertPlayer  # noqa: E402
from ginrummy.players.inference import read_view  # noqa: E402
from ginrummy.players.sage import FEATURES, move_features  # noqa: E402
from ginrummy.rules import preset  # noqa: E402

OVERRIDE_Z = 1.5


def _paired_z(a: list[float], b: list[float]) -> float:
    n = len(a)
    d = [x - y for x, y in zip(a, b)]
    mu = sum(d) / n
    var = sum((x - mu) ** 2 for x in d) / max(1, n - 1)
    if var == 0:
        return 0.0 if mu == 0 else (float("inf") if mu > 0 else float("-inf"))
    return mu / (var / n) ** 0.5


def label_game(index: int, seed: int, samples: int) -> dict:
    """Play game ``index`` and label its decisions (see the module docstring)."""
    mseed = match_seed(seed, index)
    match = Match.new(preset("eaai"), ["a", "b"], mseed)
    experts = [ExpertPlayer(random.Random(player_seed(mseed, j)), budget_ms=None, samples=samples) for j in range(2)]
    decisions = []
    while not match.finished:
        if match.deal.is_over:
            match.next_deal()
            continue
        who = match.player_to_act()
        view = match.view(who)
        legal = list(view.legal)
        ex = experts[who]
        gins = [a for a in legal if a.kind in ("big_gin", "gin")]
        if len(legal) == 1 or gins:
            match.apply(who, gins[0] if gins else legal[0])
            continue
        k = read_view(view)
        club = ex._club.choose(view, legal)
        cands = ex._candidates(view, k, legal)
        if club not in cands:
            cands.insert(0, club)
        if len(cands) == 1:
            match.apply(who, cands[0])
            continue
        util = ex._utility(view)
        outs = ex.outcomes(view, cands, samples)
        vals = [[util(w, p) for w, p in o] for o in outs]
        means = [sum(v) / len(v) for v in vals]
        ci = cands.index(club)
        best = max(range(len(cands)), key=lambda i: means[i])
        move = cands[best] if best != ci and _paired_z(vals[best], vals[ci]) > OVERRIDE_Z else club
        rows = move_features(view, k, ex._club.weights(k), cands, club)
        decisions.append({"phase": view.phase, "club": ci, "u": [round(m, 6) for m in means],
                          "f": [[round(x, 5) for x in r] for r in rows]})
        match.apply(who, move)
    return {"seed": seed, "game": index, "samples": samples, "deals": len(match.deals), "decisions": decisions}


def cmd_data(args: argparse.Namespace) -> int:
    from rich.progress import Progress

    out = Path(args.out)
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            r = json.loads(line)
            if r["seed"] == args.seed:
                done.add(r["game"])
    todo = [g for g in range(args.start, args.start + args.games) if g not in done]
    t0 = time.perf_counter()
    n = 0
    with Progress() as bar, out.open("a") as fh:
        task = bar.add_task(f"games {args.start}..{args.start + args.games - 1}", total=len(todo))
        for g in todo:
            r = label_game(g, args.seed, args.samples)
            n += len(r["decisions"])
            fh.write(json.dumps(r, separators=(",", ":")) + "\n")
            fh.flush()
            bar.update(task, advance=1, description=f"{n} decisions")
    print(f"{len(todo)} games, {n} decisions, {time.perf_counter() - t0:.0f} s")
    return 0


def load(paths: list[str]):
    """Rows, targets, decision ids, club flags and held-out flags of the data files."""
    import numpy as np

    xs, ts, gs, held, club = [], [], [], [], []
    d = 0
    games: dict[tuple[int, int], int] = {}
    for p in paths:
        for line in Path(p).read_text().splitlines():
            r = json.loads(line)
            if (r["seed"], r["game"]) in games:
                continue  # a game in two files counts once
            games[(r["seed"], r["game"])] = r["samples"]
            for dec in r["decisions"]:
                u = dec["u"]
                mu = sum(u) / len(u)
                for i, (f, v) in enumerate(zip(dec["f"], u)):
                    xs.append(f)
                    ts.append(10.0 * (v - mu))
                    gs.append(d)
                    held.append(r["game"] % 10 == 0)
                    club.append(i == dec["club"])
                d += 1
    data = {"games": len(games), "seeds": sorted({sd for sd, _ in games}), "samples": sorted(set(games.values()))}
    return (np.array(xs, dtype=np.float64), np.array(ts), np.array(gs), np.array(held), np.array(club), data)


def _centre(y, g, n):
    import numpy as np

    s = np.bincount(g, weights=y, minlength=n)
    c = np.bincount(g, minlength=n)
    return y - (s / np.maximum(c, 1))[g]


def _regret(score, t, g, n):
    """Mean over decisions of (best target - target of the highest-scored row)."""
    import numpy as np

    order = np.lexsort((-score, g))
    first = np.ones(len(g), dtype=bool)
    first[1:] = g[order][1:] != g[order][:-1]
    pick = order[first]
    best = np.full(n, -np.inf)
    np.maximum.at(best, g, t)
    got = np.zeros(n)
    got[g[pick]] = t[pick]
    present = np.bincount(g, minlength=n) > 0
    return float(np.mean((best - got)[present])) / 10.0


def cmd_train(args: argparse.Namespace) -> int:
    import numpy as np

    x, t, g, held, club, data = load(args.data)
    rng = np.random.default_rng(args.seed)
    tr, va = ~held, held
    mean = x[tr].mean(axis=0)
    scale = x[tr].std(axis=0)
    scale[scale < 1e-9] = 1.0
    mean[-1] = 0.0
    scale[-1] = 1.0
    z = (x - mean) / scale
    ndec = int(g.max()) + 1
    f, h = x.shape[1], args.hidden
    w1 = rng.normal(0, 1 / np.sqrt(f), (h, f))
    b1 = np.zeros(h)
    w2 = rng.normal(0, 1 / np.sqrt(h), h)
    params = [w1, b1, w2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    dec_tr = np.unique(g[tr])
    # rows by decision, for minibatches of whole decisions
    starts = np.searchsorted(g, np.arange(ndec + 1))
    curve = []

    def forward(zz):
        a = np.tanh(zz @ params[0].T + params[1])
        return a, a @ params[2]

    def loss_of(mask):
        _, y = forward(z[mask])
        yc = _centre(y, g[mask], ndec)
        return float(np.mean((yc - t[mask]) ** 2))

    base_va = _regret(np.where(club, 1.0, 0.0)[va], t[va], g[va], ndec)
    rand_va = _regret(rng.random(int(va.sum())), t[va], g[va], ndec)
    print(f"rows {len(t)} ({int(tr.sum())} training, {int(va.sum())} held out), decisions {ndec}, "
          f"features {f}, hidden {h}")
    print(f"held-out regret: club move {base_va:.5f}, a random candidate {rand_va:.5f}")
    for epoch in range(args.epochs):
        perm = rng.permutation(dec_tr)
        for i in range(0, len(perm), args.batch):
            decs = perm[i:i + args.batch]
            rows = np.concatenate([np.arange(starts[d], starts[d + 1]) for d in decs])
            zz, tt, gg = z[rows], t[rows], g[rows]
            a, y = forward(zz)
            yc = _centre(y, gg, ndec)
            dy = 2 * (yc - tt) / len(rows)
            grads = [((dy[:, None] * params[2]) * (1 - a ** 2)).T @ zz,
                     ((dy[:, None] * params[2]) * (1 - a ** 2)).sum(axis=0),
                     a.T @ dy]
            grads[0] += args.l2 * params[0]
            step += 1
            for j, (p, gr) in enumerate(zip(params, grads)):
                m[j] = 0.9 * m[j] + 0.1 * gr
                v[j] = 0.999 * v[j] + 0.001 * gr ** 2
                p -= args.lr * (m[j] / (1 - 0.9 ** step)) / (np.sqrt(v[j] / (1 - 0.999 ** step)) + 1e-8)
        _, yv = forward(z[va])
        row = {"epoch": epoch + 1, "train_loss": loss_of(tr), "held_loss": loss_of(va),
               "held_regret": _regret(yv, t[va], g[va], ndec)}
        curve.append(row)
        print(f"epoch {epoch + 1:3d}  train {row['train_loss']:.5f}  held out {row['held_loss']:.5f}  "
              f"regret {row['held_regret']:.5f}")
    model = {"features": list(FEATURES), "mean": mean.round(8).tolist(), "scale": scale.round(8).tolist(),
             "w1": params[0].round(8).tolist(), "b1": params[1].round(8).tolist(),
             "w2": params[2].round(8).tolist(), "b2": 0.0, "seed": args.seed, "hidden": h,
             "epochs": args.epochs, "rows": int(len(t)), "decisions": ndec,
             "trained": {"script": "scripts/train_sage.py", "data": data, "batch": args.batch, "lr": args.lr,
                         "l2": args.l2},
             "held_regret": {"network": curve[-1]["held_regret"], "club": base_va, "random": rand_va}}
    Path(args.out).write_text(json.dumps(model, separators=(",", ":")) + "\n")
    if args.curve:
        Path(args.curve).write_text(json.dumps({"curve": curve, "club": base_va, "random": rand_va}) + "\n")
    if args.svg:
        Path(args.svg).write_text(svg_curve(curve, base_va, rand_va))
    print(f"wrote {args.out}")
    return 0


def svg_curve(curve: list[dict], club: float, rand: float) -> str:
    """The training curve as SVG text: held-out regret by epoch (the network's, against the club
    move's and a random candidate's), and the training and held-out loss."""
    w, h, pad = 300, 220, 50
    colours = {"network": "#1f77b4", "club move": "#d62728", "random candidate": "#7f7f7f",
               "training loss": "#2ca02c", "held-out loss": "#9467bd"}
    n = len(curve)

    def panel(x0: int, title: str, series: dict[str, list[float]], ylabel: str) -> list[str]:
        top = max(max(v) for v in series.values()) * 1.1
        out = [f'<rect x="{x0}" y="{pad}" width="{w}" height="{h}" fill="none" stroke="#888"/>',
               f'<text x="{x0}" y="{pad - 28}">{title}</text>',
               f'<text x="{x0 + w / 2 - 20}" y="{pad + h + 32}">epoch</text>',
               f'<text x="{x0 - 42}" y="{pad - 8}">{ylabel}</text>']
        for t in (0.0, 0.5, 1.0):
            out.append(f'<text x="{x0 - 44}" y="{pad + (1 - t) * h + 4:.0f}">{top * t:.3f}</text>')
        out.append(f'<text x="{x0}" y="{pad + h + 15}">1</text><text x="{x0 + w - 10}" y="{pad + h + 15}">{n}</text>')
        for i, (name, ys) in enumerate(series.items()):
            pts = " ".join(f"{x0 + (j / max(1, len(ys) - 1)) * w:.1f},{pad + (1 - y / top) * h:.1f}"
                           for j, y in enumerate(ys))
            col = colours[name]
            out.append(f'<polyline points="{pts}" fill="none" stroke="{col}" stroke-width="2"/>')
            out.append(f'<rect x="{x0 + 8}" y="{pad + h + 40 + 16 * i}" width="10" height="10" fill="{col}"/>')
            out.append(f'<text x="{x0 + 24}" y="{pad + h + 49 + 16 * i}">{name}</text>')
        return out

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * w + 3 * pad + 20}" height="{h + 2 * pad + 80}" '
             'font-family="sans-serif" font-size="12">']
    parts += panel(pad + 10, "Held-out regret (chance of winning the game lost a decision)",
                   {"network": [r["held_regret"] for r in curve], "club move": [club] * n,
                    "random candidate": [rand] * n}, "regret")
    parts += panel(2 * pad + w + 20, "Loss (centred values x 10, squared)",
                   {"training loss": [r["train_loss"] for r in curve],
                    "held-out loss": [r["held_loss"] for r in curve]}, "loss")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("data", help="play and label games")
    d.add_argument("--games", type=int, required=True)
    d.add_argument("--start", type=int, default=0)
    d.add_argument("--seed", type=int, default=37)
    d.add_argument("--samples", type=int, default=64)
    d.add_argument("--out", required=True)
    t = sub.add_parser("train", help="fit the network")
    t.add_argument("data", nargs="+")
    t.add_argument("--seed", type=int, default=37)
    t.add_argument("--hidden", type=int, default=24)
    t.add_argument("--epochs", type=int, default=40)
    t.add_argument("--batch", type=int, default=256)
    t.add_argument("--lr", type=float, default=3e-3)
    t.add_argument("--l2", type=float, default=1e-4)
    t.add_argument("--out", default=str(ROOT / "src" / "ginrummy" / "players" / "sage_model.json"))
    t.add_argument("--curve", default="", help="write the curve as JSON here")
    t.add_argument("--svg", default="", help="draw the curve (SVG) here")
    args = ap.parse_args(argv)
    return cmd_data(args) if args.cmd == "data" else cmd_train(args)


if __name__ == "__main__":
    raise SystemExit(main())
