"""How well the expert's sampled opponent hands match the real ones, with the hand-made model
(``opponent_model="rules"``) and with the learned one (issue 17).

Run from the repository root (numpy is needed):

    python benchmarks/opponent_samples.py [--games 6] [--start 80] [--seed 17] [--hands 32]

Plays the data games of ``scripts/train_opponent_model.py`` numbers ``start .. start + games - 1``
(by default held-out games of the shipped model: it was trained on games 0-79 of seed 17) and, at
every kept decision, draws ``--hands`` opponent hands with
:func:`ginrummy.players.inference.sample_hands` both ways (same seeded generator).  Reports, per
decision, the squared error of the sampled hands' card frequencies against the real hand (summed
over the unknown cards) and, at discard decisions, of the chance that he can meld each card of
our hand (the share of sampled hands that meld it) against the truth (summed over our 11 cards).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

from ginrummy.melds import melds_with  # noqa: E402
from ginrummy.players.inference import sample_hands  # noqa: E402
from ginrummy.players.opponent_model import holding_weights  # noqa: E402
from train_opponent_model import collect  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--start", type=int, default=80)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--hands", type=int, default=32)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    data = collect(args.games, args.start, args.seed, args.workers)
    err = {"rules": [0.0, 0.0], "learned": [0.0, 0.0]}
    n_dec = n_dis = 0
    for i, (k, truth, is_discard, _, _) in enumerate(data):
        if not k.opp_hidden:
            continue
        n_dec += 1
        n_dis += is_discard
        for name, w in (("rules", None), ("learned", holding_weights(k))):
            hands = sample_hands(k, random.Random(i), args.hands, weights=w)
            x = k.unknown
            while x:
                low = x & -x
                x ^= low
                f = sum(1 for h in hands if h & low) / len(hands)
                err[name][0] += (f - (1.0 if truth & low else 0.0)) ** 2
            if is_discard:
                for c in range(52):
                    if (k.hand >> c) & 1:
                        f = sum(1 for h in hands if melds_with(c, h)) / len(hands)
                        err[name][1] += (f - (1.0 if melds_with(c, truth) else 0.0)) ** 2
    print(f"games {args.start}-{args.start + args.games - 1} of seed {args.seed}: {n_dec} decisions "
          f"({n_dis} discards), {args.hands} sampled hands each\n")
    print("| sampled hands | squared error of card frequencies, summed a decision "
          "| squared error of meld chances, summed over our 11 cards |")
    print("|---|---|---|")
    for name, (a, b) in err.items():
        print(f"| {name} | {a / max(1, n_dec):.3f} | {b / max(1, n_dis):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
