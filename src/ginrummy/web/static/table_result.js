// The table page's end of a deal: the result dialog with both layouts and the layoffs, how the
// points were counted (R5, R6, R9.3), the draw's reason (R7), the score sheet, and the buttons for
// the next deal, a rematch, the record and the review.  Loaded before table.js; uses its state
// helpers.
"use strict";

function groupEl(cards, cls) { return el("span", { class: `meldgrp ${cls || ""}` }, ...cards.map(c => cardEl(c, { mini: true }))); }

/** One player's row of the result: the name, the card groups (melds, laid off, deadwood) and
 *  "deadwood {n}".  The count and the last group (the deadwood, else the last meld) are one item
 *  of the wrapping row, so that the count never drops to a line of its own. */
function layoutRow(name, groups, deadwood) {
  const items = groups.filter(g => g);
  const count = el("span", { class: "nowrap dead-count" }, t("deadwood {n}", { n: deadwood }));
  const last = items.length ? el("span", { class: "layout-last" }, items.pop(), count) : count;
  return el("div", { class: "layout-row" }, el("span", { class: "layout-name" }, `${name}`), ...items, last);
}

function explainLines(r, names) {
  const K = names.knocker, D = names.defender;
  const kl = r.knocker_layout, dl = r.defender_layout;
  const mult = r.multiplier || 1;
  const base = r.points / mult;
  const bonus = r.bonus / mult;
  const lines = [];
  const cards = (list) => list.map(c => rankLabel(c[0]) + SUIT_SYMBOL[c[1]]).join(" ");
  const kd = kl.deadwood_value, dd = dl.deadwood_value;
  if (r.outcome === "gin" || r.outcome === "big_gin") {
    lines.push(r.outcome === "gin" ? t("{knocker} went gin: no deadwood.", { knocker: K })
      : t("{knocker} went big gin, all eleven cards melded: no deadwood.", { knocker: K }));
    lines.push(dl.deadwood.length
      ? nt("{defender} may not lay off on a gin hand (R5.4): his deadwood is {n} point ({cards}).",
           "{defender} may not lay off on a gin hand (R5.4): his deadwood is {n} points ({cards}).", dd, { defender: D, cards: cards(dl.deadwood) })
      : t("{defender} may not lay off on a gin hand (R5.4) and has no deadwood.", { defender: D }));
    lines.push(r.outcome === "gin" ? t("{knocker} scores the gin bonus {bonus} + {deadwood} = {points} (R6.1).", { knocker: K, bonus, deadwood: dd, points: base })
      : t("{knocker} scores the big gin bonus {bonus} + {deadwood} = {points} (R6.5).", { knocker: K, bonus, deadwood: dd, points: base }));
  } else {
    lines.push(kl.deadwood.length
      ? nt("{knocker} knocked with {n} point of deadwood ({cards}).", "{knocker} knocked with {n} points of deadwood ({cards}).", kd, { knocker: K, cards: cards(kl.deadwood) })
      : t("{knocker} knocked with no deadwood.", { knocker: K }));
    if (dl.layoffs.length) {
      lines.push(nt("{defender} laid off {n} card on {knocker}'s melds (R5.4): {cards}.", "{defender} laid off {n} cards on {knocker}'s melds (R5.4): {cards}.",
        dl.layoffs.length, { defender: D, knocker: K, cards: cards(dl.layoffs.map(l => l.card)) }));
    }
    lines.push(dl.deadwood.length
      ? nt("{defender} has {n} point of deadwood left ({cards}).", "{defender} has {n} points of deadwood left ({cards}).", dd, { defender: D, cards: cards(dl.deadwood) })
      : t("{defender} has no deadwood left.", { defender: D }));
    if (r.outcome === "knock") lines.push(t("{knocker} scores {defender_deadwood} \u2212 {knocker_deadwood} = {points} (R6.2).", { knocker: K, defender_deadwood: dd, knocker_deadwood: kd, points: base }));
    else lines.push(t("{defender_deadwood} is not less than {knocker_deadwood}: an undercut (R6.3). {defender} scores the undercut bonus {bonus} + ({knocker_deadwood} \u2212 {defender_deadwood}) = {points}.",
      { defender: D, defender_deadwood: dd, knocker_deadwood: kd, bonus, points: base }));
  }
  if (mult > 1) lines.push(t("The first upcard was a spade: the deal counts double (R9.3), {points} \u00d7 {factor} = {total}.", { points: base, factor: mult, total: r.points }));
  return lines;
}

/** Whether the finished match of state ``s`` is kept on the server for this page to replay
 *  (docs/accounts.md): a rated match (public), or one where this page's seat is a signed-in
 *  person's.  A guest's unrated match is not kept: its record is downloaded instead. */
function matchReplayable(s) {
  if (!s.match.finished) return false;
  if (s.rating) return true;
  const seat = s.you !== null && s.you !== undefined ? s.table.seats[s.you] : null;
  return !!(seat && seat.account);
}

function showResult() {
  const s = S(), v = V(), r = v.result;
  const box = $("result-box");
  box.replaceChildren();
  const sp = s.seat_players;
  if (r.outcome === "draw") {
    const why = { "R7.1": t("Only two cards were left in the stock and nobody knocked (R7.1)."),
                  "R7.2": t("The last discard could not be used to knock or go gin (R7.2)."),
                  "R7.3": t("The stock ran out after the allowed reshuffles (R7.3).") }[r.reason] || r.reason;
    box.append(el("h2", { id: "result-title" }, t("The deal is a draw")), el("p", null, why, " ", t("Nobody scores; the same dealer deals again.")));
  } else {
    const K = sp[r.knocker], D = sp[1 - r.knocker], W = sp[r.winner];
    const title = { knock: t("{knocker} knocks", { knocker: K }), undercut: t("Undercut! {defender} beats {knocker}", { defender: D, knocker: K }),
                    gin: t("{knocker} goes gin!", { knocker: K }), big_gin: t("{knocker} goes big gin!", { knocker: K }) }[r.outcome];
    box.append(el("h2", { id: "result-title" }, title),
      el("div", { class: "points-big" }, nt("{name} scores {n} point", "{name} scores {n} points", r.points, { name: W })));
    const kl = r.knocker_layout, dl = r.defender_layout;
    box.append(layoutRow(K, [...kl.melds.map(m => groupEl(m)), kl.deadwood.length ? groupEl(kl.deadwood, "dead") : null], kl.deadwood_value));
    box.append(layoutRow(D, [...dl.melds.map(m => groupEl(m)),
      dl.layoffs.length ? el("span", { class: "meldgrp lay", title: t("laid off on the knocker's melds") }, t("laid off:"), " ",
        ...dl.layoffs.map(l => cardEl(l.card, { mini: true, title: t("{card} onto {meld}", { card: cardName(l.card), meld: l.onto.map(c => rankLabel(c[0]) + SUIT_SYMBOL[c[1]]).join(" ") }) }))) : null,
      dl.deadwood.length ? groupEl(dl.deadwood, "dead") : null], dl.deadwood_value));
    // how the points were counted: open on a wide screen, a line to tap on a phone, so that the
    // score sheet and the buttons are near (issue 34: they needed scrolling at 375 px)
    const how = el("details", { class: "explain-box", id: "result-explain" }, el("summary", null, t("How the points were counted")),
      el("ol", { class: "explain" }, ...explainLines(r, { knocker: K, defender: D }).map(t => el("li", null, t))));
    how.open = !onPhone();
    box.append(how);
  }
  const sheetBox = el("div");
  renderSheet(sheetBox, s.sheet);
  box.append(el("h3", null, tm("Score sheet")), sheetBox);
  // each player's score of the deal and the match (table_score.js), after the sheet: on a phone
  // the points and the sheet stay above the dialog's buttons (issue 34)
  if (window.GinScore) GinScore.addPanel(box);
  // a drawn deal's seed stays secret until the match ends (the fair-deal panel says so): no empty line
  if (s.deal.seed != null) {
    box.append(el("p", { class: "hint" }, ...tEl("Deal seed (now revealed): {seed}", { seed: el("span", { class: "mono" }, s.deal.seed) })));
  }
  const buttons = el("div", { class: "row result-buttons" });
  if (s.match.finished) {
    box.append(el("p", { class: "points-big" }, s.match.winner ? t("{name} wins the match!", { name: s.match.winner }) : t("The match is over.")));
    // the ratings' changes are said here: the banner of rating.js waits behind this dialog
    // (issue 34: it covered the dialog's buttons)
    if (s.rating && s.rating.changes && s.rating.changes.length && window.GinRating) box.append(GinRating.changes(s, "result-rating"));
    // a match with a signed-in person is kept on the server (docs/accounts.md): its replay, with
    // the expert's review of every move, is a click away; a rated match's replay is public
    if (matchReplayable(s)) {
      buttons.append(el("a", { class: "btn", id: "replay-match", href: `/replay/${encodeURIComponent(TABLE_ID)}` }, t("Replay and review the match")));
    }
    // the Rematch button of the room panel is behind this dialog: ask here, then show the panel
    if (s.rematch && s.rematch.can_ask) {
      buttons.append(el("button", { class: "btn", type: "button", id: "rematch-dialog", onclick: () => {
        send({ type: "rematch" }); $("result").hidden = true; $("room-panel").scrollIntoView({ block: "nearest" }); } }, t("Rematch")));
    }
    if (s.table.tournament) {
      buttons.append(el("a", { class: "btn", id: "tournament-dialog", href: "/tournaments/" + encodeURIComponent(s.table.tournament) }, t("Back to the tournament")));
    }
    // the record is a seat's to download (a spectator has no seat token to ask with), and how to
    // watch the match again from it is said: a guest's match is not kept on the server (docs/accounts.md)
    // (not a daily game's before the end of its day: record_available false, its cards would help
    // the next account to play the deal; docs/compete.md)
    if (s.you !== null && s.record_available) {
      buttons.append(el("a", { class: matchReplayable(s) ? "btn secondary" : "btn", href: `/api/tables/${TABLE_ID}/record?seat=${encodeURIComponent(TOKEN)}` }, t("Download the record")));
      if (!matchReplayable(s)) {
        box.append(el("p", { class: "hint", id: "replay-hint" }, ...tEl("To watch the match again, move by move, open the downloaded record on the {replay} page.",
          { replay: el("a", { href: "/replay" }, t("Replay")) })));
      }
    }
    buttons.append(el("a", { class: "btn secondary", href: "/" }, t("New table")));
  } else if (s.can_next_deal) {
    buttons.append(el("button", { class: "btn", type: "button", id: "next-deal-dialog", onclick: () => { send({ type: "next_deal" }); } }, ...keyHints([t("Next deal (N)")])));
  }
  if (window.GinReview) GinReview.addButtons(buttons, s);
  buttons.append(el("button", { class: "btn secondary", type: "button", id: "look-at-table", onclick: () => { $("result").hidden = true; } }, t("Look at the table")));
  box.append(buttons);
  $("result").hidden = false;
}
