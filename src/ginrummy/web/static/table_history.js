// The table page's record of the match beside the table: the deal's seed commitment and, once
// the deal ends, its revealed seed checked in the browser (SHA-256); the moves of the deal as
// sentences; the deals of the match with their outcomes and commitments (docs/record-format.md).
// Loaded before table.js; uses its state helpers.
"use strict";

async function sha256hex(hex) {
  if (!window.crypto || !crypto.subtle) return null;
  const bytes = new Uint8Array(hex.match(/../g).map(h => parseInt(h, 16)));
  const d = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(d)].map(b => b.toString(16).padStart(2, "0")).join("");
}

function renderFair() {
  const d = S().deal;
  const box = $("fair");
  box.replaceChildren(
    el("div", null, t("Deal {number} commitment (SHA-256 of its seed), shown before the deal:", { number: d.number })),
    el("div", { class: "mono", id: "commitment" }, d.commitment));
  if (d.seed) {
    const check = el("span", { class: "hint" }, " " + t("checking..."));
    box.append(el("div", { style: "margin-top:6px" }, t("Seed revealed after the deal:")), el("div", { class: "mono", id: "seed" }, d.seed),
      el("div", null, check));
    sha256hex(d.seed).then(h => {
      check.replaceChildren(h === null ? t("Check it with gin verify on the downloaded record.")
        : h === d.commitment ? el("span", { class: "ok" }, "\u2713 " + t("SHA-256(seed) matches the commitment")) : el("b", { style: "color:#b3261e" }, "\u2717 " + t("does not match!")));
    });
  } else if (V().phase === "over") {
    // a drawn deal (R7) keeps its seed until the match ends: it would show a hand no one had to show
    box.append(el("p", { class: "hint sealed", style: "margin:4px 0 0" },
      t("This deal was drawn: its seed stays secret until the match ends, since it would show a hand no one had to show.")));
  } else {
    box.append(el("p", { class: "hint", style: "margin:4px 0 0" }, t("The seed fixes the whole deck order; it is revealed when the deal ends.")));
  }
  if (S().record_available) {
    box.append(el("p", null, el("a", { href: `/api/tables/${TABLE_ID}/record?seat=${encodeURIComponent(TOKEN)}`, id: "download" }, t("Download the game record")),
      el("span", { class: "hint" }, " " + t("(check it with gin verify)"))));
  }
}

/** A history line ("1 discard 7H", view.history) as a sentence; card codes stay codes (withCards). */
function moveText(h) {
  const m = /^(\d) (.*?)(?: ([A2-9TJQK][CDHS]))?$/.exec(h);
  if (!m) return h === "end" ? t("the deal ends") : h === "reshuffle" ? t("the discard pile is shuffled into a new stock (R7.3)") : h;
  const name = nameOfSeat(Number(m[1]));
  const card = m[3] || "";
  const says = {
    "draw stock": card ? t("{name} draws {card} from the stock", { name, card }) : t("{name} draws from the stock", { name }),
    "take upcard": t("{name} takes the upcard {card}", { name, card }),
    "take discard": t("{name} takes the discard {card}", { name, card }),
    "pass": t("{name} passes", { name }),
    "discard": t("{name} discards {card}", { name, card }),
    "knock": t("{name} knocks, discarding {card}", { name, card }),
    "gin": t("{name} goes gin, discarding {card}", { name, card }),
    "big gin": t("{name} goes big gin", { name }),
  }[m[2]];
  return says || h;
}

function renderMoves() {
  const h = V().history;
  const box = $("moves");
  box.replaceChildren(h.length ? el("ol", { reversed: true }, ...h.slice().reverse().map(x => el("li", null, ...withCards(moveText(x)))))
    : el("p", { class: "hint" }, t("No move yet.")));
}

function outcomeText(d) {
  if (!d.over) return d.forfeit ? t("not played out: {name} forfeited the match", { name: d.forfeit }) : t("in play");
  if (d.outcome === "draw") return t("draw ({rule})", { rule: d.reason });
  const how = { knock: pt("outcome", "knock"), undercut: pt("outcome", "undercut"), gin: pt("outcome", "gin"), big_gin: pt("outcome", "big gin") }[d.outcome];
  return t("{name} +{points} ({how})", { name: d.winner, points: d.points, how });
}

function renderDeals() {
  const deals = S().deals;
  $("deals").replaceChildren(el("ol", null, ...deals.map(d => el("li", null,
    el("span", null, t("dealer {name}: {outcome}", { name: d.dealer, outcome: outcomeText(d) })),
    el("div", { class: "mono", title: d.seed ? t("seed {seed}", { seed: d.seed }) : t("seed revealed when the deal ends") },
      t("commit {hex}", { hex: d.commitment.slice(0, 16) + "\u2026" }) + (d.seed ? " " + t("seed {seed}", { seed: d.seed.slice(0, 16) + "\u2026" }) : ""))))));
}
