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
    assert BUDGET_NOISE == {"bias": 4106.0, "sd": 1386.0}


@pytest.mark.parametrize(
    "samples,want",
    [
        (None, RatingEstimate(1083, 401, 1764, 85, 50)),
        (50, RatingEstimate(1083, 401, 1764, 85, 50)),
        (200, RatingEstimate(1083, 401, 1764, 85, 200)),  # more sampled deals: the fit's interval, no narrower
        (25, RatingEstimate(1323, 543, 2103, 85, 25)),  # +240 (the bias), half-width 780 instead of 681
        (16, RatingEstimate(1528, 650, 2406, 85, 16)),  # +446, half-width 878
    ],
)
def test_fewer_sampled_deals_correct_the_rating_and_widen_its_interval(samples, want):
    assert rating_estimate(1.0, 85, samples) == want


def test_the_widening_scales_with_the_decisions_too():
    assert rating_estimate(1.0, 20, 16).to_dict() == {"rating": 1528, "low": 0, "high": 3000}
    assert rating_estimate(1.0, 20).to_dict() == {"rating": 1083, "low": 0, "high": 2488}


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
    assert perf["Ann"].to_dict()["rating"] == {"rating": 1528, "low": 0, "high": 3000}
    whole = performance(Review(("Ann", "Bob"), "win_chance", deals[:1], {}, 50, 100.0, 0))
    assert whole["Bob"].samples == 50 and whole["Bob"].rating == rating_estimate(0.5, 1, 50)


def test_a_match_played_worse_than_the_random_level_shows_the_random_levels_rating():
    """Below the weakest play calibrated the curve would extrapolate (it said "rated about 0 (0
    to 580)"): the centre stops at ``CALIBRATION["floor"]``, the random level's predicted rating,
    and the interval is taken around it."""
    from ginrummy.analysis.performance import CALIBRATION

    assert CALIBRATION["floor"] == 284.0
    assert rating_estimate(1.635).rating == 284  # the random level's own mean loss
    assert rating_estimate(3.0).to_dict() == {"rating": 284, "low": 0, "high": 974}
    assert rating_estimate(50.0) == rating_estimate(3.0)
    assert rating_estimate(1.0).rating == 1083 > 284
