// The moderation page (docs/accounts.md, "Moderation"): the queue of reports and farming flags,
// each with its evidence, the moderators' actions and the audit log. Everything typed by
// players is put in the page as text only.
"use strict";

const $ = (id) => document.getElementById(id);
const call = GinModerate.call;

const ACTIONS = () => [["warn", t("Warn")], ["delete_message", t("Delete the chat message")], ["mute_lobby", t("Mute in the lobby")],
  ["bar_rated", t("Bar from rated play")], ["suspend", t("Suspend the account")], ["close", t("Close the account")],
  ["void_series", t("Void the ratings of these matches")], ["dismiss", t("Dismiss")]];

/** The action form of a queue item: `base` holds what the item says (report_id, flag, table_id, message, matches). */
function actionForm(base, name) {
  const action = el("select", { class: "mod-action", "aria-label": t("Action") }, ...ACTIONS().map(([v, l]) => el("option", { value: v }, l)));
  const who = el("input", { type: "text", class: "mod-name", maxlength: "20", value: name || "", placeholder: t("Account"), "aria-label": t("Account") });
  const why = el("input", { type: "text", class: "mod-why", maxlength: "500", placeholder: t("Why (the person is told)"), "aria-label": t("Why") });
  const until = el("input", { type: "datetime-local", class: "mod-until", "aria-label": t("Until (empty: for good)"), title: t("Until (empty: for good)") });
  const go = el("button", { class: "btn mod-go", type: "button" }, t("Do it"));
  const status = el("span", { class: "hint", role: "status" });
  go.addEventListener("click", async () => {
    const body = { ...base, action: action.value, reason: why.value };
    if (who.value.trim()) body.name = who.value.trim();
    if (until.value) body.until = new Date(until.value).toISOString().slice(0, 19) + "Z";
    if (body.action !== "void_series") delete body.matches;
    if (body.action !== "delete_message") { delete body.message; delete body.table_id; }
    try { await call("POST", "/api/moderation/actions", body); await load(); }
    catch (e) { status.textContent = e.message; }
  });
  return el("div", { class: "row mod-form" }, action, who, why, until, go, status);
}

function chatList(lines) {
  if (!lines.length) return el("p", { class: "hint" }, t("No chat."));
  return el("ul", { class: "mod-chat" }, ...lines.map(x => el("li", null, el("b", null, (x.from || t("spectator")) + ": "), x.text)));
}

/** A table's evidence: its chat and public record, as a spectator sees them (never a live deal's hidden cards). */
function evidence(tableId) {
  const box = el("div", { class: "mod-evidence" });
  const btn = el("button", { class: "linkish", type: "button" }, t("Show the table (as a spectator sees it)"));
  btn.addEventListener("click", async () => {
    try {
      const e = await call("GET", "/api/moderation/tables/" + encodeURIComponent(tableId));
      box.replaceChildren(el("p", null, e.names.join(" - ")), chatList(e.chat), el("pre", { class: "mod-record" }, e.record || t("No deal dealt yet.")));
    } catch (err) { box.textContent = err.message; }
  });
  return el("div", null, btn, box);
}

function report(r) {
  return el("li", { class: "mod-item report" },
    el("p", null, tEl("{reporter} reports {subject}: {reason}", { reporter: el("b", null, r.reporter || "?"),
      subject: el("b", null, r.subject || (r.table_id ? t("table {id}", { id: r.table_id }) : "-")), reason: r.reason }),
      " (" + r.created.replace("T", " ").slice(0, 16) + ")"),
    r.text ? el("p", { class: "mod-text" }, r.text) : "",
    r.message ? el("p", null, t("The message:"), " ", el("q", null, r.message)) : "",
    chatList(r.chat),
    r.table_id ? evidence(r.table_id) : "",
    actionForm({ report_id: r.id, table_id: r.table_id || undefined, message: r.message || undefined }, r.subject));
}

function flag(f) {
  const what = f.kind === "pair"
    ? t("{names}: {n} rated matches against each other within a day", { names: f.accounts.join(", "), n: f.count })
    : t("{names}: signed in from one address", { names: f.accounts.join(", ") });
  return el("li", { class: "mod-item flag" }, el("p", null, el("b", null, what)),
    f.first ? el("p", { class: "hint" }, f.first.slice(0, 16).replace("T", " ") + " - " + f.last.slice(0, 16).replace("T", " ")) : "",
    f.matches.length ? el("p", { class: "mod-matches" }, ...f.matches.map(m => el("a", { href: "/replay/" + encodeURIComponent(m) }, m + " "))) : "",
    actionForm({ flag: f.flag, matches: f.matches }, f.accounts[0]));
}

async function load() {
  let q;
  try { q = await call("GET", "/api/moderation/queue"); }
  catch (e) { $("mod-denied").hidden = false; $("mod").hidden = true; $("error").textContent = e.message; return; }
  $("mod").hidden = false;
  $("reports").replaceChildren(...(q.reports.length ? q.reports.map(report) : [el("li", { class: "hint" }, t("No open report."))]));
  $("flags").replaceChildren(...(q.flags.length ? q.flags.map(flag) : [el("li", { class: "hint" }, t("No flag."))]));
  const log = await call("GET", "/api/moderation/audit");
  $("audit").querySelector("tbody").replaceChildren(...log.map(a => el("tr", { class: "audit-row" },
    el("td", null, a.created.replace("T", " ").slice(0, 16)), el("td", null, a.moderator || ""), el("td", null, a.account || ""),
    el("td", null, a.action), el("td", null, a.reason), el("td", null, a.until ? a.until.replace("T", " ").slice(0, 16) : ""))));
}

mountTopbar("");
load();
