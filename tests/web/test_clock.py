"""Clocks (docs/protocol.md, "Clocks"; ginrummy.web.room.clock): seconds per move and a time bank,
kept by the server; a move not made in time is made by the novice level and counted; three in
a row forfeit the match; the clocks are rebuilt from the stored step times after a restart.
Time is injected, so every value is exact."""

from __future__ import annotations

import asyncio

import pytest

from ginrummy.rules import preset
from ginrummy.web.db.store import Store
from ginrummy.web.room.clock import FORFEIT_AFTER, Clock
from ginrummy.web.room.tables import SeatSpec, TableManager


def test_the_bank_pays_for_time_over_the_move_and_timeouts_count():
    c = Clock(move=20, bank=120)
    c.start(0, 1000.0)
    assert c.deadline() == 1140.0
    c.moved(0, 1025.0, timed_out=False)  # 5 s over the 20 s of the move
    assert c.left(0) == 115.0 and c.in_a_row.get(0) == 0
    c.start(1, 1025.0)
    c.moved(1, 1030.0, timed_out=False)
    assert c.left(1) == 120.0
    for k in range(FORFEIT_AFTER):
        c.start(0, 2000.0 + k)
        c.moved(0, 2000.0 + k + 20 + c.left(0), timed_out=True)
        assert c.timeouts[0] == k + 1
    assert c.forfeit == 0 and c.left(0) == 0.0 and c.deadline() is None
    c2 = Clock(move=10, bank=0)
    c2.start(1, 0.0)
    c2.moved(1, 11.0, timed_out=True)
    c2.start(1, 11.0)
    c2.moved(1, 12.0, timed_out=False)  # a move in time clears the run
    assert c2.in_a_row[1] == 0 and c2.timeouts[1] == 1 and c2.forfeit is None
    assert Clock.from_options({}) is None and Clock.from_options({"clock": {"move": 5, "bank": 7}}).bank == 7.0


class FakeTime:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def _two_people(manager: TableManager, move: int = 20, bank: int = 10):
    table, shown = manager.create(
        preset("standard"),
        [SeatSpec("human", "Ann"), SeatSpec("human", "Bob")],
        options={"clock": {"move": move, "bank": bank}},
        seat_all=True,
    )
    return table


def test_a_move_not_made_in_time_is_made_by_novice_and_three_forfeit(tmp_path):
    url = f"sqlite:///{tmp_path / 'gin.sqlite3'}"
    now = FakeTime(1_000_000.0)

    async def run() -> tuple[str, dict]:
        manager = TableManager(Store(url), bot_delay=0, now=now)
        t = _two_people(manager)
        await manager.client_seed(t, 0, 1, "a")
        await manager.client_seed(t, 1, 1, "b")
        assert t.clock.turn == t.match.player_to_act() and t.clock.since == now.t
        first = t.clock.turn
        now.t += 29.9  # 20 s for the move + 10 s of bank: not yet
        assert not await manager.check_clock(t)
        now.t += 0.2
        seq = t.seq
        assert await manager.check_clock(t)
        assert t.seq == seq + 1 and t.clock.timeouts == {first: 1} and t.clock.left(first) == 0.0
        # the other player moves in time; then the first times out twice more (no bank left)
        while t.forfeit is None:
            p = t.clock.turn
            if t.match.player_to_act() is None:  # the deal is over (a novice move may knock; R7 draws): the next deal
                n = t.next_deal_number
                await manager.client_seed(t, 0, n, f"a{n}")
                await manager.client_seed(t, 1, n, f"b{n}")
                await manager.next_deal(t, None)
                continue
            if p == first:
                now.t += 20.01
                assert await manager.check_clock(t)
            else:
                now.t += 3
                view = t.match.view(p)
                await manager.act(t, p, next(a.text for a in view.legal if not a.text.startswith(("knock", "gin"))))
        state = t.state_for(1 - first)
        assert state["match"] == {
            "finished": True,
            "winner": t.names[1 - first],
            "forfeit": t.names[first],
            "ended": "time",
        }
        assert state["clock"]["timeouts"] == {t.names[first]: 3} and state["clock"]["turn"] is None
        with pytest.raises(Exception, match="over"):
            await manager.act(t, 1 - first, "draw stock")
        banks = dict(t.clock.banks)
        manager.store.close()
        return t.id, {"banks": banks, "seq": t.seq, "timeouts": dict(t.clock.timeouts), "forfeit": t.forfeit}

    table_id, before = asyncio.run(run())

    async def again() -> dict:
        manager = TableManager(Store(url), bot_delay=0, now=now)
        t = manager.load(table_id)
        return {"banks": dict(t.clock.banks), "seq": t.seq, "timeouts": dict(t.clock.timeouts), "forfeit": t.forfeit}

    assert asyncio.run(again()) == before  # rebuilt from the stored step times


def test_a_turn_that_ran_out_while_the_server_was_down_times_out_at_start(tmp_path):
    url = f"sqlite:///{tmp_path / 'gin.sqlite3'}"
    now = FakeTime(2_000_000.0)

    async def first_run() -> str:
        manager = TableManager(Store(url), bot_delay=0, now=now)
        t = _two_people(manager, move=5, bank=0)
        await manager.client_seed(t, 0, 1, "a")
        await manager.client_seed(t, 1, 1, "b")
        manager.store.close()
        return t.id

    table_id = asyncio.run(first_run())
    now.t += 60  # the server was down for a minute

    async def second_run() -> tuple[int, dict]:
        manager = TableManager(Store(url), bot_delay=0, now=now)
        t = manager.load(table_id)
        assert t.clock.deadline() == 2_000_005.0
        assert await manager.check_clock(t)
        return t.seq, dict(t.clock.timeouts)

    seq, timeouts = asyncio.run(second_run())
    assert seq == 4 and list(timeouts.values()) == [1]


def test_clock_options_are_validated_by_the_schema(client):
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}]
    for bad in ({"move": 1}, {"move": 20, "bank": -1}, {"move": "20"}, {"move": 20, "extra": 1}, [20, 120]):
        r = client.post("/api/tables", json={"seats": seats, "clock": bad})
        assert r.status_code == 400, bad
    r = client.post("/api/tables", json={"seats": seats, "clock": {"move": 20, "bank": 120}})
    assert r.status_code == 201
    tobj = client.app.state.manager.tables[r.json()["id"]]
    assert tobj.state_for(0)["clock"]["move"] == 20.0 and tobj.state_for(0)["clock"]["bank"] == 120.0
