// Shared front-end helpers: card rendering, display settings, small DOM helpers.
// Cards are text codes as in RULES.md R1.4: rank A 2-9 T J Q K, suit C D H S ("7H", "TD").
"use strict";

const SUIT_SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANKS = "A23456789TJQK";
const RANK_NAME = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

function rankLabel(r) { return r === "T" ? "10" : r; }
function cardValue(code) { const i = RANKS.indexOf(code[0]); return i >= 9 ? 10 : i + 1; }
function cardName(code) { return `${RANK_NAME[code[0]] || code[0]} of ${SUIT_NAME[code[1]]}`; }
function rankIndex(code) { return RANKS.indexOf(code[0]); }
function suitIndex(code) { return "CDHS".indexOf(code[1]); }
function bySuit(a, b) { return suitIndex(a) - suitIndex(b) || rankIndex(a) - rankIndex(b); }
function byRank(a, b) { return rankIndex(a) - rankIndex(b) || suitIndex(a) - suitIndex(b); }

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/** A face-up card element; opts.mini for a small one. */
function cardEl(code, opts = {}) {
  const r = code[0], s = code[1];
  const c = el("div", { class: `card s-${s}${opts.mini ? " mini" : ""}`, "data-card": code,
                        role: "img", "aria-label": cardName(code), title: opts.title || cardName(code) });
  c.append(el("div", { class: "corner" }, el("span", { class: "r", text: rankLabel(r) }), el("span", { class: "s", text: SUIT_SYMBOL[s] })));
  c.append(el("div", { class: "pip", text: SUIT_SYMBOL[s] }));
  c.append(el("div", { class: "corner br" }, el("span", { class: "r", text: rankLabel(r) }), el("span", { class: "s", text: SUIT_SYMBOL[s] })));
  return c;
}

function cardBack(opts = {}) {
  return el("div", { class: `card back${opts.mini ? " mini" : ""}`, "aria-hidden": "true" });
}

/** Inline coloured text of a card, e.g. 7♥. */
function cardText(code) {
  return el("span", { class: `ctext s-${code[1]}`, title: cardName(code) }, rankLabel(code[0]) + SUIT_SYMBOL[code[1]]);
}

/** Replace card codes in a text ("1 discard 7H") by coloured card texts. */
function withCards(text) {
  const out = [];
  const re = /\b([A2-9TJQK][CDHS])\b/g;
  let last = 0, m;
  while ((m = re.exec(text))) {
    out.push(text.slice(last, m.index), cardText(m[1]));
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out;
}

// ---- display settings (large cards, four-colour deck), kept in localStorage ----
const SETTINGS = {
  get(k, d) { try { const v = localStorage.getItem("gin." + k); return v === null ? d : JSON.parse(v); } catch (e) { return d; } },
  set(k, v) { try { localStorage.setItem("gin." + k, JSON.stringify(v)); } catch (e) { /* private mode */ } },
};

function applySettings() {
  document.body.classList.toggle("large-cards", !!SETTINGS.get("largeCards", false));
  document.body.classList.toggle("four-colour", !!SETTINGS.get("fourColour", false));
}

function settingsControls() {
  const large = el("input", { type: "checkbox", id: "opt-large" });
  const four = el("input", { type: "checkbox", id: "opt-four" });
  large.checked = !!SETTINGS.get("largeCards", false);
  four.checked = !!SETTINGS.get("fourColour", false);
  large.addEventListener("change", () => { SETTINGS.set("largeCards", large.checked); applySettings(); });
  four.addEventListener("change", () => { SETTINGS.set("fourColour", four.checked); applySettings(); });
  return [el("label", { for: "opt-large", title: "Bigger cards" }, large, "Large cards"),
          el("label", { for: "opt-four", title: "Clubs green, diamonds blue" }, four, "Four-colour deck")];
}

function topbar(current) {
  const nav = el("nav", null,
    ...[["/", "Play"], ["/rules", "Rules"], ["/tips", "Strategy tips"], ["/scorekeeper", "Scorekeeper"]].map(([href, label]) =>
      el("a", { href, "aria-current": current === href ? "page" : null }, label)));
  return el("header", { class: "topbar" },
    el("a", { class: "brand", href: "/" }, "Gin ", el("span", null, "Rummy")), nav,
    el("div", { class: "spacer" }), ...settingsControls());
}

function mountTopbar(current) {
  applySettings();
  document.body.prepend(topbar(current));
}

async function postJSON(url, data) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) });
  let body = null;
  try { body = await r.json(); } catch (e) { body = { error: `server answered ${r.status}` }; }
  if (!r.ok) throw new Error(body.error || `server answered ${r.status}`);
  return body;
}

/** Render a score sheet (ScoreSheet.to_dict) into box: one row per game, a column per player. */
function renderSheet(box, sheet) {
  const names = Object.keys(sheet.totals);
  const t = el("table", { class: "sheet" });
  t.append(el("thead", null, el("tr", null, el("th", null, sheet.scoring === "hollywood" ? "Game" : ""), ...names.map(n => el("th", null, n)))));
  const body = el("tbody");
  for (const g of sheet.games) {
    const label = sheet.scoring === "hollywood" ? `Game ${g.number}` : "Points";
    body.append(el("tr", null, el("td", null, label, g.finished ? el("span", { class: "hint" }, " (over)") : ""),
      ...names.map(n => el("td", null, String(g.points[n]), g.winner === n ? el("span", { class: "winner-mark", title: "won this game" }, " \u2605") : ""))));
    if (g.finished && names.some(n => g.bonuses[n].game || g.bonuses[n].box)) {
      body.append(el("tr", null, el("td", { class: "hint" }, "  bonuses"),
        ...names.map(n => el("td", { class: "hint", title: `game ${g.bonuses[n].game}, box ${g.bonuses[n].box}` },
          `+${g.bonuses[n].game} +${g.bonuses[n].box}`))));
    }
  }
  body.append(el("tr", { class: "total" }, el("td", null, "Total"), ...names.map(n => el("td", null, String(sheet.totals[n])))));
  t.append(body);
  box.replaceChildren(t, el("p", { class: "hint", style: "margin:4px 0 0" },
    sheet.finished ? `Finished: ${sheet.match_winner || "no winner"} wins.` : `Target ${sheet.target}. Bonuses do not count toward it.`));
}

