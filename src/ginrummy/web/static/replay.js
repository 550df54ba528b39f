// The replay viewer: GET /api/replays/ID (a finished or forfeited match) or POST /api/replays (an uploaded record),
// then deal by deal and move by move (forward, back, jump) with both hands open. Arrow keys step too.
// The expert's review of the replay (its marks, the expert's moves, the plot) is replay-review.js's.
"use strict";

const $ = (id) => document.getElementById(id);
const RESULT_ID = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const view = { data: null, deal: 0, move: 0 };

function dealOf() { return view.data.deals[view.deal]; }

function go(deal, move) {
  const deals = view.data.deals;
  view.deal = Math.max(0, Math.min(deals.length - 1, deal));
  const frames = dealOf().frames.length;
  view.move = Math.max(0, Math.min(Math.max(frames - 1, 0), move));
  render();
}

function step(delta) {
  const frames = dealOf().frames.length;
  const m = view.move + delta;
  if (m >= frames && view.deal < view.data.deals.length - 1) go(view.deal + 1, 0);
  else if (m < 0 && view.deal > 0) go(view.deal - 1, view.data.deals[view.deal - 1].frames.length - 1);
  else go(view.deal, m);
}

function outcomeText(r) {
  const p = { knocker: r.knocker, winner: r.winner, points: r.points, rule: r.reason };
  if (r.outcome === "draw") return t("Drawn deal ({rule}): nobody scores.", p);
  if (r.outcome === "undercut") return t("{knocker} knocks and is undercut: {winner} scores {points}.", p);
  if (r.outcome === "gin") return t("{knocker} goes gin and scores {points}.", p);
  if (r.outcome === "big_gin") return t("{knocker} goes big gin and scores {points}.", p);
  return t("{knocker} knocks and scores {points}.", p);
}

function layout(label, lay) {
  return el("div", { class: "replay-hand" }, el("b", null, label), " ",
    ...lay.melds.map(m => el("span", { class: "meld" }, "[", ...m.map(c => cardText(c)), "] ")),
    lay.deadwood.length ? el("span", null, t("deadwood"), " ", ...lay.deadwood.map(c => cardText(c)), " ") : "",
    el("span", { class: "hint" }, t("({n} deadwood points)", { n: lay.deadwood_value })));
}

function render() {
  renderFrame();
  ReplayReview.render(view.deal, view.move);
}

function renderFrame() {
  const d = dealOf();
  $("deal").value = String(view.deal);
  $("move").max = String(Math.max(d.frames.length - 1, 0));
  $("move").value = String(view.move);
  $("where").textContent = t("deal {deal} of {deals}, move {move} of {moves}", {
    deal: d.number, deals: view.data.deals.length, move: view.move, moves: Math.max(d.frames.length - 1, 0) });
  if (d.sealed || !d.frames.length) {
    $("action").textContent = t("This deal's cards are sealed: they are not revealed.");
    $("hands").replaceChildren(); $("pile").replaceChildren(); $("stock").textContent = ""; $("result").replaceChildren();
    return;
  }
  const f = d.frames[view.move];
  $("action").replaceChildren(...(f.action === null ? [t("Dealt: {dealer} deals.", { dealer: d.dealer })]
    : tEl("{name}: {action}", { name: f.by, action: el("span", null, ...ReplayReview.moveWords(f.action)) })));
  $("hands").replaceChildren(...d.players.map((name, s) => el("div", { class: "replay-hand", "data-seat": s },
    el("div", null, el("b", null, name), " ", el("span", { class: "hint" }, t("({n} deadwood points)", { n: f.deadwood[s] })),
      f.to_act === name ? el("span", { class: "hint" }, " \u2190 " + t("to act")) : ""),
    el("div", { class: "cards" }, ...f.hand_sorted(s).map(c => cardEl(c, { mini: true }))))));
  $("pile").replaceChildren(...(f.pile.length ? [cardEl(f.pile[f.pile.length - 1], { mini: true })] : [el("span", { class: "hint" }, t("empty"))]));
  $("stock").textContent = t("{n} cards in the stock, {m} in the discard pile", { n: f.stock, m: f.pile.length });
  const last = view.move === d.frames.length - 1;
  if (last && d.result) {
    const r = d.result;
    const parts = [el("p", { id: "result-text" }, outcomeText(r))];
    if (r.knocker_layout) parts.push(layout(r.knocker, r.knocker_layout), layout(d.players.find(n => n !== r.knocker), r.defender_layout));
    if (d.score) parts.push(el("p", { class: "hint" }, t("Score after the deal: {scores}", {
      scores: view.data.names.map((n, i) => `${n} ${fmtNumber(d.score[i])}`).join(", ") })));
    $("result").replaceChildren(...parts);
  } else if (last && view.data.forfeit && view.deal === view.data.deals.length - 1) {
    // the deal a forfeit stopped (record-format.md, "Forfeited match"): shown up to the stop
    $("result").replaceChildren(el("p", { id: "result-text" }, t("This deal was not played out: the match ended here by the forfeit.")));
  } else $("result").replaceChildren();
}

function show(data, source) {
  for (const d of data.deals) for (const f of d.frames) f.hand_sorted = (s) => [...f.hands[s]].sort(bySuit);
  view.data = data;
  $("viewer").hidden = false;
  // each t() call on its own line: the string extractor misses a call nested in a ternary inside a call's arguments
  let result = t("not finished");
  if (data.finished && data.winner) result = t("{name} won the match", { name: data.winner });
  else if (data.finished) result = t("no winner");
  // how a match ended by a forfeit (the record's forfeit line): resigned, left, on time
  let forfeit = null;
  if (data.forfeit && data.ended === "resigned") forfeit = t("{name} resigned the match.", { name: data.forfeit });
  else if (data.forfeit && data.ended === "left") forfeit = t("{name} left the table and forfeits the match.", { name: data.forfeit });
  else if (data.forfeit) forfeit = t("{name} lost the match on time.", { name: data.forfeit });
  $("title").replaceChildren(...tEl("{a} against {b}: {result}", { a: el("b", null, data.names[0]), b: el("b", null, data.names[1] || ""), result }),
    ...(forfeit ? [el("br"), el("span", { class: "hint", id: "forfeit-line" }, forfeit)] : []));  // a sentence of its own line
  $("deal").replaceChildren(...data.deals.map((d, i) => el("option", { value: String(i) }, t("Deal {n}", { n: d.number }))));
  ReplayReview.reset(data, source);
  go(0, 0);
}

async function loadFinished(id) {
  const r = await fetch("/api/replays/" + encodeURIComponent(id));
  const body = await r.json();
  if (!r.ok) throw new Error(body.error);
  $("upload-panel").hidden = true;
  show(body, { id });
}

async function upload(file) {
  const text = await file.text();
  const r = await fetch("/api/replays", { method: "POST", headers: { "Content-Type": "text/plain; charset=utf-8" }, body: text });
  const body = await r.json();
  if (!r.ok) throw new Error(body.error);
  show(body, { text });
}

function guard(p) { $("error").textContent = ""; p.catch(e => { $("error").textContent = e.message; }); }

window.ReplayView = { go };  // replay-review.js jumps to a move from the plot and the list of marks
mountTopbar("");
$("first").addEventListener("click", () => go(0, 0));
$("last").addEventListener("click", () => go(view.data.deals.length - 1, 1e9));
$("back").addEventListener("click", () => step(-1));
$("forward").addEventListener("click", () => step(1));
$("prev-deal").addEventListener("click", () => go(view.deal - 1, 0));
$("next-deal").addEventListener("click", () => go(view.deal + 1, 0));
$("deal").addEventListener("change", () => go(Number($("deal").value), 0));
$("move").addEventListener("input", () => go(view.deal, Number($("move").value)));
$("file").addEventListener("change", () => { if ($("file").files[0]) guard(upload($("file").files[0])); });
document.addEventListener("keydown", (ev) => {
  if (!view.data || ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
  if (ev.key === "ArrowRight") step(1);
  else if (ev.key === "ArrowLeft") step(-1);
});
if (RESULT_ID) guard(loadFinished(RESULT_ID));
