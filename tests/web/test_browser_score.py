"""Browser test of the performance score (issue 32), in Debian's Chromium against a real
``gin serve --review-budget-ms 8``: a signed-in person plays a one-deal match against the novice
(his seat played over the WebSocket); the table page's result dialog shows each player's score
of the deal and of the match as the server sent it, and his player page draws the score per
match beside the rating.  With ``GIN_SCREENSHOTS=DIR`` the pages are saved there as PNG files."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from .test_browser import _page, browser  # noqa: F401  (fixtures)
from .test_ratings_restart import _play
from .test_restart import GIN, _free_port

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs Debian's Chromium at /usr/bin/chromium"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = f"sqlite:///{tmp_path_factory.mktemp('web') / 'gin.sqlite3'}"
    port = _free_port()
    out = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        GIN
        + [
            "serve",
            "--port",
            str(port),
            "--database-url",
            db,
            "--bot-delay",
            "0",
            "--log-level",
            "warning",
            "--review-budget-ms",
            "8",
        ],
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 90  # a bound for a loaded machine, not a timing
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/options", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


def _wait_scored(server: str, name: str) -> dict:
    deadline = time.monotonic() + 300  # a bound, not a timing
    while time.monotonic() < deadline:
        p = httpx.get(f"{server}/api/players/{name}").json()
        if p["performance"]:
            return p
        time.sleep(0.2)
    raise AssertionError("the match was never scored")


def test_the_score_after_a_match_and_the_profile_chart(server, browser):  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/account")
    page.fill("#up-name", "Ann")
    page.fill("#up-password", "correct horse")
    page.click("#up-go")
    page.wait_for_selector("#member:not([hidden])")
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "gin_csrf")
    r = page.request.post(
        server + "/api/tables",
        data={"preset": "single", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}]},
        headers={"X-CSRF-Token": csrf},
    )
    assert r.status == 201, r.text()
    t = r.json()
    ws_url = server.replace("http", "ws") + f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}"
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's event loop
        end = pool.submit(asyncio.run, _play(ws_url, None)).result(timeout=1200)
    assert end["match"]["finished"]
    api = _wait_scored(server, "Ann")
    kept = api["performance"][0]
    # the table page: the result dialog shows the deal's and the match's scores, as kept
    page.goto(t["seats"][0]["link"])
    page.wait_for_selector("#score-panel table[data-deal='match']")
    row = page.locator("#score-panel table[data-deal='match'] tr[data-player='Ann']")
    assert row.locator(".score-value").text_content() == f"{kept['score']:g} of 100"
    counts = f"inaccuracies {kept['inaccuracies']}, mistakes {kept['mistakes']}, blunders {kept['blunders']}"
    assert counts in row.text_content()
    rating = kept["rating"]
    assert (
        f"played like a player rated about {rating['rating']:,} ({rating['low']:,} to {rating['high']:,})"
        in row.text_content()
    )
    assert page.locator("#score-panel table[data-deal='1'] tr").count() == 2  # both players, the computer too
    # --review-budget-ms 8 is 16 sampled deals a decision, fewer than the calibration's 50: each
    # table says so (the deal's and the match's), and the interval kept is the widened one
    assert (
        page.locator("#score-panel .score-quick").all_text_contents()
        == ["Scored quickly, on 16 sampled deals a move instead of 50: the rating's interval is wider."] * 2
    )
    if os.environ.get("GIN_SCREENSHOTS"):
        page.screenshot(path=str(Path(os.environ["GIN_SCREENSHOTS"]) / "score-match-end.png"))
    # the player page: the chart of the score per match, beside the rating
    page.goto(server + "/players/Ann")
    page.wait_for_selector("#score-chart circle")
    assert page.locator("#score-chart circle").count() == 1
    assert page.locator("#score-chart circle").get_attribute("data-score") == f"{kept['score']:g}"
    assert f"score {kept['score']:g} of 100" in page.text_content("#score-latest")
    if os.environ.get("GIN_SCREENSHOTS"):
        page.screenshot(path=str(Path(os.environ["GIN_SCREENSHOTS"]) / "player-score.png"), full_page=True)
    assert errors == []
