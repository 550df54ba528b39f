// A player page: GET /api/players/NAME: rating and match scores (SVG plots drawn here), statistics, recent matches.
"use strict";

const $ = (id) => document.getElementById(id);
const NAME = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The rating after each rated match as a line: x the match, y the rating (axis labels in the page's number format). */
function plot(history) {
  const box = $("plot");
  if (history.length < 1) { box.replaceChildren(el("p", { class: "hint" }, t("No rated match yet."))); return; }
  // one point is a lone dot: a sentence until there is a line to draw (issue 34)
  if (history.length < 2) {
    box.replaceChildren(el("p", { class: "hint", id: "plot-one" }, t("The rating chart starts after the second rated match.")));
    return;
  }
  const W = 600, H = 220, L = 48, R = 10, T = 10, B = 24;
  const ys = history.map(h => h.rating);
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (hi - lo < 20) { lo -= 10; hi += 10; }
  const x = (i) => L + i * (W - L - R) / (history.length - 1);
  const y = (v) => T + (hi - v) * (H - T - B) / (hi - lo);
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("Rating over time"), id: "rating-plot" });
  s.append(svg("line", { class: "axis", x1: L, y1: T, x2: L, y2: H - B }), svg("line", { class: "axis", x1: L, y1: H - B, x2: W - R, y2: H - B }));
  for (const v of [lo, (lo + hi) / 2, hi]) s.append(svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end" }, fmtNumber(Math.round(v))));
  s.append(svg("text", { x: L, y: H - 6 }, history[0].date.slice(0, 10)));
  s.append(svg("text", { x: W - R, y: H - 6, "text-anchor": "end" }, history[history.length - 1].date.slice(0, 10)));
  s.append(svg("polyline", { class: "line", points: history.map((h, i) => `${x(i).toFixed(1)},${y(h.rating).toFixed(1)}`).join(" ") }));
  history.forEach((h, i) => s.append(svg("circle", { cx: x(i).toFixed(1), cy: y(h.rating).toFixed(1), r: 3, fill: "#0e6ba8" })));
  box.replaceChildren(s);
}

/** The score of each scored match (0-100, issue 32) as a line, oldest first: y from 0 to 100, each
 *  point titled with its date, its score and "played like about N"; the latest said in words. */
function scorePlot(scores) {
  const box = $("score-plot");
  if (!scores.length) { box.replaceChildren(el("p", { class: "hint" }, t("No scored match yet."))); return; }
  const W = 600, H = 180, L = 48, R = 10, T = 10, B = 24;
  const x = (i) => L + (scores.length === 1 ? (W - L - R) / 2 : i * (W - L - R) / (scores.length - 1));
  const y = (v) => T + (100 - v) * (H - T - B) / 100;
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("Score per match"), id: "score-chart" });
  s.append(svg("line", { class: "axis", x1: L, y1: T, x2: L, y2: H - B }), svg("line", { class: "axis", x1: L, y1: H - B, x2: W - R, y2: H - B }));
  for (const v of [0, 50, 100]) s.append(svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end" }, fmtNumber(v)));
  s.append(svg("text", { x: L, y: H - 6 }, scores[0].date.slice(0, 10)));
  s.append(svg("text", { x: W - R, y: H - 6, "text-anchor": "end" }, scores[scores.length - 1].date.slice(0, 10)));
  s.append(svg("polyline", { class: "line", points: scores.map((m, i) => `${x(i).toFixed(1)},${y(m.score).toFixed(1)}`).join(" ") }));
  scores.forEach((m, i) => {
    const dot = svg("circle", { cx: x(i).toFixed(1), cy: y(m.score).toFixed(1), r: 3, fill: "#2e7d32", "data-score": m.score });
    dot.append(svg("title", {}, `${m.date.slice(0, 10)}: ${t("{score} of 100", { score: fmtNumber(m.score) })}`));
    s.append(dot);
  });
  const last = scores[scores.length - 1];
  const words = t("Latest match: score {score} of 100; played like a player rated about {rating} ({low} to {high}).", {
    score: fmtNumber(last.score), rating: last.rating ? fmtNumber(last.rating.rating) : "-",
    low: last.rating ? fmtNumber(last.rating.low) : "-", high: last.rating ? fmtNumber(last.rating.high) : "-" });
  box.replaceChildren(s, el("p", { class: "hint", id: "score-latest" }, words));
}

function stat(label, value, id) { return el("div", { id }, el("b", null, value), label); }

function opponentLabel(r) {
  if (r.opponent_kind === "deleted") return el("i", null, t("deleted player"));
  if (r.opponent_kind === "computer") return el("a", { href: "/players/" + encodeURIComponent(r.opponent) }, t("Computer ({level})", { level: levelName(r.opponent) }));
  if (r.opponent_kind === "guest") return el("span", null, r.opponent, " ", el("span", { class: "hint" }, t("(guest)")));
  const link = el("a", { href: "/players/" + encodeURIComponent(r.opponent) }, r.opponent);
  return r.opponent_kind === "bot" ? el("span", null, link, " ", el("span", { class: "bot-badge" }, "BOT")) : link;
}

// A signed-in person challenges a bot account (docs/bot-api.md): the bot's program accepts or
// declines; once it accepts, the person's events carry his seat link and the page goes there.
async function challengeBot(name) {
  $("error").textContent = "";
  const r = await fetch("/api/challenges", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ to: name, rated: $("challenge-rated").checked }) });
  const body = await r.json();
  if (!r.ok) { $("error").textContent = body.error; return; }
  const id = body.challenge.id;
  $("challenge-status").textContent = t("Challenge sent; waiting for the bot to accept.");
  for (let i = 0; i < 600; i++) {
    const ev = await (await fetch("/api/events?since=0")).json();
    for (const e of ev.events) {
      if (e.type === "game_start" && e.id === id) { location.href = e.link; return; }
      if (e.type === "challenge_declined" && e.id === id) { $("challenge-status").textContent = t("The bot declined the challenge."); return; }
    }
    await new Promise(ok => setTimeout(ok, 1000));
  }
}

const RESULT = { win: () => t("won"), loss: () => t("lost"), draw: () => t("no winner") };

async function load() {
  const r = await fetch("/api/players/" + encodeURIComponent(NAME));
  const p = await r.json();
  if (!r.ok) { $("name").textContent = NAME; $("error").textContent = p.error; return; }
  document.title = t("Gin Rummy - {name}", { name: p.kind === "computer" ? t("Computer ({level})", { level: levelName(p.name) }) : p.name });
  $("name").textContent = p.kind === "computer" ? t("Computer ({level})", { level: levelName(p.name) }) : p.name;
  if (p.kind === "bot") {
    $("name").append(" ", el("span", { class: "bot-badge" }, "BOT"));
    const me = await (await fetch("/api/me")).json();
    if (me.signed_in) {
      $("challenge").hidden = false;
      $("challenge-go").onclick = () => challengeBot(p.name).catch(e => { $("error").textContent = e.message; });
    }
  }
  const after = nt("after {n} rated match", "after {n} rated matches", p.rated_matches);
  $("summary").replaceChildren(...tEl("Rating {rating} {after}.", {
    // the words "(provisional)" follow, so no "?" too ("927? (provisional)" said it twice, issue 34)
    rating: ratingEl("b", { id: "rating", title: p.provisional ? t("provisional rating") : null }, p.rating, false), after }),
    p.provisional ? el("span", { class: "hint" }, " " + t("(provisional)")) : "");
  plot(p.history);
  scorePlot(p.performance || []);
  const pct = (a, b) => (b ? fmtNumber(Math.round(100 * a / b)) + "%" : "-");
  $("stats").replaceChildren(
    stat(t("matches"), fmtNumber(p.matches), "st-matches"), stat(t("matches won"), `${fmtNumber(p.wins)} (${pct(p.wins, p.matches)})`, "st-wins"),
    stat(t("deals"), fmtNumber(p.deals), "st-deals"), stat(t("deals won"), `${fmtNumber(p.deals_won)} (${pct(p.deals_won, p.deals)})`, "st-deals-won"),
    stat(t("knocks"), fmtNumber(p.knocks), "st-knocks"), stat(t("gins"), fmtNumber(p.gins), "st-gins"),
    stat(t("undercuts made"), fmtNumber(p.undercuts_made), "st-um"), stat(t("undercuts suffered"), fmtNumber(p.undercuts_suffered), "st-us"),
    stat(t("points a deal"), fmtNumber(p.points_per_deal), "st-ppd"),
    stat(t("mean deadwood at a knock"), p.mean_knock_deadwood === null ? "-" : fmtNumber(p.mean_knock_deadwood), "st-kd"),
    // how his matches ended (docs/accounts.md, "Fair play")
    stat(t("completion rate"), p.completion.rate === null ? "-" : fmtNumber(Math.round(100 * p.completion.rate)) + "%", "st-completion"),
    stat(t("finished by the rules"), fmtNumber(p.completion.by_rules), "st-by-rules"),
    stat(t("resigned"), fmtNumber(p.completion.resigned), "st-resigned"),
    stat(t("forfeited"), fmtNumber(p.completion.forfeited), "st-forfeited"),
    stat(t("won when the opponent resigned or left"), fmtNumber(p.completion.opponent_gave_up || 0), "st-gave-up"));
  const body = $("recent").querySelector("tbody");
  body.replaceChildren(...p.recent.map(m => el("tr", null, el("td", null, m.date.slice(0, 10)), el("td", null, opponentLabel(m)),
    el("td", null, RESULT[m.result]()),
    // a ladder match (gin ladder) was played by the computer alone: it has no table to replay
    el("td", null, m.id.startsWith("ladder-") ? "" : el("a", { href: "/replay/" + encodeURIComponent(m.id) }, t("replay"))))));
  if (!p.recent.length) body.append(el("tr", null, el("td", { colspan: 4, class: "hint" }, t("No finished match yet."))));
  // a signed-in person may block, mute or report another person from his page
  const me = await (await fetch("/api/me")).json();
  if (p.kind === "human" && me.signed_in && me.name !== p.name) $("moderate").replaceChildren(GinModerate.panel(p.name));
}

mountTopbar("");
load().catch(e => { $("error").textContent = e.message; });
