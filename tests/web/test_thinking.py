"""The computer thinks off the event loop (issue 27; web/room/thinking.py): the pool makes the move
and the hint the server process makes, a worker past its deadline gets the fallback level's
decision and the pool is replaced, and the queue serves its owners in turn."""

from __future__ import annotations

import asyncio
import os
import random
import time

from ginrummy.rules import RuleSet
from ginrummy.web.db.store import Store
from ginrummy.web.room.autoplay import bot_choice
from ginrummy.web.room.seats import SeatSpec, advise
from ginrummy.web.room.tables import TableManager
from ginrummy.web.room.thinking import (
    FALLBACK_LEVEL,
    ThinkingPool,
    decision_seed,
    default_workers,
    hint_text,
    move_deadline,
    move_text,
)


def _table(tmp_path, levels=("club", "master")):
    mgr = TableManager(Store(f"sqlite:///{tmp_path / 'g.sqlite3'}"), bot_delay=0, workers=1)
    table, _ = mgr.create(RuleSet(), [SeatSpec("bot", level=lv) for lv in levels], seed=b"s" * 32)
    return mgr, table


def _sleep_then(seconds: float, value: str) -> str:
    time.sleep(seconds)
    return value


def test_pool_move_and_hint_equal_the_in_process_ones(tmp_path):
    mgr, table = _table(tmp_path, ("club", "club"))
    m = table.started_match()
    player = m.player_to_act()
    view = m.view(player)
    hinted, _ = mgr.create(RuleSet(), [SeatSpec("bot", level="master"), SeatSpec("bot", level="club")], seed=b"s" * 32)

    async def go():
        try:
            seed = decision_seed(table.row.seed, "bot", player, table.seq)
            # through a worker process: the same seeded club move bot_choice makes here
            text = await mgr.thinking.run(
                move_text, ("club", seed, view), owner="t", table=table.id, deadline=30.0, fallback=lambda: "fallback"
            )
            # the master's hint (no clock: deterministic) from the pool, as the table asks it
            seq, action, reason = await mgr.hint(hinted, player)
            return text, seq, action, reason
        finally:
            mgr.thinking.close()

    text, seq, action, reason = asyncio.run(go())
    assert text == bot_choice(table, player, table.seq, view).text
    assert hinted.hint_level == "master"
    want = advise("master", random.Random(decision_seed(hinted.row.seed, "hint", player, hinted.seq)), view)
    assert (seq, action, reason) == (hinted.seq, want[0], want[1])
    assert mgr.thinking.late == 0 and mgr.thinking.replaced == 0


def test_late_worker_gets_the_fallback_decision_and_a_new_pool(tmp_path):
    pool = ThinkingPool(1)

    async def go():
        try:
            pid = await pool.run(os.getpid, (), owner="a", table="t1", deadline=30.0, fallback=lambda: -1)
            late = await pool.run(
                _sleep_then, (60.0, "never"), owner="a", table="t1", deadline=0.5, fallback=lambda: "fallback"
            )
            after = await pool.run(os.getpid, (), owner="a", table="t1", deadline=30.0, fallback=lambda: -1)
            return pid, late, after
        finally:
            pool.close()

    pid, late, after = asyncio.run(go())
    assert late == "fallback"
    assert (pool.late, pool.replaced) == (1, 1)
    assert pid > 0 and after > 0 and after != pid  # the stuck worker was replaced


def test_fallback_move_is_the_club_move_from_the_same_seed(tmp_path):
    mgr, table = _table(tmp_path, ("master", "club"))
    m = table.started_match()
    player = m.player_to_act()
    view = m.view(player)
    seed = decision_seed(table.row.seed, "bot", player, table.seq)
    assert FALLBACK_LEVEL == "club"
    assert move_text(FALLBACK_LEVEL, seed, view) == move_text("club", seed, view)
    assert hint_text("master", 5, view) == (lambda a: (a[0].text, a[1]))(advise("master", random.Random(5), view))
    assert move_deadline("master") == 3.0 and move_deadline("expert") == 1.3 and move_deadline("club") == 1.0


def test_round_robin_between_owners_and_one_job_per_table():
    pool = ThinkingPool(1)
    done: list[str] = []
    aheads: dict[str, int] = {}

    async def job(owner: str, table: str, name: str) -> None:
        def queued(ahead: int) -> None:
            aheads[name] = ahead

        done.append(
            await pool.run(
                _sleep_then,
                (0.05, name),
                owner=owner,
                table=table,
                deadline=30.0,
                fallback=lambda: "fallback",
                on_queued=queued,
            )
        )

    async def go():
        try:
            await pool.run(os.getpid, (), owner="w", table="w", deadline=30.0, fallback=lambda: -1)  # warm
            tasks = [asyncio.create_task(job("A", f"a{i}", f"A{i}")) for i in range(4)]
            await asyncio.sleep(0)
            tasks.append(asyncio.create_task(job("B", "b", "B0")))
            tasks.append(asyncio.create_task(job("C", "a0", "C0")))  # the table of A0: after it
            await asyncio.gather(*tasks)
        finally:
            pool.close()

    asyncio.run(go())
    # A0 was running; then A and B and C in turn (the address with four tables does not go four times first)
    assert done == ["A0", "A1", "B0", "C0", "A2", "A3"]
    assert aheads == {"A0": 0, "A1": 1, "A2": 2, "A3": 3, "B0": 2, "C0": 3}  # when each was queued


def test_same_hint_asked_twice_shares_one_job(tmp_path):
    mgr, table = _table(tmp_path, ("master", "club"))
    player = table.started_match().player_to_act()
    calls: list[int] = []
    real = mgr.thinking.run

    async def counting(*args, **kwargs):
        calls.append(1)
        return await real(*args, **kwargs)

    mgr.thinking.run = counting  # type: ignore[method-assign]

    async def go():
        try:
            return await asyncio.gather(mgr.hint(table, player), mgr.hint(table, player))
        finally:
            mgr.thinking.close()

    first, second = asyncio.run(go())
    assert first == second and len(calls) == 1


def test_default_workers_leaves_a_core_to_the_loop():
    assert default_workers() == max(1, len(os.sched_getaffinity(0)) - 1)
