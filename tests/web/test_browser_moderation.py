"""Browser tests of block, report and a moderator's action (docs/accounts.md, "Block, mute,
report" and "Moderation"), in Debian's Chromium against a real ``gin serve``: at a table a
person reports the other's chat line and blocks him from the line's panel; the blocked
person's lines are gone from his table page; his account page lists the block and undoes it.
A moderator warns a reported person from the moderation page: the audit log shows it and the
person's account page shows the notice; a player gets the moderators-only message there."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from .test_browser import _page, browser  # noqa: F401  (fixtures)
from .test_restart import _free_port, _start

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    db = f"sqlite:///{tmp_path_factory.mktemp('mod') / 'gin.sqlite3'}"
    port = _free_port()
    proc = _start(port, db)
    yield f"http://127.0.0.1:{port}", db
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


def _person(browser, url: str, name: str, errors: list[str]):  # noqa: F811
    page = _page(browser, errors)
    page.goto(url + "/account")
    page.fill("#up-name", name)
    page.fill("#up-password", PASSWORD)
    page.click("#up-go")
    page.wait_for_selector("#member:not([hidden])")
    return page


def _post(page, url: str, path: str, data: dict):
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "gin_csrf")
    return page.request.post(url + path, data=data, headers={"X-CSRF-Token": csrf})


def _say(page, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")
    page.wait_for_function("t => document.getElementById('chat-list').textContent.includes(t)", arg=text)


def test_report_a_chat_line_and_block_its_sender_then_undo_on_the_account_page(site, browser):  # noqa: F811
    url, _ = site
    errors: list[str] = []
    ann, bob = _person(browser, url, "Ann", errors), _person(browser, url, "Bob", errors)
    r = _post(ann, url, "/api/tables", {"seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status == 201, r.text()
    t = r.json()
    code = t["seats"][1]["invite"].split("invite=", 1)[1]
    claim = _post(bob, url, f"/api/tables/{t['id']}/claim", {"invite": code})
    assert claim.status == 200, claim.text()
    ann.goto(t["seats"][0]["link"])
    bob.goto(claim.json()["link"])
    for p in (ann, bob):
        p.wait_for_selector("#room-panel:not([hidden])")
    _say(bob, "you play like a fish")
    ann.wait_for_selector("#chat-list .chat-act")
    ann.click("#chat-list .chat-act")
    ann.click(".mod-report-open")
    ann.select_option(".mod-reason", "abuse")
    ann.fill(".mod-text", "insults at the table")
    ann.click(".mod-send")
    ann.wait_for_function("document.querySelector('.mod-status').textContent.startsWith('Reported')")
    ann.click(".mod-block")
    ann.wait_for_function("document.querySelector('.mod-status').textContent.startsWith('Blocked')")
    # the table page again: Bob's line is no longer in Ann's chat (nor will his next ones be)
    ann.reload()
    ann.wait_for_selector("#room-panel:not([hidden])")
    ann.wait_for_function("document.getElementById('chat-list').textContent.includes('No message yet.')")
    assert "fish" not in ann.text_content("#chat-list")
    # the account page lists the block, and undoes it
    ann.goto(url + "/account")
    ann.wait_for_selector("#relations .relation")
    assert ann.text_content("#relations .relation span") == "Bob"
    ann.click("#relations .relation button")
    ann.wait_for_function("document.getElementById('relations').textContent.includes('Nobody.')")
    assert errors == []


def test_a_moderator_warns_from_the_moderation_page_and_the_person_sees_why(site, browser):  # noqa: F811
    url, db = site
    errors: list[str] = []
    cat, dan, mod = (_person(browser, url, n, errors) for n in ("Cat", "Dan", "Mod"))
    done = subprocess.run(
        [sys.executable, "-m", "ginrummy", "admin", "moderator", "Mod", "--database-url", db],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    r = _post(cat, url, "/api/reports", {"reason": "spam", "name": "Dan", "text": "posts links all day"})
    assert r.status == 201, r.text()
    # a player is told the page is for moderators
    dan.goto(url + "/moderation")
    dan.wait_for_selector("#mod-denied:not([hidden])")
    assert dan.text_content("#error") == "only moderators may do this"
    mod.goto(url + "/moderation")
    mod.wait_for_selector("#reports .report")
    item = mod.locator("#reports .report", has_text="posts links all day")
    assert item.count() == 1
    assert item.locator(".mod-name").input_value() == "Dan"
    item.locator(".mod-action").select_option("warn")
    item.locator(".mod-why").fill("no links in the lobby, please")
    item.locator(".mod-go").click()
    mod.wait_for_selector("#audit .audit-row")
    assert [c.text_content() for c in mod.locator("#audit .audit-row").first.locator("td").all()][1:] == [
        "Mod",
        "Dan",
        "warn",
        "no links in the lobby, please",
        "",
    ]
    assert "posts links all day" not in mod.text_content("#reports")  # answered: out of the queue
    dan.goto(url + "/account")
    dan.wait_for_selector("#notices-box:not([hidden])")
    assert "no links in the lobby, please" in dan.text_content("#notices")
    assert dan.is_hidden("#moderation-link") and errors == []
