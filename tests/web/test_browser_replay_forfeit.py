"""The replay page of a match ended by a forfeit (replay.js; docs/accounts.md, "Replays"), in
Debian's Chromium against a real ``gin serve``: an uploaded record with a ``forfeit`` line says
who left and that he forfeits (not "ran out of time"), and the deal the forfeit stopped plays
back up to the stop, its last move marked "not played out"."""

from __future__ import annotations

import os

import pytest

from ginrummy.match import Match
from ginrummy.record import dumps
from ginrummy.rules import preset

from .test_browser import CHROMIUM, _page, browser, server  # noqa: F401  (fixtures)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]


def test_the_replay_of_a_forfeited_match_says_how_it_ended(server, browser):  # noqa: F811
    m = Match.new(preset("standard"), ["Ann", "Bob"], bytes(range(32)))
    for _ in range(3):
        p = m.player_to_act()
        assert p is not None
        m.apply(p, m.view(p).legal[0])
    text = dumps(m, public=True, forfeit=(1, "left"))
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/replay")
    page.set_input_files("#file", files=[{"name": "left.gin", "mimeType": "text/plain", "buffer": text.encode()}])
    page.wait_for_selector("#viewer:not([hidden])")
    title = page.text_content("#title")
    assert "Ann won the match" in title and "Bob left the table and forfeits the match." in title, title
    assert "ran out of time" not in title
    # the forfeit is a sentence of its own, on its own line (it ran on after "won the match")
    assert page.text_content("#forfeit-line") == "Bob left the table and forfeits the match."
    page.click("#last")
    assert page.text_content("#where").startswith("deal 1 of 1, move 3 of 3")
    assert page.text_content("#result-text") == "This deal was not played out: the match ended here by the forfeit."
    page.click("#back")
    assert page.locator("#result-text").count() == 0
    assert errors == []
    page.context.close()
