"""The batched path of :class:`~ginrummy.env.GinRummyVector` (``backend="batch"``, issue 36):
every sub-environment's deal in one :class:`~ginrummy.env.batch.BatchDeals`, the agent's codes
and the random opponent's applied as one array operation a move for the whole batch.

It plays exactly what the scalar path plays (``tests/test_env_batch.py`` compares them step by
step): the same deck and dealer for each seed (:func:`first_deal`), and the random opponent
draws from the same generator, seeded as :class:`~ginrummy.env.GinRummySingle` seeds it, among
the same legal actions in the same order (the engine lists them in code order), so it makes
the same choices.  Supported: the rules :func:`~ginrummy.env.batch.batch_rules_ok` accepts,
``scope="deal"``, ``opponent="random"``, vector observations; every ``reward``, ``illegal``
mode and ``max_cycles`` of the scalar path.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..deal import deck_from_seed
from ..match import deal_seed, first_dealer_of
from ..rules import RuleSet
from ..scoring import ScoreSheet
from .batch import OVER, BatchDeals, pick
from .core import deal_options, derive_seed, seed_bytes
from .observation import OBS_SIZE

__all__ = ["BatchRunner", "first_deal"]


def first_deal(seed: int, deck: Sequence[int] | None, dealer: int | None) -> tuple[list[int], int, random.Random]:
    """``(deck, dealer, opponent generator)`` of an episode of integer seed ``seed``, as
    :class:`~ginrummy.env.GinRummySingle` makes them: the match seed ``seed_bytes(seed)``; the
    dealer by R3.1 from it (``SHA-256(seed || "/first-dealer")[0] % 2``) unless given; the
    deck of its first deal (:func:`~ginrummy.deal.deck_from_seed` of
    :func:`~ginrummy.match.deal_seed` 1) unless given; the random opponent's generator from
    :func:`~ginrummy.env.core.derive_seed` of it and ``"opponent"``."""
    match_seed = seed_bytes(seed)
    if dealer is None:
        dealer = first_dealer_of(match_seed)
    if deck is None:
        deck = deck_from_seed(deal_seed(match_seed, 1))
    return list(deck), dealer, random.Random(derive_seed(match_seed, "opponent"))


class BatchRunner:
    """The episodes of ``n`` sub-environments (one seat ``seat`` against the random opponent,
    one deal each) on a :class:`BatchDeals`: what ``GinRummyVector(backend="batch")`` steps.

    ``obs`` (``float32[n, 433]``) and ``mask`` (``int8[n, 161]``) hold the agent's observation
    and mask after each :meth:`reset_rows` / :meth:`step`."""

    def __init__(
        self,
        n: int,
        seat: int,
        rules: RuleSet,
        reward: str,
        illegal: str,
        illegal_penalty: float,
        max_cycles: int | None,
    ) -> None:
        self.n = n
        self.seat = seat
        self.eng = BatchDeals(n, rules)
        self.reward = reward
        self.illegal = illegal
        self.penalty = illegal_penalty
        self.max_cycles = -1 if max_cycles is None else max_cycles
        self.scale = self.eng.scale
        self.rngs: list[random.Random] = [random.Random(0)] * n
        self.left = np.full(n, -1, dtype=np.int64)
        #: the episodes that ended (by the rules or ``max_cycles``) in the opponent's moves
        #: before the agent's first one (set by :meth:`reset_rows`)
        self.dead = np.zeros(n, dtype=np.bool_)
        self.obs = np.zeros((n, OBS_SIZE), dtype=np.float32)
        self.mask = np.zeros((n, 161), dtype=np.int8)
        #: moves applied (both seats, all sub-environments), a count for benchmarks
        self.moves = 0
        self._all = np.arange(n)
        #: (winner seat or -1, points) -> the totals of a score sheet after that one deal
        self._sheet_totals: dict[tuple[int, int], tuple[int, ...]] = {}

    def reset_rows(self, rows: Sequence[int], seeds: Sequence[int], options: dict | None, write: bool = True) -> None:
        """Start a new episode in each sub-environment of ``rows`` (seed ``seeds[j]``, deal
        options ``options`` as :func:`~ginrummy.env.core.deal_options` reads them: checked before
        anything changes), play the opponent's first moves, and (``write``) write their rows of
        :attr:`obs` and :attr:`mask`.  Raises ``ValueError`` for a bad option."""
        deck, dealer = deal_options(options, 2)
        for i, s in zip(rows, seeds, strict=True):
            d, dl, rng = first_deal(s, deck, dealer)
            self.eng.deal(i, d, dl)
            self.rngs[i] = rng
            self.left[i] = self.max_cycles
        r = np.asarray(rows, dtype=np.intp)
        done = np.zeros(self.n, dtype=np.bool_)
        self._opponent(r, np.zeros(self.n), done, np.zeros(self.n, dtype=np.bool_))
        self.dead[r] = done[r]
        if write:
            self.write(r)

    def write(self, rows: np.ndarray | None = None) -> None:
        """Rows ``rows`` (default all) of :attr:`obs` and :attr:`mask` from the deals now: the
        agent's observation, and his mask when he is to act (else all 0)."""
        eng = self.eng
        if rows is None:
            rows = self._all
            eng.observe(self.seat, rows, self.obs)
        else:
            part = np.zeros((len(rows), OBS_SIZE), dtype=np.float32)
            eng.observe(self.seat, rows, part)
            self.obs[rows] = part
        self.mask[rows] = 0
        mine = rows[eng.to_act[rows] == self.seat]
        if len(mine):
            self.mask[mine] = eng.masks(mine)

    def _end_rewards(self, rows: np.ndarray) -> np.ndarray:
        """The agent's reward for the deals of ``rows`` just ended (R6; 0 for a draw, R7)."""
        eng = self.eng
        w = eng.winner[rows]
        sign = np.where(w == self.seat, 1.0, np.where(w < 0, 0.0, -1.0))
        if self.reward == "win":
            return sign
        points = sign * eng.points[rows]
        return points / self.scale if self.reward == "scaled" else points

    def _count(self, rows: np.ndarray, done: np.ndarray, truncs: np.ndarray) -> None:
        """One more step in each episode of ``rows`` (not ended): the one that uses up
        ``max_cycles`` ends truncated."""
        left = self.left
        live = rows[left[rows] > 0]
        left[live] -= 1
        out = live[left[live] == 0]
        done[out] = True
        truncs[out] = True

    def _opponent(self, rows: np.ndarray, rewards: np.ndarray, done: np.ndarray, truncs: np.ndarray) -> None:
        """Play the random opponent in the deals of ``rows`` until the agent is to act or the
        episode is over, adding the agent's rewards (``done``, ``truncs``: set for the episodes
        it ends, by the rules or by ``max_cycles``)."""
        eng = self.eng
        other = 1 - self.seat
        rows = rows[(eng.to_act[rows] == other) & ~done[rows]]
        while len(rows):
            masks = eng.masks(rows)
            counts = masks.sum(axis=1).tolist()
            rngs = self.rngs
            k = np.array([rngs[i]._randbelow(c) for i, c in zip(rows.tolist(), counts, strict=True)])
            ended = eng.apply(rows, pick(masks, k))
            self.moves += len(rows)
            if len(ended):
                rewards[ended] += self._end_rewards(ended)
                done[ended] = True
            self._count(rows[eng.phase[rows] != OVER], done, truncs)
            rows = rows[(eng.to_act[rows] == other) & ~done[rows]]

    def step(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any] | None]:
        """Apply the agent's ``codes`` (checked for range by the caller; an illegal one is
        handled by ``illegal``: ``"penalty"`` or ``"end"``), play the opponents; returns
        ``(rewards, terminations, truncations, final)`` where ``final`` is ``None`` or
        ``{"obs": float32[k, 433], "rows": rows}`` of the episodes that ended (their last
        observations; their masks are all 0).  The ended ones are not reset here."""
        eng = self.eng
        n = self.n
        rewards = np.zeros(n)
        done = np.zeros(n, dtype=np.bool_)
        truncs = np.zeros(n, dtype=np.bool_)
        over = np.flatnonzero(eng.to_act != self.seat)
        if len(over):
            raise ValueError(f"the episode of sub-environment {int(over[0])} is over: call reset()")
        legal = self.mask[self._all, codes] == 1
        bad = np.flatnonzero(~legal)
        if len(bad):
            rewards[bad] = -self.penalty
            if self.illegal == "end":
                done[bad] = True
            else:
                self._count(bad, done, truncs)
        rows = np.flatnonzero(legal)
        ended = eng.apply(rows, codes[rows])
        self.moves += len(rows)
        if len(ended):
            rewards[ended] += self._end_rewards(ended)
            done[ended] = True
        self._count(rows[eng.phase[rows] != OVER], done, truncs)
        self._opponent(rows, rewards, done, truncs)
        truncs &= done
        fin = np.flatnonzero(done)
        final = None
        if len(fin):
            last = np.zeros((len(fin), OBS_SIZE), dtype=np.float32)
            totals = self._totals(fin)
            eng.observe(self.seat, fin, last, totals)
            final = {"obs": last, "rows": fin}
        return rewards, done & ~truncs, truncs, final

    def _totals(self, rows: np.ndarray) -> np.ndarray:
        """(the agent's, the opponent's) match totals of the episodes of ``rows``: for a deal that
        ended by the rules, those of a new :class:`~ginrummy.scoring.ScoreSheet` with its result
        added (R11, R12: a bonus when one deal ends the game, as the scalar path's match
        writes it); else 0 (an illegal code under ``"end"``, the step limit)."""
        eng = self.eng
        out = np.zeros((len(rows), 2), dtype=np.int64)
        for j, i in enumerate(rows.tolist()):
            if eng.phase[i] == OVER:
                w, p = int(eng.winner[i]), int(eng.points[i])
                key = (w, p)
                t = self._sheet_totals.get(key)
                if t is None:
                    t = self._sheet_totals[key] = ScoreSheet(self.eng.rules, 2).add(None if w < 0 else w, p).totals
                out[j] = (t[self.seat], t[1 - self.seat])
        return out
