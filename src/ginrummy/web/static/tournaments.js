// The tournaments page: GET /api/tournaments (to come, in progress, finished) and the create
// form (POST /api/tournaments, docs/protocol.md "Tournaments"). Names are text nodes only.
"use strict";

const $ = (id) => document.getElementById(id);

function fmtWhen(iso) { return new Date(iso).toLocaleString(LANG, { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "2-digit" }); }

/** One tournament: when it starts, started, or finished (not its planned start once it ran). */
function tournamentItem(x) {
  const when = x.finished_at ? t("finished {time}", { time: fmtWhen(x.finished_at) })
    : x.started_at ? t("started {time}", { time: fmtWhen(x.started_at) }) : t("starts {time}", { time: fmtWhen(x.start) });
  return el("li", { "data-id": x.id }, el("a", { href: "/tournaments/" + encodeURIComponent(x.id) }, x.name),
    " ", el("span", { class: "hint" }, when));
}

async function loadList() {
  const data = await (await fetch("/api/tournaments")).json();
  for (const key of ["upcoming", "running", "finished"]) {
    const items = data[key].map(tournamentItem);
    $(key).replaceChildren(...(items.length ? items : [el("li", { class: "hint" }, t("None."))]));
  }
}

async function loadLevels() {
  const opts = await (await fetch("/api/options")).json();
  $("t-levels").replaceChildren(...opts.levels.map((level) => el("label", { style: "margin-right:8px" },
    el("input", { type: "checkbox", value: level, name: "level" }), " ", levelName(level))));
}

async function create(ev) {
  ev.preventDefault();
  $("error").textContent = "";
  const start = new Date($("t-start").value);
  const body = {
    name: $("t-name").value.trim(),
    kind: $("t-kind").value,
    minutes: Number($("t-minutes").value),
    start: isNaN(start) ? "" : start.toISOString(),
    rounds: Number($("t-rounds").value),
    scoring: $("t-scoring").value,
    clock_move: Number($("t-clock").value),
    clock_days: $("t-kind").value === "arena" ? 0 : Number($("t-days").value),  // a turn-based Swiss
    levels: [...document.querySelectorAll('input[name="level"]:checked')].map((i) => i.value),
    rated: $("t-rated").checked,
  };
  try {
    const r = await postJSON("/api/tournaments", body);
    location.href = "/tournaments/" + encodeURIComponent(r.id);
  } catch (e) { $("error").textContent = e.message; }
}

mountTopbar("/tournaments");
$("create").addEventListener("submit", create);
$("t-kind").addEventListener("change", () => {
  const arena = $("t-kind").value === "arena";
  $("t-minutes-row").hidden = !arena;
  $("t-rounds-row").hidden = arena;
  $("t-days-row").hidden = arena;  // an arena is played live
});
const soon = new Date(Date.now() + 10 * 60000);
soon.setSeconds(0, 0);
$("t-start").value = new Date(soon.getTime() - soon.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
fetch("/api/me").then((r) => r.json()).then((me) => { $("sign-in-hint").hidden = !!(me && me.signed_in); }).catch(() => {});
loadLevels().catch((e) => { $("error").textContent = e.message; });
loadList().catch((e) => { $("error").textContent = e.message; });
