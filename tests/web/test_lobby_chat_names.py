"""Who speaks in the lobby chat (docs/protocol.md, "Chat"): a signed-in person posts under his
account's name, whatever name his message gives (``"account": true``); a guest posts under the
name he chose, marked ``"guest": true``, and may not choose a computer seat's name or an
account's (compared by ``name_key``: NFKC and case-folded).  A refused line is posted to
nobody and kept nowhere."""

from __future__ import annotations

import pytest

from ginrummy.web.room.tables import is_computer_name

from .conftest import with_csrf


def _may_chat(client) -> None:
    """The account has finished a match (a new one may not chat in the lobby: test_fair_play)."""
    client.app.state.players.fair.may_chat_in_lobby = lambda account_id: True


def _next(ws, kind):
    while (msg := ws.receive_json())["type"] != kind:
        pass
    return msg


def test_a_signed_in_person_posts_under_his_account_name(client):
    r = client.post("/api/account", json={"name": "Ann", "password": "correct horse"})
    assert r.status_code == 201, r.text
    _may_chat(client)
    with client.websocket_connect("/ws/lobby") as ws:
        ws.send_json({"type": "chat", "name": "Computer (novice)", "text": "hello"})
        assert _next(ws, "chat") == {"type": "chat", "from": "Ann", "account": True, "text": "hello"}
    assert client.get("/api/lobby").json()["chat"] == [
        {"type": "chat", "from": "Ann", "account": True, "text": "hello"}
    ]


def test_another_sites_page_does_not_chat_under_the_account(client):
    """The session cookie counts only for a connection from the server's own pages."""
    client.post("/api/account", json={"name": "Ann", "password": "correct horse"})
    with client.websocket_connect("/ws/lobby", headers={"origin": "https://evil.example"}) as ws:
        ws.send_json({"type": "chat", "name": "Zed", "text": "hi"})
        assert _next(ws, "chat") == {"type": "chat", "from": "Zed", "guest": True, "text": "hi"}


@pytest.mark.parametrize("name", ["Computer (novice)", "computer (EXPERT)", "Ｃｏｍｐｕｔｅｒ (novice) 2"])
def test_a_guest_may_not_chat_under_a_computer_seats_name(client, name):
    assert is_computer_name(name)
    with client.websocket_connect("/ws/lobby") as ws:
        _next(ws, "lobby")
        ws.send_json({"type": "chat", "name": name, "text": "I am the computer"})
        err = _next(ws, "error")
        assert err["code"] == "bad_request"
        assert err["message"] == (
            f"the name {name} is a computer seat's; a guest may chat under any other name "
            "(or sign in to chat under your account's)"
        )
    assert client.get("/api/lobby").json()["chat"] == []


def test_a_guest_may_not_chat_under_an_accounts_name(client, db_url):
    from starlette.testclient import TestClient

    r = client.post("/api/account", json={"name": "Ann", "password": "correct horse"})
    assert r.status_code == 201, r.text
    with TestClient(client.app) as guest:  # no session cookie: a guest
        with_csrf(guest)
        with guest.websocket_connect("/ws/lobby") as ws:
            _next(ws, "lobby")
            for name in ("Ann", "ANN", "Ａｎｎ", "  ann "):
                ws.send_json({"type": "chat", "name": name, "text": "it is me"})
                err = _next(ws, "error")
                assert err["code"] == "bad_request"
                assert err["message"] == (
                    f"the name {' '.join(name.split())} is an account's; a guest may chat "
                    "under any other name (or sign in to chat under your account's)"
                )
            ws.send_json({"type": "chat", "name": "Annie", "text": "hi"})
            assert _next(ws, "chat") == {"type": "chat", "from": "Annie", "guest": True, "text": "hi"}
    assert client.get("/api/lobby").json()["chat"] == [{"type": "chat", "from": "Annie", "guest": True, "text": "hi"}]


def test_the_lobby_page_marks_a_guests_line_as_text():
    """open-tables.js (the lobby's chat) shows "(guest)" after a guest's name, with t() (the web
    catalog's msgid "(guest)") and as text, never as markup."""
    from ginrummy.web.app import STATIC_DIR

    js = (STATIC_DIR / "open-tables.js").read_text(encoding="utf-8")
    assert 'msg.guest && !plain ? el("span", { class: "hint" }, " ", t("(guest)"), ": ")' in js
    assert "innerHTML" not in js


@pytest.mark.parametrize("name", ["System", "SYSTEM", "Ｓｙｓｔｅｍ", "  system "])
def test_a_guest_may_not_chat_as_system(client, name):
    """ "System" is reserved (accounts.is_reserved_name, compared by name_key): a guest's line
    under it would pass for the server's own.  The refusal says so; nothing is posted."""
    from ginrummy.web.community.accounts import is_reserved_name

    assert is_reserved_name(name)
    with client.websocket_connect("/ws/lobby") as ws:
        _next(ws, "lobby")
        ws.send_json({"type": "chat", "name": name, "text": "server restarts now"})
        err = _next(ws, "error")
        assert err == {
            "type": "error",
            "code": "bad_request",
            "message": f"the name {name.strip()} is reserved; a guest may chat under any other name "
            "(or sign in to chat under your account's)",
        }
        ws.send_json({"type": "chat", "name": "Systematic", "text": "hi"})
        assert _next(ws, "chat") == {"type": "chat", "from": "Systematic", "guest": True, "text": "hi"}
    assert client.get("/api/lobby").json()["chat"] == [
        {"type": "chat", "from": "Systematic", "guest": True, "text": "hi"}
    ]


def test_a_signed_in_person_need_not_send_a_name_but_a_guest_must(client):
    """docs/protocol.md, "Chat": the server takes a signed-in person's name from his account, so
    his lobby line may leave "name" out (or send null); a guest's may not, and is refused saying
    so, posted nowhere.  A name a signed-in person does send is still checked."""
    from starlette.testclient import TestClient

    r = client.post("/api/account", json={"name": "Ann", "password": "correct horse"})
    assert r.status_code == 201, r.text
    ann = {"type": "chat", "from": "Ann", "account": True, "text": "hello"}
    _may_chat(client)
    with client.websocket_connect("/ws/lobby") as ws:
        _next(ws, "lobby")
        ws.send_json({"type": "chat", "text": "hello"})
        assert _next(ws, "chat") == ann
        ws.send_json({"type": "chat", "name": None, "text": "hello"})
        assert _next(ws, "chat") == ann
        ws.send_json({"type": "chat", "name": "x" * 25, "text": "hello", "id": 3})
        assert _next(ws, "error") == {
            "type": "error",
            "code": "bad_message",
            "reply_to": 3,
            "message": 'a lobby chat message needs "name": your name, 1 to 24 characters, not only spaces',
        }
    with TestClient(client.app) as guest:
        with_csrf(guest)
        with guest.websocket_connect("/ws/lobby") as ws:
            _next(ws, "lobby")
            for msg in ({"type": "chat", "text": "hi"}, {"type": "chat", "name": None, "text": "hi"}):
                ws.send_json(msg)
                assert _next(ws, "error") == {
                    "type": "error",
                    "code": "bad_message",
                    "message": 'a guest\'s lobby chat message needs "name": your name, 1 to 24 characters, not only '
                    "spaces (signed in, you chat under your account's name and need none)",
                }
    assert client.get("/api/lobby").json()["chat"] == [ann, ann]
