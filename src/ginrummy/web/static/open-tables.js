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
      if (!r.ok) { $("error").textContent = body.error || String(r.status); return; }
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
    what.textContent = [PRESET_NAMES[r.name] || CHOICE_LABELS[r.variant] || r.variant, scoring, rated]
      .filter(Boolean).join(" \u00b7 ");
    return el("li", { "data-table": x.id }, what, ...seats,
      el("a", { class: "btn secondary", href: `/table/${x.id}?watch=1` }, t("Watch")),
      x.watchers ? el("span", { class: "hint" }, nt("{n} watching", "{n} watching", x.watchers)) : null);
  }

  function showTables(list) {
    $("open-tables").replaceChildren(...(list.length ? list.map(entry) : [el("li", { class: "hint" }, t("No open table now: open one above."))]));
  }

  function showChat(msg) {
    const muted = new Set(SETTINGS.get("muted", []));
    if (muted.has(msg.from)) return;
    const who = el("b");
    who.textContent = msg.from + (msg.guest ? "" : ": ");
    // a guest's name is his own choice (the server refuses computer seats' and accounts' names):
    // say so after it, as text; a signed-in person's line ("account": true) carries his account's name
    const mark = msg.guest ? el("span", { class: "hint" }, " ", t("(guest)"), ": ") : null;
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
  }

  init();
})();
