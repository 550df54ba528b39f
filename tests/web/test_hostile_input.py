"""Hostile input, in process (Starlette's TestClient): every example of issue 11's "What was
found" list, kept as a test.  Each bad message gets one clear error, the connection stays open
(a following ping gets its pong) and the table is unchanged (seq, hands, discard pile, pending
client seeds, stored steps); bad HTTP bodies answer 4xx, never 500; bodies over the limit are
refused before they are read in full; seats are claimed once with one-time invites and the host
never holds the friend's token.  The same attacks against a real ``gin serve`` process are in
``test_hostile_server.py``."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from ginrummy.web.protocol.inbound import INBOUND_TYPES, MAX_BODY_BYTES, MAX_MESSAGE_DEPTH

from .conftest import new_table, wait_until

HUMAN_VS_BOT = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}]
HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def snapshot(client: Any, table_id: str) -> tuple[Any, ...]:
    """What must not change: the step count, every hand, the discard pile, the phase, the
    pending client seeds and the number of stored steps."""
    tobj = client.app.state.manager.tables[table_id]
    m = tobj.match
    deal = None if m is None else (tuple(m.deal.hands), tuple(m.deal.pile), m.deal.phase, m.deal.drawn)
    _, steps = client.app.state.store.load(table_id)
    return tobj.seq, deal, dict(tobj.pending_seeds), len(steps)


def settled(client: Any, table_id: str) -> None:
    """Wait (bounded) until the computer has moved and the person (player 0) is to act: the
    computer moves at once, but on the server's own loop, so a snapshot taken too early would
    see its move as a change.  The deal may be over instead (the table's seed is random: the
    computer, acting first, may take the upcard and knock at once, R4.2, R5.1): the table then
    waits for the person's next deal, and nothing changes either."""
    tables = client.app.state.manager.tables

    def done() -> bool:
        tobj = tables[table_id]  # read afresh each time: the manager may have replaced the table object
        return (
            tobj.match is not None
            and (tobj.match.player_to_act() == 0 or tobj.match.deal.is_over)
            and (tobj.bot_task is None or tobj.bot_task.done())
        )

    wait_until(done, "the computer did not move")


def connect(client: Any, table: dict[str, Any], i: int = 0):
    return client.websocket_connect(f"/ws/table/{table['id']}?seat={table['seats'][i]['token']}")


def first_state(ws: Any) -> dict[str, Any]:
    msg = ws.receive_json()
    assert msg["type"] == "state", msg
    return msg


def still_open(ws: Any, mid: Any = "alive") -> None:
    """The connection answers a ping with its pong (and nothing else came first)."""
    ws.send_json({"type": "ping", "id": mid})
    assert ws.receive_json() == {"type": "pong", "reply_to": mid}


# -- 1. a WebSocket message can kill its own connection ------------------------------------------

DEEP = "[" * 1020 + "]" * 1020


@pytest.mark.parametrize(
    "raw, code, needle",
    [
        ('{"type": []}', "bad_message", "unknown message type '[]'; types: " + ", ".join(INBOUND_TYPES)),
        ('{"type": {}}', "bad_message", "unknown message type '{}'; types: " + ", ".join(INBOUND_TYPES)),
        # no type at all: said as such, not as the type None
        ('{"action": "pass"}', "bad_message", 'a message needs "type": one of ' + ", ".join(INBOUND_TYPES)),
        (DEEP, "bad_json", f"JSON nested more than {MAX_MESSAGE_DEPTH} levels deep is refused"),
        ('{"type": "ping", "id": [' + "[" * 500 + "]" * 500 + "]}", "bad_json", "nested more than"),
        ('{"type": "action", "action": "' + "\\ud800" + '"}', "bad_message", 'an action message needs "action"'),
        # a key given twice: refused, not the last value taken (the move would be a guess)
        ('{"type": "action", "action": "pass", "action": "take upcard"}', "bad_json", "action: is given twice"),
        ('{"type": "chat", "text": "hi", "id": 1, "id": 2}', "bad_json", "id: is given twice"),
    ],
)
def test_bad_websocket_message_one_error_connection_open_table_unchanged(client, raw, code, needle):
    assert len(DEEP.encode()) == 2040
    t = new_table(client, HUMAN_VS_BOT)
    with connect(client, t) as ws:
        first_state(ws)
        settled(client, t["id"])
        ws.send_json({"type": "ping"})
        while ws.receive_json()["type"] != "pong":
            pass  # the states the computer's move sent are read
        before = snapshot(client, t["id"])
        ws.send_text(raw)
        err = ws.receive_json()
        assert err["type"] == "error", err
        assert err["code"] == code
        assert needle in err["message"]
        still_open(ws)
        assert snapshot(client, t["id"]) == before


def test_the_same_bad_messages_as_binary_frames_and_in_greek(client):
    t = new_table(client, HUMAN_VS_BOT)
    with client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}&lang=el") as ws:
        first_state(ws)
        settled(client, t["id"])
        ws.send_json({"type": "ping"})
        while ws.receive_json()["type"] != "pong":
            pass  # the states the computer's move sent are read
        before = snapshot(client, t["id"])
        for raw in (b'{"type": []}', b'{"type": {}}', DEEP.encode(), b"\xff\xfe\x00", b"", b"\xc3"):
            ws.send_bytes(raw)
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] in ("bad_json", "bad_message"), (raw, err)
            assert err["message"] and not err["message"].isascii(), err  # said in Greek
        still_open(ws, 1)
        assert snapshot(client, t["id"]) == before


# -- 2. HTTP answers 500 ----------------------------------------------------------------------

DEEP_BODY = "[" * 4000 + "]" * 4000


@pytest.mark.parametrize("path", ["/api/tables", "/api/sheet", "/api/tables/abc123/claim"])
def test_deep_body_is_400_not_500(client, path):
    r = client.post(path, content=DEEP_BODY, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert "nested more than 4 levels" in r.json()["error"]


@pytest.mark.parametrize(
    "path, body, field",
    [
        (
            "/api/tables",
            '{"preset": "nope", "preset": "standard", "seats": [{"kind": "human"}, {"kind": "bot", "level": "novice"}]}',
            "preset",
        ),
        ("/api/sheet", '{"names": ["Ann", "Bob"], "results": ["Ann:10"], "results": ["Bob:99"]}', "results"),
        ("/api/tables", '{"preset": "standard", "rules": {"target": 50, "target": 500}, "seats": []}', "target"),
    ],
)
def test_a_body_that_names_a_field_twice_is_400_naming_it(client, path, body, field):
    before = len(client.app.state.manager.tables)
    r = client.post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json() == {"error": f"{field}: is given twice", "code": "bad_json"}
    assert len(client.app.state.manager.tables) == before  # no table was opened


def test_sheet_result_with_5000_nines_is_400(client):
    r = client.post("/api/sheet", json={"names": ["Ann", "Bob"], "results": ["a:" + "9" * 5000]})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "results must be a list (at most 500) of NAME:POINTS or draw"
    # within the length limit, a number of 50 digits: a clear refusal naming it, in every language
    for lang in ("en", "el", "fi", "mt", "fr", "es", "de"):
        r = client.post(f"/api/sheet?lang={lang}", json={"names": ["Ann", "Bob"], "results": ["Ann:" + "9" * 50]})
        assert r.status_code == 400, r.text
        assert "9" * 50 in r.json()["error"]


def test_record_with_a_non_ascii_seat_is_403(client):
    t = new_table(client, HUMAN_VS_BOT)
    r = client.get(f"/api/tables/{t['id']}/record?seat=%C3%A9")
    assert r.status_code == 403
    assert r.json()["code"] == "bad_token"
    assert client.get(f"/api/tables/{t['id']}/record?seat={t['seats'][0]['token']}").status_code == 200


def test_websocket_with_a_non_ascii_seat_is_refused_4403(client):
    t = new_table(client, HUMAN_VS_BOT)
    settled(client, t["id"])
    before = snapshot(client, t["id"])
    with client.websocket_connect(f"/ws/table/{t['id']}?seat=%C3%A9%C3%A9") as ws:
        err = ws.receive_json()
        assert err["type"] == "error" and err["code"] == "bad_token"
        assert err["message"] == "this link's seat token is not valid for this table"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4403
    assert snapshot(client, t["id"]) == before


# -- 3. the body limit comes too late ----------------------------------------------------------


def test_body_over_the_limit_by_content_length_is_413_before_reading(client):
    for path in ("/api/tables", "/api/sheet", "/api/tables/abc123/claim"):
        r = client.post(path, content=b" " * (MAX_BODY_BYTES + 1))
        assert r.status_code == 413, r.text
        assert r.json() == {
            "error": f"request body too large; the limit is {MAX_BODY_BYTES} bytes",
            "code": "too_large",
        }
    # exactly at the limit the body is read (and refused for what it says, not for its size)
    r = client.post("/api/sheet", content=b" " * MAX_BODY_BYTES, headers={"content-type": "application/json"})
    assert r.status_code == 400


def _asgi_post(app: Any, path: str, chunks: int, chunk: bytes) -> tuple[int, bytes, int]:
    """POST ``chunks`` chunks of ``chunk`` to the ASGI ``app`` without a Content-Length (as a
    chunked body arrives): ``(status, body, chunks the app read)``."""
    read = 0
    out: dict[str, Any] = {"body": b""}

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read >= chunks:
            return {"type": "http.disconnect"}
        read += 1
        return {"type": "http.request", "body": chunk, "more_body": read < chunks}

    async def send(msg: dict[str, Any]) -> None:
        if msg["type"] == "http.response.start":
            out["status"] = msg["status"]
        elif msg["type"] == "http.response.body":
            out["body"] += msg.get("body", b"")

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/json"),
            (b"transfer-encoding", b"chunked"),
        ],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
        "state": {},
    }
    asyncio.run(app(scope, receive, send))
    return out["status"], out["body"], read


@pytest.mark.parametrize("path", ["/api/tables", "/api/sheet", "/api/tables/abc123/claim"])
def test_chunked_body_over_the_limit_is_413_and_not_read_to_the_end(client, path):
    # 2,000 chunks of 1 KiB (2 MB if it were all read): refused once 8 KiB + 1 byte are in
    status, body, read = _asgi_post(client.app, path, 2_000, b" " * 1024)
    assert status == 413, body
    assert json.loads(body) == {
        "error": f"request body too large; the limit is {MAX_BODY_BYTES} bytes",
        "code": "too_large",
    }
    assert read == MAX_BODY_BYTES // 1024 + 1
    # the same body under the limit is read to its end and judged for what it says
    status, body, read = _asgi_post(client.app, path, 8, b" " * 1024)
    assert status in (400, 404) and read == 8, body


# -- 4. a seat can be borrowed ---------------------------------------------------------------


def test_claim_link_flow(client):
    r = client.post("/api/tables", json={"preset": "standard", "seats": HUMANS})
    assert r.status_code == 201
    created = r.json()
    host, friend = created["seats"]
    assert set(host) == {"name", "kind", "token", "link"}
    assert host["link"].endswith(f"/table/{created['id']}?seat={host['token']}")
    assert set(friend) == {"name", "kind", "invite"}  # no token for the friend's seat
    code = friend["invite"].split("invite=", 1)[1]
    claim = f"/api/tables/{created['id']}/claim"

    # the host watches the table while the friend claims and plays
    with connect(client, {"id": created["id"], "seats": [host]}) as host_ws:
        seen: list[dict[str, Any]] = [host_ws.receive_json()]
        assert client.post(claim, json={"invite": "not-the-code"}).status_code == 403
        assert client.post(claim, json={"invite": code + "x"}).json()["code"] == "bad_invite"
        assert client.post("/api/tables/ffffffffffff/claim", json={"invite": code}).status_code == 404
        r = client.post(claim, json={"invite": code})
        assert r.status_code == 200, r.text
        token = r.json()["token"]
        assert r.json()["seat"] == 1 and r.json()["name"] == "Bob"
        assert token and token != host["token"] and token != code
        again = client.post(claim, json={"invite": code})
        assert again.status_code == 409 and again.json()["code"] == "claimed"
        seen.append(host_ws.receive_json())  # the claim's broadcast
        # both people send their client seeds; the first deal is dealt; the friend connects
        table = {"id": created["id"], "seats": [host, {"kind": "human", "token": token}]}
        host_ws.send_json({"type": "client_seed", "deal": 1, "seed": "hostseed"})
        with connect(client, table, 1) as friend_ws:
            friend_ws.receive_json()
            friend_ws.send_json({"type": "client_seed", "deal": 1, "seed": "friendseed", "id": "s"})
            while friend_ws.receive_json().get("reply_to") != "s":
                pass
            host_ws.send_json({"type": "sync", "id": "end"})
            while (msg := host_ws.receive_json()).get("reply_to") != "end":
                seen.append(msg)
            seen.append(msg)
        assert msg["started"] is True
    everything = json.dumps(created) + json.dumps(seen)
    assert token not in everything  # the friend's token never reached the host
    assert host["token"] not in json.dumps(seen)  # nor his own, in any message
    # the friend's new token works; the dead invite does not open a seat
    with connect(client, table, 1) as ws:
        assert first_state(ws)["you"] == 1
    with client.websocket_connect(f"/ws/table/{created['id']}?seat={code}") as ws:
        assert ws.receive_json()["code"] == "bad_token"


def test_every_http_error_names_its_kind_in_code(client):
    """A rule out of range and a paging value out of range used to answer without a ``code``."""
    r = client.post(
        "/api/tables",
        json={
            "preset": "standard",
            "rules": {"knock_limit": -3},
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}],
        },
    )
    assert (r.status_code, r.json()) == (
        400,
        {"error": "rule knock_limit=-3 is out of range; allowed: 0..10", "code": "bad_request"},
    )
    r = client.get("/api/leaderboard?limit=-1")
    assert r.status_code == 400 and r.json()["code"] == "bad_request" and "limit" in r.json()["error"]


def test_names_and_chat_lose_control_and_direction_characters(client):
    """A NUL, a right-to-left override (which would turn the text after it around in every list
    and chat line) or a zero-width space is left out of a seat name and a chat line; a name of
    nothing else gets the default name; markup stays as typed (it is only ever shown as text)."""
    r = client.post(
        "/api/tables",
        json={
            "preset": "standard",
            "seats": [{"kind": "human", "name": "\u0000\u202eBob\u200b"}, {"kind": "human", "name": "\u202e\u2066"}],
        },
    )
    assert r.status_code == 201, r.text
    t = r.json()
    assert [s["name"] for s in t["seats"]] == ["Bob", "Player 2"]
    with connect(client, t) as ws:
        first_state(ws)
        ws.send_json({"type": "chat", "text": "<b>hi</b>\u202e olleh\u0007"})
        while (msg := ws.receive_json())["type"] != "chat":
            pass
        assert (msg["from"], msg["text"]) == ("Bob", "<b>hi</b> olleh")
        ws.send_json({"type": "chat", "text": "\u202e\u200b", "id": 7})
        while (err := ws.receive_json())["type"] != "error":
            pass
        assert err["code"] == "bad_message" and err["reply_to"] == 7


TWO = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}]


@pytest.mark.parametrize(
    "body, error",
    [
        ({"rules": {"stock_end": "x" * 100}, "seats": TWO}, "rules.stock_end: is too long; allowed: at most 40 characters"),
        ({"rules": {"k" * 100: 1}, "seats": TWO}, "rules (a field name): is too long; allowed: at most 40 characters"),
        (
            {"rules": {"target": 10**23}, "seats": TWO},
            "rules.target: is out of range; allowed: at most 999999999999999999",
        ),
        (
            {"rules": {"players": 2}, "seats": TWO + [{"kind": "bot", "level": "novice"}]},
            "rules.players is 2, but the table has 3 seats",
        ),
        ({"rules": {"players": 3}, "seats": TWO}, "rules.players is 3, but the table has 2 seats"),
    ],
)
def test_a_table_body_error_names_the_field_and_what_is_allowed(client, body, error):
    r = client.post("/api/tables", json=body)
    assert (r.status_code, r.json()) == (400, {"error": error, "code": "bad_message"})


def test_a_computer_seat_without_a_level_is_told_the_levels(client):
    r = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]})
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith("seat 2: a computer seat needs a level; levels: random, novice, club, expert")


def test_sitting_in_a_seat_that_is_no_persons_names_the_free_seats(client):
    t = client.post(
        "/api/tables",
        json={"public": True, "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]},
    ).json()
    for seat, code in ((2, 403), (0, 409)):
        r = client.post(f"/api/tables/{t['id']}/sit", json={"seat": seat, "name": "Cy"})
        assert r.status_code == code, r.text
    assert (
        client.post(f"/api/tables/{t['id']}/sit", json={"seat": 2}).json()["error"]
        == '"seat": 2 is not a person\'s seat at this table; free seats: 1'
    )


def test_a_lobby_chat_line_without_a_proper_name_says_so(client):
    with client.websocket_connect("/ws/lobby") as ws:
        for msg in ({"type": "chat", "text": "hi", "name": "   "}, {"type": "chat", "text": "hi", "name": "x" * 25}):
            ws.send_json(msg)
            while (err := ws.receive_json())["type"] != "error":
                pass
            assert err["message"] == 'a lobby chat message needs "name": your name, 1 to 24 characters, not only spaces'
        ws.send_json({"type": "chat", "text": "hi"})  # a guest must give one (a signed-in person need not)
        while (err := ws.receive_json())["type"] != "error":
            pass
        assert (err["code"], err["message"]) == (
            "bad_message",
            'a guest\'s lobby chat message needs "name": your name, '
            "1 to 24 characters, not only spaces (signed in, you chat under your "
            "account's name and need none)",
        )
        ws.send_json({"type": "chat", "text": "", "name": "Ann"})
        while (err := ws.receive_json())["type"] != "error":
            pass
        assert err["message"] == 'a chat message needs "text": a non-empty string'


def test_a_method_an_api_path_does_not_take_is_405_json_naming_the_allowed_ones(client):
    for lang, needle in (("en", "method GET is not allowed here; allowed: POST"), ("el", "POST")):
        r = client.get(f"/api/tables?lang={lang}")
        assert r.status_code == 405 and r.headers["allow"] == "POST"
        assert r.json()["code"] == "method_not_allowed" and needle in r.json()["error"]
    assert client.get("/api/tables?lang=el").json()["error"] != "method GET is not allowed here; allowed: POST"


@pytest.mark.parametrize(
    "path, needle",
    [
        ("/api/tables", "the body must be a JSON object: seats must be a list of 2 or 3"),
        ("/api/sheet", "the body must be a JSON object: "),
        ("/api/tables/abc123/claim", "the body must be a JSON object: "),
    ],
)
def test_a_body_that_is_not_an_object_says_so(client, path, needle):
    for body in ("[1, 2, 3]", '"seats"', "7"):
        r = client.post(path, content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (path, body)
        assert r.json()["code"] == "bad_message"
        assert r.json()["error"].startswith(needle), r.json()


def test_the_scorekeeper_refuses_names_that_differ_only_in_case(client):
    before = client.post("/api/sheet", json={"names": ["Ann", "Bob"], "results": ["ann:10"]})
    assert before.status_code == 200 and before.json()["totals"] == {"Ann": 10, "Bob": 0}  # matched ignoring case
    r = client.post("/api/sheet", json={"names": ["A", "a"], "results": ["A:10"]})
    assert r.status_code == 400
    assert r.json() == {"error": "names: the names must differ (ignoring case)", "code": "bad_message"}
    r = client.post("/api/sheet", json={"names": ["Ann", "Bob", " ann "], "results": []})
    assert r.json()["error"] == "names: the names must differ (ignoring case)"
