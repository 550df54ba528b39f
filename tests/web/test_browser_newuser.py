"""Browser tests of what a new user tripped on at the web table (issue 14, item 7): scores on
one line, three-hand roles (R10.1, R10.2), named bonuses (R11.3), keys out of turn, the
confirmations of a discard and a knock, an eleven-card hand on a 375 px phone, table-made
names in the reader's language, and the scorekeeper refusing an impossible deal (R6, R9.3).
"""

from __future__ import annotations

import os
import re

import httpx
import pytest

from .test_browser import CHROMIUM, _page, _wait_turn_or_end, browser, server  # noqa: F401

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

READY = "typeof ui !== 'undefined' && ui.state"


def _table(server: str, seats: list[dict], lang: str = "en", **body) -> dict:
    csrf = "newuser-test-csrf-token-0123"  # the double-submit pair (docs/accounts.md)
    r = httpx.post(
        server + "/api/tables",
        json={"seats": seats, **body},
        timeout=10,
        cookies={"gin_csrf": csrf},
        headers={"Accept-Language": lang, "X-CSRF-Token": csrf},
    )
    assert r.status_code == 201, r.text
    table = r.json()
    for seat in table["seats"]:  # an invited person's page claims the seat itself
        seat.setdefault("link", seat.get("invite"))
    return table


def _open(page, link: str, wait: bool = True) -> None:
    """Open a seat's page; with ``wait``, until the table is drawn (the first deal is dealt
    once every person at the table has opened his page and sent his client seed)."""
    page.goto(link)
    if wait:
        page.wait_for_function(READY)


def test_a_score_stays_on_one_line(server, browser):
    """A three-digit total with a long name, in the side panel and on a 375 px phone."""
    errors: list[str] = []
    for width in (1280, 375):
        page = _page(browser, errors, viewport={"width": width, "height": 800})
        tab = _table(
            server, [{"kind": "human", "name": "Alexandra Konstantinopoulou"}, {"kind": "bot", "level": "novice"}]
        )
        _open(page, tab["seats"][0]["link"])
        for total in (14, 886, 1234):
            # one evaluation: a state arriving meanwhile would draw the real (0) score again
            text, lines = (
                page.evaluate(f"""() => {{ ui.state.sheet.totals[ui.state.table.names[0]] = {total}; renderPlayers();
              const e = document.querySelector("#players .player-row[data-seat='0'] .score");
              const r = document.createRange(); r.selectNodeContents(e);
              return [e.innerText, new Set([...r.getClientRects()].map(x => Math.round(x.top))).size]; }}""")
            )
            assert text == f"{total:,}"
            assert lines == 1, (width, total)  # one line: no "1 / 4"
        page.context.close()
    assert errors == []


def test_a_three_hand_sheet_with_long_names_fits_its_panel(server, browser):
    """Three long names at 1280 px: the score sheet's box stays inside the side panel (its third
    column was cut off and the page scrolled sideways).  A name breaks between words only, so
    three long names make the sheet wider than the panel: it scrolls sideways in its own box."""
    errors: list[str] = []
    page = _page(browser, errors, viewport={"width": 1280, "height": 800})
    tab = _table(
        server,
        [
            {"kind": "human", "name": "Alexandra Konstantinopoulou"},
            {"kind": "bot", "level": "novice"},
            {"kind": "bot", "level": "random"},
        ],
    )
    _open(page, tab["seats"][0]["link"])
    fits, box, panel, overflow, page_width = page.evaluate("""() => { const b = document.querySelector('#sheet');
      const p = b.closest('.card-panel').getBoundingClientRect();
      return [b.scrollWidth <= b.clientWidth, b.getBoundingClientRect().right, p.right, getComputedStyle(b).overflowX,
              document.documentElement.scrollWidth]; }""")
    assert box <= panel, (box, panel)
    assert fits or overflow == "auto", overflow  # wider than its box: it scrolls in the box
    assert page_width <= 1280, page_width
    assert errors == []


def test_three_hand_role_draw_badges_and_a_computer_captain(server, browser):
    """R10.1: the role draw is shown and every seat has its role badge, the player's own too;
    R10.2: advising a computer captain is said plainly to be impossible."""
    errors: list[str] = []
    page = _page(browser, errors)
    seen: set[str] = set()
    for _ in range(25):
        tab = _table(
            server,
            [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}, {"kind": "bot", "level": "random"}],
        )
        _open(page, tab["seats"][0]["link"])
        state = page.evaluate("ui.state")
        names, roles = state["table"]["names"], state["roles"]
        # the role draw: every round's cards by player, and the roles it gave
        draw = page.inner_text("#role-draw")
        assert draw.startswith("Role draw (R10.1):")
        last = state["role_draws"][-1]
        order = sorted(range(3), key=lambda i: -"A23456789TJQK".index(last[i][0]))
        assert [names[i] for i in order] == [roles["box"], roles["captain"], roles["out"]]
        assert (
            f"Highest card {roles['box']} in the box, middle {roles['captain']} captain, lowest {roles['out']} sits out."
            in draw
        )
        # the player's own bar has his role (it was empty)
        badge = {"box": "in the box", "captain": "captain", "out": "sits out, advises"}[state["role"]]
        assert page.inner_text("#me-name") == "Ann"
        assert badge in page.inner_text("#me-bar")
        # the Players panel marks every seat's role: exactly one sits out
        rows = {n: page.inner_text(f"#players .player-row[data-seat='{i}']") for i, n in enumerate(names)}
        assert sum("sits out" in r for r in rows.values()) == 1 and "sits out" in rows[roles["out"]]
        assert "in the box" in rows[roles["box"]] and "captain" in rows[roles["captain"]]
        if state["role"] == "out" and "out" not in seen:
            page.wait_for_selector("#no-advice")
            assert page.inner_text("#no-advice").startswith(
                f"{roles['captain']} is a computer: it moves at once and takes no advice."
            )
            assert page.is_hidden("#suggest-form")
            assert "the hand below is" in page.inner_text("#me-bar")
            # the player sitting out advises: no move buttons, not even disabled ones, in any phase
            # (the computers may have played the deal out already: each phase is drawn in turn)
            for phase in ("upcard_offer", "draw", "discard"):
                shown = page.evaluate(f"""() => {{ ui.state.view.phase = "{phase}"; renderButtons();
                  return [...document.querySelectorAll('#actions [data-act]')].filter(b => b.offsetParent !== null)
                    .map(b => b.dataset.act); }}""")
                assert shown == [], (phase, shown)
        if state["role"] == "captain" and "captain" not in seen:
            page.wait_for_selector("#no-advice")
            assert (
                page.inner_text("#no-advice")
                == f"{roles['out']} sits out and is a computer: it gives no advice (R10.2)."
            )
        seen.add(state["role"])
        if {"out", "captain"} <= seen:
            break
    assert {"out", "captain"} <= seen, f"in 25 tables the person was only {seen}"
    assert errors == []


def test_named_bonus_rows_on_the_final_sheet(server, browser):
    """R11.3: the game bonus (a shutout doubled) and the box bonus are on rows that say which is which."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/scorekeeper")
    page.wait_for_function("typeof renderSheet === 'function'")
    page.evaluate("""async () => {
      const sheet = await postJSON('/api/sheet', { preset: 'standard', names: ['Ann', 'Bob'], results: ['Ann:40', 'Ann:35', 'Ann:30'] });
      const box = document.createElement('div'); box.id = 'test-sheet'; document.body.append(box); renderSheet(box, sheet); }""")
    game = page.locator("#test-sheet tr[data-bonus='game'] td").all_inner_texts()
    box = page.locator("#test-sheet tr[data-bonus='box'] td").all_inner_texts()
    assert game == ["game bonus", "+200 (shutout)", ""]
    assert box == ["box bonus", "+75", ""]
    assert page.get_attribute("#test-sheet tr[data-bonus='box'] td:nth-child(2)", "title") == "3 deals won"
    assert errors == []


def test_keys_out_of_turn_say_why(server, browser):
    """Ann's keys while Bob is to act each say it is not her turn; in the upcard offer the
    keys of a later step say what to do first (R4.2)."""
    errors: list[str] = []
    tab = _table(server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    ann, bob = _page(browser, errors), _page(browser, errors)
    _open(ann, tab["seats"][0]["link"], wait=False)
    _open(bob, tab["seats"][1]["link"])
    ann.wait_for_function(READY)
    to_act = ann.evaluate("ui.state.to_act")
    waiting, acting = (bob, ann) if to_act == "Ann" else (ann, bob)
    waiting.wait_for_function(READY + " && !ui.state.your_turn")
    for key in ("d", "s", "u", "p", "k", "g", "t", "b", "n"):
        waiting.evaluate("document.getElementById('toast').hidden = true")
        waiting.keyboard.press(key)
        assert waiting.is_visible("#toast"), key
        expected = "The deal is not over yet." if key == "n" else f"It is not your turn: {to_act} is to play."
        assert waiting.inner_text("#toast") == expected, key
    acting.wait_for_function(READY + " && ui.state.your_turn && ui.state.view.phase === 'upcard_offer'")
    for key in ("s", "d", "k"):
        acting.evaluate("document.getElementById('toast').hidden = true")
        acting.keyboard.press(key)
        assert acting.inner_text("#toast") == "First the upcard: take it (U) or pass (P) (R4.2).", key
    assert acting.evaluate("ui.state.view.phase") == "upcard_offer"  # nothing was sent
    assert errors == []


def _to_discard_phase(page) -> None:
    """Play (pass the upcard, draw from the stock) until the person holds 11 cards; a deal the
    computer ends first (it may knock at once) is followed by the next deal."""
    for _ in range(30):
        phase = _wait_turn_or_end(page)
        if phase == "discard":
            return
        if phase == "over":
            number = page.evaluate("ui.state.deal.number")
            page.evaluate("send({type: 'next_deal'})")  # the page sends its client seed by itself
            page.wait_for_function(f"ui.state.deal.number > {number}", timeout=60000)
            continue
        if phase in ("upcard_offer", "wall"):
            page.click("#actions [data-act='pass']")
        else:
            page.click("#stock")
        page.wait_for_function("!ui.pending")
    raise AssertionError("never reached the discard phase")


def test_double_click_and_knock_ask_first_and_the_setting_is_kept(server, browser):
    errors: list[str] = []
    page = _page(browser, errors, confirm=True)  # a new player: both settings on
    tab = _table(server, [{"kind": "human", "name": "Kim"}, {"kind": "bot", "level": "novice"}])
    _open(page, tab["seats"][0]["link"])
    assert page.evaluate("confirmOn('discard') && confirmOn('knock')")
    _to_discard_phase(page)
    card = page.evaluate("ui.state.view.legal_actions.find(a => a.startsWith('discard ')).slice(8)")
    page.dblclick(f"#hand .card[data-card='{card}']")
    page.wait_for_selector("#confirm:not([hidden])")
    assert page.inner_text("#confirm-title").startswith("Discard ")
    assert page.evaluate("ui.state.view.hand.length") == 11  # nothing sent yet
    page.keyboard.press("Escape")
    assert page.is_hidden("#confirm") and page.evaluate("ui.state.view.hand.length") == 11
    # K with no card picked: a knock is offered (made legal here, in the page), and asked first
    page.evaluate(f"ui.selected = null; ui.state.view.legal_actions.push('knock {card}')")
    page.keyboard.press("k")
    page.wait_for_selector("#confirm:not([hidden])")
    assert page.inner_text("#confirm-title").startswith("Knock, discarding ")
    page.keyboard.press("n")
    assert page.is_hidden("#confirm")
    page.evaluate("ui.state.view.legal_actions = ui.state.view.legal_actions.filter(a => !a.startsWith('knock '))")
    # a real discard, confirmed with Enter
    page.dblclick(f"#hand .card[data-card='{card}']")
    page.wait_for_selector("#confirm:not([hidden])")
    page.keyboard.press("Enter")
    page.wait_for_function(f"ui.state.view.hand.length === 10 && !ui.state.view.hand.includes('{card}')")
    # the computer answers the discard at once; if it knocks, the result dialog (over the help
    # dialog's controls) is closed first, as a person would
    if _wait_turn_or_end(page) == "over":
        page.click("#look-at-table")
        page.wait_for_selector("#result", state="hidden")
    # the help says what the keys do, and turns the question off; the browser remembers it
    page.keyboard.press("?")
    help_text = page.inner_text("#help")
    assert "Ask before each discard" in help_text and "Esc" in help_text and "not your turn" in help_text
    page.uncheck("#opt-confirm-discard")
    page.keyboard.press("Escape")
    assert page.evaluate("localStorage.getItem('gin.confirmDiscard')") == "false"
    page.reload()
    page.wait_for_function(READY)
    assert not page.is_checked("#opt-confirm-discard") and page.is_checked("#opt-confirm-knock")
    _to_discard_phase(page)
    card = page.evaluate("ui.state.view.legal_actions.find(a => a.startsWith('discard ')).slice(8)")
    page.dblclick(f"#hand .card[data-card='{card}']")
    page.wait_for_function(f"!ui.state.view.hand.includes('{card}')")  # at once, no question
    assert page.is_hidden("#confirm")
    assert errors == []


def test_eleven_cards_fit_one_row_on_a_375px_phone(server, browser):
    errors: list[str] = []
    for large in (False, True):
        page = _page(browser, errors, viewport={"width": 375, "height": 812})
        if large:
            page.add_init_script("localStorage.setItem('gin.largeCards', 'true')")
        tab = _table(server, [{"kind": "human", "name": "Kim"}, {"kind": "bot", "level": "novice"}])
        _open(page, tab["seats"][0]["link"])
        _to_discard_phase(page)
        for sort in ("melds", "suit", "rank"):
            page.click(f"[data-sort='{sort}']")
            tops = page.evaluate(
                "[...document.querySelectorAll('#hand .card')].map(c => Math.round(c.getBoundingClientRect().top + (c.classList.contains('selected') ? 14 : 0)))"
            )
            assert len(tops) == 11
            rows = len({t for t in tops})
            assert rows <= (2 if large else 1), (large, sort, tops)
        assert page.evaluate("document.documentElement.scrollWidth") <= 376
        page.context.close()
    assert errors == []


def test_the_move_buttons_are_on_a_small_phone_screen_without_scrolling(server, browser):
    """On a 375 x 667 phone the hand and the move buttons are on the screen as the table opens
    (the top bar is one line, the buttons stay at the bottom of the screen), at the upcard
    offer and in the discard phase, and the keyboard letters are not shown there."""
    errors: list[str] = []
    page = _page(browser, errors, viewport={"width": 375, "height": 667})
    tab = _table(server, [{"kind": "human", "name": "Kim"}, {"kind": "bot", "level": "novice"}])
    _open(page, tab["seats"][0]["link"])
    page.wait_for_selector("#actions:not([hidden])")

    def buttons_on_screen() -> list[dict]:
        return page.evaluate("""[...document.querySelectorAll('#actions .btn')]
            .filter(b => b.offsetParent !== null)
            .map(b => { const r = b.getBoundingClientRect();
                        return {act: b.dataset.act || b.id, top: r.top, bottom: r.bottom}; })""")

    assert page.evaluate("window.scrollY") == 0
    shown = buttons_on_screen()
    assert shown and all(0 <= b["top"] and b["bottom"] <= 667 for b in shown), shown
    assert page.evaluate("document.querySelector('.topbar').getBoundingClientRect().height") < 60
    assert page.is_hidden("#actions .btn .key")
    _to_discard_phase(page)
    page.evaluate("window.scrollTo(0, 0)")
    shown = buttons_on_screen()
    assert any(b["act"] == "discard" for b in shown)
    assert all(0 <= b["top"] and b["bottom"] <= 667 for b in shown), shown
    hand = page.evaluate("document.querySelector('#hand').getBoundingClientRect().top")
    assert 0 < hand < 667
    assert errors == []


def test_table_made_names_are_shown_in_the_readers_language(server, browser):
    """A table opened in English ("You", "Computer (novice)") read in Greek, and one opened in
    Finnish ("Pelaaja 1", "Pelaaja 2") read in Maltese; a typed name never changes."""
    errors: list[str] = []
    tab = _table(server, [{"kind": "human", "name": "You"}, {"kind": "bot", "level": "novice"}], lang="en")
    assert [s["name"] for s in tab["seats"]] == ["You", "Computer (novice)"]
    page = _page(browser, errors, locale="el-GR")
    _open(page, tab["seats"][0]["link"])
    assert page.inner_text("#me-name") == "Εσύ"
    assert page.inner_text("#opp-bar").startswith("Υπολογιστής (αρχάριος)")
    assert page.evaluate("Object.keys(ui.state.sheet.totals)") == ["Εσύ", "Υπολογιστής (αρχάριος)"]
    assert "Computer" not in page.inner_text("#players") and "You" not in page.inner_text("#players")
    tab = _table(server, [{"kind": "human"}, {"kind": "human"}], lang="fi")
    assert [s["name"] for s in tab["seats"]] == ["Pelaaja 1", "Pelaaja 2"]
    host = _page(browser, errors)
    _open(host, tab["seats"][0]["link"], wait=False)  # the deal waits for both people's seeds
    page = _page(browser, errors, locale="mt-MT")
    _open(page, tab["seats"][1]["link"])
    assert page.evaluate("ui.state.table.names") == ["Plejer 1", "Plejer 2"]
    tab = _table(server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "club"}], lang="en")
    page = _page(browser, errors, locale="el-GR")
    _open(page, tab["seats"][0]["link"])
    assert page.evaluate("ui.state.table.names") == ["Ann", "Υπολογιστής (έμπειρος)"]  # typed: kept
    # a person may not type a computer seat's name, so no typed name reads as a computer's
    r = httpx.post(
        server + "/api/tables",
        json={"seats": [{"kind": "human", "name": "Computer (novice)"}, {"kind": "bot", "level": "club"}]},
        timeout=10,
    )
    assert r.status_code == 400 and r.json()["code"] == "bad_request"
    assert errors == []


def test_scorekeeper_refuses_an_impossible_deal_and_keeps_the_sheet(server, browser):
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/scorekeeper")
    page.click("#clear")
    page.fill("#points", "25")
    page.click("#add")
    page.wait_for_function("document.getElementById('results').textContent.includes('25')")
    page.fill("#points", "1000000000")
    page.click("#add")
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert re.search(r"more than one deal can score under these rules \(at most 123\)", page.inner_text("#error"))
    assert page.evaluate("JSON.parse(localStorage.getItem('gin.sheet.results'))") == [[0, 25]]
    assert page.input_value("#points") == "1000000000"  # kept, to be corrected
    # too few points: the server's range (a won deal scores at least 1 here, R6.2), and the
    # page's own hint for an empty box no longer promises that 0 will do
    page.fill("#points", "0")
    page.click("#add")
    page.wait_for_function("document.getElementById('error').textContent.includes('less than')")
    assert "allowed: 1 to 123 points" in page.inner_text("#error")
    page.fill("#points", "")
    page.click("#add")
    assert page.inner_text("#error") == "Enter the points the winner scored (a whole number)."
    assert page.evaluate("JSON.parse(localStorage.getItem('gin.sheet.results'))") == [[0, 25]]
    assert errors == []


def test_the_rules_page_links_the_numbered_rule_book(server, browser):
    """docs/rules.md, served at /static/rules.md, opens as text from the Rules page (not a download)."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/rules")
    page.click("#rule-book a")
    page.wait_for_url(server + "/static/rules.md")
    text = page.inner_text("body")
    assert text.startswith("# The rules of ginrummy, numbered") and "- R10.1 " in text and "## R14. " in text
    assert errors == []


def test_the_scorekeeper_recomputes_the_sheet_when_its_setup_changes(server, browser):
    """Changing the scoring, the target or the bonuses redraws the sheet at once (a change event
    used to be taken for the list of deals: a script error, and the old sheet until a reload)."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/scorekeeper")
    page.click("#clear")
    page.select_option("#mode", "hollywood")
    for points in ("18", "30"):
        page.fill("#points", points)
        page.click("#add")
        page.wait_for_function(f"document.getElementById('results').textContent.includes('{points}')")
    rows = lambda: page.locator("#sheet tbody tr td:first-child").all_inner_texts()  # noqa: E731
    page.wait_for_function("document.querySelectorAll('#sheet tbody tr').length >= 4")
    assert [r.split(" ")[0] for r in rows()][:3] == ["Game", "Game", "Game"]
    page.select_option("#mode", "game")
    page.wait_for_function(
        "![...document.querySelectorAll('#sheet tbody td')].some(td => td.textContent.startsWith('Game'))"
    )
    assert rows()[0] == "Points" and rows()[-1] == "Total"
    page.select_option("#target", "250")
    page.wait_for_function("document.querySelector('#sheet').textContent.includes('Target 250')")
    page.uncheck("#bonuses")
    page.wait_for_function("document.querySelector('#sheet').textContent.includes('Target 250')")
    assert page.evaluate("JSON.parse(localStorage.getItem('gin.sheet.results'))") == [[0, 18], [0, 30]]
    assert errors == []
