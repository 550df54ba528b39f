// Friend challenges on the same deals (docs/compete.md): the list and a new challenge at /duels,
// one challenge at /duels/ID (answer it, play its deals, compare the results deal by deal).
// Names are text nodes only.
"use strict";

const $ = (id) => document.getElementById(id);
const duelId = (location.pathname.match(/^\/duels\/([0-9a-f]{16})$/) || [])[1] || null;

function fail(e) { $("error").textContent = e.message; }

function signed(n) { return n === null ? "" : n > 0 ? "+" + fmtNumber(n) : fmtNumber(n); }

function statusText(d) {
  if (d.over) return d.winner ? t("Over: {name} won", { name: d.winner }) : t("Over: a tie");
  return { open: t("Waiting for an answer"), playing: t("In play"), declined: t("Declined"), canceled: t("Cancelled") }[d.status] || d.status;
}

async function send() {
  try {
    const to = $("to").value.trim();
    const r = await postJSON("/api/duels", { to: to || null, deals: Number($("deal-count").value), level: $("level").value });
    location.href = "/duels/" + r.id;
  } catch (e) { fail(e); }
}

async function loadList() {
  const info = await getJSON("/api/duels");
  $("level").replaceChildren(...info.levels.map((l) => el("option", { value: l }, levelName(l))));
  $("level").value = "club";
  $("sign-in-first").hidden = info.signed_in;
  $("send").disabled = !info.signed_in;
  // the challenge's name is its link: a fourth column ("Open") did not fit a 375 px phone in
  // German or Greek (the link scrolled out of sight in the table's box)
  $("list").querySelector("tbody").replaceChildren(...info.duels.map((d) => el("tr", { "data-id": d.id },
    el("td", null, el("a", { href: "/duels/" + d.id }, t("{a} against {b}", { a: d.from, b: d.to || "?" }))),
    el("td", null, statusText(d)), el("td", { class: "num" }, signed(d.total)))));
}

async function play(number) {
  try {
    const r = await postJSON(`/api/duels/${duelId}/${number}`, {});
    const where = new URL(r.link, location.href);
    try { localStorage.setItem(`gin.duel.${duelId}.${number}`, where.pathname + where.search); } catch (e) { /* private mode */ }
    location.href = r.link;
  } catch (e) { fail(e); }
}

async function answer(what) {
  try { await postJSON(`/api/duels/${duelId}/${what}`, {}); await loadDuel(); } catch (e) { fail(e); }
}

function cell(d, k, side) {
  const g = d.games[k - 1][side];
  if (g.score !== null) {
    return el("td", { class: "num result" }, signed(g.score), " ", g.replay ? el("a", { href: g.replay }, t("Replay")) : "");
  }
  if (d.you === side && !d.over && !(side === "to" && d.status !== "playing")) {
    if (!g.started) {
      const b = el("button", { class: "btn", type: "button", "data-deal": String(k) }, t("Play deal {number}", { number: String(k) }));
      b.addEventListener("click", () => play(k));
      return el("td", null, b);
    }
    let link = null;
    try { link = localStorage.getItem(`gin.duel.${duelId}.${k}`); } catch (e) { /* private mode */ }
    if (!g.played && link && link.startsWith("/table/")) return el("td", null, el("a", { class: "btn", href: link }, t("Back to the table")));
  }
  return el("td", { class: "hint" }, g.played ? t("Played") : g.started ? t("Started") : t("Not played yet"));
}

async function loadDuel() {
  const d = await getJSON(`/api/duels/${duelId}`);
  $("new-panel").hidden = true;
  $("duel").hidden = false;
  $("title").textContent = d.to ? t("{a} against {b}", { a: d.from, b: d.to }) : t("{name}'s challenge", { name: d.from });
  $("about").textContent = nt("{n} deal against the computer level {level}; {status}", "{n} deals against the computer level {level}; {status}",
    d.deals, { level: levelName(d.level), status: statusText(d) });
  $("commitment").textContent = d.commitment;
  $("seed-line").hidden = !d.seed;
  $("seed").textContent = d.seed || "";
  $("share-line").hidden = !(d.you === "from" && d.status === "open" && !d.over);
  $("share").value = d.link;
  const open = d.status === "open" && !d.over;
  $("accept").hidden = !(open && d.you !== "from");
  $("decline").hidden = !(open && d.you === "to");
  $("cancel").hidden = !(open && d.you === "from");
  $("col-from").textContent = d.from;
  $("col-to").textContent = d.to || "?";
  $("games").querySelector("tbody").replaceChildren(...d.games.map((g) => el("tr", { "data-number": String(g.number) },
    el("td", { class: "num" }, fmtNumber(g.number)), cell(d, g.number, "from"), cell(d, g.number, "to"),
    el("td", { class: "num difference" }, signed(g.difference)))));
  $("winner").textContent = d.over ? statusText(d) + " (" + signed(d.total) + ")" : "";
  $("verify").hidden = !d.over;
  $("verify").textContent = t("To check the cards, save {url} and run: gin daily verify FILE", { url: `/api/duels/${d.id}/records` });
}

mountTopbar("/duels");
$("send").addEventListener("click", send);
$("accept").addEventListener("click", () => answer("accept"));
$("decline").addEventListener("click", () => answer("decline"));
$("cancel").addEventListener("click", () => answer("cancel"));
(duelId ? loadDuel() : loadList()).catch(fail);
