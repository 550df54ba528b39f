"""Issue 33, item 4, "with two server processes": two ``gin serve`` on one PostgreSQL.  A Swiss
tournament created on one and entered on both is paired once (the database decides: one
``paired`` event, each table stored once, the same pairings answered by both), and a turn-based
table (1 day a move) whose people sit on different processes is seeded and moved on one and seen
on the other: its state over the other's socket and the other's "your turn" list."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from datetime import UTC, datetime, timedelta

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, select

from ginrummy.web.db.store import engine_url
from ginrummy.web.db.tournaments import events_t

from .conftest import database_url
from .test_restart import RECV_SECONDS, _free_port, _start


@pytest.fixture
def pg_url(tmp_path):
    yield from database_url("postgresql", tmp_path)


def _person(base: str, name: str) -> httpx.Client:
    """A signed-up person's client of the server at ``base``, passing the CSRF check."""
    c = httpx.Client(base_url=base, timeout=30)
    c.get("/api/me")
    c.headers["X-CSRF-Token"] = c.cookies["gin_csrf"]
    r = c.post("/api/account", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return c


def _poll(cond, what: str, seconds: float = 60.0):
    """``cond()`` once it is truthy (polled; generous for a loaded machine, no time asserted)."""
    deadline = time.monotonic() + seconds
    while not (got := cond()):
        assert time.monotonic() < deadline, f"{what}: not within {seconds:g} s"
        time.sleep(0.1)
    return got


async def _next_state(ws, after_seq: int) -> dict:
    """The first ``state`` with ``seq`` past ``after_seq`` (acks and older states skipped)."""
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), RECV_SECONDS))
        assert msg["type"] != "error", msg
        if msg["type"] == "state" and msg["seq"] > after_seq:
            return msg


def _pairings(view: dict) -> list[tuple]:
    return [(g["a"], g["b"], g["table"]) for r in view["pairings"] for g in r["games"]]


def _tournament_paired_once(ann: httpx.Client, bob: httpx.Client, pg_url: str) -> None:
    start = (datetime.now(UTC) + timedelta(seconds=3)).isoformat()
    body = {"name": "Two servers", "start": start, "rounds": 2, "scoring": "deal", "levels": ["random", "novice"]}
    r = ann.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert ann.post(f"/api/tournaments/{tid}/join").json() == {"ok": True}
    assert bob.post(f"/api/tournaments/{tid}/join").json() == {"ok": True}  # on the other server

    def both() -> list[dict] | None:
        views = [c.get(f"/api/tournaments/{tid}").json() for c in (ann, bob)]
        return views if all(v["round"] >= 1 for v in views) else None

    views = _poll(both, "round 1 paired on both servers")
    first = [p for p in _pairings(views[0]) if p[2] is not None or p[1] is None]
    assert len(first) == 2 and _pairings(views[1])[:2] == first[:2]
    assert sorted(x for p in first for x in p[:2]) == ["Ann", "Bob", "novice", "random"]
    engine = create_engine(engine_url(pg_url))
    with engine.connect() as conn:
        kinds = [r.kind for r in conn.execute(select(events_t.c.kind).where(events_t.c.tournament_id == tid))]
    engine.dispose()
    assert kinds.count("started") == 1 and kinds.count("paired") == 1
    # each server gives each person the table of his pairing
    for c, name in ((ann, "Ann"), (bob, "Bob")):
        mine = next(p[2] for p in first if name in p[:2])
        assert c.get(f"/api/tournaments/{tid}").json()["me"]["table"] == mine


async def _turn_based_across(ann: httpx.Client, bob: httpx.Client, ports: list[int]) -> None:
    r = ann.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}], "clock": {"days": 1}})
    assert r.status_code == 201, r.text
    tid, ann_token = r.json()["id"], r.json()["seats"][0]["token"]
    code = r.json()["seats"][1]["invite"].split("invite=")[1]
    claim = bob.post(f"/api/tables/{tid}/claim", json={"invite": code})  # on the server that did not make it
    assert claim.status_code == 200, claim.text
    bob_token = claim.json()["token"]
    urls = [
        f"ws://127.0.0.1:{ports[0]}/ws/table/{tid}?seat={ann_token}",
        f"ws://127.0.0.1:{ports[1]}/ws/table/{tid}?seat={bob_token}",
    ]
    async with websockets.connect(urls[0]) as wa, websockets.connect(urls[1]) as wb:
        seq = (await _next_state(wa, -1))["seq"]
        await _next_state(wb, -1)
        await wa.send(json.dumps({"type": "client_seed", "deal": 1, "seed": "ann1"}))
        seen = await _next_state(wb, seq)  # Ann's seed, stored on server 0, reaches Bob on server 1
        assert seen["fair"]["pending"]["waiting_for"] == ["Bob"]
        await wb.send(json.dumps({"type": "client_seed", "deal": 1, "seed": "bob1"}))
        dealt = await _next_state(wa, seen["seq"])
        while not dealt["started"]:  # Bob's seed step first, then the deal (a step of its own)
            dealt = await _next_state(wa, dealt["seq"])
        assert dealt["deal"]["number"] == 1 and dealt["fair"]["pending"] is None
        mover, other = (wa, wb) if dealt["your_turn"] else (wb, wa)
        mover_client, other_client = (ann, bob) if mover is wa else (bob, ann)
        who = dealt["to_act"]
        assert [e["why"] for e in mover_client.get("/api/turns").json()["turns"]] == ["move"]
        assert other_client.get("/api/turns").json()["turns"] == []
        mine = await _next_state(mover, dealt["seq"] - 1) if mover is wb else dealt
        action = mine["view"]["legal_actions"][0]  # the upcard offer (R4.2): take it or pass
        await mover.send(json.dumps({"type": "action", "action": action, "id": "m"}))
        after = await _next_state(other, dealt["seq"])  # seen over the other process's socket
        assert after["seq"] == dealt["seq"] + 1
        assert after["view"]["history"][-1].startswith(f"{1 - after['you']} ")
        if after["to_act"] != who:  # the turn passed to the other person: on his list there
            assert [e["why"] for e in other_client.get("/api/turns").json()["turns"]] == ["move"]
            assert mover_client.get("/api/turns").json()["turns"] == []


def test_two_servers_pair_a_tournament_once_and_share_a_turn_based_table(pg_url: str) -> None:
    ports = [_free_port(), _free_port()]
    procs = [_start(ports[0], pg_url), _start(ports[1], pg_url)]
    try:
        ann = _person(f"http://127.0.0.1:{ports[0]}", "Ann")
        bob = _person(f"http://127.0.0.1:{ports[1]}", "Bob")
        _tournament_paired_once(ann, bob, pg_url)
        asyncio.run(_turn_based_across(ann, bob, ports))
        ann.close()
        bob.close()
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait(10)
