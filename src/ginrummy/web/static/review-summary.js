"use strict";
// What the expert's review shows the same way at the table (review.js) and in the replay viewer
// (replay-review.js): a value rounded to a tenth, and the summary table of each player's marks.

/** ``x`` (a value or a loss, in percentage points of the chance to win) rounded to a tenth, in the page's language. */
function reviewNum(x) { return fmtNumber(Math.round(x * 10) / 10); }

/** The summary of a review result (``result.summary``: player name -> decisions, marks by kind,
 * mean loss, accuracy in %) as the table ``#review-summary``, in a box that scrolls sideways when
 * the table is wider than the page (a phone); names are shown as text. */
function reviewSummaryTable(result) {
  const head = el("tr", null, el("th", null, tm("Player")), ...["Decisions", "Inaccuracies", "Mistakes", "Blunders", "Mean loss", "Accuracy"]
    .map(h => el("th", null, tm(h))));
  const rows = Object.entries(result.summary).map(([name, s]) => el("tr", null, el("td", null, name),
    el("td", null, String(s.decisions)), el("td", null, String(s.inaccuracies)), el("td", null, String(s.mistakes)),
    el("td", null, String(s.blunders)), el("td", null, fmtNumber(s.mean_loss)), el("td", null, `${reviewNum(s.accuracy)}%`)));
  return el("div", { class: "table-scroll" },
    el("table", { class: "sheet review-summary", id: "review-summary" }, el("thead", null, head), el("tbody", null, ...rows)));
}
