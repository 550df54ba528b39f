// Turn-based tables (docs/protocol.md, "Turn-based tables"): while a page of the room is open,
// a signed-in person's "your turn" list (GET /api/turns) is read every POLL_MS. The lobby shows
// it (#turns-panel); every page that loads this script says when a table newly waits for him:
// the page title counts the tables, an in-page notice links to the table, and the browser's
// Notification API is used only if he allowed it (the lobby's button asks). One request per
// poll, nothing when signed out.
(function () {
  "use strict";
  const POLL_MS = window.GIN_TURNS_POLL_MS || 30000;  // a test may set a shorter one
  let seen = null;  // "table why" keys at the last poll (null before the first)
  let timer = null;

  /** The time left of an entry, in whole hours (or minutes under an hour). */
  function leftText(seconds) {
    if (seconds >= 3600) return nt("{n} hour left", "{n} hours left", Math.floor(seconds / 3600));
    return nt("{n} minute left", "{n} minutes left", Math.max(1, Math.floor(seconds / 60)));
  }

  /** The opponent's name in this page's language: a name the table made ("Computer (novice)")
   *  is shown in the reader's language (localSeatName, common.js), a person's as he wrote it. */
  function opponentName(e) {
    return (e.opponents || []).map(s => localSeatName(s, false)).join(", ") || e.opponent;
  }

  /** What the table waits for, in words. */
  function describe(e) {
    e = { ...e, opponent: opponentName(e) };
    if (e.why === "move") return t("Your move against {name}: {left}", { name: e.opponent, left: leftText(e.left) });
    // between deals the days run for the person the next deal waits for: then left is a number
    const left = e.left === null ? null : leftText(e.left);
    if (e.why === "seed") return left === null ? t("Your table against {name} waits for you to open it (the next deal)", { name: e.opponent })
      : t("Your table against {name} waits for you to open it (the next deal): {left}", { name: e.opponent, left });
    return left === null ? t("The deal against {name} is over: start the next deal", { name: e.opponent })
      : t("The deal against {name} is over: start the next deal ({left})", { name: e.opponent, left });
  }

  function here(e) { return typeof TABLE_ID !== "undefined" && TABLE_ID === e.table; }

  function render(list) {
    const panel = document.getElementById("turns-panel");
    if (!panel) return;
    panel.hidden = false;
    const ul = document.getElementById("turns-list");
    ul.replaceChildren(...(list.length ? list.map(e => el("li", { "data-table": e.table },
      el("a", { href: e.link }, describe(e)),
      e.rated ? el("span", { class: "hint" }, " \u2013 " + t("rated")) : "")) : [el("li", { class: "hint" }, t("No table waits for you."))]));
    const ask = document.getElementById("turns-notify");
    if (ask) ask.hidden = !("Notification" in window) || Notification.permission !== "default";
  }

  function notice(fresh) {
    let box = document.getElementById("turn-notice");
    if (!box) {
      box = el("div", { id: "turn-notice", class: "turn-notice", role: "status" });
      document.body.prepend(box);
    }
    const e = fresh[0];
    box.replaceChildren(el("span", null, t("It is your turn at your table against {name}.", { name: opponentName(e) }) + " "),
      el("a", { href: e.link }, t("Open the table")),
      el("button", { class: "linkish", type: "button", onclick: () => { box.remove(); } }, t("Close")));
    if ("Notification" in window && Notification.permission === "granted") {
      try { new Notification(t("Gin Rummy: your turn"), { body: describe(e), tag: "gin-turn-" + e.table }); } catch (err) { /* not allowed here */ }
    }
  }

  async function poll() {
    timer = null;
    let body;
    try {
      const r = await fetch("/api/turns", { cache: "no-store" });
      body = await r.json();
    } catch (e) { timer = setTimeout(poll, POLL_MS); return; }
    if (!body.signed_in) return;  // signed out: nothing to tell (a sign-in reloads the page)
    const list = body.turns || [];
    render(list);
    const waiting = list.filter(e => !here(e));
    const title = document.title.replace(/^\(\d+\) /, "");  // as translated by now
    document.title = waiting.length ? `(${waiting.length}) ${title}` : title;
    const keys = new Set(list.map(e => e.table + " " + e.why));
    if (seen !== null) {
      const fresh = waiting.filter(e => !seen.has(e.table + " " + e.why));
      if (fresh.length) notice(fresh);
    }
    seen = keys;
    timer = setTimeout(poll, POLL_MS);
  }

  function init() {
    const ask = document.getElementById("turns-notify");
    if (ask) ask.addEventListener("click", async () => {
      try { await Notification.requestPermission(); } catch (e) { /* refused */ }
      ask.hidden = Notification.permission !== "default";
    });
    // a tab brought back to the front asks at once
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && timer !== null) { clearTimeout(timer); poll(); }
    });
    poll();
  }

  window.GinTurns = { poll };
  init();
})();
