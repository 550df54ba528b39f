"""A rated match interrupted by SIGKILL (``kill -9``) is rated exactly once: the rating is
stored in the transaction of the match's last step (docs/accounts.md), so neither a crash
before it nor a restart after it rates the match twice or not at all."""

from __future__ import annotations

import asyncio
import json
import os
import signal

import httpx
import websockets
from openskill.models import PlackettLuce
from sqlalchemy import create_engine, func, select

from ginrummy.web.community.ratings import reference_ratings, results_t

from .test_restart import RECV_SECONDS, _free_port, _start


def _choose(st: dict) -> str:
    """A fair policy from the state alone: gin, else the knock or discard leaving the least
    deadwood, else draw from the stock (or pass the upcard)."""
    legal = st["view"]["legal_actions"]
    after = st["arrangement"].get("after_discard") or {}
    for kind in ("gin", "big", "knock", "discard"):
        options = [a for a in legal if a.split()[0] == kind]
        if options:
            return min(options, key=lambda a: after.get(a.split()[-1], 99))
    return "draw stock" if "draw stock" in legal else ("pass" if "pass" in legal else legal[0])


async def _play(url: str, steps: int | None) -> dict:
    """Play the person's seat: ``steps`` messages (or to the end of the match); the last state."""
    async with websockets.connect(url) as ws:
        n = 0
        st: dict = {}

        async def answer(mid: int) -> None:
            nonlocal st
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), RECV_SECONDS))
                assert msg["type"] != "error", msg
                if msg["type"] == "state":
                    st = msg
                if msg.get("reply_to") == mid:
                    return

        n += 1
        await ws.send(json.dumps({"type": "sync", "id": n}))
        await answer(n)
        while steps is None or n < steps:
            if st["started"] and st["match"]["finished"]:
                break
            pending = st["fair"]["pending"]
            if pending is not None and pending["yours"] is None:
                msg = {"type": "client_seed", "deal": pending["deal"], "seed": f"k{pending['deal']}"}
            elif st["started"] and st["your_turn"]:
                msg = {"type": "action", "action": _choose(st)}
            elif st["started"] and st["can_next_deal"]:
                msg = {"type": "next_deal"}
            else:
                msg = {"type": "sync"}
                await asyncio.sleep(0.01)
            n += 1
            await ws.send(json.dumps({**msg, "id": n}))
            await answer(n)
        return st


def _results(db: str) -> int:
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(results_t)).scalar() or 0)
    finally:
        engine.dispose()


def test_rated_match_killed_and_restarted_is_rated_exactly_once(tmp_path):
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    # the table's seed is random: short deals with big scores can end the match to 100 within
    # the 40 messages before the kill (a few tables in 1,000 by simulation); then it is tried
    # again on a new store, at most five times, so that the kill is in the middle of the match
    for attempt in range(5):
        db = f"sqlite:///{tmp_path / f'gin{attempt}.sqlite3'}"
        proc = _start(port, db)
        try:
            with httpx.Client(base_url=base) as c:
                c.get("/api/me")
                c.headers["X-CSRF-Token"] = c.cookies["gin_csrf"]
                assert c.post("/api/account", json={"name": "Ann", "password": "correct horse"}).status_code == 201
                t = c.post(
                    "/api/tables",
                    json={
                        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}],
                        "rated": True,
                    },
                ).json()
            url = f"ws://127.0.0.1:{port}/ws/table/{t['id']}?seat={t['seats'][0]['token']}"
            before = asyncio.run(_play(url, 40))
        finally:
            os.killpg(proc.pid, signal.SIGKILL)  # kill -9 in the middle of the rated match
            proc.wait(10)
        if not before["match"]["finished"]:
            break
    assert not before["match"]["finished"]
    assert _results(db) == 0
    proc = _start(port, db)
    try:
        end = asyncio.run(_play(url, None))
        assert end["match"]["finished"]
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # and again, right after its last step
        proc.wait(10)
    assert _results(db) == 1
    proc = _start(port, db)
    try:
        board = {e["name"]: e for e in httpx.get(base + "/api/leaderboard").json()}

        async def final() -> dict:
            async with websockets.connect(url) as ws:
                return json.loads(await asyncio.wait_for(ws.recv(), RECV_SECONDS))

        again = asyncio.run(final())
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
    assert _results(db) == 1
    won = end["match"]["winner"] == "Ann"
    model = PlackettLuce()
    mu, sigma = reference_ratings()["novice"]  # a fresh server's novice starts there (issue 34)
    [[ann], [bot]] = model.rate([[model.rating()], [model.rating(mu=mu, sigma=sigma)]], ranks=[0, 1] if won else [1, 0])
    assert board["Ann"]["matches"] == 1 and board["novice"]["matches"] == 1
    assert board["Ann"]["mu"] == round(ann.mu, 4) and board["Ann"]["sigma"] == round(ann.sigma, 4)
    assert board["novice"]["mu"] == round(bot.mu, 4)
    assert again["rating"]["changes"] == end["rating"]["changes"]  # the change is shown after a restart too
