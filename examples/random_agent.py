"""A random agent over the PettingZoo AEC environment: every agent picks a uniformly random
legal code from its action mask.

    python examples/random_agent.py [--episodes 5] [--preset standard] [--scope deal] [--seed 0]

Prints each episode's steps, how the last deal ended and every agent's total reward.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from ginrummy.env import GinRummyAEC


def run_episode(env: GinRummyAEC, seed: int, rng: random.Random) -> tuple[int, dict[str, float]]:
    """One episode with random legal codes; returns (steps, total reward per agent)."""
    env.reset(seed=seed)
    totals = {a: 0.0 for a in env.agents}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = rng.choice(obs["action_mask"].nonzero()[0].tolist())
            steps += 1
        env.step(action)
    return steps, totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=5)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--scope", default="deal", choices=["deal", "game", "match"])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = GinRummyAEC(rules=args.preset, scope=args.scope)
    rng = random.Random(args.seed)
    for ep in range(args.episodes):
        steps, totals = run_episode(env, args.seed + ep, rng)
        last = env.core.match.record.result
        print(f"episode {ep}: {steps} steps, last deal {last.outcome}, rewards "
              + ", ".join(f"{a} {r:+g}" for a, r in totals.items()))


if __name__ == "__main__":
    main()
