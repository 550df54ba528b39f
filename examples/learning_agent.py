"""A small learning agent with numpy only: a linear softmax policy over the legal actions,
trained by policy gradient (REINFORCE with a running baseline) against the ``random`` level in
``GinRummySingle`` (one deal an episode, ``reward="win"``), then measured against ``random`` on
deals it never trained on.

    python examples/learning_agent.py [--train 3000] [--eval 1000] [--seed 0]

The policy sees only the observation vector (``docs/env.md``): for each legal action code it
computes 15 features from the hand plane and the top of the discard pile (the kind of action; for
a discard, knock or gin the card's deadwood value and how many cards of the hand it could meld
with; for a take, how many cards of the hand the top card could meld with) and chooses with
probability proportional to exp(w . features).  Nothing of the engine's meld search is used.
Printed: the win rate over ``--eval`` deals with its 95% Wilson interval, for the trained agent
and, on the same deals, for the untrained one (all weights 0: uniform over the legal actions).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from ginrummy.env import GinRummySingle, plane

HAND = plane("hand")
TOP = plane("top")
N_FEATURES = 15
_CARD = np.arange(52)
_RANK = _CARD % 13
_SUIT = _CARD // 13
_VALUE = np.minimum(_RANK + 1, 10) / 10.0
_SAME_RANK = (_RANK[:, None] == _RANK[None, :]) & (_CARD[:, None] != _CARD[None, :])
_SAME_SUIT = _SUIT[:, None] == _SUIT[None, :]
_NEAR1 = _SAME_SUIT & (np.abs(_RANK[:, None] - _RANK[None, :]) == 1)
_NEAR2 = _SAME_SUIT & (np.abs(_RANK[:, None] - _RANK[None, :]) == 2)


def features(obs: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """``(len(codes), 15)`` features of each legal code (see the module docstring)."""
    hand = obs[HAND]
    rank_mates = _SAME_RANK.astype(np.float32) @ hand / 3.0
    near1 = _NEAR1.astype(np.float32) @ hand / 2.0
    near2 = _NEAR2.astype(np.float32) @ hand / 2.0
    top = int(np.argmax(obs[TOP])) if obs[TOP].any() else None
    f = np.zeros((len(codes), N_FEATURES), dtype=np.float32)
    for i, code in enumerate(codes):
        if code < 5:
            f[i, code] = 1.0  # draw stock, take discard, take upcard, pass, big gin
            if code in (1, 2) and top is not None:
                f[i, 8], f[i, 9], f[i, 10] = rank_mates[top], near1[top], near2[top]
        else:
            kind, card = (code - 5) // 52, (code - 5) % 52
            f[i, 5 + kind] = 1.0  # discard, knock, gin
            f[i, 11], f[i, 12], f[i, 13], f[i, 14] = _VALUE[card], rank_mates[card], near1[card], near2[card]
    return f


class LinearPolicy:
    """Softmax over the legal codes of ``w . features``."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.w = np.zeros(N_FEATURES)
        self.rng = rng

    def act(self, obs: dict, greedy: bool = False) -> tuple[int, np.ndarray]:
        """A code and the gradient of its log-probability."""
        codes = np.flatnonzero(obs["action_mask"])
        f = features(obs["observation"], codes)
        z = f @ self.w
        p = np.exp(z - z.max())
        p /= p.sum()
        i = int(np.argmax(p)) if greedy else int(self.rng.choice(len(codes), p=p))
        return int(codes[i]), f[i] - p @ f


def train(policy: LinearPolicy, episodes: int, seed: int, lr: float = 0.05) -> None:
    """REINFORCE with a running-mean baseline, one deal an episode, against ``random``."""
    env = GinRummySingle(opponent="random", reward="win", illegal="raise")
    baseline = 0.0
    for ep in range(episodes):
        obs, _ = env.reset(seed=seed + ep)
        grads = []
        ret = 0.0
        done = False
        while not done:
            code, g = policy.act(obs)
            grads.append(g)
            obs, r, done, _, _ = env.step(code)
            ret += r
        baseline += 0.02 * (ret - baseline)
        policy.w += lr * (ret - baseline) * np.sum(grads, axis=0)


def evaluate(policy: LinearPolicy, deals: int, seed: int) -> tuple[int, int, int]:
    """(wins, losses, draws) over ``deals`` deals against ``random``, the policy greedy."""
    env = GinRummySingle(opponent="random", reward="win", illegal="raise")
    won = lost = drawn = 0
    for d in range(deals):
        obs, _ = env.reset(seed=seed + d)
        done = False
        ret = 0.0
        while not done:
            code, _ = policy.act(obs, greedy=policy.w.any())
            obs, r, done, _, _ = env.step(code)
            ret += r
        won += ret > 0
        lost += ret < 0
        drawn += ret == 0
    return won, lost, drawn


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of k successes in n trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", type=int, default=3000, help="training deals (default 3000)")
    parser.add_argument("--eval", type=int, default=1000, help="evaluation deals (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    eval_seed = 10_000_000 + args.seed  # evaluation deals are not training deals
    untrained = LinearPolicy(np.random.default_rng(args.seed))
    w0, l0, d0 = evaluate(untrained, args.eval, eval_seed)
    t0 = time.perf_counter()
    policy = LinearPolicy(np.random.default_rng(args.seed))
    train(policy, args.train, args.seed)
    took = time.perf_counter() - t0
    w, lost, drawn = evaluate(policy, args.eval, eval_seed)
    lo, hi = wilson(w, args.eval)
    lo0, hi0 = wilson(w0, args.eval)
    print(f"weights: {np.round(policy.w, 2).tolist()}")
    print(f"trained on {args.train} deals in {took:.0f} s (whole-process time of the training loop)")
    print(f"trained vs random:   won {w}/{args.eval} = {w / args.eval:.1%} (95% interval {lo:.1%} - {hi:.1%}), "
          f"lost {lost}, drawn {drawn}")
    print(f"untrained vs random: won {w0}/{args.eval} = {w0 / args.eval:.1%} (95% interval {lo0:.1%} - {hi0:.1%}), "
          f"lost {l0}, drawn {d0}")


if __name__ == "__main__":
    main()
