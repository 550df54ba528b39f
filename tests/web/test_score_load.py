"""The table's score under sustained load (issue 32: "the score of one match of 5 deals is ready
within 30 s of its end while 20 other tables play"; ``docs/design-notes.md``, "The score under
load"): each deal is reviewed at a budget that falls as the backlog grows
(:func:`~ginrummy.web.review_budget.score_budget_ms`), an ended match's deals first and the tables
nobody watches last, and the score says how precise it is (``samples``, a wider interval)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from ginrummy.analysis.review import MIN_SAMPLES, SAMPLES_PER_MS, samples_for
from ginrummy.web.learning import table_scores
from ginrummy.web.learning.table_scores import TableScores, _Slots
from ginrummy.web.protocol.outbound import score_message
from ginrummy.web.review_budget import score_budget_ms


@pytest.mark.parametrize(
    "base,backlog,want",
    [
        (100.0, 0, 100.0),
        (100.0, 1, 100.0),
        (100.0, 2, 100.0),  # the two slots busy, nobody waiting: the full budget
        (100.0, 3, 50.0),
        (100.0, 6, 50.0),
        (100.0, 7, 32.0),  # the floor: 16 sampled deals, the fewest a decision gets
        (100.0, 1000, 32.0),
        (400.0, 5, 200.0),
        (400.0, 7, 32.0),
        (50.0, 3, 32.0),  # half of 50 is below the floor: no quicker than the floor
        (20.0, 0, 20.0),  # a server budget below the floor is never raised
        (20.0, 9, 20.0),
        (2.0, 9, 2.0),
    ],
)
def test_the_score_budget_falls_with_the_backlog(base, backlog, want):
    assert score_budget_ms(base, backlog) == want


def test_the_floor_is_the_budget_of_the_fewest_sampled_deals():
    assert MIN_SAMPLES / SAMPLES_PER_MS == 32.0
    assert samples_for(32.0) == MIN_SAMPLES == samples_for(2.0)
    assert samples_for(score_budget_ms(100.0, 3)) == 25 and samples_for(score_budget_ms(100.0, 0)) == 50


@pytest.mark.parametrize(
    "base,backlog",
    [(0, 1), (-1.0, 1), (float("nan"), 1), (True, 1), ("100", 1), (100.0, -1), (100.0, 1.5), (100.0, True)],
)
def test_a_bad_score_budget_argument_is_refused(base, backlog):
    with pytest.raises(ValueError, match="base_ms is a number > 0|backlog is an int >= 0"):
        score_budget_ms(base, backlog)


def test_the_slots_count_the_backlog_ahead_of_a_rank():
    async def go() -> list[int]:
        slots = _Slots(2)
        ranks = {"a": 1, "b": 1, "c": 0, "d": 2}
        await slots.acquire(lambda: 1)
        out = [slots.ahead(0), slots.ahead(1)]  # one holder
        await slots.acquire(lambda: 1)
        waiters = [asyncio.ensure_future(slots.acquire(lambda k=k: ranks[k])) for k in "abcd"]
        await asyncio.sleep(0)
        out += [slots.ahead(0), slots.ahead(1), slots.ahead(2)]  # 2 holders; c, then a b, then d
        ranks["d"] = 0  # its match ended meanwhile: the rank is asked now
        out.append(slots.ahead(0))
        for w in waiters:
            w.cancel()
        await asyncio.gather(*waiters, return_exceptions=True)
        out.append(slots.ahead(2))
        return out

    assert asyncio.run(go()) == [1, 1, 3, 5, 6, 4, 2]


class _Reviews:
    """A review worker that records each table score's budget and ends when told."""

    budget_ms = 100.0
    seed = 0

    def __init__(self) -> None:
        self.asked: list[tuple[str, int, float]] = []
        self.gates: list[asyncio.Future[None]] = []

    async def run(self, text: str, *, deal: int, budget_ms: float, client: str, **_: Any) -> Any:
        self.asked.append((client, deal, budget_ms))
        gate = asyncio.get_running_loop().create_future()
        self.gates.append(gate)
        await gate
        return SimpleNamespace(deals=[])


def _manager(tables: dict[str, Any]) -> Any:
    async def send_to(*_: Any) -> None:
        return None

    return SimpleNamespace(tables=tables, send_to=send_to, on_changed=None)


def _table(watched: bool = True, over: bool = False) -> Any:
    return SimpleNamespace(
        match=object(), names=["Ann", "Computer"], watchers=[(0, None)] if watched else [], over=over
    )


def _run(monkeypatch, tables: dict[str, Any], jobs: list[tuple[str, int]], change=None) -> list[tuple[str, int, float]]:
    """Start the review of every ``(table, deal)`` of ``jobs`` in order, then end the worker's
    jobs one at a time, the first asked first (``change(i)`` after the ``i``-th ends); the
    budgets asked, in order (the first two, asked at once, sorted)."""
    monkeypatch.setattr(table_scores, "dumps", lambda match: "record")
    monkeypatch.setattr(table_scores, "count_decisions", lambda text, deal: 36)
    reviews = _Reviews()

    async def go() -> list[tuple[str, int, float]]:
        scores = TableScores(_manager(tables), reviews)  # type: ignore[arg-type]
        tasks = [asyncio.ensure_future(scores._review(t, d)) for t, d in jobs]
        ended = 0
        while ended < len(jobs):
            for _ in range(10_000):  # both slots busy (the decisions are counted in a thread)
                if len(reviews.gates) >= min(ended + 2, len(jobs)):
                    break
                await asyncio.sleep(0.001)
            reviews.gates[ended].set_result(None)
            ended += 1
            if change is not None:
                change(ended)
        await asyncio.gather(*tasks)
        return reviews.asked

    asked = asyncio.run(go())
    return sorted(asked[:2]) + asked[2:]  # the first two start together: either may ask first


def test_the_table_scores_budget_falls_as_deals_wait_and_rises_as_they_clear(monkeypatch):
    tables = {f"t{i}": _table() for i in range(8)}
    asked = _run(monkeypatch, tables, [(f"t{i}", 1) for i in range(8)])
    # two slots: t0, t1 at once (full budget); t2 gets its slot with 5 waiting behind it (7 in all:
    # the floor), then the backlog shrinks by one a deal
    assert asked == [
        ("table:t0", 1, 100.0),
        ("table:t1", 1, 100.0),
        ("table:t2", 1, 32.0),
        ("table:t3", 1, 50.0),
        ("table:t4", 1, 50.0),
        ("table:t5", 1, 50.0),
        ("table:t6", 1, 50.0),
        ("table:t7", 1, 100.0),
    ]


def test_an_ended_match_goes_first_and_a_table_nobody_watches_last(monkeypatch):
    tables = {"busy": _table(), "left": _table(watched=False), "mine": _table()}
    jobs = [("busy", 1), ("busy", 2), ("left", 1), ("left", 2), ("busy", 3), ("mine", 1), ("mine", 2), ("busy", 4)]

    def change(ended: int) -> None:
        if ended == 1:
            tables["mine"].over = True  # its match ends while its deals wait

    asked = _run(monkeypatch, tables, jobs, change)
    assert asked == [
        ("table:busy", 1, 100.0),
        ("table:busy", 2, 100.0),
        ("table:mine", 1, 50.0),  # the ended match's deals first: 2 holders + its other deal
        ("table:mine", 2, 100.0),
        ("table:busy", 3, 50.0),  # then the match going on: 2 holders + its deal 4 (left's go after)
        ("table:busy", 4, 100.0),
        ("table:left", 1, 50.0),  # nobody watches: last, after everything else
        ("table:left", 2, 100.0),
    ]


def test_the_score_message_states_the_full_precision():
    assert score_message(3, []) == {"type": "score", "deal": 3, "full_samples": 50, "players": []}
