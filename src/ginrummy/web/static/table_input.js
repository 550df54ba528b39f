// The table page's input: the keys, the confirmation of a discard and of a knock or gin (two
// settings, on for new players, kept in localStorage), and the answer of a key or a click whose
// move is not possible now: every key says something.  Loaded before table.js, which calls init().
"use strict";

// ---------- settings: ask before a discard, before a knock or gin ----------
/** The confirm settings and their defaults: on for a new player (nothing stored yet). */
const CONFIRM = { discard: "confirmDiscard", knock: "confirmKnock" };
function confirmOn(which) { return !!SETTINGS.get(CONFIRM[which], true); }

/** Bind the help dialog's two checkboxes to the settings. */
function confirmControls() {
  for (const [which, id] of [["discard", "opt-confirm-discard"], ["knock", "opt-confirm-knock"]]) {
    const box = $(id);
    box.checked = confirmOn(which);
    box.addEventListener("change", () => SETTINGS.set(CONFIRM[which], box.checked));
  }
}

// ---------- key hints ----------
/** parts (texts and nodes, as tEl gives them) with each key hint of a text, " (U)" (a capital
 *  letter in brackets, in every language), put in a span.key: keys are for keyboards, and
 *  style.css hides .key on a phone as on the move buttons.  "(R4.3)", a rule, is left as it is. */
function keyHints(parts) {
  return parts.flatMap(p => typeof p !== "string" ? [p]
    : p.split(/( ?\([A-Z]\))/).filter(x => x !== "").map(x => /^ ?\([A-Z]\)$/.test(x) ? el("span", { class: "key" }, x) : x));
}

/** True on a phone: the screen width at which style.css hides the key hints (.key) and the
 *  help dialog's key list, and names the "? Keys" button "Settings" (its "phone" block,
 *  max-width 600px).  There the page's words say what to tap, not which key to press. */
function onPhone() { return !!(window.matchMedia && window.matchMedia("(max-width: 600px)").matches); }

// ---------- confirming a move ----------
let pendingConfirm = null;  // the action text waiting for a yes ("discard 7H"), or null

/** Send action text (a discard, knock, gin or big gin) now, or ask first if the setting says so. */
function confirmThen(text) {
  const which = text.startsWith("discard ") ? "discard" : "knock";
  if (!confirmOn(which) || !isLegal(text)) { act(text); return; }
  pendingConfirm = text;
  const card = hintTarget(text).card;
  const c = card ? cardText(card) : null;
  const question = { discard: () => tEl("Discard {card}?", { card: c }), knock: () => tEl("Knock, discarding {card}?", { card: c }),
                     gin: () => tEl("Go gin, discarding {card}?", { card: c }), "big gin": () => [t("Go big gin?")] }[hintTarget(text).act]();
  const setting = el("input", { type: "checkbox", id: "confirm-again", checked: true });
  setting.addEventListener("change", () => { SETTINGS.set(CONFIRM[which], setting.checked); const o = $(which === "discard" ? "opt-confirm-discard" : "opt-confirm-knock"); if (o) o.checked = setting.checked; });
  $("confirm-box").replaceChildren(
    el("h2", { id: "confirm-title" }, ...question),
    el("div", { class: "row" },
      el("button", { class: "btn", type: "button", id: "confirm-yes", onclick: () => answerConfirm(true) }, t("Yes"), el("span", { class: "key" }, " Enter")),
      el("button", { class: "btn secondary", type: "button", id: "confirm-no", onclick: () => answerConfirm(false) }, t("No"), el("span", { class: "key" }, " Esc"))),
    el("label", { class: "hint", for: "confirm-again" }, setting, " ",
      which === "discard" ? t("Ask before each discard") : t("Ask before a knock or gin")));
  $("confirm").hidden = false;
  $("confirm-yes").focus();
}

function closeConfirm() { pendingConfirm = null; $("confirm").hidden = true; }

function answerConfirm(yes) {
  const text = pendingConfirm;
  closeConfirm();
  if (yes && text) act(text);
}

// ---------- why a move cannot be made now ----------
/** Why the move kind ("draw stock", "discard", "knock", "next_deal", "hint"... or an action
 *  text, "discard 7H") cannot be made now, in words: turn first, then phase, then the rules.
 *  What to do next names a key on a desktop and the button to tap on a phone (onPhone). */
function whyNot(kind) {
  const s = S();
  if (!s) return t("Not connected: reconnecting...");
  const v = V();
  const base = kind.replace(/ [A2-9TJQK][CDHS]$/, "");
  if (s.match.finished) return t("The match is over.");
  // the hint button is hidden at a rated table; its key says why nothing happens (issue 34)
  if (base === "hint" && s.rating) return t("Hints are off at a rated table: the match counts for the ratings.");
  if (v.phase === "over") return base === "next_deal" ? null
    : onPhone() ? t("The deal is over: tap Next deal.") : t("The deal is over: press N for the next deal.");
  if (base === "next_deal") return t("The deal is not over yet.");
  if (s.role === "out") return t("You sit out this deal: the captain makes every move (R10.2).");
  if (!s.your_turn) return t("It is not your turn: {name} is to play.", { name: s.to_act });
  if (base === "hint") return null;
  if (v.phase === "upcard_offer") return t("First the upcard: take it (U) or pass (P) (R4.2).");
  if (v.phase === "draw") return t("First draw a card: from the stock (S) or from the discard pile (T) (R4.1).");
  if (v.phase === "wall") return t("Two cards are left: take the discard only to knock or go gin (T), or pass (P) (R7.2).");
  // the discard phase: after the draw
  if (["draw stock", "take upcard", "take discard", "pass"].includes(base)) return t("You have drawn: now discard (D), or knock (K) or go gin (G) if you can (R4.1).");
  const sel = kind.includes(" ") && base !== kind ? kind.slice(base.length + 1) : ui.selected;
  if (sel && sel === v.taken && !legal().some(a => a.endsWith(" " + sel))) {
    return t("{card} was just taken from the discard pile: it cannot be discarded this turn (R4.3).", { card: rankLabel(sel[0]) + SUIT_SYMBOL[sel[1]] });
  }
  const after = Object.entries(s.arrangement.after_discard || {}).filter(([c]) => c !== v.taken || s.table.rules.discard_taken_card).map(([, n]) => n);
  const best = after.length ? Math.min(...after) : 0;
  if (base === "knock") {
    if (legal().some(a => a.startsWith("gin ") || a === "big gin")) return onPhone() ? t("You have gin: tap Gin (R2.5).") : t("You have gin: press G (R2.5).");
    if (v.knock_limit === null) return t("Knocking is not allowed in this deal: only gin ends it (R8.1, R9.2).");
    return t("You cannot knock: your best discard leaves {n} deadwood, above the knock limit {limit} (R5.1).", { n: best, limit: v.knock_limit });
  }
  if (base === "gin") return t("You cannot go gin: your best discard leaves {n} deadwood (R2.5).", { n: best });
  if (base === "big gin") return s.table.rules.big_gin_bonus === null ? t("Big gin is not played at this table (R6.5).") : t("Big gin needs all eleven cards in melds (R6.5).");
  if (base === "discard") return onPhone() ? t("Pick a card to discard first (tap it, then tap Discard).")
    : t("Pick a card to discard first (click it, or use the arrow keys and Enter).");
  return null;
}

function sayWhyNot(kind) { const why = whyNot(kind); if (why) toast(why); }

// ---------- keys ----------
function onKey(ev) {
  if (ev.target && (ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA" || ev.target.tagName === "SELECT")) return;
  // the top bar's links and buttons (Settings, the phone's Menu) keep their own keys: Enter there
  // opens the menu or follows the link, it does not pick a card or answer the table's question
  if (ev.target instanceof Element && ev.target.closest(".topbar")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key;
  if (pendingConfirm) {  // the question waits for its answer: Enter or Y says yes, Esc or N no
    const yes = k === "Enter" || k === "y" || k === "Y" || ev.code === "KeyY";
    const no = k === "Escape" || k === "n" || k === "N" || ev.code === "KeyN";
    if (yes || no) { ev.preventDefault(); answerConfirm(yes); }
    return;
  }
  const help = $("help");
  if (k === "?") { help.hidden = !help.hidden; ev.preventDefault(); return; }
  if (k === "Escape") { help.hidden = true; $("result").hidden = true; ui.selected = null; if (S()) { renderHand(); renderButtons(); } return; }
  if (!S()) return;
  const cards = handOrder().cards;
  document.body.classList.add("kbd");
  if (k === "ArrowLeft" || k === "ArrowRight") {
    ev.preventDefault();
    const d = k === "ArrowLeft" ? -1 : 1;
    if (ev.shiftKey) { moveSelected(d); return; }
    ui.cursor = (ui.cursor + d + cards.length) % cards.length;
    renderHand();
    return;
  }
  if (k === "Enter" || k === " ") {
    ev.preventDefault();
    if (!$("result").hidden && S().can_next_deal) { send({ type: "next_deal" }); return; }
    if (cards[ui.cursor]) pick(cards[ui.cursor], ui.cursor);
    return;
  }
  if (/^[0-9-]$/.test(k)) {
    const i = k === "0" ? 9 : k === "-" ? 10 : Number(k) - 1;
    if (cards[i]) { ui.cursor = i; pick(cards[i], i); if (ui.selected !== cards[i]) pick(cards[i], i); }
    return;
  }
  // the key's place on the keyboard, so the letters work with a Greek (or any) layout too
  const key = /^Key[A-Z]$/.test(ev.code || "") ? ev.code.slice(3) : k.toUpperCase();
  const map = { S: "draw stock", U: "take upcard", P: "pass" };
  if (map[key]) { act(map[key]); return; }
  if (key === "T") { act(isLegal("take upcard") ? "take upcard" : "take discard"); return; }
  if (key === "B") { if (isLegal("big gin")) confirmThen("big gin"); else sayWhyNot("big gin"); return; }
  if (key === "D") { doCardAction("discard"); return; }
  if (key === "K") { doCardAction("knock"); return; }
  if (key === "G") { doCardAction("gin"); return; }
  if (key === "N") { if (S().can_next_deal) send({ type: "next_deal" }); else sayWhyNot("next_deal"); return; }
  if (key === "H") { if (S().can_hint) askHint(); else sayWhyNot("hint"); return; }
  if (key === "A") { togglePile(); return; }
  if (key === "R") { if (V().phase === "over") showResult(); else sayWhyNot("next_deal"); return; }
}

function togglePile() { $("pile-all").hidden = !$("pile-all").hidden; renderCenter(); }
