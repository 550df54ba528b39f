"""An arena in Chromium (issue 33, item 4; docs/compete.md "Arena"): people are paired again as
soon as they finish.  A module of its own, so its own server: the sign-ups of one address are
limited (5 in 10 minutes, web/http/player_routes.py), and test_browser_tournament.py's Swiss
signs up four people and another test a fifth.  Skipped without /usr/bin/chromium."""

from __future__ import annotations

import os
import re
import time
from datetime import datetime, timedelta

import pytest

from .test_browser import _page, browser, server  # noqa: F401  (fixtures)
from .test_browser_tournament import _sign_up, _step

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs Debian's Chromium at /usr/bin/chromium"),
]


def _to_a_new_table(page, server: str, tid: str, played: set[str]) -> str:
    """From the tournament page, the person's next arena table (one he has not played at):
    clicked, its id."""
    page.goto(f"{server}/tournaments/{tid}")
    page.wait_for_function(
        "async (old) => { const v = await getJSON(location.pathname.replace('/tournaments/', '/api/tournaments/'));"
        " return v.me.table !== null && !old.includes(v.me.table); }",
        arg=sorted(played),
        polling=250,
    )
    page.reload()
    page.wait_for_selector("#play:not([hidden])")
    page.click("#play")
    page.wait_for_url(re.compile(r".*/table/\w+\?seat=\S{16,}$"))
    return page.url.split("/table/")[1].split("?")[0]


def test_an_arena_in_chromium_pairs_each_person_again_as_soon_as_he_finishes(server, browser):  # noqa: F811
    """Issue 33, item 4, an arena: Eva and Finn sign up, Eva creates an arena on /tournaments
    (10 minutes, one deal a game, the computers random and novice entering), both enter, and each
    plays two games by clicking, paired again from the page as soon as his game is over; the
    page's standings of each (points, games, wins: win 2, draw 1, doubled on a streak) equal a
    recomputation from the games' results.  (An arena lasts 10 minutes at least: its end is
    tested over the API, tests/web/test_tournaments.py, with an injected clock.)"""
    from ginrummy.compete.arena import arena_standings

    errors: list[str] = []
    pages = {name: _page(browser, errors) for name in ("Eva", "Finn")}
    for name, page in pages.items():
        _sign_up(page, server, name)
    eva = pages["Eva"]
    eva.goto(server + "/tournaments")
    eva.wait_for_selector("#t-levels input[value='novice']")
    eva.fill("#t-name", "Arena")
    eva.select_option("#t-kind", "arena")
    eva.fill("#t-minutes", "10")
    eva.fill("#t-start", (datetime.now() + timedelta(seconds=12)).strftime("%Y-%m-%dT%H:%M:%S"))
    eva.select_option("#t-scoring", "deal")
    eva.check("#t-levels input[value='random']")
    eva.check("#t-levels input[value='novice']")
    eva.click("#t-create")
    eva.wait_for_url(re.compile(r".*/tournaments/[0-9a-f]{10}$"))
    tid = eva.url.rsplit("/", 1)[1]
    for page in pages.values():
        page.goto(f"{server}/tournaments/{tid}")
        page.click("#join")
        page.wait_for_selector("#withdraw:not([hidden])")
    played: dict[str, set[str]] = {name: set() for name in pages}
    for _game in range(2):
        for name, page in pages.items():
            played[name].add(_to_a_new_table(page, server, tid, played[name]))
        done: set[str] = set()
        for _ in range(3000):  # a bound on the moves, not a time
            for name, page in pages.items():
                if name not in done and _step(page) == "done":
                    done.add(name)
            if done == set(pages):
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the arena games did not end")
    eva.goto(f"{server}/tournaments/{tid}")
    eva.wait_for_selector("#standings tbody tr[data-player='Finn']")
    view = eva.evaluate(f"async () => await getJSON('/api/tournaments/{tid}')")
    assert view["settings"]["kind"] == "arena" and len(view["pairings"]) == 1
    outcomes: dict[str, list[str]] = {e["name"]: [] for e in view["entrants"]}
    side = {"a": ("win", "loss"), "b": ("loss", "win"), "draw": ("draw", "draw")}
    side |= {"forfeit_a": side["b"], "forfeit_b": side["a"]}
    for g in view["pairings"][0]["games"]:
        if g["result"] is not None:
            outcomes[g["a"]].append(side[g["result"]][0])
            outcomes[g["b"]].append(side[g["result"]][1])
    want = {r.player: r for r in arena_standings(list(outcomes), outcomes)}
    for name in pages:
        cells = eva.locator(f"#standings tbody tr[data-player='{name}'] td").all_inner_texts()
        assert [int(c) for c in cells[2:]] == [want[name].points, want[name].games, want[name].wins] and len(
            outcomes[name]
        ) == 2, (name, cells, outcomes[name])
    assert errors == []
