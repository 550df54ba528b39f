"""The daily duplicate deals (ginrummy.compete.daily, docs/compete.md): seeds and commitments,
records that `gin verify` checks, matchpoints, the daily and monthly tables, "how others played
it" and the friend challenge, with exact values."""

import hashlib
import hmac
import random
from datetime import UTC, date, datetime
from fractions import Fraction

import pytest

from ginrummy.compete import CompeteError
from ginrummy.compete import daily as d
from ginrummy.match import commitment
from ginrummy.players import make_player
from ginrummy.record import dumps, verify

DAY = date(2025, 3, 14)


def _play(m, levels, seed=0):
    m.play_out([make_player(lv, random.Random(seed + i)) for i, lv in enumerate(levels)])
    return m


def test_daily_seed_is_hmac_of_the_day_and_pinned():
    s = d.daily_seed(b"k", DAY)
    assert s == hmac.new(b"k", b"ginrummy/daily/2025-03-14", hashlib.sha256).digest()
    assert s.hex() == "840c4589609e1c2b8adbef15988481b9d7b9551bc3e16b16a39c17482e945f3f"
    assert d.deal_seed_of_day(s, 1) == hashlib.sha256(s + b"/daily/1").digest()
    assert d.deal_seed_of_day(s, 1).hex() == "7f8dfd0b7aae92a9d8cd99c44d1eb2df8a92b5fbe30a7c77dfce0b2a0b1d1c60"
    assert d.daily_seed(b"k", date(2025, 3, 15)) != s


def test_daily_set_publishes_commitments_only():
    ds = d.daily_set(b"k", DAY)
    s = d.daily_seed(b"k", DAY)
    assert ds.commitment == hashlib.sha256(s).hexdigest()
    assert len(ds.deal_commitments) == d.DAILY_DEALS == 8
    assert ds.deal_commitments[0] == commitment(d.deal_seed_of_day(s, 1))
    j = ds.to_json()
    assert j["day"] == "2025-03-14" and j["rules"] == "single" and j["levels"] == ["novice", "club", "expert"]
    assert s.hex() not in str(j)


def test_reveal_after_the_day_only():
    assert d.reveal_at(DAY) == datetime(2025, 3, 15, tzinfo=UTC)
    assert not d.may_reveal(DAY, datetime(2025, 3, 14, 23, 59, 59, tzinfo=UTC))
    assert d.may_reveal(DAY, datetime(2025, 3, 15, tzinfo=UTC))
    with pytest.raises(ValueError):
        d.may_reveal(DAY, datetime(2025, 3, 15))


def test_everyone_gets_the_same_cards_and_gin_verify_checks_the_record():
    s = d.daily_seed(b"k", DAY)
    a = d.daily_match(s, 3, "ann", "club")
    b = d.daily_match(s, 3, "bob", "club")
    assert a.deal.hand(0) == b.deal.hand(0) and a.deal.hand(1) == b.deal.hand(1)
    assert a.deal.dealer == b.deal.dealer
    _play(a, ["novice", "club"])
    text = dumps(a, date="2025-03-14")
    assert verify(text).ok and verify(text).complete
    assert d.check_record(text, s, 3) == []
    assert d.check_record(text, s, 2) == [
        "seed-commitment is not that of daily deal 2",
        "the match seed is not that of daily deal 2",
    ]
    assert d.result_of(text) == d.result_of(a)


def test_result_of_a_played_deal_is_exact():
    s = d.daily_seed(b"k", DAY)
    m = _play(d.daily_match(s, 1, "ann", "club"), ["novice", "club"])
    assert d.result_of(m) == -16  # pinned: player 1 (club) won the deal by 16


def test_bad_deal_number_and_level_are_refused():
    s = d.daily_seed(b"k", DAY)
    with pytest.raises(CompeteError, match="no deal 9: the deals are numbered 1 to 8"):
        d.daily_match(s, 9, "ann", "club")
    with pytest.raises(CompeteError, match="no daily level 'master'; levels: novice, club, expert"):
        d.daily_match(s, 1, "ann", "master")
    with pytest.raises(CompeteError, match="not over"):
        d.result_of(d.daily_match(s, 1, "ann", "club"))


def _e(player, number, score, day=DAY, level="club", finished=""):
    return d.Entry(player, day, number, level, score, record=f"{player}-{number}", finished=finished)


def test_matchpoints_exact():
    es = [_e("ann", 1, 20), _e("bob", 1, 20), _e("cy", 1, -5), _e("di", 1, 31)]
    mp = d.matchpoints(es)
    # out of 2 * 3 = 6: ann beats cy (2) ties bob (1) = 3 -> 50%; di 6 -> 100%; cy 0
    assert mp[("ann", DAY, 1, "club")] == Fraction(50)
    assert mp[("bob", DAY, 1, "club")] == Fraction(50)
    assert mp[("cy", DAY, 1, "club")] == Fraction(0)
    assert mp[("di", DAY, 1, "club")] == Fraction(100)
    assert d.matchpoints([_e("ann", 2, 7)]) == {("ann", DAY, 2, "club"): Fraction(50)}
    with pytest.raises(CompeteError, match="ann has already played daily deal 1"):
        d.matchpoints([_e("ann", 1, 3), _e("ann", 1, 4)])


def test_levels_are_separate_fields():
    mp = d.matchpoints([_e("ann", 1, 10), _e("bob", 1, -10, level="expert")])
    assert mp == {("ann", DAY, 1, "club"): 50, ("bob", DAY, 1, "expert"): 50}


def test_daily_table_ranks_with_ties_and_counts_missing_deals_as_zero():
    es = [_e("ann", 1, 20), _e("bob", 1, 20), _e("cy", 1, -5), _e("ann", 2, 0), _e("bob", 2, 10), _e("cy", 2, 10)]
    rows = d.daily_table(es, DAY, "club")
    # deal 1: ann 75, bob 75, cy 0; deal 2: ann 0, bob 75, cy 75; over 8 deals
    assert [(r.rank, r.player, r.score, r.deals) for r in rows] == [
        (1, "bob", Fraction(150, 8), 2),
        (2, "ann", Fraction(75, 8), 2),
        (2, "cy", Fraction(75, 8), 2),
    ]
    assert rows[0].to_json() == {"rank": 1, "player": "bob", "score": 18.75, "deals": 2}


def test_monthly_table_sums_daily_scores():
    other = date(2025, 3, 15)
    es = [
        _e("ann", 1, 5),
        _e("bob", 1, 0),
        _e("ann", 1, 0, day=other),
        _e("bob", 1, 9, day=other),
        _e("cy", 1, 50, day=other),
        _e("zed", 1, 99, day=date(2025, 4, 1)),
    ]
    rows = d.monthly_table(es, 2025, 3, "club")
    # day 1: ann 100/8, bob 0; day 2: cy 100/8, bob 50/8, ann 0
    assert [(r.rank, r.player, r.score, r.deals) for r in rows] == [
        (1, "ann", Fraction(100, 8), 2),
        (1, "cy", Fraction(100, 8), 1),
        (3, "bob", Fraction(50, 8), 2),
    ]


def test_how_others_played_best_and_median():
    es = [
        _e("ann", 1, 20, finished="2"),
        _e("bob", 1, 31, finished="5"),
        _e("cy", 1, -5),
        _e("di", 1, 31, finished="1"),
        _e("ed", 1, 3),
    ]
    best, median = d.how_others_played(es, DAY, 1, "club")
    assert (best.player, median.player) == ("di", "ann")  # 31 (earlier), 31, [20], 3, -5
    assert d.how_others_played(es, DAY, 2, "club") is None


def test_friend_challenge_swaps_seats_on_the_same_cards():
    seed = d.challenge_seed(b"k", "c1")
    assert seed == hmac.new(b"k", b"ginrummy/challenge/c1", hashlib.sha256).digest()
    assert d.challenge_games(2) == [(1, False), (1, True), (2, False), (2, True)]
    m1 = d.challenge_match(seed, 1, False, "ann", "club")
    m2 = d.challenge_match(seed, 1, True, "bob", "club")
    assert m1.names == ("ann", "club") and m2.names == ("club", "bob")
    assert d.challenge_seat(False) == 0 and d.challenge_seat(True) == 1
    # bob holds in m2 the cards the computer held against ann in m1, and the computer holds
    # ann's: same hands by player index, same dealer, same stock
    assert m1.deal.hand(1) == m2.deal.hand(1) and m1.deal.hand(0) == m2.deal.hand(0)
    assert m1.deal.dealer == m2.deal.dealer and m1.deal.stock == m2.deal.stock
    assert d.challenge_result(12, False) == 12 and d.challenge_result(12, True) == -12
    # ann +25 on deal 1, bob (player 1 of the swapped game) -10 there: ann 35 ahead
    sc = d.challenge_score("ann", "bob", 2, {(1, False): 25, (1, True): 10, (2, False): -4})
    assert sc.a_results == (25, -4) and sc.b_results == (-10, None)
    assert sc.per_deal == (35, None) and sc.total == 35 and sc.winner is None and not sc.complete
    closed = d.challenge_score("ann", "bob", 2, {(1, False): 25, (1, True): 10, (2, False): -4}, closed=True)
    assert closed.winner == "ann" and closed.total == 35 and not closed.complete
    sc = d.challenge_score("ann", "bob", 2, {(1, False): 25, (1, True): 10, (2, False): -4, (2, True): -50})
    assert sc.per_deal == (35, -54) and sc.total == -19 and sc.winner == "bob" and sc.complete
    sc = d.challenge_score("ann", "bob", 1, {(1, False): 5, (1, True): -5})
    assert sc.per_deal == (0,) and sc.complete and sc.winner is None
    with pytest.raises(CompeteError, match="a challenge has 1 to 8 deals, not 9"):
        d.challenge_games(9)
