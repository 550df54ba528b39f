"""Browser test: the "?" after a provisional rating is explained on the player page as on the
leaderboard (a title, "provisional rating", in the page's language); a firm rating has none.
Skipped without /usr/bin/chromium."""

from __future__ import annotations

import json
import os
from urllib.parse import quote

import httpx
import pytest

from .test_browser import CHROMIUM, _page, browser, server  # noqa: F401  (fixtures)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

NAME = "<b>Pat"  # markup in a name is shown as text


def _sign_up(server: str, name: str) -> None:
    csrf = "provisional-test-csrf-token-01"  # the double-submit pair (docs/accounts.md)
    r = httpx.post(
        server + "/api/account",
        json={"name": name, "password": "correct horse"},
        timeout=10,
        cookies={"gin_csrf": csrf},
        headers={"X-CSRF-Token": csrf},
    )
    assert r.status_code == 201, r.text


@pytest.mark.parametrize("lang, title", [("en", "provisional rating"), ("el", "προσωρινή βαθμολογία")])
def test_the_provisional_mark_is_explained_on_the_player_page_as_on_the_leaderboard(server, browser, lang, title):  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors, locale=lang)
    name = f"{NAME} {lang}"
    _sign_up(server, name)  # a new account: no rated match yet, so its rating is provisional
    player = httpx.get(server + "/api/players/" + quote(name, safe="")).json()
    assert player["provisional"] is True
    page.goto(server + "/players/" + quote(name, safe=""))
    page.wait_for_selector("#rating")
    assert page.text_content("#name") == name
    assert page.text_content("#rating").endswith("?")
    assert page.get_attribute("#rating", "title") == title
    # the leaderboard's "?" (the same account, as the board would list it after a rated match)
    row = {k: player[k] for k in ("name", "kind", "rating", "mu", "sigma", "provisional")} | {"matches": 1}
    page.route(
        "**/api/leaderboard*",
        lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps([row])),
    )
    page.goto(server + "/leaderboard")
    page.wait_for_selector("#board tbody tr[data-name] .provisional")
    assert page.get_attribute("#board tbody tr[data-name] .provisional", "title") == title
    # a firm rating has no "?" and nothing to explain
    firm = {**player, "provisional": False, "sigma": 1.0}
    page.route(
        "**/api/players/*",
        lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(firm)),
    )
    page.goto(server + "/players/firm")
    page.wait_for_selector("#rating")
    assert not page.text_content("#rating").endswith("?")
    assert page.get_attribute("#rating", "title") is None
    assert errors == []
