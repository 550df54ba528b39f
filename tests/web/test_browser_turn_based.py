"""Browser test of a turn-based table (issue 33, item 3; docs/protocol.md, "Turn-based tables"):
Ann and Bob, signed in, play a table of one day a move in two sittings with a server restart
between.  The lobby's "Your turn" list names the table for the person to move only; a lobby
left open tells Ann when it becomes her turn (the page title and an in-page notice); after the
restart the person to move opens the table from the list and finds it exactly where it was.
Skipped without /usr/bin/chromium."""

from __future__ import annotations

import os
import re
import signal

import pytest

from .test_browser import _page, _play_one_click, _wait_turn_or_end, browser, server  # noqa: F401  (fixtures)
from .test_restart import _free_port, _start

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

FAST_POLL = "window.GIN_TURNS_POLL_MS = 300;"  # the list is read every 30 s; a test need not wait


def _sign_up(page, server: str, name: str) -> None:
    page.goto(server + "/account")
    page.fill("#up-name", name)
    page.fill("#up-password", "correct horse")
    page.click("#up-go")
    page.wait_for_selector("#member:not([hidden])")


def _entries(page) -> list[str]:
    return page.locator("#turns-list li[data-table]").evaluate_all("els => els.map(e => e.dataset.table)")


def _move(pages: dict, names: list[str]) -> None:
    """The person to act makes one move; every page sees it."""
    to_act = pages[names[0]].evaluate("ui.state.to_act")
    page = pages[to_act]
    _wait_turn_or_end(page)
    seq = page.evaluate("ui.state.seq")
    _play_one_click(page)
    for p in pages.values():
        p.wait_for_function(f"ui.state.seq > {seq}")


def test_a_turn_based_table_in_two_sittings_with_a_restart_between(browser, tmp_path):  # noqa: F811
    db = f"sqlite:///{tmp_path / 'gin.sqlite3'}"
    port = _free_port()
    server = f"http://127.0.0.1:{port}"
    proc = _start(port, db)
    try:
        errors: list[str] = []
        ann, bob = _page(browser, errors), _page(browser, errors)
        for p in (ann, bob):
            p.context.add_init_script(FAST_POLL)
        _sign_up(ann, server, "Ann")
        ann.goto(server + "/")
        ann.wait_for_selector("#turns-panel:not([hidden])")
        assert ann.inner_text("#turns-list") == "No table waits for you."
        ann.select_option("#seat1-kind", "human")
        ann.select_option("#clock", "d1")
        ann.click("#open")
        ann.wait_for_selector("#ready:not([hidden])")
        invite = ann.inner_text("#links .link-text[data-name='Player 2']")
        table_id = re.search(r"/table/([0-9a-f]+)\?invite=", invite).group(1)
        ann.click("#go")
        _sign_up(bob, server, "Bob")
        bob.goto(invite)
        bob.wait_for_url(re.compile(r".*\?seat=\S{16,}$"))
        pages = {"Ann": ann, "Bob": bob}
        for p in pages.values():
            p.wait_for_function("typeof ui !== 'undefined' && ui.state && ui.state.started")
        assert "1 day a move" in ann.inner_text("#clock")
        # -- the first sitting: two moves
        _move(pages, ["Ann", "Bob"])
        _move(pages, ["Ann", "Bob"])
        to_act = ann.evaluate("ui.state.to_act")
        other = "Bob" if to_act == "Ann" else "Ann"
        assert to_act in ann.inner_text("#clock") and "may move until" in ann.inner_text("#clock")
        seq = ann.evaluate("ui.state.seq")
        # each opens the lobby: the table waits for the person to move only
        for p in pages.values():
            p.goto(server + "/")
            p.wait_for_selector("#turns-panel:not([hidden])")
            p.wait_for_function("document.querySelector('#turns-list li')")
        assert _entries(pages[to_act]) == [table_id] and _entries(pages[other]) == []
        assert "Your move against " + other in pages[to_act].inner_text("#turns-list")
        assert pages[to_act].title().startswith("(1) ") and not pages[other].title().startswith("(")
        # -- the server restarts; the second sitting
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc = _start(port, db)
        mover = pages[to_act]
        mover.reload()
        mover.wait_for_selector(f"#turns-list li[data-table='{table_id}'] a")
        mover.click(f"#turns-list li[data-table='{table_id}'] a")
        mover.wait_for_url(re.compile(rf"/table/{table_id}\?seat=\S{{16,}}$"))
        mover.wait_for_function("typeof ui !== 'undefined' && ui.state && ui.state.started")
        assert mover.evaluate("ui.state.seq") == seq and mover.evaluate("ui.state.to_act") == to_act
        # the other person waits in the lobby: when the move is made, his page says it is his turn
        waiting = pages[other]
        waiting.reload()
        waiting.wait_for_selector("#turns-panel:not([hidden])")
        waiting.wait_for_function("document.querySelector('#turns-list li')")
        assert _entries(waiting) == []
        # his moves until the turn passes (a draw and a discard are two moves)
        for _ in range(4):
            if mover.evaluate("ui.state.view.phase") == "over" or mover.evaluate("ui.state.to_act") == other:
                break
            _wait_turn_or_end(mover)
            seq = mover.evaluate("ui.state.seq")
            _play_one_click(mover)
            mover.wait_for_function(f"ui.state.seq > {seq}")
        if mover.evaluate("ui.state.view.phase") != "over":
            waiting.wait_for_selector("#turn-notice a")
            assert f"your table against {to_act}" in waiting.inner_text("#turn-notice")
            assert waiting.title().startswith("(1) ") and _entries(waiting) == [table_id]
        assert errors == []
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


def test_between_deals_the_clock_line_says_whom_the_next_deal_waits_for(server, browser):  # noqa: F811
    """Between deals a turn-based table's days run for the person the next deal waits for (his
    client seed, then the next_deal he owes): the clock line says so, until when."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.context.add_init_script(FAST_POLL)
    _sign_up(page, server, "Anna")  # her seat is her account's: the lobby's Your turn list names it
    page.goto(server + "/")
    page.select_option("#seat1-level", "novice")
    if not page.is_visible("#clock"):
        page.click("#advanced summary")
    page.select_option("#clock", "d1")
    page.click("#open")
    page.wait_for_url(re.compile(r"/table/[0-9a-f]+\?seat="))
    for _ in range(400):  # a bound on the moves, not a time
        if _wait_turn_or_end(page) == "over":
            break
        seq = page.evaluate("ui.state.seq")
        _play_one_click(page)
        page.wait_for_function(f"ui.state.seq > {seq} || ui.pending === false")
    if page.evaluate("ui.state.match.finished"):
        pytest.skip("the first deal ended the match (a rare deal)")
    page.wait_for_function("ui.state.clock.turn === 'Anna' && ui.state.clock.deadline !== null")
    when = page.evaluate("new Date(ui.state.clock.deadline * 1000).toLocaleString(LANG)")
    text = page.text_content("#clock")
    assert text == f"Turn-based: 1 day a move. The next deal waits for Anna until {when}.", text
    # her seed went in as the page saw the deal over: she owes the next deal, her day runs
    page.wait_for_function("ui.state.fair.pending && ui.state.fair.pending.yours !== null")
    opponent = page.evaluate("ui.state.table.names[1 - ui.state.you]")
    page.goto(server + "/")
    page.wait_for_selector("#turns-list li[data-table] a")
    assert page.text_content("#turns-list li[data-table] a") == (
        f"The deal against {opponent} is over: start the next deal (23 hours left)"
    )
    assert errors == []
