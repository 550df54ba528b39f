"""Screenshots of the lobby, the table and the result dialog at 1,280 and 375 px, in every
language of the site (issue 34).

Usage (from the repository, with Playwright and Debian's /usr/bin/chromium)::

    PYTHONPATH=src python scripts/screenshots.py [--langs en,el] [--out docs/screenshots]

It starts ``gin serve`` on a free port of 127.0.0.1 with a new SQLite database in a temporary
folder (stopped at the end), opens two public tables for the lobby to list, then for each
language of :data:`ginrummy.i18n.LANGUAGES` (a new language is picked up by itself; ``--langs``
picks some) plays one Hollywood deal against ``novice`` by clicking, and saves::

    lobby-LANG-1280.png   lobby-LANG-375.png     the lobby with its open tables (whole page)
    table-LANG-1280.png   table-LANG-375.png     the table during the deal (the screen)
    result-LANG-1280.png  result-LANG-375.png    the result dialog at the end of the deal

The deals are random: the pictures differ from run to run, not their layout.  Every run is
bounded: at most 200 moves a deal, and a minute for any one page to answer.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from ginrummy.i18n import LANGUAGES

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
WIDTHS = ((1280, 860), (375, 740))
NAMES = {"en": "Ann", "el": "Άννα", "fi": "Aino", "mt": "Marija", "es": "Ana", "fr": "Anne", "de": "Anna"}

# the best discard by the table's own arrangement (as the browser tests play)
BEST_CARD = """() => {
  const L = ui.state.view.legal_actions, after = ui.state.arrangement.after_discard || {};
  const cards = L.filter(a => a.startsWith('discard ')).map(a => a.slice(8));
  cards.sort((a, b) => after[a] - after[b] || cardValue(b) - cardValue(a) || (a < b ? -1 : 1));
  return cards[0];
}"""
TURN = "typeof ui !== 'undefined' && ui.state && !ui.pending && (ui.state.your_turn || ui.state.view.phase === 'over')"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(port: int, db: str) -> subprocess.Popen:
    gin = [sys.executable, "-m", "ginrummy"]
    out = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        gin + ["serve", "--host", "127.0.0.1", "--port", str(port), "--database-url", db, "--bot-delay", "0"],
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/options", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
        if proc.poll() is not None:
            break
    os.killpg(proc.pid, signal.SIGKILL)
    out.seek(0)
    raise SystemExit(f"gin serve did not start: {out.read().decode(errors='replace')}")


def _open_tables(server: str) -> None:
    """Two public tables for the lobby: one with a free seat, one against the computer."""
    csrf = "screenshots-csrf-token-0123456"
    for seats, preset in (
        ([{"kind": "human", "name": "Zoe"}, {"kind": "human"}], "standard"),
        ([{"kind": "human", "name": "Kim"}, {"kind": "human"}, {"kind": "bot", "level": "club"}], "standard"),
    ):
        r = httpx.post(
            server + "/api/tables",
            json={"seats": seats, "preset": preset, "public": True},
            cookies={"gin_csrf": csrf},
            headers={"X-CSRF-Token": csrf},
            timeout=30,
        )
        r.raise_for_status()


def _context(browser, lang: str, width: int, height: int):
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        locale=lang,
        is_mobile=width < 600,
        has_touch=width < 600,
        bypass_csp=True,  # wait_for_function runs through eval, which the pages' policy forbids
    )
    ctx.add_init_script(
        "localStorage.setItem('gin.confirmDiscard', 'false'); localStorage.setItem('gin.confirmKnock', 'false');"
    )
    page = ctx.new_page()
    page.set_default_timeout(60000)
    return page


def _shoot_lobby(browser, server: str, lang: str, out: Path) -> None:
    for width, height in WIDTHS:
        page = _context(browser, lang, width, height)
        page.goto(f"{server}/?lang={lang}")
        page.wait_for_selector("#open-tables li")
        page.wait_for_load_state("load")
        page.screenshot(path=str(out / f"lobby-{lang}-{width}.png"), full_page=True)
        page.context.close()


def _play_and_shoot(browser, server: str, lang: str, out: Path) -> None:
    """One deal at 1,280 px; the table after four moves and the result dialog, each also at 375 px
    (the same page, its window narrowed and widened again)."""
    page = _context(browser, lang, *WIDTHS[0])
    page.goto(f"{server}/?lang={lang}")
    page.fill("#your-name", NAMES.get(lang, "Ann"))
    page.check("input[name='scoring'][value='hollywood']")
    page.select_option("#seat1-level", "novice")
    page.click("#open")
    page.wait_for_url(re.compile(r"/table/[0-9a-f]+\?seat="))
    moves, shot = 0, False
    while moves < 200:
        page.wait_for_function(TURN)
        phase = page.evaluate("ui.state.view.phase")
        if phase == "over":
            break
        legal = page.evaluate("ui.state.view.legal_actions")
        if phase in ("upcard_offer", "wall"):
            page.click("#actions [data-act='pass']")
        elif phase == "draw":
            page.click("#stock")
        elif any(a.startswith("gin ") for a in legal):
            page.click("#actions [data-act='gin']")
        elif any(a.startswith("knock ") for a in legal):
            page.click("#actions [data-act='knock']")
        else:
            card = page.evaluate(BEST_CARD)
            page.click(f"#hand .card[data-card='{card}']")
            if moves >= 4 and not shot:
                for width, height in WIDTHS:
                    page.set_viewport_size({"width": width, "height": height})
                    page.evaluate("window.scrollTo(0, 0)")
                    page.screenshot(path=str(out / f"table-{lang}-{width}.png"))
                page.set_viewport_size({"width": WIDTHS[0][0], "height": WIDTHS[0][1]})
                shot = True
            page.click("#actions [data-act='discard']")
        moves += 1
    page.wait_for_selector("#result:not([hidden])")
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("showResult(); window.scrollTo(0, 0); document.getElementById('result').scrollTop = 0")
        page.wait_for_timeout(300)  # the layout settles after the resize
        page.screenshot(path=str(out / f"result-{lang}-{width}.png"))
    page.context.close()


def main(argv: list[str] | None = None) -> int:
    """Take the screenshots; 0 when done.  Raises ``SystemExit`` when the server does not start."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--langs", default=",".join(LANGUAGES), help="languages, comma-separated (default: all)")
    ap.add_argument("--out", default="docs/screenshots", help="the folder for the PNG files")
    args = ap.parse_args(argv)
    langs = [x for x in args.langs.split(",") if x]
    unknown = [x for x in langs if x not in LANGUAGES]
    if unknown:
        ap.error(f"unknown language {', '.join(unknown)}; languages: {', '.join(LANGUAGES)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        port = _free_port()
        proc = _serve(port, f"sqlite:///{tmp}/gin.sqlite3")
        server = f"http://127.0.0.1:{port}"
        try:
            _open_tables(server)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                try:
                    for lang in langs:
                        _shoot_lobby(browser, server, lang, out)
                        _play_and_shoot(browser, server, lang, out)
                        print(f"{lang}: lobby, table, result at {', '.join(str(w) for w, _ in WIDTHS)} px")
                finally:
                    browser.close()
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
