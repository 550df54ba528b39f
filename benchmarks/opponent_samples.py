"""How well the expert's sampled opponent hands match the real ones, with the hand-made model
(``opponent_model="rules"``) and with the learned one (issue 17), and how much the hand-made
sampler gains from more proposals or from stricter likelihood factors.

Run from the repository root (numpy is needed):

    python benchmarks/opponent_samples.py [--games 6] [--start 80] [--seed 17] [--hands 32]
        [--by-opponent] [--variants]

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
show how far a better use of the same evidence can go.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

import ginrummy.players.inference as inference  # noqa: E402
from ginrummy.melds import melds_with  # noqa: E402
from ginrummy.players.opponent_model import holding_weights  # noqa: E402
from ginrummy.rules import preset  # noqa: E402
from ginrummy.shards import iter_shards  # noqa: E402
from ginrummy.simulate import match_seed, seat_levels  # noqa: E402
from train_opponent_model import MIXES, Collect  # noqa: E402

#: The likelihood factors of :mod:`ginrummy.players.inference` that ``--variants`` changes.
FACTORS = ("PASS_MELDING", "DISCARD_MELDING", "TAKE_NOT_MELDING", "LAST_DISCARD_WORSE", "NOT_KNOCKED")
#: Stricter factors (the shipped ones are 0.2, 0.35, 0.3, 0.3, 0.15).
STRICT = {"PASS_MELDING": 0.05, "DISCARD_MELDING": 0.1, "TAKE_NOT_MELDING": 0.1, "LAST_DISCARD_WORSE": 0.1,
          "NOT_KNOCKED": 0.03}


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


def samplers(variants: bool) -> dict:
    """Name -> function ``(knowledge, rng, n) -> hands``."""
    shipped = {f: getattr(inference, f) for f in FACTORS}

    def hand_made(oversample: int, factors: dict[str, float]):
        def draw(k, rng, n):
            for f in FACTORS:
                setattr(inference, f, factors.get(f, shipped[f]))
            try:
                return inference.sample_hands(k, rng, n, oversample=oversample)
            finally:
                for f in FACTORS:
                    setattr(inference, f, shipped[f])
        return draw

    out = {"no guess": uniform_hands, "rules": hand_made(3, {}),
           "learned": lambda k, rng, n: inference.sample_hands(k, rng, n, weights=holding_weights(k))}
    if variants:
        out["rules, 8 proposals"] = hand_made(8, {})
        out["rules, 16 proposals"] = hand_made(16, {})
        out["rules, strict, 8 proposals"] = hand_made(8, STRICT)
        out["rules, strict, 16 proposals"] = hand_made(16, STRICT)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--start", type=int, default=80)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--hands", type=int, default=32)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--by-opponent", action="store_true", help="split the figures by the opponent's level")
    ap.add_argument("--variants", action="store_true", help="add more proposals and stricter factors")
    args = ap.parse_args(argv)
    data = collect_by_opponent(args.games, args.start, args.seed, args.workers)
    groups = sorted({d[3] for d in data}) if args.by_opponent else ["all"]
    print(f"games {args.start}-{args.start + args.games - 1} of seed {args.seed}, {args.hands} sampled hands "
          f"a decision\n")
    print("| opponent | sampled hands | decisions (discards) | squared error of card frequencies, summed a decision "
          "| squared error of meld chances, summed over our 11 cards | processor ms a call |")
    print("|---|---|---|---|---|---|")
    for group in groups:
        rows = [d for d in data if group in ("all", d[3]) and d[0].opp_hidden]
        for name, draw in samplers(args.variants).items():
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
