// The puzzle page (docs/puzzles.md, docs/protocol.md "Puzzles"): a position from /api/puzzles/...,
// the legal moves as buttons, the answer POSTed and checked by the server (the page never knows
// the best move before), then the explanation and the next puzzle. Card codes become card elements.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let current = null;     // the puzzle shown (its public form)
let themeNames = {};    // theme -> its name in the page's language

function fmtLoss(x) { return fmtNumber(Math.round(x * 10) / 10); }

/** A legal move's label: words of the table's buttons, cards as card texts. */
function moveLabel(a) {
  const [kind, card] = a.split(" ");
  const c = card && /^[A2-9TJQK][CDHS]$/.test(card) ? cardText(card) : null;
  if (a === "take upcard") return tEl("Take upcard {card}", { card: cardText(current.upcard) });
  if (a === "take discard") return tEl("Take discard {card}", { card: cardText(current.discard_pile[current.discard_pile.length - 1]) });
  if (a === "draw stock") return [t("Draw stock")];
  if (a === "pass") return [t("Pass")];
  if (kind === "discard" && c) return tEl("Discard {card}", { card: c });
  if (kind === "knock" && c) return [t("Knock"), " ", c];
  if (kind === "gin" && c) return [t("Gin"), " ", c];
  return withCards(a);
}

function phaseText(p) {
  if (p.phase === "upcard_offer") return t("The first upcard is offered: take it or pass (R4.2).");
  if (p.phase === "draw") return t("Your turn: draw from the stock or take the top discard (R4.1).");
  if (p.phase === "wall") return t("Two cards are left in the stock (R7.2).");
  if (p.taken) return tEl("You took {card}: now discard, or knock or go gin if you can (R4.1, R5.1).", { card: cardText(p.taken) });
  return t("You have drawn: now discard, or knock or go gin if you can (R4.1, R5.1).");
}

function showMe(me) {
  $("my-rating").textContent = me
    ? t("Your puzzle rating: {rating} ({solved} of {attempts} solved)", { rating: me.rating, solved: me.solved, attempts: me.attempts })
    : t("Sign in to keep a puzzle rating.");
}

function show(p, daily) {
  current = p;
  $("puzzle").hidden = false;
  $("puzzle").dataset.id = p.id;
  $("puzzle").dataset.theme = p.theme;
  const theme = themeNames[p.theme] || p.theme;
  $("puzzle-title").textContent = daily ? t("Daily puzzle of {date}: {theme}", { date: daily, theme }) : t("Puzzle: {theme}", { theme });
  $("puzzle-score").textContent = t("Score: you {you}, the opponent {opponent}; game to {target}. Puzzle rating {rating}.",
    { you: p.score.you, opponent: p.score.opponent, target: p.score.target, rating: p.rating });
  $("puzzle-phase").replaceChildren(...[phaseText(p)].flat());
  $("puzzle-pile").replaceChildren(...p.discard_pile.map(c => cardEl(c, { mini: true })));
  const seen = p.opponent_seen.length ? p.opponent_seen.map(cardText) : [t("none")];
  $("puzzle-stock").replaceChildren(t("Stock: {n}", { n: p.stock_size }), ". ",
    t("The opponent holds {n} cards; seen taking:", { n: p.opponent_count }), " ", ...seen.flatMap(x => [x, " "]));
  $("puzzle-hand").replaceChildren(...p.hand.slice().sort(bySuit).map(c => cardEl(c)));
  $("puzzle-moves").replaceChildren(...p.legal_actions.map(a =>
    el("button", { class: "btn secondary", type: "button", "data-move": a, onclick: () => answer(a) }, ...moveLabel(a))));
  $("puzzle-answer").hidden = true;
  $("puzzle-answer").replaceChildren();
  $("error").textContent = "";
}

async function answer(move) {
  const buttons = [...$("puzzle-moves").querySelectorAll("button")];
  buttons.forEach(b => { b.disabled = true; });
  let r;
  try {
    r = await postJSON(`/api/puzzles/${current.id}/answer`, { move });
  } catch (e) {
    $("error").textContent = e.message;
    buttons.forEach(b => { b.disabled = false; });
    return;
  }
  for (const b of buttons) {
    b.classList.toggle("chosen", b.dataset.move === r.move);
    b.classList.toggle("best", b.dataset.move === r.best);
  }
  const best = el("b", null, ...moveLabel(r.best));
  const box = $("puzzle-answer");
  box.className = "puzzle-answer " + (r.correct ? "right" : "wrong");
  box.dataset.correct = String(r.correct);
  const head = r.correct ? tEl("Right: {move} is the best move.", { move: best })
    : tEl("Not the best: {move} is better by {loss} points of win chance.", { move: best, loss: fmtLoss(r.loss) });
  const list = el("ul", null, ...Object.entries(r.losses).map(([m, x]) =>
    el("li", null, ...tEl("{move}: {loss} points less", { move: el("span", null, ...moveLabel(m)), loss: fmtLoss(x) }))));
  const why = t("Every other move loses at least {margin} points of the chance to win. Theme: {theme}. Rules: {rules}.",
    { margin: fmtNumber(r.margin), theme: themeNames[r.theme] || r.theme, rules: r.rules.join(", ") });
  const parts = [el("p", { class: "verdict" }, ...head), list, el("p", null, why)];
  if (r.rating) {
    parts.push(el("p", { id: "rating-change" }, r.rated
      ? t("Your puzzle rating: {before} → {after}.", { before: r.rating.before, after: r.rating.after })
      : t("You had answered this puzzle before: your rating stays {rating}.", { rating: r.rating.after })));
    showMe({ rating: r.rating.after, attempts: r.rating.attempts, solved: r.rating.solved });
  }
  box.replaceChildren(...parts);
  box.hidden = false;
  $("puzzle-next").focus();
}

async function load(url, daily) {
  $("error").textContent = "";
  try {
    const r = await fetch(url);
    const body = await r.json();
    if (!r.ok) throw new Error(body.error || t("server answered {status}", { status: String(r.status) }));
    show(body.puzzle, daily ? body.date : null);
  } catch (e) {
    $("puzzle").hidden = true;
    $("error").textContent = e.message;
  }
}

function nextUrl(after) {
  const q = new URLSearchParams();
  if ($("theme").value) q.set("theme", $("theme").value);
  if (after) q.set("after", after);
  const s = q.toString();
  return "/api/puzzles/next" + (s ? "?" + s : "");
}

async function start() {
  mountTopbar("/puzzles");
  try {
    const info = await (await fetch("/api/puzzles")).json();
    for (const th of info.themes) {
      themeNames[th.theme] = th.name;
      $("theme").append(el("option", { value: th.theme }, t("{theme} ({n})", { theme: th.name, n: fmtNumber(th.count) })));
    }
    showMe(info.me);
  } catch (e) { $("error").textContent = e.message; }
  if (themeNames[params.get("theme")]) $("theme").value = params.get("theme");
  $("theme").addEventListener("change", () => {
    history.replaceState(null, "", $("theme").value ? "/puzzles?theme=" + $("theme").value : "/puzzles");
    load(nextUrl(null));
  });
  $("puzzle-next").addEventListener("click", () => load(nextUrl(current ? current.id : null)));
  if (params.get("daily")) await load("/api/puzzles/daily", true);
  else if (/^[0-9a-f]{12}$/.test(params.get("id") || "")) await load("/api/puzzles/" + params.get("id"));
  else await load(nextUrl(null));
}

start();
