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
from ginrummy.rules import preset
from ginrummy.web.db.store import Store, actions_t
from ginrummy.web.room.clock import DAY
from ginrummy.web.room.tables import SeatSpec, TableManager

from .conftest import STORES, database_url

T0 = 1_750_000_000.0


@pytest.fixture(params=STORES)
def store_url(request, tmp_path):
    """A fresh store of each kind (PostgreSQL skipped unless GIN_TEST_DATABASE_URL is set)."""
    yield from database_url(request.param, tmp_path)


class FakeTime:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


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
