// The account page: sign up, sign in, sign out, delete (docs/accounts.md). Names are shown as text only.
"use strict";

const $ = (id) => document.getElementById(id);

async function call(method, url, data) {
  const r = await fetch(url, { method, headers: { "Content-Type": "application/json" }, body: data ? JSON.stringify(data) : undefined });
  let body = null;
  try { body = await r.json(); } catch (e) { body = { error: t("server answered {status}", { status: String(r.status) }) }; }
  if (!r.ok) throw new Error(body.error || t("server answered {status}", { status: String(r.status) }));
  return body;
}

async function show() {
  const me = await (await fetch("/api/me")).json();
  $("guest").hidden = !!me.signed_in;
  $("member").hidden = !me.signed_in;
  // the top bar's link says who is signed in as soon as the page does, before the lists below load
  const link = $("account-link");
  if (link) showAccountLink(link, me);
  if (me.signed_in) {
    const rating = el("b", { id: "my-rating" }, fmtNumber(me.rating) + (me.provisional ? "?" : ""));
    const after = nt("after {n} rated match", "after {n} rated matches", me.matches);
    $("who").replaceChildren(...tEl("Signed in as {name}. Rating {rating} {after}.",
      { name: el("b", { id: "my-name" }, me.name), rating, after }));
    $("my-page").href = "/players/" + encodeURIComponent(me.name);
    $("moderation-link").hidden = !me.moderator;
    showNotices(me.notices || []);
    await showRelations();
    await showBots();
  }
}

/** The page to go back to once signed in: ``?next=`` when it is a table page of this site (an
 *  invite to a rated table sends a signed-out person here, table.js), else null. */
function nextPage() {
  const next = new URLSearchParams(location.search).get("next") || "";
  return /^\/table\/[0-9A-Za-z_-]+\?(invite|seat)=[0-9A-Za-z_-]+$/.test(next) ? next : null;
}

async function signedIn() {
  const next = nextPage();
  if (next) { location.href = next; return; }
  await show();
}

const ACTION = {
  warn: () => t("a warning"), delete_message: () => t("a chat message of yours was deleted"),
  mute_lobby: () => t("muted in the lobby chat"), bar_rated: () => t("barred from rated play"),
  suspend: () => t("account suspended"), close: () => t("account closed"),
  void_series: () => t("the ratings of a series of matches were voided"), dismiss: () => t("no action"),
};

/** What the moderators did about this account, and why. */
function showNotices(notices) {
  $("notices-box").hidden = !notices.length;
  $("notices").replaceChildren(...notices.map(n => el("li", { class: "notice" },
    el("b", null, (ACTION[n.action] || (() => n.action))()), " (" + n.created.slice(0, 10) + "): ", n.reason,
    n.until ? " " + t("until {until}", { until: n.until.replace("T", " ").slice(0, 16) }) : "")));
}

/** The accounts blocked and muted, each with a button to undo. */
async function showRelations() {
  const rel = await call("GET", "/api/relations");
  const item = (name, kind) => el("li", { class: "relation" }, el("span", null, name), " ",
    el("span", { class: "hint" }, kind === "block" ? t("blocked") : t("muted")), " ",
    el("button", { class: "linkish", type: "button", onclick: guard(async () => {
      await call("DELETE", "/api/relations", { name, kind }); await showRelations();
    }) }, kind === "block" ? t("Unblock {name}", { name }) : t("Unmute {name}", { name })));
  const items = [...rel.blocked.map(n => item(n, "block")), ...rel.muted.map(n => item(n, "mute"))];
  $("relations").replaceChildren(...(items.length ? items : [el("li", { class: "hint" }, t("Nobody."))]));
}

// The signed-in person's bot accounts and their API tokens (docs/bot-api.md): a token's secret
// is shown once, when it is made; the list shows its name, scopes and last use.
async function showBots() {
  const { bots } = await (await fetch("/api/bots")).json();
  $("bots").replaceChildren(...bots.map(b => {
    const rows = b.tokens.map(tk => el("li", { class: tk.revoked ? "hint" : "" },
      tk.name, " (", tk.scopes.join(", "), ") ",
      tk.revoked ? t("revoked") : t("last used: {when}", { when: tk.last_used || t("never") }), " ",
      tk.revoked ? "" : el("button", { class: "btn secondary", type: "button",
        onclick: guard(async () => { await call("DELETE", `/api/bots/${encodeURIComponent(b.name)}/tokens/${tk.id}`); await showBots(); }) },
        t("Revoke"))));
    const name = el("input", { type: "text", maxlength: "40", placeholder: t("token name") });
    const scopes = ["play", "challenge", "chat"].map(s => el("input", { type: "checkbox", value: s, checked: true }));
    const mint = el("button", { class: "btn", type: "button", onclick: guard(async () => {
      const out = await call("POST", `/api/bots/${encodeURIComponent(b.name)}/tokens`,
        { name: name.value || "token", scopes: scopes.filter(c => c.checked).map(c => c.value) });
      $("new-token").hidden = false;
      $("new-token").replaceChildren(t("Your new token, shown this once:"), " ", el("code", { id: "token-secret" }, out.token));
      await showBots();
    }) }, t("Make a token"));
    return el("div", { class: "card-panel bot" }, el("b", null, b.name), " ", el("span", { class: "bot-badge" }, "BOT"),
      el("ul", null, ...rows), name, ...scopes.flatMap(c => [" ", el("label", null, c, " ", c.value)]), " ", mint);
  }));
}

/** An action of the page with its error said where it came from: at the end of the form sent
 *  (a sign-up refused is said under the sign-up form, not under the sign-in one beside it), or
 *  right after the button pressed (a refused deletion under its button, not under the bots). */
function guard(fn) {
  return async (ev) => {
    if (ev) ev.preventDefault();
    const box = $("error");
    const from = ev && ev.currentTarget instanceof Element ? ev.currentTarget : null;
    if (from && from.tagName === "FORM") { if (box.parentElement !== from) from.append(box); }
    else if (from) from.after(box);
    box.textContent = "";
    try { await fn(); } catch (e) { box.textContent = e.message; }
  };
}

function init() {
  mountTopbar("/account");
  $("signin").addEventListener("submit", guard(async () => {
    await call("POST", "/api/session", { name: $("in-name").value, password: $("in-password").value });
    $("in-password").value = "";
    await signedIn();
  }));
  $("signup").addEventListener("submit", guard(async () => {
    await call("POST", "/api/account", { name: $("up-name").value, password: $("up-password").value });
    $("up-password").value = "";
    await signedIn();
  }));
  $("signout").addEventListener("click", guard(async () => { await call("DELETE", "/api/session"); await show(); }));
  $("delete").addEventListener("click", guard(async () => {
    if (!confirm(t("Delete your account? This cannot be undone."))) return;
    await call("DELETE", "/api/account", { password: $("del-password").value });
    $("del-password").value = "";
    await show();
  }));
  if (nextPage()) $("guest").prepend(el("p", { class: "hint", id: "back-note" }, t("Sign in or sign up here: then you go back to the table.")));
  $("make-bot").addEventListener("submit", guard(async () => {
    await call("POST", "/api/bots", { name: $("bot-name").value, password: $("bot-password").value });
    $("bot-password").value = "";
    await showBots();
  }));
  show();
}
init();
