// The table page's seats and roles: the badges of each seat (dealer, to play; in three-hand
// gin the box, the captain and the player sitting out, R10.1), the player's own seat bar, the
// role draw, and the advice panel of R10.2.  Loaded before table.js; uses its state helpers.
"use strict";

function roleBadges(name) {
  const s = S();
  const out = [];
  if (s.roles) {
    if (s.roles.box === name) out.push(el("span", { class: "badge gold" }, t("in the box")));
    if (s.roles.captain === name) out.push(el("span", { class: "badge" }, t("captain")));
    if (s.roles.out === name) out.push(el("span", { class: "badge off" }, t("sits out, advises")));
  }
  if (s.deal.dealer === name) out.push(el("span", { class: "badge" }, t("dealer")));
  if (s.to_act === name) out.push(el("span", { class: "badge gold" }, t("to play")));
  return out;
}

/** The seat bar above the hand: the player's own name and role badges (R10.1: box, captain,
 *  sits out; dealer; to play).  The player sitting out sees the captain's hand: it says so. */
function renderMe() {
  const s = S();
  const me = s.table.names[s.you];
  const holder = s.role === "out" ? mySeatName() : null;
  $("me-bar").replaceChildren(...[
    el("span", { class: "name", id: "me-name" }, me), el("span", { class: "hint", style: "color:#d8efe0" }, t("(you)")),
    ...roleBadges(me),
    holder ? el("span", { class: "hint", style: "color:#d8efe0" }, t("the hand below is {name}'s (R10.2)", { name: holder })) : null,
  ].filter(Boolean));
}

/** The role draw of R10.1, as drawn: each round's ranks by player (king high, ace low), then
 *  who got which role. */
function roleDrawLine(s) {
  const names = s.table.names;
  const rounds = s.role_draws.map((r, k) => el("div", { class: "draw-round" },
    s.role_draws.length > 1 ? (k < s.role_draws.length - 1 ? t("tie, drawn again:") + " " : t("then:") + " ") : "",
    ...r.map((rank, i) => el("span", { class: "draw-card" }, names[i] + " ", el("b", null, rankLabel(rank)), i < r.length - 1 ? ", " : ""))));
  const last = s.role_draws[s.role_draws.length - 1];
  const order = [0, 1, 2].sort((a, b) => rankIndex(last[b]) - rankIndex(last[a]));
  return el("div", { class: "role-draw hint", id: "role-draw" },
    el("b", null, t("Role draw (R10.1):")), " ", ...rounds,
    el("div", null, t("Highest card {box} in the box, middle {captain} captain, lowest {out} sits out.",
      { box: names[order[0]], captain: names[order[1]], out: names[order[2]] })),
    el("div", null, t("Since then the roles move as R10.4 says.")));
}

function renderAdvice() {
  const s = S();
  const show = !!s.roles && (s.role === "captain" || s.role === "out");
  $("advice-panel").hidden = !show;
  if (!show) return;
  const captain = s.roles ? seatInfo(s.roles.captain) : null;
  if (s.role === "out" && captain && captain.kind === "computer") {
    // a computer captain plays at once: advice could never reach it in time (R10.2)
    $("suggestions").replaceChildren(el("p", { class: "hint", id: "no-advice" },
      t("{name} is a computer: it moves at once and takes no advice. Only a person can be advised (R10.2); you can watch the hand.", { name: s.roles.captain })));
    $("suggest-form").hidden = true;
    return;
  }
  const adviser = s.roles ? seatInfo(s.roles.out) : null;
  if (s.role === "captain" && adviser && adviser.kind === "computer" && !s.suggestions.length) {
    $("suggestions").replaceChildren(el("p", { class: "hint", id: "no-advice" },
      t("{name} sits out and is a computer: it gives no advice (R10.2).", { name: s.roles.out })));
    $("suggest-form").hidden = true;
    return;
  }
  const list = $("suggestions");
  list.replaceChildren(...(s.suggestions.length ? s.suggestions.map(x => el("div", { class: "s" }, el("b", null, x.from + ": "), ...withCards(x.text)))
    : [el("p", { class: "hint" }, s.role === "out" ? t("Suggest moves to the captain; he decides (R10.2).") : t("The player sitting out can suggest moves here."))]));
  list.scrollTop = list.scrollHeight;
  $("suggest-form").hidden = !s.can_suggest;
}

