"""Browser test of the daily deal (issue 33, docs/compete.md): a person signs up, opens /daily
from the top bar, chooses a level, plays the day's whole set (deals 1 to 8) by clicking, sees
how others played a deal he finished, and finds himself in the day's and the month's standings.
Skipped without /usr/bin/chromium."""

from __future__ import annotations

import os
import re

import pytest

from .test_browser import (
    CHROMIUM,
    _page,
    _play_deal_by_clicking,
    browser,  # noqa: F401
    server,  # noqa: F401
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]


def _play_match(page) -> None:
    """Play the daily match to its end: a drawn deal (R7) is followed by the next deal of the
    same seed (the single preset ends with the first scored deal, R13)."""
    for _ in range(10):
        _play_deal_by_clicking(page)
        if page.evaluate("ui.state.match.finished"):
            return
        number = page.evaluate("ui.state.deal.number")
        page.evaluate("send({type: 'next_deal'})")
        page.wait_for_function("(n) => ui.state.deal.number > n", arg=number)
    raise AssertionError("the daily match did not end in 10 deals")


def test_the_whole_daily_set_then_how_others_played_and_the_standings(server, browser):  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/account")
    page.fill("#up-name", "Dora")
    page.fill("#up-password", "correct horse")
    page.click("#up-go")
    page.wait_for_selector("#member:not([hidden])")
    page.click("header.topbar nav a[href='/daily']")
    page.wait_for_url(re.compile(r"/daily$"))
    page.wait_for_selector("#deals tbody tr")
    assert re.fullmatch(r"[0-9a-f]{64}", page.inner_text("#commitment"))
    assert re.fullmatch(r"[0-9a-f]{64}", page.inner_text("#tomorrow"))
    assert page.locator("#deals tbody tr").count() == 8
    page.select_option("#level", "novice")
    for number in range(1, 9):
        page.click(f"#deals [data-deal='{number}']")
        page.wait_for_url(re.compile(r"/table/[0-9a-f]+\?seat="))
        page.wait_for_selector("#commitment")
        if number == 1:
            # a person who leaves the deal half played finds his way back to it from /daily
            table_url = page.url
            page.goto(server + "/daily")
            page.click("#deals [data-resume='1']")
            page.wait_for_url(table_url)
            page.wait_for_selector("#commitment")
        # no client seed at a daily table: the deal is the day's, dealt at once
        assert page.evaluate("ui.state.fair.pending") is None
        _play_match(page)
        page.goto(server + "/daily")
        page.wait_for_selector(f"#deals [data-others='{number}']")
    assert page.is_disabled("#level") and page.input_value("#level") == "novice"
    results = page.locator("#deals tbody tr .result").all_inner_texts()
    assert len(results) == 8 and all(re.fullmatch(r"[+-]?\d+", r) for r in results)
    assert page.locator("#deals [data-deal]").count() == 0  # nothing left to play today
    page.click("#deals [data-others='1']")
    page.wait_for_selector("#others:not([hidden]) .daily-other")
    assert "Dora" in page.inner_text("#others-body")  # alone on the deal: best and median are his
    # the games themselves (replays, records) wait for the end of the day: they show the cards
    assert page.locator("#others-body a[href^='/replay/']").count() == 0
    assert page.locator("#others-body pre.record").count() == 0
    assert "once the day is over" in page.inner_text("#others-body")
    page.wait_for_selector("#standings tbody tr[data-name='Dora']")
    row = page.locator("#standings tbody tr[data-name='Dora'] td").all_inner_texts()
    assert row[0] == "1" and row[1] == "Dora" and row[2] == "50" and row[3] == "8"  # alone: 50% x 8 / 8
    page.click("#show-month")
    page.wait_for_function("document.querySelector('#standings tbody tr[data-name=\"Dora\"] td:nth-child(4)')")
    assert page.locator("#standings tbody tr[data-name='Dora'] td").all_inner_texts()[3] == "8"
    assert errors == []


def test_the_daily_page_in_greek_shows_no_english(server, browser):  # noqa: F811
    from .test_browser_i18n import ALLOWED_LATIN

    errors: list[str] = []
    page = _page(browser, errors, locale="el-GR", extra_http_headers={"Accept-Language": "el-GR,el;q=0.9"})
    page.goto(server + "/daily")
    page.wait_for_selector("#deals tbody tr")
    page.wait_for_selector("#standings tbody tr")
    assert page.evaluate("document.documentElement.lang") == "el"
    # the commitments are hex (Latin letters by nature): everything else is Greek
    text = page.evaluate(
        "() => { const b = document.body.cloneNode(true); b.querySelectorAll('code').forEach(c => c.remove());"
        " return b.innerText; }"
    )
    assert sorted({w for w in re.findall(r"\b[A-Za-z]{2,}\b", text) if w not in ALLOWED_LATIN | {"UTC"}}) == []
    assert "Ημερήσια μοιρασιά" in page.inner_text("h1")
    assert errors == []
