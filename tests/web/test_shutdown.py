"""Stopping ``gin serve`` after a review: the review's worker process and its queue are shut
down with the server, and nothing is left for the resource tracker to clean up.

uvicorn raises SIGTERM again once it has shut down, so the process ends without the
interpreter's exit hooks; the review pool (``web.review_web``) must have freed its semaphores
by then, or Python's resource tracker prints "leaked semaphore objects" on the terminal."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
import time

import httpx
import pytest
import websockets

from .test_restart import _free_port

RECV_SECONDS = 60  # generous, for a loaded machine (no time is asserted)


def _serve(port: int, db: str, log):
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ginrummy",
            "serve",
            "--port",
            str(port),
            "--database-url",
            db,
            "--bot-delay",
            "0",
            "--log-level",
            "warning",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/options", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("gin serve did not start")


async def _play_deal_and_review(port: int, until: str = "review") -> dict:
    """Play a deal against the novice (knocking as soon as possible), ask for its review and
    return the first message of type ``until``: ``"review"`` (the review done) or
    ``"review_progress"`` (the worker has it: it is running).  The deal is the first one in
    which Ann moved: the table's seed is random, and the computer, acting first, may take the
    upcard and knock at once (R4.2, R5.1), leaving her no decision to review; then the next
    deal is played."""
    r = httpx.post(
        f"http://127.0.0.1:{port}/api/tables",
        json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}]},
    )
    table = r.json()
    url = f"ws://127.0.0.1:{port}/ws/table/{table['id']}?seat={table['seats'][0]['token']}"
    rng = random.Random(3)
    moved: set[int] = set()  # the deals in which Ann moved
    async with websockets.connect(url) as ws:
        for n in range(2000):
            msg = json.loads(await asyncio.wait_for(ws.recv(), RECV_SECONDS))
            if msg["type"] == until:
                return msg
            if msg["type"] != "state":
                continue
            pending = msg["fair"]["pending"]
            if pending is not None and pending["yours"] is None:
                await ws.send(json.dumps({"type": "client_seed", "deal": pending["deal"], "seed": f"s{n}"}))
            elif msg["your_turn"]:
                legal = msg["view"]["legal_actions"]
                ends = [a for a in legal if a.split()[0] in ("knock", "gin", "big")]  # R5.1: end the deal soon
                await ws.send(json.dumps({"type": "action", "action": ends[0] if ends else rng.choice(legal)}))
                moved.add(msg["deal"]["number"])
            elif msg["started"] and msg["view"]["phase"] == "over":
                if msg["deal"]["number"] in moved:  # reviewed once over (the match may be over too)
                    await ws.send(json.dumps({"type": "review", "deal": msg["deal"]["number"]}))
                elif msg["can_next_deal"]:
                    await ws.send(json.dumps({"type": "next_deal"}))
    raise AssertionError(f"no {until} came back")


@pytest.mark.parametrize("until", ["review", "review_progress"])
def test_sigterm_during_or_after_a_review_exits_cleanly_and_leaves_no_semaphore(tmp_path, until):
    """SIGTERM once the review is done, or while it runs (its worker is stopped with the server)."""
    port = _free_port()
    log_path = tmp_path / "serve.log"
    with open(log_path, "wb") as log:
        proc = _serve(port, f"sqlite:///{tmp_path / 'gin.db'}", log)
        try:
            msg = asyncio.run(_play_deal_and_review(port, until))
            if until == "review":
                assert msg["result"]["players"] == ["Ann"]  # the worker really ran
                assert msg["result"]["deals"][0]["number"] == msg["deal"] and msg["result"]["deals"][0]["decisions"]
        finally:
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(60)
    out = log_path.read_text(errors="replace")
    assert code == 128 + signal.SIGTERM, out  # a normal exit, status 143
    assert "leaked semaphore" not in out
    assert "Traceback" not in out
