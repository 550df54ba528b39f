"""Issue 33, item 4, "in every language": the pages of each competition feature, opened by a
signed-in person who has something on each (a friend challenge sent, a tournament entered, a
turn-based table waiting for him), in each of the seven languages of the site: the daily deal,
the list of his friend challenges and one of them, the tournaments, one tournament, and the
lobby's "your turn" list.  On each, no English is left (Greek: no Latin word at all; a
Latin-script language: no word of the English texts that its translation does not use) and
nothing is wider than the window, at 1,280 px and at a 375 px phone's width.  Skipped without
/usr/bin/chromium.

With ``GIN_SCREENSHOTS=DIR`` set, each page is photographed at both widths
(``compete-<page>-<lang>-<width>.png``)."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from .test_browser import CHROMIUM, _page, browser, server  # noqa: F401  (fixtures)
from .test_browser_i18n import ALLOWED_LATIN, VISIBLE_TEXT, _english_only_words, _shots

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

LANGS = ["en", "el", "fi", "mt", "fr", "es", "de"]
NAMES = {"Dora", "Evi", "Zeta"}  # the people's names and the tournament's: Latin on every page


def _person(server: str, name: str) -> httpx.Client:
    c = httpx.Client(base_url=server, timeout=30)
    c.get("/api/me")
    c.headers["X-CSRF-Token"] = c.cookies["gin_csrf"]
    r = c.post("/api/account", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return c


@pytest.fixture(scope="module")
def dora(server):  # noqa: F811
    """Dora's cookies and the pages to open (path, what shows the page is drawn): she has sent
    Evi a challenge, entered a tournament (Evi too), and opened a turn-based table (1 day a move)
    against the computer that waits for her client seed."""
    dora, evi = _person(server, "Dora"), _person(server, "Evi")
    r = dora.post("/api/duels", json={"to": "Evi", "deals": 2, "level": "novice"})
    assert r.status_code == 201, r.text
    duel = r.json()["id"]
    start = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
    body = {"name": "Zeta", "start": start, "rounds": 3, "scoring": "deal", "levels": ["random", "novice"]}
    r = dora.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert dora.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert evi.post(f"/api/tournaments/{tid}/join").status_code == 200
    seats = [{"kind": "human"}, {"kind": "bot", "level": "novice"}]
    r = dora.post("/api/tables", json={"seats": seats, "clock": {"days": 1}})
    assert r.status_code == 201, r.text
    assert [e["why"] for e in dora.get("/api/turns").json()["turns"]] == ["seed"]
    cookies = [{"name": k, "value": v, "url": server} for k, v in dora.cookies.items()]
    dora.close()
    evi.close()
    pages = {
        "daily": ("/daily", "#deals tbody tr"),
        "duels": ("/duels", "#list tbody tr"),
        "duel": (f"/duels/{duel}", "#games tbody tr"),
        "tournaments": ("/tournaments", f"#upcoming li[data-id='{tid}']"),
        "tournament": (f"/tournaments/{tid}", "#entrants li:nth-child(4)"),
        "turns": ("/", "#turns-list li"),
    }
    return cookies, pages


def _english(page, lang: str, local: set[str]) -> list[str]:
    """The English words visible on ``page`` in ``lang`` (``code`` elements, hex by nature, left out)."""
    text = page.evaluate(
        "() => { const b = document.body.cloneNode(true); b.querySelectorAll('code').forEach(c => c.remove());"
        " document.body.appendChild(b); b.hidden = false; const t = b.innerText; b.remove(); return t; }"
    )
    text += " " + page.evaluate(VISIBLE_TEXT)
    words = set(re.findall(r"\b[A-Za-z]{2,}\b", text)) - NAMES - ALLOWED_LATIN - {"UTC"}
    if lang == "el":  # Greek: no Latin word at all
        return sorted(words)
    return sorted(words & local)


@pytest.mark.parametrize("lang", LANGS)
def test_the_competition_pages_speak_the_language_and_fit_at_1280_and_375_px(server, browser, dora, lang):  # noqa: F811
    cookies, pages = dora
    errors: list[str] = []
    page = _page(browser, errors, locale=lang)
    page.context.add_cookies(cookies)
    local = set() if lang in ("en", "el") else _english_only_words(lang)
    shots = _shots()
    found = {}
    for key, (path, drawn) in pages.items():
        page.goto(f"{server}{path}?lang={lang}")
        page.wait_for_selector(drawn, state="attached")
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.lang") == lang
        if lang != "en":
            found[key] = _english(page, lang, local)
        for width in (1280, 375):
            page.set_viewport_size({"width": width, "height": 860})
            if shots is not None:
                page.screenshot(path=str(shots / f"compete-{key}-{lang}-{width}.png"), full_page=True)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, (key, width, wide)
            # and no table scrolls inside its panel (the tie-breaks' headings did at 375 px)
            inner = page.evaluate(
                "[...document.querySelectorAll('table.board')].map(t => t.scrollWidth - t.clientWidth)"
            )
            assert set(inner) <= {0}, (key, width, inner)
        page.set_viewport_size({"width": 1280, "height": 860})
    page.context.close()
    assert found == ({} if lang == "en" else dict.fromkeys(pages, []))
    assert errors == []
