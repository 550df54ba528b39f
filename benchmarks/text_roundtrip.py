"""Issue 35's goal for text observations, at full size: in every phase of 1,000 deals the text
observation parses back (the numbered move chosen is the move applied) and an answer that is no
legal move raises an error naming every legal move.  tests/test_text_view.py runs the same
check on 200 deals.

    PYTHONPATH=src python benchmarks/text_roundtrip.py [--deals 1000] [--seed 35]

Play: the novice level's move 80% of the time, a uniformly random legal move otherwise, so that
deals reach knocks, gins, undercuts and the wall; the rules cycle through standard, the wall with
big gin, Oklahoma, Straight, single (reshuffle, discard_taken_card) and the wall with knock limit 0.
Prints the steps checked per phase and outcome, the failures (0 is the goal) and the time.
"""

from __future__ import annotations

import argparse
import random
import time

from ginrummy.actions import DRAW_STOCK, discard
from ginrummy.errors import IllegalActionError
from ginrummy.match import Match
from ginrummy.players import make_player
from ginrummy.rules import make_rules, preset
from ginrummy.text_view import parse_reply, text_observation

RULES = (
    preset("standard"),
    make_rules("standard", {"stock_end": "wall", "big_gin_bonus": 31}),
    preset("oklahoma"),
    preset("straight"),
    make_rules("single", {"discard_taken_card": True}),
    make_rules("standard", {"stock_end": "wall", "knock_limit": 0}),
)


def run(deals: int, seed: int) -> tuple[dict[str, int], list[str]]:
    rng = random.Random(seed)
    novice = make_player("novice", random.Random(seed))
    counts: dict[str, int] = {}
    failures: list[str] = []
    for n in range(deals):
        m = Match.new(RULES[n % len(RULES)], ["ann", "bob"], f"text-bench-{seed}-{n}".encode())
        while not m.deal.is_over:
            p = m.player_to_act()
            v = m.view(p)
            text = text_observation(v)
            key = "wall_take" if v.must_knock else v.phase
            counts[key] = counts.get(key, 0) + 1
            i = rng.randrange(len(v.legal)) + 1 if rng.random() < 0.2 else v.legal.index(novice.choose(v, v.legal)) + 1
            chosen = v.legal[i - 1]
            line = next(x for x in text.splitlines() if x.startswith(f"{i}. "))
            for reply in (str(i), line, chosen.text, f"Thinking...\nAnswer: {i}"):
                got = parse_reply(reply, v.legal)
                if got is not chosen:
                    failures.append(f"deal {n}: {reply!r} gave {got.text}, not {chosen.text}")
            legal = set(v.legal)
            illegal = DRAW_STOCK if DRAW_STOCK not in legal else next(discard(c) for c in range(52) if discard(c) not in legal)
            for bad in (str(len(v.legal) + 1), illegal.text):
                try:
                    parse_reply(bad, v.legal)
                    failures.append(f"deal {n}: {bad!r} was accepted")
                except IllegalActionError as exc:
                    if not str(exc).endswith("; ".join(f"{k}. {a.text}" for k, a in enumerate(v.legal, 1))):
                        failures.append(f"deal {n}: the error of {bad!r} does not name the legal moves")
            m.apply(p, chosen)
        counts["over"] = counts.get("over", 0) + 1
        if "Result: " not in text_observation(m.view(0)):
            failures.append(f"deal {n}: no result in the text")
        key = f"end_{m.deal.result.outcome}"
        counts[key] = counts.get(key, 0) + 1
    return counts, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args()
    if not 1 <= args.deals <= 100_000:
        parser.error("--deals must be 1..100000")
    t0 = time.perf_counter()
    counts, failures = run(args.deals, args.seed)
    dt = time.perf_counter() - t0
    steps = sum(v for k, v in counts.items() if k != "over" and not k.startswith("end_"))
    print(f"{args.deals} deals, {steps} steps checked in {dt:.1f} s")
    for k in sorted(counts):
        print(f"  {k}: {counts[k]}")
    print(f"failures: {len(failures)}")
    for f in failures[:20]:
        print("  " + f)


if __name__ == "__main__":
    main()
