"""Fair play over the API and the socket (issue 31, part 1; docs/accounts.md, "Fair play"): a
rated table always has a clock; rated matches between the same two accounts move the ratings
at most the daily allowance; three forfeits in 24 hours refuse rated play until a time; the
completion rate on the profile; a new account chats in the lobby once it has finished a match."""

from __future__ import annotations

import time
import warnings

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from ginrummy.web.app import create_app
from ginrummy.web.community.fairplay import FORFEIT_WINDOW, iso_time
from ginrummy.web.community.ratings import result_players_t, results_t

from .conftest import STORES, database_url, send_client_seeds, with_csrf

GRACE = 0.2


@pytest.fixture(params=STORES)
def client(request, tmp_path):
    """A server on each store (SQLite, and PostgreSQL when the tests have one)."""
    for url in database_url(request.param, tmp_path):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with TestClient(create_app(url, bot_delay=0, leave_grace=GRACE, pair_allowance=3)) as c:
                yield with_csrf(c)


def _sign_up(c: TestClient, name: str) -> str:
    c.cookies.delete("gin_session")
    r = c.post("/api/account", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return c.cookies["gin_session"]


def _as(c: TestClient, session: str) -> None:
    c.cookies.set("gin_session", session)


def _rated_table(c: TestClient, host: str, guest: str) -> tuple[dict, dict]:
    """``host`` opens a rated table for two, ``guest`` claims the other seat; ``(table, claim answer)``."""
    _as(c, host)
    r = c.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human", "name": "x"}], "rated": True})
    assert r.status_code == 201, r.text
    table = r.json()
    _as(c, guest)
    code = table["seats"][1]["invite"].split("invite=", 1)[1]
    claimed = c.post(f"/api/tables/{table['id']}/claim", json={"invite": code})
    assert claimed.status_code == 200, claimed.text
    table["seats"][1]["token"] = claimed.json()["token"]
    return table, claimed.json()


def _count(c: TestClient, query) -> int:
    with c.app.state.store.engine.connect() as conn:
        return int(conn.execute(query).scalar() or 0)


def test_a_rated_table_always_has_a_clock(client):
    _sign_up(client, "Ann")
    seats = [{"kind": "human"}, {"kind": "bot", "level": "novice"}]
    r = client.post("/api/tables", json={"seats": seats, "rated": True, "clock": None})
    assert (r.status_code, r.json()["code"], r.json()["error"]) == (
        400,
        "bad_message",
        "a rated table always has a clock: leave clock out for 20 seconds a move and a bank of 600 "
        "seconds, or give move (5 to 600) and bank (0 to 3600)",
    )
    r = client.post("/api/tables", json={"seats": seats, "rated": True})
    assert r.status_code == 201
    assert client.app.state.manager.tables[r.json()["id"]].options["clock"] == {"move": 20, "bank": 600}
    r = client.post("/api/tables", json={"seats": seats, "rated": True, "clock": {"move": 30, "bank": 60}})
    assert client.app.state.manager.tables[r.json()["id"]].options["clock"] == {"move": 30, "bank": 60}
    r = client.post("/api/tables", json={"seats": seats, "clock": None})  # unrated: no clock is fine
    assert r.status_code == 201 and "clock" not in client.app.state.manager.tables[r.json()["id"]].options


def _until_ack(ws, mid: str) -> tuple[dict, dict | None]:
    """``(answer, last finished state before it)``: the state that ends a match comes before the ack."""
    done = None
    for _ in range(200):
        m = ws.receive_json()
        if m["type"] == "state" and m["match"]["finished"]:
            done = m
        if m.get("reply_to") == mid:
            return m, done
    raise AssertionError("no answer")


def _resign(c: TestClient, table: dict, seat: int) -> dict:
    with c.websocket_connect(f"/ws/table/{table['id']}?seat={table['seats'][seat]['token']}") as ws:
        ws.send_json({"type": "resign", "id": "r"})
        answer, state = _until_ack(ws, "r")
        assert answer["type"] == "ack" and state is not None
        return state


def test_twenty_rated_matches_of_one_pair_move_the_ratings_only_the_allowance(client):
    ann, bob = _sign_up(client, "Ann"), _sign_up(client, "Bob")
    counted, ended = [], []
    for i in range(20):
        table, claimed = _rated_table(client, ann, bob)
        counted.append(claimed["counts_for_rating"])
        send_client_seeds(client, table)
        state = _resign(client, table, i % 2)
        ended.append((state["match"]["ended"], state["rating"]["counts"], len(state["rating"]["changes"])))
    assert counted == [True] * 3 + [False] * 17
    assert ended == [("resigned", True, 2)] * 3 + [("resigned", False, 0)] * 17
    board = {e["name"]: e["matches"] for e in client.get("/api/leaderboard").json()}
    assert board == {"Ann": 3, "Bob": 3}
    assert _count(client, select(func.count()).select_from(results_t)) == 20
    assert _count(client, select(func.count()).where(result_players_t.c.mu_after.is_not(None))) == 6
    assert client.get("/api/players/Ann").json()["completion"] == {
        "matches": 20,
        "by_rules": 0,
        "resigned": 10,
        "forfeited": 0,
        "opponent_gave_up": 10,  # the ten Bob resigned: the four counts add up to the matches
        "rate": 1.0,
    }


def _leave_and_claim(c: TestClient, table: dict) -> dict:
    """Bob (seat 1) is away (his last connection closed); Ann claims the win once the grace is over."""
    with c.websocket_connect(f"/ws/table/{table['id']}?seat={table['seats'][0]['token']}") as ws:
        for _ in range(100):  # the grace is GRACE seconds: bounded retries
            ws.send_json({"type": "claim", "id": "c"})
            answer, state = _until_ack(ws, "c")
            if answer["type"] == "ack":
                assert state is not None
                return state
            assert answer["code"] == "not_allowed", answer
            time.sleep(GRACE / 4)
    raise AssertionError("the claim was never allowed")


def test_three_forfeits_in_a_day_refuse_rated_play_until_the_oldest_is_a_day_old(client):
    ann, bob = _sign_up(client, "Ann"), _sign_up(client, "Bob")
    for _ in range(3):
        table, _ = _rated_table(client, ann, bob)
        send_client_seeds(client, table)
        state = _leave_and_claim(client, table)
        assert (state["match"]["winner"], state["match"]["forfeit"], state["match"]["ended"]) == ("Ann", "Bob", "left")
    with client.app.state.store.engine.connect() as conn:
        first = conn.execute(
            select(func.min(result_players_t.c.finished)).where(result_players_t.c.ended == "left")
        ).scalar()
    from datetime import datetime

    until = iso_time(datetime.fromisoformat(first).timestamp() + FORFEIT_WINDOW)
    _as(client, bob)
    r = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}], "rated": True})
    assert (r.status_code, r.json()["code"], r.json()["until"]) == (403, "rated_refused", until)
    assert r.json()["error"] == (
        "you forfeited 3 rated matches in the last 24 hours: you may play rated matches again from "
        f"{until[:16].replace('T', ' ')} (UTC)"
    )
    me = client.get("/api/me").json()
    assert me["rated_refused_until"] == until
    assert me["completion"] == {
        "matches": 3,
        "by_rules": 0,
        "resigned": 0,
        "forfeited": 3,
        "opponent_gave_up": 0,
        "rate": 0.0,
    }
    # nor may he take a seat at someone else's rated table; unrated play is open to him
    _as(client, ann)
    r = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}], "rated": True})
    code = r.json()["seats"][1]["invite"].split("invite=", 1)[1]
    _as(client, bob)
    r = client.post(f"/api/tables/{r.json()['id']}/claim", json={"invite": code})
    assert (r.status_code, r.json()["code"]) == (403, "rated_refused")
    assert client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}]}).status_code == 201
    _as(client, ann)
    assert client.get("/api/me").json()["rated_refused_until"] is None
    assert client.get("/api/players/Bob").json()["completion"]["forfeited"] == 3
    # nor does a rematch of his last rated match make him a rated table
    with client.websocket_connect(f"/ws/table/{table['id']}?seat={table['seats'][1]['token']}") as ws:
        ws.send_json({"type": "rematch"})
        while ws.receive_json().get("rematch", {}).get("asked") != ["Bob"]:
            pass
    with client.websocket_connect(f"/ws/table/{table['id']}?seat={table['seats'][0]['token']}") as ws:
        ws.send_json({"type": "rematch"})
        while (got := ws.receive_json())["type"] != "rematch":
            assert got["type"] != "error", got
    players = client.app.state.players
    assert players.accounts.seats(got["id"]) == players.accounts.seats(table["id"])
    assert not players.is_rated(got["id"]) and client.app.state.manager.tables[got["id"]].rating is None


def test_a_new_account_chats_in_the_lobby_once_it_has_finished_a_match(client):
    ann, bob = _sign_up(client, "Ann"), _sign_up(client, "Bob")
    _as(client, ann)
    assert client.get("/api/me").json()["can_chat"] is False
    with client.websocket_connect("/ws/lobby") as ws:
        ws.send_json({"type": "chat", "text": "hello", "id": 1})
        while (msg := ws.receive_json())["type"] != "error":
            pass
    assert msg == {
        "type": "error",
        "code": "not_allowed",
        "reply_to": 1,
        "message": "a new account may chat in the lobby once it has finished a match: play one first",
    }
    assert client.get("/api/lobby").json()["chat"] == []
    table, _ = _rated_table(client, ann, bob)
    send_client_seeds(client, table)
    _resign(client, table, 1)
    _as(client, ann)
    assert client.get("/api/me").json()["can_chat"] is True
    with client.websocket_connect("/ws/lobby") as ws:
        ws.send_json({"type": "chat", "text": "hello"})
        while (msg := ws.receive_json())["type"] != "chat":
            pass
    assert msg == {"type": "chat", "from": "Ann", "account": True, "text": "hello"}
