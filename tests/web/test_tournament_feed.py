"""The tournament page's live feed (issue 33; web/contests/feed.py, web/ws/tournament.py;
docs/protocol.md "Tournaments"): the view is pushed at each change (an entry, a game's end:
its result and the next pairing without waiting for the next tick), to a bounded number of
watchers, whose entries go with them."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from ginrummy.web.contests.feed import TournamentFeed, message

from .test_tournaments import T0, Clock, _app, _people, _settings


def _watcher() -> tuple[list[dict[str, Any]], Any]:
    got: list[dict[str, Any]] = []

    async def send(text: str) -> None:
        got.append(json.loads(text))

    return got, send


def test_a_game_that_ends_is_pushed_with_its_result_and_the_next_round(tmp_path):
    """Two computer entrants, two rounds of one deal: nothing calls ``advance`` or ``tick``
    after the start; the end of each game's table takes the step, and the watchers get it."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    clock = Clock()
    store, manager, players, ts = _app(url, clock)
    manager.on_changed = ts.table_changed  # as create_app wires it
    (ann,) = _people(players, 1)
    tid = ts.create(ann, _settings(levels=["random", "novice"], rounds=2))
    signed_out, send_out = _watcher()
    entered, send_in = _watcher()

    async def go() -> None:
        assert ts.feed.watch(tid, send_out, None) and ts.feed.watch(tid, send_in, ann.id)
        clock.now = T0 + timedelta(minutes=10)
        await ts.advance(tid)  # the start and round 1: then only the tables' ends
        for _ in range(2000):  # bounded: the two games take a few hundred turns of the loop
            if signed_out and signed_out[-1]["view"]["state"] == "finished":
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the tournament's end was not pushed")

    asyncio.run(go())
    states = [(m["view"]["state"], m["view"]["round"]) for m in signed_out]
    assert states[0] == ("running", 1) and states[-1] == ("finished", 1)
    final = signed_out[-1]["view"]
    assert final["pairings"][0]["games"][0]["result"] in ("a", "b", "draw")
    assert final["final"] == final["standings"] and final["finished_at"] == clock.now.isoformat()
    assert final["me"] is None and entered[-1]["view"]["me"] == {"entered": False, "withdrawn": False, "table": None}
    assert {k: v for k, v in entered[-1]["view"].items() if k != "me"} == {k: v for k, v in final.items() if k != "me"}
    assert final == {**ts.view(tid), "me": None}  # the push is the HTTP view
    (listed,) = ts.listing()["finished"]  # the list says when it ran, not only its planned start
    assert (listed["id"], listed["started_at"], listed["finished_at"]) == (
        tid,
        final["started_at"],
        final["finished_at"],
    )
    store.close()


def test_a_flood_of_watchers_is_bounded_and_leaves_nothing_behind():
    feed = TournamentFeed(lambda tid: ({"id": tid}, lambda a: {"entered": True}))
    feed.max_per_tournament, feed.max_watchers = 3, 5
    sends = [_watcher()[1] for _ in range(10)]
    assert [feed.watch("t1", s, None) for s in sends[:4]] == [True, True, True, False]
    assert [feed.watch("t2", s, 7) for s in sends[4:8]] == [True, True, False, False]  # 5 in all
    assert feed.count() == 5
    for s in sends:
        feed.unwatch("t1", s), feed.unwatch("t2", s)
    assert (feed.watchers, feed.pushed, feed.count()) == ({}, {}, 0)
    for i in range(10_000):  # watchers that come and go: nothing kept of them
        s = _watcher()[1]
        assert feed.watch(f"t{i % 7}", s, None)
        feed.note(f"t{i % 7}", i)  # outside the event loop: nothing scheduled
        feed.unwatch(f"t{i % 7}", s)
    assert (feed.watchers, feed.pushed, feed._pending) == ({}, {}, set())


def test_a_message_is_the_view_with_me():
    text = message({"id": "x", "state": "running"}, {"entered": True})
    assert json.loads(text) == {"type": "tournament", "view": {"id": "x", "state": "running", "me": {"entered": True}}}
    assert json.loads(message({"id": "x"}, None)) == {"type": "tournament", "view": {"id": "x", "me": None}}


def test_the_socket_pushes_an_entry_and_refuses_beyond_its_bound(client):
    assert client.post("/api/account", json={"name": "Ann", "password": "correct horse"}).status_code == 201
    start = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    tid = client.post("/api/tournaments", json={"name": "Night", "start": start, "levels": ["random"]}).json()["id"]
    with client.websocket_connect(f"/ws/tournament/{tid}") as ws:
        first = ws.receive_json()
        assert first["type"] == "tournament" and first["view"]["me"] == {
            "entered": False,
            "withdrawn": False,
            "table": None,
        }
        assert [e["name"] for e in first["view"]["entrants"]] == ["random"]
        assert client.post(f"/api/tournaments/{tid}/join").json() == {"ok": True}
        pushed = ws.receive_json()
        assert [e["name"] for e in pushed["view"]["entrants"]] == ["random", "Ann"]
        assert pushed["view"]["me"] == {"entered": True, "withdrawn": False, "table": None}
        feed = client.app.state.ctx.tournaments.feed
        feed.max_per_tournament = 1
        with client.websocket_connect(f"/ws/tournament/{tid}") as extra:
            assert extra.receive_json() == {
                "type": "error",
                "code": "busy",
                "message": "too many pages watch this tournament live; this one refreshes itself",
            }
            with pytest.raises(WebSocketDisconnect) as closed:
                extra.receive_json()
            assert closed.value.code == 4429
    with client.websocket_connect("/ws/tournament/nosuch") as ws:
        assert ws.receive_json()["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404
    assert client.app.state.ctx.tournaments.feed.watchers == {}
