"""A bot account plays a rated match against a person in Chromium (issue 35, docs/bot-api.md):
the person makes a bot account and its token on his account page, a ``gin bot --server``
process serves it, the person challenges the bot from its player page (marked BOT) and is taken
to the table once the bot accepts; his seat is then played over the WebSocket to the end of the
match, and the table, the leaderboard and the player page show the bot's BOT mark and rating."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import websockets

from .test_browser import _page, browser, server  # noqa: F401  (fixtures)
from .test_ratings_restart import _choose
from .test_restart import RECV_SECONDS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct horse"


async def _play(url: str) -> dict:
    """Play the person's seat to the end of the match; the last state.  Both sides may ask for
    the next deal (the bot does too), so a ``next_deal`` refused because the other's came first,
    or because the bot's client seed has not come yet, is no error; any other error is."""
    async with websockets.connect(url) as ws:
        st: dict = {}
        for n in range(1, 20_000):
            if st and st["started"] and st["match"]["finished"]:
                return st
            pending = st["fair"]["pending"] if st else None
            if not st:
                msg = {"type": "sync"}
            elif pending is not None and pending["yours"] is None:
                msg = {"type": "client_seed", "deal": pending["deal"], "seed": f"k{pending['deal']}"}
            elif st["started"] and st["your_turn"]:
                msg = {"type": "action", "action": _choose(st)}
            elif st["started"] and st["can_next_deal"]:
                msg = {"type": "next_deal"}
            else:
                msg = {"type": "sync"}
                await asyncio.sleep(0.01)
            await ws.send(json.dumps({**msg, "id": n}))
            while True:
                got = json.loads(await asyncio.wait_for(ws.recv(), RECV_SECONDS))
                if got["type"] == "state":
                    st = got
                if got["type"] == "error":
                    # refused because the other's next_deal came first, or because the bot's
                    # client seed for the next deal has not come yet (it is on its way)
                    assert msg["type"] == "next_deal" and got["code"] in ("illegal", "bad_deal", "not_allowed"), got
                if got.get("reply_to") == n:
                    break
    raise AssertionError("the match did not end within 20,000 messages")


def test_a_person_challenges_a_bot_from_its_page_and_plays_it_rated(server, browser):  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/account")
    page.fill("#up-name", "Pat")
    page.fill("#up-password", PASSWORD)
    page.click("#up-go")
    page.wait_for_selector("#member:not([hidden])")
    # the bot's account, made elsewhere, turned into Pat's bot on his account page
    with httpx.Client(base_url=server) as other:  # a program: no cookie, no CSRF header needed
        r = other.post("/api/account", json={"name": "RoboBot", "password": PASSWORD})
        assert r.status_code == 201, r.text
    page.click("#bots-zone summary")
    page.fill("#bot-name", "RoboBot")
    page.fill("#bot-password", PASSWORD)
    page.click("#bot-go")
    page.wait_for_selector("#bots .bot-badge")
    assert "RoboBot" in page.text_content("#bots")
    page.click("#bots .bot button.btn:not(.secondary)")
    page.wait_for_selector("#token-secret")
    token = page.text_content("#token-secret")
    assert token.startswith("gin_")
    page.wait_for_function("document.querySelector('#bots').textContent.includes('challenge, chat, play')")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "GIN_BOT_TOKEN": token}
    bot = subprocess.Popen(
        [sys.executable, "-m", "ginrummy", "bot", "--server", server, "--level", "novice", "--accept", "people"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        page.goto(server + "/players/RoboBot")
        page.wait_for_selector("#name .bot-badge")
        assert page.text_content("#name") == "RoboBot BOT"
        assert page.is_checked("#challenge-rated")
        page.click("#challenge-go")
        page.wait_for_url("**/table/**", timeout=60_000)
        link = page.url
        page.wait_for_selector(".bot-badge")  # the bot's seat at the table says BOT
        page.goto(server + "/players/RoboBot")  # the person's seat is played over the WebSocket
        table_id, seat_token = link.split("/table/")[1].split("?seat=")
        ws_url = server.replace("http", "ws") + f"/ws/table/{table_id}?seat={seat_token}"
        with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's event loop
            end = pool.submit(asyncio.run, _play(ws_url)).result(timeout=1200)  # a bound, not a timing
        assert end["match"]["finished"] and end["rating"]["rated"] is True
        assert {c["name"] for c in end["rating"]["changes"]} == {"Pat", "RoboBot"}
        out, err = bot.communicate(timeout=120)
        assert bot.returncode == 0, err
        assert out.startswith("1 games played as RoboBot: ") and ", 0 refused, 0 played by the fallback" in out
    finally:
        if bot.poll() is None:
            bot.kill()
    page.goto(server + "/leaderboard")
    page.wait_for_selector(".bot-badge")
    row = page.locator("tr", has_text="RoboBot")
    assert "BOT" in row.text_content()
    assert errors == []
