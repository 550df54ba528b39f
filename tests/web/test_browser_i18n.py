"""Browser test of the translated web table (docs/i18n.md, "Web"): a Greek browser
(``Accept-Language: el-GR``) opens a table from the lobby, plays a whole deal against the computer
by clicking, and reads the end of the deal and the score sheet; the rules, tips and scorekeeper
pages are read too.  At every step no English word may be visible.  Then the language switcher
turns the page Finnish and the choice is remembered.  A Spanish browser plays a whole deal the
same way; Spanish is written in Latin letters, so there no word of the English interface (a word
of a msgid that no Spanish translation uses) may be visible.  Skipped without /usr/bin/chromium.

With ``GIN_SCREENSHOTS=DIR`` set, the table is photographed in Greek, Finnish, Maltese, Spanish and English
(``table-<lang>.png``, during a deal, and ``end-of-deal-<lang>.png``): docs/screenshots/ is made so.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from .test_browser import (
    BEST_CARD,
    CHROMIUM,
    _page,
    _wait_turn_or_end,  # noqa: F401
    browser,
    server,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

# Latin-script words that may show on a Greek page: the hash's name, a preset's acronym, the
# gin command named in the rules, the key names on the keyboard.
ALLOWED_LATIN = {
    "SHA",
    "EAAI",
    "OpenSpiel",
    "gin",
    "verify",
    "ladder",
    "sheet",
    "Enter",
    "Esc",
    "Shift",
    "English",
    "Suomi",
    "Malti",
    "Français",
    "Español",
    "Deutsch",
}  # the language switcher names each language in itself

# the page's text, with the badges drawn by CSS from data-new ("new" on the card just drawn)
VISIBLE_TEXT = "() => document.body.innerText + ' ' + [...document.querySelectorAll('[data-new]')].map(e => e.dataset.new).join(' ')"


def _english_left(page) -> list[str]:
    text = page.evaluate(VISIBLE_TEXT)
    words = re.findall(r"\b[A-Za-z]{2,}\b", text)
    return sorted({w for w in words if w not in ALLOWED_LATIN})


def _shots() -> Path | None:
    return Path(os.environ["GIN_SCREENSHOTS"]) if os.environ.get("GIN_SCREENSHOTS") else None


def _open_table(page, server: str, name: str) -> None:
    page.goto(server + "/")
    page.fill("#your-name", name)
    page.check("input[name='scoring'][value='hollywood']")
    page.select_option("#seat1-level", "novice")
    page.click("#open")
    page.wait_for_url(re.compile(r"/table/[0-9a-f]+\?seat="))
    page.wait_for_selector("#commitment")


def test_a_whole_deal_in_greek_shows_no_english(server, browser):
    errors: list[str] = []
    page = _page(browser, errors, locale="el-GR")
    page.goto(server + "/")
    assert page.evaluate("document.documentElement.lang") == "el"
    assert page.inner_text("h1") == "Άνοιξε τραπέζι"
    page.click("#advanced summary")
    assert _english_left(page) == []
    # the deal is random: the computer may end it (a knock or gin at its first chance) before
    # Ann had four turns to look at; then a new table is opened, at most five times
    for _attempt in range(5):
        if _attempt:
            page.goto(server + "/")
        page.fill("#your-name", "Άννα")
        page.check("input[name='scoring'][value='hollywood']")
        page.select_option("#seat1-level", "novice")
        page.click("#open")
        page.wait_for_url(re.compile(r"/table/[0-9a-f]+\?seat="))
        page.wait_for_selector("#commitment")
        assert "Υπολογιστής" in page.inner_text("#opp-bar")

        seen_turns = 0
        moves = 0
        while True:  # the deal, checking the page at each of my turns
            phase = _wait_turn_or_end(page)
            if phase == "over":
                break
            assert _english_left(page) == [], f"English on the table during {phase}"
            status = page.inner_text("#status")
            assert (
                status.startswith("Σειρά σου")
                or status.startswith("Μπορείς")
                or status.startswith("Διάλεξε")
                or status.startswith("Έμειναν")
                or status.startswith("Και τα")
            ), status
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
                assert page.inner_text("#actions [data-act='discard']").startswith("Πέτα ")
                page.click("#actions [data-act='discard']")
            moves += 1
            assert moves < 200
        if seen_turns > 3:
            break
    assert seen_turns > 3

    page.wait_for_selector("#result:not([hidden])")
    result = page.inner_text("#result-box")
    assert re.search(r"γράφει \d+ πόντ|ισοπαλία", result), result
    if page.evaluate("ui.state.deal.seed") is not None:  # a drawn deal's seed stays secret until the match ends (R7)
        page.wait_for_selector("#fair .ok")
    assert _english_left(page) == [], "English in the end-of-deal dialog"
    page.click("#look-at-table")
    sheet = page.inner_text("#sheet")
    assert "Σύνολο" in sheet or "Σύνολα" in sheet or "Παρτίδα" in sheet, sheet
    assert _english_left(page) == [], "English on the table after the deal"
    history = page.inner_text("#moves")
    assert "Άννα" in history

    for path in ("/rules", "/tips", "/scorekeeper"):
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.lang") == "el"
        assert _english_left(page) == [], f"English on {path}"

    # the switcher: Finnish now, and remembered for the next page
    page.click("#settings-btn")  # the language is under the top bar's Settings button
    page.select_option("#lang", "fi")
    page.wait_for_function("document.documentElement.lang === 'fi'")
    assert page.inner_text("h1") == "Pistekirjuri"
    page.goto(server + "/")
    assert page.inner_text("h1") == "Avaa pöytä"
    assert page.evaluate("JSON.parse(localStorage.getItem('gin.lang'))") == "fi"
    assert errors == []


def _english_only_words(lang: str) -> set[str]:
    """The words of the English texts (the msgids of both catalogs, without their HTML tags and
    placeholders) that no translation into ``lang`` uses: on a page in ``lang``, such a word is
    English left over.  A Latin-script language shares many words with English (Name, Computer,
    Gin), so the Greek test's rule (no Latin word at all) cannot be used for it."""
    from babel.messages.pofile import read_po

    def words(text: str) -> set[str]:
        return set(re.findall(r"\b[A-Za-z]{2,}\b", re.sub(r"<[^>]*>|\{[^}]*\}", " ", text)))

    english, local = set(), set()
    for domain in ("messages", "web"):
        with open(
            Path(__file__).resolve().parents[2] / "src/ginrummy/locale" / lang / "LC_MESSAGES" / f"{domain}.po", "rb"
        ) as f:
            for m in read_po(f):
                for text in m.id if isinstance(m.id, tuple) else [m.id]:
                    english |= words(text)
                for text in m.string if isinstance(m.string, tuple) else [m.string]:
                    local |= words(text)
    return english - local - ALLOWED_LATIN


# what a Latin-script language's table says: its name for Ann, the opening page's title, the
# start of each status line at a person's turn, the discard button, the end of a deal, the sheet
LATIN = {
    "fr": {
        "locale": "fr-FR",
        "name": "Anne",
        "h1": "Ouvrir une table",
        "status": ("À vous", "Vous pouvez", "Choisissez", "Il reste", "Les onze"),
        "discard": "Défausser",
        "result": r"marque \d+ point|nulle",
        "sheet": ("Total", "Partie"),
    },
    "es": {
        "locale": "es-ES",
        "name": "Ana",
        "h1": "Abrir una mesa",
        "status": ("Tu turno", "¡Puedes", "Puedes", "Elige", "Quedan", "Las once"),
        "discard": "Descartar",
        "result": r"suma \d+ punto|nula",
        "sheet": ("Total", "Partida"),
    },
    "de": {
        "locale": "de-DE",
        "name": "Anna",
        "h1": "Tisch eröffnen",
        "status": ("Du bist am Zug", "Du kannst", "Wähle", "Zwei Karten", "Alle elf"),
        "discard": "abwerfen",
        "result": r"erhält \d+ Punkt|unentschieden",
        "sheet": ("Summe", "Partie"),
    },
}


@pytest.mark.parametrize("lang", list(LATIN))
def test_a_whole_deal_in_a_latin_script_language_shows_no_english(server, browser, lang):
    """A whole deal against the computer in a French, Spanish or German browser (and the rules,
    tips, scorekeeper, fair-deal and leaderboard pages): no word of the English texts that the
    translation does not use itself is visible at any of the person's turns, at the end of the
    deal, or on the sheet (the Greek test's rule, no Latin word at all, cannot serve a language
    written in Latin letters)."""
    want = LATIN[lang]
    english = _english_only_words(lang)
    assert {"deadwood", "undercut"} <= english  # the list knows the game's words (typed commands stay English)

    def english_left() -> list[str]:
        return sorted(set(re.findall(r"\b[A-Za-z]{2,}\b", page.evaluate(VISIBLE_TEXT))) & english)

    errors: list[str] = []
    page = _page(browser, errors, locale=want["locale"])
    page.goto(server + "/")
    assert page.evaluate("document.documentElement.lang") == lang and page.inner_text("h1") == want["h1"]
    page.click("#advanced summary")
    assert english_left() == []
    for _attempt in range(5):  # the computer may end the deal before four turns: a new table
        _open_table(page, server, want["name"])
        seen_turns = moves = 0
        while (phase := _wait_turn_or_end(page)) != "over":
            assert english_left() == [], f"English on the table during {phase}"
            assert page.inner_text("#status").startswith(want["status"]), page.inner_text("#status")
            seen_turns += 1
            legal = page.evaluate("ui.state.view.legal_actions")
            if phase in ("upcard_offer", "wall"):
                page.click("#actions [data-act='pass']")
            elif phase == "draw":
                page.click("#stock")
            elif any(a.startswith(("gin ", "knock ")) for a in legal):
                page.click(
                    "#actions [data-act='gin']"
                    if any(a.startswith("gin ") for a in legal)
                    else "#actions [data-act='knock']"
                )
            else:
                page.click(f"#hand .card[data-card='{page.evaluate(BEST_CARD)}']")
                assert want["discard"] in page.inner_text("#actions [data-act='discard']")
                page.click("#actions [data-act='discard']")
            moves += 1
            assert moves < 200
        if seen_turns > 3:
            break
    assert seen_turns > 3
    page.wait_for_selector("#result:not([hidden])")
    assert re.search(want["result"], page.inner_text("#result-box")), page.inner_text("#result-box")
    if page.evaluate("ui.state.deal.seed") is not None:  # a drawn deal's seed stays secret (R7)
        page.wait_for_selector("#fair .ok")
    assert english_left() == [], "English in the end-of-deal dialog"
    page.click("#look-at-table")
    assert any(word in page.inner_text("#sheet") for word in want["sheet"]), page.inner_text("#sheet")
    assert english_left() == [], "English on the table after the deal"
    assert want["name"] in page.inner_text("#moves")
    for path in ("/rules", "/tips", "/scorekeeper", "/fair", "/leaderboard"):
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.lang") == lang
        assert english_left() == [], f"English on {path}"
    assert errors == []


def _play_to_the_end(page, picture) -> bool:
    """Play the deal of the table open in ``page`` to its end (pass, draw from the stock, knock or
    gin at once, else the least-deadwood discard), photographing the table at ``picture`` before
    the fifth move's discard.  Returns whether the picture was taken."""
    moves, shot = 0, False
    while True:
        phase = _wait_turn_or_end(page)
        if phase == "over":
            return shot
        legal = page.evaluate("ui.state.view.legal_actions")
        if phase in ("upcard_offer", "wall"):
            page.click("#actions [data-act='pass']")
        elif phase == "draw":
            page.click("#stock")
        elif any(a.startswith(k) for k in ("gin ", "knock ") for a in legal):
            page.click(
                "#actions [data-act='gin']"
                if any(a.startswith("gin ") for a in legal)
                else "#actions [data-act='knock']"
            )
        else:
            card = page.evaluate(BEST_CARD)
            page.click(f"#hand .card[data-card='{card}']")
            if moves >= 4 and not shot:
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(picture))
                shot = True
            page.click("#actions [data-act='discard']")
        moves += 1
        assert moves < 200


@pytest.mark.parametrize("lang", ["el", "fi", "mt", "fr", "es", "de", "en"])
def test_table_screenshots(server, browser, lang):
    """The table during a deal and at its end in each language (saved with GIN_SCREENSHOTS)."""
    shots = _shots()
    if shots is None:
        pytest.skip("set GIN_SCREENSHOTS=DIR to take the screenshots")
    errors: list[str] = []
    locales = {"el": "el-GR", "fi": "fi-FI", "mt": "mt-MT", "fr": "fr-FR", "es": "es-ES", "de": "de-DE", "en": "en-GB"}
    page = _page(browser, errors, locale=locales[lang])
    name = {"el": "Άννα", "fi": "Aino", "mt": "Marija", "fr": "Anne", "es": "Ana", "de": "Anna", "en": "Ann"}[lang]
    shot = False
    for _ in range(5):  # the deck is shuffled by the server: a deal may end before a fifth move; deal again
        _open_table(page, server, name)
        assert page.evaluate("document.documentElement.lang") == lang
        shot = _play_to_the_end(page, shots / f"table-{lang}.png")
        if shot:
            break
    assert shot, "the deal ended before a discard worth a picture"
    page.wait_for_selector("#result:not([hidden])")
    if page.evaluate("ui.state.deal.seed") is not None:  # revealed: not a drawn deal (R7)
        page.wait_for_selector("#fair .ok")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / f"end-of-deal-{lang}.png"))
    assert errors == []
