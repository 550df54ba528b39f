"""With no delay before a computer seat's move (``bot_delay=0``) and holding on
(``TableManager.held_steps``), the state of a person's move waits for the computer's immediate answer (docs/protocol.md, "The WebSocket"): one ``state``
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
    from ginrummy.web.tables import HELD_STEPS

    assert client.app.state.manager.held_steps == HELD_STEPS == 4  # the default (TableManager.held_steps)
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


def test_without_holding_every_step_gets_its_state_before_the_ack(client):
    """Holding off (``held_steps`` 0): the person's step has a state of its own, which comes
    before its ``ack``; the computer's answer follows in states of its own."""
    client.app.state.manager.held_steps = 0
    t = new_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}],
                  preset="standard", rules={"scoring": "deal"})
    with client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ws:
        st = ws.receive_json()
        while st["type"] != "state" or not st["your_turn"]:
            st = ws.receive_json()
        ws.send_json({"type": "action", "action": _pick(st["view"]["legal_actions"]), "id": "m"})
        states = []
        got = ws.receive_json()
        while got["type"] != "ack":
            assert got["type"] == "state"
            states.append(got)
            got = ws.receive_json()
        # the first state is that of the person's own step, and it came before the ack
        assert got["reply_to"] == "m" and states and states[0]["seq"] == got["seq"]
