"""The pages share one head (``static/head.inc``, put in place by ``render_page``): each page's
source has the mark and none of the shared lines, and each served page has every shared line
exactly once, before the page's own title, styles and scripts."""

from __future__ import annotations

import pytest

from ginrummy.web.app import HEAD_INCLUDE, STATIC_DIR

SHARED = (STATIC_DIR / "head.inc").read_text(encoding="utf-8").splitlines()
PAGES = {
    "/": "lobby.html",
    "/table/abc": "no-table.html",
    "/rules": "rules.html",
    "/tips": "tips.html",
    "/scorekeeper": "scorekeeper.html",
    "/fair": "fair.html",
    "/account": "account.html",
    "/leaderboard": "leaderboard.html",
    "/daily": "daily.html",
    "/duels": "duels.html",
    "/players/Ann": "player.html",
    "/replay": "replay.html",
    "/puzzles": "puzzles.html",
    "/moderation": "moderation.html",
    "/tournaments": "tournaments.html",
    "/tournaments/abc": "tournament.html",
}


def test_every_page_file_is_served_and_marks_the_shared_head():
    assert set(PAGES.values()) | {"table.html"} == {p.name for p in STATIC_DIR.glob("*.html")}
    assert '<meta charset="utf-8">' in SHARED and '<script src="/static/common.js"></script>' in SHARED
    for name in PAGES.values():
        source = (STATIC_DIR / name).read_text(encoding="utf-8")
        head = source.split("</head>", 1)[0]
        assert len(HEAD_INCLUDE.findall(head)) == 1, name
        assert [line for line in SHARED if line in source] == [], name


@pytest.mark.parametrize("path, name", PAGES.items())
def test_each_served_page_has_the_shared_head_once_and_its_own_parts(client, path, name):
    r = client.get(path, headers={"Accept-Language": "fi"})
    assert r.status_code == (404 if name == "no-table.html" else 200), path
    head = r.text.split("</head>", 1)[0]
    assert "#include" not in r.text
    assert head.startswith('<!doctype html>\n<html lang="fi">\n<head>\n<meta charset="utf-8">\n'), head[:120]
    for line in SHARED:
        want = line.replace('src="/api/i18n.js"', 'src="/api/i18n.js?lang=fi"')
        assert head.count(want) == 1, (path, want)
    own = [
        line
        for line in (STATIC_DIR / name).read_text(encoding="utf-8").split("</head>", 1)[0].splitlines()
        if line.startswith(("<link", "<script"))
    ]
    for line in own:  # the page's own styles and scripts come after the shared ones
        assert head.index(line) > head.index('<script src="/static/common.js"></script>'), (path, line)
    source_title = (STATIC_DIR / name).read_text(encoding="utf-8").split("<title data-i18n>")[1].split("</title>")[0]
    assert head.count("<title data-i18n>") == 1 and source_title not in head  # the page's title, in Finnish
