// The table page: one seat's view of a match, over the WebSocket protocol of docs/protocol.md.
// The server is authoritative: buttons are enabled only for the legal actions it sends.
// The page's other parts, one concern each, are loaded before this file: table_seats.js (seats,
// roles, advice), table_input.js (keys, confirmations), table_history.js (commitments, moves,
// deals), table_result.js (the end-of-deal dialog).
"use strict";

const TABLE_ID = location.pathname.split("/").filter(Boolean)[1];
let TOKEN = new URLSearchParams(location.search).get("seat") || "";
const INVITE = new URLSearchParams(location.search).get("invite") || "";
const TURN = !TOKEN && new URLSearchParams(location.search).get("turn") === "1";  // from the "your turn" list
const WATCH = !TOKEN && new URLSearchParams(location.search).get("watch") === "1";  // a spectator (public tables)

const ui = {
  state: null,          // the last "state" message
  selected: null,       // the picked card code
  firstClick: null,     // the card code the last single click (event.detail 1) was on, or null
  cursor: 0,            // keyboard cursor position in the hand
  sort: SETTINGS.get("sort", "melds"),
  order: [],            // the player's own order (sort "custom")
  prevHand: [],
  newCard: null,
  resultShownFor: null, // deal number whose result dialog was shown
  ws: null,
  retry: 0,
  pending: false,
  hint: null,           // the last "hint" message; shown while its seq is the state's
  hintAsked: false,     // a hint was asked for and not answered yet
  hintAhead: 0,         // the jobs before that hint in the server's queue ("hint_queued")
  thinking: null,       // the last "thinking" message: the computer's move waits for a worker
  names: {},            // table-made names shown in this page's language (localNames)
};

const $ = (id) => document.getElementById(id);

// ---------- connection ----------
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // lang: the server says its error messages in the page's language (docs/protocol.md)
  const who = WATCH ? "watch=1" : `seat=${encodeURIComponent(TOKEN)}`;
  const ws = new WebSocket(`${proto}://${location.host}/ws/table/${TABLE_ID}?${who}&lang=${LANG}`);
  ui.ws = ws;
  $("conn").textContent = t("connecting...");
  ws.onopen = () => { ui.retry = 0; $("conn").textContent = ""; };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    onMessage(msg);
  };
  ws.onclose = (ev) => {
    ui.pending = false;
    ui.hintAsked = false;
    if (ev.code === 4403 || ev.code === 4404) { $("conn").textContent = ""; return; }
    ui.retry = Math.min(ui.retry + 1, 6);
    $("conn").textContent = t("reconnecting...");
    setTimeout(connect, 400 * ui.retry);
  };
}

function send(msg) {
  if (!ui.ws || ui.ws.readyState !== WebSocket.OPEN) { toast(t("Not connected: reconnecting...")); return; }
  ui.ws.send(JSON.stringify(msg));
}

/** Names the table made ("You", "Computer (novice)") in this page's language (localSeatName),
 *  unless two seats would then read alike: {raw name: shown name}. */
function localNames(msg) {
  const seats = msg.table.seats;
  const names = {};
  seats.forEach((s, i) => { const n = localSeatName(s, i === msg.you); if (n !== s.name) names[s.name] = n; });
  const shown = seats.map(s => (names[s.name] || s.name).toLocaleLowerCase(LANG));
  return new Set(shown).size === shown.length ? names : {};
}

/** The lobby's "Your tables" keeps the names the table had when it was opened ("Player 2" for a
 *  friend's seat): the table's names now replace them whenever this page learns them. */
function rememberNames(table) {
  const list = SETTINGS.get("tables", []);
  const mine = list.find(x => x.id === table.id);
  if (!mine || JSON.stringify(mine.names) === JSON.stringify(table.names)) return;
  mine.names = table.names.slice();
  SETTINGS.set("tables", list);
}

function onMessage(msg) {
  if (msg.type === "state") {
    ui.pending = false;
    if (msg.table) rememberNames(msg.table);
    // the fair-deal panel sends this seat's client seed and checks each revealed deal (fair.js)
    if (window.GinFair) GinFair.onState(msg, send);
    if (window.GinRating) GinRating.onState(msg, send);  // rated tables, resign, leaving (rating.js)
    if (window.GinRoom) msg = GinRoom.onState(msg, send);
    if (window.GinReview) GinReview.onState(msg, send);  // the expert's review (review.js)
    if (!msg.started) { renderWaiting(msg); return; }
    const prev = ui.state;
    ui.names = localNames(msg);
    ui.state = renameDeep(msg, ui.names);
    if (pendingConfirm && !isLegal(pendingConfirm)) closeConfirm();
    render();
    if (window.GinEffects) GinEffects.onState(prev, ui.state);
  }
  else if (msg.type === "watchers") {  // a spectator came or went: the count only (docs/protocol.md)
    if (ui.state) ui.state.watchers = msg.count;  // the table's own copy of the state keeps it too
    if (window.GinRoom) GinRoom.onMessage(msg);  // the room panel shows it
  }
  else if (window.GinRoom && GinRoom.onMessage(msg)) return;
  else if (window.GinReview && GinReview.onMessage(msg)) return;
  else if (window.GinScore && GinScore.onMessage(msg)) return;  // the players' scores (table_score.js)
  else if (msg.type === "hint") {
    ui.hintAsked = false;
    ui.hintAhead = 0;
    ui.hint = msg;
    if (ui.state) render();
  } else if (msg.type === "hint_queued") {  // docs/protocol.md "hint_queued"
    ui.hintAhead = msg.ahead;
    if (ui.state) render();
  } else if (msg.type === "thinking") {  // docs/protocol.md "thinking"
    ui.thinking = msg;
    if (ui.state) render();
  } else if (msg.type === "error") {
    ui.pending = false;
    ui.hintAsked = false;
    ui.hintAhead = 0;
    if (msg.code === "bad_token" || msg.code === "not_found") {
      // one clear error: the status line says what to do; no toast repeats it
      const lobby = el("a", { href: "/", style: "color:#fff" }, t("lobby"));
      $("status").replaceChildren(el("span", null, ...(msg.code === "bad_token"
        ? tEl("This link's seat is not valid for this table. Ask for your own link, or open a new table in the {lobby}.", { lobby })
        : tEl("There is no such table. Open one in the {lobby}.", { lobby }))));
      return;
    }
    toast(msg.message);
    render();
  } else if (msg.type === "suggestion") {
    msg = renameDeep(msg, ui.names || {});
    if (ui.state) { ui.state.suggestions = [...(ui.state.suggestions || []), msg]; renderAdvice(); }
    if (ui.state && ui.state.role === "captain") toast(t("{name} suggests: {text}", { name: msg.from, text: msg.text }), "info");
  }
}

let toastTimer = null;
function toast(text, kind) {
  const box = $("toast");
  box.replaceChildren(...keyHints([text]));  // text only; its " (U)" key hints hide on a phone
  box.style.background = kind === "info" ? "#fff7df" : "";
  box.style.color = kind === "info" ? "#3b2a00" : "";
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 4200);
}

// ---------- helpers on the state ----------
const S = () => ui.state;
const V = () => ui.state.view;
function legal() { return ui.state ? ui.state.view.legal_actions : []; }
function isLegal(a) { return legal().includes(a); }
function mySeatName() { return S().seat_players[V().seat]; }
function oppName() { return S().seat_players[1 - V().seat]; }
function nameOfSeat(seat) { return S().seat_players[seat]; }
function seatInfo(name) { return S().table.seats.find(s => s.name === name); }

function act(text) {
  if (!isLegal(text)) { sayWhyNot(text); return false; }
  ui.pending = true;
  send({ type: "action", action: text });
  if (/^(discard|knock|gin) /.test(text)) ui.selected = null;
  renderButtons();
  return true;
}

function bestOf(kind) {
  // the legal knock/gin card leaving the least deadwood (arrangement.after_discard from the server)
  const after = S().arrangement.after_discard || {};
  const cards = legal().filter(a => a.startsWith(kind + " ")).map(a => a.slice(kind.length + 1));
  cards.sort((a, b) => (after[a] ?? 99) - (after[b] ?? 99) || cardValue(b) - cardValue(a));
  return cards[0] || null;
}

/** The Discard, Knock and Gin buttons and keys: the picked card (a knock or gin without one:
 *  the best card); asks first when the player's confirm setting says so (table_input.js). */
function doCardAction(kind) {
  if (kind === "discard") {
    if (ui.selected && isLegal(`discard ${ui.selected}`)) confirmThen(`discard ${ui.selected}`);
    else sayWhyNot("discard");
    return;
  }
  const card = ui.selected && isLegal(`${kind} ${ui.selected}`) ? ui.selected : bestOf(kind);
  if (card) confirmThen(`${kind} ${card}`); else sayWhyNot(kind);
}

// ---------- hints (docs/protocol.md "hint") ----------
/** The hint for the position on the table now, or null (a hint is about one step: seq). */
function currentHint() { return ui.hint && ui.state && ui.hint.seq === ui.state.seq ? ui.hint : null; }

function askHint() {
  const s = S();
  if (!s || !s.can_hint || ui.hintAsked || currentHint()) return;
  ui.hintAsked = true;
  send({ type: "hint" });
  renderStatus();
  renderButtons();
}

/** What a hinted action does: the button it is ("discard" for "discard 7H") and its card. */
function hintTarget(action) {
  const m = /^(discard|knock|gin) ([A2-9TJQK][CDHS])$/.exec(action || "");
  return m ? { act: m[1], card: m[2] } : { act: action, card: null };
}

/** A hinted action (its text form, "discard 7H") in words, its card as a coloured card text. */
function actionWords(action) {
  const { act, card } = hintTarget(action);
  if (card) {
    const c = cardText(card);
    return { discard: tEl("discard {card}", { card: c }), knock: tEl("knock, discarding {card}", { card: c }),
             gin: tEl("go gin, discarding {card}", { card: c }) }[act];
  }
  return [{ "take upcard": t("take the upcard"), "pass": t("pass"), "draw stock": t("draw from the stock"),
            "take discard": t("take the top discard"), "big gin": t("big gin") }[act] || action];
}

function hintLine() {
  const h = currentHint();
  if (h) {
    return el("div", { class: "hint-line", id: "hint-text" }, ...tEl("Hint ({level}): {action} ({reason})", {
      level: levelName(h.level), action: el("b", null, ...actionWords(h.action)),
      reason: el("span", { class: "why" }, ...withCards(h.reason)) }));
  }
  if (!ui.hintAsked) return null;
  return el("div", { class: "hint-line" }, ui.hintAhead > 0
    ? nt("Hint queued: {n} decision ahead of it...", "Hint queued: {n} decisions ahead of it...", ui.hintAhead)
    : t("Looking for a hint..."));
}

// ---------- hand order ----------
function handOrder() {
  const v = V();
  const hand = v.hand.slice();
  const arr = S().arrangement;
  if (ui.sort === "suit") return { cards: hand.sort(bySuit), groups: null };
  if (ui.sort === "rank") return { cards: hand.sort(byRank), groups: null };
  if (ui.sort === "custom") {
    const kept = ui.order.filter(c => hand.includes(c));
    for (const c of hand.slice().sort(bySuit)) if (!kept.includes(c)) kept.push(c);
    ui.order = kept;
    return { cards: kept.slice(), groups: null };
  }
  const groups = arr.melds.map(m => ({ meld: true, cards: m.slice() }));
  const dead = arr.deadwood.slice().sort(byRank);
  if (dead.length) groups.push({ meld: false, cards: dead });
  return { cards: groups.flatMap(g => g.cards), groups };
}

const MELD_COLOURS = ["#f2c14e", "#7fd1ff", "#ff9f80", "#b8f08a"];

function meldIndex() {
  const idx = {};
  S().arrangement.melds.forEach((m, i) => m.forEach(c => { idx[c] = i; }));
  return idx;
}

function moveSelected(delta) {
  if (!ui.selected) return;
  if (ui.sort !== "custom") { ui.order = handOrder().cards; setSort("custom"); }
  const i = ui.order.indexOf(ui.selected);
  const j = i + delta;
  if (i < 0 || j < 0 || j >= ui.order.length) return;
  [ui.order[i], ui.order[j]] = [ui.order[j], ui.order[i]];
  ui.cursor = j;
  renderHand();
}

function setSort(mode) {
  ui.sort = mode;
  SETTINGS.set("sort", mode);
  document.querySelectorAll("[data-sort]").forEach(b => b.classList.toggle("on", b.dataset.sort === mode));
}

// ---------- rendering ----------
function render() {
  if (!S()) return;
  const v = V();
  if (v.hand.length > ui.prevHand.length) {
    const added = v.hand.filter(c => !ui.prevHand.includes(c));
    ui.newCard = added.length === 1 && ui.prevHand.length ? added[0] : null;
  } else if (v.hand.length < ui.prevHand.length) ui.newCard = null;
  if (v.hand.join() !== ui.prevHand.join() && v.hand.length === 10 && ui.prevHand.length === 10) ui.newCard = null;
  ui.prevHand = v.hand.slice();
  document.body.classList.remove("no-seat");  // the table controls: hidden until a state comes
  document.body.classList.toggle("spectator", S().you === null);  // a spectator has no controls (style.css)
  $("actions").hidden = false;
  if (ui.selected && !v.hand.includes(ui.selected)) ui.selected = null;
  const names = S().table.names.join(" \u2013 ");
  document.title = S().your_turn ? t("\u25CF Your turn - Gin Rummy - {names}", { names }) : t("Gin Rummy - {names}", { names });
  renderOpponent();
  renderMe();
  renderCenter();
  renderHand();
  renderButtons();
  renderStatus();
  renderPlayers();
  renderAdvice();
  renderSheet($("sheet"), S().sheet);
  renderFair();
  renderMoves();
  renderDeals();
  renderInvites();
  if (v.phase === "over" && ui.resultShownFor !== S().deal.number) {
    ui.resultShownFor = S().deal.number;
    showResult();
  }
  if (v.phase !== "over") $("result").hidden = true;
  $("show-result").hidden = v.phase !== "over";
}

function renderOpponent() {
  const v = V(), s = S();
  const name = oppName();
  const info = seatInfo(name);
  $("opp-bar").replaceChildren(...[
    el("span", { class: `dot${info && info.connected ? " on" : ""}`, title: info && info.connected ? t("connected") : t("not connected") }),
    el("span", { class: "name" }, name),
    info && info.kind === "computer" ? el("span", { class: "badge" }, t("computer: {level}", { level: levelName(info.level) })) : null,
    ...roleBadges(name),
    el("span", null, nt("{n} card", "{n} cards", v.opponent_count)),
  ].filter(Boolean));  // a person gets no badge (replaceChildren would write a null as "null")
  const hand = $("opp-hand");
  const r = v.result;
  if (v.phase === "over" && r && r.knocker_layout) {
    // the layouts are public at the end of a deal (R5.2, R5.3): show his cards face up
    const oppSeat = 1 - v.seat;
    const l = r.knocker === oppSeat ? r.knocker_layout : r.defender_layout;
    const cards = [...l.melds.flat(), ...(l.layoffs || []).map(x => x.card), ...l.deadwood];
    hand.replaceChildren(...cards.map(c => cardEl(c)));
  } else {
    hand.replaceChildren(...Array.from({ length: v.opponent_count }, () => cardBack()));
  }
  const seen = $("opp-seen");
  seen.replaceChildren();
  if (v.opponent_seen.length) {
    seen.append(el("span", null, t("{name} took from the pile and holds:", { name })), ...v.opponent_seen.map(c => cardEl(c, { mini: true })));
  } else if (v.phase !== "over") {
    seen.append(el("span", { class: "hint", style: "color:#b9d8c4" }, t("Cards {name} takes from the discard pile show here.", { name })));
  }
}

function renderCenter() {
  const v = V();
  const stock = $("stock");
  stock.replaceChildren();
  stock.classList.toggle("empty", v.stock_size === 0);
  const n = Math.min(4, Math.ceil(v.stock_size / 8));
  for (let i = 0; i < n; i++) { const b = cardBack(); b.style.transform = `translate(${-i * 2}px, ${-i * 2}px)`; stock.append(b); }
  if (v.stock_size) stock.append(el("span", { class: "count-chip", id: "stock-count" }, fmtNumber(v.stock_size)));
  const canDraw = isLegal("draw stock");
  const hinted = currentHint() ? currentHint().action : null;
  stock.classList.toggle("hinted", hinted === "draw stock");
  stock.classList.toggle("glow", canDraw);
  stock.classList.toggle("clickable", canDraw);
  $("stock-label").textContent = t("Stock: {n}", { n: v.stock_size });

  const pile = $("discard");
  pile.replaceChildren();
  const p = v.discard_pile;
  pile.classList.toggle("empty", p.length === 0);
  const shown = p.slice(-3);
  shown.forEach((c, i) => {
    const e = cardEl(c);
    const depth = shown.length - 1 - i;
    e.style.transform = `translate(${-depth * 3}px, ${-depth * 2}px) rotate(${(depth % 2 ? -1 : 1) * depth * 3}deg)`;
    pile.append(e);
  });
  const canTake = isLegal("take discard") || isLegal("take upcard");
  pile.classList.toggle("glow", canTake);
  pile.classList.toggle("hinted", hinted === "take discard" || hinted === "take upcard");
  pile.classList.toggle("clickable", canTake);
  $("discard-label").textContent = p.length ? t("Discard pile: {n}", { n: p.length }) : t("Discard pile");
  const all = $("pile-all");
  if (!all.hidden) all.replaceChildren(...(p.length ? p.map(c => cardEl(c, { mini: true })) : [el("span", null, t("The discard pile is empty."))]));
}

function renderHand() {
  const v = V();
  if (S().you === null) { GinRoom.renderSpectatorHand($("hand"), v); return; }  // a spectator
  const { cards, groups } = handOrder();
  const hand = $("hand");
  hand.replaceChildren();
  const idx = meldIndex();
  const canPick = legal().some(a => /^(discard|knock|gin) /.test(a));
  const legalCards = new Set(legal().filter(a => /^(discard|knock|gin) /.test(a)).map(a => a.split(" ")[1]));
  const hintCard = currentHint() ? hintTarget(currentHint().action).card : null;
  ui.cursor = Math.max(0, Math.min(ui.cursor, cards.length - 1));
  let pos = 0;
  const make = (c) => {
    const i = pos++;
    const e = cardEl(c);
    e.tabIndex = -1;
    e.draggable = true;
    if (c === ui.selected) e.classList.add("selected");
    if (c === hintCard) e.classList.add("hinted");
    if (i === ui.cursor && document.body.classList.contains("kbd")) e.classList.add("cursor");
    if (c === ui.newCard && v.hand.length === 11) { e.classList.add("new"); e.dataset.new = t("new"); }  // a badge (CSS attr)
    if (canPick && !legalCards.has(c)) { e.classList.add("illegal"); e.title = v.taken === c ? t("{card}: cannot be discarded now (just taken from the pile, R4.3)", { card: cardName(c) })
      : t("{card}: cannot be discarded now", { card: cardName(c) }); }
    if (idx[c] !== undefined) e.append(el("span", { class: "meld-bar", style: `background:${MELD_COLOURS[idx[c] % 4]}` }));
    if (i < 11) e.append(el("span", { class: "keynum" }, i < 9 ? String(i + 1) : i === 9 ? "0" : "-"));
    e.addEventListener("click", () => { pick(c, i); });
    e.addEventListener("dblclick", () => {
      // both clicks on this card: on a phone two quick taps near each other are a double tap
      // (Chrome: within ~300 ms and ~100 px), a tap on Close or on the next card then this one too
      if (ui.firstClick !== c) return;
      ui.selected = c;
      if (isLegal(`discard ${c}`)) confirmThen(`discard ${c}`); else { renderHand(); renderButtons(); sayWhyNot("discard"); }
    });
    e.addEventListener("dragstart", (ev) => { ev.dataTransfer.setData("text/plain", c); e.classList.add("dragging"); });
    e.addEventListener("dragend", () => e.classList.remove("dragging"));
    e.addEventListener("dragover", (ev) => { ev.preventDefault(); e.classList.add("drop-before"); });
    e.addEventListener("dragleave", () => e.classList.remove("drop-before"));
    e.addEventListener("drop", (ev) => { ev.preventDefault(); dropBefore(ev.dataTransfer.getData("text/plain"), c); });
    return e;
  };
  if (groups) {
    for (const g of groups) hand.append(el("div", { class: `group${g.meld ? " meld" : ""}` }, ...g.cards.map(make)));
  } else {
    hand.append(el("div", { class: "group" }, ...cards.map(make)));
  }
  hand.ondragover = (ev) => ev.preventDefault();
  hand.ondrop = (ev) => { if (ev.target === hand) { ev.preventDefault(); dropBefore(ev.dataTransfer.getData("text/plain"), null); } };
  const arr = S().arrangement;
  const dw = $("deadwood");
  if (v.hand.length === 11 && arr.after_discard) {
    const best = Math.min(...Object.values(arr.after_discard));
    const sel = ui.selected && legalCards.has(ui.selected) ? arr.after_discard[ui.selected] : null;
    dw.replaceChildren(...tEl("Deadwood {n}", { n: el("b", null, fmtNumber(arr.deadwood_value)) }), " \u00b7 ",
      sel !== null && sel !== undefined ? t("after discarding {card}: {n}", { card: rankLabel(ui.selected[0]) + SUIT_SYMBOL[ui.selected[1]], n: sel })
        : t("best discard leaves {n}", { n: best }));
  } else {
    dw.replaceChildren(...tEl("Deadwood {n}", { n: el("b", null, fmtNumber(arr.deadwood_value)) }));
  }
  if (S().seat === null && S().role === "out") dw.append(el("span", { class: "hint", style: "color:#d8efe0" }, "  " + t("({name}'s hand)", { name: mySeatName() })));
  document.querySelectorAll("[data-sort]").forEach(b => b.classList.toggle("on", b.dataset.sort === ui.sort));
}

function dropBefore(card, before) {
  if (!card || card === before) return;
  if (ui.sort !== "custom") { ui.order = handOrder().cards; setSort("custom"); }
  const order = ui.order.filter(c => c !== card);
  const j = before ? order.indexOf(before) : order.length;
  order.splice(j < 0 ? order.length : j, 0, card);
  ui.order = order;
  renderHand();
}

function pick(c, i) {
  ui.selected = ui.selected === c ? null : c;
  if (i !== undefined) ui.cursor = i;
  renderHand();
  renderButtons();
  if (S()) renderStatus();
}

function renderButtons() {
  const s = S();
  const L = legal();
  const sel = ui.selected;
  const any = (k) => L.some(a => a.startsWith(k + " "));
  const enabled = {
    "take upcard": isLegal("take upcard"), "pass": isLegal("pass"), "draw stock": isLegal("draw stock"),
    "take discard": isLegal("take discard"),
    "discard": !!sel && isLegal(`discard ${sel}`),
    "knock": sel ? isLegal(`knock ${sel}`) || (!isLegal(`discard ${sel}`) && any("knock")) : any("knock"),
    "gin": sel ? isLegal(`gin ${sel}`) || any("gin") : any("gin"),
    "big gin": isLegal("big gin"),
    "next_deal": !!(s && s.can_next_deal),
  };
  const phase = s ? s.view.phase : "";
  const hinted = currentHint() ? hintTarget(currentHint().action).act : null;
  const hintBtn = $("hint-btn");
  hintBtn.disabled = ui.pending || ui.hintAsked || !(s && s.can_hint);
  hintBtn.hidden = !s || phase === "over" || !!s.rating;  // no hints at a rated table (the server refuses them too)
  for (const b of document.querySelectorAll("#actions [data-act]")) {
    const a = b.dataset.act;
    b.classList.toggle("hinted", a === hinted);
    b.disabled = ui.pending || !enabled[a];
    // hide what cannot happen in this phase, to keep the bar short
    const show = {
      "take upcard": phase === "upcard_offer", "pass": phase === "upcard_offer" || phase === "wall",
      "draw stock": phase === "draw", "take discard": phase === "draw" || phase === "wall",
      "discard": phase === "discard", "knock": phase === "discard" && s.view.knock_limit !== null,
      "gin": phase === "discard", "big gin": phase === "discard" && s.view.hand.length === 11 && s.table.rules.big_gin_bonus !== null,
      "next_deal": phase === "over" && !s.match.finished,
    }[a];
    // the player sitting out a three-hand deal advises; the captain moves (R10.2): no move buttons
    b.hidden = !show || (s && s.role === "out" && a !== "next_deal");
    if (a === "discard") b.firstChild.textContent = sel ? t("Discard {card}", { card: rankLabel(sel[0]) + SUIT_SYMBOL[sel[1]] }) : t("Discard");
    if (a === "take discard" || a === "take upcard") {
      const top = s && s.view.discard_pile.length ? s.view.discard_pile[s.view.discard_pile.length - 1] : null;
      const card = top ? rankLabel(top[0]) + SUIT_SYMBOL[top[1]] : "";
      b.firstChild.textContent = a === "take upcard" ? (top ? t("Take upcard {card}", { card }) : t("Take upcard"))
        : (top ? t("Take discard {card}", { card }) : t("Take discard"));
    }
  }
}

function renderStatus() {
  const s = S(), v = V();
  const st = $("status");
  st.classList.toggle("mine", s.your_turn);
  const top = v.discard_pile.length ? v.discard_pile[v.discard_pile.length - 1] : null;
  const parts = [];
  if (s.match.finished) {
    parts.push(s.match.winner ? t("The match is over: {name} wins.", { name: s.match.winner }) : t("The match is over: no winner."));
  } else if (v.phase === "over") {
    const r = v.result;
    parts.push(r.outcome === "draw" ? t("The deal is a draw.") : nt("{name} scores {n} point.", "{name} scores {n} points.", r.points, { name: nameOfSeat(r.winner) }),
      " ", t("Press Next deal (N)."));
  } else if (s.your_turn) {
    if (v.phase === "upcard_offer") parts.push(tEl("Your turn: take the upcard {card} (U) or pass (P).", { card: cardText(top) }));
    else if (v.phase === "draw") parts.push(isLegal("take discard") ? tEl("Your turn: draw from the stock (S) or take the {card} (T).", { card: cardText(top) }) : t("Your turn: draw from the stock (S)."));
    else if (v.phase === "discard") {
      const L = legal();
      if (L.includes("big gin")) parts.push(t("All eleven cards are melded: big gin (B)!"));
      else if (L.some(a => a.startsWith("gin "))) parts.push(t("You can go gin (G)! Or pick a card to discard."));
      else if (L.some(a => a.startsWith("knock "))) parts.push(t("You can knock (K), or pick a card to discard (D)."));
      else parts.push(t("Pick a card to discard (D)."));
      if (ui.selected && ui.selected === v.taken && !L.some(a => /^(discard|knock|gin) /.test(a) && a.endsWith(" " + ui.selected))) {
        // R4.3 (discard_taken_card false): say why Discard is greyed out, not only in a tooltip
        parts.push(" ", el("b", { id: "why-not" }, t("{card} was just taken from the discard pile: it cannot be discarded this turn (R4.3).",
          { card: rankLabel(ui.selected[0]) + SUIT_SYMBOL[ui.selected[1]] })));
      }
    } else if (v.phase === "wall") parts.push(tEl("Two cards left: take the {card} only to knock or go gin (T), or pass (P) for a draw (R7.2).", { card: cardText(top) }));
  } else if (s.role === "out") {
    // a computer captain takes no advice (R10.2): the line says so rather than offer it (issue 34)
    const captain = s.roles ? seatInfo(s.roles.captain) : null;
    parts.push(captain && captain.kind === "computer"
      ? t("You sit out this deal: you see {name}'s hand; a computer captain takes no advice (R10.2).", { name: mySeatName() })
      : t("You sit out this deal: you see {name}'s hand and may suggest moves.", { name: mySeatName() }));
  } else {
    const who = s.to_act;
    const info = who ? seatInfo(who) : null;
    // the server's "thinking" message for this step: the move waits behind others in its queue
    const th = ui.thinking && ui.thinking.seq === s.seq ? ui.thinking : null;
    parts.push(info && info.kind === "computer"
      ? (th && th.ahead > 0 ? nt("{name} is thinking... ({n} decision ahead in the queue)",
                                 "{name} is thinking... ({n} decisions ahead in the queue)", th.ahead, { name: who })
                            : t("{name} is thinking...", { name: who }))
      : t("Waiting for {name}...", { name: who }));
  }
  const line = hintLine();
  st.replaceChildren(el("span", null, ...keyHints(parts.flat().filter(x => x !== null))), ...(line ? [line] : []));
}

/** A seat's line in the Players panel: connected or not, the name shown as ``name``, "(you)",
 *  a computer's level, then ``extra`` (role badges). */
function playerWho(p, i, you, name, extra = []) {
  return el("span", { class: "player-who" }, el("span", { class: `dot${p.connected ? " on" : ""}` }), " ", el("b", null, name),
    i === you ? " " + t("(you)") : "",
    p.kind === "computer" ? el("span", { class: "hint" }, " " + t("computer, {level}", { level: levelName(p.level) })) : "",
    p.account ? el("span", { class: "hint", title: t("signed in: this is the account's name") }, " \u2713 " + t("signed in")) : "",
    p.bot ? el("span", { class: "bot-badge", title: t("a bot account: a program plays this seat") }, "BOT") : "",
    ...extra);
}

function renderPlayers() {
  const s = S();
  const box = $("players");
  box.replaceChildren();
  s.table.seats.forEach((p, i) => {
    // the name may wrap, the score never does (a score is one number: no "1 / 4")
    box.append(el("div", { class: "player-row", "data-seat": i },
      playerWho(p, i, s.you, p.name, s.roles ? roleBadges(p.name).map(b => [" ", b]).flat() : []),
      el("span", { class: "score" }, fmtNumber(s.sheet.totals[p.name]))));
  });
  if (s.role_draws && s.role_draws.length) box.append(roleDrawLine(s));
  const r = s.table.rules;
  const desc = [r.variant === "standard" ? t("knock {n}", { n: r.knock_limit }) : r.variant === "straight" ? t("Straight (gin only)") : pt("variant", "Oklahoma"),
    r.scoring === "hollywood" ? t("Hollywood to {n}", { n: r.target }) : r.scoring === "game" ? t("game to {n}", { n: r.target }) : t("one deal"),
    t("gin {n}", { n: r.gin_bonus }), t("undercut {n}", { n: r.undercut_bonus }),
    r.big_gin_bonus !== null ? t("big gin {n}", { n: r.big_gin_bonus }) : null,
    // three-hand gin has no game or box bonus (R10.6), whatever the rule set says
    s.table.seats.length === 3 ? t("no bonuses (R10.6)")
      : r.game_bonus || r.box_bonus ? t("game bonus {game}, box bonus {box}", { game: r.game_bonus, box: r.box_bonus }) : t("no bonuses"),
    { draw_at_two: t("draw at two"), wall: t("wall"), reshuffle: t("reshuffle") }[r.stock_end]].filter(Boolean).join(" \u00b7 ");
  const dl = V().knock_limit;
  const thisDeal = dl === null ? t("this deal: gin only") : t("this deal: knock {n}", { n: dl });
  box.append(el("p", { class: "hint", style: "margin:6px 0 0" }, desc,
    r.variant !== "standard" ? " \u00b7 " + (V().multiplier > 1 ? t("{limit}, doubled", { limit: thisDeal }) : thisDeal) : ""));
}

/** The invite links this browser was given when it opened the table, in the side panel, while
 *  they are of use: once the first deal is dealt every seat is taken and each link is spent. */
function invites() {
  const mine = SETTINGS.get("tables", []).find(t => t.id === TABLE_ID);
  return mine && mine.invites ? mine.invites : [];
}

function inviteBox(x, name = x.name) {
  return linkBox(t("Link for {name}", { name }), x.link, x.name);
}

function renderInvites(started = true) {
  const inv = started ? [] : invites();
  $("invite-panel").hidden = inv.length === 0;
  $("invites").replaceChildren(...inv.map(x => inviteBox(x)));
}

/** Before the first deal: who is here, whose client seed the deal waits for, and the invite
 *  links this browser was given when it opened the table (the host sends them to his friends). */
function renderWaiting(s) {
  const names = localNames(s);
  const shown = n => names[n] || n;
  const waiting = s.fair && s.fair.pending ? s.fair.pending.waiting_for : [];
  $("status").textContent = waiting.length
    ? t("The first deal is dealt when every player has joined; waiting for {names}.", { names: waiting.map(shown).join(", ") })
    : t("Dealing...");
  // the links to send, on the felt where the host looks while he waits (the side panel has them too)
  const inv = invites().filter(x => waiting.includes(x.name));
  if (inv.length) $("status").append(...inv.map(x => inviteBox(x, shown(x.name))));
  $("players").replaceChildren(...s.table.seats.map((p, i) => el("div", { class: "player-row", "data-seat": i },
    playerWho(p, i, s.you, shown(p.name)))));
  renderInvites(false);
}

/** An invite link (?invite=CODE): claim the seat once; the page then holds only its own new token. */
async function claimInvite() {
  $("status").textContent = t("Taking your seat...");
  let r, body;
  try {
    r = await fetch(`/api/tables/${TABLE_ID}/claim?lang=${LANG}`, { method: "POST", headers: { "Content-Type": "application/json" },
                                                                  body: JSON.stringify({ invite: INVITE }) });
    body = await r.json();
  } catch (e) { $("status").textContent = t("Not connected: reconnecting..."); return; }
  if (!r.ok && body.code === "sign_in") {
    // a rated table's seat is a signed-in person's: the way there, and back to this invite
    // (account.js follows ?next=) (issue 34: a dead end)
    const back = encodeURIComponent(location.pathname + location.search);
    $("status").replaceChildren(el("span", { id: "sign-in-first" }, ...tEl("This is a rated table: {signin} to take your seat; you come back here after.",
      { signin: el("a", { href: `/account?next=${back}`, id: "sign-in-link", style: "color:#fff" }, t("sign in or sign up")) })));
    return;
  }
  if (!r.ok) { $("status").textContent = errorText(body, r.status); return; }
  TOKEN = body.token;
  history.replaceState(null, "", `/table/${TABLE_ID}?seat=${encodeURIComponent(TOKEN)}`);
  connect();
}

/** From the "your turn" list (?turn=1): the signed-in person's seat at this turn-based table, by
 *  a new seat link (POST /api/turns/ID/seat); the page then holds that token. */
async function openTurn() {
  $("status").textContent = t("Taking your seat...");
  let r, body;
  try {
    r = await fetch(`/api/turns/${TABLE_ID}/seat?lang=${LANG}`, { method: "POST", headers: { "Content-Type": "application/json" } });
    body = await r.json();
  } catch (e) { $("status").textContent = t("Not connected: reconnecting..."); return; }
  if (!r.ok) { $("status").textContent = errorText(body, r.status); return; }
  TOKEN = body.token;
  history.replaceState(null, "", `/table/${TABLE_ID}?seat=${encodeURIComponent(TOKEN)}`);
  connect();
}

function init() {
  mountTopbar("");
  document.body.classList.add("no-seat");
  if (!TOKEN && !INVITE && !WATCH && !TURN) {
    $("status").textContent = t("This page needs your seat link (it ends with ?seat=...).");
  }
  setSort(ui.sort);
  document.querySelectorAll("[data-sort]").forEach(b => b.addEventListener("click", () => { setSort(b.dataset.sort); if (ui.sort === "custom" && !ui.order.length && S()) ui.order = V().hand.slice(); if (S()) renderHand(); }));
  for (const b of document.querySelectorAll("#actions [data-act]")) {
    b.addEventListener("click", () => {
      const a = b.dataset.act;
      if (a === "next_deal") send({ type: "next_deal" });
      else if (a === "discard" || a === "knock" || a === "gin") doCardAction(a);
      else if (a === "big gin") confirmThen(a);
      else act(a);
    });
  }
  $("stock").addEventListener("click", () => act("draw stock"));
  $("discard").addEventListener("click", () => { act(isLegal("take upcard") ? "take upcard" : "take discard"); });
  $("show-pile").addEventListener("click", togglePile);
  $("move-left").addEventListener("click", () => moveSelected(-1));
  $("move-right").addEventListener("click", () => moveSelected(1));
  $("help-btn").addEventListener("click", () => { $("help").hidden = false; });
  $("hint-btn").addEventListener("click", askHint);
  $("help-close").addEventListener("click", () => { $("help").hidden = true; });
  $("show-result").addEventListener("click", showResult);
  $("suggest-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const box = $("suggest-text");
    const text = box.value.trim() || (ui.selected ? t("discard {card}", { card: ui.selected }) : "");
    if (text) send({ type: "suggest", text });
    box.value = "";
  });
  confirmControls();
  $("confirm").addEventListener("click", (ev) => { if (ev.target === $("confirm")) answerConfirm(false); });
  document.addEventListener("keydown", onKey);
  // where a double click began (a card's dblclick discards only when its first click was on it)
  document.addEventListener("click", (ev) => {
    if (ev.detail > 1) return;
    const card = ev.target instanceof Element ? ev.target.closest("#hand .card") : null;
    ui.firstClick = card ? card.dataset.card : null;
  }, true);
  document.addEventListener("mousedown", () => document.body.classList.remove("kbd"));
  if (TOKEN || WATCH) connect();
  else if (INVITE) claimInvite();
  else if (TURN) openTurn();
}

init();
