"""The lobby chat in Chromium (docs/protocol.md, "Chat"): a guest's line is shown with
"(guest)" after his name, as text (open-tables.js); markup in a line stays text."""

from __future__ import annotations

import pytest

from .test_browser import _page, browser, server  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser]


#: The text of the lobby chat's last line ('' when there is none), as a page function.
LAST_LINE = (
    "() => { const l = document.querySelectorAll('#lobby-chat .chat-line'); "
    "return l.length ? l[l.length - 1].innerText : ''; }"
)


def _say_in_lobby(page, server: str, name: str, text: str, answer: str) -> str:
    """Open the lobby as the guest ``name``, send ``text`` to its chat and return the last
    line once it starts with ``answer`` (the lobby's earlier lines may come first)."""
    page.goto(server + "/")
    page.fill("#your-name", name)
    page.wait_for_function("document.querySelector('#lobby-chat .hint') !== null")  # the socket is open
    page.fill("#lobby-chat-text", text)
    page.press("#lobby-chat-text", "Enter")
    page.wait_for_function(f"({LAST_LINE})().startsWith({answer!r})")
    return page.locator("#lobby-chat .chat-line").last.inner_text()


def test_a_guests_lobby_line_reads_guest_after_the_name(browser, server):  # noqa: F811
    errors: list[str] = []
    zoe = _page(browser, errors)
    assert _say_in_lobby(zoe, server, "Zoe", "hi <b>all</b>", "Zoe") == "Zoe (guest): hi <b>all</b>"
    assert zoe.locator("#lobby-chat .chat-line b").last.inner_text() == "Zoe"
    assert errors == []


def test_a_refused_lobby_line_is_given_back_to_be_mended(browser, server):  # noqa: F811
    """A guest who calls himself "Computer (novice)" is refused (a person may not pass for a
    computer seat, docs/protocol.md); his line is not lost but put back in the box, and once he
    takes another name it goes out."""
    errors: list[str] = []
    page = _page(browser, errors)
    line = _say_in_lobby(page, server, "Computer (novice)", "hello there", "!: ")
    assert line.startswith("!: the name Computer (novice) is a computer seat's")
    page.wait_for_function("document.getElementById('lobby-chat-text').value === 'hello there'")
    page.fill("#your-name", "Quinn")
    page.press("#lobby-chat-text", "Enter")
    page.wait_for_function(f"({LAST_LINE})().startsWith('Quinn')")
    assert page.locator("#lobby-chat .chat-line").last.inner_text() == "Quinn (guest): hello there"
    assert page.input_value("#lobby-chat-text") == ""
    assert errors == []
