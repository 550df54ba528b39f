"""Budgets of the expert's review and limits on uploads (issue 27, items 3 and 4;
``ginrummy.web.review_budget``, ``ginrummy.web.uploads``; ``docs/protocol.md``, "Review budgets"
and "Uploads").  The rules are unit-tested on the pure :class:`ReviewBudget` and
:class:`UploadGate`; the endpoints show them end to end."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from ginrummy.analysis.review import build_review, count_decisions
from ginrummy.web.review_budget import BudgetError, ReviewBudget, client_key
from ginrummy.web.uploads import UploadGate

from .planted import planted_record
from .test_ratings import _signup
from .test_replay_review import _poll, _upload

# -- the ledger, the bounds and the fair queue (pure) --------------------------------------------


def test_cost_is_decisions_times_budget_and_one_request_is_bounded():
    b = ReviewBudget(max_request_ms=120_000)
    assert b.cost(300, 400) == 120_000.0
    b.check_request(300, 400)  # exactly at the bound: allowed
    with pytest.raises(BudgetError) as e:
        b.check_request(11_150, 400)
    assert (e.value.code, e.value.status) == ("too_large", 413)
    assert str(e.value) == ("this review has 11150 decisions; at 400 ms a decision one review may have at most 300: "
                            "ask for one deal (deal=N) or a smaller budget_ms")


def test_a_client_spends_at_most_its_hourly_budget_and_is_told_when_to_come_back():
    b = ReviewBudget(max_client_ms=100_000, window=3600)
    b.charge("address:1.2.3.4", 60_000, now=0)
    b.charge("address:1.2.3.4", 40_000, now=100)  # exactly the budget
    with pytest.raises(BudgetError) as e:
        b.charge("address:1.2.3.4", 1, now=200)
    assert (e.value.code, e.value.status, e.value.retry_after) == ("rate_limited", 429, 3400)
    assert str(e.value) == ("you have asked for 100 s of reviews in the last hour; the limit is 100 s an hour: "
                            "try again in 3400 s")
    assert b.spent("address:1.2.3.4", 200) == 100_000  # the refusal charged nothing
    b.charge("address:5.6.7.8", 100_000, now=200)  # another client is not held up
    with pytest.raises(BudgetError) as e:  # 50,000 more: only once the first 60,000 have left the window
        b.charge("address:1.2.3.4", 50_000, now=3000)
    assert e.value.retry_after == 600
    b.charge("address:1.2.3.4", 50_000, now=3600)
    assert b.spent("address:1.2.3.4", 3600) == 90_000


def test_the_queue_is_round_robin_by_client():
    """One client's four jobs take turns with the others': a table review asked after them
    is second, not fifth."""
    b = ReviewBudget(max_queued=10, max_queued_per_client=10)
    for j in ("a1", "a2", "a3", "a4"):
        b.push("A", j)
    b.push("T", "t1")
    b.push("B", "b1")
    order = []
    while (job := b.pop()) is not None:
        order.append(job)
        if job == "a1":
            b.push("T", "t2")  # asked while a1 runs: after B's turn, before A's third
    assert order == ["a1", "t1", "b1", "a2", "t2", "a3", "a4"]
    assert b.jobs == 7  # popped jobs count until they are done
    for j in order:
        b.done(j)
    assert b.jobs == 0


def test_admission_bounds_the_queue_in_all_and_per_client_and_done_frees_a_queued_job():
    b = ReviewBudget(max_queued=3, max_queued_per_client=2)
    b.admit("A")
    b.push("A", 1)
    b.push("A", 2)
    with pytest.raises(BudgetError) as e:
        b.admit("A")
    assert (e.value.code, e.value.status, str(e.value)) == (
        "server_busy", 503, "you have 2 reviews queued or running already; wait for one to finish")
    b.push("B", 3)
    with pytest.raises(BudgetError) as e:
        b.admit("C")
    assert str(e.value) == "the server is busy with other reviews; try again in a minute"
    assert b.queued(2)
    b.done(2)  # cancelled while queued: it never runs
    assert not b.queued(2) and b.jobs == 2
    assert [b.pop(), b.pop(), b.pop()] == [1, 3, None]


def test_jobs_no_one_polls_are_idle_once():
    b = ReviewBudget(idle_seconds=30)
    b.push("A", 1)
    b.push("A", 2)
    b.polled(1, 0)
    b.polled(2, 0)
    b.polled(3, 0)  # not queued: not watched
    b.polled(2, 20)
    assert b.idle(29) == []
    assert b.idle(30) == [1]
    assert b.idle(31) == []  # returned once
    assert b.idle(50) == [2]


def test_client_key_prefers_the_account():
    assert client_key("10.0.0.1") == "address:10.0.0.1"
    assert client_key("10.0.0.1", 7) == "account:7"
    assert client_key(None) == "address:"


def test_count_decisions_is_the_reviews_total():
    text = planted_record()
    assert count_decisions(text) == 47 == len(build_review(text, budget_ms=10).deals[0].decisions)
    assert count_decisions(text, player="Bob") == len(build_review(text, player="Bob", budget_ms=10).deals[0].decisions)


# -- the endpoints ------------------------------------------------------------------------------


def test_a_review_too_large_for_one_request_is_refused_413_naming_the_bound(client):
    reviews = client.app.state.reviews
    reviews.budget.max_request_ms = 1000.0  # 10 decisions at 100 ms; the planted record has 47
    r = _upload(client, planted_record(), "budget_ms=100")
    assert (r.status_code, r.json()["code"]) == (413, "too_large")
    assert r.json()["error"] == ("this review has 47 decisions; at 100 ms a decision one review may have at most 10: "
                                 "ask for one deal (deal=N) or a smaller budget_ms")
    assert reviews.running == 0 and reviews.budget.spent("address:testclient", 0) == 0
    greek = client.post("/api/reviews?budget_ms=100", content=planted_record().encode(),
                        headers={"Accept-Language": "el"})
    assert greek.status_code == 413 and greek.json()["error"] != r.json()["error"]


def test_a_client_past_its_hourly_budget_gets_429_with_retry_after_and_a_shared_job_costs_nothing(client):
    reviews = client.app.state.reviews
    reviews.budget.max_client_ms = 5000.0
    text = planted_record()
    first = _upload(client, text, "budget_ms=100")  # 47 x 100 = 4,700 ms
    assert first.status_code == 202
    again = _upload(client, text, "budget_ms=100")  # the same job: shared, nothing charged
    assert again.json()["key"] == first.json()["key"]
    r = _upload(client, text, "budget_ms=10")  # 470 more: past 5,000
    assert (r.status_code, r.json()["code"]) == (429, "rate_limited")
    assert r.headers["Retry-After"] == "3600"
    assert r.json()["error"] == ("you have asked for 4.7 s of reviews in the last hour; the limit is 5 s an hour: "
                                 "try again in 3600 s")
    _signup(client, "Ann")  # signed in: the account's own budget, not the address's
    other = _upload(client, text, "budget_ms=10")
    assert other.status_code == 202, other.text
    _poll(client, first)
    _poll(client, other)
    assert reviews.running == 0


def test_a_review_no_one_polls_is_cancelled_and_its_worker_freed(client):
    reviews = client.app.state.reviews
    reviews.budget.idle_seconds = 0.3
    text = planted_record()
    slow = _upload(client, text, "budget_ms=400")  # 47 decisions of about 0.3 s each
    assert slow.status_code == 202
    key = slow.json()["key"]
    for _ in range(600):
        if reviews.running == 0:
            break
        time.sleep(0.05)
    assert reviews.running == 0
    r = client.get(f"/api/reviews/{key}")
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    reviews.budget.idle_seconds = 30.0
    fast = _poll(client, _upload(client, text, "budget_ms=10"))  # the worker is free again
    assert fast["total"] == 47


def test_a_replay_review_takes_no_seed():
    """The server chooses the seed: a request naming one is refused, naming the fields."""
    from ginrummy.web.protocol.bodies import MessageError, parse_query

    with pytest.raises(MessageError) as e:
        parse_query([("seed", "1")])
    assert str(e.value) == "seed: is not a field here; fields: deal, budget_ms"


# -- uploads ------------------------------------------------------------------------------------


def _run_gate(gate: UploadGate, bodies: list[Any], path: str = "/api/reviews") -> tuple[int, dict[str, str], Any]:
    """Send one request through ``gate``: ``bodies`` are its body chunks (``None``: wait for
    ever).  Returns (status, headers, JSON body)."""
    out: list[dict[str, Any]] = []
    chunks = list(bodies)

    async def receive() -> dict[str, Any]:
        if not chunks:
            await asyncio.sleep(3600)
        c = chunks.pop(0)
        if c is None:
            await asyncio.sleep(3600)
        return {"type": "http.request", "body": c, "more_body": bool(chunks)}

    async def send(msg: dict[str, Any]) -> None:
        out.append(msg)

    async def go() -> None:
        await gate({"type": "http", "method": "POST", "path": path, "headers": []}, receive, send)

    asyncio.run(go())
    start = next(m for m in out if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in out if m["type"] == "http.response.body")
    return start["status"], {k.decode(): v.decode() for k, v in start.get("headers", [])}, json.loads(body)


async def _echo(scope: Any, receive: Any, send: Any) -> None:
    """An app that answers the length of the body it reads."""
    body = b""
    while True:
        msg = await receive()
        body += msg.get("body", b"")
        if not msg.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": json.dumps({"n": len(body)}).encode()})


def _gate(**kw: Any) -> UploadGate:
    return UploadGate(_echo, limit=100, message=lambda scope, msg: str(msg), **kw)


def test_an_upload_is_read_in_chunks_and_handed_on_whole():
    assert _run_gate(_gate(), [b"x" * 60, b"y" * 40])[::2] == (200, {"n": 100})


def test_a_chunked_upload_past_the_limit_is_refused_while_it_is_read():
    status, _, body = _run_gate(_gate(), [b"x" * 60, b"y" * 41, None])  # the rest would never come
    assert (status, body) == (413, {"error": "request body too large; the limit is 100 bytes", "code": "too_large"})


def test_an_upload_that_trickles_in_times_out_408():
    status, _, body = _run_gate(_gate(seconds=0.2), [b"x", None])
    assert (status, body["code"]) == (408, "timeout")
    assert body["error"] == "the upload took too long: a body must arrive within 0.2 s"


def test_uploads_past_the_limit_at_once_are_503_with_retry_after():
    gate = _gate(max_uploads=1)
    gate.active = 1  # one upload is being read
    status, headers, body = _run_gate(gate, [b"x"])
    assert (status, headers["retry-after"], body["code"]) == (503, "2", "server_busy")
    assert body["error"] == "the server is reading 1 uploads already; try again in a few seconds"
    assert _run_gate(gate, [b"x"], path="/api/tables")[0] == 200  # only the upload paths
    gate.active = 0
    assert _run_gate(gate, [b"x"])[0] == 200 and gate.active == 0


def test_the_app_limits_uploads_at_once(client):
    """Two uploads being read: a third is 503 with Retry-After before its body is read; the
    replay upload and the review upload share the limit."""
    gate = None
    stack = client.app.middleware_stack
    if stack is None:
        client.get("/api/options")
        stack = client.app.middleware_stack
    app = stack
    while app is not None and gate is None:
        if isinstance(app, UploadGate):
            gate = app
        app = getattr(app, "app", None)
    assert gate is not None and gate.max_uploads == 2
    gate.active = 2
    for path in ("/api/replays", "/api/reviews"):
        r = client.post(path, content=planted_record().encode())
        assert (r.status_code, r.json()["code"], r.headers["Retry-After"]) == (503, "server_busy", "2")
    gate.active = 0
    assert client.post("/api/replays", content=planted_record().encode()).status_code == 200
