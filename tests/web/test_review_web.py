"""The expert's review at the web table (``docs/protocol.md``, "The review"; issue 15 item 3):
the ``review`` message, its progress and result, its refusals (bad input, a deal not over, a
match not over, spectators, one review at a time), and that a review shows no card the asking
seat could not see (DESIGN principle 3; R7: a drawn deal's hands stay hidden until the match
is over, so its hindsight line is withheld)."""

from __future__ import annotations

from typing import Any

from ginrummy.cards import card_str, cards_of

from .conftest import cards_in, new_table

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
BUDGET_MS = 2.0  # the fewest sampled deals a decision (16): the test is about the protocol, not the values


def _ws(client, table: dict[str, Any], i: int):
    return client.websocket_connect(f"/ws/table/{table['id']}?seat={table['seats'][i]['token']}")


def _until(ws, pred, seen: list[dict[str, Any]] | None = None, limit: int = 2000) -> dict[str, Any]:
    for _ in range(limit):
        msg = ws.receive_json()
        if seen is not None:
            seen.append(msg)
        if pred(msg):
            return msg
    raise AssertionError("the message never came")


def _unseen(match, player: int) -> set[str]:
    """The cards ``player`` never saw in the current deal of ``match`` (over or not): the cards
    left in the stock and the opponent's cards never face up (R3.2, R7)."""
    d = match.deal
    public = set(d.pile) | {d.upcard}
    for e in d.log:
        if e.kind in ("take_discard", "take_upcard", "discard") and e.card is not None:
            public.add(e.card)
    seat = match.seat_of(player)
    hidden = set(d.stock[d.drawn :]) | set(cards_of(d.hands[1 - seat]))
    return {card_str(c) for c in hidden - public}


def _no_knock(legal: list[str]) -> str:
    """Play on without ever knocking, so the stock runs out and the deal is drawn (R7)."""
    for a in ("pass", "draw stock"):
        if a in legal:
            return a
    return next(a for a in legal if a.startswith("discard "))


def _play_drawn_deal(client, t, tobj) -> None:
    """Ann and Bob play deal 1 to a draw (R7.1): nobody knocks."""
    with _ws(client, t, 0) as a, _ws(client, t, 1) as b:
        socks = [a, b]
        n = 0
        while tobj.match.deal.result is None:
            to_act = tobj.match.player_to_act()
            legal = [x.text for x in tobj.match.deal.legal_actions()]
            socks[to_act].send_json({"type": "action", "action": _no_knock(legal), "id": n})
            _until(socks[to_act], lambda m, n=n: m.get("reply_to") == n)
            n += 1
    assert tobj.match.deal.result.outcome == "draw"


def test_bad_review_messages_are_refused_and_change_nothing(client):
    t = new_table(client, HUMANS)
    tobj = client.app.state.manager.tables[t["id"]]
    seq = tobj.seq
    with _ws(client, t, 0) as ws:
        ws.receive_json()
        for i, bad in enumerate(
            [
                {"type": "review"},
                {"type": "review", "deal": "1"},
                {"type": "review", "deal": 0},
                {"type": "review", "deal": 1.5},
                {"type": "review", "deal": True},
                {"type": "review", "deal": 1, "player": "Bob"},
            ]
        ):
            ws.send_json({**bad, "id": i})
            msg = _until(ws, lambda m: m["type"] != "state")
            assert (msg["type"], msg["code"], msg["reply_to"]) == ("error", "bad_message", i), msg
        ws.send_json({"type": "review", "deal": 1, "id": "in-play"})
        msg = _until(ws, lambda m: m["type"] != "state")
        assert (msg["code"], msg["reply_to"]) == ("not_over", "in-play")
        assert msg["message"] == "deal 1 is not over: it can be reviewed once it ends"
        ws.send_json({"type": "review", "deal": 2, "id": "no-such"})
        msg = _until(ws, lambda m: m["type"] != "state")
        assert (msg["code"], msg["message"]) == ("bad_deal", "no deal 2; deals: 1 to 1")
        ws.send_json({"type": "review", "deal": None, "id": "match"})
        msg = _until(ws, lambda m: m["type"] != "state")
        assert msg["code"] == "not_over"
    assert tobj.seq == seq and client.app.state.reviews.running == 0


def test_a_spectator_gets_no_review(client):
    r = client.post(
        "/api/tables",
        json={
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}],
            "public": True,
            "rules": {"scoring": "deal"},
        },
    )
    t = r.json()
    with client.websocket_connect(f"/ws/table/{t['id']}?watch=1") as ws:
        ws.receive_json()
        ws.send_json({"type": "review", "deal": None, "id": 1})
        msg = _until(ws, lambda m: m["type"] == "error")
        assert (msg["code"], msg["reply_to"]) == ("not_allowed", 1)


def test_review_of_a_drawn_deal_shows_only_what_the_seat_saw(client):
    """Deal 1 is drawn (R7) and the match goes on: Ann's review has her own decisions only, no
    card she never saw (Bob's hand, the stock left) in any message, and no hindsight line (it
    would read Bob's hand).  A second review while one runs is refused (``busy``); the progress
    counts up to the result's number of decisions."""
    t = new_table(client, HUMANS)
    tobj = client.app.state.manager.tables[t["id"]]
    client.app.state.reviews.budget_ms = BUDGET_MS
    _play_drawn_deal(client, t, tobj)
    unseen = _unseen(tobj.match, 0)
    assert len(unseen) >= 10  # Bob's ten cards at least were never all shown
    seen: list[dict[str, Any]] = []
    with _ws(client, t, 0) as ws:
        ws.send_json({"type": "review", "deal": 1, "id": "r"})
        ws.send_json({"type": "review", "deal": 1, "id": "again"})
        busy = _until(ws, lambda m: m.get("reply_to") == "again", seen)
        assert (busy["type"], busy["code"]) == ("error", "busy")
        result = _until(ws, lambda m: m["type"] == "review", seen)
    assert result["reply_to"] == "r" and result["deal"] == 1
    progress = [m for m in seen if m["type"] == "review_progress"]
    review = result["result"]
    n = len(review["deals"][0]["decisions"])
    assert n >= 10
    # the first report answers the request; then done counts up to the decisions (the result is
    # always the last message, so a last report that would come after it is not sent)
    assert (progress[0]["done"], progress[0]["total"], progress[0]["reply_to"]) == (0, None, "r")
    counted = progress[1:]
    assert counted and all(m["total"] == n for m in counted)
    assert [m["done"] for m in counted] == sorted(m["done"] for m in counted) and counted[-1]["done"] <= n
    assert review["players"] == ["Ann"] and list(review["summary"]) == ["Ann"]
    assert {x["player"] for x in review["deals"][0]["decisions"]} == {"Ann"}
    assert review["value"] == "win_chance" and review["method"]["samples"] == 16
    hs = review["deals"][0]["hindsight"]
    assert hs["sealed"] is True and hs["first_win"] == {} and hs["over"] is True
    for msg in seen:
        leaked = cards_in(msg) & unseen
        assert not leaked, f"Ann was sent cards she never saw: {leaked} in {msg['type']}"
    assert client.app.state.reviews.running == 0


def test_review_of_a_finished_match_against_the_computer_in_greek(client):
    """One-deal scoring (R11.1): the match ends with the first deal that is not drawn (R7: a
    drawn deal is dealt again); its review (``deal: null``) has the hindsight line (the deal is
    public now), reasons in the connection's language, and the same values for deal 1 as the
    review of deal 1 (the same seed)."""
    client.app.state.reviews.budget_ms = BUDGET_MS
    # the table's seed is random: the computer, acting first, may take the upcard and knock at
    # once (R4.2, R5.1), and that deal is the match before Ann has moved (no decision of hers to
    # review); then another table is opened, at most five times
    for _attempt in range(5):
        t = new_table(
            client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}], rules={"scoring": "deal"}
        )
        tobj = client.app.state.manager.tables[t["id"]]
        with _ws(client, t, 0) as ws:
            n = 0
            acted: set[int] = set()  # once per step (a step may be sent twice)
            while True:
                msg = ws.receive_json()
                if msg["type"] != "state":
                    continue
                if msg["match"]["finished"]:
                    break
                if msg["seq"] in acted:
                    continue
                pending = msg["fair"]["pending"]
                if pending is not None and pending["yours"] is None:  # a drawn deal (R7): the next deal
                    ws.send_json({"type": "client_seed", "deal": pending["deal"], "seed": f"ann{pending['deal']}"})
                elif msg["can_next_deal"]:
                    ws.send_json({"type": "next_deal"})
                elif msg["your_turn"]:
                    legal = msg["view"]["legal_actions"]
                    ws.send_json(
                        {
                            "type": "action",
                            "id": n,
                            "action": next(
                                (a for a in legal if a.split()[0] in ("gin", "knock", "big")), _no_knock(legal)
                            ),
                        }
                    )
                    n += 1
                else:
                    continue
                acted.add(msg["seq"])
            if n == 0:
                continue
            ws.send_json({"type": "set_lang", "lang": "el"})
            ws.send_json({"type": "review", "deal": None, "id": "m"})
            whole = _until(ws, lambda m: m["type"] in ("review", "error"))
            ws.send_json({"type": "review", "deal": 1, "id": "d"})
            one = _until(ws, lambda m: m["type"] in ("review", "error"))
        break
    assert whole["type"] == one["type"] == "review", (whole, one)
    assert whole["deal"] is None and one["deal"] == 1
    r = whole["result"]
    assert r["value"] == "win_chance" and r["players"] == ["Ann"]
    assert r["deals"][0] == one["result"]["deals"][0]
    assert len(r["deals"]) == len(tobj.match.deals)
    hs = r["deals"][-1]["hindsight"]
    assert hs["sealed"] is False and hs["label"] == "hindsight" and set(hs["first_win"]) == {"Ann"}
    assert hs["text"] and not hs["text"].startswith("Hindsight"), hs["text"]  # said in Greek
    # Ann's decisions of every deal: a drawn deal (R7) before the scored one has its own, and the
    # summary counts them all; the last deal may have none (the computer may knock before she moves)
    decisions = [x for d in r["deals"] for x in d["decisions"]]
    assert decisions and all(x["player"] == "Ann" for x in decisions)
    english = ("best move found", "better by", "within the noise")
    assert not any(w in x["reason"] for x in decisions for w in english), decisions
    assert r["summary"]["Ann"]["decisions"] == len(decisions)


def test_the_server_runs_a_bounded_number_of_reviews(client):
    """With room for one review in the server, a second person's review is refused
    (``server_busy``) while the first runs, and accepted once it is done."""
    t = new_table(client, HUMANS)
    tobj = client.app.state.manager.tables[t["id"]]
    reviews = client.app.state.reviews
    reviews.budget_ms, reviews.max_jobs = BUDGET_MS, 1
    _play_drawn_deal(client, t, tobj)
    with _ws(client, t, 0) as a, _ws(client, t, 1) as b:
        a.send_json({"type": "review", "deal": 1, "id": "a"})
        _until(a, lambda m: m["type"] == "review_progress")
        b.send_json({"type": "review", "deal": 1, "id": "b"})
        msg = _until(b, lambda m: m.get("reply_to") == "b")
        assert (msg["type"], msg["code"]) == ("error", "server_busy")
        _until(a, lambda m: m["type"] == "review")
        b.send_json({"type": "review", "deal": 1, "id": "b2"})
        msg = _until(b, lambda m: m["type"] in ("review", "error"))
        assert msg["type"] == "review" and msg["result"]["players"] == ["Bob"]


def test_a_closed_connection_frees_its_review_slot(client):
    """A connection that closes while its review runs: the review ends in the worker, its result
    goes nowhere, and the server's slot is free again (``server_busy`` until then)."""
    import time

    t = new_table(client, HUMANS)
    tobj = client.app.state.manager.tables[t["id"]]
    reviews = client.app.state.reviews
    reviews.budget_ms, reviews.max_jobs = BUDGET_MS, 1
    _play_drawn_deal(client, t, tobj)
    with _ws(client, t, 0) as a:
        a.send_json({"type": "review", "deal": 1, "id": "a"})
        _until(a, lambda m: m["type"] == "review_progress")
    answers = []
    with _ws(client, t, 1) as b:
        for i in range(600):
            b.send_json({"type": "review", "deal": 1, "id": i})
            msg = _until(b, lambda m, i=i: m.get("reply_to") == i)
            answers.append(msg.get("code", msg["type"]))
            if msg["type"] == "review_progress":
                break
            time.sleep(0.05)
        result = _until(b, lambda m: m["type"] in ("review", "error"))
    assert answers[-1] == "review_progress" and set(answers[:-1]) <= {"server_busy"}
    assert result["type"] == "review" and result["result"]["players"] == ["Bob"]
    assert reviews.running == 0


def test_a_worker_that_dies_is_an_internal_error_and_the_next_review_works(client):
    """The review's worker process is killed during a review: the asker gets ``internal``
    (nothing at the table changed), and the next review starts a new worker."""
    t = new_table(client, HUMANS)
    tobj = client.app.state.manager.tables[t["id"]]
    reviews = client.app.state.reviews
    reviews.budget_ms = 20000.0  # long enough to be killed while it runs
    reviews.budget.max_request_ms = reviews.budget.max_client_ms = float("inf")  # past the review budgets
    _play_drawn_deal(client, t, tobj)
    seq = tobj.seq
    with _ws(client, t, 0) as a:
        a.send_json({"type": "review", "deal": 1, "id": "a"})
        _until(a, lambda m: m["type"] == "review_progress" and m["total"] is not None)
        for proc in list(reviews._pool._processes.values()):
            proc.kill()
        msg = _until(a, lambda m: m["type"] in ("review", "error"))
        assert (msg["type"], msg["code"], msg["reply_to"]) == ("error", "internal", "a")
        reviews.budget_ms = BUDGET_MS
        a.send_json({"type": "review", "deal": 1, "id": "b"})
        msg = _until(a, lambda m: m["type"] in ("review", "error"))
        assert msg["type"] == "review" and msg["result"]["players"] == ["Ann"]
    assert tobj.seq == seq and reviews.running == 0
