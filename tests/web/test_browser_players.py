"""Browser tests of accounts, ratings and replays (docs/accounts.md), in Debian's Chromium
against a real ``gin serve``: a new person signs up with a name holding ``<script>`` (shown
as text everywhere, never run), plays a rated match against ``club`` (his seat played over
the WebSocket), sees the rating change at the table, the leaderboard, his player page with its
SVG rating plot, and steps through the whole match in the replay viewer.  With
``GIN_SCREENSHOTS=DIR`` the pages are saved there as PNG files (docs/screenshots/)."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from .test_browser import _page, browser, server  # noqa: F401  (fixtures)
from .test_ratings_restart import _play

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

NAME = "<script>alert(1)"


def _shots() -> Path | None:
    return Path(os.environ["GIN_SCREENSHOTS"]) if os.environ.get("GIN_SCREENSHOTS") else None


def test_new_player_rated_match_leaderboard_player_page_and_replay(server, browser):  # noqa: F811
    errors: list[str] = []
    dialogs: list[str] = []
    page = _page(browser, errors)
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    shots = _shots()
    # sign up on the account page; a refusal is said in the form that was sent, not beside it
    page.goto(server + "/account")
    page.fill("#up-name", "A")
    page.fill("#up-password", "correct horse")
    page.click("#up-go")
    page.wait_for_selector("#signup #error:not(:empty)")
    assert page.text_content("#signup #error") == "a name is text of 2 to 20 characters"
    page.fill("#in-name", "nobody here")
    page.fill("#in-password", "correct horse")
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#signin #error:not(:empty)")
    assert page.text_content("#error") == "that name and password do not match an account"
    page.fill("#up-name", NAME)
    page.fill("#up-password", "correct horse")
    page.click("#up-go")
    page.wait_for_selector("#member:not([hidden])")
    assert page.text_content("#my-name") == NAME
    assert page.text_content("#account-link") == NAME
    assert page.evaluate("document.querySelectorAll('script').length") == 3  # i18n.js, common.js, account.js
    if shots:
        page.screenshot(path=str(shots / "account.png"))
    # a rated table against club, opened with the page's cookies (session and CSRF)
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "gin_csrf")
    r = page.request.post(
        server + "/api/tables",
        data={
            "preset": "standard",
            "rated": True,
            "seats": [{"kind": "human", "name": NAME}, {"kind": "bot", "level": "club"}],
        },
        headers={"X-CSRF-Token": csrf},
    )
    assert r.status == 201, r.text()
    t = r.json()
    ws_url = server.replace("http", "ws") + f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}"
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's event loop
        end = pool.submit(asyncio.run, _play(ws_url, None)).result(timeout=1200)  # a bound, not a timing
    assert end["match"]["finished"]
    mine = next(c for c in end["rating"]["changes"] if c["name"] == NAME)
    # the table page shows the change
    page.goto(t["seats"][0]["link"])
    # the result dialog says the change (the banner waits behind it) and links to the match's
    # replay and review on the server (issue 34)
    page.wait_for_selector("#result:not([hidden]) #result-rating [data-name]")
    assert page.get_attribute("#replay-match", "href") == f"/replay/{t['id']}"
    assert page.text_content("#result-rating") == page.text_content("#rating-banner")
    page.click("#look-at-table")
    page.wait_for_selector("#rating-banner [data-name]")
    banner = page.text_content("#rating-banner")
    assert NAME in banner and f"{mine['after']}" in banner.replace("\u202f", "").replace(",", "").replace(".", "")
    # a provisional rating's "?" is explained, as on the leaderboard; a firm one has no title
    after = page.locator(f"#rating-banner [data-name='{NAME}'] .after")
    assert after.get_attribute("title") == ("provisional rating" if mine["provisional"] else None)
    assert after.text_content().endswith("?") == mine["provisional"]
    if shots:
        page.screenshot(path=str(shots / "rated-match-end.png"))
    # the leaderboard: the name as text, next to the computer level
    page.goto(server + "/leaderboard")
    page.wait_for_selector("#board tbody tr[data-name]")
    names = page.eval_on_selector_all("#board tbody tr[data-name]", "rows => rows.map(r => r.dataset.name)")
    assert sorted(names) == sorted([NAME, "club"])
    link = page.locator("#board a", has_text=NAME)
    assert link.get_attribute("href") == "/players/%3Cscript%3Ealert(1)"
    if shots:
        page.screenshot(path=str(shots / "leaderboard.png"))
    # the player page: statistics, and after one rated match a sentence, not a chart of one
    # lone dot (issue 34; test_browser_provisional.py draws the chart of two)
    link.click()
    page.wait_for_selector("#plot-one")
    assert page.text_content("#name") == NAME
    assert page.locator("#rating-plot").count() == 0
    api = httpx.get(server + "/api/players/%3Cscript%3Ealert(1)").json()
    assert page.text_content("#st-deals b") == str(api["deals"])
    assert page.locator("#recent tbody tr").count() == 1
    if shots:
        page.screenshot(path=str(shots / "player.png"), full_page=True)
    # the replay viewer: through the whole match, move by move, then back and a jump
    page.click("#recent a[href^='/replay/']")
    page.wait_for_selector("#viewer:not([hidden])")
    rep = httpx.get(f"{server}/api/replays/{t['id']}").json()
    frames = [len(d["frames"]) for d in rep["deals"]]
    steps = 0
    for k, n in enumerate(frames):
        for move in range(n):
            where = page.text_content("#where")
            assert where.startswith(f"deal {k + 1} of {len(frames)}, move {move} of {n - 1}"), where
            if move == n - 1:
                assert page.locator("#result-text").count() == 1
            if k == len(frames) - 1 and move == n - 1:
                break
            page.keyboard.press("ArrowRight")
            steps += 1
    assert steps == sum(frames) - 1
    winner = rep["winner"]
    assert winner in page.text_content("#title")
    page.click("#back")
    assert page.text_content("#where").endswith(f"move {frames[-1] - 2} of {frames[-1] - 1}")
    if shots:
        page.click("#forward")
        page.screenshot(path=str(shots / "replay.png"), full_page=True)
    page.select_option("#deal", "0")
    assert page.text_content("#where").startswith(f"deal 1 of {len(frames)}, move 0 of")
    assert page.locator("#hands .replay-hand").count() == 2
    assert page.locator("#hands .card").count() == 20  # both hands open
    assert dialogs == [] and errors == []
