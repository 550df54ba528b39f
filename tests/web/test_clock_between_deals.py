"""The clock between deals and at its boundary (issue 33, item 3, the second pass;
docs/protocol.md, "Turn-based tables" and "Clocks"):

* between the deals of a two-hand match the next deal waits for each person's client seed and a
  ``next_deal``; the clock of the person who owes the next of those runs (days at a turn-based
  table, the move's seconds and the bank at a live one) and when it runs out he forfeits the
  match at once (a ``time`` step), so nobody can stall there;
* one rule of lateness (``compete.correspondence.late``): a move at the deadline itself is in
  time, the room forfeits only after it;
* the states' ``clock.left`` reads the manager's injected clock.

Time is injected, so every value is exact."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from ginrummy.compete.correspondence import late, timed_out
from ginrummy.errors import NotYourTurnError
from ginrummy.rules import preset
from ginrummy.web.contests.turns import turn_entry
from ginrummy.web.db.store import Store, actions_t
from ginrummy.web.errors import WebError
from ginrummy.web.room.clock import DAY, Clock
from ginrummy.web.room.tables import SeatSpec, TableManager

from .conftest import STORES, database_url
from .test_turn_based import T0, FakeTime


@pytest.fixture(params=STORES)
def store_url(request, tmp_path):
    """A fresh store of each kind (PostgreSQL skipped unless GIN_TEST_DATABASE_URL is set)."""
    yield from database_url(request.param, tmp_path)


def _table(manager: TableManager, clock: dict[str, int]):
    table, _ = manager.create(
        preset("standard"),
        [SeatSpec("human", "Ann"), SeatSpec("human", "Bob")],
        seed=bytes(range(32)),
        options={"clock": clock},
        seat_all=True,
    )
    return table


async def _dealt(manager: TableManager, clock: dict[str, int]):
    t = _table(manager, clock)
    await manager.client_seed(t, 0, 1, "a")
    await manager.client_seed(t, 1, 1, "b")
    return manager.tables[t.id]


async def _play_out_the_deal(manager: TableManager, t: Any, now: FakeTime) -> int:
    """Each person makes a move a second apart (a knock or gin when he can) until the deal is
    over; returns the player who made its last move."""
    last = -1
    while t.match.player_to_act() is not None:
        p = t.match.player_to_act()
        legal = [a.text for a in t.match.view(p).legal]
        ends = [a for a in legal if a.startswith(("gin", "big_gin", "knock"))]
        now.t += 1
        await manager.act(t, p, (ends or legal)[0])
        t, last = manager.tables[t.id], p
    assert t.match.deal.is_over and not t.match.finished
    return last


def _kinds(manager: TableManager, table_id: str) -> list[str]:
    with manager.store.engine.connect() as conn:
        return [
            r.kind
            for r in conn.execute(
                select(actions_t.c.kind).where(actions_t.c.table_id == table_id).order_by(actions_t.c.seq)
            )
        ]


# -- one rule of lateness ---------------------------------------------------------------------


def test_a_move_at_the_deadline_itself_is_in_time_by_one_rule_everywhere(tmp_path):
    began = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    due = began + timedelta(days=2)
    assert (late(due, due), late(due, due + timedelta(microseconds=1))) == (False, True)
    assert (late(100.0, 100.0), late(100.0, 100.001)) == (False, True)
    assert timed_out(began, 2, due) is False and timed_out(began, 2, due + timedelta(seconds=1)) is True
    now = FakeTime(T0)

    async def run() -> list[tuple[float, bool]]:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'gin.sqlite3'}"), bot_delay=0, now=now)
        out = []
        for clock, move in (({"days": 1}, DAY), ({"move": 20, "bank": 0}, 20.0)):
            t = await _dealt(manager, clock)
            assert t.clock.deadline() == T0 + move
            for after in (0.0, 0.001):  # the deadline itself, then just after it
                now.t = T0 + move + after
                out.append((after, await manager.check_clock(t)))
            now.t = T0
        await manager.stop()
        return out

    assert asyncio.run(run()) == [(0.0, False), (0.001, True), (0.0, False), (0.001, True)]


# -- the state's clock reads the manager's clock ----------------------------------------------


def test_the_states_clock_left_reads_the_managers_clock(tmp_path):
    url = f"sqlite:///{tmp_path / 'gin.sqlite3'}"
    now = FakeTime(T0)

    async def run() -> tuple[Any, ...]:
        manager = TableManager(Store(url), bot_delay=0, now=now)
        t = await _dealt(manager, {"days": 2})
        mover = t.match.player_to_act()
        now.t = T0 + 10.0
        made = t.state_for(mover)["clock"]
        await manager.stop()
        # a table the manager loads from the store reads its clock too
        again = TableManager(Store(url), bot_delay=0, now=now)
        now.t = T0 + DAY
        loaded = again.load(t.id).state_for(1 - mover)["clock"]
        await again.stop()
        return made["left"], made["deadline"], loaded["left"], loaded["turn"] == t.names[mover]

    assert asyncio.run(run()) == (2 * DAY - 10.0, T0 + 2 * DAY, DAY, True)


# -- between deals ------------------------------------------------------------------------------


def test_clock_between_deals_runs_for_whom_the_next_deal_waits():
    c = Clock.from_options({"clock": {"days": 1}})
    assert c is not None
    c.start(0, 100.0)
    c.between_deals([0, 1], [0, 1], 0, 100.0)  # 0 ended the deal: 1's seed is asked first
    assert (c.turn, c.since) == (1, 100.0)
    c.between_deals([1], [0, 1], 0, 150.0)  # 0's seed: 1's days run on, not restarted
    assert (c.turn, c.since) == (1, 100.0)
    c.between_deals([], [0, 1], 1, 200.0)  # 1's seed, the last: he owes the next_deal
    assert (c.turn, c.since) == (1, 200.0)
    c.start(None, 300.0)
    c.between_deals([0], [0], 1, 300.0)  # a computer (1) ended the deal: the person's seed
    assert (c.turn, c.since) == (0, 300.0)
    live = Clock(move=20, bank=30)
    live.start(1, 0.0)
    live.charge(1, 25.0)  # a client seed 5 s over the move
    live.charge(0, 25.0)  # not his clock: nothing
    assert (live.left(1), live.left(0)) == (25.0, 30.0)


def test_a_turn_based_table_between_deals_forfeits_the_person_who_stalls(store_url):
    now = FakeTime(T0)

    async def run() -> tuple[Any, ...]:
        manager = TableManager(Store(store_url), bot_delay=0, now=now)
        t = await _dealt(manager, {"days": 1})
        last = await _play_out_the_deal(manager, t, now)
        other = 1 - last
        t = manager.tables[t.id]
        ended_at = now.t
        # both seeds are missing: the days of the one who did not end the deal run
        assert (t.clock.turn, t.clock.deadline()) == (other, ended_at + DAY)
        assert turn_entry(t, other, now.t)["why"] == "seed"
        assert turn_entry(t, other, now.t)["left"] == 86400
        now.t += 60
        await manager.client_seed(t, last, 2, "last2")  # his page sends it at once
        t = manager.tables[t.id]
        assert (t.clock.turn, t.clock.since) == (other, ended_at)  # not restarted
        assert turn_entry(t, last, now.t) is None and turn_entry(t, other, now.t)["left"] == 86400 - 60
        # rebuilt exactly from the stored steps after a restart
        again = TableManager(Store(store_url), bot_delay=0, now=now)
        loaded = again.load(t.id)
        assert (loaded.clock.turn, loaded.clock.since) == (other, ended_at)
        await again.stop()
        now.t = ended_at + DAY  # at the deadline itself: still in time
        assert not await manager.check_clock(t)
        now.t = ended_at + DAY + 1
        assert await manager.check_clock(t)
        t = manager.tables[t.id]
        state = t.state_for(last)
        kinds = _kinds(manager, t.id)
        await manager.stop()
        return other, t.ended, state["match"], state["clock"]["turn"], kinds[-3:]

    other, ended, match, turn, kinds = asyncio.run(run())
    names = ["Ann", "Bob"]
    assert ended == (other, "time") and turn is None
    assert match == {"finished": True, "winner": names[1 - other], "forfeit": names[other], "ended": "time"}
    assert kinds == ["action", "client_seed", "time"]


def test_once_every_seed_is_in_the_last_sender_owes_the_next_deal(tmp_path):
    now = FakeTime(T0)

    async def run() -> tuple[Any, ...]:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'gin.sqlite3'}"), bot_delay=0, now=now)
        t = await _dealt(manager, {"days": 2})
        last = await _play_out_the_deal(manager, t, now)
        other = 1 - last
        await manager.client_seed(t, last, 2, "last2")
        now.t += 3600
        await manager.client_seed(t, other, 2, "other2")
        t = manager.tables[t.id]
        owes = (t.clock.turn, t.clock.deadline(), now.t + 2 * DAY)
        entries = [(e["why"], e["left"]) for e in (turn_entry(t, p, now.t) for p in (other, last))]
        now.t += 60
        await manager.next_deal(t, last)  # the other may start it as well
        t = manager.tables[t.id]
        dealt = (t.clock.turn, t.clock.since) == (t.match.player_to_act(), now.t)
        await manager.stop()
        return other, owes, entries, dealt

    other, owes, entries, dealt = asyncio.run(run())
    assert owes == (other, owes[2], owes[2])
    assert entries == [("next_deal", 2 * 86400), ("next_deal", None)]
    assert dealt


def test_a_live_clock_runs_between_deals_and_running_out_there_forfeits(tmp_path):
    now = FakeTime(T0)

    async def run() -> tuple[Any, ...]:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'gin.sqlite3'}"), bot_delay=0, now=now)
        t = await _dealt(manager, {"move": 20, "bank": 30})
        last = await _play_out_the_deal(manager, t, now)
        other = 1 - last
        t = manager.tables[t.id]
        ended_at = now.t
        assert (t.clock.turn, t.clock.deadline()) == (other, ended_at + 50.0)
        await manager.client_seed(t, last, 2, "last2")
        now.t = ended_at + 50.0
        assert not await manager.check_clock(t)
        now.t = ended_at + 50.001
        assert await manager.check_clock(t)
        t = manager.tables[t.id]
        out = (t.ended, t.how_ended, _kinds(manager, t.id)[-1], dict(t.clock.timeouts))
        await manager.stop()
        return other, out

    other, (ended, how, kind, timeouts) = asyncio.run(run())
    assert (ended, how, kind, timeouts) == ((other, "time"), "time", "time", {})


def test_a_live_seed_sent_late_is_charged_to_the_bank(tmp_path):
    now = FakeTime(T0)

    async def run() -> tuple[float, float, int | None]:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'gin.sqlite3'}"), bot_delay=0, now=now)
        t = await _dealt(manager, {"move": 20, "bank": 30})
        last = await _play_out_the_deal(manager, t, now)
        other = 1 - last
        t = manager.tables[t.id]
        bank = t.clock.left(other)
        now.t += 25.0  # 5 s over his move
        await manager.client_seed(t, other, 2, "other2")
        t = manager.tables[t.id]
        out = (bank, t.clock.left(other), t.clock.turn == last)
        await manager.stop()
        return out

    bank, after, passed = asyncio.run(run())
    assert (bank, after, passed) == (30.0, 25.0, True)


# -- a step after the deadline, before the timer did its work ---------------------------------


def test_a_step_after_its_deadline_is_judged_after_the_clocks_step(tmp_path):
    now = FakeTime(T0)

    async def run() -> tuple[Any, ...]:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'gin.sqlite3'}"), bot_delay=0, now=now)
        t = await _dealt(manager, {"days": 1})
        mover = t.match.player_to_act()
        now.t = T0 + DAY  # at the deadline itself: taken
        seq = await manager.act(t, mover, t.match.view(mover).legal[0].text)
        t = manager.tables[t.id]
        second = t.match.player_to_act()
        now.t = T0 + 2 * DAY + 0.001  # just past the second deadline, no timer has fired
        with pytest.raises(NotYourTurnError, match="the match is over"):
            await manager.act(t, second, t.match.view(second).legal[0].text)
        t = manager.tables[t.id]
        out = (seq, t.ended == (second, "time"), _kinds(manager, t.id)[3:])
        await manager.stop()
        return out

    assert asyncio.run(run()) == (4, True, ["action", "time"])


def test_a_seed_after_its_deadline_or_after_the_match_is_not_taken(tmp_path):
    now = FakeTime(T0)

    async def run() -> tuple[Any, ...]:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'gin.sqlite3'}"), bot_delay=0, now=now)
        # a live table: the seed comes after the seconds and the bank of its sender
        t = await _dealt(manager, {"move": 20, "bank": 30})
        last = await _play_out_the_deal(manager, t, now)
        other, ended_at = 1 - last, now.t
        now.t = ended_at + 50.001
        with pytest.raises(WebError) as late_seed:
            await manager.client_seed(t, other, 2, "other2")
        t = manager.tables[t.id]
        live = (late_seed.value.code, t.ended == (other, "time"), _kinds(manager, t.id)[-2:])
        # a resigned match: the next deal waits for nobody, a seed is refused, nothing stored
        u = await _dealt(manager, {"move": 20, "bank": 30})
        last = await _play_out_the_deal(manager, u, now)
        await manager.resign(u, last)
        u = manager.tables[u.id]
        with pytest.raises(WebError) as after:
            await manager.client_seed(u, 1 - last, 2, "x")
        resigned = (u.waiting_for, u.state_for(last)["fair"]["pending"], after.value.code, _kinds(manager, u.id)[-1])
        await manager.stop()
        return live, resigned

    live, resigned = asyncio.run(run())
    assert live == ("not_allowed", True, ["action", "time"])
    assert resigned == ([], None, "not_allowed", "resign")
