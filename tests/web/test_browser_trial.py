"""Browser tests of what a new-user trial found on the web pages: a spectator's "Fair deal"
panel acting like a player's, and how the pages read on a phone.  Playwright with Debian's
Chromium against a real ``gin serve`` (the fixtures of test_browser.py).
"""

from __future__ import annotations

import json
import os
import re

import pytest

from .test_browser import (
    CHROMIUM,
    _page,
    _play_deal_by_clicking,
    _to_my_first_turn,
    _wait_turn_or_end,  # noqa: F401
    browser,
    server,
)  # (fixtures)
from .test_browser_newuser import READY, _open, _table, _to_discard_phase

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]


# The words of a table's headings that are split over lines, and whether the table is inside a
# box no wider than the screen that scrolls sideways when the table is wider (else it must fit).
SPLIT_HEADINGS = """(sel) => {
  const table = document.querySelector(sel);
  const split = [];
  for (const th of table.querySelectorAll('thead th')) {
    const walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
        if (new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1) split.push(m[0]);
      }
    }
  }
  const box = table.parentElement, w = table.getBoundingClientRect().width;
  const fits = w <= box.clientWidth + 0.5 || getComputedStyle(box).overflowX === 'auto';
  return { split, fits, page: document.documentElement.scrollWidth, box: box.getBoundingClientRect().right };
}"""


def _frames_sent(page) -> list[str]:
    """Every WebSocket frame the page sends, as text, from now on."""
    sent: list[str] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent",
            lambda payload: sent.append(payload if isinstance(payload, str) else payload.decode("utf-8", "replace")),
        ),
    )
    return sent


def _no_player_controls(page) -> None:
    panel = page.inner_text("#fair-panel")
    assert "Sending your client seed" not in panel and "Your own seed" not in panel
    assert page.locator("#fair-yours").count() == 0
    assert page.locator("#fair-seed-form, #fair-seed").count() == 0
    assert page.locator("#fair-record").count() == 0 and "Download the record" not in panel


def test_a_spectator_sends_no_client_seed_and_has_no_seed_box_or_download(server, browser):
    """A spectator (?watch=1) of a public table before its first deal sees the commitments and
    whom the deal waits for; he sends no client seed (the server refuses one), shows no
    "Sending your client seed...", no seed box and no download link, before the deal and after."""
    errors: list[str] = []
    tab = _table(
        server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], preset="standard", public=True
    )
    page = _page(browser, errors)
    sent = _frames_sent(page)
    page.goto(f"{server}/table/{tab['id']}?watch=1")
    page.wait_for_selector("#fair-pending-commitment")
    state = page.evaluate("GinFair._panel.state")
    assert state["you"] is None and state["started"] is False
    assert page.inner_text("#fair-pending-commitment") == state["fair"]["pending"]["commitment"]
    assert page.inner_text("#fair-commitment") == state["fair"]["commitment"]
    assert "Ann, Bob" in page.inner_text("#fair-waiting")
    _no_player_controls(page)
    # the players come: the spectator gets new states, and the first deal is dealt
    players = []
    for seat in tab["seats"]:
        p = _page(browser, errors)
        _open(p, seat["link"], wait=False)
        players.append(p)
    page.wait_for_function("GinFair._panel.state && GinFair._panel.state.started", timeout=60000)
    page.wait_for_function(READY)
    _no_player_controls(page)
    assert page.locator("#fair-commitment").count() == 1
    page.wait_for_timeout(300)  # the frames' events reach the test after the page sent them
    seeds = [f for f in sent if json.loads(f).get("type") == "client_seed"]
    assert seeds == [], seeds
    for p in players:
        p.context.close()
    page.context.close()
    assert errors == []


REVIEW = {
    "type": "review",
    "deal": 1,
    "result": {
        "summary": {
            "Kim": {
                "decisions": 105,
                "inaccuracies": 0,
                "mistakes": 4,
                "blunders": 1,
                "mean_loss": 0.75,
                "accuracy": 95.2,
            },
            "Computer (novice)": {
                "decisions": 108,
                "inaccuracies": 2,
                "mistakes": 2,
                "blunders": 1,
                "mean_loss": 0.95,
                "accuracy": 97.2,
            },
        },
        "deals": [
            {
                "number": 1,
                "hindsight": {"text": "Hindsight (all hands shown, not part of the review): none.", "sealed": False},
                "decisions": [
                    {
                        "index": 3,
                        "phase": "draw",
                        "played": "draw stock",
                        "best": "take discard",
                        "value_played": 48.5,
                        "value_best": 61.0,
                        "loss": 12.5,
                        "mark": "blunder",
                        "reason": "take discard keeps 7H 8H",
                    },
                    {
                        "index": 5,
                        "phase": "discard",
                        "played": "discard KS",
                        "best": "discard KS",
                        "value_played": 50.1,
                        "value_best": 50.1,
                        "loss": 0.0,
                        "mark": None,
                        "reason": "",
                    },
                ],
            }
        ],
    },
}


def test_the_review_headings_break_only_between_words_on_a_phone(server, browser):
    """The deal review at the table on a 390 px phone: the summary's headings ("Decisions",
    "Inaccuracies", "Blunders") and the decisions table's are never cut letter by letter; a
    table wider than the screen scrolls sideways inside its own box, not the page."""
    errors: list[str] = []
    page = _page(browser, errors, viewport={"width": 390, "height": 844})
    tab = _table(server, [{"kind": "human", "name": "Kim"}, {"kind": "bot", "level": "novice"}])
    _open(page, tab["seats"][0]["link"])
    page.evaluate("(m) => GinReview.onMessage(m)", REVIEW)
    page.wait_for_selector("#review-summary")
    for sel in ("#review-summary", "#review table.review-table"):
        got = page.evaluate(SPLIT_HEADINGS, sel)
        assert got["split"] == [], (sel, got)
        assert got["fits"] and got["box"] <= 390 and got["page"] <= 390, (sel, got)
    assert errors == []


# The top bar's items: each one's box, and whether it is the element found there (nothing covers it)
TOPBAR = """() => {
  const bar = document.querySelector('.topbar');
  const items = [...bar.querySelector('.topbar-items').children].filter(e => !e.classList.contains('spacer'))
    .flatMap(e => e.tagName === 'NAV' ? [...e.children]
      : e.classList.contains('settings') ? [...e.children].filter(c => getComputedStyle(c).display !== 'none')
          .flatMap(c => c.classList.contains('settings-panel') ? [...c.children] : [c])
      : [e]);
  const out = { items: [], page: document.documentElement.scrollWidth, height: bar.getBoundingClientRect().height,
                overflowX: getComputedStyle(bar).overflowX };
  for (const e of items) {
    const r = e.getBoundingClientRect(), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    out.items.push({ text: e.tagName === 'SELECT' ? e.id : e.textContent.trim(), left: r.left, right: r.right, top: r.top,
                     bottom: r.bottom, x: r.left, shown: r.width > 0 && r.height > 0,
                     hit: !!hit && (hit === e || e.contains(hit) || (e.tagName === 'LABEL' && hit.closest('label') === e)) });
  }
  return out;
}"""


def _topbar(page) -> dict:
    return page.evaluate(TOPBAR)


def _overlapping(items: list[dict]) -> list[tuple[str, str]]:
    """Pairs of items whose boxes overlap."""
    out = []
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            across = a["x"] < b["x"] + (b["right"] - b["left"]) - 1 and b["x"] < a["x"] + (a["right"] - a["left"]) - 1
            if across and a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1:
                out.append((a["text"], b["text"]))
    return out


def test_every_top_bar_item_is_reachable_and_visibly_so_on_a_phone(server, browser):
    """On a 375 x 740 phone the top bar is one line with a Menu button (issue 34: the bar scrolled
    sideways, Sign in, Leaderboard and the language off-screen with no sign of it); the button
    opens every item (the links up to Leaderboard and Sign in, the two card settings, the
    language menu) below it, none covered or cut, and the page never scrolls sideways.  At
    1280 x 800 there is no menu button, the bar is one line, and the card settings and the
    language open under the Settings button (closed again by Escape).  Nothing overlaps."""
    errors: list[str] = []
    tab = _table(server, [{"kind": "human", "name": "Kim"}, {"kind": "bot", "level": "novice"}])
    for width, height in ((375, 740), (1280, 800)):
        for url in (server + "/", tab["seats"][0]["link"], server + "/scorekeeper"):
            page = _page(browser, errors, viewport={"width": width, "height": height})
            page.goto(url)
            page.wait_for_selector(".topbar #lang", state="attached")
            if width == 375:
                assert page.is_visible("#menu-btn") and page.is_hidden("#lang")
                assert page.get_attribute("#menu-btn", "aria-expanded") == "false"
                closed = _topbar(page)
                assert closed["height"] < 60 and closed["page"] <= width, closed  # one line
                page.click("#menu-btn")
                assert page.get_attribute("#menu-btn", "aria-expanded") == "true"
            else:
                assert page.is_hidden("#menu-btn") and page.is_hidden("#lang")
                assert _topbar(page)["height"] < 60  # one line
                page.click("#settings-btn")
                assert page.get_attribute("#settings-btn", "aria-expanded") == "true" and page.is_visible("#lang")
            got = _topbar(page)
            names = [i["text"] for i in got["items"]]
            assert {"Scorekeeper", "Leaderboard", "Sign in", "Large cards", "Four-colour deck", "lang"} <= set(names), (
                names
            )
            assert all(i["shown"] and i["hit"] and 0 <= i["left"] and i["right"] <= width for i in got["items"]), (
                width,
                url,
                got["items"],
            )
            assert got["page"] <= width and got["overflowX"] == "visible", (width, url, got)
            assert _overlapping(got["items"]) == [], (width, url, got["items"])
            if width == 1280:
                page.keyboard.press("Escape")
                assert page.is_hidden("#lang") and page.get_attribute("#settings-btn", "aria-expanded") == "false"
            page.context.close()
    assert errors == []


PANEL_BOX = "(() => { const r = document.querySelector('#settings-panel').getBoundingClientRect(); return [r.left, r.right]; })()"


def test_the_settings_panel_stays_on_screen_and_the_language_menu_keeps_the_focus(server, browser):
    """Where the top bar wraps (1,024 px in English, 1,100 px in Spanish put the Settings button
    at the start of the second row) its panel opens within the screen, not past the left edge;
    a language picked with the keyboard's arrow key loads the page with the panel open and the
    menu focused, and Tab out of the panel closes it; on a phone Escape and a click outside
    close the Menu."""
    errors: list[str] = []
    for width, lang in ((1024, "en"), (1100, "es")):
        page = _page(browser, errors, viewport={"width": width, "height": 800})
        page.goto(server + f"/rules?lang={lang}")
        page.click("#settings-btn")
        left, right = page.evaluate(PANEL_BOX)
        assert 0 <= left and right <= width, (width, lang, left, right)
        page.context.close()
    page = _page(browser, errors, viewport={"width": 1280, "height": 800})
    page.goto(server + "/scorekeeper?lang=en")
    page.click("#settings-btn")
    page.focus("#lang")
    page.keyboard.press("ArrowDown")
    page.wait_for_function("document.documentElement.lang === 'el'")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'lang'")
    assert page.get_attribute("#settings-btn", "aria-expanded") == "true"
    page.keyboard.press("Tab")
    assert page.get_attribute("#settings-btn", "aria-expanded") == "false" and page.is_hidden("#lang")
    page.context.close()
    page = _page(browser, errors, viewport={"width": 375, "height": 740})
    page.goto(server + "/scorekeeper?lang=en")
    page.click("#menu-btn")
    page.keyboard.press("Escape")
    assert page.get_attribute("#menu-btn", "aria-expanded") == "false" and page.is_hidden("#lang")
    page.click("#menu-btn")
    page.check("#opt-large")  # a click inside keeps it open
    assert page.get_attribute("#menu-btn", "aria-expanded") == "true"
    page.mouse.click(200, 700)
    assert page.get_attribute("#menu-btn", "aria-expanded") == "false"
    page.context.close()
    assert errors == []


def test_the_top_bar_keeps_its_keys_at_a_table_a_long_name_fits_and_a_refused_deletion_is_said_under_it(
    server, browser
):
    """At a table Enter on the top bar's Settings (1,280 px) or Menu (375 px) opens it and picks
    no card: the table's keys had taken it (and would have answered its discard question). A
    signed-in name of 20 wide letters keeps the bar one line at 1,280 px, cut, whole in its
    title. A refused deletion is said under its button, not at the end of the page's panel."""
    errors: list[str] = []
    tab = _table(server, [{"kind": "human", "name": "Kim"}, {"kind": "bot", "level": "novice"}])
    for width, button in ((1280, "#settings-btn"), (375, "#menu-btn")):
        page = _page(browser, errors, viewport={"width": width, "height": 800})
        _open(page, tab["seats"][0]["link"])
        page.focus(button)
        page.keyboard.press("Enter")
        assert page.get_attribute(button, "aria-expanded") == "true"
        assert page.evaluate("ui.selected") is None
        page.context.close()
    page = _page(browser, errors, viewport={"width": 1280, "height": 800}, locale="el-GR")
    page.on("dialog", lambda d: d.accept())
    page.goto(server + "/account?lang=el")
    page.fill("#up-name", "W" * 20)
    page.fill("#up-password", "correct horse")
    page.click("#up-go")
    page.wait_for_selector("#member:not([hidden])")
    page.goto(server + "/?lang=el")
    page.wait_for_selector("#account-link[title]")
    assert page.text_content("#account-link") == "W" * 20
    assert page.get_attribute("#account-link", "title").startswith("W" * 20 + " \u00b7 ")
    assert _topbar(page)["height"] < 60  # one line
    page.goto(server + "/account")
    page.click("details.danger-zone summary")
    page.fill("#del-password", "wrong horse")
    page.click("#delete")
    page.wait_for_selector("#error:not(:empty)")
    assert page.evaluate("document.querySelector('#error').previousElementSibling.id") == "delete"
    assert page.text_content("#error") == "αυτός δεν είναι ο κωδικός αυτού του λογαριασμού"
    page.context.close()
    assert errors == []


def test_a_one_deal_table_names_no_target_on_its_score_sheet(server, browser):
    """R11.1: at a one-deal table (preset single, scoring "deal") the score sheet says nothing of
    a target, since one deal decides; a game to 100 still names its target.  The scorekeeper
    draws its sheet with the same code (renderSheet)."""
    errors: list[str] = []
    for preset, want in (("single", None), ("standard", "Target 100. Bonuses do not count toward it.")):
        page = _page(browser, errors)
        tab = _table(server, [{"kind": "human", "name": "Kim"}, {"kind": "bot", "level": "novice"}], preset=preset)
        _open(page, tab["seats"][0]["link"])
        assert page.evaluate("ui.state.sheet.scoring") == ("deal" if preset == "single" else "game")
        text = page.inner_text("#sheet")
        if want is None:
            assert "Target" not in text and "Bonuses" not in text, text
        else:
            assert want in text, text
        page.context.close()
    page = _page(browser, errors)
    page.goto(server + "/scorekeeper")
    page.wait_for_selector("#sheet table.sheet")
    sheet = page.evaluate("""() => postJSON('/api/sheet', { preset: 'single', names: ['Ann', 'Bob'], results: [] })
      .then(s => { renderSheet(document.getElementById('sheet'), s); return s; })""")
    assert sheet["scoring"] == "deal" and not sheet["finished"]
    assert "Target" not in page.inner_text("#sheet")
    page.context.close()
    assert errors == []


KEY_HINT = re.compile(r"\([A-Z]\)|\bEnter\b|\bEsc\b")


def test_no_keyboard_hints_on_a_phone(server, browser):
    """On a 390 x 844 phone no key is shown, as on the move buttons: not in the status line
    ("take the upcard K\u2665 (U) or pass (P)"), not in the question before a discard or a
    knock ("Yes Enter / No Esc"), not on the result dialog's "Next deal (N)".  At 1280 px the
    status line still names its keys."""
    errors: list[str] = []
    wide = _page(browser, errors, viewport={"width": 1280, "height": 800})
    _open(
        wide, _table(server, [{"kind": "human", "name": "Kim"}, {"kind": "bot", "level": "novice"}])["seats"][0]["link"]
    )
    _wait_turn_or_end(wide)
    assert KEY_HINT.search(wide.inner_text("#status")), wide.inner_text("#status")
    wide.context.close()
    page = _page(browser, errors, confirm=True, viewport={"width": 390, "height": 844})
    _open(
        page, _table(server, [{"kind": "human", "name": "Kim"}, {"kind": "bot", "level": "novice"}])["seats"][0]["link"]
    )
    _wait_turn_or_end(page)
    if page.evaluate("ui.state.view.phase") != "over":
        assert page.locator("#status .key").count() > 0  # the key is there, for a keyboard, and hidden
        assert not KEY_HINT.search(page.inner_text("#status")), page.inner_text("#status")
    _to_discard_phase(page)
    status = page.inner_text("#status")
    assert status and not KEY_HINT.search(status), status
    # the keyboard help's button says "Settings" here (its dialog holds the questions' switches)
    assert page.is_hidden("#help-btn .keys-only") and page.inner_text("#help-btn") == "Settings"
    page.click("#stock")  # drawn already: the toast says why not, without its keys
    page.wait_for_selector("#toast:not([hidden])")
    why = page.inner_text("#toast")
    assert why.startswith("You have drawn: now discard") and not KEY_HINT.search(why), why
    assert page.locator("#toast .key").count() == 3  # (D), (K), (G): kept for a keyboard, hidden
    card = page.evaluate("ui.state.view.legal_actions.find(a => a.startsWith('discard ')).slice(8)")
    page.click(f"#hand .card[data-card='{card}']")
    page.click("#actions [data-act='discard']")
    page.wait_for_selector("#confirm:not([hidden])")
    question = page.inner_text("#confirm-box")
    assert "Yes" in question and "No" in question and not KEY_HINT.search(question), question
    page.click("#confirm-no")
    page.evaluate("SETTINGS.set('confirmDiscard', false); SETTINGS.set('confirmKnock', false)")
    _play_deal_by_clicking(page)
    page.wait_for_selector("#result:not([hidden])")
    if page.evaluate("ui.state.can_next_deal"):
        button = page.inner_text("#next-deal-dialog")
        assert button.strip() == "Next deal", button
    assert not KEY_HINT.search(page.inner_text("#status")), page.inner_text("#status")
    page.context.close()
    assert errors == []


def test_a_spectator_of_a_finished_match_gets_no_download_link(server, browser):
    """The end-of-match dialog offers "Download the record" to a seat only: the download asks
    for the seat's token, which a spectator does not have (one deal is the match, R11.1)."""
    errors: list[str] = []
    tab = _table(
        server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}], preset="single", public=True
    )
    watcher = _page(browser, errors)
    watcher.goto(f"{server}/table/{tab['id']}?watch=1")
    player = _page(browser, errors)
    _open(player, tab["seats"][0]["link"])
    # a drawn deal (R7.3: the stock ran out after its reshuffle, a few deals in 1,000 with a
    # random seed) is dealt again and the match goes on: play on to its end, at most five deals
    for _ in range(5):
        _play_deal_by_clicking(player)
        if player.evaluate("ui.state.match.finished"):
            break
        number = player.evaluate("ui.state.deal.number")
        player.evaluate("send({type: 'next_deal'})")  # the page sends its client seed by itself
        player.wait_for_function("(n) => ui.state.deal.number > n", arg=number)
    for page, downloads in ((player, 1), (watcher, 0)):
        page.wait_for_function("ui.state && ui.state.match.finished")
        page.wait_for_selector("#result:not([hidden])")
        assert page.locator("#result-box a", has_text="Download the record").count() == downloads
        assert page.locator("#result-box a", has_text="New table").count() == 1
        # the seat is told how to watch the match again (a guest's match is not kept), with a
        # link to the Replay page; the spectator, who has no record to open, is not
        assert page.locator("#replay-hint").count() == downloads
        if downloads:
            assert page.text_content("#replay-hint") == (
                "To watch the match again, move by move, open the downloaded record on the Replay page."
            )
            assert page.locator("#replay-hint a").get_attribute("href") == "/replay"
    player.context.close()
    watcher.context.close()
    assert errors == []


def test_spectators_are_told_apart_in_the_chat_and_muted_one_by_one(server, browser):
    """Two spectators of a table open to their chat are "spectator 1" and "spectator 2" on the
    player's page (the server's "watcher" number; nobody is named), and muting one hides only
    his lines."""
    errors: list[str] = []
    tab = _table(
        server,
        [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}],
        preset="standard",
        public=True,
        spectator_chat=True,
    )
    ann = _page(browser, errors)
    _open(ann, tab["seats"][0]["link"])
    # the table waits for Ann's move from here; a deal the computer ended at once (it takes the
    # upcard and knocks, R4.2, R5.1) would put its result dialog over the chat she clicks in
    assert _to_my_first_turn(ann) != "over"
    watchers = []
    for text in ("hi from one", "hi from two"):
        w = _page(browser, errors)
        w.goto(f"{server}/table/{tab['id']}?watch=1")
        w.wait_for_function("ui.state && ui.state.started")
        w.fill("#chat-text", text)
        w.press("#chat-text", "Enter")
        watchers.append(w)
        ann.wait_for_function(f"document.querySelector('#chat-list').innerText.includes({text!r})")
    lines = ann.locator("#chat-list .chat-line").all_inner_texts()
    assert lines == ["spectator 1: hi from one", "spectator 2: hi from two"], lines
    ann.locator("#chat-list .chat-line button", has_text="spectator 1:").click()  # mute him
    ann.wait_for_function("document.querySelectorAll('#chat-list .chat-line').length === 1")
    assert ann.locator("#chat-list .chat-line").all_inner_texts() == ["spectator 2: hi from two"]
    assert ann.evaluate("SETTINGS.get('muted', [])") == [f"spectator 1 at {tab['id']}"]  # this table's only
    # the muted sender's name is gone with his lines: a button hears him again
    ann.locator("#chat-list .chat-muted button", has_text="Unmute spectator 1").click()
    ann.wait_for_function("document.querySelectorAll('#chat-list .chat-line').length === 2")
    assert ann.locator("#chat-list .chat-muted").count() == 0
    assert ann.evaluate("SETTINGS.get('muted', [])") == []
    for p in (ann, *watchers):
        p.context.close()
    assert errors == []
