"""Errors say what was wrong and what is allowed, in the words of the rest of the interface:
a seat's schema error counts seats from 1 as every other seat error does; a seat a table lacks
is answered with the seats that table has free; a text that is no action says what is legal
now (as the terminal table does, R4-R5), not every action form.  Nothing changes on a refusal."""

from __future__ import annotations

import json

import pytest

from ginrummy.web.errors import WebError
from ginrummy.web.protocol.bodies import CreateTournamentBody, parse_body, parse_daily_path

from .conftest import new_table, next_message

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def test_a_seats_schema_error_counts_seats_from_1(client):
    before = len(client.app.state.manager.tables)
    for seats, error in (
        ([{"kind": 5}, HUMANS[1]], "seat 1: kind has the wrong type; allowed: text"),
        ([HUMANS[0], {"kind": "human", "name": 7}], "seat 2: name has the wrong type; allowed: text"),
        ([HUMANS[0], {"kind": "bot", "level": "x" * 41}], "seat 2: level is too long; allowed: at most 40 characters"),
        (
            [HUMANS[0], {"kind": "human", "colour": "red"}],
            "seat 2: colour is not a field here; fields: kind, level, name",
        ),
    ):
        r = client.post("/api/tables", json={"seats": seats})
        assert (r.status_code, r.json()) == (400, {"error": error, "code": "bad_message"}), seats
    # and the engine's seat errors, as before
    r = client.post("/api/tables", json={"seats": [HUMANS[0], {"kind": "bot", "level": "nope"}]})
    assert r.json()["error"].startswith("seat 2: unknown computer level 'nope'; levels: ")
    # a research level that exists but is not offered at the web table (README: sage) says so
    for level in ("sage", "sage-fast", "expert-fixed"):
        r = client.post("/api/tables", json={"seats": [HUMANS[0], {"kind": "bot", "level": level}]})
        assert r.status_code == 400 and r.json()["error"].startswith(
            f"seat 2: the computer level '{level}' is not offered at the web table; "
            "levels: random, novice, club, expert, master, ismcts"  # then openspiel-simple when installed
        )
        assert "sage" not in r.json()["error"].split("levels: ")[1]
    r = client.post("/api/tables", json={"seats": [HUMANS[0], {"kind": "bot", "level": "sage"}]},
                    headers={"Accept-Language": "fi"})
    assert r.json()["error"].startswith("paikka 2: tietokoneen tasoa 'sage' ei tarjota verkkopöydässä; tasot: ")
    assert len(client.app.state.manager.tables) == before


def test_a_seat_the_table_lacks_names_its_free_seats(client):
    r = client.post("/api/tables", json={"seats": [HUMANS[0], {"kind": "human", "name": ""}], "public": True})
    t = r.json()
    for seat in (5, 2, -1, 10**17):
        r = client.post(f"/api/tables/{t['id']}/sit", json={"seat": seat})
        assert (r.status_code, r.json()) == (
            403,
            {"error": f'"seat": {seat} is not a person\'s seat at this table; free seats: 1', "code": "not_allowed"},
        )
    r = client.post(f"/api/tables/{t['id']}/sit", json={"seat": 10**18})  # beyond any message's integer
    assert (r.status_code, r.json()["error"]) == (400, "seat: is out of range; allowed: at most 999999999999999999")
    assert client.app.state.manager.tables[t["id"]].names == ["Ann", "Player 2"]


def test_a_text_that_is_no_action_says_what_is_legal_now(client):
    t = new_table(client, HUMANS)
    tobj = client.app.state.manager.tables[t["id"]]
    to_act = tobj.match.player_to_act()
    token = t["seats"][to_act]["token"]
    other = t["seats"][1 - to_act]["token"]
    seq = tobj.seq
    with client.websocket_connect(f"/ws/table/{t['id']}?seat={token}") as ws:
        # R4.2: the upcard offer
        for i, (sent, message) in enumerate(
            (
                (
                    "discard ZZ",
                    "bad action 'discard ZZ': not a card: 'ZZ' (write rank A 2-9 T/10 J Q K then suit C D H S, "
                    "e.g. AS, TD, 10H); now: take upcard | pass",
                ),
                ("zz", "not an action: 'zz'; now: take upcard | pass"),
                ("discard", "bad action 'discard': name exactly one card; now: take upcard | pass"),
            )
        ):
            ws.send_json({"type": "action", "action": sent, "id": i})
            err = next_message(ws, lambda m, i=i: m.get("reply_to") == i)
            assert err == {
                "type": "error",
                "code": "illegal",
                "message": message,
                "legal": ["take upcard", "pass"],
                "reply_to": i,
            }
        ws.send_json({"type": "action", "action": "take upcard", "id": "t"})
        next_message(ws, lambda m: m.get("reply_to") == "t" or (m.get("type") == "state" and m["seq"] > seq))
        ws.send_json({"type": "action", "action": "discard ZZ", "id": "d"})
        err = next_message(ws, lambda m: m.get("reply_to") == "d")
        legal = tobj.match.deal.legal_actions()
        discards = "/".join(a.text.split(" ")[1] for a in legal if a.kind == "discard")
        assert err["message"].startswith("bad action 'discard ZZ': not a card: 'ZZ' ")
        assert err["message"].split("; now: ")[1].startswith(f"discard {discards}")
        assert err["legal"] == [a.text for a in legal]
    with client.websocket_connect(f"/ws/table/{t['id']}?seat={other}") as ws:
        # not his turn: nothing is legal now for him, so the action forms are named
        ws.send_json({"type": "action", "action": "zz", "id": "x"})
        err = next_message(ws, lambda m: m.get("reply_to") == "x")
        assert err["message"] == (
            "not an action: 'zz'; actions: take upcard | pass | draw stock | take discard | "
            "discard CARD | knock CARD | gin CARD | big gin"
        )
    assert tobj.seq == seq + 1  # only the upcard taken


def _refusal(client, t, seat: int, sent: str, mid: str) -> dict:
    with client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][seat]['token']}") as ws:
        ws.send_json({"type": "action", "action": sent, "id": mid})
        return next_message(ws, lambda m: m.get("reply_to") == mid)


def test_a_text_that_is_no_action_before_or_between_deals_says_no_deal_is_in_progress(client):
    """Before the first deal and between deals nothing is legal for anyone: a text that is no
    action says that no deal is in progress and what comes next (the client seeds the deal
    waits for, or next_deal, R11), not every action form; nothing changes."""
    t = new_table(client, HUMANS, deal=False)
    mgr = client.app.state.manager
    tobj = mgr.tables[t["id"]]
    seq = tobj.seq
    assert _refusal(client, t, 0, "zz", "a") == {
        "type": "error",
        "code": "illegal",
        "reply_to": "a",
        "message": "not an action: 'zz'; no deal is in progress: the first deal waits for the client seeds of Ann, Bob",
    }
    client.portal.call(mgr.client_seed, tobj, 0, 1, "seed0")
    assert _refusal(client, t, 1, "discard ZZ", "b")["message"] == (
        "bad action 'discard ZZ': not a card: 'ZZ' (write rank A 2-9 T/10 J Q K then suit C D H S, e.g. AS, TD, 10H); "
        "no deal is in progress: the first deal waits for the client seeds of Bob"
    )
    assert _refusal(client, t, 1, "discard", "c")["message"] == (
        "bad action 'discard': name exactly one card; no deal is in progress: the first deal waits for the client "
        "seeds of Bob"
    )
    assert tobj.match is None and tobj.seq == seq + 1  # Ann's seed only
    client.portal.call(mgr.client_seed, tobj, 1, 1, "seed1")
    while not tobj.match.deal.is_over:  # draw and throw the card back: a drawn deal at the wall (R7)
        p = tobj.match.player_to_act()
        legal = [a.text for a in tobj.match.deal.legal_actions()]
        pick = next((a for a in ("pass", "draw stock") if a in legal), None) or next(
            (a for a in legal if a.startswith("discard")), legal[0]
        )
        client.portal.call(mgr.act, tobj, p, pick)
    seq = tobj.seq
    assert _refusal(client, t, 0, "zz", "d") == {
        "type": "error",
        "code": "illegal",
        "reply_to": "d",
        "message": "not an action: 'zz'; no deal is in progress: the deal is over, and the next deal waits for the "
        "client seeds of Ann, Bob",
    }
    for p in (0, 1):
        client.portal.call(mgr.client_seed, tobj, p, 2, f"seed{p}")
    assert _refusal(client, t, 1, "zz", "e")["message"] == (
        "not an action: 'zz'; no deal is in progress: the deal is over; send next_deal to start the next deal"
    )
    with client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][1]['token']}", headers={}) as ws:
        ws.send_json({"type": "set_lang", "lang": "fi"})
        ws.send_json({"type": "action", "action": "zz", "id": "f"})
        fi = next_message(ws, lambda m: m.get("reply_to") == "f")["message"]
    assert (
        fi
        == "ei siirto: 'zz'; yhtään jakoa ei ole käynnissä: jako on päättynyt; lähetä next_deal aloittaaksesi seuraavan jaon"
    )
    assert tobj.seq == seq + 2 and tobj.match.record.number == 1  # the two seeds only: no deal dealt, nothing else


def test_a_value_that_misses_its_pattern_says_what_it_should_look_like():
    """Not "has characters that are not allowed": a day, a time, a blank name say what is
    allowed (the daily deal's day in the URL, a moderator's ``until``, the scorekeeper's names)."""
    import pytest
    from pydantic import ValidationError

    from ginrummy.web.errors import WebError
    from ginrummy.web.protocol.bodies import ModActionBody, SheetBody, _problem, parse_daily_path

    with pytest.raises(WebError) as info:
        parse_daily_path("04-12-2026")
    assert str(info.value) == "day: is not a date; allowed: YYYY-MM-DD"
    for model, data, words in (
        (
            ModActionBody,
            {"action": "warn", "reason": "r", "until": "next week"},
            "is not a time; allowed: an ISO 8601 time such as 2026-12-24T18:00Z",
        ),
        (SheetBody, {"names": ["Ann", "  "]}, "is blank; allowed: text with a character that is not a space"),
    ):
        with pytest.raises(ValidationError) as bad:
            model.model_validate(data)
        assert str(_problem(bad.value.errors()[0])) == words


def test_a_too_short_or_too_long_value_says_characters_for_text_and_items_for_a_list(client):
    """A text's limit is in characters and a list's in items: the error says which, and what is
    allowed (it said "(characters or items)" for both)."""
    before = len(client.app.state.manager.tables)
    r = client.post("/api/tables", json={"seats": [HUMANS[0], {"kind": "human", "name": "x" * 201}]})
    assert (r.status_code, r.json()) == (
        400,
        {"error": "seat 2: name is too long; allowed: at most 200 characters", "code": "bad_message"},
    )
    assert len(client.app.state.manager.tables) == before
    start = "2026-12-24T20:00:00+00:00"
    for body, error in (
        ({"name": "Club night", "start": "soon"}, "start: is too short; allowed: at least 10 characters"),
        ({"name": "", "start": start}, "name: is empty; allowed: a text of at least one character"),
        ({"name": "   ", "start": start}, "name: is blank; allowed: text with a character that is not a space"),
        ({"name": "Club night", "start": start, "levels": ["novice"] * 9}, "levels: has too many items; allowed: at most 8"),
    ):
        with pytest.raises(WebError) as err:
            parse_body(json.dumps(body).encode(), CreateTournamentBody)
        assert str(err.value) == error


def test_a_negative_deal_number_in_a_path_is_out_of_range_not_of_the_wrong_type():
    with pytest.raises(WebError) as err:
        parse_daily_path("2000-01-01", "-1")
    assert str(err.value) == "number: is out of range; allowed: at least 1"
    with pytest.raises(WebError) as err:
        parse_daily_path("2000-01-01", "x1")
    assert str(err.value) == "number: has the wrong type; allowed: a whole number"
