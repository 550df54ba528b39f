"""The card room in Chromium (docs/protocol.md, "The card room"): two browsers find each other
through the lobby's open tables and play; a third watches, and the wire scan finds no hidden
card in anything it received; chat with markup is shown as text; a rematch."""

from __future__ import annotations

import json

import pytest

from .test_browser import _page, _wait_turn_or_end, browser, server  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser]

CARD = r"\b[A2-9TJQK][CDHS]\b"


def _play_some(page, moves: int) -> None:
    """Play ``moves`` moves (or to the end of the deal) through the page's own send()."""
    for _ in range(moves):
        phase = _wait_turn_or_end(page)
        if phase == "over":
            return
        legal = page.evaluate("ui.state.view.legal_actions")
        move = next((a for a in legal if a.startswith(("gin", "knock"))), None) or \
            ("draw stock" if "draw stock" in legal else ("pass" if "pass" in legal else legal[0]))
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
    bob.click(f"[data-table='{table_id}'] [data-sit]")
    bob.wait_for_url("**/table/**seat=**")
    # both browsers sent their client seeds: the first deal is dealt
    for p in (ann, bob):
        p.wait_for_function("typeof ui !== 'undefined' && ui.state && ui.state.started")
    assert bob.evaluate("ui.state.table.names") == ["Ann", "Bob"]

    # a third browser watches; every frame it receives is recorded for the wire scan
    cy = _page(browser, errors)
    frames: list[str] = []
    cy.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f if isinstance(f, str) else f.decode())))
    cy.goto(f"{server}/table/{table_id}?watch=1")
    cy.wait_for_function("typeof ui !== 'undefined' && ui.state && ui.state.started")
    ann.wait_for_function("ui.state.watchers === 1")
    assert cy.evaluate("ui.state.you") is None and cy.locator("#hand .card.back, #hand .back").count() >= 10

    # play a few moves from both seats; the spectator's view updates
    for _ in range(3):
        for p in (ann, bob):
            if p.evaluate("ui.state.your_turn"):
                _play_some(p, 1)
    # the wire scan: what the spectator received never holds a card of a hand not shown
    hands = {c for p in (ann, bob) for c in p.evaluate("ui.state.view.hand")}
    shown = set(ann.evaluate("ui.state.view.discard_pile")) | set(ann.evaluate("ui.state.view.opponent_seen")) \
        | set(bob.evaluate("ui.state.view.opponent_seen"))
    import re
    secret = hands - shown
    leaked = {c for f in frames for c in re.findall(CARD, f)} & secret
    assert not leaked, f"the spectator was sent {leaked}"

    # chat: markup stays text in every browser
    ann.fill("#chat-text", "<img src=x onerror=window.pwned=1> gg")
    ann.click("#chat-form button")
    bob.wait_for_selector("#chat-list .chat-line")
    assert bob.locator("#chat-list .chat-line").first.inner_text() == "Ann: <img src=x onerror=window.pwned=1> gg"
    assert bob.locator("#chat-list img").count() == 0 and bob.evaluate("window.pwned") is None
    assert cy.locator("#chat-form").is_hidden()  # spectators may not chat here
    assert not errors, errors
    assert json.dumps(frames).count("seat=") == 0
