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


PROVISIONAL = {"en": "(provisional)", "el": "(προσωρινή)"}


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
    # the words "(provisional)" follow the rating, so it carries no "?" as well (issue 34: "927?
    # (provisional)"); its title still says what it is
    assert not page.text_content("#rating").endswith("?")
    assert page.text_content("#summary").count("?") == 0
    assert page.text_content("#summary").count(PROVISIONAL[lang]) == 1
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


def _answer(body: str):
    return lambda route: route.fulfill(status=200, content_type="application/json", body=body)


def test_a_rating_chart_of_one_point_is_a_sentence_until_there_is_a_line(server, browser):  # noqa: F811
    """Issue 34: after one rated match the chart was a lone dot; a sentence says when it starts,
    and from the second rated match it is a line through every point."""
    errors: list[str] = []
    page = _page(browser, errors)
    name = "Chart Pat"
    _sign_up(server, name)
    player = httpx.get(server + "/api/players/" + quote(name, safe="")).json()
    history = [{"date": "2026-01-02T10:00:00+00:00", "rating": 812}]
    for points, shown in (
        (history, "sentence"),
        (history + [{"date": "2026-01-03T10:00:00+00:00", "rating": 840}], "line"),
    ):
        page.unroute("**/api/players/*")
        body = json.dumps({**player, "history": points})
        page.route("**/api/players/*", _answer(body))
        page.goto(server + "/players/" + quote(name, safe=""))
        page.wait_for_selector("#plot > *")
        if shown == "sentence":
            assert page.text_content("#plot") == "The rating chart starts after the second rated match."
            assert page.query_selector("#plot svg") is None
        else:
            assert page.get_attribute("#rating-plot polyline", "points") == "48.0,196.0 590.0,10.0"
            assert len(page.query_selector_all("#rating-plot circle")) == 2
    page.context.close()
    assert errors == []
