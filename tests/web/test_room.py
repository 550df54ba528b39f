"""The card room (docs/protocol.md, "The card room"): open tables in the lobby, a seat taken
with one click, spectators who see only what is public (the wire scan), chat, rematch with the
first dealer by R11.2."""

from __future__ import annotations

import json
from typing import Any

from ginrummy.cards import card_str, cards_of
from ginrummy.web.limits import ChatLimiter

from .conftest import cards_in, next_message, next_not_state, send_client_seeds

ANN_VS_FREE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": ""}]


def _open(client, seats, **extra) -> dict[str, Any]:
    r = client.post("/api/tables", json={"preset": "standard", "seats": seats, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def _hidden_from_spectators(tobj) -> set[str]:
    """Cards no spectator may see: the stock and every card of a hand that was never face up."""
    d = tobj.match.deal
    if d.is_over:
        return set()
    public = set(d.pile) | {d.upcard}
    for e in d.log:
        if e.kind in ("take_discard", "take_upcard", "discard") and e.card is not None:
            public.add(e.card)
    hidden = set(d.stock[d.drawn :]) | set(cards_of(d.hands[0])) | set(cards_of(d.hands[1]))
    return {card_str(c) for c in hidden - public}


def test_a_public_table_is_listed_and_a_free_seat_is_taken_with_one_click(client):
    t = _open(client, ANN_VS_FREE, public=True)
    with client.websocket_connect("/ws/lobby") as lobby:
        first = lobby.receive_json()
        assert first["type"] == "lobby"
        entry = next(e for e in first["tables"] if e["id"] == t["id"])
        assert [s["free"] for s in entry["seats"]] == [False, True] and not entry["started"]
        r = client.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "Zoë <b>"})
        assert r.status_code == 200, r.text
        sat = r.json()
        assert sat["name"] == "Zoë <b>" and sat["token"] and sat["link"].endswith(sat["token"])
        update = lobby.receive_json()  # the lobby is told at once
        assert update["type"] == "lobby"
        entry = next(e for e in update["tables"] if e["id"] == t["id"])
        assert [s["free"] for s in entry["seats"]] == [False, False] and entry["seats"][1]["name"] == "Zoë <b>"
    again = client.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "Yan"})
    assert again.status_code == 409 and again.json()["code"] == "claimed"
    host = client.post(f"/api/tables/{t['id']}/sit", json={"seat": 0, "name": "Yan"})
    assert host.status_code == 409
    # the seat is a real seat: its token opens it, and the deal comes once both seeds are in
    t["seats"][1]["token"] = sat["token"]
    send_client_seeds(client, t)
    tobj = client.app.state.manager.tables[t["id"]]
    assert tobj.match is not None and tobj.names == ["Ann", "Zoë <b>"]


def test_private_tables_are_not_listed_watched_or_sat_at(client):
    t = _open(client, ANN_VS_FREE)
    assert all(e["id"] != t["id"] for e in client.get("/api/lobby").json()["tables"])
    r = client.post(f"/api/tables/{t['id']}/sit", json={"seat": 1})
    assert r.status_code == 403
    with client.websocket_connect(f"/ws/table/{t['id']}?watch=1") as ws:
        assert ws.receive_json()["code"] == "not_allowed"
    for bad in ({"seat": "1"}, {"seat": 1, "name": "x" * 300}, {"seat": 1, "extra": 1}):
        assert client.post(f"/api/tables/{t['id']}/sit", json=bad).status_code == 400, bad
    # a seat the table lacks: which seats exist depends on the table, and this one is private
    assert client.post(f"/api/tables/{t['id']}/sit", json={"seat": 5}).status_code == 403


def test_a_spectator_sees_no_hidden_card_and_the_players_see_how_many_watch(client):
    t = _open(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}], public=True)
    send_client_seeds(client, t)
    tobj = client.app.state.manager.tables[t["id"]]
    seen: list[dict[str, Any]] = []
    with (
        client.websocket_connect(f"/ws/table/{t['id']}?watch=1") as spec,
        client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ann,
    ):
        st = spec.receive_json()
        seen.append(st)
        assert st["you"] is None and st["view"]["hand"] == [] and st["view"]["legal_actions"] == []
        assert st["arrangement"] is None and not st["record_available"]
        assert sum(st["view"]["hand_counts"]) in (20, 21)
        mine = ann.receive_json()
        assert mine["watchers"] == 1
        # Ann's connection is news to everyone (and the computer may move meanwhile): the
        # spectator's states are scanned too
        spec.send_json({"type": "action", "action": "draw stock", "id": 1})
        err = next_message(spec, lambda m: seen.append(m) or m["type"] != "state")
        assert err["code"] == "not_allowed" and err["reply_to"] == 1
        # Ann plays the deal out (acting once per new state); the spectator's every message is
        # scanned, and it follows the table step by step
        acted = -1
        for _ in range(400):
            if tobj.match.deal.is_over:
                break
            if mine["type"] == "state" and mine["your_turn"] and mine["seq"] > acted:
                legal = mine["view"]["legal_actions"]
                move = next((a for a in legal if a.startswith(("gin", "knock"))), None) or (
                    "draw stock" if "draw stock" in legal else ("pass" if "pass" in legal else legal[0])
                )
                ann.send_json({"type": "action", "action": move})
                acted = mine["seq"]
            mine = ann.receive_json()
            if mine["type"] != "state":
                continue
            # the spectator's messages up to the same step (a state of it may have come already,
            # read while waiting for the error above: the computer's move can come first)
            spec_seq = max(m["seq"] for m in seen if m.get("type") == "state")
            while spec_seq < mine["seq"]:
                msg = spec.receive_json()
                hidden = _hidden_from_spectators(tobj)
                assert not (cards_in(msg) & hidden), f"a spectator was sent {cards_in(msg) & hidden}"
                seen.append(msg)
                if msg.get("type") == "state":
                    spec_seq = max(spec_seq, msg["seq"])
        assert tobj.match.seed.hex() not in json.dumps(seen)
        assert all(tok["token"] not in json.dumps(seen) for tok in t["seats"] if "token" in tok)


def test_a_spectator_coming_or_going_is_one_count_message_to_the_others_not_a_state(client):
    """Issue 27, item 7: each spectator's arrival and departure sent a fresh state to every
    watcher (O(watchers²) for a popular table); now the newcomer alone gets the state and the
    others one ``watchers`` message with the count, those within ``watchers_interval`` in one."""
    manager = client.app.state.manager
    t = _open(client, ANN_VS_FREE, public=True)  # waiting for its second player: nothing moves
    with client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ann:
        assert ann.receive_json()["watchers"] == 0
        manager.watchers_interval = 0.0
        with client.websocket_connect(f"/ws/table/{t['id']}?watch=1") as spec:
            st = spec.receive_json()
            assert st["type"] == "state" and st["you"] is None
            assert ann.receive_json() == {"type": "watchers", "count": 1, "seq": st["seq"]}
            assert spec.receive_json() == {"type": "watchers", "count": 1, "seq": st["seq"]}
            with client.websocket_connect(f"/ws/table/{t['id']}?watch=1") as other:
                assert other.receive_json()["type"] == "state"
                assert ann.receive_json()["count"] == 2
        ann.send_json({"type": "ping", "id": "p"})
        rest: list[dict[str, Any]] = []
        while len(rest) < 10 and not (
            any(m["type"] == "pong" for m in rest) and any(m.get("count") == 0 for m in rest)
        ):
            rest.append(ann.receive_json())
        assert [m["type"] for m in rest if m["type"] != "watchers"] == ["pong"]  # no state
        assert [m["count"] for m in rest if m["type"] == "watchers"][-1] == 0
        # many arrivals within one interval are one message
        manager.watchers_interval = 0.5
        with (
            client.websocket_connect(f"/ws/table/{t['id']}?watch=1") as a,
            client.websocket_connect(f"/ws/table/{t['id']}?watch=1") as b,
            client.websocket_connect(f"/ws/table/{t['id']}?watch=1") as c,
        ):
            for w in (a, b, c):
                assert w.receive_json()["type"] == "state"
            got = ann.receive_json()
            assert got["type"] == "watchers" and got["count"] in (1, 2, 3)
            while got["count"] != 3:
                got = ann.receive_json()
                assert got["type"] == "watchers"


def test_a_spectator_before_the_first_deal_has_you_null_and_sends_no_seed(client):
    """Before the first deal a spectator's state says ``you`` null too (docs/protocol.md
    "Spectators"; it said -1, which the table page took for a seat and sent a client seed for):
    he sees the deal's commitment and whom it waits for, has no seed of his own, and a client
    seed from him is refused."""
    t = _open(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], public=True)
    with client.websocket_connect(f"/ws/table/{t['id']}?watch=1") as spec:
        st = spec.receive_json()
        assert st["type"] == "state" and st["started"] is False
        assert st["you"] is None and st["record_available"] is False
        pending = st["fair"]["pending"]
        assert pending["deal"] == 1 and pending["yours"] is None and pending["waiting_for"] == ["Ann", "Bob"]
        spec.send_json({"type": "client_seed", "deal": 1, "seed": "abc", "id": 7})
        err = next_not_state(spec)
        assert err["code"] == "not_allowed" and err["reply_to"] == 7


def test_chat_is_text_bounded_rate_limited_and_off_for_spectators_unless_allowed(client, monkeypatch):
    # the rate limit's clock stands still: on a loaded machine the six messages below may take
    # longer than the window, which would let the sixth through
    monkeypatch.setattr(ChatLimiter, "clock", staticmethod(lambda: 1000.0))
    t = _open(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}], public=True)
    send_client_seeds(client, t)
    with (
        client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ann,
        client.websocket_connect(f"/ws/table/{t['id']}?watch=1") as spec,
    ):
        ann.receive_json()
        ann.receive_json()
        spec.receive_json()
        ann.send_json({"type": "chat", "text": "  <img src=x onerror=alert(1)>   hi "})
        msg = next_not_state(ann)
        assert msg == {
            "type": "chat",
            "from": "Ann",
            "spectator": False,
            "text": "<img src=x onerror=alert(1)> hi",
            "seq": msg["seq"],
        }
        spec.send_json({"type": "chat", "text": "hello"})
        assert next_not_state(spec)["code"] == "not_allowed"
        spec.send_json({"type": "sync"})
        assert spec.receive_json()["chat"] == []  # spectators do not read it either
        ann.send_json({"type": "chat", "text": "x" * 201})
        assert next_not_state(ann)["code"] == "bad_message"
        for _ in range(4):
            ann.send_json({"type": "chat", "text": "again"})
            assert next_not_state(ann)["type"] == "chat"
        ann.send_json({"type": "chat", "text": "one too many"})
        err = next_not_state(ann)
        assert err["code"] == "not_allowed" and "5" in err["message"]
    allowed = _open(
        client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}], public=True, spectator_chat=True
    )
    send_client_seeds(client, allowed)
    with client.websocket_connect(f"/ws/table/{allowed['id']}?watch=1") as spec:
        spec.receive_json()
        spec.send_json({"type": "chat", "text": "nice knock"})
        got = next_not_state(spec)
        seq = got.pop("seq")
        assert got == {"type": "chat", "from": None, "spectator": True, "watcher": 1, "text": "nice knock"}
        assert isinstance(seq, int) and seq >= 2
        # a second spectator is told apart by his number (and still named by nobody)
        with client.websocket_connect(f"/ws/table/{allowed['id']}?watch=1") as other:
            other.receive_json()
            other.send_json({"type": "chat", "text": "me too"})
            got = next_not_state(other)
            assert (got["from"], got["spectator"], got["watcher"], got["text"]) == (None, True, 2, "me too")
            got = next_not_state(spec)
            assert (got["watcher"], got["text"]) == (2, "me too")


def test_lobby_chat_and_its_limits(client):
    with client.websocket_connect("/ws/lobby") as a, client.websocket_connect("/ws/lobby") as b:
        a.receive_json()
        b.receive_json()
        a.send_json({"type": "chat", "name": "Ann", "text": "<script>x</script> anyone?"})
        assert b.receive_json() == {"type": "chat", "from": "Ann", "guest": True, "text": "<script>x</script> anyone?"}
        assert a.receive_json()["from"] == "Ann"
        a.send_json({"type": "chat", "text": "no name"})
        assert a.receive_json()["code"] == "bad_message"
        a.send_json({"type": "action", "action": "pass"})
        assert a.receive_json()["code"] == "bad_message"
        a.send_json({"type": []})
        assert a.receive_json()["code"] == "bad_message"
        a.send_json({"type": "ping", "id": 3})
        assert a.receive_json() == {"type": "pong", "reply_to": 3}


def test_rematch_opens_a_new_table_with_the_first_dealer_by_r11_2(client):
    t = _open(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}], rules={"scoring": "deal"})
    send_client_seeds(client, t)
    tobj = client.app.state.manager.tables[t["id"]]
    with client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ann:
        st = ann.receive_json()
        ann.send_json({"type": "rematch", "id": "early"})
        # the match is not over (a state of the computer's move may come first)
        skipped: list[dict[str, Any]] = []
        early = next_message(ann, lambda m: m.get("reply_to") == "early" or skipped.append(m))
        assert early["code"] == "not_allowed"
        st = skipped[-1] if skipped else st  # the latest state: play on from it
        acted: set[int] = set()  # once per step (a step may be sent twice)
        while not st.get("match", {}).get("finished"):
            if st.get("type") == "state" and st["seq"] not in acted:
                pending = st["fair"]["pending"]
                if pending is not None and pending["yours"] is None:  # a drawn deal (R7): the next one
                    ann.send_json({"type": "client_seed", "deal": pending["deal"], "seed": f"ann{pending['deal']}"})
                    acted.add(st["seq"])
                elif st["can_next_deal"]:
                    ann.send_json({"type": "next_deal"})
                    acted.add(st["seq"])
                elif st["your_turn"]:
                    legal = st["view"]["legal_actions"]
                    move = next((a for a in legal if a.startswith(("gin", "knock"))), None) or (
                        "draw stock" if "draw stock" in legal else ("pass" if "pass" in legal else legal[0])
                    )
                    ann.send_json({"type": "action", "action": move})
                    acted.add(st["seq"])
            st = ann.receive_json()
        assert st["rematch"] == {"asked": [], "can_ask": True}
        expected_dealer = tobj.match.next_dealer()
        ann.send_json({"type": "rematch", "id": "r"})
        got = ann.receive_json()
        while got["type"] != "rematch":
            got = ann.receive_json()
        assert got["link"].endswith(got["link"].split("seat=")[1]) and got["id"] != t["id"]
    new = client.app.state.manager.tables[got["id"]]
    assert new.names == tobj.names and new.row.seats == tobj.row.seats and new.row.rules == tobj.row.rules
    token = got["link"].split("seat=")[1]
    send_client_seeds(client, {"id": new.id, "seats": [{"kind": "human", "token": token}, {"kind": "computer"}]})
    assert new.match.deal.dealer == expected_dealer  # R11.2, not R3.1's random choice
    assert new.player_of(token) == 0
    # the new match's record says who dealt first, and verifies
    from ginrummy.record import dumps, verify

    assert f"first-dealer {expected_dealer}" in dumps(new.match) and verify(dumps(new.match, public=True)).ok


def test_an_open_table_whose_host_went_away_leaves_the_lobby(client):
    """An open table stays listed while a person who took a seat is connected, or for
    ``LOBBY_IDLE_SECONDS`` after its last step (its creation here); then it leaves the lobby
    (a stranger who sat there would wait for nobody) and comes back when the host connects.
    Newest first among the tables with a free seat."""
    from ginrummy.web.room.lobby import LOBBY_IDLE_SECONDS

    manager = client.app.state.manager
    older = _open(client, ANN_VS_FREE, public=True)
    t = _open(client, ANN_VS_FREE, public=True)

    def listed() -> list[str]:
        return [e["id"] for e in client.get("/api/lobby").json()["tables"]]

    assert listed()[:2] == [t["id"], older["id"]]  # newest first
    real = manager.now
    try:
        manager.now = lambda: real() + LOBBY_IDLE_SECONDS - 5
        assert t["id"] in listed()
        manager.now = lambda: real() + LOBBY_IDLE_SECONDS + 5
        assert t["id"] not in listed() and older["id"] not in listed()
        with client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ws:
            assert ws.receive_json()["type"] == "state"
            assert t["id"] in listed() and older["id"] not in listed()  # Ann is back at hers
        assert t["id"] not in listed()
    finally:
        manager.now = real
    assert listed()[:2] == [t["id"], older["id"]]


def test_an_unstarted_open_table_says_who_opened_it_and_leaves_the_lobby_after_30_minutes(client):
    """Issue 34: open tables were told apart by nothing, and one opened and forgotten (its page
    left open, so its host stays connected) was listed with "Sit here" for ever.  Each entry says
    who opened it, when, and when it leaves the list (``expires``, UNSTARTED_LOBBY_SECONDS after
    it was made, while its match has not started); at that time it leaves the list."""
    from datetime import datetime, timedelta

    from ginrummy.web.room.lobby import UNSTARTED_LOBBY_SECONDS

    assert UNSTARTED_LOBBY_SECONDS == 1800.0
    manager = client.app.state.manager
    t = _open(client, ANN_VS_FREE, public=True)
    created = manager.tables[t["id"]].row.created
    made = datetime.fromisoformat(created).replace(microsecond=0)

    def entry() -> dict | None:
        return next((e for e in client.get("/api/lobby").json()["tables"] if e["id"] == t["id"]), None)

    e = entry()
    assert (e["host"], e["created"], e["started"]) == ("Ann", created, False)
    want = made + timedelta(seconds=1800)
    if datetime.fromisoformat(created).microsecond >= 500000:
        want += timedelta(seconds=1)  # rounded to the second
    assert e["expires"] == want.isoformat()
    real = manager.now
    start = datetime.fromisoformat(created).timestamp()
    try:
        with client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ws:
            assert ws.receive_json()["type"] == "state"  # Ann's page is open: she is connected
            manager.now = lambda: start + UNSTARTED_LOBBY_SECONDS - 5
            assert entry() is not None
            manager.now = lambda: start + UNSTARTED_LOBBY_SECONDS + 5
            assert entry() is None
    finally:
        manager.now = real


def test_a_person_may_not_take_a_computer_seats_name(client):
    """A person named "Computer (novice)" (in any language or case, with a number after it or
    not) would look like a computer at the table: refused when the table is opened and when a
    lobby seat is taken; nothing is made or changed."""
    before = len(client.app.state.manager.tables)
    for name in (
        "Computer (novice)",
        "computer (EXPERT)",
        "Computer (master) 2",
        "Υπολογιστής (αρχάριος)",
        "\uff23omputer (novice)",
    ):  # a full-width C reads as a C
        r = client.post(
            "/api/tables", json={"seats": [{"kind": "human", "name": name}, {"kind": "bot", "level": "novice"}]}
        )
        assert r.status_code == 400, name
        assert r.json() == {
            "error": f"seat 1: the name {name} is a computer seat's; choose another",
            "code": "bad_request",
        }
    assert len(client.app.state.manager.tables) == before
    ok = client.post(
        "/api/tables", json={"seats": [{"kind": "human", "name": "Computer fan"}, {"kind": "bot", "level": "novice"}]}
    )
    assert ok.status_code == 201 and [x["name"] for x in ok.json()["seats"]] == ["Computer fan", "Computer (novice)"]
    t = _open(client, ANN_VS_FREE, public=True)
    r = client.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "Computer (club)"})
    assert r.status_code == 400
    assert r.json()["error"] == "the name Computer (club) is a computer seat's; choose another"
    assert client.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "Bea"}).status_code == 200


def test_a_person_may_not_take_the_reserved_name_system(client):
    """ "System" (any case or width, any spacing: accounts.is_reserved_name) would pass for the
    server's own: refused as a person's seat name when the table is opened and when a lobby
    seat is taken, saying it is reserved; nothing is made or changed."""
    before = len(client.app.state.manager.tables)
    for name in ("System", "SYSTEM", "\uff33ystem", "system"):
        r = client.post(
            "/api/tables", json={"seats": [{"kind": "human", "name": name}, {"kind": "bot", "level": "novice"}]}
        )
        assert r.status_code == 400, name
        assert r.json() == {"error": f"seat 1: the name {name} is reserved; choose another", "code": "bad_request"}
    assert len(client.app.state.manager.tables) == before
    ok = client.post(
        "/api/tables", json={"seats": [{"kind": "human", "name": "Systems"}, {"kind": "bot", "level": "novice"}]}
    )
    assert ok.status_code == 201 and [x["name"] for x in ok.json()["seats"]] == ["Systems", "Computer (novice)"]
    t = _open(client, ANN_VS_FREE, public=True)
    r = client.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": " sYsTeM "})
    assert r.status_code == 400
    assert r.json() == {"error": "the name sYsTeM is reserved; choose another", "code": "bad_request"}
    r = client.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "System"}, headers={"Accept-Language": "fi"})
    assert r.json()["error"] == "nimi System on varattu; valitse toinen"
    assert client.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "Bea"}).status_code == 200
