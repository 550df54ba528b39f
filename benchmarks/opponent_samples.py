"""How well the expert's sampled opponent hands match the real ones, with the hand-made model
(``opponent_model="rules"``) and with the learned one (issue 17), and how much the hand-made
sampler gains from more proposals or from stricter likelihood factors.

Run from the repository root (numpy is needed):

    python benchmarks/opponent_samples.py [--games 6] [--start 80] [--seed 17] [--hands 32]
        [--by-opponent] [--variants] [--history] [--posterior N]

Plays the data games of ``scripts/train_opponent_model.py`` numbers ``start .. start + games - 1``
(by default held-out games of the shipped model: it was trained on games 0-79 of seed 17) and, at
every kept decision, draws ``--hands`` opponent hands with
:func:`ginrummy.players.inference.sample_hands` (the same seeded generator for every sampler).
Reports, per decision, the squared error of the sampled hands' card frequencies against the real
hand (summed over the unknown cards) and, at discard decisions, of the chance that he can meld each
card of our hand (the share of sampled hands that meld it) against the truth (summed over our 11
cards).  For scale: a "no guess" sampler (his hidden cards drawn uniformly) is reported too.

``--by-opponent`` splits every figure by the level of the opponent whose hand is guessed
(``novice``, ``club``, ``expert``).  ``--variants`` adds the hand-made sampler with 8 and 16
proposals a hand instead of 3 (``oversample``), and with stricter likelihood factors
(:data:`STRICT`: the model's acts weighed as if the opponent almost never broke its rules), to
show how far a better use of the same evidence can go.  ``--history`` adds the whole-deal model
(``sample_hands(..., history=True)``: every take, pass, discard and knock not made weighed against
the hand he held when he made it, :func:`ginrummy.players.inference.history_weight`), with 3, 32
and 64 proposals a hand, with the card of each stock draw guided, and with factors as sure as the
``novice`` player (:data:`HISTORY_STRICT`).  ``--posterior N`` prints instead each model's own
posterior mean (importance weights of N uniformly drawn hands a decision, no resampling): what the
model can tell, apart from how well a few proposals sample it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

import ginrummy.players.inference as inference  # noqa: E402
from ginrummy.cards import CARD_VALUES  # noqa: E402
from ginrummy.melds import deadwood, melds_with  # noqa: E402
from ginrummy.players.opponent_model import holding_weights  # noqa: E402
from ginrummy.rules import preset  # noqa: E402
from ginrummy.analysis.shards import iter_shards  # noqa: E402
from ginrummy.analysis.simulate import match_seed, seat_levels  # noqa: E402
from train_opponent_model import MIXES, Collect  # noqa: E402

#: Stricter factors of :mod:`ginrummy.players.inference` for ``--variants`` (the shipped ones are
#: 0.2, 0.35, 0.3, 0.3, 0.15).
STRICT = {"PASS_MELDING": 0.05, "DISCARD_MELDING": 0.1, "TAKE_NOT_MELDING": 0.1, "LAST_DISCARD_WORSE": 0.1,
          "NOT_KNOCKED": 0.03}
#: The whole-deal model (``--history``, :func:`~ginrummy.players.inference.history_weight`) made
#: nearly as sure as the ``novice`` player is (the shipped factors are 0.85, 0.3, 0.05, 0.3, 0.15, 0.05).
HISTORY_STRICT = {"TAKE_MELDING_P": 0.98, "TAKE_GAIN_P": 0.02, "TAKE_OTHER_P": 0.01, "DISCARD_WORSE_P": 0.02,
                  "NOT_KNOCKED": 0.02, "NOT_GIN": 0.01}


@contextmanager
def factors(values: dict[str, float]):
    """The likelihood factors of :mod:`ginrummy.players.inference` set to ``values`` (names to
    numbers) inside the ``with`` block, and set back to the shipped ones after it."""
    shipped = {f: getattr(inference, f) for f in values}
    for f, v in values.items():
        setattr(inference, f, v)
    try:
        yield
    finally:
        for f, v in shipped.items():
            setattr(inference, f, v)


def collect_by_opponent(games: int, start: int, seed: int, workers: int) -> list[tuple]:
    """The kept decisions of the data games, each as ``(knowledge, opponent's true hand,
    is_discard, opponent's level)``."""
    rules = preset("eaai")
    out = []
    by = dict(iter_shards(Collect(), games, seed, start=start, workers=workers))
    for i in sorted(by):
        levels = MIXES[i % len(MIXES)]
        order = seat_levels(rules, levels, i, match_seed(seed, i))
        level_of = {order[j]: levels[j] for j in range(2)}
        for k, truth, is_discard, _, _ in by[i]:
            out.append((k, truth, is_discard, level_of[1 - k.seat]))
    return out


def grouped(data: list[tuple], by_opponent: bool) -> list[tuple[str, list[tuple]]]:
    """The decisions with hidden opponent cards, as ``(group, decisions)``: one group ``all``, or
    one per opponent level (``--by-opponent``)."""
    groups = sorted({d[3] for d in data}) if by_opponent else ["all"]
    return [(g, [d for d in data if g in ("all", d[3]) and d[0].opp_hidden]) for g in groups]


def uniform_hands(k: inference.Knowledge, rng: random.Random, n: int) -> list[int]:
    """``n`` hands: his known cards and hidden ones drawn uniformly from the unknown cards."""
    pool = [c for c in range(52) if (k.unknown >> c) & 1]
    out = []
    for _ in range(n):
        m = k.known_opp
        for c in rng.sample(pool, k.opp_hidden):
            m |= 1 << c
        out.append(m)
    return out


def history_strict(k: inference.Knowledge, rng: random.Random, n: int, oversample: int = 32) -> list[int]:
    """:func:`~ginrummy.players.inference.sample_hands` with the whole-deal model (the card of
    each stock draw guided) and the factors of :data:`HISTORY_STRICT`."""
    with factors(HISTORY_STRICT):
        return inference.sample_hands(k, rng, n, oversample=oversample, history=True, guided=True)


def posterior_table(data: list[tuple], proposals: int, by_opponent: bool) -> None:
    """Print, per opponent group, the squared card error of each model's posterior mean,
    estimated by importance weighting ``proposals`` uniformly drawn hands a decision (no
    resampling: the model itself, not a sampler of it), and the mean effective sample size."""
    def strict(k, h, rng):
        with factors(HISTORY_STRICT):
            return inference.history_weight(k, h, rng, guided=True)

    models = {"no guess": lambda k, h, rng: 1.0, "rules": lambda k, h, rng: inference.hand_weight(k, h),
              "whole deal": lambda k, h, rng: inference.history_weight(k, h, rng),
              "whole deal, guided": lambda k, h, rng: inference.history_weight(k, h, rng, guided=True),
              "whole deal, guided, strict": strict}
    print("| opponent | model | decisions | squared error of the posterior's card chances, summed a decision "
          "| effective sample size |")
    print("|---|---|---|---|---|")
    for group, rows in grouped(data, by_opponent):
        err = dict.fromkeys(models, 0.0)
        ess = dict.fromkeys(models, 0.0)
        for i, (k, truth, _, _) in enumerate(rows):
            rng = random.Random(i)
            hands = uniform_hands(k, rng, proposals)
            pool = [c for c in range(52) if (k.unknown >> c) & 1]
            for name, f in models.items():
                ws = [f(k, h, rng) for h in hands]
                total = sum(ws)
                if not total > 0:
                    ws, total = [1.0] * len(hands), float(len(hands))
                ess[name] += total * total / sum(w * w for w in ws)
                for c in pool:
                    p = sum(w for h, w in zip(hands, ws) if (h >> c) & 1) / total
                    err[name] += (p - ((truth >> c) & 1)) ** 2
        for name in models:
            print(f"| {group} | {name} | {len(rows)} | {err[name] / max(1, len(rows)):.3f} "
                  f"| {ess[name] / max(1, len(rows)):.0f} |", flush=True)


def hand_made(oversample: int, values: dict[str, float]):
    """The hand-made sampler with ``oversample`` proposals a hand and the module's numbers
    ``values`` (likelihood factors, ``MAX_IMPROVE``) set while it draws."""
    def draw(k, rng, n):
        with factors(values):
            return inference.sample_hands(k, rng, n, oversample=oversample)
    return draw


def samplers(variants: bool, history: bool = False) -> dict:
    """Name -> function ``(knowledge, rng, n) -> hands``."""
    out = {"no guess": uniform_hands, "rules": hand_made(3, {}),
           "learned": lambda k, rng, n: inference.sample_hands(k, rng, n, weights=holding_weights(k))}
    if history:
        out["rules, 32 proposals"] = hand_made(32, {})
        out["whole deal"] = lambda k, rng, n: inference.sample_hands(k, rng, n, history=True)
        out["whole deal, 32 proposals"] = lambda k, rng, n: inference.sample_hands(k, rng, n, oversample=32,
                                                                                    history=True)
        out["whole deal, uniform, 64 proposals"] = lambda k, rng, n: inference.sample_hands(
            k, rng, n, oversample=64, history=True, improve=False)
        out["whole deal, guided, 32 proposals"] = lambda k, rng, n: inference.sample_hands(
            k, rng, n, oversample=32, history=True, guided=True)
        out["whole deal, strict, 32 proposals"] = history_strict
    if variants:
        out["rules, 8 proposals"] = hand_made(8, {})
        out["rules, 16 proposals"] = hand_made(16, {})
        out["rules, strict, 8 proposals"] = hand_made(8, STRICT)
        out["rules, strict, 16 proposals"] = hand_made(16, STRICT)
    return out


#: ``--deadwood``: the stages of his deal, by his stock draws so far (``Knowledge.opp_draws``).
STAGES = (("0-2", 0, 2), ("3-5", 3, 5), ("6-8", 6, 8), ("9+", 9, 99))


def deadwood_table(data: list[tuple], n: int, by_opponent: bool, draws: dict) -> None:
    """``--deadwood``: for each sampler and stage of his deal, the mean of (the sampled hands'
    mean deadwood minus his real deadwood), its root mean square, the continuous ranked
    probability score of the sampled deadwoods (points; 0 is a sure, right guess) and the share
    of decisions whose real deadwood is below every sampled one or above every one."""
    print("| opponent | sampled hands | his stock draws | decisions | his real deadwood, mean | sampled minus real, "
          "mean | root mean square | CRPS | real below all / above all sampled |")
    print("|---|---|---|---|---|---|---|---|---|")
    for group, rows in grouped(data, by_opponent):
        for name, draw in draws.items():
            for stage, lo, hi in STAGES:
                part = [(i, r) for i, r in enumerate(rows) if lo <= r[0].opp_draws <= hi]
                if not part:
                    continue
                real_sum = diff = sq = crps = 0.0
                below = above = 0
                for i, (k, truth, _, _) in part:
                    xs = sorted(deadwood(h) for h in draw(k, random.Random(i), n))
                    y = deadwood(truth)
                    m = sum(xs) / len(xs)
                    real_sum += y
                    diff += m - y
                    sq += (m - y) ** 2
                    spread = sum((2 * j - len(xs) + 1) * x for j, x in enumerate(xs)) / len(xs) ** 2
                    crps += sum(abs(x - y) for x in xs) / len(xs) - spread
                    below += y < xs[0]
                    above += y > xs[-1]
                t = len(part)
                print(f"| {group} | {name} | {stage} | {t} | {real_sum / t:.1f} | {diff / t:+.1f} | {(sq / t) ** 0.5:.1f} "
                      f"| {crps / t:.2f} | {below / t:.1%} / {above / t:.1%} |", flush=True)


def deadwood_fit(games: int, start: int, seed: int, workers: int) -> None:
    """``--deadwood-fit``: can the public facts tell his deadwood better than the mean of the
    expert's 32 sampled hands?  A least-squares fit of his real deadwood on that mean, its spread
    and 14 public numbers (his stock draws, the stock, the values of his discards, his takes and
    passes, the deadwood of his known cards, the knock limit), on the first three quarters of the
    games; the root mean square error on the last quarter, by stage of his deal."""
    import numpy as np

    by = dict(iter_shards(Collect(), games, seed, start=start, workers=workers))
    rows = []
    for g in sorted(by):
        for j, (k, truth, _, _, _) in enumerate(by[g]):
            if not k.opp_hidden:
                continue
            dws = [deadwood(h) for h in inference.sample_hands(k, random.Random(g * 1000 + j), 32)]
            m, sd = float(np.mean(dws)), float(np.std(dws))
            disc = [CARD_VALUES[c] for kind, c in k.opp_events if kind == "discard"] or [0]
            takes = sum(kind == "take" for kind, _ in k.opp_events)
            passes = sum(kind == "pass" for kind, _ in k.opp_events)
            d = k.opp_draws
            rows.append((g, [1, m, sd, d, d * d, k.stock_size, disc[-1], np.mean(disc[-3:]), np.mean(disc),
                             sum(v == 10 for v in disc), takes, passes, deadwood(k.known_opp), m * d, disc[-1] * d,
                             np.mean(disc[-3:]) * d, k.knock_limit or 0], deadwood(truth), m))
    x = np.array([r[1] for r in rows], float)
    y = np.array([r[2] for r in rows], float)
    mean = np.array([r[3] for r in rows])
    test = np.array([r[0] for r in rows]) >= start + games * 3 // 4
    w, *_ = np.linalg.lstsq(x[~test], y[~test], rcond=None)
    fit = x[test] @ w
    print(f"games {start}-{start + games - 1} of seed {seed}: {int((~test).sum())} decisions to fit, "
          f"{int(test.sum())} held out (the last quarter of the games)\n")
    print("| his stock draws | held-out decisions | root mean square error: the sampled hands' mean | the fit |")
    print("|---|---|---|---|")
    for stage, lo, hi in (("all", 0, 99),) + STAGES:
        s = (x[test][:, 3] >= lo) & (x[test][:, 3] <= hi)
        err = [float(np.sqrt(np.mean((a[s] - y[test][s]) ** 2))) for a in (mean[test], fit)]
        print(f"| {stage} | {int(s.sum())} | {err[0]:.2f} | {err[1]:.2f} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--start", type=int, default=80)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--hands", type=int, default=32)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--by-opponent", action="store_true", help="split the figures by the opponent's level")
    ap.add_argument("--variants", action="store_true", help="add more proposals and stricter factors")
    ap.add_argument("--posterior", type=int, default=0, metavar="N",
                    help="instead: each model's posterior mean from N uniform proposals a decision")
    ap.add_argument("--history", action="store_true",
                    help="add the whole-deal model (each act weighed against the hand he held then)")
    ap.add_argument("--deadwood", action="store_true",
                    help="instead: how well the sampled hands' deadwood matches his real deadwood, by stage")
    ap.add_argument("--deadwood-fit", action="store_true",
                    help="instead: a least-squares fit of his deadwood on the public facts, against the samples' mean")
    args = ap.parse_args(argv)
    if args.deadwood_fit:
        deadwood_fit(args.games, args.start, args.seed, args.workers)
        return 0
    data = collect_by_opponent(args.games, args.start, args.seed, args.workers)
    if args.posterior:
        print(f"games {args.start}-{args.start + args.games - 1} of seed {args.seed}, {args.posterior} uniform "
              f"proposals a decision\n")
        posterior_table(data, args.posterior, args.by_opponent)
        return 0
    print(f"games {args.start}-{args.start + args.games - 1} of seed {args.seed}, {args.hands} sampled hands "
          f"a decision\n")
    if args.deadwood:
        draws = samplers(args.variants, args.history)
        for most in (3, 4, 5):  # fewer surplus cards dropped late in his deal (inference.MAX_IMPROVE, 6)
            draws[f"rules, at most {most} dropped"] = hand_made(3, {"MAX_IMPROVE": most})
        deadwood_table(data, args.hands, args.by_opponent, draws)
        return 0
    print("| opponent | sampled hands | decisions (discards) | squared error of card frequencies, summed a decision "
          "| squared error of meld chances, summed over our 11 cards | processor ms a call |")
    print("|---|---|---|---|---|---|")
    for group, rows in grouped(data, args.by_opponent):
        for name, draw in samplers(args.variants, args.history).items():
            cards = melds = 0.0
            n_dis = 0
            spent = 0.0
            for i, (k, truth, is_discard, _) in enumerate(rows):
                t0 = time.process_time()
                hands = draw(k, random.Random(i), args.hands)
                spent += time.process_time() - t0
                x = k.unknown
                while x:
                    low = x & -x
                    x ^= low
                    f = sum(1 for h in hands if h & low) / len(hands)
                    cards += (f - (1.0 if truth & low else 0.0)) ** 2
                if is_discard:
                    n_dis += 1
                    for c in range(52):
                        if (k.hand >> c) & 1:
                            f = sum(1 for h in hands if melds_with(c, h)) / len(hands)
                            melds += (f - (1.0 if melds_with(c, truth) else 0.0)) ** 2
            print(f"| {group} | {name} | {len(rows)} ({n_dis}) | {cards / max(1, len(rows)):.3f} "
                  f"| {melds / max(1, n_dis):.3f} | {1000 * spent / max(1, len(rows)):.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
