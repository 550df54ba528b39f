"""Property tests (Hypothesis) of issue 11's rule "bad input never crashes anything and never
changes state": arbitrary JSON values, near-valid messages with fields of any type, text and
bytes of any kind, deep nesting and oversized frames, sent over the WebSocket (Starlette's
TestClient) and to every POST endpoint, find no 500, no ``internal`` error, no connection
closed, the lobby's included (each message is followed by a ping that must get its pong) and no change to the table
(seq, hands, discard pile, stock position, pending client seeds, stored steps).

Derandomized (the same examples on every run) and kept to a modest number of examples; the
million-message version against a real server is ``benchmarks/fuzz.py``."""

from __future__ import annotations

import json
import warnings
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ginrummy.web.app import create_app
from ginrummy.web.protocol.inbound import INBOUND_TYPES

from .conftest import new_table, with_csrf
from .test_hostile_input import snapshot

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
SETTINGS = dict(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# -- what is sent ---------------------------------------------------------------------------

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40)
)
json_values = st.recursive(
    scalars,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=12), kids, max_size=4),
    max_leaves=12,
)
FIELDS = ("id", "action", "deal", "seed", "text", "lang", "type", "extra")
near_valid = st.fixed_dictionaries(
    {"type": st.sampled_from(INBOUND_TYPES) | json_values},
    optional={
        k: (
            json_values
            | st.sampled_from(
                [
                    "discard 7H",
                    "draw stock",
                    "pass",
                    "knock 2C",
                    "el",
                    "x" * 65,
                    "9" * 5000,
                    1,
                    2,
                    10**19,
                    -1,
                    "take upcard",
                ]
            )
        )
        for k in FIELDS
        if k != "type"
    },
)


def _deep(n: int) -> str:
    return "[" * n + "]" * n


frames = st.one_of(
    json_values.map(json.dumps),
    near_valid.map(json.dumps),
    st.text(max_size=300),
    st.integers(min_value=1, max_value=5000).map(_deep),
    st.integers(min_value=1, max_value=5000).map(lambda n: '{"type": ' + _deep(n) + "}"),
    st.binary(max_size=300),
    st.text(min_size=1, max_size=3).map(lambda s: s * 1500),  # over the 2,048-byte limit, mostly
    near_valid.map(lambda d: json.dumps(d).encode("utf-16")),  # not UTF-8
)

# a reply to a bad (or well-formed but refused) message may be one of these, never "internal"
ERROR_CODES = {"too_large", "bad_json", "bad_message", "illegal", "not_your_turn", "not_allowed"}
REPLY_TYPES = {"error", "state", "pong", "lang", "hint", "chat"}


@pytest.fixture
def fuzz_client(tmp_path: Any):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(f"sqlite:///{tmp_path / 'fuzz.sqlite3'}", bot_delay=0)
        with TestClient(app) as c:
            yield with_csrf(c)  # as the pages do (docs/accounts.md)


def test_websocket_arbitrary_frames_change_nothing_and_never_drop(fuzz_client):
    client = fuzz_client
    t = new_table(client, HUMANS)
    tobj = client.app.state.manager.tables[t["id"]]
    idle = 1 - tobj.match.player_to_act()  # every well-formed action of the idle seat is refused
    before = snapshot(client, t["id"])
    count = {"n": 0}
    with client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][idle]['token']}") as ws:
        assert ws.receive_json()["type"] == "state"

        @settings(max_examples=300, **SETTINGS)
        @given(frames)
        @example('{"type": []}')
        @example('{"type": {}}')
        @example(_deep(1020))
        @example(b"\xff" * 3000)
        @example('{"type": "client_seed", "deal": 1, "seed": "abc"}')
        @example('{"type": "action", "action": "draw stock", "id": 99999999999999999999}')
        def one(raw: str | bytes) -> None:
            count["n"] += 1
            if isinstance(raw, bytes):
                ws.send_bytes(raw)
            else:
                ws.send_text(raw)
            mid = f"p{count['n']}"
            ws.send_json({"type": "ping", "id": mid})
            try:
                for _ in range(5):
                    msg = ws.receive_json()
                    assert msg["type"] in REPLY_TYPES, msg
                    if msg["type"] == "error":
                        assert msg["code"] in ERROR_CODES, msg
                        assert isinstance(msg["message"], str) and msg["message"], msg
                    if msg == {"type": "pong", "reply_to": mid}:
                        break
                else:
                    raise AssertionError("no pong")
            except WebSocketDisconnect as exc:  # pragma: no cover - the failure being looked for
                raise AssertionError(f"connection closed ({exc.code}) after {raw!r:.80}") from None
            assert snapshot(client, t["id"]) == before

        one()
    assert count["n"] >= 300
    assert snapshot(client, t["id"]) == before


ENDPOINTS = (
    "/api/tables",
    "/api/sheet",
    "/api/tables/{id}/claim",
    "/api/tables/ffffffffffff/claim",
    "/api/tables/{id}/sit",
)
body_fields = st.fixed_dictionaries(
    {},
    optional={
        k: json_values
        | st.sampled_from(
            [
                [{"kind": "bot", "level": "novice"}, {"kind": "bot", "level": "random"}],
                ["Ann", "Bob"],
                ["Ann:25", "draw", "a:" + "9" * 5000],
                ["Ann:" + "9" * 50],
                "standard",
                "oklahoma",
                {"box_bonus": 10**30},
                {"target": "x"},
            ]
        )
        for k in ("preset", "rules", "seats", "names", "results", "invite", "seat", "name", "extra")
    },
)
bodies = st.one_of(
    json_values.map(lambda v: json.dumps(v).encode()),
    body_fields.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=400),
    st.integers(min_value=1, max_value=8000).map(lambda n: _deep(n // 2).encode()),
    st.just(b" " * 9000),
)


def test_every_post_endpoint_answers_4xx_never_500_and_changes_nothing(fuzz_client):
    client = fuzz_client
    t = new_table(client, HUMANS)
    before = snapshot(client, t["id"])
    seen: set[int] = set()

    @settings(max_examples=200, **SETTINGS)
    @given(st.sampled_from(ENDPOINTS), bodies, st.sampled_from(["application/json", "text/plain", "", "\u00e9"]))
    @example("/api/tables", b"[" * 4000 + b"]" * 4000, "application/json")
    @example("/api/sheet", json.dumps({"names": ["a", "b"], "results": ["a:" + "9" * 5000]}).encode(), "")
    def one(path: str, body: bytes, ctype: str) -> None:
        headers = {"content-type": ctype.encode("utf-8")} if ctype else {}
        r = client.post(path.format(id=t["id"]), content=body, headers=headers)
        seen.add(r.status_code)
        assert r.status_code in (200, 201, 400, 403, 404, 409, 413, 415), (r.status_code, r.text)
        if r.status_code >= 400:
            assert isinstance(r.json()["error"], str) and r.json()["error"]
        assert snapshot(client, t["id"]) == before

    one()
    assert {400, 413} <= seen
    assert snapshot(client, t["id"]) == before


def test_lobby_websocket_arbitrary_frames_never_drop(fuzz_client):
    client = fuzz_client
    count = {"n": 0}
    with client.websocket_connect("/ws/lobby") as ws:
        assert ws.receive_json()["type"] == "lobby"

        @settings(max_examples=150, **SETTINGS)
        @given(frames)
        @example('{"type": []}')
        @example(_deep(1020))
        def one(raw: str | bytes) -> None:
            count["n"] += 1
            if isinstance(raw, bytes):
                ws.send_bytes(raw)
            else:
                ws.send_text(raw)
            mid = f"p{count['n']}"
            ws.send_json({"type": "ping", "id": mid})
            try:
                for _ in range(5):
                    msg = ws.receive_json()
                    assert msg["type"] in {"error", "pong", "chat", "lobby"}, msg
                    if msg["type"] == "error":
                        assert msg["code"] in ERROR_CODES, msg
                    if msg == {"type": "pong", "reply_to": mid}:
                        break
                else:
                    raise AssertionError("no pong")
            except WebSocketDisconnect as exc:  # pragma: no cover - the failure being looked for
                raise AssertionError(f"lobby connection closed ({exc.code}) after {raw!r:.80}") from None

        one()
    assert count["n"] >= 150


def test_arbitrary_seat_texts_are_refused_on_record_and_websocket(fuzz_client):
    client = fuzz_client
    t = new_table(client, HUMANS)
    before = snapshot(client, t["id"])

    @settings(max_examples=60, **SETTINGS)
    @given(st.text(min_size=1, max_size=300))
    @example("\u00e9")
    @example("\u00e9\u00e9")
    @example("\x00")
    def one(seat: str) -> None:
        q = quote(seat.encode("utf-8", "surrogatepass"), safe="")
        r = client.get(f"/api/tables/{t['id']}/record?seat={q}")
        assert r.status_code == 403, r.text
        with client.websocket_connect(f"/ws/table/{t['id']}?seat={q}") as ws:
            assert ws.receive_json()["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403

    one()
    assert snapshot(client, t["id"]) == before
