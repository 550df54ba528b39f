// The lobby's list of tournaments to come and in progress (GET /api/tournaments). Names are text nodes only.
"use strict";

(async function lobbyTournaments() {
  const box = document.getElementById("lobby-tournaments");
  try {
    const data = await (await fetch("/api/tournaments")).json();
    const items = [...data.running.map((x) => [x, t("In progress")]), ...data.upcoming.map((x) => [x, new Date(x.start).toLocaleString(LANG)])]
      .map(([x, when]) => el("li", { "data-id": x.id }, el("a", { href: "/tournaments/" + encodeURIComponent(x.id) }, x.name),
        " ", el("span", { class: "hint" }, when)));
    box.replaceChildren(...(items.length ? items : [el("li", { class: "hint" }, t("None."))]));
  } catch (e) { box.replaceChildren(); }
})();
