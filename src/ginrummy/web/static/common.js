// Shared front-end helpers: translations, card rendering, display settings, small DOM helpers.
// Cards are text codes as in RULES.md R1.4: rank A 2-9 T J Q K, suit C D H S ("7H", "TD").
"use strict";

// ---- translations (docs/i18n.md, "Web") ----
// window.GIN_I18N is the catalog of the page's language, loaded by /api/i18n.js before this file
// (ginrummy.web.i18n_web.web_catalog): {lang, languages, plural_forms, messages}.
// t("text {name}", {name}) translates and fills placeholders (numbers in the language's format);
// nt(singular, plural, n, params) picks the plural form; pt(context, text, params) has a context;
// tm(...)/ptm(context, ...) are t()/pt() for a string of the terminal table's "messages" domain
// (not extracted again).
const I18N = window.GIN_I18N || { lang: "en", name: "English", languages: { en: "English" },
                                  plural_forms: "nplurals=2; plural=(n != 1);", messages: {} };
const LANG = I18N.lang;
/** The languages that write every noun with a capital (ginrummy.i18n.NOUNS_CAPITALIZED). */
const NOUNS_CAPITALIZED = new Set(["de"]);
const NUMBER = new Intl.NumberFormat(LANG);
/** A gettext plural expression of n as a function, parsed here rather than eval'd (the pages'
 *  Content-Security-Policy forbids eval): integers, n, ( ), !, %, < <= > >=, == !=, &&, ||, ?:
 *  with C's precedence.  null for anything else. */
function pluralRule(expr) {
  const toks = expr.match(/\d+|n|&&|\|\||[=!<>]=|[()?:%<>!]/g) || [];
  if (toks.join("") !== expr.replace(/\s+/g, "")) return null;
  let i = 0;
  const b = (f) => (x, y) => (n) => (f(x(n), y(n)) ? 1 : 0);
  const OPS = { "||": b((x, y) => x || y), "&&": b((x, y) => x && y), "==": b((x, y) => x === y), "!=": b((x, y) => x !== y),
                "<": b((x, y) => x < y), "<=": b((x, y) => x <= y), ">": b((x, y) => x > y), ">=": b((x, y) => x >= y),
                "%": (x, y) => (n) => x(n) % y(n) };
  const LEVELS = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["%"]];
  function unary() {
    const tk = toks[i++];
    if (tk === "!") { const a = unary(); return (n) => (a(n) ? 0 : 1); }
    if (tk === "(") { const e = ternary(); if (toks[i++] !== ")") throw new Error(")"); return e; }
    if (tk === "n") return (n) => n;
    if (/^\d+$/.test(tk || "")) { const v = Number(tk); return () => v; }
    throw new Error("plural");
  }
  function binary(level) {
    if (level === LEVELS.length) return unary();
    let left = binary(level + 1);
    while (LEVELS[level].includes(toks[i])) { const op = toks[i++]; left = OPS[op](left, binary(level + 1)); }
    return left;
  }
  function ternary() {
    const c = binary(0);
    if (toks[i] !== "?") return c;
    i++;
    const a = ternary();
    if (toks[i++] !== ":") throw new Error(":");
    const z = ternary();
    return (n) => (c(n) ? a(n) : z(n));
  }
  try { const f = ternary(); return i === toks.length ? f : null; } catch (e) { return null; }
}
const PLURAL = (() => {
  const m = /plural\s*=\s*([^;]+)/.exec(I18N.plural_forms || "");
  return pluralRule(m ? m[1] : "n != 1") || ((n) => (n !== 1 ? 1 : 0));
})();

function fmtNumber(n) { return NUMBER.format(n); }
/** A rating as every page shows it (the leaderboard, a player's page, a rated table's rating
 *  line): a ``tag`` element with ``attrs``, the number in the page's format, and after a
 *  provisional one a "?" explained by the title "provisional rating" (lichess's convention). */
function ratingEl(tag, attrs, rating, provisional) {
  return el(tag, { ...attrs, title: provisional ? t("provisional rating") : (attrs || {}).title || null }, fmtNumber(rating) + (provisional ? "?" : ""));
}

function fillText(text, params) {
  return text.replace(/\{(\w+)\}/g, (all, k) => {
    if (!params || !(k in params)) return all;
    const v = params[k];
    return typeof v === "number" ? fmtNumber(v) : String(v);
  });
}

function lookup(key) {
  const v = I18N.messages[key];
  if (typeof v === "string" && v) return v;
  if (Array.isArray(v) && v[0]) return v[0];
  return null;
}

function t(msgid, params) { return fillText(lookup(msgid) || msgid, params); }
function tm(msgid, params) { return t(msgid, params); }
function ptm(context, msgid, params) { return pt(context, msgid, params); }
function pt(context, msgid, params) { return fillText(lookup(context + "\u0004" + msgid) || msgid, params); }
function nt(singular, plural, n, params) {
  const v = I18N.messages[singular];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(v)) { const f = v[PLURAL(n)]; if (f) text = f; }
  return fillText(text, Object.assign({ n }, params));
}

/** A translated text as DOM nodes: placeholders whose value is a Node (a card) become that node. */
function tNodes(translated, params) {
  const out = [];
  const re = /\{(\w+)\}/g;
  let last = 0, m;
  while ((m = re.exec(translated))) {
    const v = params ? params[m[1]] : undefined;
    if (v instanceof Node) { out.push(translated.slice(last, m.index), v); last = m.index + m[0].length; }
  }
  out.push(translated.slice(last));
  const textParams = {};
  for (const [k, v] of Object.entries(params || {})) if (!(v instanceof Node)) textParams[k] = v;
  return out.map(x => (typeof x === "string" ? fillText(x, textParams) : x)).filter(x => x !== "");
}
function tEl(msgid, params) { return tNodes(lookup(msgid) || msgid, params); }

const LANG_COOKIE = "gin_lang";
function setLanguage(code) {
  try { localStorage.setItem("gin.lang", JSON.stringify(code)); } catch (e) { /* private mode */ }
  document.cookie = `${LANG_COOKIE}=${code}; path=/; max-age=31536000; SameSite=Lax`;
  // the page itself is translated by the server: load it again in the new language
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  location.replace(url.toString());
}

/** A page opened with ?lang= (a link in that language) keeps it on the pages it leads to, as the
 * language menu does. */
(function languageFromLink() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (!asked || asked !== LANG || !I18N.languages[asked]) return;
  try { localStorage.setItem("gin.lang", JSON.stringify(asked)); } catch (e) { /* private mode */ }
  document.cookie = `${LANG_COOKIE}=${asked}; path=/; max-age=31536000; SameSite=Lax`;
})();

/** A language chosen on an earlier visit wins over Accept-Language even if the cookie is gone. */
(function rememberedLanguage() {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem("gin.lang")); } catch (e) { saved = null; }
  const hasCookie = document.cookie.split(";").some(c => c.trim().startsWith(LANG_COOKIE + "="));
  if (saved && !hasCookie && I18N.languages[saved]) {
    document.cookie = `${LANG_COOKIE}=${saved}; path=/; max-age=31536000; SameSite=Lax`;
    const stored = document.cookie.split(";").some(c => c.trim().startsWith(LANG_COOKIE + "="));
    // reload only once the cookie is there (no reload loop where cookies are blocked)
    if (stored && saved !== LANG && !new URLSearchParams(location.search).get("lang")) location.reload();
  }
})();

function languageSwitcher() {
  const sel = el("select", { id: "lang", "aria-label": t("Language"), title: t("Language") },
    ...Object.entries(I18N.languages).map(([code, name]) => el("option", { value: code, lang: code, selected: code === LANG }, name)));
  sel.addEventListener("change", () => {
    // a keyboard's arrow key changes the language at once and the page loads again: the menu is
    // opened and focused again on the new page (mountTopbar), so the next arrow key goes on
    try { sessionStorage.setItem("gin.langFocus", "1"); } catch (e) { /* private mode */ }
    setLanguage(sel.value);
  });
  return sel;
}

// ---- names the table made ("You", "Player 2", "Computer (novice)") in the reader's language ----
// A table's names are fixed in its opener's language; GIN_I18N.seat_names has the forms of every
// language (ginrummy.web.i18n_web.seat_name_forms), so such a name is shown in this page's one.
// A name a person typed is never changed.
function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

/** seat: {name, kind: "human"|"computer", level}; mine: it is the reader's own seat. */
function localSeatName(seat, mine) {
  const forms = I18N.seat_names;
  if (!forms || !forms[LANG]) return seat.name;
  const here = forms[LANG];
  for (const f of Object.values(forms)) {
    // a repeated name gets " 2", " 3" (TableManager.create): keep that suffix
    const rest = (form) => { const m = new RegExp("^" + escapeRe(form) + "((?: \\d+)?)$").exec(seat.name); return m ? m[1] : null; };
    if (seat.kind === "computer" && f.computer && f.computer[seat.level] && here.computer[seat.level]) {
      const r = rest(f.computer[seat.level]);
      if (r !== null) return here.computer[seat.level] + r;
    }
    if (seat.kind === "human") {
      if (mine) { const r = rest(f.you); if (r !== null) return here.you + r; }
      const m = new RegExp("^" + escapeRe(f.player).replace("\\{n\\}", "(\\d+)") + "((?: \\d+)?)$").exec(seat.name);
      if (m) return here.player.replace("{n}", fmtNumber(Number(m[1]))) + m[2];
    }
  }
  return seat.name;
}

/** A copy of obj with every string equal to a key of names, and every such object key, renamed. */
function renameDeep(obj, names) {
  if (typeof obj === "string") return Object.prototype.hasOwnProperty.call(names, obj) ? names[obj] : obj;
  if (Array.isArray(obj)) return obj.map(x => renameDeep(x, names));
  if (obj && typeof obj === "object") {
    const out = {};
    for (const [k, v] of Object.entries(obj)) out[Object.prototype.hasOwnProperty.call(names, k) ? names[k] : k] = renameDeep(v, names);
    return out;
  }
  return obj;
}

const SUIT_SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANKS = "A23456789TJQK";

/** A seat link shown in full (it wraps; click selects it all) with a Copy button:
 *  <div class="field link-box"><b>label</b><div class="row"><div class="link-text" data-name>link</div><button>Copy</button></div></div> */
function linkBox(label, link, name) {
  const text = el("div", { class: "link-text mono", "data-name": name, tabindex: 0, "aria-label": label }, link);
  const copy = el("button", { class: "btn secondary", type: "button", onclick: () => {
    const range = document.createRange();
    range.selectNodeContents(text);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    const done = () => { copy.textContent = t("Copied"); };
    if (navigator.clipboard) navigator.clipboard.writeText(link).then(done, () => { if (document.execCommand("copy")) done(); });
    else if (document.execCommand("copy")) done();
  } }, t("Copy"));
  return el("div", { class: "field link-box" }, el("b", null, label), el("div", { class: "row link-row" }, text, copy));
}

function rankLabel(r) { return r === "T" ? "10" : r; }
function cardValue(code) { const i = RANKS.indexOf(code[0]); return i >= 9 ? 10 : i + 1; }
function cardName(code) {
  // the terminal table's card names (messages domain)
  const suit = { C: ptm("suit", "clubs"), D: ptm("suit", "diamonds"), H: ptm("suit", "hearts"), S: ptm("suit", "spades") }[code[1]];
  const rank = { A: ptm("rank", "ace"), T: "10", J: ptm("rank", "jack"), Q: ptm("rank", "queen"), K: ptm("rank", "king") }[code[0]] || code[0];
  return ptm("card name", "{rank} of {suit}", { rank, suit });
}
/** A computer level's name ("novice"), from the terminal table's level names. */
function levelName(level) {
  const names = { random: ptm("level", "Random"), novice: ptm("level", "Novice"), club: ptm("level", "Club"), expert: ptm("level", "Expert"), master: ptm("level", "Master"),
                  ismcts: ptm("level", "Information-set search"), "openspiel-simple": ptm("level", "OpenSpiel simple bot") };
  const name = names[level];
  if (!name) return level;
  // "novice" in running text; a name with a proper noun inside ("OpenSpiel") keeps its capitals,
  // and so do the languages that capitalize every noun (i18n.NOUNS_CAPITALIZED: German "Anfänger")
  return /\p{Lu}/u.test(name.slice(1)) || NOUNS_CAPITALIZED.has(LANG) ? name : name.toLocaleLowerCase(LANG);
}
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
  return [el("label", { for: "opt-large", title: t("Bigger cards") }, large, t("Large cards")),
          el("label", { for: "opt-four", title: t("Clubs green, diamonds blue") }, four, t("Four-colour deck"))];
}

/** A popup ``box`` (its class "open" while open) that ``button`` toggles by ``show(open)``, and
 *  that Escape (the focus back on the button) or a click outside it closes. */
function openedBy(button, box, show) {
  button.addEventListener("click", () => show(!box.classList.contains("open")));
  document.addEventListener("click", (e) => { if (!box.contains(e.target)) show(false); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && box.classList.contains("open")) { show(false); button.focus(); }
  });
}

/** The top bar's account link ``a`` for ``me`` (GET /api/me): the name signed in (the whole of
 *  it in the title: the bar may cut it), else "Sign in". */
function showAccountLink(a, me) {
  const signed = !!(me && me.signed_in);
  a.textContent = signed ? me.name : t("Sign in");
  a.title = signed ? me.name + " \u00b7 " + t("Your account") : "";
}

/** The card settings and the language behind one Settings button: on a wide screen a panel that
 *  opens below the button (the bar stays one line at 1,280 px in every language); on a phone
 *  (style.css, max-width 600px) the button is hidden and the panel is listed in the Menu. */
function settingsMenu() {
  const panel = el("div", { class: "settings-panel", id: "settings-panel" }, ...settingsControls(), languageSwitcher());
  const btn = el("button", { class: "settings-btn", type: "button", id: "settings-btn", "aria-expanded": "false",
    "aria-controls": "settings-panel" }, "\u2699 ", t("Settings"));
  const box = el("div", { class: "settings" }, btn, panel);
  const show = (open) => {
    box.classList.toggle("open", open);
    btn.setAttribute("aria-expanded", String(open));
    // under the button, its right edges aligned; where the bar wraps and the button is near the
    // left edge, its left edges instead, so nothing is cut off the screen
    panel.style.left = panel.style.right = "";
    if (open && panel.getBoundingClientRect().left < 4) { panel.style.left = "0"; panel.style.right = "auto"; }
  };
  openedBy(btn, box, show);
  // Tab out of the panel closes it (it must not cover what the focus moved to)
  box.addEventListener("focusout", (e) => { if (e.relatedTarget && !box.contains(e.relatedTarget)) show(false); });
  box.show = show;
  return box;
}

/** The game's name, its last word in the brand's second colour. */
function brandWords() {
  const words = t("Gin Rummy").split(" ");
  const last = words.pop();
  return [words.length ? words.join(" ") + " " : "", el("span", null, last)];
}

function topbar(current) {
  const nav = el("nav", null,
    ...[["/", t("Play")], ["/rules", t("Rules")], ["/tips", t("Strategy tips")], ["/scorekeeper", t("Scorekeeper")],
        ["/daily", t("Daily deal")], ["/tournaments", t("Tournaments")], ["/leaderboard", t("Leaderboard")], ["/puzzles", t("Puzzles")]].map(([href, label]) =>
      el("a", { href, "aria-current": current === href ? "page" : null }, label)));
  // on a phone (style.css, max-width 600px) the items fold into a menu that the Menu button
  // opens (issue 34: a bar that scrolled sideways hid Sign in and the language); on a wider
  // screen the button is hidden and the items sit in the bar
  const items = el("div", { class: "topbar-items", id: "topbar-items" },
    nav, el("div", { class: "spacer" }), accountLink(current), settingsMenu());
  const menu = el("button", { class: "menu-btn", type: "button", id: "menu-btn", "aria-expanded": "false",
    "aria-controls": "topbar-items" }, "\u2630 ", t("Menu"));
  const bar = el("header", { class: "topbar" }, el("a", { class: "brand", href: "/" }, ...brandWords()), menu, items);
  const openMenu = (open) => { bar.classList.toggle("open", open); menu.setAttribute("aria-expanded", String(open)); };
  openedBy(menu, bar, openMenu);  // the phone's menu closes as the settings panel does
  bar.openMenu = openMenu;
  return bar;
}

// ---- accounts (docs/accounts.md): the top bar's sign-in link, the CSRF header ----
/** The top bar's account link: "Sign in" for a guest, the name (a link to the account page) once /api/me answers. */
function accountLink(current) {
  const a = el("a", { class: "account-link", id: "account-link", href: "/account", "aria-current": current === "/account" ? "page" : null }, t("Sign in"));
  fetch("/api/me").then(r => r.json()).then(me => {
    if (me && me.signed_in) { showAccountLink(a, me); window.SIGNED_IN_AS = me.name; }
  }).catch(() => {});
  return a;
}

/** The CSRF token (the gin_csrf cookie) that every POST/PUT/PATCH/DELETE repeats in the X-CSRF-Token header. */
function csrfToken() {
  const c = document.cookie.split(";").map(x => x.trim()).find(x => x.startsWith("gin_csrf="));
  return c ? c.slice("gin_csrf=".length) : "";
}

// Every state-changing fetch of this origin carries the CSRF header (pages need not remember it).
(function csrfFetch() {
  const plain = window.fetch.bind(window);
  window.fetch = (input, init = {}) => {
    const method = ((init && init.method) || (input instanceof Request ? input.method : "GET")).toUpperCase();
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (method !== "GET" && method !== "HEAD" && url.origin === location.origin) {
      const headers = new Headers((init && init.headers) || (input instanceof Request ? input.headers : undefined));
      headers.set("X-CSRF-Token", csrfToken());
      init = Object.assign({}, init, { headers });
    }
    return plain(input, init);
  };
})();

function mountTopbar(current) {
  applySettings();
  const bar = topbar(current);
  document.body.prepend(bar);
  let refocus = false;
  try { refocus = sessionStorage.getItem("gin.langFocus") === "1"; sessionStorage.removeItem("gin.langFocus"); } catch (e) { /* private mode */ }
  if (refocus) {  // the language was just changed from the menu (languageSwitcher): open it where it was
    if (getComputedStyle(bar.querySelector(".menu-btn")).display !== "none") bar.openMenu(true);
    else bar.querySelector(".settings").show(true);
    bar.querySelector("#lang").focus();
  }
}

/** The text of an error answer: a refusal of rated play (code rated_refused) says until when in
 *  this browser's own time zone and language; any other error, the server's own words. */
function errorText(body, status) {
  if (body && body.code === "rated_refused" && body.until) {
    const when = new Date(body.until).toLocaleString(LANG, { dateStyle: "medium", timeStyle: "short" });
    return t("You forfeited too many rated matches lately: you may play rated matches again from {time}.", { time: when });
  }
  return (body && body.error) || t("server answered {status}", { status: String(status) });
}

/** GET url as JSON; throws an Error with the server's words (or its status) when not ok. */
async function getJSON(url) {
  const r = await fetch(url);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || t("server answered {status}", { status: String(r.status) }));
  return body;
}

async function postJSON(url, data) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) });
  let body = null;
  try { body = await r.json(); } catch (e) { body = { error: t("server answered {status}", { status: String(r.status) }) }; }
  if (!r.ok) throw new Error(errorText(body, r.status));
  return body;
}

/** Render a score sheet (ScoreSheet.to_dict) into box: one row per game, a column per player. */
function renderSheet(box, sheet) {
  const names = Object.keys(sheet.totals);
  const t_ = el("table", { class: "sheet" });
  t_.append(el("thead", null, el("tr", null, el("th", null, sheet.scoring === "hollywood" ? t("Game") : ""), ...names.map(n => el("th", null, n)))));
  const body = el("tbody");
  for (const g of sheet.games) {
    const label = sheet.scoring === "hollywood" ? ptm("sheet", "Game {number}", { number: g.number }) : ptm("sheet", "Points");
    body.append(el("tr", null, el("td", null, label, g.finished ? el("span", { class: "hint" }, " " + t("(over)")) : ""),
      ...names.map(n => el("td", null, fmtNumber(g.points[n]), g.winner === n ? el("span", { class: "winner-mark", title: t("won this game") }, " \u2605") : ""))));
    // R11.3: one row per bonus, each named (a bare "+100 +75" does not say which is which)
    if (g.finished && names.some(n => g.bonuses[n].game)) {
      const shutout = names.some(n => n !== g.winner && g.points[n] === 0);
      body.append(el("tr", { class: "bonus-row", "data-bonus": "game" }, el("td", { class: "hint" }, t("game bonus")),
        ...names.map(n => el("td", { class: "hint" }, g.bonuses[n].game
          ? (shutout ? t("+{points} (shutout)", { points: g.bonuses[n].game }) : `+${fmtNumber(g.bonuses[n].game)}`) : ""))));
    }
    if (g.finished && names.some(n => g.bonuses[n].box)) {
      body.append(el("tr", { class: "bonus-row", "data-bonus": "box" }, el("td", { class: "hint" }, t("box bonus")),
        ...names.map(n => el("td", { class: "hint", title: nt("{n} deal won", "{n} deals won", g.deals_won[n]) },
          g.bonuses[n].box ? `+${fmtNumber(g.bonuses[n].box)}` : ""))));
    }
  }
  body.append(el("tr", { class: "total" }, el("td", null, ptm("sheet", "Total")), ...names.map(n => el("td", null, fmtNumber(sheet.totals[n])))));
  t_.append(body);
  // one deal decides (R11.1, scoring "deal"): there is no target to name
  const note = sheet.finished ? (sheet.match_winner ? t("Finished: {name} wins.", { name: sheet.match_winner }) : t("Finished: no winner."))
    : sheet.scoring === "deal" ? null : t("Target {target}. Bonuses do not count toward it.", { target: sheet.target });
  box.replaceChildren(t_, ...(note === null ? [] : [el("p", { class: "hint", style: "margin:4px 0 0" }, note)]));
}

