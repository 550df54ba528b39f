"""Duplicate deals (ginrummy.analysis.duplicate and ``benchmarks/strength.py --duplicate``): the two games
of a pair use the same match seed with the levels' seats swapped, so each level gets the cards
and the first role (R3.1, R11.2) the other had; the pair statistics are exact on known games."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from ginrummy.analysis.duplicate import duplicate_order, mean_interval, pair_of, summarise_pairs
from ginrummy.analysis.simulate import match_seed, seat_levels
from ginrummy.match import Match
from ginrummy.rules import preset

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import strength  # noqa: E402


def test_pair_numbering():
    assert [pair_of(i) for i in range(5)] == [(0, False), (0, True), (1, False), (1, True), (2, False)]
    for bad in (-1, 1.0, "2"):
        with pytest.raises(ValueError):
            pair_of(bad)


def test_swapped_game_gives_each_level_the_others_seat():
    rules = preset("eaai")
    levels = ("club", "novice")
    for pair in range(6):
        seed = match_seed(7, pair)
        first = duplicate_order(rules, levels, pair, seed, False)
        second = duplicate_order(rules, levels, pair, seed, True)
        assert first == seat_levels(rules, levels, pair, seed)
        assert second == (first[1], first[0])
        # the same match seed deals the same cards to each player index and the same first dealer (R3.1)
        m1 = Match.new(rules, ["a", "b"], seed)
        m2 = Match.new(rules, ["b", "a"], seed)
        assert m1.deal.dealer == m2.deal.dealer
        assert [m1.deal.hands[s] for s in (0, 1)] == [m2.deal.hands[s] for s in (0, 1)]
    with pytest.raises(ValueError):
        duplicate_order(rules, ("club", "novice", "random"), 0, match_seed(7, 0), False)


def test_strength_duplicate_games_swap_seats_on_the_same_seed():
    task = strength.PairTask(("novice", "random"), None, duplicate=True)
    lines = [task.play(i, 5) for i in range(4)]
    assert [(r["game"], r["swapped"]) for r in lines] == [(0, False), (0, True), (1, False), (1, True)]
    assert all(r["seed"] == 5 for r in lines)
    # both games of a pair on the same seed (the seating is checked above)
    for a, b in ((lines[0], lines[1]), (lines[2], lines[3])):
        assert a["pair"] == b["pair"] == ["novice", "random"]
        assert a["won"] == [1, 0] and b["won"] == [1, 0]  # novice beats random from either seat
    # a plain (non-duplicate) task plays game i on seed i, as before
    plain = strength.PairTask(("novice", "random"), None).play(1, 5)
    assert "swapped" not in plain and plain["game"] == 1


def test_pair_statistics_are_exact():
    games = [(0, False, 1, 30), (0, True, 0, -10), (1, False, 1, 50), (1, True, 1, 20),
             (2, False, 0, -40), (2, True, 0.5, 0), (3, False, 1, 10)]  # pair 3 is incomplete
    st = summarise_pairs(games)
    assert st.pairs == 3 and st.games_won == 3.5  # a game without a winner counts a half
    wins = [0.5, 1.0, 0.25]
    mu, lo, hi = mean_interval(wins)
    assert (st.win_rate, st.win_low, st.win_high) == (mu, max(0.0, lo), min(1.0, hi))
    assert math.isclose(st.win_rate, 1.75 / 3)
    assert st.points_diff == pytest.approx((20 + 70 - 40) / 3)
    # the ratio: var(pair means) / (var(single games) / 2)
    singles = [1, 0, 1, 1, 0, 0.5]
    m = sum(singles) / 6
    v1 = sum((x - m) ** 2 for x in singles) / 5
    mw = sum(wins) / 3
    vp = sum((x - mw) ** 2 for x in wins) / 2
    assert st.win_variance_ratio == pytest.approx(vp / (v1 / 2))
    with pytest.raises(ValueError):
        summarise_pairs([(0, False, 1, 3)])
    with pytest.raises(ValueError):
        summarise_pairs([(0, False, 1, 3), (0, False, 0, 1)])
    with pytest.raises(ValueError):
        mean_interval([])
    assert mean_interval([2.0]) == (2.0, 2.0, 2.0)
