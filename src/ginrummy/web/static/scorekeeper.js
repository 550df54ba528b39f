// Scorekeeper for games played with real cards: POST /api/sheet (ScoreSheet, the code of `gin sheet`).
"use strict";

const $ = (id) => document.getElementById(id);
let results = SETTINGS.get("sheet.results", []);

function names() { return [$("p1").value.trim() || t("Player {n}", { n: 1 }), $("p2").value.trim() || t("Player {n}", { n: 2 })]; }

function renderWinners() {
  const box = $("winner");
  const current = box.querySelector("input:checked");
  const keep = current ? Number(current.value) : 0;
  box.replaceChildren(...names().map((n, i) => el("label", null,
    el("input", { type: "radio", name: "winner", value: i, checked: i === keep }), n)));
}

/** Score the deals (results, or candidate: results with one more deal) on the server; a list
 *  the server refuses (a deal no deal can score, R6 and docs/rules.md) is not kept.  Returns
 *  whether it was accepted. */
async function update(candidate) {
  $("error").textContent = "";
  const list = Array.isArray(candidate) ? candidate : results;
  SETTINGS.set("sheet.setup", { p1: $("p1").value, p2: $("p2").value, mode: $("mode").value, target: $("target").value, bonuses: $("bonuses").checked });
  const ns = names();
  const text = list.map(r => r === "draw" ? "draw" : `${ns[r[0]]}:${r[1]}`);
  const on = $("bonuses").checked;
  try {
    const sheet = await postJSON("/api/sheet", { preset: $("mode").value === "hollywood" ? "hollywood" : "standard", names: ns, results: text,
      rules: { target: Number($("target").value), game_bonus: on ? 100 : 0, box_bonus: on ? 25 : 0 } });
    results = list;
    SETTINGS.set("sheet.results", results);
    const shown = results.map(r => r === "draw" ? t("draw") : `${ns[r[0]]} ${fmtNumber(r[1])}`);
    $("results").textContent = shown.length ? t("Deals: {list}", { list: shown.join(", ") }) : t("No deal yet.");
    renderSheet($("sheet"), sheet);
    $("add").disabled = $("draw").disabled = sheet.finished;
    return true;
  } catch (e) {
    $("error").textContent = e.message;
    return false;
  }
}

function init() {
  mountTopbar("/scorekeeper");
  const setup = SETTINGS.get("sheet.setup", null);
  if (setup) { $("p1").value = setup.p1; $("p2").value = setup.p2; $("mode").value = setup.mode; $("target").value = setup.target; $("bonuses").checked = setup.bonuses; }
  else { $("p1").value = t("Alexandra"); $("p2").value = t("Bob"); }  // the example players, named in the page's language
  renderWinners();
  for (const id of ["p1", "p2"]) $(id).addEventListener("input", () => { renderWinners(); update(); });
  for (const id of ["mode", "target", "bonuses"]) $(id).addEventListener("change", () => update());
  $("add").addEventListener("click", () => {
    const w = Number(document.querySelector("#winner input:checked").value);
    const p = Number($("points").value);
    if (!Number.isSafeInteger(p) || p < 0 || $("points").value === "") { $("error").textContent = t("Enter the points the winner scored (a whole number)."); return; }
    update([...results, [w, p]]).then(ok => { if (ok) $("points").value = ""; });
  });
  $("points").addEventListener("keydown", (ev) => { if (ev.key === "Enter") $("add").click(); });
  $("draw").addEventListener("click", () => { update([...results, "draw"]); });
  $("undo").addEventListener("click", () => { update(results.slice(0, -1)); });
  $("clear").addEventListener("click", () => { update([]); });
  update();
}

init();
