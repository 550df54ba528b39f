// A tournament's page: GET /api/tournaments/ID every few seconds (live standings, the pairings
// of each round with their tables to watch, the final table); enter, withdraw, go to your
// table (docs/protocol.md "Tournaments"). Names are text nodes only.
"use strict";

const $ = (id) => document.getElementById(id);
const TID = decodeURIComponent(location.pathname.split("/").pop());
const STATES = () => ({ created: t("Not open yet"), registration: t("Open for entries"), running: t("In progress"), finished: t("Finished") });
let timer = null;

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

function render(v) {
  const computers = new Set(v.entrants.filter((e) => e.computer).map((e) => e.name));
  $("t-name").textContent = v.settings.name;
  const arena = v.settings.kind === "arena";
  const start = new Date(v.settings.start).toLocaleString(LANG);
  $("t-info").textContent = arena
    ? t("{state}; an arena of {minutes} minutes; starts {start}", { state: STATES()[v.state], minutes: fmtNumber(v.settings.minutes), start })
    : t("{state}; round {round} of {rounds}; starts {start}", { state: STATES()[v.state], round: fmtNumber(v.round), rounds: fmtNumber(v.rounds), start });
  // a turn-based Swiss: its tables give days a move (settings.clock_days; 0: played live)
  const days = v.settings.clock_days || 0;
  $("t-days").hidden = !days;
  $("t-days").textContent = days ? nt("Turn-based: {n} day a move.", "Turn-based: {n} days a move.", days) : "";
  if (arena) {
    $("standings").querySelector("thead").replaceChildren(el("tr", null, el("th", { class: "num" }, "#"), el("th", null, t("Player")),
      el("th", { class: "num" }, t("Points")), el("th", { class: "num" }, t("Games")), el("th", { class: "num" }, t("Wins"))));
  }
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

async function load() {
  try {
    const r = await fetch("/api/tournaments/" + encodeURIComponent(TID));
    const v = await r.json();
    if (!r.ok) throw new Error(v.error);
    render(v);
    if (v.state !== "finished") timer = setTimeout(load, 3000);
  } catch (e) { $("error").textContent = e.message; }
}

async function step(what) {
  $("error").textContent = "";
  try {
    const r = await postJSON(`/api/tournaments/${encodeURIComponent(TID)}/${what}`, {});
    if (what === "seat") { location.href = r.link; return; }
    clearTimeout(timer);
    load();
  } catch (e) { $("error").textContent = e.message; }
}

mountTopbar("/tournaments");
$("join").addEventListener("click", () => step("join"));
$("withdraw").addEventListener("click", () => step("withdraw"));
$("play").addEventListener("click", () => step("seat"));
load();
