"""Browser test of the French web table (issue 34, docs/i18n.md "Web"): a French browser
(``Accept-Language: fr-FR``) opens a table from the lobby, plays a whole deal against the computer
by clicking, reads the end of the deal and the score sheet, then the rules, tips and scorekeeper
pages.  At every step no English word may be visible.

French is written in the Latin script, so "English" cannot mean "Latin letters" as in the Greek
test: an English word here is a word of the catalogs' English msgids that no French translation
uses (``gin`` and ``Hollywood`` are French words too; ``Stock`` or ``Knock`` are not).  Skipped
without /usr/bin/chromium.
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import ginrummy

from .test_browser import (
    BEST_CARD,
    CHROMIUM,
    _page,
    _wait_turn_or_end,
    browser,  # noqa: F401
    server,  # noqa: F401
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]
LOCALE_DIR = Path(ginrummy.__file__).parent / "locale"

# names and commands shown as they are (the hash, the verifier), and words French shares with English
ALLOWED = {
    "score",  # French says "le score" (the performance score, issue 32) as English does
    "sha",
    "eaai",
    "openspiel",
    "gin",
    "verify",
    "sheet",
    "ladder",
    "english",
    "suomi",
    "malti",
    "json",
    "https",
    "utf",
}
ALLOWED |= {"hollywood", "oklahoma", "club", "expert", "standard", "total", "date", "phase", "table", "tables"}
ALLOWED |= {"action", "actions", "agent", "application", "arrangement", "auto", "chance", "client", "code", "codes"}
ALLOWED |= {"face", "format", "information", "message", "messages", "minute", "option", "page", "secret", "simple"}
ALLOWED |= {"sessions", "suggestion", "suggestions", "mail", "min", "ms", "id", "bot", "change"}


def _words(text: str) -> set[str]:
    text = re.sub(r"\{[^}]*\}|<[^>]*>", " ", text)
    return {w.casefold() for w in re.findall(r"\b[^\W\d_]{2,}\b", text)}  # whole words: no hex seeds


@cache
def _english_only(lang: str) -> frozenset[str]:
    """Words of the English msgids (both domains) that no translation into ``lang`` uses."""
    english: set[str] = set()
    local: set[str] = set()
    for domain in ("messages", "web"):
        with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po", "rb") as f:
            for m in read_po(f):
                if not m.id:
                    continue
                source: set[str] = set()
                for s in m.id if isinstance(m.id, tuple) else (m.id,):
                    source |= _words(s)
                english |= source
                for s in m.string if isinstance(m.string, tuple) else (m.string,):
                    local |= _words(s) - source  # not a word carried over (a typed command: "knock")
    return frozenset(english - local - ALLOWED)


VISIBLE_TEXT = (
    "() => document.body.innerText + ' ' + "
    "[...document.querySelectorAll('[data-new]')].map(e => e.dataset.new).join(' ')"
)


def _english_left(page, lang: str) -> list[str]:
    return sorted(_words(page.evaluate(VISIBLE_TEXT)) & _english_only(lang))


def test_the_english_word_list_knows_french():
    only = _english_only("fr")
    assert {"stock", "knock", "deadwood", "undercut", "discard", "dealer", "deal", "seed", "upcard"} <= only
    assert not {"gin", "hollywood", "oklahoma", "points", "table", "total", "donne", "pioche"} & only


def test_a_whole_deal_in_french_shows_no_english(server, browser):  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors, locale="fr-FR")
    page.goto(server + "/")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.inner_text("h1") == "Ouvrir une table"
    page.click("#advanced summary")
    assert _english_left(page, "fr") == []
    # the deal is random: the computer may end it before Anne had four turns to look at; then a
    # new table is opened, at most five times
    for _attempt in range(5):
        if _attempt:
            page.goto(server + "/")
        page.fill("#your-name", "Anne")
        page.check("input[name='scoring'][value='hollywood']")
        page.select_option("#seat1-level", "novice")
        page.click("#open")
        page.wait_for_url(re.compile(r"/table/[0-9a-f]+\?seat="))
        page.wait_for_selector("#commitment")
        assert "Ordinateur" in page.inner_text("#opp-bar")

        seen_turns = 0
        moves = 0
        while True:  # the deal, checking the page at each of my turns
            phase = _wait_turn_or_end(page)
            if phase == "over":
                break
            assert _english_left(page, "fr") == [], f"English on the table during {phase}"
            status = page.inner_text("#status")
            assert status.startswith(("À vous", "Vous pouvez", "Choisissez", "Il reste", "Les onze")), status
            seen_turns += 1
            legal = page.evaluate("ui.state.view.legal_actions")
            if phase in ("upcard_offer", "wall"):
                page.click("#actions [data-act='pass']")
            elif phase == "draw":
                page.click("#stock")
            elif any(a.startswith("gin ") for a in legal):
                page.click("#actions [data-act='gin']")
            elif any(a.startswith("knock ") for a in legal):
                page.click("#actions [data-act='knock']")
            else:
                card = page.evaluate(BEST_CARD)
                page.click(f"#hand .card[data-card='{card}']")
                assert page.inner_text("#actions [data-act='discard']").startswith("Défausser ")
                page.click("#actions [data-act='discard']")
            moves += 1
            assert moves < 200
        if seen_turns > 3:
            break
    assert seen_turns > 3

    page.wait_for_selector("#result:not([hidden])")
    result = page.inner_text("#result-box")
    assert re.search(r"marque \d+ point|nulle", result), result
    if page.evaluate("ui.state.deal.seed") is not None:  # a drawn deal's seed stays secret (R7)
        page.wait_for_selector("#fair .ok")
    assert _english_left(page, "fr") == [], "English in the end-of-deal dialog"
    page.click("#look-at-table")
    sheet = page.inner_text("#sheet")
    assert "Total" in sheet or "Partie" in sheet, sheet
    assert _english_left(page, "fr") == [], "English on the table after the deal"
    assert "Anne" in page.inner_text("#moves")

    for path in ("/rules", "/tips", "/scorekeeper"):
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert _english_left(page, "fr") == [], f"English on {path}"
    assert errors == []
