"""The tournaments' every-second step (``Tournaments.tick``, web/contests/tournaments.py): it
reaches every tournament with a step due however many are open, reads none that starts later,
and takes the store reads off the event loop (benchmarks/tournament_tick.py measures its cost)."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

from sqlalchemy import event, text

from ginrummy.compete.tournament import Tournament
from ginrummy.web.contests import tournaments as tournaments_mod

from .test_tournaments import T0, Clock, _app, _people, _settings


def _moderator(store, account) -> None:  # noqa: ANN001 - a moderator may open any number
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE gin_accounts SET role = 'moderator' WHERE id = :i"), {"i": account.id})


def test_a_tick_starts_a_due_tournament_among_more_than_two_hundred_open(tmp_path):
    clock = Clock()
    store, _manager, players, ts = _app(f"sqlite:///{tmp_path / 'gin.sqlite3'}", clock)
    ann, bob = _people(players, 2)
    _moderator(store, ann)
    early = ts.create(ann, _settings(name="Early"))  # starts at T0 + 10 min
    for i in range(200):  # these start a day later (listed first: the latest start first)
        ts.create(ann, _settings(name=f"Later {i}", start=(T0 + timedelta(days=1)).isoformat()))
    ts.join(early, ann)
    ts.join(early, bob)
    clock.now = T0 + timedelta(minutes=10)
    asyncio.run(ts.tick())
    assert ts.load(early).state == "running"
    assert ts.db.row(early).state == "running"
    assert sum(1 for r in ts.db.rows(("registration",), limit=None)) == 200
    # the lobby's list still shows the running one (its single read of the latest 200 by start
    # time gave only the 200 announced for the next day), and the upcoming soonest first
    listed = ts.listing()
    assert [x["id"] for x in listed["running"]] == [early]
    assert len(listed["upcoming"]) == 200 and listed["finished"] == []
    starts = [x["start"] for x in listed["upcoming"]]
    assert starts == sorted(starts)
    store.close()


def test_a_tick_rebuilds_only_the_tournaments_due_and_reads_the_store_in_a_thread(tmp_path, monkeypatch):
    clock = Clock()
    store, _manager, players, ts = _app(f"sqlite:///{tmp_path / 'gin.sqlite3'}", clock)
    ann, bob = _people(players, 2)
    _moderator(store, ann)
    later = [ts.create(ann, _settings(name=f"Later {i}", start=(T0 + timedelta(days=1)).isoformat())) for i in range(3)]
    due = ts.create(ann, _settings(name="Due"))
    for tid in [*later, due]:
        ts.join(tid, ann)
        ts.join(tid, bob)
    clock.now = T0 + timedelta(minutes=10)
    rebuilt: list[str] = []
    replay = Tournament.replay

    def spy(events):  # noqa: ANN001, ANN202
        rebuilt.append(events[0]["settings"]["name"])
        return replay(events)

    monkeypatch.setattr(tournaments_mod.Tournament, "replay", staticmethod(spy))
    on_loop: list[str] = []
    seen: list[str] = []

    async def go() -> None:
        loop_thread = threading.get_ident()

        def connected(_conn) -> None:  # noqa: ANN001
            if threading.get_ident() == loop_thread:
                on_loop.append("connect")

        event.listen(store.engine, "engine_connect", connected)
        await ts.tick()  # starts Due and pairs its first round (two computers, two people)
        rebuilt.clear()
        on_loop.clear()
        await ts.tick()  # nothing due: Due's games wait for the people
        event.remove(store.engine, "engine_connect", connected)
        seen.extend(rebuilt)

    asyncio.run(go())
    assert ts.load(due).state == "running" and all(ts.load(t).state == "registration" for t in later)
    assert seen == ["Due"]  # the three starting tomorrow were not read nor rebuilt
    assert on_loop == []  # the store was read in a worker thread only
    store.close()
