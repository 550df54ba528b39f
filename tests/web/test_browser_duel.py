"""Browser test of the friend challenge on the same deals (issue 33, docs/compete.md): in two
browser contexts Ann and Bob sign up; Ann challenges Bob by name to a one-deal challenge from
/duels, plays her deal by clicking; Bob opens the challenge, sees that Ann played but not her
result, accepts, plays the same deal in the other seat; both then see both results, the
difference, the winner, the revealed seed and each other's replay.  Skipped without
/usr/bin/chromium."""

from __future__ import annotations

import os
import re

import pytest

from .test_browser import CHROMIUM, _page, browser, server  # noqa: F401
from .test_browser_daily import _play_match
from .test_browser_tournament import _sign_up

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]


def _play_deal(page, url: str) -> None:
    page.click("#games [data-deal='1']")
    page.wait_for_url(re.compile(r"/table/[0-9a-f]+\?seat="))
    page.wait_for_selector("#commitment")
    assert page.evaluate("ui.state.fair.pending") is None  # the challenge's deal, dealt at once
    _play_match(page)
    page.goto(url)


def test_ann_challenges_bob_both_play_the_same_deal_in_swapped_seats(server, browser):  # noqa: F811
    errors: list[str] = []
    bob, ann = _page(browser, errors), _page(browser, errors)
    for page, name in ((bob, "Bob"), (ann, "Ann")):  # Bob first: Ann challenges an account that exists
        _sign_up(page, server, name)
    ann.goto(server + "/daily")
    ann.click("#duels-link")
    ann.wait_for_url(re.compile(r"/duels$"))
    ann.fill("#to", "Bob")
    ann.select_option("#deal-count", "1")
    ann.wait_for_selector("#level option[value='novice']", state="attached")
    ann.select_option("#level", "novice")
    ann.click("#send")
    ann.wait_for_url(re.compile(r"/duels/[0-9a-f]{16}$"))
    url = ann.url
    ann.wait_for_selector("#games [data-deal='1']")
    assert re.fullmatch(r"[0-9a-f]{64}", ann.inner_text("#commitment"))
    assert ann.is_hidden("#seed-line") and ann.input_value("#share") == url
    commitment = ann.inner_text("#commitment")
    _play_deal(ann, url)
    ann.wait_for_selector("#games tr[data-number='1'] td.result")
    mine = ann.inner_text("#games tr[data-number='1'] td.result")
    # Bob opens the challenge: Ann has played, her result is not shown to him yet
    bob.goto(url)
    bob.wait_for_selector("#accept:not([hidden])")
    row = bob.locator("#games tr[data-number='1'] td").all_inner_texts()
    assert row[1] == "Played" and row[3] == ""
    assert bob.locator("#games a[href^='/replay/']").count() == 0
    bob.click("#accept")
    bob.wait_for_selector("#games [data-deal='1']")
    _play_deal(bob, url)
    bob.wait_for_selector("#seed-line:not([hidden])")
    for page in (bob, ann):
        page.goto(url)
        page.wait_for_selector("#seed-line:not([hidden])")
        assert page.inner_text("#commitment") == commitment
        assert re.fullmatch(r"[0-9a-f]{64}", page.inner_text("#seed"))
        cells = page.locator("#games tr[data-number='1'] td").all_inner_texts()
        a, b, diff = (re.match(r"[+-]?\d+", x) for x in cells[1:4])
        assert a and b and diff and int(diff[0]) == int(a[0]) - int(b[0])
        assert cells[1].startswith(mine.split()[0])
        assert page.locator("#games a[href^='/replay/']").count() == 2
        assert page.inner_text("#winner").startswith("Over: ")
        assert "gin daily verify" in page.inner_text("#verify")
    ann.click("#games tr[data-number='1'] td:nth-child(3) a[href^='/replay/']")  # Bob's game
    ann.wait_for_url(re.compile(r"/replay/[0-9a-f]+$"))
    assert errors == []
