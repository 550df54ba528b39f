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


# -- the questions' switches on a phone ------------------------------------------------------

# the help button's label, the dialog's title and the discard switch's words, in each language
SETTINGS_WORDS = {
    "en": ("Settings", "Ask before each discard"),
    "el": ("Ρυθμίσεις", "Ρώτα πριν από κάθε πέταγμα"),
    "fi": ("Asetukset", "Kysy ennen jokaista heittoa"),
    "mt": ("Issettjar", "Staqsi qabel kull rimja"),
}


@pytest.mark.parametrize("lang", list(SETTINGS_WORDS))
def test_on_a_phone_the_settings_button_turns_the_discard_question_off(server, browser, lang):  # noqa: F811
    """style.css hides the key hints on a phone; the "? Keys" button stays there as "Settings",
    for its dialog is the one place where "ask before each discard / knock" is turned back on or
    off (README); the dialog's key list is left out there.  With the question off, a discard is
    made at once."""
    from .test_browser_newuser import READY, _open, _table, _to_discard_phase

    errors: list[str] = []
    page = _page(browser, errors, confirm=True, locale=lang, **PHONE)  # a new player: both questions on
    tab = _table(server, [{"kind": "human", "name": "Kim"}, {"kind": "bot", "level": "novice"}], lang=lang)
    _open(page, tab["seats"][0]["link"])
    assert page.evaluate("document.documentElement.lang") == lang
    label, discard_words = SETTINGS_WORDS[lang]
    assert page.is_visible("#help-btn")
    assert page.inner_text("#help-btn") == label
    page.tap("#help-btn")
    assert page.is_visible("#help")
    assert page.inner_text("#help-title") == label
    assert page.is_hidden("#help .help-keys")  # keys are for keyboards
    assert page.locator("#help kbd:visible").count() == 0
    assert page.inner_text("label[for='opt-confirm-discard']").strip() == discard_words
    assert page.is_checked("#opt-confirm-discard") and page.is_checked("#opt-confirm-knock")
    page.tap("#opt-confirm-discard")
    assert not page.is_checked("#opt-confirm-discard")
    page.tap("#help-close")
    assert page.is_hidden("#help")
    assert page.evaluate("localStorage.getItem('gin.confirmDiscard')") == "false"
    _to_discard_phase(page)
    card = page.evaluate("ui.state.view.legal_actions.find(a => a.startsWith('discard ')).slice(8)")
    page.tap(f"#hand .card[data-card='{card}']")
    page.tap("#actions [data-act='discard']")
    page.wait_for_function(f"!ui.state.view.hand.includes('{card}')")  # at once, no question
    assert page.is_hidden("#confirm")
    page.wait_for_function(READY)
    page.context.close()
    assert errors == []


def test_on_a_desktop_the_help_button_still_shows_the_keys(server, browser):  # noqa: F811
    from .test_browser_newuser import _open, _table

    errors: list[str] = []
    page = _page(browser, errors, viewport={"width": 1280, "height": 860})
    tab = _table(server, [{"kind": "human", "name": "Kim"}, {"kind": "bot", "level": "novice"}])
    _open(page, tab["seats"][0]["link"])
    assert page.inner_text("#help-btn") == "? Keys"
    page.click("#help-btn")
    assert page.inner_text("#help-title") == "Playing with the keyboard"
    assert page.is_visible("#help .help-keys")
    assert page.inner_text("label[for='opt-confirm-discard']").strip() == (
        "Ask before each discard (a double click, D or the Discard button)")
    page.context.close()
    assert errors == []
