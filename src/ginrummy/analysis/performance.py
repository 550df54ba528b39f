"""The performance score of a reviewed deal or match (issue 32): how well each player played.

From a :class:`~ginrummy.analysis.review.Review` (every decision valued against the expert's
best move, in percentage points of the chance to win), per player:

* ``loss_per_decision``: the mean loss over his decisions (the review's ``mean_loss``);
* ``score``, from 0 to 100 (called "score" everywhere, not "accuracy", which is the review's own
  share of decisions within the noise): the mean over his decisions of
  :func:`decision_score` = ``103.1669 * exp(-0.04354 * loss) - 3.1669``, clamped to 0..100.
  This is lichess's move accuracy on the same unit (percentage points of the chance to win):
  100 for the expert's move, about 96 for a loss of 1 point (an inaccuracy), 88 for 3 (a
  mistake), 74 for 6 (a blunder) and 0 from a loss of 80.  It is read at a glance (higher is
  better, 100 at best), a single blunder costs one decision's share and no more (a mean of the
  losses would let one lost deal swamp twenty good moves), and players of chess know the scale;
* the counts of ``inaccuracies``, ``mistakes`` and ``blunders`` (the review's marks);
* ``rating``: :func:`rating_estimate` of the loss per decision, "played like a player rated
  about N" on the ladder's scale (``docs/accounts.md``), with a 95% interval.

The rating fit is :data:`CALIBRATION`, made by ``benchmarks/calibration.py`` (the levels on
duplicate matches, reviewed at :data:`CALIBRATION_BUDGET_MS`, rated with the ladder's OpenSkill
code).  A review on fewer sampled deals a decision than the calibration's
(:data:`CALIBRATION_SAMPLES`; the web table scores deals on fewer when its review worker is
behind, ``docs/design-notes.md``) finds more loss (the best of a few noisy values looks better
than the move played more often), so its rating is corrected by the measured bias and its
interval widened by the measured extra noise (:data:`BUDGET_NOISE`, :func:`rating_estimate`).
A review on more sampled deals keeps the calibration's interval.  Pure: no I/O, clock or
randomness.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class _Reviewed(Protocol):
    """What :func:`performance` reads of a :class:`~ginrummy.analysis.review.Review` (this module
    does not import the review, which imports it to put the performance in its JSON)."""

    @property
    def players(self) -> tuple[str, ...]:
        """The reviewed players' names, in the review's order."""

    @property
    def deals(self) -> Sequence[Any]:
        """The reviews of the deals, each with its ``decisions``."""


__all__ = [
    "CALIBRATION",
    "CALIBRATION_BUDGET_MS",
    "CALIBRATION_SAMPLES",
    "BUDGET_NOISE",
    "Performance",
    "RatingEstimate",
    "decision_score",
    "performance",
    "rating_estimate",
]

#: The review budget (ms a decision) the calibration was made at (``benchmarks/calibration.py``).
CALIBRATION_BUDGET_MS = 100.0

#: The sampled deals a decision at :data:`CALIBRATION_BUDGET_MS` (``review.samples_for(100)``).
CALIBRATION_SAMPLES = 50

#: What fewer sampled deals a decision (``s`` < :data:`CALIBRATION_SAMPLES`) do to the rating, in
#: the ladder's points, measured by ``benchmarks/score_budget.py`` on 24 matches, 48 players
#: (benchmarks/RESULTS.md, "Score at the web table"), on the curve of :data:`CALIBRATION`: the
#: rating is lower by ``bias * (1/sqrt(s) - 1/sqrt(50))`` on average (sampling noise makes the
#: best move found look better than the one played: more loss; measured 204 points at 25 sampled
#: deals, 465 at 16), and it varies around that with an extra standard deviation of
#: ``sd * sqrt(1/s - 1/50)`` over a match of ``CALIBRATION["decisions"]`` decisions (measured 177
#: at 25, 299 at 16, beyond the noise of a review at 50).  Both constants are least-squares fits
#: through zero of those two budgets; :func:`rating_estimate` adds the bias back and widens the
#: interval by the noise.  (Measured again on 2026-12-05 for the calibration of 500 matches, whose
#: curve is about three times steeper than the first one's: 1174 and 384 before.)
BUDGET_NOISE: dict[str, float] = {"bias": 4106.0, "sd": 1386.0}

#: ``rating = a + b * ln(loss_per_decision + c)``; ``residual_sd`` is the spread of the ladder rating
#: around the fit over one match of ``decisions`` decisions (``benchmarks/calibration.json``):
#: 500 duplicate matches (25 pairs of every two of random, novice, club, expert and master, games
#: to 100, reviewed at 100 ms a decision), the levels rated by the ladder's OpenSkill code; the
#: curve through the levels' mean losses (c by least squares up to 2), which predicts every
#: level's rating inside its ladder interval and in the ladder's order (benchmarks/RESULTS.md,
#: "Performance score calibration").  ``floor``: the random level's predicted rating, the weakest
#: play calibrated (:func:`rating_estimate`).
CALIBRATION: dict[str, float] = {
    "a": 5651.59,
    "b": -4158.92,
    "c": 2.0,
    "residual_sd": 352.0,
    "decisions": 83.0,
    "low": 0.0,
    "high": 3000.0,
    "floor": 284.0,
}


def decision_score(loss: float) -> float:
    """The accuracy (0..100) of one decision that lost ``loss`` percentage points of the chance to
    win against the expert's move: ``103.1669 * exp(-0.04354 * loss) - 3.1669``, clamped to 0..100
    (exactly 100 at a loss of 0; lichess's 103.1668 rounded so that it is).  Raises ``ValueError`` for a negative or non-finite loss."""
    if isinstance(loss, bool) or not isinstance(loss, (int, float)) or not math.isfinite(loss) or loss < 0:
        raise ValueError(f"a loss is a finite number >= 0 (percentage points), not {loss!r}")
    return max(0.0, min(100.0, 103.1669 * math.exp(-0.04354 * loss) - 3.1669))


@dataclass(frozen=True)
class RatingEstimate:
    """ "Played like a player rated about ``rating``" (the ladder's display scale), with the 95%
    interval ``low``..``high`` for ``decisions`` decisions valued on ``samples`` sampled deals
    each (the fewest; from :data:`CALIBRATION_SAMPLES` on: the calibration's interval)."""

    rating: int
    low: int
    high: int
    decisions: int
    samples: int = CALIBRATION_SAMPLES

    def to_dict(self) -> dict[str, Any]:
        """``{"rating", "low", "high"}`` (ints)."""
        return {"rating": self.rating, "low": self.low, "high": self.high}


def rating_estimate(
    loss_per_decision: float, decisions: int | None = None, samples: int | None = None
) -> RatingEstimate:
    """The rating on the ladder's scale of a player who loses ``loss_per_decision`` percentage
    points of the chance to win a decision (a review's ``mean_loss``), by :data:`CALIBRATION`;
    the interval is 1.96 residual standard deviations of the fit for a match of
    ``CALIBRATION["decisions"]`` decisions, scaled by ``sqrt(that / decisions)`` for ``decisions``
    decisions (default: a match's), so a longer sample gets a narrower interval.  ``samples``:
    the fewest sampled deals a decision of the review (default and at least
    :data:`CALIBRATION_SAMPLES`: the calibration's); fewer raise the rating by the measured bias
    and add the measured extra noise to the interval (:data:`BUDGET_NOISE`), so a quicker
    review says that it is less precise.  The centre is at least ``CALIBRATION["floor"]``, the
    weakest play calibrated (the random level's predicted rating: below it the curve would
    extrapolate, and a match worse than random play said "rated about 0" before), and at most
    ``high``; the interval is taken around that centre and kept within ``low``..``high``.  Raises
    ``ValueError`` for a negative or non-finite loss, a ``decisions`` or a ``samples`` below 1."""
    decision_score(loss_per_decision)  # checks the loss
    cal = CALIBRATION
    n = int(cal["decisions"]) if decisions is None else decisions
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"decisions is an int >= 1, not {decisions!r}")
    given = CALIBRATION_SAMPLES if samples is None else samples
    if isinstance(given, bool) or not isinstance(given, int) or given < 1:
        raise ValueError(f"samples is an int >= 1, not {samples!r}")
    s = min(given, CALIBRATION_SAMPLES)
    bias = BUDGET_NOISE["bias"] * (1 / math.sqrt(s) - 1 / math.sqrt(CALIBRATION_SAMPLES))
    extra_sd = BUDGET_NOISE["sd"] * math.sqrt(1 / s - 1 / CALIBRATION_SAMPLES)
    centre = cal["a"] + cal["b"] * math.log(loss_per_decision + cal["c"]) + bias
    half = 1.96 * math.hypot(cal["residual_sd"], extra_sd) * math.sqrt(cal["decisions"] / n)

    def clamp(x: float) -> int:
        return round(max(cal["low"], min(cal["high"], x)))

    centre = max(cal["floor"], min(cal["high"], centre))
    return RatingEstimate(clamp(centre), clamp(centre - half), clamp(centre + half), n, given)


@dataclass(frozen=True)
class Performance:
    """One player's performance in a review: ``decisions``, ``loss_per_decision`` (percentage
    points of the chance to win), ``score`` (0..100, :func:`decision_score`
    averaged), the mark counts, the ``rating`` estimate (``None`` without a decision) and
    ``samples``, the fewest sampled deals any of the decisions was valued on (the precision;
    :data:`CALIBRATION_SAMPLES` without a decision)."""

    player: str
    decisions: int
    loss_per_decision: float
    score: float
    inaccuracies: int
    mistakes: int
    blunders: int
    rating: RatingEstimate | None
    samples: int = CALIBRATION_SAMPLES

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``docs/review.md`` ("performance")."""
        return {
            "decisions": self.decisions,
            "loss_per_decision": round(self.loss_per_decision, 3),
            "score": round(self.score, 1),
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "rating": None if self.rating is None else self.rating.to_dict(),
            "samples": self.samples,
        }


def performance(review: _Reviewed) -> dict[str, Performance]:
    """Each reviewed player's :class:`Performance` over every decision of ``review`` (a
    :class:`~ginrummy.analysis.review.Review` of a deal or a match), in the review's player order.  A player without a decision gets score 100, loss 0
    and no rating.  The rating's precision is that of the player's fewest sampled deals a
    decision (``Decision.samples``: a match put together from deals reviewed at different
    budgets is as precise as its least precise deal)."""
    out = {}
    for name in review.players:
        ds = [x for d in review.deals for x in d.decisions if x.player == name]
        n = len(ds)
        marks = [x.mark for x in ds]
        loss = sum(x.loss for x in ds) / n if n else 0.0
        score = sum(decision_score(x.loss) for x in ds) / n if n else 100.0
        samples = min((x.samples for x in ds), default=CALIBRATION_SAMPLES)
        out[name] = Performance(
            name,
            n,
            loss,
            score,
            marks.count("inaccuracy"),
            marks.count("mistake"),
            marks.count("blunder"),
            rating_estimate(loss, n, samples) if n else None,
            samples,
        )
    return out
