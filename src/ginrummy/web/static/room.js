// The card room on the table page (docs/protocol.md, "The card room"): how many watch, the
// table chat (text only: every message is put in the page with textContent), a mute per name,
// the rematch button, and the spectator's view (a spectator sees both hands face down).
"use strict";

const GinRoom = (() => {
  const $ = (id) => document.getElementById(id);
  let sendFn = null;
  let last = null;
  let rematchLink = null;  // this person's seat link at the new table, once every player asked
  const muted = () => new Set(SETTINGS.get("muted", []));

  function toggleMute(name) {
    const m = muted();
    if (m.has(name)) m.delete(name); else m.add(name);
    SETTINGS.set("muted", [...m]);
    if (last) render(last);
  }

  /** The name a chat line is shown under: a spectator's number at the table. */
  function sender(x) {
    if (!x.spectator) return x.from || "?";
    return x.watcher ? t("spectator {n}", { n: x.watcher }) : t("spectator");
  }

  /** What muting a line's sender keeps: his name (or a spectator's number) at this table only:
   *  an Ann or a spectator 1 at another table is somebody else. */
  function muteKey(x) {
    return `${x.spectator ? (x.watcher ? `spectator ${x.watcher}` : "spectator") : (x.from || "?")} at ${TABLE_ID}`;
  }

  let openFor = null;  // the chat line whose block / mute / report panel is open

  /** Whether a chat line's sender sits at this table signed in (an account: he can be blocked). */
  function isAccount(x) {
    if (x.spectator || !x.from || !last) return false;
    const seats = (last.table && last.table.seats) || last.seats || [];
    return seats.some(seat => seat && seat.name === x.from && seat.account) && x.from !== window.SIGNED_IN_AS;
  }

  function line(x) {
    const who = sender(x);
    const nameBtn = el("button", { class: "linkish", type: "button", title: t("Mute or unmute {name}", { name: who }),
                                   onclick: () => toggleMute(muteKey(x)) });
    nameBtn.textContent = who + ":";
    const text = el("span");
    text.textContent = " " + x.text;  // text only: nothing anyone types is read as HTML
    // a bot account's line says BOT before the name (docs/bot-api.md)
    const bot = x.bot ? [el("span", { class: "bot-badge", title: t("a bot account: a program plays this seat") }, "BOT"), " "] : [];
    const row = el("div", { class: "chat-line" }, ...bot, nameBtn, text);
    if (isAccount(x) && typeof GinModerate !== "undefined") {
      const key = `${x.from}\n${x.text}`;
      row.append(" ", el("button", { class: "linkish hint chat-act", type: "button", title: t("Block, mute or report {name}", { name: who }),
        "aria-label": t("Block, mute or report {name}", { name: who }),
        onclick: () => { openFor = openFor === key ? null : key; render(last); } }, "\u2691"));
      if (openFor === key) row.append(GinModerate.panel(x.from, { tableId: TABLE_ID, message: x.text }));
    }
    return row;
  }

  let tick = null;

  /** The running clock, counted down here between states (the server keeps the real one). */
  function renderClock(s) {
    const box = $("clock");
    if (!box) return;
    if (tick) { clearInterval(tick); tick = null; }
    const c = s.clock;
    if (!c) { box.textContent = ""; return; }
    if (c.days) { renderDays(box, s, c); return; }
    const base = t("Clock: {move} s a move + a bank of {bank} s.", { move: c.move, bank: c.bank });
    if (c.forfeit) { box.textContent = base + " " + t("{name} ran out of time three times in a row and forfeits.", { name: c.forfeit }); return; }
    // a live clock that ran out between deals (the next deal waited for his seed or next_deal) forfeits at once
    const m = s.match || {};
    if (m.ended === "time" && m.forfeit) { box.textContent = base + " " + t("{name} ran out of time between deals and forfeits.", { name: m.forfeit }); return; }
    if (c.left === null || c.turn === null) { box.textContent = base; return; }
    const start = Date.now();
    const bank = c.banks[c.turn] || 0;
    const show = () => {
      // c.left counts to the deadline: the move's own time first, then the bank
      const left = Math.max(0, c.left - (Date.now() - start) / 1000);
      const own = Math.max(0, left - bank);
      box.textContent = base + " " + (own > 0 || bank === 0
        ? t("{name}: {left} s for this move, then the bank of {bank} s.", { name: c.turn, left: Math.ceil(own), bank: Math.round(bank) })
        : t("{name}: on the bank, {left} s left.", { name: c.turn, left: Math.ceil(left) }));
      box.classList.toggle("error-box", left < 10);
    };
    show();
    tick = setInterval(show, 500);
  }

  /** A turn-based table's clock: days a move, and until when the player to act may move. */
  function renderDays(box, s, c) {
    const base = nt("Turn-based: {n} day a move.", "Turn-based: {n} days a move.", c.days);
    const m = s.match || {};
    if (m.ended === "time" && m.forfeit) {
      box.textContent = base + " " + t("{name} did not move in time and forfeited the match.", { name: m.forfeit });
    } else if (c.turn && c.deadline) {
      const when = new Date(c.deadline * 1000).toLocaleString(LANG);
      // between deals the days run for the person the next deal waits for (his seed, or the next_deal he owes)
      box.textContent = base + " " + (s.view && s.view.phase === "over"
        ? t("The next deal waits for {name} until {when}.", { name: c.turn, when })
        : t("{name} may move until {when}.", { name: c.turn, when }));
    } else box.textContent = base;
    box.classList.remove("error-box");
  }

  function render(s) {
    last = s;
    renderClock(s);
    const panel = $("room-panel");
    if (!panel) return;
    panel.hidden = false;
    $("watchers").textContent = s.public ? nt("{n} watching", "{n} watching", s.watchers || 0) : "";
    const m = muted();
    const shown = (s.chat || []).filter(x => !m.has(muteKey(x)));
    // the senders muted here who wrote: a button each to hear them again (their name is gone)
    const hidden = new Map();
    for (const x of s.chat || []) if (m.has(muteKey(x))) hidden.set(muteKey(x), sender(x));
    const unmute = [...hidden].map(([key, name]) => el("button", { class: "linkish hint", type: "button",
      onclick: () => toggleMute(key) }, t("Unmute {name}", { name })));
    // a spectator who may not chat does not read the players' chat either (docs/protocol.md)
    const empty = s.you === null && !s.can_chat ? t("Only the players read this table's chat: they have not opened it to spectators.")
      : t("No message yet.");
    $("chat-list").replaceChildren(...(shown.length ? shown.map(line) : [el("p", { class: "hint" }, empty)]),
      ...(unmute.length ? [el("div", { class: "chat-muted" }, ...unmute)] : []));
    if (!openFor) $("chat-list").scrollTop = $("chat-list").scrollHeight;
    $("chat-form").hidden = !s.can_chat;
    const r = s.rematch || { asked: [], can_ask: false };
    $("rematch").hidden = !(s.match && s.match.finished) || s.you === null || rematchLink !== null;
    $("rematch").disabled = !r.can_ask;
    // the link to the new table, once sent, stays (the states that follow it must not wipe it)
    if (rematchLink) $("rematch-note").replaceChildren(el("a", { class: "btn", href: rematchLink, id: "rematch-link" }, t("Go to the rematch")));
    else $("rematch-note").textContent = r.asked.length ? t("Asked for a rematch: {names}", { names: r.asked.join(", ") }) : "";
    // a tournament's table: no rematch (the next round is paired), a way back to the tournament
    const tour = s.table && s.table.tournament;
    $("tournament-link").hidden = !tour;
    if (tour) { $("tournament-link").href = "/tournaments/" + encodeURIComponent(tour); $("rematch").hidden = true; }
  }

  /** Called by table.js with every state; returns the state to render (a spectator's view is
   *  drawn from seat 0's side, with both hands face down). */
  function onState(s, send) {
    sendFn = send;
    if (s.you === null && s.view) s.view.seat = 0;
    render(s);
    return s;
  }

  /** Messages that are the room's: chat lines and the rematch link. True when handled. */
  function onMessage(msg) {
    if (msg.type === "chat") {
      if (last) { last.chat = [...(last.chat || []), msg].slice(-50); render(last); }
      return true;
    }
    if (msg.type === "watchers") {  // a spectator came or went: the count only (docs/protocol.md)
      if (last) { last.watchers = msg.count; render(last); }
      return true;
    }
    if (msg.type === "rematch") {
      rematchLink = msg.link;
      if (last) render(last);
      return true;
    }
    return false;
  }

  /** A spectator's own side of the table: seat 0's cards face down, and those seen taken. */
  function renderSpectatorHand(box, v) {
    const seen = (v.seen && v.seen[0]) || [];
    const backs = Math.max(0, ((v.hand_counts && v.hand_counts[0]) || 0) - seen.length);
    box.replaceChildren(...seen.map(c => cardEl(c)), ...Array.from({ length: backs }, () => cardBack()));
  }

  function init() {
    const form = $("chat-form");
    if (!form) return;
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const box = $("chat-text");
      const text = box.value.trim();
      if (text && sendFn) sendFn({ type: "chat", text });
      box.value = "";
    });
    $("rematch").addEventListener("click", () => { if (sendFn) sendFn({ type: "rematch" }); });
    const report = $("report-table");
    if (report && typeof GinModerate !== "undefined") {
      report.addEventListener("click", () => {
        const box = $("report-table-box");
        if (box.firstChild) { box.replaceChildren(); return; }
        const status = el("span", { class: "hint mod-status", role: "status" });
        box.replaceChildren(GinModerate.reportForm({ table_id: TABLE_ID }, status), status);
      });
    }
  }

  document.addEventListener("DOMContentLoaded", init);
  if (document.readyState !== "loading") init();
  return { onState, onMessage, renderSpectatorHand };
})();
window.GinRoom = GinRoom;
