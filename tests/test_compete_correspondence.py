"""Turn-based play over days (ginrummy.compete.correspondence): deadlines, forfeit on time,
reminders and the "your turn" list, with a faked clock (times passed in)."""

from datetime import UTC, datetime, timedelta

import pytest

from ginrummy.compete import CompeteError
from ginrummy.compete.correspondence import Turn, check_days, deadline, reminders_due, timed_out, your_turn

T0 = datetime(2025, 3, 14, 9, 30, tzinfo=UTC)


def test_deadline_is_days_after_the_turn_began():
    assert deadline(T0, 2) == datetime(2025, 3, 16, 9, 30, tzinfo=UTC)
    with pytest.raises(CompeteError, match="a turn-based table gives 1, 2, 3 days a move, not 4"):
        check_days(4)
    with pytest.raises(ValueError, match="aware"):
        deadline(datetime(2025, 3, 14), 1)


def test_timeout_only_after_the_deadline_over_any_number_of_restarts():
    end = deadline(T0, 1)
    assert not timed_out(T0, 1, end)
    assert timed_out(T0, 1, end + timedelta(seconds=1))
    assert timed_out(T0, 1, T0 + timedelta(days=400))  # a server down for long: forfeited when back


def test_reminders_24h_and_2h_before_each_once():
    assert reminders_due(T0, 3, T0 + timedelta(days=1)) == []
    at = T0 + timedelta(days=2, hours=1)
    assert reminders_due(T0, 3, at) == [T0 + timedelta(days=2)]
    assert reminders_due(T0, 3, at, sent=[T0 + timedelta(days=2)]) == []
    late = T0 + timedelta(days=3) - timedelta(minutes=5)
    assert reminders_due(T0, 3, late) == [T0 + timedelta(days=2), T0 + timedelta(days=3, hours=-2)]
    assert reminders_due(T0, 1, T0 + timedelta(days=2)) == []  # past the deadline: forfeited, no reminder
    # a one-day move began at T0: the 24 h reminder would fall at T0 itself, so only the 2 h one
    assert reminders_due(T0, 1, T0 + timedelta(hours=23)) == [T0 + timedelta(hours=22)]


def test_your_turn_list_nearest_deadline_first():
    turns = [Turn("t1", "ann", T0, 3, "bob"), Turn("t2", "ann", T0 + timedelta(hours=1), 1, "cy"),
             Turn("t3", "bob", T0, 1, "ann"), Turn("t4", "ann", T0 - timedelta(days=2), 1, "di")]
    now = T0 + timedelta(hours=2)
    mine = your_turn(turns, "ann", now)
    assert [t.table for t in mine] == ["t2", "t1"]  # t4 is timed out
    assert mine[0].to_json(now) == {"table": "t2", "opponent": "cy", "deadline": "2025-03-15T10:30:00+00:00",
                                    "seconds_left": 23 * 3600}
