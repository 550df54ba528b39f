"""Build the ``sage`` player's network (``src/ginrummy/players/sage_model.json``) from a seed.

Two steps, run from the repository root:

    python scripts/train_sage.py data --games 200 [--start 0] [--seed 37] [--samples 64] --out DATA.jsonl
    python scripts/train_sage.py train DATA.jsonl ... [--seed 37] [--hidden 24] [--epochs 30]
                                 --out src/ginrummy/players/sage_model.json [--curve CURVE.json]
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

The knock experiment (``benchmarks/RESULTS.md``, "The sage"):

    python scripts/train_sage.py knock-data --games 3000 [--start 0] [--seed 41] --out KNOCK.jsonl
    python scripts/train_sage.py knock-eval KNOCK.jsonl ... [--ridge 1.0]

``knock-data`` plays games between two fast sages (no search) in which one decision a player
and deal where a knock is legal is played by a coin (the network's best knock or its best
discard), and records the deal's outcome as the expert values it.  ``knock-eval`` values knock
policies on those decisions (the mean outcome where the coin played the policy's way: the coin
makes it a fair estimate), and fits a model of the knock's advantage on the outcomes
(:func:`knock_terms`), judged on held-out games.

The discard experiment, the same for discards (R4.1) where no knock is legal:

    python scripts/train_sage.py discard-data --games 20000 [--start 0] [--seed 43] --out DISCARD.jsonl
    python scripts/train_sage.py discard-eval DISCARD.jsonl ... [--ridge 1.0]

``discard-data`` plays fast sages in which one such discard a player and deal is played by a
coin, between the club player's discard and another of the expert's candidates (one at
random); ``discard-eval`` values the club discard, the other, the network's choice of the two
and a model fitted on the outcomes (:func:`discard_terms`) the same way.

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
from ginrummy.players.sage import FEATURES, move_features, move_scores  # noqa: E402
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


def _write_games(args: argparse.Namespace, play, what: str) -> int:
    """Play games ``args.start ..`` (``args.games`` of them) by ``play(game, seed)`` and append
    each game's line to ``args.out``, skipping the games of this seed already there (a rerun adds
    none twice), with a progress bar counting ``what``."""
    from rich.progress import Progress

    out = Path(args.out)
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            r = json.loads(line)
            if r["seed"] == args.seed:
                done.add(r["game"])
    todo = [g for g in range(args.start, args.start + args.games) if g not in done]
    if len(todo) < args.games:
        print(f"{args.games - len(todo)} of these games are in {out} already (seed {args.seed}): not played again")
    t0 = time.perf_counter()
    n = 0
    with Progress() as bar, out.open("a") as fh:
        task = bar.add_task(f"games {args.start}..{args.start + args.games - 1}", total=len(todo))
        for g in todo:
            r = play(g, args.seed)
            n += len(r["decisions"])
            fh.write(json.dumps(r, separators=(",", ":")) + "\n")
            fh.flush()
            bar.update(task, advance=1, description=f"{n} {what}")
    print(f"{len(todo)} games, {n} {what}, {time.perf_counter() - t0:.0f} s")
    print(f"wrote {args.out}")
    return 0


def cmd_data(args: argparse.Namespace) -> int:
    return _write_games(args, lambda g, seed: label_game(g, seed, args.samples), "decisions")


def _lines(path: str, keys: tuple[str, ...]):
    """The JSON lines of a data file, each checked for ``keys`` in its decisions; a line that
    is not one ends the run with one sentence naming the file, the line and what it lacks."""
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        try:
            r = json.loads(line)
            missing = [k for d in r["decisions"] for k in keys if k not in d]
            r["seed"], r["game"]  # noqa: B018
        except (ValueError, KeyError, TypeError) as e:
            raise SystemExit(f"{path}: line {n} is not a line of this step's data ({type(e).__name__}: {e})") from None
        if missing:
            raise SystemExit(f"{path}: line {n} lacks {sorted(set(missing))} (a file of the other data step?)")
        for d in r["decisions"]:
            rows = d["f"] if "f" in keys else [d[k] for k in keys if k in ("k", "n", "c", "a")]
            if any(len(row) != len(FEATURES) for row in rows):
                raise SystemExit(f"{path}: line {n} has rows of other than {len(FEATURES)} features "
                                 "(data made for another FEATURES list?)")
        yield r


def load(paths: list[str]):
    """Rows, targets, decision ids, club flags and held-out flags of the data files."""
    np = _numpy()

    xs, ts, gs, held, club = [], [], [], [], []
    d = 0
    games: dict[tuple[int, int], int] = {}
    for p in paths:
        for r in _lines(p, ("u", "f", "club")):
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
    np = _numpy()

    s = np.bincount(g, weights=y, minlength=n)
    c = np.bincount(g, minlength=n)
    return y - (s / np.maximum(c, 1))[g]


def _regret(score, t, g, n):
    """Mean over decisions of (best target - target of the highest-scored row)."""
    np = _numpy()

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


def _numpy():
    """NumPy, or one clear error: the base install has none (the research extra brings it)."""
    try:
        import numpy
    except ImportError:
        raise SystemExit("train and knock-eval need NumPy: pip install numpy (or the research extra: "
                         "pip install -e '.[research]')") from None
    return numpy


def cmd_train(args: argparse.Namespace) -> int:
    np = _numpy()

    x, t, g, held, club, data = load(args.data)
    if not held.any() or held.all():
        n = data["games"]
        raise SystemExit("train needs games of both kinds: held out (every tenth game: 0, 10, 20, ...) and not; "
                         f"these files have {n} game{'s' if n != 1 else ''}, {'all' if held.all() else 'none'} "
                         "held out (make at least games 0 and 1: data --games 2)")
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


def _coin_game(index: int, seed: int, explore: float, eligible, pair, key: str) -> dict:
    """Game ``index`` of two fast sages (no search) in which, for each player in each deal, one
    decision that ``eligible(view, legal, move)`` admits is played by a coin: each such decision
    is the one with chance ``explore`` until one has been; ``pair(player, view, legal, move,
    coin)`` gives ``(rows, first, second)`` (the :data:`~ginrummy.players.sage.FEATURES` rows to
    record, by name, and the two moves; or ``None``) and the coin plays ``first`` with chance 1/2
    (``key`` records whether it did).  Each decision's line: the rows, ``key`` and the deal's
    outcome valued as the expert values it (the chance of winning the game from the new score,
    R9, R11)."""
    from ginrummy.players.sage import SagePlayer

    mseed = match_seed(seed, index)
    match = Match.new(preset("eaai"), ["a", "b"], mseed)
    players = [SagePlayer(random.Random(player_seed(mseed, j)), search="none") for j in range(2)]
    coin = random.Random(player_seed(mseed, 7))
    out = []
    while not match.finished:
        if match.deal.is_over:
            match.next_deal()
            continue
        pending: list[dict] = []
        done = [False, False]
        while not match.deal.is_over:
            who = match.player_to_act()
            view = match.view(who)
            legal = list(view.legal)
            p = players[who]
            move = p.choose(view, legal)
            if eligible(view, legal, move) and not done[who] and coin.random() < explore:
                got = pair(p, view, legal, move, coin)
                if got is not None:
                    rows, first, second = got
                    flip = coin.random() < 0.5
                    move = first if flip else second
                    done[who] = True
                    pending.append({"who": who, "util": p._utility(view), "rows": rows, "flip": flip})
            match.apply(who, move)
        rec = match.deals[-1]
        r = rec.result
        for d in pending:
            if r is None or r.winner is None:
                u = d["util"](None, 0)
            else:
                u = d["util"](0 if rec.seat_players[r.winner] == d["who"] else 1, r.points)
            out.append({**{name: [round(x, 5) for x in row] for name, row in d["rows"].items()},
                        key: d["flip"], "u": round(u, 6)})
    return {"seed": seed, "game": index, "decisions": out}


def _knock_pair(p, view, legal, move, coin):
    """The network's best knock and its best discard (``knock_game``)."""
    k = read_view(view)
    cands = [a for a in p._candidates(view, k, legal) if a.kind in ("knock", "discard")]
    rows = move_features(view, k, p._club.weights(k), cands, p._club_hint(view, legal)[0])
    sc = move_scores(rows)
    ki = max((i for i, a in enumerate(cands) if a.kind == "knock"), key=lambda i: sc[i], default=None)
    ni = max((i for i, a in enumerate(cands) if a.kind == "discard"), key=lambda i: sc[i], default=None)
    if ki is None or ni is None:
        return None
    return {"k": rows[ki], "n": rows[ni]}, cands[ki], cands[ni]


def knock_game(index: int, seed: int, explore: float = 0.3) -> dict:
    """Game ``index`` of two fast sages (no search; the network decides whether to knock) in
    which, for each player in each deal, one decision where a knock is legal (R5.1) is played at
    random: each such decision is the one with chance ``explore`` until one has been.  Its line:
    for each randomized decision the rows of the best knock and of the best other move
    (:data:`~ginrummy.players.sage.FEATURES`), which was played and the deal's outcome valued as
    the expert values it (the chance of winning the game from the new score, R9, R11)."""
    return _coin_game(
        index, seed, explore,
        lambda view, legal, move: any(a.kind == "knock" for a in legal) and move.kind in ("knock", "discard"),
        _knock_pair, "knocked",
    )


def _discard_pair(p, view, legal, move, coin):
    """The club player's discard and another of the expert's candidate discards, at random
    (``discard_game``)."""
    k = read_view(view)
    cands = [a for a in p._candidates(view, k, legal) if a.kind == "discard"]
    others = [a for a in cands if a != move]
    if move not in cands or not others:
        return None
    alt = others[coin.randrange(len(others))]
    rows = move_features(view, k, p._club.weights(k), [move, alt], move)
    return {"c": rows[0], "a": rows[1]}, move, alt


def discard_game(index: int, seed: int, explore: float = 0.15) -> dict:
    """Game ``index`` of two fast sages in which, for each player in each deal, one discard
    (R4.1) where no knock is legal is played by a coin, between the club player's discard and
    another of the expert's candidate discards (one at random): each such decision is the one
    with chance ``explore`` until one has been.  Its line: for each randomized decision the rows
    of the club discard ``c`` and of the other ``a`` (:data:`~ginrummy.players.sage.FEATURES`),
    whether the club discard was played (``club``) and the deal's outcome valued as the expert
    values it."""
    return _coin_game(
        index, seed, explore,
        lambda view, legal, move: move.kind == "discard" and not any(a.kind == "knock" for a in legal),
        _discard_pair, "club",
    )


def cmd_knock_data(args: argparse.Namespace) -> int:
    return _write_games(args, knock_game, "knock decisions")


def cmd_discard_data(args: argparse.Namespace) -> int:
    return _write_games(args, discard_game, "discard decisions")


def knock_terms(k: list[float], n: list[float]) -> list[float]:
    """The terms of the knock model for one decision where a knock is legal (R5.1), from the
    :func:`move_features` rows of the best knock ``k`` and of the best other move ``n``: a
    constant, the knock's deadwood, the stage, the score, the other move's deadwood, saving and
    danger, whether the knock is the ``club`` player's move, and the products of the first seven
    (``knock-eval`` fits the knock's advantage in the chance of winning the game on them)."""
    i = FEATURES.index
    base = [
        k[i("dw")],
        k[i("stock")],
        k[i("turns")],
        k[i("known")],
        k[i("mine")],
        k[i("theirs")],
        n[i("dw")],
        n[i("saving")],
        n[i("danger")],
        k[i("is_club")],
    ]
    prods = [base[a] * base[b] for a in range(6) for b in range(a, 7)]
    return [1.0, *base, *prods]


def _value_policies(np, rows, us, played, held, ridge: float, policies) -> None:
    """Print a table row for each of ``policies`` (name, its choice a decision or ``None`` for
    the model fitted here, judged on the held-out decisions only): the share of decisions it
    plays the first move in, and the mean outcome ``us`` of the decisions where the coin played
    (``played``: the first move) its way.  The model: ridge regression (penalty ``ridge``) of the
    outcome on the terms ``rows`` and their products with the move played, fitted on the
    decisions not ``held`` out; it plays the first move where that product's part is positive."""
    x = np.array(rows)
    u = np.array(us)
    pp = np.array(played)
    h = np.array(held)
    design = np.hstack([x, x * pp[:, None]])
    a = design[~h]
    coef = np.linalg.solve(a.T @ a + ridge * np.eye(a.shape[1]), a.T @ u[~h])
    fitted = x @ coef[x.shape[1]:] > 0
    for name, choice, held_only in policies:
        choice = fitted if choice is None else np.array(choice)
        scope = h if held_only else np.ones(len(u), bool)
        agree = scope & (choice == pp)
        se = u[agree].std(ddof=1) / np.sqrt(agree.sum())
        print(f"| {name}{' (held-out games)' if held_only else ''} | {choice[scope].mean():.1%} | "
              f"{int(agree.sum())} | {u[agree].mean():.4f} (± {1.96 * se:.4f}) |")


def _coin_decisions(paths: list[str], keys: tuple[str, ...], needs: str) -> tuple[list[dict], list[bool]]:
    """The coin-played decisions of the data files ``paths`` (each with ``keys``, read by
    :func:`_lines`) in order, and for each whether its game is held out (every tenth).  Ends the
    run with ``needs`` and what it needs when the held-out games or the others have none."""
    ds, held = [], []
    for p in paths:
        for r in _lines(p, keys):
            ds.extend(r["decisions"])
            held.extend([r["game"] % 10 == 0] * len(r["decisions"]))
    if not held or all(held) or not any(held):
        raise SystemExit(f"{needs} in held-out games (every tenth game: 0, 10, 20, ...) and in the others")
    return ds, held


def cmd_knock_eval(args: argparse.Namespace) -> int:
    """The value of knock policies on the randomized decisions of ``knock-data`` (see the module
    docstring): fit the knock model (ridge regression of the outcome on :func:`knock_terms` and
    their products with the move played) on the training games, then for each policy the mean
    outcome of the held-out decisions where the coin played the policy's choice."""
    np = _numpy()

    ds, held = _coin_decisions(args.data, ("k", "n", "knocked", "u"), "knock-eval needs knock decisions")
    i_club = FEATURES.index("is_club")
    rows = [knock_terms(d["k"], d["n"]) for d in ds]
    us = [d["u"] for d in ds]
    kn = [d["knocked"] for d in ds]
    net = [sk > sn for sk, sn in (move_scores([d["k"], d["n"]]) for d in ds)]
    club = [d["k"][i_club] == 1.0 for d in ds]
    print(f"knock decisions {len(us)} ({len(us) - sum(held)} training games' decisions, {sum(held)} held out); "
          f"knocked {sum(kn) / len(kn):.3f}")
    print("| knock policy | knocks in | decisions played its way | mean outcome (chance of winning the game), 95% |")
    print("|---|---|---|---|")
    # the fitted model is judged on the held-out games only; the others were not fitted here
    _value_policies(np, rows, us, kn, held, args.ridge, [
        ("always knock", [True] * len(us), False), ("the club player's knock point", club, False),
        ("the network (sage)", net, False), ("the knock model fitted on outcomes", None, True),
        ("never (not at this decision)", [False] * len(us), False)])
    return 0


#: The features whose difference between the club discard and the other (``discard-eval``).
DISCARD_TERMS = ("dw", "value", "danger", "danger_value", "saving", "links", "dead_rank", "dead_near", "passed")


def discard_terms(c: list[float], a: list[float]) -> list[float]:
    """The terms of the discard model for one randomized discard, from the :func:`move_features`
    rows of the club player's discard ``c`` and of the other ``a``: a constant, the differences
    (club less other) of :data:`DISCARD_TERMS` and those differences times the stock left
    (``discard-eval`` fits the club discard's advantage in the chance of winning the game on them)."""
    i = FEATURES.index
    diffs = [c[i(f)] - a[i(f)] for f in DISCARD_TERMS]
    stock = c[i("stock")]
    return [1.0, *diffs, *(x * stock for x in diffs)]


def cmd_discard_eval(args: argparse.Namespace) -> int:
    """The value of discard policies on the randomized discards of ``discard-data``: for each
    policy the mean outcome of the decisions where the coin played the policy's choice; the
    fitted model (ridge regression of the outcome on :func:`discard_terms` and their products with
    the move played, on the training games) judged on the held-out games (every tenth)."""
    np = _numpy()

    ds, held = _coin_decisions(args.data, ("c", "a", "club", "u"), "discard-eval needs randomized discards")
    rows = [discard_terms(d["c"], d["a"]) for d in ds]
    us = [d["u"] for d in ds]
    cl = [d["club"] for d in ds]
    net = [sc >= sa for sc, sa in (move_scores([d["c"], d["a"]]) for d in ds)]
    print(f"randomized discards {len(us)} ({len(us) - sum(held)} in training games, {sum(held)} held out); "
          f"club discard played {sum(cl) / len(cl):.3f}")
    print("| discard policy | the club discard in | decisions played its way | mean outcome (chance of winning "
          "the game), 95% |")
    print("|---|---|---|---|")
    _value_policies(np, rows, us, cl, held, args.ridge, [
        ("the club player's discard", [True] * len(us), False), ("the other candidate", [False] * len(us), False),
        ("the network's choice of the two", net, False), ("the discard model fitted on outcomes", None, True),
        ("the club player's discard, on the same games", [True] * len(us), True)])
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
               f'<text x="{x0 - 44}" y="{pad - 14}">{ylabel}</text>']
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

    width, height = 2 * w + 3 * pad + 20, h + pad + 95
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             'font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="#fff"/>']
    parts += panel(pad + 10, "Held-out regret (chance of winning the game lost a decision)",
                   {"network": [r["held_regret"] for r in curve], "club move": [club] * n,
                    "random candidate": [rand] * n}, "regret")
    parts += panel(2 * pad + w + 20, "Loss (centred values x 10, squared)",
                   {"training loss": [r["train_loss"] for r in curve],
                    "held-out loss": [r["held_loss"] for r in curve]}, "loss")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _at_least(low: int):
    """An argparse type: a whole number of ``low`` or more."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < low:
            raise argparse.ArgumentTypeError(f"{n} is less than {low}")
        return n

    return parse


_positive = _at_least(1)
_not_negative = _at_least(0)


def _data_file(text: str) -> str:
    """An argparse type: a data file that exists and holds at least one line."""
    p = Path(text)
    if not p.is_file():
        raise argparse.ArgumentTypeError(f"{text}: not a file")
    if not p.read_text().strip():
        raise argparse.ArgumentTypeError(f"{text}: the file is empty (make it with the data or knock-data step)")
    return text


def _out_file(text: str) -> str:
    """An argparse type: a file to write, in a folder that exists."""
    parent = Path(text).resolve().parent
    if not parent.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: the folder {parent} does not exist")
    if Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder, not a file")
    return text


def _rate(text: str) -> float:
    """An argparse type: a float above 0."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not x > 0 or x == float("inf"):
        raise argparse.ArgumentTypeError(f"{text} is not above 0")
    return x


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    fmt = argparse.ArgumentDefaultsHelpFormatter
    d = sub.add_parser("data", help="play and label games", formatter_class=fmt)
    d.add_argument("--games", type=_positive, required=True, help="how many games")
    d.add_argument("--start", type=_not_negative, default=0, help="the first game's number")
    d.add_argument("--seed", type=int, default=37, help="the games' seed (match_seed(seed, game))")
    d.add_argument("--samples", type=_positive, default=64, help="sampled deals a candidate move is played on")
    d.add_argument("--out", type=_out_file, required=True, help="the JSON-lines file to append to")
    t = sub.add_parser("train", help="fit the network", formatter_class=fmt)
    t.add_argument("data", nargs="+", type=_data_file, help="files of the data step")
    t.add_argument("--seed", type=int, default=37, help="the seed of the weights and the batches")
    t.add_argument("--hidden", type=_positive, default=24, help="hidden tanh units")
    t.add_argument("--epochs", type=_positive, default=30, help="passes over the training decisions")
    t.add_argument("--batch", type=_positive, default=256, help="decisions a step")
    t.add_argument("--lr", type=_rate, default=3e-3, help="Adam's step size")
    t.add_argument("--l2", type=float, default=1e-4, help="weight decay of the first layer")
    t.add_argument("--out", type=_out_file, required=True,
                   help="the model file to write (the shipped one: src/ginrummy/players/sage_model.json)")
    t.add_argument("--curve", type=_out_file, default=None, help="write the curve as JSON here")
    t.add_argument("--svg", type=_out_file, default=None, help="draw the curve (SVG) here")
    for what, seed in (("knock", 41), ("discard", 43)):  # the two coin experiments' steps
        cd = sub.add_parser(f"{what}-data", help=f"play fast sages with randomized {what} decisions",
                            formatter_class=fmt)
        cd.add_argument("--games", type=_positive, required=True, help="how many games")
        cd.add_argument("--start", type=_not_negative, default=0, help="the first game's number")
        cd.add_argument("--seed", type=int, default=seed, help="the games' seed")
        cd.add_argument("--out", type=_out_file, required=True, help="the JSON-lines file to append to")
        ce = sub.add_parser(f"{what}-eval", help=f"value {what} policies on the randomized decisions",
                            formatter_class=fmt)
        ce.add_argument("data", nargs="+", type=_data_file, help=f"files of the {what}-data step")
        ce.add_argument("--ridge", type=float, default=1.0, help=f"ridge penalty of the fitted {what} model")
    args = ap.parse_args(argv)
    return {"data": cmd_data, "train": cmd_train, "knock-data": cmd_knock_data,
            "knock-eval": cmd_knock_eval, "discard-data": cmd_discard_data,
            "discard-eval": cmd_discard_eval}[args.cmd](args)


if __name__ == "__main__":
    raise SystemExit(main())
