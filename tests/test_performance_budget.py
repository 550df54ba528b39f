"""The performance score of a review on fewer sampled deals than the calibration's (issue 32: the
web table scores deals at a smaller budget when its review worker is behind): the rating is
corrected by the measured bias and its interval widened by the measured extra noise
(``ginrummy.analysis.performance.BUDGET_NOISE``, ``benchmarks/score_budget.py``), and the
score says on how many sampled deals it was made (``samples``)."""

from __future__ import annotations

import pytest

from ginrummy.analysis.performance import (
    BUDGET_NOISE,
    CALIBRATION_BUDGET_MS,
    CALIBRATION_SAMPLES,
    RatingEstimate,
    performance,
    rating_estimate,
)
from ginrummy.analysis.review import DealReview, Decision, Hindsight, Review, samples_for
from ginrummy.errors import N_


def test_the_calibration_samples_are_those_of_its_budget():
    assert samples_for(CALIBRATION_BUDGET_MS) == CALIBRATION_SAMPLES == 50
    assert BUDGET_NOISE == {"bias": 1174.0, "sd": 384.0}


@pytest.mark.parametrize(
    "samples,want",
    [
        (None, RatingEstimate(1014, 751, 1276, 85, 50)),
        (50, RatingEstimate(1014, 751, 1276, 85, 50)),
        (200, RatingEstimate(1014, 751, 1276, 85, 200)),  # more sampled deals: the fit's interval, no narrower
        (25, RatingEstimate(1083, 799, 1366, 85, 25)),  # +69 (the bias), half-width 284 instead of 262
        (16, RatingEstimate(1141, 836, 1446, 85, 16)),  # +127, half-width 305
    ],
)
def test_fewer_sampled_deals_correct_the_rating_and_widen_its_interval(samples, want):
    assert rating_estimate(1.0, 85, samples) == want


def test_the_widening_scales_with_the_decisions_too():
    assert rating_estimate(1.0, 20, 16).to_dict() == {"rating": 1141, "low": 512, "high": 1770}
    assert rating_estimate(1.0, 20).to_dict() == {"rating": 1014, "low": 472, "high": 1555}


@pytest.mark.parametrize("samples", [0, -3, 1.5, True, "16"])
def test_a_bad_samples_is_refused(samples):
    with pytest.raises(ValueError, match="samples is an int >= 1"):
        rating_estimate(1.0, 85, samples)


def _decision(player: str, loss: float, samples: int) -> Decision:
    return Decision(
        1, player, 0, "discard", "discard 7H", "discard 7H", 50.0 - loss, 50.0, loss, 1.0, None, N_("x"), samples
    )


def test_a_match_is_as_precise_as_its_least_precise_deal():
    deals = (
        DealReview(1, (_decision("Ann", 1.0, 50), _decision("Bob", 0.5, 50)), Hindsight({}, 0, None, False)),
        DealReview(2, (_decision("Ann", 1.0, 16), _decision("Bob", 0.5, 16)), Hindsight({}, 0, None, False)),
    )
    perf = performance(Review(("Ann", "Bob"), "win_chance", deals, {}, 50, 100.0, 0))
    assert perf["Ann"].samples == 16 and perf["Ann"].rating == rating_estimate(1.0, 2, 16)
    assert perf["Ann"].to_dict()["samples"] == 16
    assert perf["Ann"].to_dict()["rating"] == {"rating": 1141, "low": 0, "high": 3000}
    whole = performance(Review(("Ann", "Bob"), "win_chance", deals[:1], {}, 50, 100.0, 0))
    assert whole["Bob"].samples == 50 and whole["Bob"].rating == rating_estimate(0.5, 1, 50)
