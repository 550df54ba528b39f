"""The tournament page in Chromium (issue 33): its view pushed over ``WS /ws/tournament/ID``
(no polling while the socket is open) from the start to the final table, which has its column
headers, under a line that says when it finished; the page at 1,280 and 375 px in every
language has no horizontal scroll (``GIN_SCREENSHOTS=DIR`` saves ``tournament-<lang>-<width>.png``
there: look at them); and the lobby's "Your tables" shows a table's names as they are now,
not "Player 2"."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ginrummy.i18n import LANGUAGES

from .test_browser import _page, browser, server  # noqa: F401  (fixtures)
from .test_browser_tournament import _sign_up

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

CREATE = """async (start) => (await postJSON('/api/tournaments', {name: 'Quick Swiss', kind: 'swiss',
  start: new Date(Date.now() + start * 1000).toISOString(), rounds: 1, scoring: 'deal',
  levels: ['random', 'novice']})).id"""


@pytest.fixture(scope="module")
def finished(server, browser):  # noqa: F811
    """A Swiss of two computers played to its final table while its page watched it live:
    ``(tid, fetches of GET /api/tournaments/ID the page made, the page's errors)``."""
    errors: list[str] = []
    page = _page(browser, errors)
    _sign_up(page, server, "Tess")
    page.goto(server + "/tournaments")
    tid = page.evaluate(CREATE, 10)
    fetches: list[str] = []
    page.on("request", lambda r: fetches.append(r.url) if f"/api/tournaments/{tid}" in r.url else None)
    page.goto(f"{server}/tournaments/{tid}")
    page.wait_for_function("live !== null")  # the socket's first view came
    page.wait_for_selector("#final-panel:not([hidden])", timeout=90_000)
    assert page.evaluate("finished") and page.evaluate("live") is None  # closed once it finished
    page.context.close()
    return tid, fetches, errors


def test_the_page_follows_the_tournament_live_to_its_final_table(finished, server, browser):  # noqa: F811
    tid, fetches, errors = finished
    assert len(fetches) == 1  # the first load only: the start, the game, the end came pushed
    page = _page(browser, errors)
    page.goto(f"{server}/tournaments/{tid}")
    page.wait_for_selector("#final-panel:not([hidden])")
    assert page.locator("#final thead th").all_inner_texts() == ["#", "Player", "Score", "BH", "SB"]
    assert page.locator("#standings thead th").all_inner_texts() == ["#", "Player", "Score", "BH", "SB"]
    info = page.text_content("#t-info")
    assert info.startswith("Finished ") and info.endswith("; rounds played: 1") and "starts" not in info
    assert page.locator("#final tbody tr").count() == 2
    page.goto(f"{server}/tournaments")
    assert page.text_content(f"#finished li[data-id='{tid}'] .hint").startswith("finished ")
    assert errors == []


@pytest.mark.parametrize("width", [1280, 375])
def test_the_finished_page_fits_every_language(finished, server, browser, width):  # noqa: F811
    tid, _, errors = finished
    shots = Path(os.environ["GIN_SCREENSHOTS"]) if os.environ.get("GIN_SCREENSHOTS") else None
    for lang in LANGUAGES:
        page = _page(browser, errors, locale=lang, viewport={"width": width, "height": 900})
        page.goto(f"{server}/tournaments/{tid}")
        page.wait_for_selector("#final-panel:not([hidden])")
        assert page.evaluate("document.documentElement.lang") == lang
        if lang != "en":  # the line under the name is in the page's language
            assert not page.text_content("#t-info").startswith("Finished")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, lang
        # every table fits its panel: nothing scrolls away (the tie-breaks did at 375 px)
        assert page.evaluate(
            "[...document.querySelectorAll('table.board')].map(t => t.scrollWidth - t.clientWidth)"
        ) == [
            0,
            0,
        ], lang
        if shots is not None:
            page.screenshot(path=str(shots / f"tournament-{lang}-{width}.png"), full_page=True)
        page.context.close()
    assert errors == []


def test_your_tables_shows_the_names_a_table_has_now(server, browser):  # noqa: F811
    """A table opened with a friend's seat unnamed ("Player 2") lists the friend's name once
    the opener's table page has seen it."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/")
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    table = page.evaluate("(seats) => postJSON('/api/tables', {seats})", seats)
    entry = {
        "id": table["id"],
        "link": table["seats"][0]["link"],
        "names": ["Ann", "Player 2"],
        "variant": "standard",
        "scoring": "game",
        "opened": 0,
        "invites": [],
    }
    page.evaluate("(e) => localStorage.setItem('gin.tables', JSON.stringify([e]))", entry)
    page.goto(server + "/")
    assert page.text_content("#recent-list a") == "Ann \u2013 Player 2"  # as stored when it was opened
    page.goto(table["seats"][0]["link"])
    page.wait_for_function("JSON.parse(localStorage.getItem('gin.tables'))[0].names[1] === 'Bob'")
    page.goto(server + "/")
    assert page.text_content("#recent-list a") == "Ann \u2013 Bob"
    assert errors == []
