"""The expert's review in the browser (review.js; issue 15 item 3): play a deal against the
computer, click "Review this deal", see the progress, then the review: your decisions beside
the expert's moves, the summary, the SVG plot and the hindsight line.  Played against a real
``gin serve --review-budget-ms 10`` (16 sampled deals a decision).  With ``GIN_SCREENSHOTS=DIR``
the review is saved as ``review-deal.png`` (and in Greek ``review-deal-el.png``) there
(docs/screenshots/ is made that way)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from .test_browser import ARGS, CHROMIUM, _check_end, _page, _play_deal_by_clicking, _wait_turn_or_end
from .test_restart import GIN, _free_port

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = f"sqlite:///{tmp_path_factory.mktemp('web') / 'gin.sqlite3'}"
    port = _free_port()
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
            "--review-budget-ms",
            "10",
            "--log-level",
            "warning",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # no pipe to fill
    deadline = time.monotonic() + 90  # generous: a loaded machine imports slowly; no time is asserted
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/options", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    else:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError("gin serve did not start")
    yield f"http://127.0.0.1:{port}"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _open_table(page, server: str) -> None:
    page.goto(server + "/")
    page.fill("#your-name", "Ann")
    page.check("input[name='variant'][value='standard']")
    page.select_option("#seat1-level", "novice")
    page.click("#open")
    page.wait_for_url(re.compile(r"/table/[0-9a-f]+\?seat="))


def _shoot(page, path: Path) -> None:
    """The review dialog, whole: the viewport made tall enough for it first."""
    height = page.evaluate("document.getElementById('review-box').scrollHeight")
    page.set_viewport_size({"width": 1000, "height": min(4000, height + 80)})
    page.locator("#review-box").screenshot(path=str(path))
    page.set_viewport_size({"width": 1280, "height": 860})


def test_review_this_deal_in_the_browser(server, browser):
    errors: list[str] = []
    page = _page(browser, errors)
    shots = Path(os.environ["GIN_SCREENSHOTS"]) if os.environ.get("GIN_SCREENSHOTS") else None
    # the table's seed is random: the computer, acting first, may take the upcard and knock at
    # once (R4.2, R5.1), and deal 1 then has no decision of Ann's to review; then another table
    # is opened, at most five times
    for _attempt in range(5):
        _open_table(page, server)
        if _wait_turn_or_end(page) != "over":
            break
    assert page.is_hidden("#review-panel")  # nothing to review while the first deal is played
    _play_deal_by_clicking(page)
    _check_end(page)
    assert page.is_visible("#review-deal-dialog")
    page.click("#review-deal-dialog")
    assert page.is_hidden("#result") and page.is_visible("#review")
    # the progress: a bar that counts the decisions valued (or the review already done)
    page.wait_for_selector("#review-status:has-text('Reviewing your decisions'), #review-summary")
    page.wait_for_selector("#review-summary", timeout=120_000)
    assert page.inner_text("#review-title") == "Review of deal 1"
    rows = page.locator("#review-box tr.decision")
    # one row a decision of Ann's with a choice: the deal's length is the table's random seed's
    # (a knock after a few draws leaves two or three), so only "some" is certain
    assert rows.count() >= 1
    first = rows.nth(0).inner_text()
    assert re.match(r"\d+\s", first)
    assert page.locator("#review-box svg.review-plot polyline.played").count() == 1
    assert page.locator("#review-box svg.review-plot circle.dot").count() == rows.count()
    assert page.inner_text("#review-box .hindsight").startswith("Hindsight (all hands shown, not part of the review): ")
    summary = page.inner_text("#review-summary")
    assert "Accuracy" in summary and "Ann" in summary
    if shots is not None:
        _shoot(page, shots / "review-deal.png")
    page.keyboard.press("Escape")
    assert page.is_hidden("#review")
    # the side panel keeps the button until the next deal
    assert page.is_visible("#review-deal")
    assert errors == []


def test_review_in_greek_has_no_english_left(server, browser):
    errors: list[str] = []
    page = _page(browser, errors, locale="el-GR")
    shots = Path(os.environ["GIN_SCREENSHOTS"]) if os.environ.get("GIN_SCREENSHOTS") else None
    _open_table(page, server)
    assert page.evaluate("document.documentElement.lang") == "el"
    _play_deal_by_clicking(page)
    page.wait_for_selector("#result:not([hidden])")
    page.click("#review-deal-dialog")
    page.wait_for_selector("#review-summary", timeout=120_000)
    text = page.inner_text("#review-box")
    for english in (
        "Review of deal",
        "Your move",
        "The expert's move",
        "Hindsight",
        "Summary",
        "Accuracy",
        "your move",
        "move number",
        "best move found",
        "better by",
        "points of win chance",
    ):
        assert english not in text, english
    if shots is not None:
        _shoot(page, shots / "review-deal-el.png")
    assert errors == []
