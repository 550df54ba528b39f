// The leaderboard: GET /api/leaderboard, 50 a page. Names are text nodes only.
"use strict";

const $ = (id) => document.getElementById(id);
const PAGE = 50;
let offset = Math.max(0, Number(new URLSearchParams(location.search).get("offset")) || 0);

/** A player's name as a link to his page (text only); a computer level in its language. */
function playerLink(name, kind) {
  const label = kind === "computer" ? t("Computer ({level})", { level: levelName(name) }) : name;
  const link = el("a", { href: "/players/" + encodeURIComponent(name), class: "kind-" + kind }, label);
  return kind === "bot" ? el("span", null, link, " ", el("span", { class: "bot-badge" }, "BOT")) : link;
}

async function load() {
  $("error").textContent = "";
  try {
    const rows = await (await fetch(`/api/leaderboard?limit=${PAGE}&offset=${offset}`)).json();
    const body = $("board").querySelector("tbody");
    body.replaceChildren(...rows.map((r, i) => el("tr", { "data-name": r.name },
      el("td", { class: "num" }, fmtNumber(offset + i + 1)), el("td", null, playerLink(r.name, r.kind)),
      el("td", { class: "num" }, ratingEl("span", { class: r.provisional ? "provisional" : null }, r.rating, r.provisional)), el("td", { class: "num" }, fmtNumber(r.matches)))));
    if (!rows.length) body.append(el("tr", null, el("td", { colspan: 4, class: "hint" }, t("No rated match yet."))));
    $("prev").disabled = offset === 0;
    $("next").disabled = rows.length < PAGE;
  } catch (e) { $("error").textContent = e.message; }
}

mountTopbar("/leaderboard");
$("prev").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); });
$("next").addEventListener("click", () => { offset += PAGE; load(); });
load();
