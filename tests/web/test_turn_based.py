"""Turn-based tables (issue 33, item 3; docs/protocol.md, "Turn-based tables"): a clock of days a
move, a move not made in its days forfeits the match at once (a ``time`` step), no forfeit by
leaving, the "your turn" list (``GET /api/turns``) and the seat link back from it, and a table
that resumes exactly after restarts, days later, with a faked clock (every value exact)."""

from __future__ import annotations

import asyncio
import warnings
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from ginrummy.rules import preset
from ginrummy.web.app import create_app
from ginrummy.web.community.ratings import result_players_t
from ginrummy.web.db.store import Store, actions_t
from ginrummy.web.room.clock import DAY, Clock
from ginrummy.web.room.tables import SeatSpec, TableManager

from .conftest import STORES, database_url, wait_until, with_csrf

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


def test_days_clock_rules_with_exact_values():
    c = Clock.from_options({"clock": {"days": 2}})
    assert c is not None and (c.days, c.move, c.bank, c.turn_based) == (2, 2 * DAY, 0.0, True)
    c.start(1, T0)
    assert c.deadline() == T0 + 172800.0
    # a move in time: nothing is charged, no bank, no timeout counted
    c.moved(1, T0 + 172799.0, timed_out=False)
    assert (c.left(1), c.in_a_row[1], c.forfeit) == (0.0, 0, None)
    # the server never moves for a turn-based player: no timeout forfeits by the live clock's rule
    assert not c.forfeits(0, timed_out=True)
    c.start(0, T0 + 10.0)
    assert c.to_json(["Ann", "Bob"], T0 + 10.0 + DAY) == {
        "move": 172800.0,
        "bank": 0.0,
        "banks": {"Ann": 0.0, "Bob": 0.0},
        "turn": "Ann",
        "left": 86400.0,
        "deadline": T0 + 10.0 + 172800.0,
        "timeouts": {},
        "forfeit": None,
        "days": 2,
    }
    live = Clock.from_options({"clock": {"move": 20, "bank": 60}})
    assert live is not None and (live.days, live.turn_based) == (0, False)


def _turn_table(manager: TableManager, days: int = 1):
    table, _ = manager.create(
        preset("standard"),
        [SeatSpec("human", "Ann"), SeatSpec("human", "Bob")],
        seed=bytes(range(32)),
        options={"clock": {"days": days}},
        seat_all=True,
    )
    return table


def test_a_move_not_made_in_its_days_forfeits_the_match_at_once(store_url):
    url = store_url
    now = FakeTime(T0)

    async def run() -> tuple[Any, ...]:
        manager = TableManager(Store(url), bot_delay=0, now=now)
        t = _turn_table(manager, days=1)
        await manager.client_seed(t, 0, 1, "a")
        await manager.client_seed(t, 1, 1, "b")
        t = manager.tables[t.id]
        mover = t.match.player_to_act()
        assert t.clock.turn == mover and t.clock.deadline() == T0 + DAY
        now.t = T0 + DAY - 1  # a second before the deadline: nothing happens
        assert not await manager.check_clock(t)
        now.t = T0 + DAY  # at the deadline itself a move is still in time (correspondence.late)
        assert not await manager.check_clock(t)
        now.t = T0 + DAY + 0.001
        assert await manager.check_clock(t)
        t = manager.tables[t.id]
        state = t.state_for(1 - mover)
        with manager.store.engine.connect() as conn:
            kinds = [r.kind for r in conn.execute(select(actions_t.c.kind).where(actions_t.c.table_id == t.id))]
        await manager.stop()
        return mover, t.ended, t.forfeit, t.how_ended, state["match"], kinds, t.clock.deadline()

    mover, ended, forfeit, how, match, kinds, deadline = asyncio.run(run())
    names = ["Ann", "Bob"]
    assert ended == (mover, "time") and forfeit == mover and how == "time" and deadline is None
    assert match == {"finished": True, "winner": names[1 - mover], "forfeit": names[mover], "ended": "time"}
    # no move was made for him: the seeds, the deal, then the forfeit
    assert kinds == ["client_seed", "client_seed", "deal", "time"]


def test_a_person_away_from_a_rated_turn_based_table_does_not_forfeit_by_leaving(tmp_path):
    url = f"sqlite:///{tmp_path / 'gin.sqlite3'}"

    async def run() -> Any:
        manager = TableManager(Store(url), bot_delay=0, now=FakeTime(T0))
        t = _turn_table(manager)
        await manager.client_seed(t, 0, 1, "a")
        await manager.client_seed(t, 1, 1, "b")
        t = manager.tables[t.id]
        t.rating = {"rated": True}  # as the ladder marks a rated table
        manager.autoplay.left_seat(t, 0)
        out = (dict(t.away), manager.leaving(t))
        await manager.stop()
        return out

    assert asyncio.run(run()) == ({}, None)


def test_a_turn_based_table_needs_two_seats_and_one_kind_of_clock(client):
    two = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}]
    three = [*two, {"kind": "bot", "level": "novice"}]
    for bad in ({"days": 0}, {"days": 4}, {"days": "2"}, {"days": 1, "move": 20}, {}, {"days": 1, "bank": 10}):
        r = client.post("/api/tables", json={"seats": two, "clock": bad})
        assert r.status_code == 400, (bad, r.text)
    r = client.post("/api/tables", json={"seats": two, "clock": {"days": 1, "move": 20}})
    assert r.json() == {
        "error": "clock: give move (5 to 600 seconds a move) and bank (0 to 3600 seconds), or days "
        "(1, 2 or 3 days a move: a turn-based table) alone",
        "code": "bad_message",
    }
    r = client.post("/api/tables", json={"seats": three, "clock": {"days": 2}})
    assert (r.status_code, r.json()["error"]) == (400, "a turn-based table has two seats")
    r = client.post("/api/tables", json={"seats": two, "clock": {"days": 3}})
    assert r.status_code == 201
    t = client.app.state.manager.tables[r.json()["id"]]
    assert t.options["clock"] == {"days": 3} and t.turn_based and t.clock.move == 3 * DAY


# -- over HTTP, with restarts ---------------------------------------------------------------


def _app(url: str, now: FakeTime) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(url, bot_delay=0, table_scores=False)
    app.state.manager.now = now
    return app


def _person(app: Any, name: str, new: bool) -> TestClient:
    c = with_csrf(TestClient(app))
    r = c.post("/api/account" if new else "/api/session", json={"name": name, "password": "correct horse"})
    assert r.status_code in (200, 201), r.text
    return c


def _turns(c: TestClient) -> list[dict[str, Any]]:
    r = c.get("/api/turns")
    assert r.status_code == 200 and r.json()["signed_in"]
    return r.json()["turns"]


def _seat_link(c: TestClient, table_id: str) -> str:
    r = c.post(f"/api/turns/{table_id}/seat")
    assert r.status_code == 200, r.text
    assert r.json()["table"] == table_id
    return r.json()["token"]


def _move(c: TestClient, app: Any, table_id: str, token: str) -> int:
    """The person of ``token`` makes his first legal move over the socket; returns the seq."""
    t = app.state.manager.tables[table_id]
    p = t.player_of(token)
    text = t.match.view(p).legal[0].text
    with c.websocket_connect(f"/ws/table/{table_id}?seat={token}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "action", "action": text, "id": "m"})
        while (msg := ws.receive_json()).get("reply_to") != "m":
            assert msg["type"] == "state", msg
        assert msg["type"] == "ack", msg
    return app.state.manager.tables[table_id].seq


def _seed(c: TestClient, table_id: str, token: str, seed: str) -> None:
    with c.websocket_connect(f"/ws/table/{table_id}?seat={token}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "client_seed", "deal": 1, "seed": seed, "id": "s"})
        while (msg := ws.receive_json()).get("reply_to") != "s":
            assert msg["type"] == "state", msg
        assert msg["type"] == "ack", msg


def test_your_turn_list_and_restarts_days_apart(store_url):
    url = store_url
    now = FakeTime(T0)
    # -- the first sitting: Ann opens a rated 1-day table, Bob claims his seat, both seed
    app = _app(url, now)
    with TestClient(app):
        ann, bob = _person(app, "Ann", True), _person(app, "Bob", True)
        r = ann.post(
            "/api/tables",
            json={"seats": [{"kind": "human"}, {"kind": "human"}], "clock": {"days": 1}, "rated": True},
        )
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        ann_token = r.json()["seats"][0]["token"]
        code = r.json()["seats"][1]["invite"].split("invite=")[1]
        bob_token = bob.post(f"/api/tables/{tid}/claim", json={"invite": code}).json()["token"]
        # before the first deal it waits for both client seeds: on both lists, no deadline
        assert [(e["why"], e["left"]) for e in _turns(ann)] == [("seed", None)]
        _seed(ann, tid, ann_token, "ann1")
        assert _turns(ann) == [] and [e["why"] for e in _turns(bob)] == ["seed"]
        _seed(bob, tid, bob_token, "bob1")
        t = app.state.manager.tables[tid]
        first = t.match.player_to_act()
        who = {0: (ann, ann_token), 1: (bob, bob_token)}
        mover, other = who[first], who[1 - first]
        assert _turns(mover[0]) == [
            {
                "table": tid,
                "you": t.names[first],
                "opponent": t.names[1 - first],
                "opponents": [{"name": t.names[1 - first], "kind": "human", "level": None}],
                "days": 1,
                "why": "move",
                "deadline": "2025-06-16T15:06:40+00:00",
                "left": 86400,
                "rated": True,
                "link": f"/table/{tid}?turn=1",
            }
        ]
        assert _turns(other[0]) == []
        now.t += 3600  # an hour later he moves; the turn passes (the upcard is offered, R4.2)
        seq = _move(mover[0], app, tid, mover[1])
        t = app.state.manager.tables[tid]
        second = t.match.player_to_act()
        assert len(_turns(mover[0])) == (1 if second == first else 0)
        before = (t.seq, t.match.player_to_act(), t.clock.since, t.state_for(second)["you"])
        assert seq == t.seq
    # -- the server is down for half a day; the second sitting resumes exactly
    now.t += DAY / 2
    app = _app(url, now)
    with TestClient(app):
        ann, bob = _person(app, "Ann", False), _person(app, "Bob", False)
        who = {0: ann, 1: bob}
        t = app.state.manager.tables[tid]
        assert (t.seq, t.match.player_to_act(), t.clock.since, t.state_for(second)["you"]) == before
        [entry] = _turns(who[second])
        assert (entry["why"], entry["left"]) == ("move", int(before[2] + DAY - now.t))
        assert entry["left"] == 86400 - 43200
        # from the list, a new seat link (the old token is replaced) opens the seat
        token = _seat_link(who[second], tid)
        assert t.player_of(token) == second
        assert who[1 - second].post(f"/api/turns/{tid}/seat").status_code == 200
        assert TestClient(app).post("/api/turns/nosuch/seat").status_code in (401, 403)
    # -- down again, for two days: the move ran out while the server was down
    now.t += 2 * DAY
    app = _app(url, now)
    with TestClient(app):
        ann, bob = _person(app, "Ann", False), _person(app, "Bob", False)
        who = {0: ann, 1: bob}
        t = app.state.manager.tables[tid]
        # the start-up timer fires at once (the deadline has passed)
        wait_until(lambda: app.state.manager.tables[tid].over, "the forfeit on time at start-up")
        t = app.state.manager.tables[tid]
        assert (t.ended, t.how_ended) == ((second, "time"), "time")
        assert _turns(ann) == [] and _turns(bob) == []
        state = t.state_for(1 - second)
        assert state["match"]["ended"] == "time" and state["match"]["forfeit"] == t.names[second]
        # rated as a forfeit on time, in the transaction of the time step
        with app.state.store.engine.connect() as conn:
            rows = conn.execute(select(result_players_t).where(result_players_t.c.result_id == tid)).all()
        assert {r.player: (r.outcome, r.ended) for r in rows} == {second: ("loss", "time"), 1 - second: ("win", "time")}
        assert state["rating"]["rated"] is True and [c["name"] for c in state["rating"]["changes"]] == t.names


def test_an_open_turn_based_table_stays_in_the_lobby_for_its_days(tmp_path):
    from ginrummy.web.room.lobby import LOBBY_IDLE_SECONDS, UNSTARTED_LOBBY_SECONDS

    now = FakeTime(T0)
    manager = TableManager(Store(f"sqlite:///{tmp_path / 'gin.sqlite3'}"), bot_delay=0, now=now)
    seats = [SeatSpec("human", "Ann"), SeatSpec("human", "")]
    turn, _ = manager.create(preset("standard"), seats, options={"public": True, "clock": {"days": 2}})
    live, _ = manager.create(preset("standard"), seats, options={"public": True, "clock": {"move": 20, "bank": 60}})
    now.t = T0 + LOBBY_IDLE_SECONDS + 1  # nobody connected for 10 minutes
    turn.row = type(turn.row)(**{**turn.row.__dict__, "created": _iso(T0)})
    live.row = type(live.row)(**{**live.row.__dict__, "created": _iso(T0)})
    listed = {e["id"]: e for e in manager.lobby()}
    assert list(listed) == [turn.id] and listed[turn.id]["days"] == 2
    assert listed[turn.id]["expires"] == "2025-06-17T15:06:40+00:00"  # made at T0, 2 days a move
    now.t = T0 + UNSTARTED_LOBBY_SECONDS + 1  # past the live table's half hour: still listed
    assert [e["id"] for e in manager.lobby()] == [turn.id]
    now.t = T0 + 2 * DAY  # its days are over with no opponent: no longer listed
    assert manager.lobby() == []


def _iso(t: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds")


def test_your_turn_entry_says_the_opponents_seat_so_a_page_can_name_a_computer_in_its_language(tmp_path):
    """Issue 33, item 4: a name the table made ("Computer (novice)", in the opener's language)
    was shown as it was stored on the "your turn" list of a page in another language; the entry
    now gives the seat's kind and level as a state's ``table.seats`` does (turns.js then names it
    with localSeatName)."""
    app = _app(f"sqlite:///{tmp_path / 'g.db'}", FakeTime(T0))
    with TestClient(app):
        dora = _person(app, "Dora", True)
        seats = [{"kind": "human"}, {"kind": "bot", "level": "novice"}]
        r = dora.post("/api/tables", json={"seats": seats, "clock": {"days": 1}})
        assert r.status_code == 201, r.text
        [entry] = _turns(dora)
    assert (entry["opponent"], entry["opponents"]) == (
        "Computer (novice)",
        [{"name": "Computer (novice)", "kind": "computer", "level": "novice"}],
    )


def test_the_your_turn_list_loads_tables_on_the_event_loop_only(tmp_path):
    """``GET /api/turns`` may load a table into the manager (one another process made): that
    must happen on the event loop, never in a worker thread, where it could put back an older
    copy of a table the loop has just moved on (the list read everything in a thread before)."""
    app = _app(f"sqlite:///{tmp_path / 'g.db'}", FakeTime(T0))
    with TestClient(app):
        ann, bob = _person(app, "Ann", True), _person(app, "Bob", True)
        r = ann.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}], "clock": {"days": 1}})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        code = r.json()["seats"][1]["invite"].split("invite=")[1]
        assert bob.post(f"/api/tables/{tid}/claim", json={"invite": code}).status_code == 200
        _check_loads(app, ann, bob)


def _check_loads(app: Any, ann: TestClient, bob: TestClient) -> None:
    manager = app.state.manager
    loads: list[bool] = []
    plain = manager.load

    def load(table_id: str) -> Any:
        try:
            asyncio.get_running_loop()
            loads.append(True)
        except RuntimeError:  # no running loop: a worker thread
            loads.append(False)
        return plain(table_id)

    manager.load = load
    entries = _turns(ann) + _turns(bob)
    assert loads == [True, True]
    assert sorted(e["why"] for e in entries) == ["seed", "seed"]
