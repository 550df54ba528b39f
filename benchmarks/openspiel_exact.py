"""Agreement of the OpenSpiel mode with OpenSpiel's own ``gin_rummy`` (issue 36, item 1).

Plays OpenSpiel games (random play, and OpenSpiel's simple bot in both seats), records each
game's actions and OpenSpiel's legal actions before each move, and replays them through our
engine under ``OPENSPIEL_RULES`` (:func:`ginrummy.interop.openspiel_exact.replay`): a game
disagrees when at any decision our legal actions, mapped to OpenSpiel's ids, differ from
OpenSpiel's, or when the deal ends elsewhere or pays other returns.

    python benchmarks/openspiel_exact.py                      # 10,000 random + 2,000 simple-bot games
    python benchmarks/openspiel_exact.py --random 500 --simple 100
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import pyspiel  # noqa: E402

from ginrummy.interop.openspiel_exact import replay  # noqa: E402


def play(game, seed: int, simple: bool):
    """One OpenSpiel game: (actions, chance flags, legal lists, returns, decisions)."""
    rng = random.Random(seed)
    bots = [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p) for p in (0, 1)] if simple else None
    st = game.new_initial_state()
    hist, ch, leg = [], [], []
    while not st.is_terminal():
        if st.is_chance_node():
            a = rng.choice([x for x, _ in st.chance_outcomes()])
            hist.append(a), ch.append(True), leg.append(None)
        else:
            legal = st.legal_actions()
            a = bots[st.current_player()].step(st) if bots else rng.choice(legal)
            hist.append(a), ch.append(False), leg.append(legal)
        st.apply_action(a)
    return hist, ch, leg, st.returns()


def run(kind: str, n: int, seed: int) -> dict:
    game = pyspiel.load_game("gin_rummy")
    bad, decisions, ends = 0, 0, Counter()
    examples = []
    t0 = time.perf_counter()
    for i in range(n):
        hist, ch, leg, ret = play(game, seed * 1_000_003 + i, kind == "simple")
        decisions += sum(1 for c in ch if not c)
        ends["scored" if any(ret) else "0 points"] += 1
        d = replay(hist, ch, leg, ret)
        if d:
            bad += 1
            if len(examples) < 5:
                examples.append((i, d))
    return {"kind": kind, "games": n, "decisions": decisions, "disagreeing": bad, "ends": dict(ends),
            "examples": examples, "seconds": time.perf_counter() - t0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=10_000, help="games of random play (default 10,000)")
    ap.add_argument("--simple", type=int, default=2_000, help="games of the simple bot (default 2,000)")
    ap.add_argument("--seed", type=int, default=36)
    a = ap.parse_args()
    for kind, n in (("random", a.random), ("simple", a.simple)):
        if n > 0:
            r = run(kind, n, a.seed)
            print(f"{r['kind']}: {r['games']} games, {r['decisions']} decisions, {r['disagreeing']} disagreeing, "
                  f"ends {r['ends']}, {r['seconds']:.0f} s")
            for ex in r["examples"]:
                print("  ", ex)


if __name__ == "__main__":
    main()
