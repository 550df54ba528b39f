// The expert's review on the table page (docs/protocol.md, "The review"; docs/review.md).
// "Review this deal" once a deal is over and "Review the match" at its end send {"type": "review"};
// the server answers review_progress messages, then the review: each of your decisions with the
// move you played beside the expert's move, the marks and their reasons, a plot of the value
// (win chance) through the deal drawn here as SVG, the summary, and the
// hindsight line, labelled as hindsight. Everything is put in the page as text (textContent).
"use strict";

const GinReview = (() => {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  let sendFn = null;
  let asked = undefined;  // the deal asked for (null: the match) while a review runs
  let shownFor = null;    // the deal number whose buttons are shown
  let askedOn = null;     // the WebSocket the running review was asked on (table.js ui.ws)
  const socket = () => (typeof ui !== "undefined" ? ui.ws : null);

  /** A review asked on a connection that has closed since is lost with it: ask again. */
  function dropIfReconnected() {
    if (asked === undefined || askedOn === socket()) return;
    asked = undefined;
    const status = $("review-status");
    if (status) status.textContent = t("The connection was lost during the review; ask for it again.");
  }

  function svgEl(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function markName(mark) { return mark ? ptm("review mark", mark) : ""; }
  function phaseName(phase) {
    return ptm("phase", { upcard_offer: "upcard offer", draw: "draw", wall: "wall", discard: "discard" }[phase] || phase);
  }
  const num = reviewNum;
  /** An action's text form ("discard 7H") in words, its card as a coloured card text. */
  function moveEl(action) {
    return el("span", null, ...(typeof actionWords === "function" ? actionWords(action) : withCards(action)));
  }

  function dialog() { return $("review-box"); }
  function open(title) {
    const box = dialog();
    box.replaceChildren(el("h2", { id: "review-title" }, title));
    $("review").hidden = false;
    return box;
  }
  // the review was opened from the result dialog: closing it shows that dialog again, with its
  // Next deal button, while the deal is still over (issue 34: it stayed hidden)
  let fromResult = false;
  function close() {
    $("review").hidden = true;
    const s = typeof S === "function" ? S() : null;
    if (fromResult && s && dealOver(s)) $("result").hidden = false;
    fromResult = false;
  }

  /** Ask for the review of deal ``deal`` (a number), or of the match (null). */
  function request(deal) {
    if (!sendFn) return;
    dropIfReconnected();
    if (asked !== undefined) { $("review").hidden = false; return; }  // one at a time: show the running one
    asked = deal;
    askedOn = socket();
    const box = open(deal === null ? t("Review of the match") : t("Review of deal {n}", { n: deal }));
    box.append(el("p", { class: "hint" }, t("The expert values each of your decisions from what you could see then. This takes a little while; you may go on playing.")),
      el("progress", { id: "review-progress", max: "1", value: "0" }), el("div", { id: "review-status", class: "hint" }, t("Starting the review...")),
      closeButton());
    sendFn({ type: "review", deal, id: "review" });
  }

  function closeButton() {
    return el("div", { class: "row", style: "margin-top:10px" },
      el("button", { class: "btn secondary", type: "button", id: "review-close", onclick: close }, t("Close")));
  }

  function onProgress(msg) {
    const bar = $("review-progress"), status = $("review-status");
    if (!bar || !status || msg.total === null || msg.total === undefined) return;
    bar.max = Math.max(1, msg.total);
    bar.value = msg.done;
    status.textContent = t("Reviewing your decisions: {done} of {total}", { done: msg.done, total: msg.total });
  }

  /** The plot of one deal: the value after the move played and after the expert's move, by move number. */
  function plot(deal) {
    const xs = deal.decisions;
    const W = 560, H = 200, L = 46, R = 12, T = 14, B = 30;
    const lo = 0, hi = 100;  // a value is a chance to win, in percent
    const first = xs.length ? xs[0].index : 0, last = xs.length ? xs[xs.length - 1].index : 1;
    const x = (i) => L + (last === first ? 0.5 : (i - first) / (last - first)) * (W - L - R);
    const y = (v) => T + (1 - (v - lo) / (hi - lo || 1)) * (H - T - B);
    const label = t("Your chance to win (%) through the deal");
    const g = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-plot", role: "img", "aria-label": label });
    g.append(svgEl("title", {}, label));
    const ticks = [0, 25, 50, 75, 100];
    for (const v of ticks) {
      g.append(svgEl("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 || v === 50 ? "axis mid" : "axis" }),
        svgEl("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, fmtNumber(v)));
    }
    g.append(svgEl("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle", class: "tick" }, t("move number")));
    const line = (key, cls) => svgEl("polyline", { class: cls, fill: "none",
      points: xs.map(d => `${x(d.index).toFixed(1)},${y(d[key]).toFixed(1)}`).join(" ") });
    g.append(line("value_best", "best"), line("value_played", "played"));
    let labelled = -Infinity;  // where the last move number was written: numbers closer than 20 units would run together
    for (const d of xs) {
      const dot = svgEl("circle", { cx: x(d.index).toFixed(1), cy: y(d.value_played).toFixed(1), r: d.mark ? 5 : 3,
                                   class: `dot ${d.mark || "none"}` });
      dot.append(svgEl("title", {}, `${d.index}: ${d.played} (${num(d.value_played)})${d.mark ? " - " + markName(d.mark) : ""}`));
      g.append(dot);
      if (d.index !== undefined && xs.length <= 40 && x(d.index) - labelled >= 20) {
        labelled = x(d.index);
        g.append(svgEl("text", { x: x(d.index), y: H - B + 14, "text-anchor": "middle", class: "tick small" }, String(d.index)));
      }
    }
    const legend = el("div", { class: "review-legend hint" },
      el("span", { class: "key-played" }, t("your move")), " ", el("span", { class: "key-best" }, t("the expert's move")));
    return el("figure", { class: "review-figure" }, g, legend);
  }

  function decisionsTable(deal) {
    const head = el("tr", null, el("th", null, "#"), el("th", null, t("Phase")), el("th", null, t("Your move")),
      el("th", null, t("The expert's move")), el("th", null, tm("Value")), el("th", null, tm("Loss")), el("th", null, tm("Mark")));
    const rows = deal.decisions.map(d => {
      const same = d.played === d.best;
      const tr = el("tr", { class: `decision ${d.mark ? "marked " + d.mark : ""}` },
        el("td", null, String(d.index)), el("td", null, phaseName(d.phase)), el("td", null, moveEl(d.played)),
        el("td", null, same ? "=" : moveEl(d.best)),
        el("td", null, same ? num(d.value_played) : `${num(d.value_played)} \u2192 ${num(d.value_best)}`),
        el("td", null, num(d.loss)), el("td", { class: "mark" }, markName(d.mark)));
      const why = el("tr", { class: "reason" }, el("td", { colspan: "7" }, ...withCards(d.reason)));
      return [tr, why];
    });
    return el("div", { class: "table-scroll" },
      el("table", { class: "sheet review-table" }, el("thead", null, head), el("tbody", null, ...rows.flat())));
  }


  function onReview(msg) {
    const r = msg.result;
    const box = open(msg.deal === null ? t("Review of the match") : t("Review of deal {n}", { n: msg.deal }));
    const unit = tm("chance to win the game or match, in percentage points");
    box.append(el("p", { class: "hint" }, t("Values: {unit}.", { unit }), " ", t("Only what you could see at each moment was used; a mark needs a loss larger than the estimate's noise.")));
    box.append(el("h3", null, tm("Summary")), reviewSummaryTable(r));
    for (const d of r.deals) {
      const sec = el("section", { class: "review-deal", "data-deal": String(d.number) });
      if (r.deals.length > 1) sec.append(el("h3", null, t("Deal {n}", { n: d.number })));
      if (d.decisions.length) sec.append(plot(d), decisionsTable(d));
      else sec.append(el("p", null, t("No decision of yours to review in this deal.")));
      // the server's text says it is hindsight, with every card shown, and not part of the review
      const hs = el("div", { class: `hindsight${d.hindsight.sealed ? " sealed" : ""}` }, ...withCards(d.hindsight.text));
      sec.append(hs);
      box.append(sec);
    }
    box.append(closeButton());
  }

  /** table.js passes every message; true when it was the review's. */
  function onMessage(msg) {
    try {
      if (msg.type === "review_progress") { onProgress(msg); return true; }
      if (msg.type === "review") { asked = undefined; onReview(msg); return true; }
      if (msg.type === "error" && msg.reply_to === "review") {
        asked = undefined;
        const status = $("review-status");
        if (status && !$("review").hidden) { status.textContent = msg.message; return true; }
        return false;
      }
    } catch (e) {
      asked = undefined;  // a fault here must not stop the table page
    }
    return false;
  }

  /** Whether the state's current deal is over (its entry in the state's list of deals). */
  function dealOver(s) { return !!(s.deal && (s.deals || []).some(d => d.number === s.deal.number && d.over)); }

  /** The side panel's buttons, from each state: the deal just over, the match at its end. */
  function onState(s, send) {
    sendFn = send;
    try {
      dropIfReconnected();
      const panel = $("review-panel");
      if (!panel) return;
      const d = s.started ? s.deal : null;
      const seated = s.you !== null && s.you !== undefined;
      panel.hidden = !seated || !d || !(dealOver(s) || s.match.finished);
      if (panel.hidden) { shownFor = null; return; }
      const key = `${d.number}/${s.match.finished}`;
      if (shownFor === key) return;
      shownFor = key;
      const box = $("review-buttons");
      box.replaceChildren();
      if (dealOver(s)) box.append(el("button", { class: "btn", type: "button", id: "review-deal", onclick: () => request(d.number) }, t("Review this deal")));
      if (s.match.finished) box.append(el("button", { class: "btn", type: "button", id: "review-match", onclick: () => request(null) }, t("Review the match")));
    } catch (e) { /* never stop the table page */ }
  }

  /** The result dialog's buttons (table.js showResult). */
  function addButtons(buttons, s) {
    if (s.you === null || s.you === undefined || !dealOver(s)) return;
    buttons.append(el("button", { class: "btn secondary", type: "button", id: "review-deal-dialog",
      onclick: () => { $("result").hidden = true; fromResult = true; request(s.deal.number); } }, t("Review this deal")));
    // at the end of the match the dialog offers the match's review too (issue 34), as the panel does
    if (s.match.finished) {
      buttons.append(el("button", { class: "btn secondary", type: "button", id: "review-match-dialog",
        onclick: () => { $("result").hidden = true; fromResult = true; request(null); } }, t("Review the match")));
    }
  }

  window.addEventListener("keydown", (ev) => {
    if ($("review") && !$("review").hidden) {
      if (ev.key === "Escape") close();
      ev.stopPropagation();  // the table's keys wait while the review is open
    }
  }, true);

  return { onState, onMessage, addButtons, request };
})();
window.GinReview = GinReview;  // a top-level const is no property of window: table.js tests window.GinReview
