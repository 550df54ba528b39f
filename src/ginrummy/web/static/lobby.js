// The lobby: choose the rules (RULES.md R13, R14) and the seats, open a table.
"use strict";

const LABELS = {
  variant: t("Variant"), knock_limit: t("Knock limit (points)"), oklahoma_ace: t("Oklahoma ace upcard"),
  spade_doubles: t("Oklahoma: spade upcard doubles"), gin_bonus: t("Gin bonus"), big_gin_bonus: t("Big gin bonus"),
  undercut_bonus: t("Undercut bonus"), discard_taken_card: t("May discard the card just taken"),
  stock_end: t("End of the stock"), max_reshuffles: t("Reshuffles allowed"), scoring: t("Scoring"), target: t("Target"),
  game_bonus: t("Game bonus"), shutout_doubles: t("Shutout doubles the game bonus"), box_bonus: t("Box bonus (per deal won)"),
  hollywood_late_entry: t("Hollywood: win with every credited game finished"), next_dealer: t("Next dealer"),
};
const CHOICE_LABELS = {
  standard: pt("variant", "standard"), straight: pt("variant", "Straight"), oklahoma: pt("variant", "Oklahoma"),
  gin: t("must go gin"), one: t("knock limit 1"),
  draw_at_two: t("draw with two left"), wall: t("wall (last discard)"), reshuffle: t("reshuffle the pile"),
  deal: t("one deal"), game: t("one game"), hollywood: pt("scoring", "Hollywood"), nowhere: t("is written nowhere"),
  next_open: t("goes to the next open game"), winner: t("winner deals"), alternate: t("alternate"),
};
const VARIANT_HINT = {
  standard: t("Knock with 10 or fewer points of deadwood; gin scores a bonus."),
  straight: t("No knocking: only gin ends a deal (R8)."),
  oklahoma: t("The first upcard sets the knock limit; an ace means gin only; a spade doubles the deal (R9)."),
};
const PRESET_NAMES = {
  // names, so capitalised alike (issue 34: "standard" beside "Hollywood")
  standard: pt("preset", "Standard"), classic: pt("preset", "Classic"), hollywood: pt("preset", "Hollywood"),
  single: pt("preset", "Single deal"), oklahoma: pt("preset", "Oklahoma"), straight: pt("preset", "Straight"),
  eaai: pt("preset", "EAAI tournament"),
};

let OPTIONS = null;
let rules = {};

function $(id) { return document.getElementById(id); }

function quickInputs(name) { return [...document.querySelectorAll(`input[name="${name}"]`)]; }

function renderQuick() {
  for (const key of ["variant", "scoring", "stock_end"]) {
    for (const inp of quickInputs(key)) inp.checked = inp.value === rules[key];
  }
  for (const inp of quickInputs("target")) inp.checked = Number(inp.value) === rules.target;
  $("bonuses").checked = rules.game_bonus > 0 || rules.box_bonus > 0;
  $("variant-hint").textContent = VARIANT_HINT[rules.variant];
  const three = playerCount() === 3;
  const hw = quickInputs("scoring").find(i => i.value === "hollywood");
  hw.disabled = three;
  hw.parentElement.title = three ? t("Hollywood is for two players (R10.6)") : "";
}

function renderAdvanced() {
  const box = $("adv");
  box.replaceChildren();
  for (const [key, def] of Object.entries(OPTIONS.fields)) {
    if (key === "players") continue;
    const id = `adv-${key}`;
    const code = el("span", { class: "rulecode" }, ` ${OPTIONS.field_rules[key] || ""}`);
    let input;
    if (OPTIONS.choices[key]) {
      input = el("select", { id, "data-key": key },
        ...OPTIONS.choices[key].map(v => el("option", { value: v, selected: rules[key] === v }, CHOICE_LABELS[v] || v)));
      input.addEventListener("change", () => { rules[key] = input.value; sync(); });
      box.append(el("div", { class: "field" }, el("label", { for: id }, LABELS[key] || key, code), input));
    } else if (typeof def === "boolean") {
      input = el("input", { type: "checkbox", id, "data-key": key });
      input.checked = !!rules[key];
      input.addEventListener("change", () => { rules[key] = input.checked; sync(); });
      box.append(el("div", { class: "field" }, el("label", { for: id }, input, " ", LABELS[key] || key, code)));
    } else if (key === "big_gin_bonus") {
      const on = el("input", { type: "checkbox", id: "adv-big-gin-on" });
      on.checked = rules.big_gin_bonus !== null;
      input = el("input", { type: "number", id, min: 0, value: rules.big_gin_bonus ?? 31, disabled: rules.big_gin_bonus === null, "data-key": key });
      on.addEventListener("change", () => { rules.big_gin_bonus = on.checked ? Number(input.value || 31) : null; sync(); });
      input.addEventListener("change", () => { rules.big_gin_bonus = Number(input.value); });
      box.append(el("div", { class: "field" }, el("label", { for: "adv-big-gin-on" }, on, " ", t("Play big gin (R6.5)"), code), input));
    } else {
      input = el("input", { type: "number", id, min: key === "target" ? 1 : 0, max: key === "knock_limit" ? 10 : null, value: rules[key], "data-key": key });
      input.addEventListener("change", () => { rules[key] = Math.max(0, Math.floor(Number(input.value) || 0)); sync(); });
      box.append(el("div", { class: "field" }, el("label", { for: id }, LABELS[key] || key, code), input));
    }
  }
}

function playerCount() { return Number(quickInputs("players").find(i => i.checked).value); }

function seatRow(i, kindDefault) {
  const kind = el("select", { id: `seat${i}-kind`, "aria-label": t("Seat {n}: who plays", { n: i + 1 }) },
    el("option", { value: "bot", selected: kindDefault === "bot" }, t("Computer")),
    el("option", { value: "human", selected: kindDefault === "human" }, t("Friend (invite link)")));
  const level = el("select", { id: `seat${i}-level`, "aria-label": t("Seat {n}: computer level", { n: i + 1 }) },
    ...OPTIONS.levels.map(l => el("option", { value: l, selected: l === "novice" }, levelName(l))));
  const name = el("input", { type: "text", id: `seat${i}-name`, maxlength: 24, placeholder: t("name (optional)"), "aria-label": t("Seat {n}: name", { n: i + 1 }) });
  const update = () => { level.hidden = kind.value !== "bot"; };
  kind.addEventListener("change", update);
  update();
  return el("div", { class: "seat-row" }, el("b", null, i === 1 ? t("Opponent") : t("Third player")),
    el("div", { class: "row" }, kind, level), name);
}

function renderSeats() {
  const box = $("seats");
  const n = playerCount();
  const have = box.querySelectorAll(".seat-row").length;
  if (have === n - 1) return;
  box.replaceChildren();
  for (let i = 1; i < n; i++) box.append(seatRow(i, "bot"));
  $("three-hint").hidden = n !== 3;
}

function sync() {
  if (playerCount() === 3 && rules.scoring === "hollywood") rules.scoring = "game";
  renderQuick();
  renderAdvanced();
  renderSeats();
}

function loadPreset(name) {
  const p = OPTIONS.presets[name];
  rules = Object.fromEntries(Object.entries(p).filter(([k]) => k !== "name" && k !== "players"));
  sync();
}

function recentTables() { return SETTINGS.get("tables", []); }

function recentRules(x) {
  if (!x.variant) return x.rules || "";
  return `${CHOICE_LABELS[x.variant] || x.variant}, ${CHOICE_LABELS[x.scoring] || x.scoring}`;
}

function renderRecent() {
  const list = recentTables();
  $("recent").hidden = list.length === 0;
  $("recent-list").replaceChildren(...list.slice(0, 8).map(x =>
    el("li", null, el("a", { href: x.link }, x.names.join(" \u2013 ")),
      el("span", { class: "hint" }, " \u2013 " + t("{rules}, opened {date}", { rules: recentRules(x), date: new Date(x.opened || Date.now()).toLocaleString(LANG) })))));
}

async function submit(ev) {
  ev.preventDefault();
  $("error").textContent = "";
  const n = playerCount();
  const seats = [{ kind: "human", name: $("your-name").value.trim() }];
  for (let i = 1; i < n; i++) {
    seats.push({ kind: $(`seat${i}-kind`).value, level: $(`seat${i}-level`).value, name: $(`seat${i}-name`).value.trim() });
  }
  // a signed-in person sits under his account's name (the server insists at a rated table)
  if (!seats[0].name && window.SIGNED_IN_AS) seats[0].name = window.SIGNED_IN_AS;
  // no name: the server names the seat "Player 1" (a name that reads right in "{name} knocks")
  SETTINGS.set("name", $("your-name").value.trim());
  const body = { preset: $("preset").value, rules: { ...rules }, seats, public: $("public").checked, rated: $("rated").checked,
                 spectator_chat: $("public").checked && $("spectator-chat").checked };
  if ($("clock").value.startsWith("d")) body.clock = { days: Number($("clock").value.slice(1)) };  // turn-based
  else if ($("clock").value) {
    const [move, bank] = $("clock").value.split("/").map(Number);
    body.clock = { move, bank };
  }
  $("open").disabled = true;
  try {
    const tab = await postJSON("/api/tables", body);
    const mine = tab.seats[0].link;
    const list = recentTables().filter(x => x.id !== tab.id);
    list.unshift({ id: tab.id, link: mine, names: tab.seats.map(s => s.name), variant: rules.variant, scoring: rules.scoring,
                   opened: Date.now(), invites: tab.seats.filter(s => s.invite).map(s => ({ name: s.name, link: s.invite })) });
    SETTINGS.set("tables", list.slice(0, 20));
    // a friend's seat has a one-time invite link: whoever opens it first gets the seat (and a
    // token of his own); this page never holds anyone else's token
    const friends = tab.seats.filter(s => s.invite);
    if (friends.length === 0) { location.href = mine; return; }
    // every link in full (they wrap), the player's own one too: it is how he comes back to his seat
    $("links").replaceChildren(...friends.map(s => linkBox(t("Link for {name}", { name: s.name }), s.invite, s.name)),
      linkBox(t("Your own link ({name}): keep it to come back to your seat", { name: tab.seats[0].name }), mine, tab.seats[0].name));
    $("go").href = mine;
    $("lobby").hidden = true;
    $("ready").hidden = false;
  } catch (e) {
    $("error").textContent = e.message;
  } finally {
    $("open").disabled = false;
  }
}

async function init() {
  mountTopbar("/");
  $("public").addEventListener("change", () => { $("spectator-chat-row").hidden = !$("public").checked; });
  OPTIONS = await (await fetch("/api/options")).json();
  const sel = $("preset");
  for (const name of Object.keys(OPTIONS.presets)) sel.append(el("option", { value: name }, PRESET_NAMES[name] || name));
  sel.value = "standard";
  sel.addEventListener("change", () => loadPreset(sel.value));
  for (const key of ["variant", "scoring", "stock_end"]) {
    for (const inp of quickInputs(key)) inp.addEventListener("change", () => {
      const was = rules.scoring;
      rules[key] = inp.value;
      if (key === "scoring" && (inp.value === "deal") !== (was === "deal")) {
        // one deal has no game to end, so no end-of-game bonuses, as in the single preset (R13);
        // leaving it brings the usual ones back (R11.3); either can be changed by hand
        const on = inp.value !== "deal";
        $("bonuses").checked = on;
        rules.game_bonus = on ? 100 : 0; rules.box_bonus = on ? 25 : 0;
      }
      sync();
    });
  }
  for (const inp of quickInputs("target")) inp.addEventListener("change", () => { rules.target = Number(inp.value); sync(); });
  for (const inp of quickInputs("players")) inp.addEventListener("change", sync);
  $("bonuses").addEventListener("change", () => {
    const on = $("bonuses").checked;
    rules.game_bonus = on ? 100 : 0; rules.box_bonus = on ? 25 : 0; sync();
  });
  // the name used last time, unless the person has typed one while the page was loading
  if (!$("your-name").value) $("your-name").value = SETTINGS.get("name", "");
  // what a seat nobody named is called (TableManager.create)
  $("your-name").placeholder = t("Player {n}", { n: fmtNumber(1) });
  $("lobby").addEventListener("submit", submit);
  loadPreset("standard");
  renderRecent();
}

init();
