// The table page's rating line (docs/accounts.md): at a rated table, says so; when the match is over, each
// player's rating change. table.js calls GinRating.onState(state) with every state message.
"use strict";

window.GinRating = {
  onState(state) {
    let box = document.getElementById("rating-banner");
    const info = state && state.rating;
    if (!info) { if (box) box.remove(); return; }
    if (!box) {
      box = el("div", { id: "rating-banner", class: "rating-banner", role: "status" });
      document.body.append(box);
    }
    const over = state.match && state.match.finished;
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
};
