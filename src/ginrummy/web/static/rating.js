// The table page's rating line (docs/accounts.md): at a rated table, says so (and when the match does not
// count for ratings: the pair's daily allowance); when the match is over, each player's rating change.
// And the fair-play bar (docs/protocol.md, "Leaving and resigning"): a Resign button (with a confirm), the
// countdown of an opponent who left, and the button that claims the win at its end.
// table.js calls GinRating.onState(state, send) with every state message.
"use strict";

window.GinRating = {
  timer: null,
  key: null,

  onState(state, send) {
    this.bar(state, send);
    let box = document.getElementById("rating-banner");
    const info = state && state.rating;
    if (!info) { if (box) box.remove(); return; }
    if (!box) {
      box = el("div", { id: "rating-banner", class: "rating-banner", role: "status" });
      document.body.append(box);
    }
    const over = state.match && state.match.finished;
    if (info.counts === false && (!over || !info.changes.length)) {
      box.replaceChildren(t("A rated table, but this match does not count for ratings: you have played your daily allowance of rated matches together."));
      return;
    }
    if (!over || !info.changes.length) { box.replaceChildren(t("A rated match: the result moves both players' ratings.")); return; }
    box.replaceChildren(...this.changes(state, null).childNodes);
  },
  /** Each player's rating change and the links to the replay and the leaderboard, in a ``p``
   *  (id ``id``): the banner's words, and the result dialog's at the end of the match. */
  changes(state, id) {
    return el("p", { id, class: "rating-changes" }, el("b", null, t("Ratings")), " ", ...state.rating.changes.map(c => el("span", { "data-name": c.name },
      c.name, " ", fmtNumber(c.before), " \u2192 ",
      ratingEl("span", { class: c.provisional ? "provisional after" : "after" }, c.after, c.provisional), " ",
      el("span", { class: c.change >= 0 ? "up" : "down" }, (c.change >= 0 ? "+" : "\u2212") + fmtNumber(Math.abs(c.change))), "  ")),
      el("a", { href: "/replay/" + encodeURIComponent(state.table.id) }, t("replay")), " ",
      el("a", { href: "/leaderboard" }, t("Leaderboard")));
  },

  /** The fair-play bar: Resign while the match is in play; the countdown of a player who left; how the match ended. */
  bar(state, send) {
    let box = document.getElementById("fair-play-bar");
    if (!box) {
      box = el("div", { id: "fair-play-bar", class: "row", role: "status", "aria-live": "polite" });
      // in the flow, above the players' panel: fixed over the page it covered the opponent's
      // bar on a phone and the panel's heading on a wide screen (the new-user trial, stop 39)
      const panel = document.getElementById("players-panel");
      if (panel) panel.before(box); else document.body.append(box);
    }
    const m = state.match || {};
    const seated = state.you !== null && state.you !== undefined;
    // rebuilt only when what it shows changes (a state comes at every move: its buttons stay put)
    const away0 = state.leaving;
    const key = JSON.stringify([state.started, m.finished, m.ended, m.forfeit, seated, away0 && away0.name, away0 && away0.deadline]);
    if (key === this.key) return;
    this.key = key;
    if (this.timer) { clearInterval(this.timer); this.timer = null; }
    const parts = [];
    if (m.finished && m.ended === "resigned") parts.push(el("span", { id: "ended-note" }, t("{name} resigned the match.", { name: m.forfeit })));
    else if (m.finished && m.ended === "left") parts.push(el("span", { id: "ended-note" }, t("{name} left the table and forfeited the match.", { name: m.forfeit })));
    if (state.started && !m.finished && seated && state.table.names.length === 2) {
      parts.push(el("button", { class: "btn", type: "button", id: "resign", onclick: () => {
        if (window.confirm(t("Resign this match? You lose it, and at a rated table your rating moves as for a loss."))) send({ type: "resign" });
      } }, t("Resign")));
    }
    const away = state.leaving;
    if (away && !m.finished) {
      const end = Date.now() + 1000 * away.left;
      const note = el("span", { id: "leaving-note" });
      const claim = el("button", { class: "btn primary", type: "button", id: "claim-win", hidden: true,
                                   onclick: () => send({ type: "claim" }) }, t("Claim the win"));
      const tick = () => {
        const left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
        note.textContent = left > 0
          ? t("{name} has left the table: unless he comes back, the win is yours in {seconds} s.", { name: away.name, seconds: fmtNumber(left) })
          : t("{name} has not come back: you may claim the win.", { name: away.name });
        claim.hidden = left > 0 || !seated || state.you === state.table.names.indexOf(away.name);
      };
      tick();
      this.timer = setInterval(tick, 500);
      parts.push(note, claim);
    }
    box.replaceChildren(...parts);
    box.hidden = parts.length === 0;
  },
};
