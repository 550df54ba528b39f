"""Train the learned opponent model (``src/ginrummy/players/opponent_model.json``) and compare it
with ``inference.card_weights`` on held-out deals.

Run from the repository root (numpy is needed here, not at run time):

    python scripts/train_opponent_model.py [--games 80] [--heldout 30] [--seed 17] [--workers 2]
                                           [--write] [--svg docs/opponent-model-calibration.svg]

1. Data: ``--games + --heldout`` games to 100 under the ``eaai`` preset (R13), the levels of game
   ``i`` from :data:`MIXES` (self-play and mixed levels: novice, club, expert), every game seeded
   from ``--seed`` and its number (:func:`ginrummy.analysis.simulate.match_seed`, the players'
   ``random.Random`` from :func:`ginrummy.analysis.simulate.player_seed`); club and expert use the
   hand-made opponent model (``opponent_model="rules"``), and the expert plays without a
   clock (``budget_ms=None``, :data:`EXPERT_SAMPLES` samples), so the games, hence the model,
   are the same on any machine and with any ``--workers``.  At every third decision of each seat
   (draw or discard), the seat's :class:`~ginrummy.players.inference.Knowledge` (from its view
   alone) and the opponent's true hand are kept.
2. The holding model: logistic regression (Newton's method, L2 penalty :data:`L2`) of "the
   opponent holds card c" on :func:`ginrummy.players.opponent_model.card_features`, over every
   unknown card of every kept decision of the first ``--games`` games.
3. The meld model: logistic regression of "the opponent can meld card c" (R2.1, R2.2) for the
   cards of our hand at discard decisions, on :func:`~ginrummy.players.opponent_model.meld_features`.
4. Held out (the last ``--heldout`` games, other seeds): squared error, log loss and a
   calibration table of both models against ``card_weights`` (and the club player's
   independent-cards danger of it), printed as Markdown; ``--svg`` draws the calibration plot.

``--write`` writes the weights (rounded to 6 decimals) to the package.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ginrummy.match import Match  # noqa: E402
from ginrummy.melds import melds_with  # noqa: E402
from ginrummy.players import make_player  # noqa: E402
from ginrummy.players.club import ClubPlayer, danger  # noqa: E402
from ginrummy.players.expert import ExpertPlayer  # noqa: E402
from ginrummy.players.inference import card_weights, read_view  # noqa: E402
from ginrummy.players.opponent_model import (FEATURES, MELD_FEATURES, MODEL_FILE, card_features,  # noqa: E402
                                             meld_features, normalise)
from ginrummy.rules import preset  # noqa: E402
from ginrummy.analysis.shards import iter_shards  # noqa: E402
from ginrummy.analysis.simulate import match_seed, player_seed, seat_levels  # noqa: E402

#: The level pairs of game i: MIXES[i % len(MIXES)].
MIXES = (("novice", "novice"), ("club", "novice"), ("club", "club"), ("expert", "novice"),
         ("expert", "club"), ("expert", "expert"))
#: The expert's samples a decision in the data games (no clock: reproducible).
EXPERT_SAMPLES = 24
#: Keep every KEEP-th decision of each seat.
KEEP = 3
#: L2 penalty of both regressions (on the weights but the bias, per row).
L2 = 1e-4


def _player(level: str, rng: random.Random):
    """The data games' players: club and expert with the hand-made opponent model (``"rules"``),
    so the data never depends on the model being trained."""
    if level == "expert":
        return ExpertPlayer(rng, budget_ms=None, samples=EXPERT_SAMPLES, opponent_model="rules")
    if level == "club":
        return ClubPlayer(rng, "rules")
    return make_player(level, rng)


@dataclass(frozen=True)
class Collect:
    """One data game as a :mod:`ginrummy.analysis.shards` task: its kept decisions."""

    def play(self, index: int, seed: int) -> list[tuple]:
        """``[(knowledge, opponent's true hand, is_discard, features rows, card_weights), ...]``."""
        rules = preset("eaai")
        levels = MIXES[index % len(MIXES)]
        mseed = match_seed(seed, index)
        order = seat_levels(rules, levels, index, mseed)
        match = Match.new(rules, ["A", "B"], mseed)
        players = {order[j]: _player(levels[j], random.Random(player_seed(mseed, order[j]))) for j in range(2)}
        count = [0, 0]
        out = []
        while not match.finished:
            if match.deal.is_over:
                match.next_deal()
                continue
            who = match.player_to_act()
            view = match.view(who)
            seat = view.seat
            if len(view.legal) > 1 and view.phase in ("upcard_offer", "draw", "discard"):
                count[seat] += 1
                if count[seat] % KEEP == 0:
                    k = read_view(view)
                    truth = match.deal.hands[1 - seat]
                    feats = card_features(k)
                    cw = card_weights(k)
                    out.append((k, truth, view.phase == "discard",
                                [(c, f, (truth >> c) & 1) for c, f in feats], cw))
            match.apply(who, players[who].choose(view, view.legal))
        return out


def collect(games: int, start: int, seed: int, workers: int) -> list[tuple]:
    by = dict(iter_shards(Collect(), games, seed, start=start, workers=workers))
    return [d for i in sorted(by) for d in by[i]]


def holding_arrays(data: list[tuple]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """X, y, decision ids, card_weights, hidden counts (per decision)."""
    xs, ys, gid, cws = [], [], [], []
    hidden = []
    for g, (k, _, _, rows, cw) in enumerate(data):
        hidden.append(k.opp_hidden)
        for c, f, y in rows:
            xs.append(f)
            ys.append(y)
            gid.append(g)
            cws.append(cw[c])
    return (np.array(xs, dtype=np.float64), np.array(ys, dtype=np.float64), np.array(gid),
            np.array(cws), np.array(hidden, dtype=np.float64))


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = L2, iters: int = 25) -> np.ndarray:
    """Weights of a logistic regression by Newton's method (L2 penalty on all but the bias)."""
    n, d = x.shape
    w = np.zeros(d)
    pen = np.full(d, l2 * n)
    pen[0] = 0.0
    for _ in range(iters):
        z = np.clip(x @ w, -30, 30)
        p = 1 / (1 + np.exp(-z))
        grad = x.T @ (p - y) + pen * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(pen) + 1e-9 * np.eye(d)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return w


def predict_holding(w: np.ndarray, x: np.ndarray, gid: np.ndarray, hidden: np.ndarray) -> np.ndarray:
    """The holding model's chances, each decision's shifted to sum to its hidden cards (as
    :func:`ginrummy.players.opponent_model.normalise`, vectorised)."""
    z = x @ w
    b = np.zeros(len(hidden))
    for _ in range(30):
        p = 1 / (1 + np.exp(-np.clip(z + b[gid], -30, 30)))
        s = np.bincount(gid, p, minlength=len(hidden))
        d = np.bincount(gid, p * (1 - p), minlength=len(hidden))
        b -= np.where(d > 0, (s - hidden) / np.maximum(d, 1e-12), 0.0)
    return 1 / (1 + np.exp(-np.clip(z + b[gid], -30, 30)))


def meld_rows(data: list[tuple], wfun) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per card of our hand at discard decisions: meld features, label, club danger of
    card_weights, independent danger of the model's weights, decision id."""
    xs, ys, dcw, dmod, gid = [], [], [], [], []
    g = 0
    for k, truth, is_discard, _, cw in data:
        if not is_discard or not k.opp_hidden:
            continue
        w = wfun(k)
        for c in range(52):
            if (k.hand >> c) & 1:
                dm = danger(c, w)
                xs.append(meld_features(c, dm, w))
                ys.append(1.0 if melds_with(c, truth) else 0.0)
                dcw.append(danger(c, cw))
                dmod.append(dm)
                gid.append(g)
        g += 1
    return np.array(xs), np.array(ys), np.array(dcw), np.array(dmod), np.array(gid)


def metrics(p: np.ndarray, y: np.ndarray, gid: np.ndarray) -> tuple[float, float, float]:
    """(mean squared error a card, squared error summed a decision (mean), log loss a card)."""
    q = np.clip(p, 1e-3, 1 - 1e-3)
    se = (p - y) ** 2
    per = np.bincount(gid, se)
    per = per[np.bincount(gid) > 0]
    ll = -np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))
    return float(se.mean()), float(per.mean()), float(ll)


BINS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001)


def calibration(p: np.ndarray, y: np.ndarray) -> list[tuple[float, float, float, int]]:
    """(bin low, mean predicted, observed share, count) for the bins of :data:`BINS`."""
    out = []
    for lo, hi in zip(BINS, BINS[1:]):
        m = (p >= lo) & (p < hi)
        if m.sum():
            out.append((lo, float(p[m].mean()), float(y[m].mean()), int(m.sum())))
    return out


def svg_plot(series: dict[str, list[tuple[float, float, float, int]]], title: str) -> str:
    """A calibration plot (mean predicted against observed share) as SVG text."""
    size, pad = 360, 40
    colours = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")

    def xy(px: float, py: float) -> str:
        return f"{pad + px * size:.1f},{pad + (1 - py) * size:.1f}"

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size + 2 * pad + 170}" height="{size + 2 * pad}" '
             'font-family="sans-serif" font-size="12">',
             f'<rect x="{pad}" y="{pad}" width="{size}" height="{size}" fill="none" stroke="#888"/>',
             f'<line x1="{pad}" y1="{pad + size}" x2="{pad + size}" y2="{pad}" stroke="#bbb" stroke-dasharray="4"/>',
             f'<text x="{pad}" y="{pad - 12}">{title}</text>',
             f'<text x="{pad + size / 2 - 40}" y="{pad + size + 30}">predicted chance</text>',
             f'<text x="8" y="{pad + size / 2}" transform="rotate(-90 12 {pad + size / 2})">observed share</text>']
    for t in (0.0, 0.5, 1.0):
        parts.append(f'<text x="{pad + t * size - 8:.0f}" y="{pad + size + 15}">{t:g}</text>')
        parts.append(f'<text x="{pad - 25}" y="{pad + (1 - t) * size + 4:.0f}">{t:g}</text>')
    for i, (name, rows) in enumerate(series.items()):
        col = colours[i % len(colours)]
        pts = " ".join(xy(mp, obs) for _, mp, obs, _ in rows)
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{col}" stroke-width="2"/>')
        for _, mp, obs, _ in rows:
            x, y = xy(mp, obs).split(",")
            parts.append(f'<circle cx="{x}" cy="{y}" r="3" fill="{col}"/>')
        parts.append(f'<rect x="{pad + size + 15}" y="{pad + 10 + 20 * i}" width="12" height="12" fill="{col}"/>')
        parts.append(f'<text x="{pad + size + 32}" y="{pad + 20 + 20 * i}">{name}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=80, help="training games (default 80)")
    ap.add_argument("--heldout", type=int, default=30, help="held-out games after them (default 30)")
    ap.add_argument("--seed", type=int, default=17, help="seed of the data games (default 17)")
    ap.add_argument("--workers", type=int, default=1, help="local processes (same data; default 1)")
    ap.add_argument("--write", action="store_true", help=f"write the weights to the package ({MODEL_FILE})")
    ap.add_argument("--svg", type=Path, default=None, help="write the calibration plot (SVG) here")
    args = ap.parse_args(argv)
    if args.games < 1 or args.heldout < 1:
        ap.error("--games and --heldout are 1 or more")
    train = collect(args.games, 0, args.seed, args.workers)
    test = collect(args.heldout, args.games, args.seed, args.workers)
    x, y, gid, _, hidden = holding_arrays(train)
    w_hold = fit_logistic(x, y)
    model = {"features": list(FEATURES), "holding": [round(float(v), 6) for v in w_hold]}

    def wfun(k):
        from ginrummy.players.opponent_model import holding_weights
        return holding_weights(k, {**model, "meld": []})

    mx, my, _, _, _ = meld_rows(train, wfun)
    w_meld = fit_logistic(mx, my)
    model.update({"meld_features": list(MELD_FEATURES), "meld": [round(float(v), 6) for v in w_meld],
                  "trained": {"script": "scripts/train_opponent_model.py", "games": args.games,
                              "heldout": args.heldout, "seed": args.seed, "mixes": [list(m) for m in MIXES],
                              "expert_samples": EXPERT_SAMPLES, "keep_every": KEEP, "l2": L2,
                              "decisions": len(train), "card_rows": int(len(y)), "meld_rows": int(len(my))}})
    # held out
    tx, ty, tg, tcw, th = holding_arrays(test)
    p_model = predict_holding(np.array(model["holding"]), tx, tg, th)
    p_prior = th[tg] / np.bincount(tg)[tg]
    mtx, mty, mdcw, mdmod, mtg = meld_rows(test, wfun)
    p_meld = 1 / (1 + np.exp(-np.clip(mtx @ np.array(model["meld"]), -30, 30)))
    p_meld = np.where(mdmod > 0, p_meld, 0.0)
    print(f"Data: {args.games} training games ({len(train)} decisions, {len(y)} card rows), "
          f"{args.heldout} held-out games ({len(test)} decisions, {len(ty)} card rows, "
          f"{len(mty)} discard-candidate rows), seed {args.seed}.\n")
    print("| opponent holds card c (held out) | mean squared error a card | squared error summed a decision | log loss a card |")
    print("|---|---|---|---|")
    for name, p in (("no guess (hidden / unknown)", p_prior), ("inference.card_weights", tcw),
                    ("learned holding model", p_model)):
        a, b, c = metrics(p, ty, tg)
        print(f"| {name} | {a:.4f} | {b:.3f} | {c:.4f} |")
    print("\n| opponent can meld our card c (held out, cards of our hand at discard decisions) "
          "| mean squared error a card | squared error summed over the 11 cards | log loss a card |")
    print("|---|---|---|---|")
    base = np.full_like(mty, mty.mean())
    for name, p in (("constant (the held-out mean)", base), ("club danger of card_weights", mdcw),
                    ("independent danger of the learned weights", mdmod), ("learned meld model", p_meld)):
        a, b, c = metrics(p, mty, mtg)
        print(f"| {name} | {a:.4f} | {b:.3f} | {c:.4f} |")
    cal = {"card_weights (holds)": calibration(tcw, ty), "learned (holds)": calibration(p_model, ty),
           "club danger (melds)": calibration(mdcw, mty), "learned (melds)": calibration(p_meld, mty)}
    print("\nCalibration (held out): predicted chance bin, mean predicted, observed share (rows)\n")
    print("| bin | " + " | ".join(cal) + " |")
    print("|---" * (len(cal) + 1) + "|")
    for lo, hi in zip(BINS, BINS[1:]):
        cells = []
        for rows in cal.values():
            r = [t for t in rows if t[0] == lo]
            cells.append(f"{r[0][1]:.3f} / {r[0][2]:.3f} ({r[0][3]})" if r else "-")
        print(f"| {lo:g}-{min(hi, 1):g} | " + " | ".join(cells) + " |")
    if args.svg is not None:
        args.svg.write_text(svg_plot(cal, "Opponent model calibration, held-out deals"))
    if args.write:
        path = ROOT / "src" / "ginrummy" / "players" / MODEL_FILE
        path.write_text(json.dumps(model, indent=1) + "\n")
        print(f"\nwrote {path.relative_to(ROOT)} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
