"""The web game protocol through Starlette's TestClient (docs/protocol.md): legal play,
illegal and out-of-turn moves, malformed and oversized messages, wrong tokens, and a scan of
every message for cards the seat may not see (DESIGN principle 3, R3.2, R5)."""

from __future__ import annotations

import hashlib
import json
import re
from contextlib import contextmanager
from typing import Any

import pytest

from ginrummy.cards import card_str, cards_of
from ginrummy.match import commitment
from ginrummy.record import loads, verify
from ginrummy.web.protocol.inbound import MAX_MESSAGE_BYTES

from .conftest import STORES, cards_in, database_url, new_table, with_csrf


@pytest.fixture(params=STORES)
def db_url(request, tmp_path):
    """Every protocol test runs against a SQLite file and a PostgreSQL schema."""
    yield from database_url(request.param, tmp_path)


HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def _ws(client, table: dict[str, Any], i: int):
    return client.websocket_connect(f"/ws/table/{table['id']}?seat={table['seats'][i]['token']}")


@contextmanager
def _three_humans(client):
    """A three-hand table of three people (R10), each connected: yields ``(table object, [socket
    of player 0, 1, 2])`` once the connection broadcasts are drained (each connection broadcasts:
    player 0 gets 3 states, player 1 two, player 2 one)."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "human", "name": "Cy"}]
    t = new_table(client, seats)
    tobj = client.app.state.manager.tables[t["id"]]
    with _ws(client, t, 0) as s0, _ws(client, t, 1) as s1, _ws(client, t, 2) as s2:
        socks = [s0, s1, s2]
        for i, count in enumerate((3, 2, 1)):
            for _ in range(count):
                _recv_state(socks[i], tobj, i)
        yield tobj, socks


def _forbidden(table_obj, player: int) -> set[str]:
    """Cards ``player`` may not see now: the stock and the opponent's cards that were never
    face up (dealt or drawn from the stock).  Empty once the deal is over (R5.3 layouts)."""
    m = table_obj.match
    d = m.deal
    if d.is_over:
        return set()
    public = set(d.pile) | {d.upcard}
    for e in d.log:
        if e.kind in ("take_discard", "take_upcard", "discard") and e.card is not None:
            public.add(e.card)
    seat = m.seat_of(player)
    hidden = set(d.stock[d.drawn :])
    if seat is None:  # the adviser sees the captain's hand (R10.2), not the box's
        seat = 1
    hidden |= set(cards_of(d.hands[1 - seat]))
    return {card_str(c) for c in hidden - public}


def _secrets(table_obj) -> list[str]:
    """The seeds no seat may have yet: the match seed until the match is over, the deal seed
    of the deal in progress and of every drawn deal until then (R7)."""
    m = table_obj.match
    if m.finished:
        return []
    out = [m.seed.hex()]
    out += [d.seed.hex() for d in m.deals if d.result is None or d.result.outcome == "draw"]
    return out


def _check_msg(msg: dict[str, Any], table_obj, player: int) -> None:
    leaked = cards_in(msg) & _forbidden(table_obj, player)
    assert not leaked, f"player {player} was sent hidden cards {leaked} in {msg.get('type')}"
    text = json.dumps(msg)
    for s in _secrets(table_obj):
        assert s not in text, "a secret seed was sent"
    assert all(t not in text for t in table_obj.row.tokens)


def _pick(legal: list[str]) -> str:
    for kind in ("big gin", "gin", "knock"):
        for a in legal:
            if a.startswith(kind):
                return a
    if "draw stock" in legal:
        return "draw stock"
    if "pass" in legal:
        return "pass"
    return legal[0]


def _recv_state(ws, table_obj, player):
    while True:
        msg = ws.receive_json()
        _check_msg(msg, table_obj, player)
        if msg["type"] == "state":
            return msg


def test_create_table_answers_links_and_tokens(client):
    t = new_table(client, HUMANS)
    assert [s["name"] for s in t["seats"]] == ["Ann", "Bob"]
    assert t["seats"][0]["link"].endswith(f"/table/{t['id']}?seat={t['seats'][0]['token']}")
    assert t["seats"][0]["token"] != t["seats"][1]["token"]


def test_create_table_refuses_bad_requests(client):
    r = client.post("/api/tables", json={"seats": [{"kind": "bot", "level": "grandmaster"}, {"kind": "human"}]})
    assert r.status_code == 400 and "unknown computer level 'grandmaster'" in r.json()["error"]
    r = client.post("/api/tables", json={"preset": "hollywood", "seats": HUMANS + [{"kind": "human"}]})
    assert r.status_code == 400 and "R10.6" in r.json()["error"]
    r = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]
    r = client.post("/api/tables", json={"seats": HUMANS, "rules": {"knock_limit": 11}})
    assert r.status_code == 400 and "knock_limit" in r.json()["error"]
    r = client.post("/api/tables", json={"seats": HUMANS[:1]})
    assert r.status_code == 400
    # a wrong value names its field, not the whole body
    r = client.post("/api/tables", json={"seats": HUMANS, "rules": {"target": 1.5}})
    assert (r.status_code, r.json()["error"]) == (400, "rule target=1.5 is not a whole number; allowed: 1..1000")
    r = client.post("/api/tables", json={"seats": HUMANS, "rules": {"target": [1]}})
    assert (r.status_code, r.json()["error"]) == (
        400,
        "rules.target: has the wrong type; allowed: a whole number, a finite number, text, true/false or null",
    )
    r = client.post("/api/tables", json={"seats": [{"kind": "human", "name": 123}, HUMANS[1]]})
    assert (r.status_code, r.json()["error"]) == (400, "seat 1: name has the wrong type; allowed: text")
    # a wrong value says what is allowed (the new-user trial found bare "out of range")
    r = client.post("/api/tables", json={"seats": HUMANS, "clock": "5/5"})
    assert (r.status_code, r.json()["error"]) == (400, "clock: has the wrong type; allowed: an object")
    r = client.post("/api/tables", json={"seats": HUMANS, "clock": {"move": -1, "bank": 0}})
    assert r.status_code == 400 and r.json()["error"].startswith("clock.move: is out of range; allowed: at least ")
    r = client.post("/api/tables", json={"seats": HUMANS, "bogus": 1})
    assert r.status_code == 400 and r.json()["error"].startswith("bogus: is not a field here; fields: ")
    assert "seats" in r.json()["error"] and "rules" in r.json()["error"]
    r = client.post("/api/tables", json={"seats": HUMANS, "rules": "x"})
    assert (r.status_code, r.json()["error"]) == (400, "rules must be an object of RuleSet fields (R14)")


def test_tables_opened_per_address_are_limited(db_url):
    """``gin serve --tables-per-minute N``: an address opens at most N tables in any 60 s; the
    next is refused (429, ``rate_limited``, ``Retry-After``) and opens nothing; a refused
    request does not count."""
    import warnings

    from starlette.testclient import TestClient

    from ginrummy.web.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(db_url, bot_delay=0, tables_per_minute=2)) as c:
            c = with_csrf(c)
            assert c.post("/api/tables", json={"seats": HUMANS, "rules": {"knock_limit": 11}}).status_code == 400
            assert [c.post("/api/tables", json={"seats": HUMANS}).status_code for _ in range(2)] == [201, 201]
            before = len(c.app.state.manager.tables)
            r = c.post("/api/tables", json={"seats": HUMANS}, headers={"Accept-Language": "el"})
            assert r.status_code == 429 and r.json()["code"] == "rate_limited"
            assert 1 <= int(r.headers["Retry-After"]) <= 61
            assert (
                r.json()["error"]
                != f"too many tables opened from your address; try again in {r.headers['Retry-After']} seconds"
                and r.headers["Content-Language"] == "el"
            )
            assert len(c.app.state.manager.tables) == before


def test_full_deal_between_two_people_and_every_message_is_clean(client):
    t = new_table(client, HUMANS)
    tobj = client.app.state.manager.tables[t["id"]]
    with _ws(client, t, 0) as a, _ws(client, t, 1) as b:
        socks = {0: a, 1: b}
        states = {0: _recv_state(a, tobj, 0)}
        # Bob's connection sends both players a fresh state
        states[1] = _recv_state(b, tobj, 1)
        states[0] = _recv_state(a, tobj, 0)
        first = states[0]["deal"]["commitment"]
        assert first == tobj.match.record.commitment and states[0]["deal"]["seed"] is None
        base = tobj.seq  # the two client seeds and the deal (docs/protocol.md)
        assert (
            base == 3 and states[0]["started"] and states[0]["deals"][0]["client_seeds"] == ["test0deal1", "test1deal1"]
        )
        steps = 0
        while not tobj.match.deal.is_over:
            p = tobj.match.player_to_act()
            assert states[p]["your_turn"] and states[p]["view"]["legal_actions"]
            action = _pick(states[p]["view"]["legal_actions"])
            socks[p].send_json({"type": "action", "action": action, "id": steps})
            for q in (0, 1):
                states[q] = _recv_state(socks[q], tobj, q)
            ack = socks[p].receive_json()
            assert ack == {"type": "ack", "reply_to": steps, "seq": base + steps + 1}
            steps += 1
        end = states[0]
        assert end["view"]["phase"] == "over" and end["can_next_deal"] in (True, False)
        r = tobj.match.record.result
        if r.outcome == "draw":  # R7: a drawn deal's hands stay hidden, so its seed too
            assert end["deal"]["seed"] is None and "seed" not in end["deals"][0] and not end["deals"][0]["revealed"]
            return
        seed = bytes.fromhex(end["deal"]["seed"])
        assert hashlib.sha256(seed).hexdigest() == first == commitment(seed)
        assert end["deals"][0]["seed"] == seed.hex() and end["deals"][0]["revealed"]
        r = tobj.match.record.result
        if r.winner is not None:
            winner = tobj.names[tobj.match.seat_players[r.winner]]
            assert end["sheet"]["games"][0]["points"][winner] == r.points > 0
            assert end["view"]["result"]["points"] == r.points
        assert tobj.seq == base + steps


def test_out_of_turn_illegal_malformed_and_oversized_change_nothing(client):
    t = new_table(client, HUMANS)
    tobj = client.app.state.manager.tables[t["id"]]
    with _ws(client, t, 0) as a, _ws(client, t, 1) as b:
        socks = {0: a, 1: b}
        _recv_state(a, tobj, 0)
        _recv_state(b, tobj, 1)
        _recv_state(a, tobj, 0)
        p = tobj.match.player_to_act()
        other = 1 - p
        before = (tobj.seq, tobj.match.deal.hands, tobj.match.deal.pile, tobj.match.deal.phase)
        ws = socks[other]
        ws.send_json({"type": "action", "action": "take upcard", "id": "x1"})
        err = ws.receive_json()
        assert err["type"] == "error" and err["code"] == "not_your_turn" and err["reply_to"] == "x1"
        # the web names the player to act (not the engine's "seat 0 cannot act now: seat 1 is to act")
        assert err["message"] == f"it is {tobj.names[p]}'s turn"
        # the player to act: drawing before the upcard offer is decided (R4.2)
        socks[p].send_json({"type": "action", "action": "draw stock"})
        err = socks[p].receive_json()
        assert err["code"] == "illegal" and err["legal"] == ["take upcard", "pass"]
        assert "R4.2" in err["message"]
        socks[p].send_json({"type": "action", "action": "discard ZZ"})
        err = socks[p].receive_json()
        assert err["code"] == "illegal" and "ZZ" in err["message"]
        for raw, code in [
            ("not json", "bad_json"),
            ("[1, 2]", "bad_json"),
            ('{"type": "shout"}', "bad_message"),
            ('{"type": "action"}', "bad_message"),
            ('{"type": "action", "action": 5}', "bad_message"),
            ('{"type": "sync", "extra": 1}', "bad_message"),
            ('{"type": "ping", "id": [1]}', "bad_message"),
        ]:
            socks[p].send_text(raw)
            err = socks[p].receive_json()
            assert err["type"] == "error" and err["code"] == code, raw
        socks[p].send_text(json.dumps({"type": "action", "action": "pass" + " " * MAX_MESSAGE_BYTES}))
        err = socks[p].receive_json()
        assert err["code"] == "too_large" and str(MAX_MESSAGE_BYTES) in err["message"]
        socks[p].send_bytes(b"x" * (MAX_MESSAGE_BYTES + 1))
        assert socks[p].receive_json()["code"] == "too_large"
        # the adviser's suggestion from a two-hand seat is refused
        socks[p].send_json({"type": "suggest", "text": "pass"})
        assert socks[p].receive_json()["code"] == "not_allowed"
        socks[p].send_json({"type": "next_deal"})
        err = socks[p].receive_json()
        assert err["code"] == "illegal" and "not over" in err["message"]
        after = (tobj.seq, tobj.match.deal.hands, tobj.match.deal.pile, tobj.match.deal.phase)
        assert after == before
        socks[p].send_json({"type": "ping", "id": 7})
        assert socks[p].receive_json() == {"type": "pong", "reply_to": 7}
        socks[p].send_json({"type": "sync", "id": "s"})
        st = socks[p].receive_json()
        assert st["type"] == "state" and st["reply_to"] == "s" and st["seq"] == 3


def test_wrong_token_and_unknown_table(client):
    t = new_table(client, HUMANS)
    with client.websocket_connect(f"/ws/table/{t['id']}?seat=not-a-token") as ws:
        err = ws.receive_json()
        assert err["code"] == "bad_token"
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        assert ws.receive_json()["code"] == "bad_token"
    with client.websocket_connect(f"/ws/table/ffffffffffff?seat={t['seats'][0]['token']}") as ws:
        assert ws.receive_json()["code"] == "not_found"
    r = client.get(f"/api/tables/{t['id']}/record?seat=wrong")
    assert r.status_code == 403


def test_against_the_computer_a_whole_match_and_the_record_verifies(client):
    """Single-deal scoring (R11.1 ``deal``): play until the match ends, scanning every message,
    then download the record and check it with record.verify (as ``gin verify`` does)."""
    t = new_table(
        client,
        [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}],
        preset="standard",
        rules={"scoring": "deal"},
    )
    tobj = client.app.state.manager.tables[t["id"]]
    r = client.get(f"/api/tables/{t['id']}/record?seat={t['seats'][0]['token']}")
    # at any point: the public record, its deal in progress sealed (docs/record-format.md)
    assert r.status_code == 200 and "\nsealed\n" in r.text and "\ndeck " not in r.text
    assert verify(r.text).ok and tobj.match.seed.hex() not in r.text
    n = 0
    acted: set[int] = set()  # once per step: a step may be sent twice (the connection's state
    # and the computer's move), and a second move on it would be refused
    with _ws(client, t, 0) as ws:
        while True:
            msg = ws.receive_json()
            _check_msg(msg, tobj, 0)
            if msg["type"] != "state":
                assert msg["type"] == "ack"
                continue
            if msg["match"]["finished"]:
                break
            if msg["seq"] in acted:
                continue
            acted.add(msg["seq"])
            pending = msg["fair"]["pending"]
            if pending is not None and pending["yours"] is None:  # after a drawn deal (R7)
                ws.send_json({"type": "client_seed", "deal": pending["deal"], "seed": f"ann{pending['deal']}"})
            elif msg["can_next_deal"]:
                ws.send_json({"type": "next_deal"})
            elif msg["your_turn"]:
                ws.send_json({"type": "action", "action": _pick(msg["view"]["legal_actions"]), "id": n})
                n += 1
    assert msg["match"]["winner"] in ("Ann", "Computer (novice)")
    assert msg["record_available"] is True
    r = client.get(f"/api/tables/{t['id']}/record?seat={t['seats'][0]['token']}")
    assert r.status_code == 200
    # a game record is a .gin file (README: game.gin), whatever gin replay / gin verify accept
    assert r.headers["content-disposition"] == f'attachment; filename="gin-{t["id"]}.gin"'
    report = verify(r.text)
    assert report.ok, report
    rec = loads(r.text)
    assert len(rec.deals) == len(tobj.match.deals)


def test_three_hand_adviser_sees_the_captain_and_suggests(client):
    with _three_humans(client) as (tobj, socks):
        box, captain, out = tobj.match.roles
        adv = socks[out]
        adv.send_json({"type": "sync"})
        st = _recv_state(adv, tobj, out)
        assert st["role"] == "out" and st["roles"]["captain"] == tobj.names[captain]
        assert st["view"]["hand"] == [card_str(c) for c in cards_of(tobj.match.deal.hands[1])]
        assert st["view"]["legal_actions"] == [] and st["can_suggest"]
        adv.send_json({"type": "action", "action": "pass"})
        err = adv.receive_json()
        assert err["code"] == "not_your_turn" and "R10.2" in err["message"]
        adv.send_json({"type": "suggest", "text": "  take   the upcard "})
        sug = adv.receive_json()
        assert sug == {"type": "suggestion", "from": tobj.names[out], "text": "take the upcard", "seq": 4}
        assert socks[captain].receive_json() == sug
        socks[captain].send_json({"type": "sync"})
        st = _recv_state(socks[captain], tobj, captain)
        assert st["suggestions"] == [sug] and st["role"] == "captain"
        socks[box].send_json({"type": "sync"})
        st = _recv_state(socks[box], tobj, box)
        assert st["suggestions"] == [] and st["role"] == "box"
        socks[box].send_json({"type": "suggest", "text": "hi"})
        assert socks[box].receive_json()["code"] == "not_allowed"


def test_restart_in_process_rebuilds_the_table(db_url):
    import warnings

    from starlette.testclient import TestClient

    from ginrummy.web.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(db_url, bot_delay=0)) as c:
            t = new_table(with_csrf(c), HUMANS)
            tobj = c.app.state.manager.tables[t["id"]]
            with _ws(c, t, 0) as a, _ws(c, t, 1) as b:
                socks = {0: a, 1: b}
                _recv_state(a, tobj, 0)
                _recv_state(b, tobj, 1)
                _recv_state(a, tobj, 0)
                for _ in range(5):
                    p = tobj.match.player_to_act()
                    legal = [x.text for x in tobj.match.deal.legal_actions()]
                    # moves that cannot end the deal (no knock, no gin), so five steps stay in it
                    move = next(
                        a
                        for a in ("pass", "draw stock", *legal)
                        if a in legal and a.split()[0] not in ("knock", "gin", "big")
                    )
                    socks[p].send_json({"type": "action", "action": move})
                    _recv_state(socks[0], tobj, 0)
                    _recv_state(socks[1], tobj, 1)
            hands, pile, seq = tobj.match.deal.hands, tobj.match.deal.pile, tobj.seq
        with TestClient(create_app(db_url, bot_delay=0)) as c:
            again = c.app.state.manager.tables[t["id"]]
            assert (again.match.deal.hands, again.match.deal.pile, again.seq) == (hands, pile, seq) and seq == 3 + 5


def test_scorekeeper_endpoint_r12_worked_example(client):
    r = client.post(
        "/api/sheet",
        json={
            "preset": "hollywood",
            "names": ["Alexandra", "Bob"],
            "results": ["Bob:10", "Alexandra:18", "Bob:30", "Bob:4"],
        },
    )
    assert r.status_code == 200, r.text
    games = r.json()["games"]
    assert [g["points"]["Alexandra"] for g in games] == [18, 0, 0]
    assert [g["points"]["Bob"] for g in games] == [44, 34, 4]
    r = client.post("/api/sheet", json={"names": ["A", "B"], "results": ["C:10"]})
    assert r.status_code == 400 and "'C' is not a player" in r.json()["error"]
    # a result the sheet refuses is named as it was sent (the winner's name, not his index)
    r = client.post("/api/sheet", json={"names": ["Ann", "Bob"], "results": ["Bob:999"]})
    assert r.status_code == 400 and r.json()["error"].startswith("deal result 'Bob:999': 999 points is more than"), (
        r.text
    )
    r = client.post(
        "/api/sheet", json={"names": ["Ann", "Bob"], "results": ["Bob:999"]}, headers={"Accept-Language": "el"}
    )
    assert r.status_code == 400 and "'Bob:999'" in r.json()["error"] and "'1:999'" not in r.json()["error"], r.text


def test_pages_and_options(client):
    for path in ("/", "/rules", "/tips", "/scorekeeper"):
        r = client.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"], path
    r = client.get("/table/abc")  # no table abc: a page that says so (issue 34), not the table page
    assert r.status_code == 404 and ">No table here</h1>" in r.text and 'id="hand"' not in r.text
    opts = client.get("/api/options").json()
    assert {"random", "novice"} <= set(opts["levels"])
    assert set(opts["presets"]) >= {"standard", "hollywood", "oklahoma", "straight"}
    assert client.get("/static/style.css").status_code == 200
    assert client.get("/api/nothing").status_code == 404


# -- hints (docs/protocol.md "hint") ------------------------------------------------------------


def _expected_hint(tobj, target: int, level: str):
    """The hint the server must give for ``target``'s move now: the ``level`` player given only
    ``Match.view(target)``, drawing from the match seed and the step."""
    import random

    from ginrummy.web.room.tables import advise

    rng = random.Random(
        int.from_bytes(hashlib.sha256(tobj.row.seed + f"/hint/{target}/{tobj.seq}".encode()).digest()[:8], "big")
    )
    return advise(level, rng, tobj.match.view(target))


def test_hint_when_to_act_in_greek_legal_and_never_a_hidden_card(client):
    from ginrummy.i18n import translate_error
    from ginrummy.web.texts import web_translator

    t = new_table(client, HUMANS, rules={"scoring": "deal"})
    tobj = client.app.state.manager.tables[t["id"]]
    assert tobj.hint_level == "club"  # no computer seat
    tok = [s["token"] for s in t["seats"]]
    with (
        client.websocket_connect(f"/ws/table/{t['id']}?seat={tok[0]}&lang=el") as a,
        client.websocket_connect(f"/ws/table/{t['id']}?seat={tok[1]}&lang=el") as b,
    ):
        socks = {0: a, 1: b}
        states = {0: _recv_state(a, tobj, 0)}
        states[1] = _recv_state(b, tobj, 1)
        states[0] = _recv_state(a, tobj, 0)
        hints = 0
        while not tobj.match.deal.is_over:
            p = tobj.match.player_to_act()
            assert states[p]["can_hint"] and not states[1 - p]["can_hint"]
            assert states[p]["hint_level"] == "club"
            socks[p].send_json({"type": "hint", "id": f"h{hints}"})
            msg = socks[p].receive_json()
            _check_msg(msg, tobj, p)
            assert set(msg) == {"type", "action", "reason", "level", "seq", "reply_to"}
            assert msg["type"] == "hint" and msg["reply_to"] == f"h{hints}" and msg["level"] == "club"
            assert msg["seq"] == tobj.seq == states[p]["seq"]
            assert msg["action"] in states[p]["view"]["legal_actions"]
            action, reason = _expected_hint(tobj, p, "club")
            assert msg["action"] == action.text
            assert msg["reason"] == translate_error(reason, web_translator("el")) != str(reason)
            assert re.search("[α-ω]", msg["reason"]) and "{" not in msg["reason"]
            # asked again: the same hint (the same position gets the same answer)
            socks[p].send_json({"type": "hint"})
            again = socks[p].receive_json()
            assert {k: v for k, v in again.items()} == {k: v for k, v in msg.items() if k != "reply_to"}
            # the player not to act: refused in Greek, nothing changes
            before = (tobj.seq, tobj.match.deal.hands, tobj.match.deal.pile, tobj.match.deal.phase)
            socks[1 - p].send_json({"type": "hint", "id": 5})
            err = socks[1 - p].receive_json()
            assert err["type"] == "error" and err["code"] == "not_your_turn" and err["reply_to"] == 5
            assert tobj.names[p] in err["message"] and re.search("[α-ω]", err["message"])
            assert (tobj.seq, tobj.match.deal.hands, tobj.match.deal.pile, tobj.match.deal.phase) == before
            # play the hinted move
            socks[p].send_json({"type": "action", "action": msg["action"]})
            for q in (0, 1):
                states[q] = _recv_state(socks[q], tobj, q)
            hints += 1
            assert hints < 200
        # the deal is random (the players' seeds make it): the shortest deal is two moves, the
        # upcard taken and a knock with the discard (R4.2, R5.1), so at least two hints were checked
        assert hints >= 2
        assert not states[0]["can_hint"] and not states[1]["can_hint"]
        a.send_json({"type": "hint"})
        err = a.receive_json()
        assert err["code"] == "not_your_turn"
        a.send_json({"type": "hint", "card": "7H"})
        assert a.receive_json()["code"] == "bad_message"


def test_hint_level_follows_the_computer_opponent(client):
    # the table's seed is random: the computer, acting first, may take the upcard and knock at
    # once (R4.2, R5.1), and that deal is the match before Ann's first turn (no hint asked); then
    # another table is opened, at most five times
    for _attempt in range(5):
        t = new_table(
            client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}], rules={"scoring": "deal"}
        )
        tobj = client.app.state.manager.tables[t["id"]]
        assert tobj.hint_level == "novice"
        with _ws(client, t, 0) as ws:
            n = 0
            asked: set[int] = set()  # one hint per step: a step may be sent twice (the connection's
            # state and the computer's move), and a second hint would be answered after the move
            while True:
                msg = ws.receive_json()
                _check_msg(msg, tobj, 0)
                if msg["type"] == "hint":
                    assert msg["seq"] == tobj.seq  # the person has not moved yet: the same step
                    action, reason = _expected_hint(tobj, 0, "novice")
                    assert (msg["action"], msg["reason"], msg["level"]) == (action.text, str(reason), "novice")
                    ws.send_json({"type": "action", "action": msg["action"]})
                    n += 1
                    continue
                if msg["type"] != "state" or msg["view"]["phase"] == "over":
                    if msg["type"] == "state":
                        break
                    continue
                if msg["your_turn"] and msg["seq"] not in asked:
                    asked.add(msg["seq"])
                    ws.send_json({"type": "hint"})
        if n:
            break
    assert n >= 1


def test_three_hand_adviser_asks_for_the_captains_hint(client):
    with _three_humans(client) as (tobj, socks):
        box, captain, out = tobj.match.roles
        seen = set()
        for _ in range(12):
            p = tobj.match.player_to_act()
            socks[out].send_json({"type": "sync"})
            st = _recv_state(socks[out], tobj, out)
            socks[out].send_json({"type": "hint"})
            got = socks[out].receive_json()
            _check_msg(got, tobj, out)
            if p == captain:
                assert st["can_hint"] and got["type"] == "hint"
                socks[captain].send_json({"type": "hint"})
                mine = socks[captain].receive_json()
                assert mine == got  # the same hint for the captain and his adviser
                seen.add("captain")
            else:
                assert not st["can_hint"] and got["code"] == "not_your_turn"
                seen.add("box")
            legal = [x.text for x in tobj.match.deal.legal_actions()]
            socks[p].send_json({"type": "action", "action": _pick(legal)})
            for i in range(3):
                _recv_state(socks[i], tobj, i)
            if tobj.match.deal.is_over:
                break
        assert seen == {"captain", "box"}
