// Block, mute and report (docs/accounts.md, "Block, mute, report"): the small panel of actions
// on a person, shown from a chat line (table and lobby) and on the player page. Every name and
// text is put in the page as text only.
"use strict";

const GinModerate = (() => {
  async function call(method, url, data) {
    const r = await fetch(url, { method, headers: { "Content-Type": "application/json" }, body: data ? JSON.stringify(data) : undefined });
    let body = null;
    try { body = await r.json(); } catch (e) { body = { error: t("server answered {status}", { status: String(r.status) }) }; }
    if (!r.ok) throw new Error(body.error || t("server answered {status}", { status: String(r.status) }));
    return body;
  }

  const REASONS = () => [["abuse", t("abuse or insults")], ["cheating", t("cheating")], ["farming", t("rating farming")],
    ["stalling", t("stalling or walking away")], ["spam", t("spam")], ["other", t("something else")]];

  /** A report form: `target` is what is reported ({name, table_id, message}). */
  function reportForm(target, status) {
    const reason = el("select", { class: "mod-reason", "aria-label": t("Reason") },
      ...REASONS().map(([v, label]) => el("option", { value: v }, label)));
    const text = el("textarea", { class: "mod-text", maxlength: "500", rows: "2", placeholder: t("What happened? (at most 500 characters)") });
    const send = el("button", { class: "btn mod-send", type: "button" }, t("Send the report"));
    send.addEventListener("click", async () => {
      try {
        await call("POST", "/api/reports", { ...target, reason: reason.value, text: text.value });
        status.textContent = t("Reported. The moderators will look at it.");
        form.remove();
      } catch (e) { status.textContent = e.message; }
    });
    const form = el("div", { class: "mod-report" }, reason, text, send);
    return form;
  }

  /** The actions on the person `name`: block, mute everywhere, report (a chat line's
   *  `message` and `tableId` go with the report when given). */
  function panel(name, { tableId = null, message = null } = {}) {
    const status = el("span", { class: "hint mod-status", role: "status" });
    const act = (kind, done) => async () => {
      try { await call("POST", "/api/relations", { name, kind }); status.textContent = done; }
      catch (e) { status.textContent = e.message; }
    };
    const box = el("div", { class: "mod-panel" });
    const target = { name };
    if (tableId) target.table_id = tableId;
    if (message) target.message = message;
    box.append(
      el("button", { class: "btn secondary mod-block", type: "button", onclick: act("block", t("Blocked: you will not sit with {name} or read each other's chat.", { name })) },
        t("Block {name}", { name })),
      el("button", { class: "btn secondary mod-mute", type: "button", onclick: act("mute", t("Muted: you will not read {name}'s chat anywhere.", { name })) },
        t("Mute {name} everywhere", { name })),
      el("button", { class: "btn secondary mod-report-open", type: "button", onclick: () => {
        if (!box.querySelector(".mod-report")) box.insertBefore(reportForm(target, status), status);
      } }, message ? t("Report this message") : t("Report {name}", { name })),
      status);
    return box;
  }

  return { panel, reportForm, call };
})();
