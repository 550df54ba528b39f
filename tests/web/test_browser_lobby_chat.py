"""The lobby chat in Chromium (docs/protocol.md, "Chat"): a guest's line is shown with
"(guest)" after his name, as text (open-tables.js); markup in a line stays text."""

from __future__ import annotations

import pytest

from .test_browser import _page, browser, server  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser]


def test_a_guests_lobby_line_reads_guest_after_the_name(browser, server):  # noqa: F811
    errors: list[str] = []
    zoe = _page(browser, errors)
    zoe.goto(server + "/")
    zoe.fill("#your-name", "Zoe")
    zoe.wait_for_function("document.querySelector('#lobby-chat .hint') !== null")  # the socket is open
    zoe.fill("#lobby-chat-text", "hi <b>all</b>")
    zoe.press("#lobby-chat-text", "Enter")
    zoe.wait_for_selector("#lobby-chat .chat-line")
    assert zoe.locator("#lobby-chat .chat-line").last.inner_text() == "Zoe (guest): hi <b>all</b>"
    assert zoe.locator("#lobby-chat .chat-line b").last.inner_text() == "Zoe"
    assert errors == []
