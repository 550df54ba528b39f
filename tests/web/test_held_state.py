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
    from ginrummy.web.room.tables import HELD_STEPS

    assert client.app.state.manager.held_steps == HELD_STEPS == 4  # the default (TableManager.held_steps)
    gaps: list[int] = []
    # one-deal matches until both answers below were seen: the table's seed is random, and a short
    # deal may lack one (the computer may take the upcard and knock before Ann draws, R4.2, R5.1;
    # Ann, knocking at her first chance, may knock on her first discard): at most five tables
    for _attempt in range(5):
        t = new_table(
            client,
            [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}],
            preset="standard",
            rules={"scoring": "deal"},
        )
        tobj = client.app.state.manager.tables[t["id"]]
        with client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ws:
            st = ws.receive_json()
            while st["type"] != "state" or not (st["your_turn"] or st["can_next_deal"] or st["match"]["finished"]):
                st = ws.receive_json()
            n = 0
            while not st["match"]["finished"] and n < 200:
                if st["can_next_deal"]:  # a drawn deal (R7): Ann's client seed, then the next deal
                    pending = st["fair"]["pending"]
                    if pending is not None and pending["yours"] is None:  # (without it the wait below hung)
                        ws.send_json({"type": "client_seed", "deal": pending["deal"], "seed": f"ann{pending['deal']}"})
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
        if 2 in gaps and 0 in gaps:
            break
    assert 2 in gaps and 0 in gaps  # a discard answered by a draw and a discard; a draw, by nothing


def test_without_holding_every_step_gets_its_state_before_the_ack(client):
    """Holding off (``held_steps`` 0): the person's step has a state of its own, which comes
    before its ``ack``; the computer's answer follows in states of its own."""
    client.app.state.manager.held_steps = 0
    # the table's seed is random: the computer, acting first, may take the upcard and knock at
    # once (R4.2, R5.1), and that deal is the match before Ann's turn (the wait for her turn
    # hung there); then another table is opened, at most five times
    for _attempt in range(5):
        t = new_table(
            client,
            [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}],
            preset="standard",
            rules={"scoring": "deal"},
        )
        with client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ws:
            st = ws.receive_json()
            while st["type"] != "state" or not (st["your_turn"] or st["match"]["finished"]):
                st = ws.receive_json()
            if not st["your_turn"]:
                continue
            ws.send_json({"type": "action", "action": _pick(st["view"]["legal_actions"]), "id": "m"})
            states = []
            got = ws.receive_json()
            while got["type"] != "ack":
                assert got["type"] == "state"
                states.append(got)
                got = ws.receive_json()
            # the first state is that of the person's own step, and it came before the ack
            assert got["reply_to"] == "m" and states and states[0]["seq"] == got["seq"]
        break
    else:
        raise AssertionError("at five tables the computer ended the match before Ann's first turn")


def _play_through(client, t: dict, limit: int = 200) -> None:
    """Ann plays the match of table ``t`` to its end (at most ``limit`` messages sent), sending
    her client seed for each next deal as the page does."""
    with client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ws:
        st = ws.receive_json()
        for n in range(limit):
            while st["type"] != "state":
                st = ws.receive_json()
            if st["match"]["finished"]:
                return
            pending = st["fair"]["pending"]
            if pending is not None and pending["yours"] is None:
                out = {"type": "client_seed", "deal": pending["deal"], "seed": f"ann{n}"}
            elif st["can_next_deal"] and not (pending and pending["waiting_for"]):
                out = {"type": "next_deal"}
            elif st["your_turn"]:
                out = {"type": "action", "action": _pick(st["view"]["legal_actions"])}
            else:
                st = ws.receive_json()
                continue
            ws.send_json({**out, "id": n})
            got = ws.receive_json()
            while got.get("reply_to") != n:  # the states before the answer: the last is current
                st = got if got["type"] == "state" else st
                got = ws.receive_json()
            assert got["type"] == "ack", got


def test_the_computers_answer_is_stored_with_the_move_and_is_the_move_it_makes_alone(client):
    """With holding on, a person's move and the computer's immediate answer (its draw and its
    discard) are worked out before anything is stored and go into one transaction
    (``AutoPlay.answer``, ``GroupCommitter.append_steps``).  Every computer move stored is
    the one ``bot_choice`` makes from the stored steps before it (seeded by the step), so the
    look-ahead changes nothing but the number of commits: replayed from the store, each of the
    computer's moves is chosen again, the same."""
    manager = client.app.state.manager
    # the table's seed is random: the computer may end deal 1 before Ann's first discard (it
    # takes the upcard, or draws, and knocks at once, R4.2, R5.1; the wait for her turn hung
    # there); then another table is opened, at most five times
    for _attempt in range(5):
        t = new_table(
            client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}], preset="standard"
        )  # a game to 100: several deals
        tobj = manager.tables[t["id"]]
        with client.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ws:
            st = ws.receive_json()
            for _ in range(50):  # to Ann's first discard: she draws (state, then ack) when it is her turn
                while st["type"] != "state" or not (st["your_turn"] or st["view"]["phase"] == "over"):
                    st = ws.receive_json()
                if st["view"]["phase"] in ("discard", "over"):
                    break
                ws.send_json({"type": "action", "action": _pick(st["view"]["legal_actions"]), "id": "d"})
                got = [ws.receive_json()]
                while got[-1]["type"] != "ack":
                    got.append(ws.receive_json())
                st = [m for m in got if m["type"] == "state"][-1]
            if st["view"]["phase"] == "over":
                continue
            before = (manager.committer.batches, manager.committer.steps, tobj.seq)
            discard = next(a for a in st["view"]["legal_actions"] if a.startswith("discard"))
            ws.send_json({"type": "action", "action": discard, "id": "x"})
            got = [ws.receive_json(), ws.receive_json()]
        break
    else:
        raise AssertionError("at five tables the computer ended deal 1 before Ann's first discard")
    assert [m["type"] for m in got] == ["state", "ack"]
    if not tobj.match.deal.is_over:  # (a knock that ends the deal is stored on its own)
        # the discard, the computer's draw and its discard: three steps, one transaction
        assert (manager.committer.batches - before[0], manager.committer.steps - before[1]) == (1, 3)
        assert got[1]["seq"] == before[2] + 1 and got[0]["seq"] == before[2] + 3
    _play_through(client, t, limit=1000)
    assert tobj.match.finished
    bot_moves = _chosen_again(manager, t["id"])
    # the table's seed is random, and a game to 100 may be over in two short deals with fewer
    # computer moves (about 1 match in 40): then more matches are played and replayed until more
    # than 20 were chosen again, at most five
    for _ in range(5):
        if bot_moves > 20:
            break
        more = new_table(
            client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}], preset="standard"
        )
        _play_through(client, more, limit=1000)
        assert manager.tables[more["id"]].match.finished
        bot_moves += _chosen_again(manager, more["id"])
    assert bot_moves > 20


def _chosen_again(manager, table_id: str) -> int:
    """Replay the stored steps of finished table ``table_id`` and choose every computer move
    again from the steps before it: each is the stored one; how many there were."""
    from ginrummy.web.room.autoplay import bot_choice
    from ginrummy.web.room.tables import Table

    row, steps = manager.store.load(table_id)
    replay = Table(
        row, None, seat_secrets=manager.store.seat_secrets(table_id), options=manager.store.options(table_id)
    )
    bot_moves = 0
    for s in steps:
        if s.kind == "action" and s.player == 1:
            again = bot_choice(replay, 1, replay.seq, replay.started_match().view(1))
            assert again.text == s.text, (s.seq, again.text, s.text)
            bot_moves += 1
        replay.replay([s])
    assert replay.match.sheet.totals == manager.tables[table_id].match.sheet.totals
    return bot_moves
