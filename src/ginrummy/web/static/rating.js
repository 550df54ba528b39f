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
    box.replaceChildren(el("b", null, t("Ratings")), " ", ...info.changes.map(c => el("span", { "data-name": c.name },
      c.name, " ", fmtNumber(c.before), " \u2192 ",
      ratingEl("span", { class: c.provisional ? "provisional after" : "after" }, c.after, c.provisional), " ",
      el("span", { class: c.change >= 0 ? "up" : "down" }, (c.change >= 0 ? "+" : "\u2212") + fmtNumber(Math.abs(c.change))), "  ")),
      el("a", { href: "/replay/" + encodeURIComponent(state.table.id) }, t("replay")), " ",
      el("a", { href: "/leaderboard" }, t("Leaderboard")));
  },
};
