"""Leaving a rated match in the browser (issue 31; docs/protocol.md, "Leaving and resigning"),
in Debian's Chromium against a real ``gin serve --leave-grace 2``: Ann and Bob, signed in, sit
at a rated table; once the first deal is dealt, Bob closes his browser; Ann's page shows the
countdown, then the Claim the win button; she clicks it and has the rated win, Bob's forfeit
by leaving shown at the table and on his player page.  Then a resign: Ann resigns the rematch
from the fair-play bar (with its confirm)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import tempfile
import time

import httpx
import pytest

from .test_browser import _page, browser  # noqa: F401  (fixture)
from .test_restart import GIN, _free_port

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

GRACE = 2


@pytest.fixture
def server(tmp_path):
    port = _free_port()
    out = tempfile.TemporaryFile()
    args = ["serve", "--port", str(port), "--database-url", f"sqlite:///{tmp_path / 'gin.sqlite3'}"]
    args += ["--bot-delay", "0", "--log-level", "warning", "--leave-grace", str(GRACE)]
    proc = subprocess.Popen(GIN + args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        for _ in range(900):  # generous for a loaded machine; no time is asserted
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/options", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
            if proc.poll() is not None:
                out.seek(0)
                raise AssertionError(out.read().decode(errors="replace"))
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


def _signed_up(browser, server: str, name: str, errors: list[str]):  # noqa: F811
    page = _page(browser, errors)
    page.goto(server + "/account")
    page.fill("#up-name", name)
    page.fill("#up-password", "correct horse")
    page.click("#up-go")
    page.wait_for_selector("#member:not([hidden])")
    return page


def _started(page) -> None:
    page.wait_for_function("typeof ui !== 'undefined' && ui.state && ui.state.started")


def test_the_loser_closes_his_browser_and_the_winner_claims_the_rated_win(server, browser):  # noqa: F811
    errors: list[str] = []
    ann = _signed_up(browser, server, "Ann", errors)
    bob = _signed_up(browser, server, "Bob", errors)
    csrf = next(c["value"] for c in ann.context.cookies() if c["name"] == "gin_csrf")
    seats = [{"kind": "human"}, {"kind": "human"}]
    r = ann.request.post(server + "/api/tables", data={"rated": True, "seats": seats}, headers={"X-CSRF-Token": csrf})
    assert r.status == 201, r.text()
    table = r.json()
    bob.goto(table["seats"][1]["invite"])
    ann.goto(table["seats"][0]["link"])
    _started(ann)
    _started(bob)
    assert ann.is_visible("#resign")
    bob.context.close()  # Bob walks away from the match
    started = time.monotonic()
    ann.wait_for_selector("#leaving-note")
    assert "Bob has left the table" in ann.text_content("#leaving-note")
    ann.wait_for_selector("#claim-win:not([hidden])")
    ann.click("#claim-win")
    ann.wait_for_selector("#rating-banner [data-name]")
    took = time.monotonic() - started  # reported, not asserted (docs/protocol.md says the bound)
    print(f"rated win {took:.1f} s after Bob closed his browser (grace {GRACE} s)")
    assert ann.text_content("#ended-note") == "Bob left the table and forfeited the match."
    # the Deals panel: the deal the forfeit stopped is not "in play" (it said so, stop 40)
    deals = ann.locator("#deals li > span").all_inner_texts()
    assert (
        deals[-1]
        == "dealer " + ann.evaluate("ui.state.deals.at(-1).dealer") + ": not played out: Bob forfeited the match"
    )
    state = ann.evaluate("ui.state.match")
    assert (state["winner"], state["forfeit"], state["ended"]) == ("Ann", "Bob", "left")
    changes = ann.evaluate("ui.state.rating.changes")
    assert [c["name"] for c in changes] == ["Ann", "Bob"] and changes[0]["change"] > 0 > changes[1]["change"]
    assert not ann.is_visible("#resign")
    bob_page = httpx.get(server + "/api/players/Bob").json()
    assert bob_page["completion"] == {
        "matches": 1,
        "by_rules": 0,
        "resigned": 0,
        "forfeited": 1,
        "opponent_gave_up": 0,
        "rate": 0.0,
    }
    assert httpx.get(server + "/api/players/Ann").json()["completion"]["opponent_gave_up"] == 1
    assert errors == []


def test_a_player_resigns_from_the_fair_play_bar(server, browser):  # noqa: F811
    errors: list[str] = []
    ann = _signed_up(browser, server, "Ann", errors)
    dialogs: list[str] = []
    ann.on("dialog", lambda d: (dialogs.append(d.message), d.accept()))
    csrf = next(c["value"] for c in ann.context.cookies() if c["name"] == "gin_csrf")
    seats = [{"kind": "human"}, {"kind": "bot", "level": "novice"}]
    r = ann.request.post(server + "/api/tables", data={"rated": True, "seats": seats}, headers={"X-CSRF-Token": csrf})
    assert r.status == 201, r.text()
    ann.goto(r.json()["seats"][0]["link"])
    _started(ann)
    ann.click("#resign")
    ann.wait_for_selector("#ended-note")
    assert dialogs == ["Resign this match? You lose it, and at a rated table your rating moves as for a loss."]
    assert ann.text_content("#ended-note") == "Ann resigned the match."
    assert ann.evaluate("ui.state.match.ended") == "resigned"
    # the match is over: its seed is revealed, and the fair-deal panel checks it against the
    # table's first commitment (before, only a match finished by the rules revealed it)
    assert re.fullmatch(r"[0-9a-f]{64}", ann.evaluate("ui.state.fair.match_seed") or "")
    ann.wait_for_selector(
        '.ok:has-text("SHA-256 of the match seed is the table\'s seed commitment.")', state="attached"
    )
    assert ann.text_content("#fair-match-seed") == ann.evaluate("ui.state.fair.match_seed")
    assert errors == []


def test_a_refusal_of_rated_play_shows_its_time_in_the_browsers_zone_and_language(server, browser):  # noqa: F811
    """The server says ``until`` in UTC; a Greek page in Athens (UTC+2 in December) says it in
    Greek at 21:40 local time (errorText in common.js, used by every page that opens or takes a seat)."""
    errors: list[str] = []
    page = _page(browser, errors, locale="el-GR", timezone_id="Europe/Athens")
    page.goto(server + "/?lang=el")
    body = {"code": "rated_refused", "until": "2026-12-05T19:40:00+00:00", "error": "..."}
    text = page.evaluate("(body) => errorText(body, 403)", body)
    assert text.startswith("Έχασες πρόσφατα με εγκατάλειψη πάρα πολλούς αγώνες με βαθμολόγηση")
    assert "9:40" in text and "2026" in text and "19:40" not in text
    assert page.evaluate("(body) => errorText(body, 400)", {"error": "plain", "code": "x"}) == "plain"
    assert errors == []
