"""The review in the replay viewer over HTTP (``ginrummy.web.http.replay_review_routes``; issue 15 item 3):
an uploaded record and a finished match are reviewed in the review worker, off the event loop,
with progress; a finished review is kept and reused; bad queries and records are refused and
change nothing; only who may replay a match may review it, a live match never (DESIGN
principle 3: its players ask at the table, for their own decisions only)."""

from __future__ import annotations

import time
from typing import Any

from ginrummy.analysis.review import build_review
from ginrummy.web.protocol.replay_frames import MAX_RECORD_BYTES, replay_frames

from .conftest import cards_in, new_table
from .planted import PLANTED_INDEX, planted_record
from .test_ratings import _signup, play_out
from .test_review_web import HUMANS, _play_drawn_deal, _unseen

BUDGET = "10"  # 16 sampled deals a decision: the tests are about the endpoints, the values are checked exactly


def _poll(client, r, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """Follow a review's answer ``r`` (202 running or 200 done) to its result, polling its key
    (with ``headers``: the poll's answer is in its own request's language)."""
    body = r.json()
    assert r.status_code in (200, 202), body
    key = body["key"]
    for _ in range(2400):  # at most 2 minutes
        if body["status"] == "done":
            assert r.status_code == 200 and body["key"] == key
            return body
        assert (r.status_code, body["status"]) == (202, "running")
        assert body["total"] is None or 0 <= body["done"] <= body["total"]
        time.sleep(0.05)
        r = client.get(f"/api/reviews/{key}", headers=headers)
        body = r.json()
    raise AssertionError("the review did not finish")


def _upload(client, text: str, query: str = f"budget_ms={BUDGET}"):
    return client.post(f"/api/reviews?{query}", content=text.encode(), headers={"Content-Type": "text/plain"})


def test_an_uploaded_record_is_reviewed_move_by_move_and_kept(client):
    text = planted_record()
    first = _upload(client, text)
    done = _poll(client, first)
    result = done["result"]
    expected = build_review(text, budget_ms=float(BUDGET)).to_dict()  # the same review, in this process
    assert result["players"] == ["Ann", "Bob"] and result["value"] == "win_chance"
    got = [{k: v for k, v in x.items() if k != "reason"} for x in result["deals"][0]["decisions"]]
    assert got == [{k: v for k, v in x.items() if k != "reason"} for x in expected["deals"][0]["decisions"]]
    assert done["done"] == done["total"] == len(got) == 47
    # every decision is a move of the replay: its index is the frame it leads to
    frames = replay_frames(text)["deals"][0]["frames"]
    assert all(frames[x["index"]]["action"] == x["played"] and frames[x["index"]]["by"] == x["player"] for x in got)
    blunder = next(x for x in result["deals"][0]["decisions"] if x["index"] == PLANTED_INDEX)
    assert (blunder["player"], blunder["played"], blunder["best"], blunder["mark"]) == (
        "Bob",
        "draw stock",
        "take discard",
        "blunder",
    )
    assert blunder["reason"].startswith("take the discard is better by ")
    hs = result["deals"][0]["hindsight"]
    assert hs["sealed"] is False and hs["text"].startswith("Hindsight (all hands shown, not part of the review): ")
    assert result["summary"]["Bob"]["blunders"] == expected["summary"]["Bob"]["blunders"] >= 1
    # asked again: the kept review, at once, with the same key; nothing runs
    again = _upload(client, text)
    assert again.status_code == 200 and again.json()["key"] == done["key"] and again.json()["status"] == "done"
    assert client.app.state.reviews.running == 0
    assert again.json()["result"] == result
    # another budget is another review; the seed is the server's (0), never the client's
    other = _upload(client, text, "budget_ms=11")
    assert other.json()["key"] != done["key"]
    assert _poll(client, other)["result"]["method"]["seed"] == 0
    # one deal only, and in Greek
    greek = client.post(
        f"/api/reviews?budget_ms={BUDGET}&deal=1", content=text.encode(), headers={"Accept-Language": "el"}
    )
    el = _poll(client, greek, {"Accept-Language": "el"})["result"]
    assert [d["number"] for d in el["deals"]] == [1]
    assert el["deals"][0]["hindsight"]["text"].startswith("Εκ των υστέρων")


def test_bad_review_requests_are_refused_and_change_nothing(client):
    text = planted_record()
    rr = client.app.state.replay_reviews
    for query, field in [
        ("deal=0", "deal"),
        ("deal=abc", "deal"),
        ("deal=1.5", "deal"),
        ("budget_ms=5", "budget_ms"),
        ("budget_ms=401", "budget_ms"),
        ("budget_ms=nan", "budget_ms"),
        ("budget_ms=inf", "budget_ms"),
        ("seed=1", "seed"),
        ("seed=0", "seed"),
        ("colour=red", "colour"),
        ("seed=1&seed=2", "seed"),
        ("seed=" + "1" * 21, "seed"),
    ]:
        r = _upload(client, text, query)
        assert r.status_code == 400 and r.json()["code"] == "bad_message", (query, r.text)
        assert r.json()["error"].startswith(field + ": "), (query, r.json())
    r = _upload(client, text, "deal=2")
    assert (r.status_code, r.json()["code"], r.json()["error"]) == (400, "bad_deal", "no deal 2; deals: 1 to 1")
    r = _upload(client, text.replace("draw stock", "draw stcok", 1))
    assert r.status_code == 400 and r.json()["code"] == "bad_record" and "line" in r.json()["error"]
    r = client.post("/api/reviews", content=b"\xff\xfe not text")
    assert (r.status_code, r.json()["code"]) == (400, "bad_record")
    r = client.post("/api/reviews", content=b"x" * (MAX_RECORD_BYTES + 1))
    assert (r.status_code, r.json()["code"]) == (413, "too_large")
    for key in ["0" * 32, "nosuchkey", "x" * 200]:
        r = client.get(f"/api/reviews/{key}")
        assert (r.status_code, r.json()["code"]) == (404, "not_found")
    assert client.post("/api/replays/nosuchtable/review").status_code == 404
    assert len(rr._entries) == 0 and client.app.state.reviews.running == 0


def test_only_who_may_replay_a_match_may_review_it(client):
    """A live match has no replay and no review here, even for its player; once over, the
    unrated match is Ann's only (not public): signed out or signed in as Eve, it is not found.
    Its review is of the replay's own public record: both players' decisions, each valued from
    that player's view."""
    _signup(client, "Ann")
    table = new_table(
        client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}], preset="single", deal=False
    )
    url = f"/api/replays/{table['id']}/review?budget_ms={BUDGET}"
    live = client.post(url)
    assert (live.status_code, live.json()["code"]) == (404, "not_found")
    play_out(client, table)
    m = client.app.state.manager.tables[table["id"]].match
    assert m.finished and len(m.deals) == 1
    result = _poll(client, client.post(url))["result"]
    names = list(m.names)
    assert result["players"] == names and result["value"] == "win_chance"
    assert {x["player"] for x in result["deals"][0]["decisions"]} == set(names)
    bad = client.post(url.replace("budget_ms=10", "budget_ms=1"))
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_message")
    client.delete("/api/session")
    assert client.post(url).status_code == 404
    _signup(client, "Eve")
    assert client.post(url).status_code == 404
    assert client.get(f"/api/replays/{table['id']}").status_code == 404  # the same rule as the replay


def test_a_live_matchs_download_reviews_no_hidden_card(client):
    """Deal 1 is drawn (R7) and the match goes on: Ann's download (public) seals it, so its
    review has no deal to show and no card Ann never saw; the table's own review stays Ann's
    (test_review_web)."""
    t = new_table(client, HUMANS)
    tobj = client.app.state.manager.tables[t["id"]]
    _play_drawn_deal(client, t, tobj)
    unseen = _unseen(tobj.match, 0)
    text = client.get(f"/api/tables/{t['id']}/record?seat={t['seats'][0]['token']}").text
    assert "sealed" in text.split()
    r = _upload(client, text)
    body = _poll(client, r)
    assert body["result"]["deals"] == [] and body["total"] == 0
    assert not cards_in(body) & unseen
    r = _upload(client, text, f"budget_ms={BUDGET}&deal=1")
    assert (r.status_code, r.json()["code"]) == (400, "bad_deal")
    assert r.json()["error"] == "deal 1 is sealed: its cards are still secret, so it cannot be reviewed"
    assert client.post(f"/api/replays/{t['id']}/review").status_code == 404


def test_a_busy_server_says_so_and_the_review_can_be_asked_again(client):
    """At most ``max_jobs`` reviews run at once (shared with the tables): one more is refused
    with ``server_busy`` (at once, or on its first poll if it was queued behind them), and
    works when asked again once the first is done."""
    service = client.app.state.reviews
    service.max_jobs = 1
    text = planted_record()
    first = _upload(client, text, "budget_ms=11")
    assert (first.status_code, first.json()["status"]) == (202, "running")
    second = _upload(client, text, "budget_ms=12")
    if second.status_code == 202:  # queued before the first had started: refused on its first poll
        for _ in range(100):
            second = client.get(f"/api/reviews/{second.json()['key']}")
            if second.status_code != 202:
                break
            time.sleep(0.01)
    assert (second.status_code, second.json()["code"]) == (503, "server_busy")
    assert second.json()["error"] == "the server is busy with other reviews; try again in a minute"
    _poll(client, first)
    again = _poll(client, _upload(client, text, "budget_ms=12"))
    assert again["result"]["method"]["budget_ms"] == 12 and service.running == 0
