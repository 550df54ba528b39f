"""The performance score at the web table (issue 32; docs/protocol.md, "The score"): after each
deal a background review sends every watcher ``score_progress`` and then ``score`` for the
deal, and at the match's end the match's score, which is kept for each player with an account
and drawn on his player page (``GET /api/players/NAME``, ``"performance"``)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ginrummy.analysis.performance import performance
from ginrummy.analysis.review import build_review
from ginrummy.record import dumps
from ginrummy.web.app import create_app
from ginrummy.web.learning.table_scores import _Deals

from .conftest import new_table, next_message, with_csrf

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "records"
BUDGET_MS = 2.0  # the fewest sampled deals a decision: the test is about the plumbing


@pytest.fixture
def fast(db_url: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(db_url, bot_delay=0, review_budget_ms=BUDGET_MS)) as c:
            yield with_csrf(c)


def test_the_table_scores_each_deal_and_the_match_and_keeps_it_on_the_player_page(fast):
    r = fast.post("/api/account", json={"name": "Ann", "password": "correct horse"})
    assert r.status_code == 201, r.text
    t = new_table(fast, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}], preset="single")
    manager = fast.app.state.manager
    with fast.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ws:
        seen: list[dict[str, Any]] = []
        n = 0
        while not manager.tables[t["id"]].over:
            m = manager.tables[t["id"]].match
            if m.player_to_act() != 0:
                seen.append(ws.receive_json())
                continue
            legal = [a.text for a in m.deal.legal_actions()]
            ends = [a for a in legal if a.split()[0] in ("gin", "big_gin", "knock")]
            ws.send_json({"type": "action", "action": ends[0] if ends else legal[n % len(legal)], "id": n})
            seen.append(next_message(ws, lambda msg, n=n: msg.get("reply_to") == n))
            n += 1
        while not (seen[-1]["type"] == "score" and seen[-1]["deal"] is None):
            seen.append(ws.receive_json())
        final = seen[-1]
        seen_types = [x["type"] for x in seen]
    match = manager.tables[t["id"]].match
    # exact values: the table's score is the performance of the review of the same record
    review = build_review(dumps(match), budget_ms=BUDGET_MS, seed=0)
    want = performance(review)
    names = manager.tables[t["id"]].names
    assert final == {
        "type": "score",
        "deal": None,
        "full_samples": 50,
        "players": [{"name": name, **want[name].to_dict()} for name in names],
    }
    # the deal's review was seen running, then the deal's score (the match's one deal) came
    assert "score_progress" in seen_types
    deal_score = next(x for x in seen if x["type"] == "score" and x["deal"] == 1)
    assert deal_score["players"] == final["players"]
    # kept for Ann (an account), and drawn from the player page's JSON
    page = fast.get("/api/players/Ann").json()
    assert len(page["performance"]) == 1
    kept = page["performance"][0]
    assert kept["id"] == t["id"]
    ann = want["Ann"].to_dict()
    del ann["samples"]  # the interval kept is the score's (widened when it was made on fewer); not the count
    assert {k: kept[k] for k in ann} == ann
    # a connection opening later gets the scores made so far
    with fast.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ws:
        got = next_message(ws, lambda msg: msg["type"] == "score" and msg["deal"] is None)
        assert got == final


def test_a_match_score_is_the_performance_of_its_deal_reviews_put_together():
    """What the table does at a match's end (each deal reviewed alone when it ends, the deal
    reviews put together) gives exactly the performance of the review of the whole match."""
    text = (GOLDEN / "standard.gin").read_text()
    whole = build_review(text, budget_ms=BUDGET_MS, seed=0)
    deals = [build_review(text, deal=d.number, budget_ms=BUDGET_MS, seed=0).deals[0] for d in whole.deals]
    assert len(deals) > 1
    assert performance(_Deals(whole.players, deals)) == performance(whole)


def test_the_migration_makes_the_table_the_model_describes(tmp_path):
    """0003_performance upgrades a database at 0002 to ``gin_performance`` column for column as
    :data:`~ginrummy.web.community.performance.performance_t` (SQLite here; the PostgreSQL runs of
    tests/web/test_migrations.py upgrade through it too) and downgrades back."""
    import sqlalchemy as sa
    from alembic import command

    from ginrummy.web.community.performance import performance_t
    from ginrummy.web.db import migrations

    url = f"sqlite:///{tmp_path / 'm.sqlite3'}"
    engine = sa.create_engine(url)
    migrations.upgrade(engine, revision="0002_account_role")
    assert "gin_performance" not in sa.inspect(engine).get_table_names()
    migrations.upgrade(engine)
    cols = {c["name"]: c for c in sa.inspect(engine).get_columns("gin_performance")}
    assert list(cols) == [c.name for c in performance_t.columns]
    assert {c: cols[c]["nullable"] for c in cols} == {c.name: bool(c.nullable) for c in performance_t.columns}
    assert [i["name"] for i in sa.inspect(engine).get_indexes("gin_performance")] == ["gin_performance_account"]
    with engine.begin() as conn:
        command.downgrade(migrations._config(conn), "0002_account_role")
    assert "gin_performance" not in sa.inspect(engine).get_table_names()


def test_a_match_that_is_over_is_scored_before_the_deals_of_matches_going_on():
    """The table scores' slots (web/learning/table_scores.py): while they are all held, a
    waiting deal of a match that is over (rank 0: its players wait for the match's score) goes
    before deals of matches going on (rank 1), which keep their order; the rank is read when a
    slot is freed (a match that ended while its deal waited goes first); a cancelled waiter
    takes no slot."""
    import asyncio

    from ginrummy.web.learning.table_scores import _Slots

    async def go() -> tuple[list[str], int]:
        slots = _Slots(1)
        order: list[str] = []
        await slots.acquire(1)

        ranks = {"a": 1, "b": 1, "gone": 0, "over": 0, "ended": 1}

        async def waiter(name: str) -> None:
            await slots.acquire(lambda: ranks[name])
            order.append(name)
            slots.release()

        tasks = {n: asyncio.create_task(waiter(n)) for n in ranks}
        await asyncio.sleep(0)
        tasks["gone"].cancel()
        ranks["ended"] = 0  # its match ended while it waited
        await asyncio.sleep(0)
        slots.release()
        await asyncio.gather(*tasks.values(), return_exceptions=True)
        return order, slots.free

    assert asyncio.run(go()) == (["over", "ended", "a", "b"], 1)
