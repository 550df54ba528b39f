"""Browser tests: on a phone the table's words say what to tap, not which key to press.

style.css hides the key hints ("(U)" on the move buttons, the help dialog's key list; the
"? Keys" button says "Settings" there) on a screen of at most 600 px; the answers of a move that cannot be made now ("the deal is over", "you have
gin", "pick a card first") name the button to tap there, in every language of the page, and
keep the keys on a desktop.  Skipped without /usr/bin/chromium.
"""

from __future__ import annotations

import os

import pytest

from .test_browser import CHROMIUM, _page, browser, server  # noqa: F401  (fixtures)
from .test_browser_newuser import READY, _open, _table, _to_discard_phase

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

PHONE = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 860}}

# (the deal is over, you have gin, pick a card first) in each language, on a phone and a desktop
WORDS = {
    ("en", "phone"): (
        "The deal is over: tap Next deal.",
        "You have gin: tap Gin (R2.5).",
        "Pick a card to discard first (tap it, then tap Discard).",
    ),
    ("el", "phone"): (
        "Η μοιρασιά τελείωσε: πάτα Επόμενη μοιρασιά.",
        "Έχεις τζιν: πάτα Τζιν (R2.5).",
        "Διάλεξε πρώτα ένα φύλλο για να το πετάξεις (άγγιξέ το και μετά πάτα Πέτα).",
    ),
    ("fi", "phone"): (
        "Jako on ohi: napauta Seuraava jako.",
        "Sinulla on gin: napauta Gin (R2.5).",
        "Valitse ensin heitettävä kortti (napauta sitä ja sitten Heitä).",
    ),
    ("mt", "phone"): (
        "It-tqassim spiċċa: agħfas Tqassim ieħor.",
        "Għandek gin: agħfas Gin (R2.5).",
        "L-ewwel agħżel karta biex tarmi (mess fuqha, imbagħad agħfas Armi).",
    ),
    ("fr", "phone"): (
        "La donne est finie : touchez Donne suivante.",
        "Vous avez gin : touchez Gin (R2.5).",
        "Choisissez d'abord une carte à défausser (touchez-la, puis touchez Défausser).",
    ),
    ("es", "phone"): (
        "La mano ha terminado: toca Siguiente mano.",
        "Tienes gin: toca Gin (R2.5).",
        "Elige primero una carta para descartar (tócala y luego toca Descartar).",
    ),
    ("de", "phone"): (
        "Die Runde ist vorbei: tippe auf Nächste Runde.",
        "Du hast Gin: tippe auf Gin (R2.5).",
        "Wähle zuerst eine Karte zum Abwerfen (tippe sie an, dann auf Abwerfen).",
    ),
    ("en", "desktop"): (
        "The deal is over: press N for the next deal.",
        "You have gin: press G (R2.5).",
        "Pick a card to discard first (click it, or use the arrow keys and Enter).",
    ),
}

# the three answers in the discard phase of a real deal, the page's state changed only in the
# page and put back after: no card picked; gin made legal and a knock asked for; the deal over
WHY_NOT = """() => {
  const v = ui.state.view, legal = v.legal_actions, phase = v.phase;
  ui.selected = null;
  const pick = whyNot("discard");
  v.legal_actions = [...legal, "gin " + v.hand[0]];
  const gin = whyNot("knock");
  v.legal_actions = legal;
  v.phase = "over";
  const over = whyNot("draw stock");
  v.phase = phase;
  return [over, gin, pick];
}"""


@pytest.mark.parametrize("lang, screen", list(WORDS))
def test_a_move_not_possible_now_names_the_button_on_a_phone_and_the_key_on_a_desktop(server, browser, lang, screen):  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors, locale=lang, **(PHONE if screen == "phone" else DESKTOP))
    tab = _table(server, [{"kind": "human", "name": "Kim"}, {"kind": "bot", "level": "novice"}])
    _open(page, tab["seats"][0]["link"])
    assert page.evaluate("document.documentElement.lang") == lang
    _to_discard_phase(page)
    assert page.is_hidden("#help-btn .keys-only") == (screen == "phone")  # where the page hides the keys
    over, gin, pick = WORDS[lang, screen]
    assert page.evaluate(WHY_NOT) == [over, gin, pick]
    # a tap (a click) on the stock once the deal is over says so in the toast, as words only
    page.evaluate("ui.state.view.phase = 'over'; document.getElementById('toast').hidden = true")
    if screen == "phone":
        page.tap("#stock")
    else:
        page.click("#stock")
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast") == over
    page.wait_for_function(READY)
    assert errors == []
