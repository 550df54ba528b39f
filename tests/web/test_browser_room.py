"""The card room in Chromium (docs/protocol.md, "The card room"): two browsers find each other
through the lobby's open tables and play; a third watches, and the wire scan finds no hidden
card in anything it received; chat with markup is shown as text; a rematch whose first dealer
follows R11.2; a clock running out makes the novice move; the sound and motion toggles and
prefers-reduced-motion.  With ``GIN_SCREENSHOTS=DIR`` the room's screenshots (``room-*.png`` in
docs/screenshots/) are saved there."""

from __future__ import annotations

import json
import re

import pytest

from .test_browser import BEST_CARD, _page, _to_my_first_turn, _wait_turn_or_end, browser, server  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser]

CARD = r"\b[A2-9TJQK][CDHS]\b"


def _play_some(page, moves: int, knock: bool = True) -> None:
    """Play ``moves`` moves (or to the end of the deal) through the page's own send(); without
    ``knock``, never a knock or gin (a discard instead)."""
    for _ in range(moves):
        phase = _wait_turn_or_end(page)
        if phase == "over":
            return
        legal = page.evaluate("ui.state.view.legal_actions")
        move = next((a for a in legal if knock and a.startswith(("gin", "knock"))), None) or (
            "draw stock" if "draw stock" in legal else ("pass" if "pass" in legal else legal[0])
        )
        seq = page.evaluate("ui.state.seq")
        page.evaluate("(m) => send({type: 'action', action: m})", move)
        page.wait_for_function("(s) => ui.state.seq > s", arg=seq)


def test_two_browsers_meet_in_the_lobby_a_third_watches_and_chat_is_text(browser, server):  # noqa: F811
    errors: list[str] = []
    ann = _page(browser, errors)
    ann.goto(server + "/")
    ann.fill("#your-name", "Ann")
    ann.select_option("#seat1-kind", "human")
    ann.check("#public")
    ann.click("#open")
    ann.wait_for_selector("#go")
    ann.click("#go")
    ann.wait_for_url("**/table/**seat=**")
    table_id = ann.url.split("/table/")[1].split("?")[0]

    bob = _page(browser, errors)
    bob.goto(server + "/")
    bob.fill("#your-name", "Bob")
    bob.wait_for_selector(f"[data-table='{table_id}'] [data-sit]")
    shots = _shots()
    if shots is not None:
        bob.locator(f"[data-table='{table_id}']").scroll_into_view_if_needed()
        bob.screenshot(path=str(shots / "room-lobby.png"))
    bob.click(f"[data-table='{table_id}'] [data-sit]")
    bob.wait_for_url("**/table/**seat=**")
    # both browsers sent their client seeds: the first deal is dealt
    for p in (ann, bob):
        p.wait_for_function("typeof ui !== 'undefined' && ui.state && ui.state.started")
    assert bob.evaluate("ui.state.table.names") == ["Ann", "Bob"]
    if shots is not None:
        bob.screenshot(path=str(shots / "room-seat-taken.png"))

    # a third browser watches; every frame it receives is recorded for the wire scan
    cy = _page(browser, errors)
    frames: list[str] = []
    cy.on(
        "websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f if isinstance(f, str) else f.decode()))
    )
    cy.goto(f"{server}/table/{table_id}?watch=1")
    cy.wait_for_function("typeof ui !== 'undefined' && ui.state && ui.state.started")
    ann.wait_for_function("ui.state.watchers === 1")
    assert cy.evaluate("ui.state.you") is None and cy.locator("#hand .card.back, #hand .back").count() >= 10
    # the spectator's side is Ann's, named so, and he has no move or arranging controls
    assert cy.locator("#me-bar").inner_text().startswith("Ann\n(you are watching)") or cy.locator(
        "#me-bar"
    ).inner_text().startswith("Ann (you are watching)")
    assert cy.locator("#actions").is_hidden() and cy.locator("#fair-seed-form").is_hidden()
    assert cy.locator("[data-sort='melds']").is_hidden()

    # play a few moves from both seats; the spectator's view updates.  Nobody knocks: a knock
    # ends the deal and lays both hands out for everyone (R5.2, R5.3), the spectator included, and
    # the wire scan below would find them (each knocking at his first chance, about 1 deal in 100
    # ended within these moves: the table's seed is random)
    for _ in range(3):
        for p in (ann, bob):
            if p.evaluate("ui.state.your_turn"):
                _play_some(p, 1, knock=False)
    # the wire scan: what the spectator received never holds a card of a hand not shown
    hands = {c for p in (ann, bob) for c in p.evaluate("ui.state.view.hand")}
    shown = (
        set(ann.evaluate("ui.state.view.discard_pile"))
        | set(ann.evaluate("ui.state.view.opponent_seen"))
        | set(bob.evaluate("ui.state.view.opponent_seen"))
    )
    import re

    secret = hands - shown
    leaked = {c for f in frames for c in re.findall(CARD, f)} & secret
    assert not leaked, f"the spectator was sent {leaked}"
    if shots is not None:
        cy.screenshot(path=str(shots / "room-spectator.png"))

    # chat: markup stays text in every browser (a knock may have ended the deal: its result
    # dialog, over the chat form, is closed first)
    _table_in_view(ann)
    ann.fill("#chat-text", "<img src=x onerror=window.pwned=1> gg")
    ann.click("#chat-form button")
    bob.wait_for_selector("#chat-list .chat-line")
    assert bob.locator("#chat-list .chat-line").first.inner_text() == "Ann: <img src=x onerror=window.pwned=1> gg"
    assert bob.locator("#chat-list img").count() == 0 and bob.evaluate("window.pwned") is None
    if shots is not None:
        bob.locator("#room-panel").scroll_into_view_if_needed()
        bob.screenshot(path=str(shots / "room-chat.png"))
    assert cy.locator("#chat-form").is_hidden()  # spectators may not chat here
    # ... nor read the players' chat, and the panel says so rather than "No message yet."
    assert (
        cy.inner_text("#chat-list") == "Only the players read this table's chat: they have not opened it to spectators."
    )
    assert not errors, errors
    assert json.dumps(frames).count("seat=") == 0


def _shots():
    """The screenshot folder when ``GIN_SCREENSHOTS=DIR`` is set (docs/screenshots/ is made that
    way), else ``None``."""
    import os
    from pathlib import Path

    return Path(os.environ["GIN_SCREENSHOTS"]) if os.environ.get("GIN_SCREENSHOTS") else None


def _open_api(page, server, seats, **extra) -> dict:
    r = page.request.post(server + "/api/tables", data={"preset": "standard", "seats": seats, **extra})
    assert r.status == 201, r.text()
    return r.json()


def _play_match(pages) -> None:
    """Play the pages' seats until the match is over, each move through the page's own send(),
    keeping every page at the same step; a drawn deal (R9) is followed by the next deal."""

    def same_step() -> None:
        seq = max(p.evaluate("ui.state.seq") for p in pages)
        for p in pages:
            p.wait_for_function("(s) => ui.state && ui.state.seq >= s && !ui.pending", arg=seq)

    for _ in range(400):
        same_step()
        lead = pages[0]
        if lead.evaluate("ui.state.match.finished"):
            return
        if lead.evaluate("ui.state.view.phase === 'over'"):
            n = lead.evaluate("ui.state.deal.number")
            lead.evaluate("send({type: 'next_deal'})")
            lead.wait_for_function("(n) => ui.state.deal.number > n || ui.state.match.finished", arg=n)
            continue
        p = next(p for p in pages if p.evaluate("ui.state.your_turn"))
        legal = p.evaluate("ui.state.view.legal_actions")
        move = (
            next((a for a in legal if a.startswith(("gin", "knock"))), None)
            or ("draw stock" if "draw stock" in legal else ("pass" if "pass" in legal else None))
            or "discard " + p.evaluate(BEST_CARD)
        )  # the discard that leaves the least deadwood
        seq = p.evaluate("ui.state.seq")
        p.evaluate("(m) => send({type: 'action', action: m})", move)
        p.wait_for_function("(s) => ui.state.seq > s", arg=seq)
    raise AssertionError(f"the match did not end in 400 moves ({pages[0].evaluate('ui.state.deals.length')} deals)")


def test_rematch_both_ask_and_the_new_table_is_dealt_by_the_last_winner_r11_2(browser, server):  # noqa: F811
    """R11.2: both people click Rematch; each page gets its own seat link to the new table, whose
    first deal is dealt by the winner of the old match's last scored deal."""
    errors: list[str] = []
    ann, bob = _page(browser, errors), _page(browser, errors)
    for p in (ann, bob):
        p.set_default_timeout(60000)  # the machine may be loaded: generous waits, no timing asserted
    t = _open_api(
        ann, server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], rules={"scoring": "deal"}
    )
    ann.goto(t["seats"][0]["link"])
    bob.goto(t["seats"][1]["invite"])  # the one-time invite link: the page claims the seat
    for p in (ann, bob):
        p.wait_for_function("typeof ui !== 'undefined' && ui.state && ui.state.started", timeout=60000)
        assert p.locator("#rematch").is_hidden()  # no rematch before the match is over
    _play_match([ann, bob])
    scored = [d for d in ann.evaluate("ui.state.deals") if d["over"] and d["winner"] is not None]
    last_winner = scored[-1]["winner"]
    assert ann.evaluate("ui.state.match.winner") == last_winner  # one scored deal is the match

    # the end-of-match dialog offers the rematch (the room panel's button is behind it) ...
    ann.click("#result #rematch-dialog")
    assert ann.locator("#result").is_hidden()
    # ... or the dialog is closed and the room panel's button is clicked
    bob.click("#result #look-at-table")
    bob.wait_for_selector("#rematch:not([hidden]):enabled")
    bob.wait_for_function("ui.state.rematch.asked.length === 1")
    assert bob.locator("#rematch-note").inner_text() == "Asked for a rematch: Ann"
    assert bob.locator("#rematch-link").count() == 0
    bob.click("#rematch")
    links = []
    for p in (ann, bob):
        p.wait_for_selector("#rematch-link", timeout=30000)
        assert p.locator("#rematch-link").inner_text() == "Go to the rematch"
        links.append(p.locator("#rematch-link").get_attribute("href"))
        assert p.locator("#rematch").is_hidden()  # asked and answered: only the link is left
    new_ids = {link.split("/table/")[1].split("?")[0] for link in links}
    assert len(new_ids) == 1 and t["id"] not in new_ids
    assert links[0].split("seat=")[1] != links[1].split("seat=")[1]  # each his own seat
    shots = _shots()
    if shots is not None:
        bob.locator("#room-panel").scroll_into_view_if_needed()
        bob.screenshot(path=str(shots / "room-rematch.png"))

    for p in (ann, bob):
        p.click("#rematch-link")
    for p, who in ((ann, 0), (bob, 1)):
        p.wait_for_url("**/table/" + next(iter(new_ids)) + "?seat=*")
        p.wait_for_function("typeof ui !== 'undefined' && ui.state && ui.state.started", timeout=60000)
        assert p.evaluate("ui.state.you") == who and p.evaluate("ui.state.deal.number") == 1
        assert p.evaluate("ui.state.table.names") == ["Ann", "Bob"]
        assert p.evaluate("ui.state.deal.dealer") == last_winner  # R11.2, not R3.1's random cut
    assert not errors, errors


def test_a_clock_running_out_makes_the_novice_move_for_the_person(browser, server):  # noqa: F811
    """A clocked table (5 s a move, no bank): the person does nothing at his turn; the server makes
    the move for him with the novice level, counts one timeout, and the page shows the clock."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_default_timeout(60000)
    # every state the page receives, in order: on a loaded machine the page may be slow to look,
    # and a second timeout may come before it does
    frames: list[str] = []
    sent: list[str] = []

    def listen(ws) -> None:
        ws.on("framereceived", lambda f: frames.append(f if isinstance(f, str) else f.decode()))
        ws.on("framesent", lambda f: sent.append(f if isinstance(f, str) else f.decode()))

    page.on("websocket", listen)
    # The computer, acting first, may end deal 1 before Ann's first turn (R4.2, R5.1). The clock
    # then runs between deals too (5 s for her client seed and next_deal: a loaded machine could
    # forfeit her there), so such a table is left for a new one rather than played on.
    for _ in range(5):
        t = _open_api(
            page,
            server,
            [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}],
            clock={"move": 5, "bank": 0},
        )
        page.goto(t["seats"][0]["link"])
        page.wait_for_function("typeof ui !== 'undefined' && ui.state && ui.state.started", timeout=60000)
        if _wait_turn_or_end(page) != "over":
            break
    else:
        raise AssertionError("the computer ended deal 1 before Ann's turn at 5 tables")
    seat = page.evaluate("ui.state.view.seat")
    page.wait_for_selector("#clock >> text=Ann:")
    assert re.fullmatch(
        r"Clock: 5 s a move \+ a bank of 0 s\. Ann: [0-5] s for this move, then the bank of 0 s\.",
        page.locator("#clock").inner_text(),
    ), page.locator("#clock").inner_text()
    shots = _shots()
    if shots is not None:
        page.screenshot(path=str(shots / "room-clock.png"))
    # the first state after the timeout: the server moved for Ann, once
    page.wait_for_function("ui.state.clock && (ui.state.clock.timeouts.Ann || 0) >= 1", timeout=90000)

    def first_timed_out() -> dict | None:
        states = (json.loads(f) for f in list(frames))
        return next(
            (
                m
                for m in states
                if m.get("type") == "state"
                and m.get("started")
                and m["table"]["id"] == t["id"]
                and (m["clock"]["timeouts"].get("Ann") or 0) >= 1
            ),
            None,
        )

    for _ in range(600):  # the frame events reach this thread a moment after the page has them
        if (got := first_timed_out()) is not None:
            break
        page.wait_for_timeout(100)
    assert got is not None
    assert got["clock"]["timeouts"] == {"Ann": 1} and got["clock"]["forfeit"] is None
    made = [h for h in got["view"]["history"] if h.startswith(f"{seat} ")]
    assert len(made) == 1, made  # a move this page never sent:
    assert [m for m in map(json.loads, sent) if m.get("type") == "action"] == []
    assert not got["match"]["finished"]
    assert not errors, errors


_WATCH_CLASSES = """
window.effectClasses = [];
new MutationObserver(ms => { for (const m of ms) for (const c of ['arrive', 'land', 'knock-shake'])
  if (m.target.classList && m.target.classList.contains(c)) window.effectClasses.push(c); })
  .observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] });
"""


def _play_a_few_vs_novice(page, server) -> None:
    page.set_default_timeout(60000)
    t = _open_api(page, server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}])
    page.add_init_script(_WATCH_CLASSES)
    page.goto(t["seats"][0]["link"])
    page.wait_for_function("typeof ui !== 'undefined' && ui.state && ui.state.started", timeout=60000)
    # the person's turn comes (its tone is asserted: "turn"), though the computer may end deal 1 first
    assert _to_my_first_turn(page) != "over"
    for _ in range(6):
        _play_some(page, 1)


def _table_in_view(page) -> None:
    """Wait for the page's first state; if the deal is over (a knock may end it within the few
    moves played), its result dialog is up over the table: close it, as a person would, so that
    the controls under it can be clicked."""
    page.wait_for_function("typeof ui !== 'undefined' && ui.state && ui.state.started")
    if page.evaluate("ui.state.view.phase === 'over'"):  # render() showed the dialog with this state
        page.click("#look-at-table")
        page.wait_for_selector("#result", state="hidden")


def test_sound_and_motion_toggles_persist_and_reduced_motion_is_honoured(browser, server):  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.emulate_media(reduced_motion="reduce")
    _play_a_few_vs_novice(page, server)
    _table_in_view(page)
    assert page.evaluate("window.effectClasses") == []  # prefers-reduced-motion: no motion at all
    assert "turn" in page.evaluate("GinEffects.played")
    assert [x.strip() for x in page.locator("#effects > *").all_inner_texts()] == [
        "Sound",
        "Motion",
        "(your system asks for reduced motion)",
    ]
    # the toggles are remembered across a reload
    assert page.is_checked("#effect-sound") and page.is_checked("#effect-motion")
    page.uncheck("#effect-sound")
    page.uncheck("#effect-motion")
    page.reload()
    _table_in_view(page)
    assert not page.is_checked("#effect-sound") and not page.is_checked("#effect-motion")
    assert page.evaluate("[localStorage.getItem('gin.sound'), localStorage.getItem('gin.motion')]") == [
        "false",
        "false",
    ]
    page.check("#effect-sound")
    page.reload()
    _table_in_view(page)
    assert page.is_checked("#effect-sound") and not page.is_checked("#effect-motion")

    # the same moves without the system's setting do move the cards (the watcher above can fail);
    # a discard lands on the pile: if a knock ended the deal before any discard (the table's
    # seed is random), play on, discarding rather than knocking, until one has (bounded)
    moving = _page(browser, errors)
    _play_a_few_vs_novice(moving, server)
    for _ in range(60):
        if "land" in moving.evaluate("window.effectClasses"):
            break
        if _wait_turn_or_end(moving) == "over":
            moving.evaluate("send({type: 'next_deal'})")
            moving.wait_for_function("ui.state.view.phase !== 'over'")
            continue
        legal = moving.evaluate("ui.state.view.legal_actions")
        move = next((a for a in legal if a.startswith("discard ")), None) or (
            "draw stock" if "draw stock" in legal else ("pass" if "pass" in legal else legal[0])
        )
        seq = moving.evaluate("ui.state.seq")
        moving.evaluate("(m) => send({type: 'action', action: m})", move)
        moving.wait_for_function("(s) => ui.state.seq > s", arg=seq)
    assert "land" in moving.evaluate("window.effectClasses")
    assert "turn" in moving.evaluate("GinEffects.played")
    assert [x.strip() for x in moving.locator("#effects > *").all_inner_texts()] == ["Sound", "Motion"]
    assert moving.locator("#effects").inner_text().split() == ["Sound", "Motion"]  # nothing else (once "null")
    assert not errors, errors
