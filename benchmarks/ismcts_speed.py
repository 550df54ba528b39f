"""Processor time of an iteration of the ``ismcts`` level, and of the expert's playouts.

Run from the repository root: ``python benchmarks/ismcts_speed.py``.  The positions are every
draw and discard decision with two or more legal moves of three club-vs-club deals (``eaai``
preset, seeds ``speed1..3``); each player runs without a clock (``budget_ms=None``).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from ginrummy.match import Match  # noqa: E402
from ginrummy.players import make_player  # noqa: E402
from ginrummy.players.expert import ExpertPlayer  # noqa: E402
from ginrummy.players.ismcts import ISMCTSPlayer  # noqa: E402
from ginrummy.rules import preset  # noqa: E402


def positions() -> list:
    """The views of the decisions measured."""
    views = []
    for seed in (b"speed1", b"speed2", b"speed3"):
        m = Match.new(preset("eaai"), ["a", "b"], seed)
        ps = [make_player("club", 1), make_player("club", 2)]
        while not m.deal.is_over:
            w = m.player_to_act()
            v = m.view(w)
            if len(v.legal) > 1 and v.phase in ("draw", "discard"):
                views.append(v)
            m.apply(w, ps[w].choose(v, v.legal))
    return views


def main() -> int:
    views = positions()
    for label, hands in (("128 sampled hands a decision, reused", 128), ("a fresh batch of 8 hands an iteration", 0)):
        p = ISMCTSPlayer(random.Random(1), budget_ms=None, iterations=300)
        if hands == 0:
            p.hands = 10**9  # never reuse: every iteration samples a new batch
        t = time.process_time()
        for v in views:
            p.choose(v, v.legal)
        print(f"ismcts, {label}: {len(views)} decisions, "
              f"{(time.process_time() - t) * 1000 / len(views) / 300:.3f} ms of processor time an iteration")
    e = ExpertPlayer(random.Random(1), budget_ms=None, samples=64)
    t = time.process_time()
    n = 0
    for v in views:
        n += sum(x[2] for x in e.analyse(v, v.legal))
    dt = (time.process_time() - t) * 1000
    print(f"expert, 64 samples: {dt / len(views):.1f} ms a decision, {dt / max(1, n):.3f} ms a candidate playout")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
