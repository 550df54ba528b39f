"""One client seed per person per deal (issue 28 item 7; docs/protocol.md, ``client_seed``):
the server takes the same seed again but refuses a second, different one, so a server that asks
again cannot hold several of a person's seeds and choose the deal among them."""

from __future__ import annotations

from .conftest import new_table, next_message


def _send(ws, seed: str, rid: str) -> dict:
    ws.send_json({"type": "client_seed", "deal": 1, "seed": seed, "id": rid})
    return next_message(ws, lambda m: m.get("reply_to") == rid)


def test_a_second_different_seed_for_the_same_deal_is_refused(client):
    t = new_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], deal=False)
    ann, bob = (f"/ws/table/{t['id']}?seat={s['token']}" for s in t["seats"])
    with client.websocket_connect(ann) as ws:
        assert _send(ws, "first", "a")["type"] == "ack"
        assert _send(ws, "first", "b")["type"] == "ack"  # the same seed again: the page re-sends it
        err = _send(ws, "second", "c")
        assert (err["type"], err["code"]) == ("error", "not_allowed")
        assert err["message"] == (
            "your client seed for deal 1 is already in (first); a deal takes one seed per "
            "person, so it cannot be changed"
        )
        ws.send_json({"type": "sync", "id": "d"})
        st = next_message(ws, lambda m: m.get("type") == "state")
        assert st["fair"]["pending"]["yours"] == "first"
    with client.websocket_connect(bob) as ws:
        assert _send(ws, "bobs", "e")["type"] == "ack"
    tobj = client.app.state.manager.tables[t["id"]]
    assert tobj.match is not None and tobj.match.deals[0].client_seeds == ("first", "bobs")
