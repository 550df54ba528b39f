"""Browser tests: Playwright (sync API) drives Debian's Chromium against a real ``gin serve``.

They play a whole deal against the computer by clicking and by keyboard, and a two-person
table from two browser contexts.  Skipped when /usr/bin/chromium is missing.  With
``GIN_SCREENSHOTS=DIR`` set, the clicking test saves the lobby, a deal in progress and the
end-of-deal layout as PNG files there (docs/screenshots/ is made that way).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from .test_restart import _free_port, _start

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    import signal

    db = f"sqlite:///{tmp_path_factory.mktemp('web') / 'gin.sqlite3'}"
    port = _free_port()
    proc = _start(port, db)
    yield f"http://127.0.0.1:{port}"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _page(browser, errors: list[str], confirm: bool = False, **kw):
    """A page in a new context.  ``confirm=False`` turns off the table's "ask before a discard /
    knock" settings (on for a new player), so the tests that play whole deals act at once."""
    # bypass_csp: Playwright's string predicates (wait_for_function) run through eval, which the
    # server's content security policy forbids to every page (test_csp_* checks the policy itself)
    kw.setdefault("bypass_csp", True)
    ctx = browser.new_context(viewport=kw.pop("viewport", {"width": 1280, "height": 860}), **kw)
    if not confirm:
        ctx.add_init_script(
            "localStorage.setItem('gin.confirmDiscard', 'false'); localStorage.setItem('gin.confirmKnock', 'false');"
        )
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(60000)  # generous for a loaded machine: no time is asserted
    return page


def _wait_turn_or_end(page) -> str:
    page.wait_for_function(
        "typeof ui !== 'undefined' && ui.state && !ui.pending && (ui.state.your_turn || ui.state.view.phase === 'over')"
    )
    return page.evaluate("ui.state.view.phase")


def _to_my_first_turn(page, tries: int = 5) -> str:
    """Wait for the person's first turn at a table against the computer; the phase.  The
    table's seed is random: the computer, acting first, may take the upcard and knock at once
    (R4.2, R5.1), ending the deal before the person's first turn; then the next deal is dealt
    (it usually deals that one as the winner, R11.2, so the person acts first), at most
    ``tries`` times.  ``"over"`` only when the match ended so."""
    for _ in range(tries):
        phase = _wait_turn_or_end(page)
        if phase != "over" or page.evaluate("ui.state.match.finished"):
            return phase
        number = page.evaluate("ui.state.deal.number")
        page.evaluate("send({type: 'next_deal'})")  # the page sends its client seed by itself
        page.wait_for_function("(n) => ui.state.deal.number > n", arg=number)
    return _wait_turn_or_end(page)


BEST_CARD = """() => {
  const L = ui.state.view.legal_actions, after = ui.state.arrangement.after_discard || {};
  const cards = L.filter(a => a.startsWith('discard ')).map(a => a.slice(8));
  cards.sort((a, b) => after[a] - after[b] || cardValue(b) - cardValue(a) || (a < b ? -1 : 1));
  return cards[0];
}"""


def _play_deal_by_clicking(page, shots: Path | None = None) -> None:
    moves = 0
    while True:
        phase = _wait_turn_or_end(page)
        if phase == "over":
            break
        legal = page.evaluate("ui.state.view.legal_actions")
        if phase in ("upcard_offer", "wall"):
            page.click("#actions [data-act='pass']")
        elif phase == "draw":
            page.click("#stock")
        else:
            if any(a.startswith("gin ") for a in legal):
                page.click("#actions [data-act='gin']")
            elif any(a.startswith("knock ") for a in legal):
                page.click("#actions [data-act='knock']")
            else:
                card = page.evaluate(BEST_CARD)
                if page.evaluate("ui.selected") != card:  # a second click on the picked card puts it back
                    page.click(f"#hand .card[data-card='{card}']")
                assert page.is_enabled("#actions [data-act='discard']")
                assert not page.is_enabled("#actions [data-act='draw stock']") or page.is_hidden(
                    "#actions [data-act='draw stock']"
                )
                if shots is not None and moves == 4:
                    page.evaluate("window.scrollTo(0, 0)")
                    page.screenshot(path=str(shots / "deal-in-progress.png"))
                page.click("#actions [data-act='discard']")
        moves += 1
        assert moves < 200


def _play_deal_by_keyboard(page) -> None:
    moves = 0
    while True:
        phase = _wait_turn_or_end(page)
        if phase == "over":
            break
        legal = page.evaluate("ui.state.view.legal_actions")
        if phase in ("upcard_offer", "wall"):
            page.keyboard.press("p")
        elif phase == "draw":
            page.keyboard.press("s")
        elif any(a.startswith("gin ") for a in legal):
            page.keyboard.press("g")
        elif any(a.startswith("knock ") for a in legal):
            page.keyboard.press("k")
        else:
            card = page.evaluate(BEST_CARD)
            # move the keyboard cursor to the card with the arrow keys, pick it with Enter
            order = page.evaluate("handOrder().cards")
            cursor = page.evaluate("ui.cursor")
            target = order.index(card)
            for _ in range((target - cursor) % len(order)):
                page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            assert page.evaluate("ui.selected") == card
            page.keyboard.press("d")
        moves += 1
        assert moves < 200


def _check_end(page) -> bool:
    """Check the end-of-deal result and the fair-deal box; whether the seed was revealed (a
    drawn deal keeps it sealed)."""
    page.wait_for_selector("#result:not([hidden])")
    text = page.inner_text("#result-box")
    assert re.search(r"scores \d+|draw", text)
    if "draw" in text and not re.search(r"scores \d+", text):
        # a drawn deal (R7) keeps its seed sealed until the match ends, and the page says why
        page.wait_for_selector("#fair .sealed")
        assert page.query_selector("#seed") is None
        return False
    # the seed is revealed and checked against the commitment shown before the deal
    page.wait_for_selector("#fair .ok")
    seed = page.inner_text("#seed")
    assert re.fullmatch(r"[0-9a-f]{64}", seed)
    return True


def test_lobby_then_a_whole_deal_against_the_computer_by_clicking(server, browser):
    errors: list[str] = []
    page = _page(browser, errors)
    shots = Path(os.environ["GIN_SCREENSHOTS"]) if os.environ.get("GIN_SCREENSHOTS") else None
    page.goto(server + "/")
    page.fill("#your-name", "Ann")
    page.check("input[name='variant'][value='standard']")
    page.check("input[name='scoring'][value='hollywood']")
    page.select_option("#seat1-level", "novice")
    if shots is not None:
        page.click("#advanced summary")
        page.screenshot(path=str(shots / "lobby.png"), full_page=True)
    page.click("#open")
    page.wait_for_url(re.compile(r"/table/[0-9a-f]+\?seat="))
    page.wait_for_selector("#commitment")
    commitment = page.inner_text("#commitment")
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    assert "Computer (novice)" in page.inner_text("#opp-bar")
    # a hint from the computer opponent's level: shown in the status area, its card or button highlighted
    assert _to_my_first_turn(page) != "over"
    assert page.is_enabled("#hint-btn")
    page.click("#hint-btn")
    page.wait_for_selector("#status #hint-text")
    assert page.inner_text("#hint-text").startswith("Hint (novice): ")
    hinted = page.evaluate("currentHint().action")
    assert hinted in page.evaluate("ui.state.view.legal_actions")
    kind = hinted.split(" ")[0] if hinted.split(" ")[0] in ("discard", "knock", "gin") else hinted
    assert page.is_visible(f"#actions [data-act='{kind}'].hinted") or page.locator(".stack.hinted").count() == 1
    _play_deal_by_clicking(page, shots)
    _check_end(page)
    if shots is not None:
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / "end-of-deal.png"))
    page.click("text=Look at the table")
    assert page.is_hidden("#result")
    sheet = page.inner_text("#sheet")
    assert "Game 1" in sheet and "Game 3" in sheet
    assert errors == []


def test_a_whole_deal_by_keyboard_with_large_four_colour_cards(server, browser):
    errors: list[str] = []
    page = _page(browser, errors, viewport={"width": 412, "height": 900})  # a phone-sized screen
    page.goto(server + "/")
    page.click("#menu-btn")  # on a phone the card settings are in the top bar's menu (issue 34)
    page.check("#opt-large")
    page.check("#opt-four")
    page.fill("#your-name", "Kim")
    page.click("#open")
    page.wait_for_url(re.compile(r"/table/"))
    assert page.evaluate(
        "document.body.classList.contains('large-cards') && document.body.classList.contains('four-colour')"
    )
    page.keyboard.press("?")
    assert page.is_visible("#help")
    assert "H" in page.locator("#help .help-keys kbd").all_inner_texts()
    page.keyboard.press("Escape")
    assert page.is_hidden("#help")
    assert _to_my_first_turn(page) != "over"
    page.keyboard.press("h")  # a hint by keyboard
    page.wait_for_selector("#status #hint-text")
    _play_deal_by_keyboard(page)
    _check_end(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 412 + 1, f"the page scrolls sideways on a phone: {width}px"
    assert errors == []


def test_two_people_from_two_browser_contexts(server, browser):
    errors: list[str] = []
    ann = _page(browser, errors)
    ann.goto(server + "/")
    ann.fill("#your-name", "Ann")
    ann.select_option("#seat1-kind", "human")
    ann.fill("#seat1-name", "Bob")
    assert ann.is_checked("#bonuses")
    ann.check("input[name='scoring'][value='deal']")
    assert not ann.is_checked("#bonuses")  # one deal: no end-of-game bonuses, as in the single preset (R13)
    ann.click("#open")
    ann.wait_for_selector("#ready:not([hidden])")
    # both links in full: Bob's one-time invite and Ann's own (the way back to her seat), none cut off
    link = ann.inner_text("#links .link-text[data-name='Bob']")
    assert re.fullmatch(server + r"/table/[0-9a-f]{12}\?invite=\S{16,}", link)
    assert ann.inner_text("#links .link-text[data-name='Ann']") == ann.get_attribute("#go", "href") != link
    assert ann.evaluate(
        "[...document.querySelectorAll('#links .link-text')].every(e => e.scrollWidth <= e.clientWidth)"
    )
    ann.click("#go")
    # while Ann waits for Bob, her table page shows his invite link and who sits where (it used
    # to show them only once the first deal was dealt, when the link was spent)
    ann.wait_for_selector("#invite-panel:not([hidden])")
    assert ann.inner_text("#invites .link-text[data-name='Bob']") == link
    ann.wait_for_function("document.querySelectorAll('#players .player-row').length === 2")
    rows = [r.strip() for r in ann.locator("#players .player-row").all_inner_texts()]
    assert rows[0].startswith("Ann") and "(you)" in rows[0] and rows[1].startswith("Bob") and "(you)" not in rows[1], (
        rows
    )
    assert "waiting for Bob" in ann.inner_text("#status")
    assert ann.inner_text("#status .link-text[data-name='Bob']") == link  # on the felt, where she looks
    bob = _page(browser, errors)
    bob.goto(link)
    # the invite is claimed once: Bob's page now holds a token minted for him, which Ann never saw
    bob.wait_for_url(re.compile(r".*\?seat=\S{16,}$"))
    bob_token = bob.url.split("seat=")[1]
    assert bob_token not in ann.content() and bob_token not in ann.evaluate("JSON.stringify(localStorage)")
    third = _page(browser, errors)
    third.goto(link)  # the same invite a second time: refused, and no seat
    third.wait_for_function("document.getElementById('status').textContent.includes('used already')")
    assert "seat=" not in third.url
    pages = {"Ann": ann, "Bob": bob}
    for name, p in pages.items():
        p.wait_for_function("typeof ui !== 'undefined' && ui.state && ui.state.table.seats.every(s => s.connected)")
        # a person gets no "computer: ..." badge, and never the word "null"
        bar = p.inner_text("#opp-bar")
        assert "null" not in bar and "computer" not in bar and bar.startswith("Bob" if name == "Ann" else "Ann"), bar
    assert ann.is_hidden("#invite-panel")  # the deal is dealt: every seat is taken, the link is spent
    # the player not to act sees no enabled action button
    for _ in range(400):
        to_act = ann.evaluate("ui.state.to_act")
        if ann.evaluate("ui.state.view.phase") == "over":
            break
        page = pages[to_act]
        other = pages["Bob" if to_act == "Ann" else "Ann"]
        _wait_turn_or_end(page)
        assert other.evaluate("[...document.querySelectorAll('#actions button')].every(b => b.disabled || b.hidden)")
        seq = page.evaluate("ui.state.seq")
        _play_one_click(page)
        for p in pages.values():
            p.wait_for_function(f"ui.state.seq > {seq}")
    if all([_check_end(p) for p in pages.values()]):
        assert ann.inner_text("#seed") == bob.inner_text("#seed")
    assert errors == []


def _play_one_click(page) -> None:
    phase = page.evaluate("ui.state.view.phase")
    legal = page.evaluate("ui.state.view.legal_actions")
    if phase in ("upcard_offer", "wall"):
        page.click("#actions [data-act='pass']")
    elif phase == "draw":
        page.click("#actions [data-act='draw stock']")
    elif any(a.startswith("gin ") for a in legal):
        page.click("#actions [data-act='gin']")
    elif any(a.startswith("knock ") for a in legal):
        page.click("#actions [data-act='knock']")
    else:
        card = page.evaluate(BEST_CARD)
        page.dblclick(f"#hand .card[data-card='{card}']")


VISIBLE_ENABLED = """() => [...document.querySelectorAll('#actions button, .hand-tools button')]
  .filter(b => !b.disabled && b.getClientRects().length > 0).map(b => b.textContent.trim())"""


def test_a_wrong_or_missing_seat_token_shows_no_table_controls(server, browser):
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/rules")  # a first page gives the browser its CSRF cookie
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "gin_csrf")
    r = page.request.post(
        server + "/api/tables",
        data={
            "preset": "standard",
            "rules": {},
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        },
        headers={"X-CSRF-Token": csrf},
    )
    table_id = r.json()["id"]
    page.goto(f"{server}/table/{table_id}?seat=WRONG")
    page.wait_for_selector("#status >> text=This link's seat is not valid for this table")
    # one clear error: once the server has closed the connection (after its error message), the
    # status line says it and no toast repeats it
    page.wait_for_function("ui.ws && ui.ws.readyState === WebSocket.CLOSED")
    assert page.is_hidden("#toast") and page.inner_text("#conn") == ""
    assert page.evaluate(VISIBLE_ENABLED) == []
    page.keyboard.press("s")  # no key acts either: there is no state to act on
    assert page.evaluate("ui.state") is None
    # no such table: the server answers 404 with a page that says so and leads to the lobby
    # (issue 34: it said "This page needs your seat link")
    answer = page.goto(f"{server}/table/ffffffffffff?seat=WRONG")
    assert answer is not None and answer.status == 404
    page.wait_for_selector("h1 >> text=No table here")
    assert page.get_attribute("main a.btn", "href") == "/"
    page.goto(f"{server}/table/{table_id}")
    page.wait_for_selector("#status >> text=This page needs your seat link")
    assert page.evaluate(VISIBLE_ENABLED) == []
    assert errors == []


def test_the_card_just_taken_from_the_pile_says_why_it_cannot_be_discarded(server, browser):
    """R4.3 (discard_taken_card false): picking the taken card greys out Discard and the status
    line says why (not only a tooltip); the deadwood line does not offer it as a discard."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/")
    page.fill("#your-name", "Ann")
    page.click("#open")
    page.wait_for_url(re.compile(r"/table/"))
    phase = _to_my_first_turn(page)
    assert phase in ("upcard_offer", "draw")
    page.click("#discard")  # takes the upcard or the top discard
    page.wait_for_function("ui.state.view.phase === 'discard' && ui.state.your_turn && !ui.pending")
    taken = page.evaluate("ui.state.view.taken")
    assert taken and f"discard {taken}" not in page.evaluate("ui.state.view.legal_actions")
    page.click(f"#hand .card[data-card='{taken}']")
    assert page.evaluate("ui.selected") == taken
    assert not page.is_enabled("#actions [data-act='discard']")
    shown = page.evaluate(f"rankLabel('{taken[0]}') + SUIT_SYMBOL['{taken[1]}']")
    assert page.inner_text("#why-not") == (
        f"{shown} was just taken from the discard pile: it cannot be discarded this turn (R4.3)."
    )
    assert f"after discarding {shown}" not in page.inner_text("#deadwood")
    page.click(f"#hand .card[data-card='{taken}']")  # unpicked: the reason goes
    assert page.locator("#why-not").count() == 0
    assert errors == []
