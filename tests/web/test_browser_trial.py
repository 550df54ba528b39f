"""Browser tests of what a new-user trial found on the web pages: a spectator's "Fair deal"
panel acting like a player's, and how the pages read on a phone.  Playwright with Debian's
Chromium against a real ``gin serve`` (the fixtures of test_browser.py).
"""

from __future__ import annotations

import json
import os

import pytest

from .test_browser import CHROMIUM, _page, browser, server  # noqa: F401  (fixtures)
from .test_browser_newuser import READY, _open, _table

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]


def _frames_sent(page) -> list[str]:
    """Every WebSocket frame the page sends, as text, from now on."""
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(
        payload if isinstance(payload, str) else payload.decode("utf-8", "replace"))))
    return sent


def _no_player_controls(page) -> None:
    panel = page.inner_text("#fair-panel")
    assert "Sending your client seed" not in panel and "Your own seed" not in panel
    assert page.locator("#fair-yours").count() == 0
    assert page.locator("#fair-seed-form, #fair-seed").count() == 0
    assert page.locator("#fair-record").count() == 0 and "Download the record" not in panel


def test_a_spectator_sends_no_client_seed_and_has_no_seed_box_or_download(server, browser):
    """A spectator (?watch=1) of a public table before its first deal sees the commitments and
    whom the deal waits for; he sends no client seed (the server refuses one), shows no
    "Sending your client seed...", no seed box and no download link, before the deal and after."""
    errors: list[str] = []
    tab = _table(server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
                 preset="standard", public=True)
    page = _page(browser, errors)
    sent = _frames_sent(page)
    page.goto(f"{server}/table/{tab['id']}?watch=1")
    page.wait_for_selector("#fair-pending-commitment")
    state = page.evaluate("GinFair._panel.state")
    assert state["you"] is None and state["started"] is False
    assert page.inner_text("#fair-pending-commitment") == state["fair"]["pending"]["commitment"]
    assert page.inner_text("#fair-commitment") == state["fair"]["commitment"]
    assert "Ann, Bob" in page.inner_text("#fair-waiting")
    _no_player_controls(page)
    # the players come: the spectator gets new states, and the first deal is dealt
    players = []
    for seat in tab["seats"]:
        p = _page(browser, errors)
        _open(p, seat["link"], wait=False)
        players.append(p)
    page.wait_for_function("GinFair._panel.state && GinFair._panel.state.started", timeout=60000)
    page.wait_for_function(READY)
    _no_player_controls(page)
    assert page.locator("#fair-commitment").count() == 1
    page.wait_for_timeout(300)  # the frames' events reach the test after the page sent them
    seeds = [f for f in sent if json.loads(f).get("type") == "client_seed"]
    assert seeds == [], seeds
    for p in players:
        p.context.close()
    page.context.close()
    assert errors == []
