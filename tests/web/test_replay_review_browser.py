"""The expert's review in the replay viewer, in Debian's Chromium (replay-review.js; issue 15
item 3): upload a record with a planted blunder (Bob draws from the stock at move 38 although
the top discard gives him gin, R6.1), ask for the review, see its progress, then the blunder's
mark and the expert's move at that move, a plot with one point per decision (SVG drawn by the
page), and stepping through the replay without running the review again.  Against a real
``gin serve --review-budget-ms 10`` (16 sampled deals a decision).  With ``GIN_SCREENSHOTS=DIR``
the viewer is saved as ``replay-review.png`` (and in Greek ``replay-review-el.png``) there."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from ginrummy.analysis.review import build_review

from .planted import PLANTED_INDEX, planted_record
from .test_browser import CHROMIUM, _page
from .test_browser_trial import SPLIT_HEADINGS
from .test_review_browser import browser, server  # noqa: F401  (module fixtures: gin serve --review-budget-ms 10)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's Chromium at /usr/bin/chromium"),
]


def _open_and_review(page, server: str, text: str) -> None:  # noqa: F811
    page.goto(server + "/replay")
    page.set_input_files("#file", files=[{"name": "planted.gin", "mimeType": "text/plain", "buffer": text.encode()}])
    page.wait_for_selector("#viewer:not([hidden])")
    assert page.is_visible("#review-start") and page.is_hidden("#review-summary")
    page.click("#review-start")
    # the progress: the bar and its count while the worker values the decisions (or already done)
    page.wait_for_selector(
        "#review-status:has-text('Reviewing the decisions'), #review-status:has-text('Starting'), #review-summary"
    )
    page.wait_for_selector("#review-summary", timeout=120_000)


def test_the_replay_shows_the_blunders_mark_the_experts_move_and_the_plot(server, browser):  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors, viewport={"width": 1100, "height": 1300})
    text = planted_record()
    decisions = build_review(text, budget_ms=10).deals[0].decisions
    reviews: list[str] = []
    page.on("request", lambda r: reviews.append(r.url) if "/api/review" in r.url else None)
    _open_and_review(page, server, text)
    assert page.is_disabled("#review-start")
    # the marks of the deal link to their moves; the planted blunder is one of them
    link = page.locator("#review-marks a", has_text=f"move {PLANTED_INDEX} ??")
    assert link.count() == 1
    link.click()
    assert page.text_content("#where").startswith(f"deal 1 of 1, move {PLANTED_INDEX} of 47")
    assert page.text_content("#action") == "Bob: draw from the stock"
    assert page.text_content("#review-mark") == "?? blunder"
    assert page.text_content("#review-played") == "draw from the stock"
    assert page.text_content("#review-best") == "take the top discard"
    assert re.search(r"take the discard is better by \d+(\.\d)? points of win chance", page.text_content("#review-move"))
    # the plot: one point per decision, at its move; the current one and its mark shown
    dots = page.locator("#review-svg circle.dot")
    assert dots.count() == len(decisions) == 47
    assert [int(x) for x in dots.evaluate_all("ds => ds.map(d => d.dataset.index)")] == [d.index for d in decisions]
    planted = page.locator(f"#review-svg circle.dot[data-index='{PLANTED_INDEX}']")
    assert set(planted.get_attribute("class").split()) >= {"dot", "blunder", "current"}
    assert page.locator("#review-svg line.loss.blunder").count() == sum(d.mark == "blunder" for d in decisions)
    assert page.locator("#review-svg polyline.played").count() == 2  # one line per player
    shots = Path(os.environ["GIN_SCREENSHOTS"]) if os.environ.get("GIN_SCREENSHOTS") else None
    if shots is not None:
        page.screenshot(path=str(shots / "replay-review.png"), full_page=True)
    # stepping on: the next move is a forced one or another decision, from the review kept in the page
    asked = len(reviews)
    page.keyboard.press("ArrowRight")
    nxt = next((d for d in decisions if d.index == PLANTED_INDEX + 1), None)
    if nxt is None:
        assert page.is_visible("#review-forced")
    else:
        assert page.get_attribute("#review-move .review-move", "data-index") == str(PLANTED_INDEX + 1)
    # a click on a point jumps to its move
    page.locator("#review-svg circle.dot[data-index='3']").click()
    assert page.text_content("#where").startswith("deal 1 of 1, move 3 of 47")
    page.click("#first")
    assert page.inner_text("#review-move").startswith("Step to a move")
    assert len(reviews) == asked  # no review was asked again
    assert page.text_content("#review-hindsight").startswith("Hindsight (all hands shown, not part of the review): ")
    assert errors == []


def test_the_summary_headings_break_only_between_words_on_a_phone(server, browser):  # noqa: F811
    """On a 390 x 844 phone the summary's headings ("Decisions", "Inaccuracies", "Blunders") are
    not cut letter by letter: the table scrolls sideways inside its box, the page does not."""
    errors: list[str] = []
    page = _page(browser, errors, viewport={"width": 390, "height": 844})
    _open_and_review(page, server, planted_record())
    got = page.evaluate(SPLIT_HEADINGS, "#review-summary")
    assert got["split"] == [], got
    assert got["fits"] and got["box"] <= 390 and got["page"] <= 390, got
    assert errors == []


def test_the_replays_review_in_greek(server, browser):  # noqa: F811
    """The same in Greek: the mark, the moves and the labels are translated; the names stay."""
    errors: list[str] = []
    page = _page(browser, errors, viewport={"width": 1100, "height": 1300}, locale="el-GR")
    page.context.add_cookies([{"name": "gin_lang", "value": "el", "url": server}])
    _open_and_review(page, server, planted_record())
    page.locator("#review-marks a", has_text=f"{PLANTED_INDEX} ??").click()
    assert page.text_content("#review-mark") == "?? " + page.evaluate("pt('review mark', 'blunder')")
    assert "blunder" not in page.text_content("#review-mark")
    assert page.text_content("#review-best") == page.evaluate("t('take the top discard')") != "take the top discard"
    assert page.text_content("#title") == "Ann εναντίον Bob: δεν έχει τελειώσει"
    assert page.text_content("#action") == "Bob: " + page.evaluate("t('draw from the stock')")
    panel = page.inner_text("#review-panel")
    for english in ("Review with the expert", "The expert's move", "played", "move number", "Values:", "Hindsight"):
        assert english not in panel, english
    shots = Path(os.environ["GIN_SCREENSHOTS"]) if os.environ.get("GIN_SCREENSHOTS") else None
    if shots is not None:
        page.screenshot(path=str(shots / "replay-review-el.png"), full_page=True)
    assert errors == []
