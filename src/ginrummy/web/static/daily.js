// The daily deal (docs/compete.md): today's set, the person's deals, how others played one,
// the daily and monthly standings. Names are text nodes only.
"use strict";

const $ = (id) => document.getElementById(id);
let info = null;
let monthly = false;

function fail(e) { $("error").textContent = e.message; }

function level() { return $("level").value || "club"; }

async function play(number) {
  try {
    const r = await postJSON(`/api/daily/${info.today.day}/${number}`, { level: level() });
    // the seat link is shown once: kept in this browser, the page leads back to an unfinished deal
    const where = new URL(r.link, location.href);
    try { localStorage.setItem(`gin.daily.${info.today.day}.${number}`, where.pathname + where.search); } catch (e) { /* private mode */ }
    location.href = r.link;
  } catch (e) { fail(e); }
}

function resultText(score) { return score > 0 ? "+" + fmtNumber(score) : fmtNumber(score); }

async function showOthers(number) {
  try {
    const r = await getJSON(`/api/daily/${info.today.day}/${number}/others`);
    // the games themselves (replay, record) only once the day is over: before, they would show
    // the deal's cards to whoever has not played it yet
    const part = (label, e) => el("div", { class: "daily-other" },
      el("h3", null, label + ": " + e.player + " " + resultText(e.score)),
      e.replay ? el("p", null, el("a", { href: e.replay }, t("Replay")))
        : el("p", { class: "hint" }, t("The games of this deal can be replayed once the day is over (at midnight UTC).")),
      e.record ? el("pre", { class: "record" }, e.record) : "");
    $("others-body").replaceChildren(el("p", { class: "hint" }, t("Deal {number}", { number: String(number) })),
      part(t("Best result"), r.best), part(t("Median result"), r.median));
    $("others").hidden = false;
  } catch (e) { fail(e); }
}

function dealRow(k) {
  const mine = info.mine.find((e) => e.number === k);
  let action;
  if (!mine) {
    action = el("button", { class: "btn", type: "button", "data-deal": String(k), disabled: info.signed_in ? null : "" },
      t("Play deal {number}", { number: String(k) }));
    action.addEventListener("click", () => play(k));
  } else if (mine.score === null) {
    let link = null;
    try { link = localStorage.getItem(`gin.daily.${info.today.day}.${k}`); } catch (e) { /* private mode */ }
    action = link && link.startsWith("/table/")
      ? el("a", { class: "btn", href: link, "data-resume": String(k) }, t("Back to the table"))
      : el("span", { class: "hint" }, t("Started"));
  } else {
    action = el("button", { class: "btn secondary", type: "button", "data-others": String(k) }, t("How others played it"));
    action.addEventListener("click", () => showOthers(k));
  }
  return el("tr", { "data-number": String(k) }, el("td", { class: "num" }, fmtNumber(k)),
    el("td", { class: "num result" }, mine && mine.score !== null ? resultText(mine.score) : ""), el("td", null, action));
}

async function standings() {
  try {
    const url = monthly ? `/api/daily/month/${info.today.day.slice(0, 7)}/table?level=${level()}`
      : `/api/daily/${info.today.day}/table?level=${level()}`;
    const r = await getJSON(url);
    const body = $("standings").querySelector("tbody");
    body.replaceChildren(...r.rows.map((row) => el("tr", { "data-name": row.player },
      el("td", { class: "num" }, fmtNumber(row.rank)), el("td", null, row.player),
      el("td", { class: "num score" }, fmtNumber(row.score)), el("td", { class: "num" }, fmtNumber(row.deals)))));
    if (!r.rows.length) body.append(el("tr", null, el("td", { colspan: 4, class: "hint" }, t("No result yet."))));
  } catch (e) { fail(e); }
}

async function load() {
  $("error").textContent = "";
  try {
    info = await getJSON("/api/daily");
    $("commitment").textContent = info.today.commitment;
    $("tomorrow").textContent = info.tomorrow.commitment;
    const chosen = info.mine.length ? info.mine[0].level : "club";
    $("level").replaceChildren(...info.today.levels.map((l) => el("option", { value: l }, levelName(l))));
    $("level").value = chosen;
    $("level").disabled = info.mine.length > 0;
    $("sign-in-first").hidden = info.signed_in;
    $("deals").querySelector("tbody").replaceChildren(...info.today.deal_commitments.map((_, i) => dealRow(i + 1)));
    await standings();
  } catch (e) { fail(e); }
}

mountTopbar("/daily");
$("show-day").addEventListener("click", () => { monthly = false; standings(); });
$("show-month").addEventListener("click", () => { monthly = true; standings(); });
$("level").addEventListener("change", standings);
load();
