// The table page's performance score (issue 32; docs/protocol.md, "The score"): when a deal ends
// the server reviews every player's moves in the background and sends score_progress, then score
// (deal N, and the match's score, deal null, when it is over).  The result dialog shows them: the
// score 0-100 (100: every move the expert's), the inaccuracies, mistakes and blunders, and "played
// like a player rated about N" with its interval, and a note when the server scored it on fewer
// sampled deals a move than its full precision (when it is busy: a wider interval).  Loaded before
// table.js; uses its ui state.
"use strict";

const GinScore = (() => {
  const scores = {};     // deal number, or "match": the score message
  const progress = {};   // deal number: {done, total} while its review runs

  function shown(name) { return (ui.names && ui.names[name]) || name; }

  function row(p) {
    const counts = t("inaccuracies {i}, mistakes {m}, blunders {b}", { i: p.inaccuracies, m: p.mistakes, b: p.blunders });
    const like = p.rating ? t("played like a player rated about {rating} ({low} to {high})",
      { rating: fmtNumber(p.rating.rating), low: fmtNumber(p.rating.low), high: fmtNumber(p.rating.high) }) : t("no decision to score");
    return el("tr", { "data-player": p.name },
      el("th", { scope: "row" }, shown(p.name)),
      el("td", { class: "score-value" }, t("{score} of 100", { score: fmtNumber(p.score) })),
      el("td", null, counts), el("td", null, like));
  }

  function table(msg, caption) {
    const out = [el("table", { class: "board score-table", "data-deal": msg.deal === null ? "match" : String(msg.deal) },
      el("caption", null, caption), el("tbody", null, ...msg.players.map(row)))];
    const fewest = Math.min(...msg.players.map((p) => p.samples || msg.full_samples));
    if (msg.full_samples && fewest < msg.full_samples) {
      out.push(el("p", { class: "hint score-quick" }, t(
        "Scored quickly, on {samples} sampled deals a move instead of {full}: the rating's interval is wider.",
        { samples: fmtNumber(fewest), full: fmtNumber(msg.full_samples) })));
    }
    return out;
  }

  /** The dialog's score section for the deal on screen (and the match once it is over). */
  function render() {
    const box = document.getElementById("score-panel");
    if (!box || !ui.state) return;
    const s = ui.state, deal = s.deal && s.deal.number;
    const parts = [el("h3", null, t("How each player played"))];
    const over = s.match && s.match.finished;
    if (over && scores.match) parts.push(...table(scores.match, t("The match")));
    if (scores[deal]) parts.push(...table(scores[deal], t("Deal {number}", { number: deal })));
    else {
      const pr = progress[deal];
      parts.push(el("p", { class: "hint", id: "score-progress", role: "status" }, pr && pr.total
        ? t("Scoring the moves of this deal: {done} of {total}", { done: fmtNumber(pr.done), total: fmtNumber(pr.total) })
        : t("Scoring the moves of this deal\u2026")));
    }
    parts.push(el("p", { class: "hint" }, t("Score: 100 when every move is the expert's. The rating estimate is provisional.")));
    box.replaceChildren(...parts);
  }

  /** Handles score and score_progress; true when the message was one of them. */
  function onMessage(msg) {
    if (msg.type === "score") {
      scores[msg.deal === null ? "match" : msg.deal] = msg;
      delete progress[msg.deal];
    } else if (msg.type === "score_progress") {
      if (scores[msg.deal]) return true;  // a late report of a review already done
      progress[msg.deal] = { done: msg.done, total: msg.total };
    } else return false;
    render();
    return true;
  }

  /** Adds the (empty) section to the result dialog ``box``; filled by render. */
  function addPanel(box) {
    box.append(el("div", { id: "score-panel", class: "score-panel", "aria-live": "polite" }));
    render();
  }

  return { onMessage, addPanel, render };
})();
window.GinScore = GinScore;
