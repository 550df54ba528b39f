// The expert's review in the replay viewer (docs/review.md, "In the replay viewer").
// "Review with the expert" asks POST /api/replays/ID/review (a finished match) or POST /api/reviews
// (the uploaded record's text), then polls GET /api/reviews/KEY: the review runs in the server's
// review worker and the page shows its progress. The server keeps a finished review, so asking
// again (or stepping through the replay) never runs it twice; this page also keeps it.
// Then, at each move: its mark (inaccuracy ?!, mistake ?, blunder ??), the expert's move beside the
// move played with both values, the reason; under it a plot (SVG drawn here) of each player's
// chance to win through the deal, one point per decision, the current move
// marked; the marks of the deal as links to their moves; the summary and the hindsight line.
// Everything is put in the page as text (textContent, el(), createElementNS).
"use strict";

const ReplayReview = (() => {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const SYMBOL = { inaccuracy: "?!", mistake: "?", blunder: "??" };
  const state = { source: null, data: null, result: null, byDeal: new Map(), busy: false, deal: null, move: 0 };

  function svgEl(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }
  const num = reviewNum;
  function markName(mark) { return mark ? ptm("review mark", mark) : ""; }
  /** An action's text form ("discard 7H", "draw stock") in words, its card as a coloured card text. */
  function moveWords(action) {
    const m = /^(discard|knock|gin) ([A2-9TJQK][CDHS])\b/.exec(action || "");
    if (m) {
      const c = cardText(m[2]);
      return { discard: tEl("discard {card}", { card: c }), knock: tEl("knock, discarding {card}", { card: c }),
               gin: tEl("go gin, discarding {card}", { card: c }) }[m[1]];
    }
    return [{ "take upcard": t("take the upcard"), "pass": t("pass"), "draw stock": t("draw from the stock"),
              "take discard": t("take the top discard"), "big gin": t("big gin") }[action] || action];
  }
  function jump(deal, move) { if (window.ReplayView) window.ReplayView.go(deal, move); }

  /** A new replay is shown: forget the last one's review. ``source`` is {id} or {text}. */
  function reset(data, source) {
    state.source = source; state.data = data; state.result = null; state.byDeal = new Map(); state.busy = false;
    $("review-panel").hidden = false;
    $("review-start").disabled = false;
    $("review-progress").hidden = true;
    $("review-status").textContent = "";
    for (const id of ["review-move", "review-plot", "review-marks", "review-summary-box", "review-hindsight"]) $(id).replaceChildren();
    $("review-hindsight").className = "";
  }

  function status(text) { $("review-status").textContent = text; }

  async function ask() {
    if (state.busy || state.result || !state.source) return;
    state.busy = true;
    $("review-start").disabled = true;
    const bar = $("review-progress");
    bar.hidden = false; bar.max = 1; bar.value = 0;
    status(t("Starting the review..."));
    try {
      const src = state.source;
      let r = src.id !== undefined
        ? await fetch("/api/replays/" + encodeURIComponent(src.id) + "/review", { method: "POST" })
        : await fetch("/api/reviews", { method: "POST", headers: { "Content-Type": "text/plain; charset=utf-8" }, body: src.text });
      let body = await r.json();
      while (r.ok && body.status === "running" && state.source === src) {
        if (body.total) {
          bar.max = Math.max(1, body.total); bar.value = body.done;
          status(t("Reviewing the decisions: {done} of {total}", { done: body.done, total: body.total }));
        }
        await new Promise(ok => setTimeout(ok, 400));
        r = await fetch("/api/reviews/" + encodeURIComponent(body.key));
        body = await r.json();
      }
      if (state.source !== src) return;  // another replay was opened meanwhile
      if (!r.ok) throw new Error(body.error || String(r.status));
      shown(body.result);
    } catch (e) {
      status(e.message);
      $("review-start").disabled = false;
    } finally {
      state.busy = false;
      bar.hidden = true;
    }
  }

  function shown(result) {
    state.result = result;
    state.byDeal = new Map(result.deals.map(d => [d.number, d]));
    $("review-start").disabled = true;
    const unit = tm("chance to win the game or match, in percentage points");
    status(t("Values: {unit}.", { unit }) + " " + t("Each decision is valued from what its player could see then; a mark needs a loss larger than the estimate's noise."));
    $("review-summary-box").replaceChildren(reviewSummaryTable(result));
    if (state.deal !== null) render(state.deal, state.move);
  }


  /** The review of the move that led to frame ``move`` of deal ``d`` (its decision, if it was one). */
  function moveEl(d, rd, move) {
    if (move === 0) return el("p", { class: "hint" }, t("Step to a move to see the expert's view of it."));
    const x = rd.decisions.find(y => y.index === move);
    if (!x) return el("p", { class: "hint", id: "review-forced" }, t("No decision here: this move was the only one allowed."));
    const same = x.played === x.best;
    const badge = x.mark ? el("span", { class: `mark-badge ${x.mark}`, id: "review-mark" }, `${SYMBOL[x.mark]} ${markName(x.mark)}`)
      : el("span", { class: "mark-badge none", id: "review-mark" }, same ? t("the expert's move") : t("no mark"));
    return el("div", { class: `review-move ${x.mark || "none"}`, "data-index": String(x.index) },
      el("div", { class: "row" }, badge, " ",
        el("span", null, t("{name} played", { name: x.player }), " ", el("b", { id: "review-played" }, ...moveWords(x.played)),
          ` (${num(x.value_played)})`),
        " \u00b7 ",
        el("span", null, t("The expert's move:"), " ", el("b", { id: "review-best" }, ...moveWords(x.best)),
          ` (${num(x.value_best)})`),
        same ? "" : el("span", { class: "hint" }, " \u00b7 " + t("loss {loss}", { loss: num(x.loss) }))),
      el("div", { class: "hint reason" }, ...withCards(x.reason)));
  }

  /** The plot of deal ``d``: each player's value after his move, one point per decision. */
  function plot(d, rd, move) {
    const xs = rd.decisions;
    const last = Math.max(1, d.frames.length - 1);
    const W = 640, H = 210, L = 46, R = 14, T = 14, B = 30;
    const lo = 0, hi = 100;  // a value is a chance to win, in percent
    const X = (i) => L + (i / last) * (W - L - R);
    const Y = (v) => T + (1 - (v - lo) / (hi - lo || 1)) * (H - T - B);
    const label = t("Each player's chance to win (%) through the deal, as he saw it");
    const g = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-plot replay-plot", id: "review-svg", role: "img", "aria-label": label });
    g.append(svgEl("title", {}, label));
    const ticks = [0, 25, 50, 75, 100];
    for (const v of ticks) {
      g.append(svgEl("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), class: v === 0 || v === 50 ? "axis mid" : "axis" }),
        svgEl("text", { x: L - 6, y: Y(v) + 4, "text-anchor": "end", class: "tick" }, fmtNumber(v)));
    }
    g.append(svgEl("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle", class: "tick" }, t("move number")));
    if (move > 0) g.append(svgEl("line", { x1: X(move), x2: X(move), y1: T, y2: H - B, class: "cursor" }));
    d.players.forEach((name, seat) => {
      const mine = xs.filter(x => x.player === name);
      g.append(svgEl("polyline", { class: `played seat${seat}`, fill: "none",
        points: mine.map(x => `${X(x.index).toFixed(1)},${Y(x.value_played).toFixed(1)}`).join(" ") }));
    });
    for (const x of xs) {
      const seat = d.players.indexOf(x.player);
      if (x.mark) g.append(svgEl("line", { x1: X(x.index), x2: X(x.index), y1: Y(x.value_played), y2: Y(x.value_best), class: `loss ${x.mark}` }));
      const dot = svgEl("circle", { cx: X(x.index).toFixed(1), cy: Y(x.value_played).toFixed(1), r: x.mark ? 6 : 3.5,
        class: `dot seat${seat} ${x.mark || "none"}${x.index === move ? " current" : ""}`, "data-index": x.index, tabindex: "0" });
      const words = moveWords(x.played).map(n => (typeof n === "string" ? n : n.textContent)).join("");
      dot.append(svgEl("title", {}, `${x.index}. ${x.player}: ${words} (${num(x.value_played)})${x.mark ? " " + SYMBOL[x.mark] + " " + markName(x.mark) : ""}`));
      dot.addEventListener("click", () => jump(state.dealIndex, x.index));
      dot.addEventListener("keydown", (ev) => { if (ev.key === "Enter") jump(state.dealIndex, x.index); });
      g.append(dot);
    }
    const legend = el("div", { class: "review-legend hint" }, ...d.players.map((name, seat) => el("span", { class: `key-seat seat${seat}` }, name + " ")),
      el("span", { class: "key-loss" }, t("a mark: the line goes up to the expert's move")));
    return el("figure", { class: "review-figure" }, g, legend);
  }

  function marksEl(rd) {
    const marked = rd.decisions.filter(x => x.mark);
    if (!marked.length) return el("p", { class: "hint" }, t("No marks in this deal."));
    return el("ul", { class: "review-marks" }, ...marked.map(x => el("li", null,
      el("a", { href: "#", class: `mark-link ${x.mark}`, onclick: (ev) => { ev.preventDefault(); jump(state.dealIndex, x.index); } },
        t("move {n}", { n: x.index }), ` ${SYMBOL[x.mark]} `),
      ...tEl("{name} played {played}; the expert: {best}", { name: x.player, played: el("span", null, ...moveWords(x.played)),
        best: el("span", null, ...moveWords(x.best)) }))));
  }

  /** replay.js calls this at every step: deal index ``dealIndex`` (into data.deals), frame ``move``. */
  function render(dealIndex, move) {
    state.deal = dealIndex; state.dealIndex = dealIndex; state.move = move;
    if (!state.result || !state.data) return;
    const d = state.data.deals[dealIndex];
    const rd = state.byDeal.get(d.number);
    if (!rd) {
      $("review-move").replaceChildren(el("p", { class: "hint" }, t("This deal has no review: its cards are sealed.")));
      for (const id of ["review-plot", "review-marks", "review-hindsight"]) $(id).replaceChildren();
      $("review-hindsight").className = "";
      return;
    }
    $("review-move").replaceChildren(moveEl(d, rd, move));
    $("review-plot").replaceChildren(rd.decisions.length ? plot(d, rd, move)
      : el("p", { class: "hint" }, t("No decision to review in this deal.")));
    $("review-marks").replaceChildren(marksEl(rd));
    // the server's text says it is hindsight, with every card shown, and not part of the review
    $("review-hindsight").replaceChildren(...withCards(rd.hindsight.text));
    $("review-hindsight").className = "hindsight";
  }

  $("review-start").addEventListener("click", () => { ask(); });

  return { reset, render, ask, moveWords };
})();
window.ReplayReview = ReplayReview;
