// The lobby's open tables and lobby chat, live over /ws/lobby (docs/protocol.md, "The card room").
// Every name and message is put in the page as text (textContent), never as HTML.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let ws = null;
  let retry = 0;

  // the name typed, else the account's, else the last one used; none: the seat keeps its own name
  function myName() { return ($("your-name") && $("your-name").value.trim()) || window.SIGNED_IN_AS || SETTINGS.get("name", ""); }

  async function sit(id, seat) {
    try {
      const r = await fetch(`/api/tables/${id}/sit?lang=${LANG}`, { method: "POST", headers: { "Content-Type": "application/json" },
                                                                  body: JSON.stringify({ seat, name: myName() }) });
      const body = await r.json();
      if (!r.ok) { $("error").textContent = errorText(body, r.status); return; }
      location.href = body.link;
    } catch (e) { $("error").textContent = String(e); }
  }

  /** A seat's name in this page's language; a computer the table named ("Computer (novice)") as
   * it is, any other computer's name with "(computer)" after it. */
  function seatLabel(s) {
    if (s.kind !== "computer") return localSeatName(s, false);
    const local = localSeatName(s, false);
    const forms = I18N.seat_names && I18N.seat_names[LANG];
    const made = forms && forms.computer && forms.computer[s.level];
    return made && local.startsWith(made) ? local : t("{name} (computer)", { name: s.name });
  }

  function entry(x) {
    const r = x.rules;
    const seats = x.seats.map((s, i) => {
      if (s.free) return el("button", { class: "btn", type: "button", "data-sit": `${x.id}:${i}`, onclick: () => sit(x.id, i) }, t("Sit here"));
      const label = el("span");
      label.textContent = seatLabel(s);
      if (s.bot) label.append(" ", el("span", { class: "bot-badge", title: t("a bot account: a program plays this seat") }, "BOT"));
      return label;
    });
    const what = el("span", { class: "hint" });
    // in the page's language (the names of lobby.js): "standard · game to 100"
    const scoring = r.scoring === "hollywood" ? t("Hollywood to {n}", { n: r.target })
      : r.scoring === "game" ? t("game to {n}", { n: r.target }) : t("one deal");
    const rated = x.rated ? t("rated") : null;  // the result moves both players' ratings
    const days = x.days ? nt("Turn-based: {n} day a move.", "Turn-based: {n} days a move.", x.days).replace(/\.$/, "") : null;
    // the preset's name, else the game's, capitalised as the presets' are; three-hand said so
    const game = PRESET_NAMES[r.name] || CHOICE_LABELS[r.variant] || r.variant;
    what.textContent = [game.charAt(0).toLocaleUpperCase(LANG) + game.slice(1), x.seats.length === 3 ? t("Three-hand gin") : null,
      scoring, rated, days].filter(Boolean).join(" \u00b7 ");
    return el("li", { "data-table": x.id }, what, ...seats,
      el("a", { class: "btn secondary", href: `/table/${x.id}?watch=1` }, t("Watch")),
      x.watchers ? el("span", { class: "hint" }, nt("{n} watching", "{n} watching", x.watchers)) : null,
      about(x));
  }

  /** Who opened the table, how long ago, and until when an unstarted one stays listed (the
   *  server's lobby.UNSTARTED_LOBBY_SECONDS): open tables told apart (issue 34). */
  function about(x) {
    const parts = [];
    if (x.host) parts.push(t("opened by {name}", { name: x.host }));
    const made = Date.parse(x.created || "");
    if (!Number.isNaN(made)) {
      const minutes = Math.max(0, Math.floor((Date.now() - made) / 60000));
      parts.push(minutes < 1 ? t("just now") : nt("{n} minute ago", "{n} minutes ago", minutes));
    }
    const ends = Date.parse(x.expires || "");
    if (!Number.isNaN(ends)) {
      parts.push(t("listed until {time} unless it starts", { time: new Date(ends).toLocaleTimeString(LANG, { hour: "2-digit", minute: "2-digit" }) }));
    }
    const line = el("span", { class: "hint table-about" });
    line.textContent = parts.join(" \u00b7 ");  // the host's name is text, never markup
    return parts.length ? line : null;
  }

  let shown = [];
  function showTables(list) {
    shown = list;
    // a table left unstarted past its time goes from this list at that time, as from the server's
    const now = Date.now();
    list = list.filter(x => !x.expires || Date.parse(x.expires) > now);
    $("open-tables").replaceChildren(...(list.length ? list.map(entry) : [el("li", { class: "hint" }, t("No open table now: open one above."))]));
  }
  setInterval(() => { if ($("open-tables")) showTables(shown); }, 30000);  // the ages and the times

  function showChat(msg) {
    const muted = new Set(SETTINGS.get("muted", []));
    if (muted.has(msg.from)) return;
    // a signed-in person's name links to his player page (block, mute or report him there)
    const who = msg.account ? el("a", { class: "chat-from", href: "/players/" + encodeURIComponent(msg.from),
      title: t("Block, mute or report {name}", { name: msg.from }) }) : el("b");
    who.textContent = msg.from + (msg.guest ? "" : ": ");
    // a guest's name is his own choice (the server refuses computer seats' and accounts' names):
    // say so after it, as text; a signed-in person's line ("account": true) carries his account's name
    // a guest who typed no name posts as "Guest": no "Guest (guest)" (issue 34)
    const plain = msg.guest && [t("Guest"), "Guest"].includes(msg.from);
    if (plain) who.textContent = msg.from + ": ";
    const mark = msg.guest && !plain ? el("span", { class: "hint" }, " ", t("(guest)"), ": ") : null;
    const text = el("span");
    text.textContent = msg.text;
    const box = $("lobby-chat");
    box.querySelector(":scope > p.hint")?.remove();
    box.append(el("div", { class: "chat-line" }, who, mark, text));
    while (box.childNodes.length > 50) box.firstChild.remove();
    box.scrollTop = box.scrollHeight;
  }

  // the last line sent, until the server answers it (the socket answers in order)
  let unsent = null;

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/lobby?lang=${LANG}`);
    ws.onopen = () => { retry = 0; $("lobby-chat").replaceChildren(el("p", { class: "hint" }, t("No message yet."))); };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "lobby") showTables(msg.tables);
      else if (msg.type === "chat") {
        showChat(msg);
        if (msg.text === unsent) unsent = null;  // ours went out
      } else if (msg.type === "error") {
        showChat({ from: "!", text: msg.message });
        // a refused line (a name not allowed, too many lines) is given back to be mended, not lost
        if (unsent !== null && !$("lobby-chat-text").value) $("lobby-chat-text").value = unsent;
        unsent = null;
      }
    };
    ws.onclose = () => { retry = Math.min(retry + 1, 6); setTimeout(connect, 500 * retry); };
  }

  function init() {
    if (!$("open-tables")) return;
    $("lobby-chat-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = $("lobby-chat-text").value.trim();
      if (text && ws && ws.readyState === WebSocket.OPEN) {
        ws.send(JSON.stringify({ type: "chat", name: (myName() || t("Guest")).slice(0, 24), text }));
        unsent = text;  // until the server's answer: the line itself, or an error (then it is put back)
      }
      $("lobby-chat-text").value = "";
    });
    connect();
    // a new account chats here once it has finished a match (docs/accounts.md, "Fair play"): the chat box says so
    fetch("/api/me").then(r => r.json()).then(me => {
      if (!me || !me.signed_in || me.can_chat) return;
      $("lobby-chat-form").before(el("p", { class: "hint", id: "lobby-chat-new" },
        t("A new account may chat here once it has finished a match.")));
      $("lobby-chat-text").disabled = true;
    }).catch(() => {});
  }

  init();
})();
