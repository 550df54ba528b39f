// A tournament's page: its view pushed over WS /ws/tournament/ID at each change (live standings,
// the pairings of each round with their tables to watch, the final table), GET
// /api/tournaments/ID every few seconds while the socket is closed; enter, withdraw, go to your
// table (docs/protocol.md "Tournaments"). Names are text nodes only.
"use strict";

const $ = (id) => document.getElementById(id);
const TID = decodeURIComponent(location.pathname.split("/").pop());
const STATES = () => ({ created: t("Not open yet"), registration: t("Open for entries"), running: t("In progress"), finished: t("Finished") });
let timer = null;
let live = null;  // the open socket of the live feed, or null (then the page polls)
let finished = false;

function entrantName(name, computer) { return computer ? t("Computer ({level})", { level: levelName(name) }) : name; }

function resultText(g) {
  if (g.b === null) return t("bye");
  if (g.result === null) return t("in play");
  return { a: "1-0", b: "0-1", draw: "\u00bd-\u00bd", forfeit_a: t("0-1 (forfeit)"), forfeit_b: t("1-0 (forfeit)"), forfeit_both: t("0-0 (forfeit)") }[g.result];
}

function standingRows(rows, computers, arena) {
  if (arena) return rows.map((r) => el("tr", { "data-player": r.player },
    el("td", { class: "num" }, fmtNumber(r.rank)), el("td", null, entrantName(r.player, computers.has(r.player)), r.withdrawn ? " " + t("(withdrawn)") : "", r.streak ? " " + t("(on a streak)") : ""),
    el("td", { class: "num" }, fmtNumber(r.points)), el("td", { class: "num" }, fmtNumber(r.games)),
    el("td", { class: "num" }, fmtNumber(r.wins))));
  return rows.map((r) => el("tr", { "data-player": r.player },
    el("td", { class: "num" }, fmtNumber(r.rank)), el("td", null, entrantName(r.player, computers.has(r.player)), r.withdrawn ? " " + t("(withdrawn)") : ""),
    el("td", { class: "num" }, fmtNumber(r.score)), el("td", { class: "num" }, fmtNumber(r.buchholz)),
    el("td", { class: "num" }, fmtNumber(r.sonneborn_berger))));
}

function when(iso) { return iso ? new Date(iso).toLocaleString(LANG, { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "2-digit" }) : ""; }

/** The line under the name: not started (its start), in progress (since when), finished (when). */
function infoText(v, arena) {
  const minutes = fmtNumber(v.settings.minutes), round = fmtNumber(v.round), rounds = fmtNumber(v.rounds);
  if (v.state === "finished") {
    return arena ? t("Finished {time}; an arena of {minutes} minutes", { time: when(v.finished_at), minutes })
      : t("Finished {time}; rounds played: {rounds}", { time: when(v.finished_at), rounds: round });
  }
  if (v.state === "running") {
    return arena ? t("In progress; an arena of {minutes} minutes; ends {time}", { minutes, time: when(v.ends) })
      : t("In progress; round {round} of {rounds}; started {time}", { round, rounds, time: when(v.started_at) });
  }
  const start = when(v.settings.start);
  return arena ? t("{state}; an arena of {minutes} minutes; starts {start}", { state: STATES()[v.state], minutes, start })
    : t("{state}; round {round} of {rounds}; starts {start}", { state: STATES()[v.state], round, rounds, start });
}

/** The column headers of the standings and of the final table (the tie-breaks abbreviated as
 *  chess tables do, in the reader's language, named in full on hover: five columns fit a 375 px
 *  phone in every language). */
function headRow(arena) {
  const num = (text, title) => el("th", { class: "num", title: title || text }, text);
  return arena ? el("tr", null, num("#", t("Rank")), el("th", null, t("Player")), num(t("Points")), num(t("Games")), num(t("Wins")))
    : el("tr", null, num("#", t("Rank")), el("th", null, t("Player")), num(t("Score")), num(pt("tie-break", "BH"), t("Buchholz")),
      num(pt("tie-break", "SB"), t("Sonneborn-Berger")));
}

function render(v) {
  const computers = new Set(v.entrants.filter((e) => e.computer).map((e) => e.name));
  $("t-name").textContent = v.settings.name;
  const arena = v.settings.kind === "arena";
  $("t-info").textContent = infoText(v, arena);
  for (const id of ["standings", "final"]) $(id).querySelector("thead").replaceChildren(headRow(arena));
  // a turn-based Swiss: its tables give days a move (settings.clock_days; 0: played live)
  const days = v.settings.clock_days || 0;
  $("t-days").hidden = !days;
  $("t-days").textContent = days ? nt("Turn-based: {n} day a move.", "Turn-based: {n} days a move.", days) : "";
  $("entrants").replaceChildren(...v.entrants.map((e) => el("li", null, entrantName(e.name, e.computer), e.withdrawn ? " " + t("(withdrawn)") : "")));
  $("standings").querySelector("tbody").replaceChildren(...standingRows(v.standings, computers, arena));
  $("final-panel").hidden = !v.final;
  if (v.final) $("final").querySelector("tbody").replaceChildren(...standingRows(v.final, computers, arena));
  $("rounds").replaceChildren(...v.pairings.map((r) => el("div", { class: "round", "data-round": r.round },
    arena ? "" : el("h3", null, t("Round {round}", { round: fmtNumber(r.round) })),
    el("ul", null, ...r.games.map((g) => el("li", { "data-game": g.id },
      entrantName(g.a, computers.has(g.a)), g.b === null ? "" : " \u2013 " + entrantName(g.b, computers.has(g.b)), " ",
      el("span", { class: "result" }, resultText(g)),
      g.table ? el("a", { class: "btn secondary", style: "margin-left:8px", href: `/table/${g.table}?watch=1` }, t("Watch")) : ""))))));
  const me = v.me;
  $("join").hidden = !me || me.entered || !(v.state === "registration" || (arena && v.state === "running"));
  $("withdraw").hidden = !me || !me.entered || me.withdrawn || v.state === "finished";
  $("play").hidden = !me || !me.table;
}

function shown(v) {
  render(v);
  finished = v.state === "finished";
  if (finished && live) live.close();
}

async function load() {
  clearTimeout(timer);
  try {
    const r = await fetch("/api/tournaments/" + encodeURIComponent(TID));
    const v = await r.json();
    if (!r.ok) throw new Error(v.error);
    shown(v);
  } catch (e) { $("error").textContent = e.message; }
  if (!finished && !live) timer = setTimeout(load, 3000);  // polling: only while the socket is closed
}

let retry = 0;
function connect() {
  if (finished) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tournament/${encodeURIComponent(TID)}?lang=${LANG}`);
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg.type !== "tournament") return;
    live = ws; retry = 0; clearTimeout(timer);
    $("error").textContent = "";
    shown(msg.view);
  };
  ws.onclose = (ev) => {
    if (live === ws) live = null;
    if (finished) return;
    load();  // polls until the socket is back
    if (ev.code !== 4404 && ev.code !== 4429) { retry = Math.min(retry + 1, 6); setTimeout(connect, 1000 * 2 ** retry); }
  };
}

async function step(what) {
  $("error").textContent = "";
  try {
    const r = await postJSON(`/api/tournaments/${encodeURIComponent(TID)}/${what}`, {});
    if (what === "seat") { location.href = r.link; return; }
    if (!live) load();  // the socket pushes the change itself
  } catch (e) { $("error").textContent = e.message; }
}

mountTopbar("/tournaments");
$("join").addEventListener("click", () => step("join"));
$("withdraw").addEventListener("click", () => step("withdraw"));
$("play").addEventListener("click", () => step("seat"));
load();
connect();
