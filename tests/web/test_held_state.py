"""With no delay before a computer seat's move (``bot_delay=0``), the state of a person's move
waits for the computer's immediate answer (docs/protocol.md, "The WebSocket"): one ``state``
shows the person's step and the computer's (its draw and its discard, R4-R5), it comes before
the person's ``ack``, and the ``ack`` still names the person's own step."""

from __future__ import annotations

from .conftest import new_table


def _pick(legal: list[str]) -> str:
    for kind in ("big gin", "gin", "knock"):
        for a in legal:
            if a.startswith(kind):
                return a
    return "draw stock" if "draw stock" in legal else ("pass" if "pass" in legal else legal[-1])


def test_one_state_per_person_move_before_its_ack(client):
    t = new_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}],
                  preset="standard", rules={"scoring": "deal"})
    tobj = client.app.state.manager.tables[t["id"]]
    gaps: list[int] = []
    with client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ws:
        st = ws.receive_json()
        while st["type"] != "state" or st["your_turn"] is False and not st["can_next_deal"]:
            st = ws.receive_json()
        n = 0
        while not st["match"]["finished"] and n < 200:
            if st["can_next_deal"]:
                ws.send_json({"type": "next_deal"})
                st = ws.receive_json()
                while st["type"] != "state" or not (st["your_turn"] or st["match"]["finished"]):
                    st = ws.receive_json()
                continue
            assert st["your_turn"]
            ws.send_json({"type": "action", "action": _pick(st["view"]["legal_actions"]), "id": n})
            got = [ws.receive_json(), ws.receive_json()]
            # exactly one state, then the ack; the state never leaves the computer to act
            assert [m["type"] for m in got] == ["state", "ack"], got
            st, ack = got
            assert ack["reply_to"] == n
            assert st["your_turn"] or st["can_next_deal"] or st["match"]["finished"]
            # the person's step is ack.seq; the computer's immediate answer is 0, 1 or 2 steps
            gaps.append(st["seq"] - ack["seq"])
            assert 0 <= gaps[-1] <= 2
            n += 1
    assert tobj.match.finished
    assert 2 in gaps and 0 in gaps  # a discard answered by a draw and a discard; a draw, by nothing
