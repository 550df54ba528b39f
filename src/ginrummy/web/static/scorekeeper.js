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

async function update() {
  $("error").textContent = "";
  SETTINGS.set("sheet.results", results);
  SETTINGS.set("sheet.setup", { p1: $("p1").value, p2: $("p2").value, mode: $("mode").value, target: $("target").value, bonuses: $("bonuses").checked });
  const ns = names();
  const text = results.map(r => r === "draw" ? "draw" : `${ns[r[0]]}:${r[1]}`);
  const shown = results.map(r => r === "draw" ? t("draw") : `${ns[r[0]]} ${fmtNumber(r[1])}`);
  $("results").textContent = shown.length ? t("Deals: {list}", { list: shown.join(", ") }) : t("No deal yet.");
  const on = $("bonuses").checked;
  try {
    const sheet = await postJSON("/api/sheet", { preset: $("mode").value === "hollywood" ? "hollywood" : "standard", names: ns, results: text,
      rules: { target: Number($("target").value), game_bonus: on ? 100 : 0, box_bonus: on ? 25 : 0 } });
    renderSheet($("sheet"), sheet);
    $("add").disabled = $("draw").disabled = sheet.finished;
  } catch (e) {
    $("error").textContent = e.message;
  }
}

function init() {
  mountTopbar("/scorekeeper");
  const setup = SETTINGS.get("sheet.setup", null);
  if (setup) { $("p1").value = setup.p1; $("p2").value = setup.p2; $("mode").value = setup.mode; $("target").value = setup.target; $("bonuses").checked = setup.bonuses; }
  else { $("p1").value = t("Alexandra"); $("p2").value = t("Bob"); }  // the example players, named in the page's language
  renderWinners();
  for (const id of ["p1", "p2"]) $(id).addEventListener("input", () => { renderWinners(); update(); });
  for (const id of ["mode", "target", "bonuses"]) $(id).addEventListener("change", update);
  $("add").addEventListener("click", () => {
    const w = Number(document.querySelector("#winner input:checked").value);
    const p = Number($("points").value);
    if (!Number.isInteger(p) || p < 0 || $("points").value === "") { $("error").textContent = t("Enter the points the winner scored (a whole number, 0 or more)."); return; }
    results.push([w, p]); $("points").value = ""; update();
  });
  $("points").addEventListener("keydown", (ev) => { if (ev.key === "Enter") $("add").click(); });
  $("draw").addEventListener("click", () => { results.push("draw"); update(); });
  $("undo").addEventListener("click", () => { results.pop(); update(); });
  $("clear").addEventListener("click", () => { results = []; update(); });
  update();
}

init();
