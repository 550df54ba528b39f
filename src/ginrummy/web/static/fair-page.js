// The /fair page: check an uploaded game record in the browser with fair.js (GinFair.verifyRecordText).
// The file is read locally (FileReader via File.text()); nothing is sent to the server.
"use strict";

(() => {
  mountTopbar("/fair");  // here, not inline in the page: the pages' Content-Security-Policy allows only script files
  const form = document.getElementById("fair-form");
  const file = document.getElementById("record-file");
  const verdict = document.getElementById("verdict");
  const report = document.getElementById("report");
  const MAX_BYTES = 4 * 1024 * 1024;

  if (!GinFair.hasCrypto()) {
    verdict.replaceChildren(el("p", { class: "fair-bad" }, t("This page cannot compute SHA-256: the browser allows WebCrypto only over https or on this computer (localhost). Check the record with gin verify instead.")));
  }

  /** Check the text of a record and show the result (also used by the tests). */
  async function show(text) {
    verdict.replaceChildren(el("p", { class: "hint" }, t("checking...")));
    report.replaceChildren();
    const r = await GinFair.verifyRecordText(text);
    const mark = { ok: "\u2713 ", fail: "\u2717 ", info: "\u2022 " };
    report.replaceChildren(...r.items.map(x => el("li", { class: `fair-item fair-${x.level}`, "data-code": x.code, "data-level": x.level },
      mark[x.level] + x.text)));
    let line;
    if (r.ok === false) line = el("p", { class: "fair-bad", "data-verdict": "failed" }, "\u2717 " + t("The record does NOT check out: see the lines marked \u2717."));
    else if (r.ok === null) line = el("p", { class: "fair-bad", "data-verdict": "unavailable" }, t("Not checked."));
    // say exactly what was checked: the shuffle only (a record with forged moves, results or
    // scores passes here; gin verify replays them)
    else if (r.partial) line = el("p", { class: "ok", "data-verdict": "partial" }, "\u2713 " + t("The decks that can be checked yet check out; some deals can be checked only later. The moves, results and scores were not replayed: gin verify does that."));
    else line = el("p", { class: "ok", "data-verdict": "ok" }, "\u2713 " + t("The decks check out: every deck came from its committed seeds. The moves, results and scores were not replayed: gin verify does that."));
    verdict.replaceChildren(line);
    return r;
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = file.files && file.files[0];
    if (!f) { verdict.replaceChildren(el("p", { class: "error-box" }, t("Choose a record file first."))); return; }
    if (f.size > MAX_BYTES) { verdict.replaceChildren(el("p", { class: "error-box" }, t("This file is too large to be a game record."))); return; }
    let text;
    try { text = await f.text(); } catch (e) { verdict.replaceChildren(el("p", { class: "error-box" }, t("The file could not be read."))); return; }
    await show(text);
  });

  window.fairPage = { show };
})();
