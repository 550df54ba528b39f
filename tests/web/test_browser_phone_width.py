"""Browser tests: no page is wider than a 375 px phone screen, in any language of the site.

A new user found pages that scrolled sideways on a phone: the leaderboard in Greek (414 px: its
"Rated matches" heading), the lobby in Finnish and Greek (392 and 383 px: the opponent's level
and name stuck out of the Players panel, a fieldset being as wide as its widest content), the
replay and /fair pages in every language (381 px: the file input).  The top menu scrolls sideways
inside itself (style.css, the phone block); the page itself must not.  Skipped without
/usr/bin/chromium.
"""

from __future__ import annotations

import os

import pytest

from .test_browser import CHROMIUM, _page, browser, server  # noqa: F401  (fixtures)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

PHONE = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True}

# each page and what shows that its script has drawn it
PAGES = {
    "/": "#seat1-level",
    "/leaderboard": "#board tbody tr",
    "/replay": "#file",
    "/fair": "#record-file",
}


@pytest.mark.parametrize("lang", ["en", "el", "fi", "mt"])
@pytest.mark.parametrize("path", list(PAGES))
def test_a_page_is_no_wider_than_a_375px_phone(server, browser, path, lang):  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors, **PHONE)
    page.goto(f"{server}{path}?lang={lang}")
    page.wait_for_selector(PAGES[path], state="attached")
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.evaluate("window.innerWidth") == 375
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    if path == "/":
        # three players: two seat rows, each with its kind, level and name
        page.check("input[name='players'][value='3']")
        page.wait_for_selector("#seat2-level", state="attached")
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.context.close()
    assert errors == []
