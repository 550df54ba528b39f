"""A Swiss tournament in Chromium (issue 33, item 4), from sign-up to the final table: Ann, Bob,
Cy and Di sign up in four browser contexts, Ann creates a tournament on /tournaments (two rounds
of one deal each, the computers random and novice entering), all four enter on its page, and
each round they go to their tables from the page and play by clicking until every game of the
round has its result; the page then shows the final table (the standings of 6), no pairing
repeated."""

from __future__ import annotations

import os
import re
import time
from datetime import datetime, timedelta

import pytest

from ginrummy.i18n import LANGUAGES
from ginrummy.web.texts import web_translator

from .test_browser import _page, _play_one_click, browser, server  # noqa: F401  (fixtures)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

READY = "typeof ui !== 'undefined' && ui.state && !ui.pending && ui.state.started"


def _sign_up(page, server: str, name: str) -> None:
    page.goto(server + "/account")
    page.fill("#up-name", name)
    page.fill("#up-password", "correct horse")
    page.click("#up-go")
    page.wait_for_selector("#member:not([hidden])")


def _step(page) -> str:
    """One move of the person at ``page``'s table if it is his turn: ``"moved"``; ``"done"``
    once the match is over; else ``"wait"``."""
    if not page.evaluate(READY):
        return "wait"
    if page.evaluate("ui.state.match.finished || !!ui.state.forfeit"):
        return "done"
    if page.evaluate("ui.state.view.phase") == "over":  # a drawn deal (R7): the next one
        page.evaluate("send({type: 'next_deal'})")
        return "wait"
    if not page.evaluate("ui.state.your_turn"):
        return "wait"
    seq = page.evaluate("ui.state.seq")
    _play_one_click(page)
    page.wait_for_function(f"ui.state.seq > {seq} || ui.pending === false")
    return "moved"


def _play_round(pages: dict, server: str, tid: str, round_no: int) -> None:
    tables = {}
    for name, page in pages.items():
        page.goto(f"{server}/tournaments/{tid}")
        page.wait_for_selector(f"#rounds [data-round='{round_no}']")
        page.wait_for_selector("#play:not([hidden])")
        page.click("#play")
        page.wait_for_url(re.compile(r".*/table/\w+\?seat=\S{16,}$"))
        tables[name] = page.url.split("/table/")[1].split("?")[0]
    done: set[str] = set()
    for _ in range(3000):  # a bound on the moves, not a time
        for name, page in pages.items():
            if name not in done and _step(page) == "done":
                done.add(name)
        if done == set(pages):
            return
        time.sleep(0.05)
    raise AssertionError(f"round {round_no} did not end")


def test_a_swiss_of_four_people_and_two_computers_from_sign_up_to_the_final_table(server, browser):  # noqa: F811
    errors: list[str] = []
    people = ("Ann", "Bob", "Cy", "Di")
    pages = {name: _page(browser, errors) for name in people}
    for name, page in pages.items():  # each signs up in a browser of his own
        _sign_up(page, server, name)
    ann = pages["Ann"]
    ann.goto(server + "/tournaments")
    ann.wait_for_selector("#t-levels input[value='novice']")
    assert ann.is_hidden("#sign-in-hint")
    ann.fill("#t-name", "Friday <b>Swiss</b>")
    start = datetime.now() + timedelta(seconds=20)  # the browser's local time, as the form's field
    ann.fill("#t-start", start.strftime("%Y-%m-%dT%H:%M:%S"))
    ann.fill("#t-rounds", "2")
    ann.select_option("#t-scoring", "deal")
    ann.check("#t-levels input[value='random']")
    ann.check("#t-levels input[value='novice']")
    ann.click("#t-create")
    ann.wait_for_url(re.compile(r".*/tournaments/[0-9a-f]{10}$"))
    tid = ann.url.rsplit("/", 1)[1]
    ann.wait_for_selector("#join:not([hidden])")
    assert ann.text_content("#t-name") == "Friday <b>Swiss</b>"  # text, never markup
    ann.click("#join")
    for name in people[1:]:
        pages[name].goto(f"{server}/tournaments/{tid}")
        pages[name].click("#join")
        pages[name].wait_for_selector("#withdraw:not([hidden])")
    ann.reload()
    ann.wait_for_function("document.querySelectorAll('#entrants li').length === 6")
    # the lobby lists it
    pages["Bob"].goto(server + "/")
    pages["Bob"].wait_for_selector(f"#lobby-tournaments li[data-id='{tid}']")
    _play_round(pages, server, tid, 1)
    _play_round(pages, server, tid, 2)
    ann.goto(f"{server}/tournaments/{tid}")
    ann.wait_for_selector("#final-panel:not([hidden])")
    rows = ann.locator("#final tbody tr")
    assert rows.count() == 6
    names = sorted(ann.locator("#final tbody tr").evaluate_all("rs => rs.map(r => r.dataset.player)"))
    assert names == ["Ann", "Bob", "Cy", "Di", "novice", "random"]
    scores = ann.locator("#final tbody tr td:nth-child(3)").all_inner_texts()
    assert sum(float(s) for s in scores) == 6.0  # two rounds of three games, a point each
    # every game has a result and a table to watch, and no pairing repeats (Swiss)
    assert ann.locator("#rounds li .result").all_inner_texts().count("in play") == 0
    assert ann.locator("#rounds li a[href*='?watch=1']").count() == 6
    view = ann.evaluate(f"async () => await getJSON('/api/tournaments/{tid}')")
    pairs = [frozenset((g["a"], g["b"])) for r in view["pairings"] for g in r["games"]]
    assert len(pairs) == 6 and len(set(pairs)) == 6
    assert errors == []


def test_a_turn_based_swiss_says_its_days_a_move_on_its_page_in_every_language(server, browser):  # noqa: F811
    """Issue 33, item 3: a tournament's own page says that it is turn-based (days a move), in
    each language; a live one says nothing of days."""
    errors: list[str] = []
    ann = _page(browser, errors)
    _sign_up(ann, server, "Dora")
    ids = {}
    for days in ("2", "0"):
        ann.goto(server + "/tournaments")
        ann.wait_for_selector("#t-levels input[value='novice']")
        ann.fill("#t-name", f"Days {days}")
        ann.fill("#t-start", (datetime.now() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%S"))
        ann.select_option("#t-days", days)
        ann.click("#t-create")
        ann.wait_for_url(re.compile(r".*/tournaments/[0-9a-f]{10}$"))
        ids[days] = ann.url.rsplit("/", 1)[1]
        ann.wait_for_function("document.getElementById('t-info').textContent !== ''")
    assert ann.is_hidden("#t-days") and ann.text_content("#t-days") == ""  # the live one
    for lang in LANGUAGES:
        page = _page(browser, errors, locale=lang)
        page.goto(f"{server}/tournaments/{ids['2']}")
        page.wait_for_selector("#t-days:not([hidden])")
        assert page.evaluate("document.documentElement.lang") == lang
        want = web_translator(lang).n_("Turn-based: {n} day a move.", "Turn-based: {n} days a move.", 2)
        assert page.text_content("#t-days") == want, lang
        page.context.close()
    assert errors == []
