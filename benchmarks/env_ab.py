"""The research environments' cost a step, for comparing two source trees on a shared machine.

    python benchmarks/env_ab.py SRC [--deals 200] [--repeat 3]

imports ``ginrummy`` from ``SRC`` (say ``/path/to/main/src`` against ``src``) and prints the
process time (CPU time of this process, less disturbed by other jobs than the wall clock that
``env_speed.py`` reports) of a step, best of ``--repeat`` passes taken in turn, for three loops:
the AEC env with the mask only, the AEC env reading the observation every step (both as in
``env_speed.py``), and ``GinRummyVector(32, opponent="random")`` driven by a batched numpy random
policy (moves of both seats).  Run it for each tree, in turn, twice: figures move by about 5%
from run to run under load.  ``--only NAME`` (``mask``, ``observation`` or ``vector``) runs one
loop once and prints its steps, for counting instructions, which other jobs do not disturb:

    for n in 30 60; do OPENBLAS_NUM_THREADS=1 valgrind --tool=cachegrind --cache-sim=no \
        --cachegrind-out-file=/dev/null python benchmarks/env_ab.py SRC --only observation --deals $n; done

(instructions a step: the difference of the two "I refs" over the difference of the steps, so
the start-up and the warm-up cancel).
"""

from __future__ import annotations

import argparse
import random
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("src", help="the source tree to import ginrummy from")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=("mask", "observation", "vector"), help="run one loop once, print its steps")
    args = parser.parse_args(argv)
    sys.path.insert(0, args.src)
    import numpy as np

    from ginrummy.env import GinRummyAEC, GinRummyVector

    def aec(deals: int, read: bool) -> int:
        env = GinRummyAEC()
        rng = random.Random(1)
        steps = 0
        for d in range(deals):
            env.reset(seed=100_000 + d)
            for _agent in env.agent_iter():
                obs, _r, term, trunc, _i = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                if read:
                    obs["observation"]
                env.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
                steps += 1
        return steps

    def vector(deals: int, n: int = 32) -> int:
        vec = GinRummyVector(n, opponent="random")
        rng = np.random.default_rng(1)
        obs, _ = vec.reset(seed=100_000)
        mask = obs["action_mask"]
        finished = 0
        while finished < deals:
            r = (rng.random(n) * mask.sum(1, dtype=np.int64)).astype(np.int64)
            codes = (mask.cumsum(1, dtype=np.int16) <= r[:, None]).sum(1)
            obs, _r, term, trunc, _i = vec.step(codes)
            finished += int(term.sum() + trunc.sum())
        return sum(e.core.moves for e in vec.envs)

    loops = {
        "AEC, mask only": lambda: aec(args.deals, False),
        "AEC, observation read": lambda: aec(args.deals, True),
        "vector x32": lambda: vector(args.deals),
    }
    if args.only:
        steps = {"mask": lambda: aec(args.deals, False), "observation": lambda: aec(args.deals, True)}.get(
            args.only, lambda: vector(args.deals)
        )()
        print("steps", steps)
        return 0
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        for name, fn in loops.items():
            t0 = time.process_time()
            steps = fn()
            us = (time.process_time() - t0) / steps * 1e6
            best[name] = min(best.get(name, us), us)
    print(args.src, "  ".join(f"{k}: {v:.2f} µs ({1e6 / v:,.0f}/s)" for k, v in best.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
