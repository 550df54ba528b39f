// A deal no one controls: the browser's own check of the deck, written from docs/record-format.md
// ("How the deck order is computed", "A deal no one controls"), not from the Python code.
//
//   deal seed  = SHA-256(match seed || "/deal/" || k)            (the server's; k in ASCII decimal)
//   commitment = SHA-256(deal seed), shown before the deal
//   deck seed  = SHA-256(deal seed || "/clients" || "/" c0 || "/" c1 [|| "/" c2]), or the deal seed
//                itself when the deal has no client seeds
//   deck       = Fisher-Yates of the cards 0..51: for i = 51 down to 1,
//                j = SHA-256(deck seed || i as 4 bytes big-endian) as a big-endian integer mod (i + 1)
//   card       = suit * 13 + rank (suits C D H S, ranks A 2..9 T J Q K), text as in R1.4 ("TD")
//   deck[0:10] the non-dealer's hand, deck[10:20] the dealer's, deck[20] the upcard, deck[21 + n]
//   the n-th card drawn from the stock (until a reshuffle, R7.3).
//
// One global, GinFair: the pure functions (deckSeed, seededShuffle, deckFromSeed, checkDeal,
// verifyRecordText, ...) and the table page's "Fair deal" panel (GinFair.onState, called by
// table.js on every "state" message).  Texts a person sees go through t() of common.js.
"use strict";

const GinFair = (() => {
  const SUITS = "CDHS";
  const RANK_CHARS = "A23456789TJQK";
  const CLIENT_SEED_RE = /^[A-Za-z0-9_-]{0,64}$/;
  const HEX_RE = /^(?:[0-9a-f]{2})*$/i;
  const STOCK_AT_START = 31;  // R3.2: 52 cards - 10 - 10 - the upcard

  // ---- bytes and SHA-256 (WebCrypto) ----

  /** Whether this page can compute SHA-256: crypto.subtle exists only in a secure context
   *  (https, or http on localhost / 127.0.0.1). */
  function hasCrypto() {
    return typeof crypto !== "undefined" && !!crypto.subtle && typeof crypto.subtle.digest === "function";
  }

  function hexToBytes(hex) {
    if (typeof hex !== "string" || !HEX_RE.test(hex)) throw new Error("not hex: " + String(hex).slice(0, 80));
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  }

  function bytesToHex(bytes) {
    return Array.from(bytes, b => b.toString(16).padStart(2, "0")).join("");
  }

  function ascii(text) { return new TextEncoder().encode(text); }

  function concat(...parts) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  }

  /** SHA-256 of bytes, as a Uint8Array of 32 bytes.  Throws when crypto.subtle is missing. */
  async function sha256(bytes) {
    if (!hasCrypto()) throw new Error("crypto.subtle is not available on this page");
    return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  }

  async function sha256hex(bytes) { return bytesToHex(await sha256(bytes)); }

  // ---- the deck ----

  /** A client seed is 0 to 64 characters of A-Z a-z 0-9 _ - ("" for a computer seat). */
  function validClientSeed(s) { return typeof s === "string" && CLIENT_SEED_RE.test(s); }

  /** A fresh client seed: 16 bytes of crypto.getRandomValues as 32 lower-case hex digits. */
  function newClientSeed() {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return bytesToHex(b);
  }

  /** The server deal seed of deal k (1-based) from the match seed (hex): bytes. */
  async function dealSeed(matchSeedHex, k) {
    return sha256(concat(hexToBytes(matchSeedHex), ascii("/deal/" + String(k))));
  }

  /** The deck seed (bytes) of a deal: the server deal seed (hex) alone when clientSeeds is null,
   *  else SHA-256(server deal seed || "/clients" || "/" c0 || "/" c1 [|| "/" c2]).
   *  Throws for a client seed outside the allowed alphabet. */
  async function deckSeed(serverSeedHex, clientSeeds) {
    const server = hexToBytes(serverSeedHex);
    if (clientSeeds === null || clientSeeds === undefined) return server;
    if (!Array.isArray(clientSeeds) || clientSeeds.length < 2 || clientSeeds.length > 3 || !clientSeeds.every(validClientSeed)) {
      throw new Error("client seeds must be 2 or 3 texts of A-Z a-z 0-9 _ -");
    }
    return sha256(concat(server, ascii("/clients"), ...clientSeeds.map(c => ascii("/" + c))));
  }

  /** Fisher-Yates of items (a copy) with j = SHA-256(seed || i as 4 bytes big-endian) mod (i + 1). */
  async function seededShuffle(items, seed) {
    const out = Array.from(items);
    const n = out.length;
    const digests = await Promise.all(Array.from({ length: Math.max(n - 1, 0) }, (_, k) => {
      const i = n - 1 - k;
      const counter = new Uint8Array([(i >>> 24) & 255, (i >>> 16) & 255, (i >>> 8) & 255, i & 255]);
      return sha256hex(concat(seed, counter));
    }));
    for (let k = 0; k < n - 1; k++) {
      const i = n - 1 - k;
      const j = Number(BigInt("0x" + digests[k]) % BigInt(i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** The deck (52 card ints, top first) of a deck seed (bytes). */
  async function deckFromSeed(seed) { return seededShuffle(Array.from({ length: 52 }, (_, i) => i), seed); }

  /** Card int -> text (R1.4): 0 -> "AC", 22 -> "TD", 51 -> "KS". */
  function cardText(c) { return RANK_CHARS[c % 13] + SUITS[Math.floor(c / 13)]; }

  /** Card text (R1.4) -> int: "AC" -> 0, "KS" -> 51; -1 for anything else. */
  function cardInt(text) {
    const r = RANK_CHARS.indexOf(String(text)[0]), s = SUITS.indexOf(String(text)[1]);
    return r < 0 || s < 0 || String(text).length !== 2 ? -1 : s * 13 + r;
  }

  /** The stock rebuilt by reshuffle r (R7.3): seededShuffle of the discard pile below its top
   *  card (texts, bottom to top) with SHA-256(deck seed || "/reshuffle/" || r); texts, top first. */
  async function reshuffledStock(deckSeedBytes, pile, r) {
    const seed = await sha256(concat(deckSeedBytes, ascii("/reshuffle/" + String(r))));
    return (await seededShuffle(pile.map(cardInt), seed)).map(cardText);
  }

  /** The deck of a deal as card texts, from the server deal seed (hex) and its client seeds. */
  async function dealDeck(serverSeedHex, clientSeeds) {
    return (await deckFromSeed(await deckSeed(serverSeedHex, clientSeeds))).map(cardText);
  }

  // ---- the check of one deal at the table ----

  /** The one client seed this browser sent for a deal (observed.client_seed), or null.  A store
   *  written before one seed per deal (client_seeds_sent) counts only when it holds one seed. */
  function sentSeed(observed) {
    if (validClientSeed(observed.client_seed) && observed.client_seed) return observed.client_seed;
    const old = observed.client_seeds_sent;
    return Array.isArray(old) && old.length === 1 && validClientSeed(old[0]) ? old[0] : null;
  }

  /** Check a revealed deal against what this browser saw.
   *
   *  reveal:   {seed: server deal seed hex, client_seeds: [..] | null, commitment?: the commitment shown now}
   *  observed: {commitment: the commitment seen BEFORE this browser sent its client seed (or null),
   *             player: this player's index, client_seed: THE seed this browser sent for the deal (one
   *             per deal, re-sent unchanged however often the server asks; replaced only by a seed
   *             the person typed), sends: how many times it was sent,
   *             dealer: true when this seat dealt, hand: the ten cards first seen (or null, e.g. sitting out),
   *             upcard: text or null, draws: [{card, stock_before, reshuffle}] (reshuffle: 0 for the
   *             first stock, r for the stock rebuilt by reshuffle r), reshuffles: [the discard pile below
   *             its top card, bottom to top, at reshuffle 1, 2, ...]}
   *  Returns {available, ok, checks: [{what, ok, card?, position?, reshuffle?, index?, expected?}], deck}:
   *  ok is false when a check failed, null when a check could not be made (the commitment was not
   *  seen first, a draw lacks its data), else true; a check's ok is null when it could not be made.
   *  available is false (and nothing checked) when this page has no crypto.subtle. */
  async function checkDeal({ reveal, observed }) {
    if (!hasCrypto()) return { available: false, ok: null, checks: [], deck: null };
    const checks = [];
    let deck = null;
    let hash = null;
    try { hash = await sha256hex(hexToBytes(reveal.seed)); } catch (e) { hash = null; }
    if (observed.commitment) checks.push({ what: "commitment", ok: hash !== null && hash === observed.commitment.toLowerCase() });
    else checks.push({ what: "commitment", ok: null });
    if (reveal.commitment && hash !== null && hash !== String(reveal.commitment).toLowerCase()) {
      checks.push({ what: "commitment_shown", ok: false });
    }
    // exactly the one seed this browser sent for the deal: a server that collected several
    // (by asking again) could otherwise deal from whichever of them it liked best
    const mine = sentSeed(observed);
    if (mine !== null && Number.isInteger(observed.player)) {
      const used = Array.isArray(reveal.client_seeds) ? reveal.client_seeds[observed.player] : undefined;
      checks.push({ what: "client_seed", ok: used !== undefined && used === mine, expected: used === undefined ? null : used });
    }
    let seedBytes = null;
    try {
      seedBytes = await deckSeed(reveal.seed, reveal.client_seeds ?? null);
      deck = (await deckFromSeed(seedBytes)).map(cardText);
    } catch (e) { deck = null; }
    if (deck === null) {
      checks.push({ what: "deck", ok: false });
      return { available: true, ok: false, checks, deck };
    }
    if (Array.isArray(observed.hand) && observed.hand.length) {
      const dealt = observed.dealer ? deck.slice(10, 20) : deck.slice(0, 10);
      const same = [...observed.hand].sort().join() === [...dealt].sort().join();
      checks.push({ what: "hand", ok: same, expected: dealt });
    }
    if (observed.upcard) checks.push({ what: "upcard", ok: observed.upcard === deck[20], card: observed.upcard, expected: deck[20] });
    const rebuilt = new Map();  // reshuffle number -> the stock it made
    for (const d of observed.draws || []) {
      const r = d.reshuffle || 0;
      if (r === 0) {
        // the n-th card drawn from the first stock (n = 31 - stock size before the draw) is deck[21 + n]
        const position = 21 + (STOCK_AT_START - d.stock_before);
        if (!(position >= 21 && position <= 51)) { checks.push({ what: "draw", ok: null, card: d.card }); continue; }
        checks.push({ what: "draw", ok: d.card === deck[position], card: d.card, position, expected: deck[position] });
        continue;
      }
      const pile = (observed.reshuffles || [])[r - 1];
      if (!Array.isArray(pile) || !pile.every(c => cardInt(c) >= 0)) { checks.push({ what: "draw", ok: null, card: d.card, reshuffle: r }); continue; }
      if (!rebuilt.has(r)) rebuilt.set(r, await reshuffledStock(seedBytes, pile, r));
      const stock = rebuilt.get(r), m = pile.length - d.stock_before;
      const expected = m >= 0 && m < stock.length ? stock[m] : null;
      checks.push({ what: "draw", ok: expected !== null && d.card === expected, card: d.card, reshuffle: r, index: m, expected });
    }
    const ok = checks.some(c => c.ok === false) ? false : checks.some(c => c.ok === null) ? null : true;
    return { available: true, ok, checks, deck };
  }

  // ---- a whole record (the /fair page) ----

  const DEAL_RE = /^deal (\d+) dealer ([01]) seats (\d) (\d)(?: commitment ([0-9a-fA-F]{64}))?$/;

  function parseRecord(text) {
    const rec = { version: null, players: null, commitment: null, seed: null, finished: false, deals: [], errors: [] };
    let deal = null;
    const lines = String(text).split(/\r?\n/);
    lines.forEach((raw, i) => {
      const line = raw.trim();
      if (!line || line.startsWith("#")) return;
      const sp = line.indexOf(" ");
      const word = sp < 0 ? line : line.slice(0, sp);
      const rest = sp < 0 ? "" : line.slice(sp + 1).trim();
      const no = i + 1;
      if (rec.version === null) { rec.version = word === "gin-record" ? rest : ""; return; }
      if (word === "players") {
        try { rec.players = JSON.parse(rest); } catch (e) { rec.errors.push({ line: no }); }
      } else if (word === "seed-commitment") rec.commitment = rest.toLowerCase();
      else if (word === "deal") {
        const m = DEAL_RE.exec(line);
        if (!m) { rec.errors.push({ line: no }); return; }
        deal = { number: Number(m[1]), commitment: m[5] ? m[5].toLowerCase() : null, clientSeeds: null,
                 sealed: false, deck: null, seed: null, line: no };
        rec.deals.push(deal);
      } else if (word === "client-seeds" && deal) {
        try { deal.clientSeeds = JSON.parse(rest); } catch (e) { deal.clientSeeds = "bad"; }
        if (deal.clientSeeds !== "bad" && !(Array.isArray(deal.clientSeeds) && deal.clientSeeds.every(validClientSeed))) deal.clientSeeds = "bad";
      } else if (word === "sealed" && deal) deal.sealed = true;
      else if (word === "deck" && deal) { deal.deck = rest.split(/\s+/); deal.deckLine = no; }
      else if (word === "deal-seed" && deal) deal.seed = rest.toLowerCase();
      else if (word === "finished") rec.finished = true;
      else if (word === "seed") rec.seed = rest.toLowerCase();
    });
    return rec;
  }

  /** Check a game record (text) in the browser: the match seed against seed-commitment, each
   *  revealed deal's seed against its commitment and (with the match seed) against
   *  SHA-256(match seed || "/deal/" || k), and each deck line against the deck recomputed from the
   *  deck seed (client seeds included).  Sealed deals are listed as not yet checkable.  The moves
   *  are not replayed: that is gin verify's job.
   *  Returns {available, ok, partial, items: [{level: "ok"|"fail"|"info", code, deal?, text}]}:
   *  ok is false when any check failed; partial is true when some deal could not be checked. */
  async function verifyRecordText(text) {
    const items = [];
    const say = (level, code, textOut, deal) => items.push({ level, code, deal: deal ?? null, text: textOut });
    if (!hasCrypto()) {
      say("fail", "no_crypto", t("This page cannot compute SHA-256: the browser allows WebCrypto only over https or on this computer (localhost). Check the record with gin verify instead."));
      return { available: false, ok: null, partial: true, items };
    }
    const rec = parseRecord(text);
    if (rec.version !== "1") {
      say("fail", "not_a_record", t("This is not a game record: its first line must be gin-record 1."));
      return { available: true, ok: false, partial: false, items };
    }
    for (const e of rec.errors) say("fail", "bad_line", t("Line {line} cannot be read.", { line: String(e.line) }));
    let matchSeed = null;
    if (rec.seed !== null) {
      let h = null;
      try { h = await sha256hex(hexToBytes(rec.seed)); } catch (e) { h = null; }
      if (rec.commitment && h === rec.commitment) {
        matchSeed = rec.seed;
        say("ok", "match_seed", t("The match seed matches the table's seed commitment."));
      } else say("fail", "match_seed", t("The match seed does not match the table's seed commitment."));
    } else if (rec.commitment) {
      say("info", "match_seed_hidden", t("The match seed is not revealed yet (the match is not over): the deal seeds cannot yet be tied to the table's first commitment."));
    }
    let unchecked = 0;
    for (const d of rec.deals) {
      const k = d.number;
      if (d.sealed) {
        unchecked++;
        say("info", "sealed", t("Deal {number} is sealed: its cards are still hidden by the rules. It can be checked once it is revealed.", { number: String(k) }), k);
        continue;
      }
      if (d.clientSeeds === "bad") { say("fail", "client_seeds", t("Deal {number}: its client seeds are not valid.", { number: String(k) }), k); continue; }
      let seed = d.seed;
      if (seed !== null && !HEX_RE.test(seed)) { say("fail", "deal_seed", t("Deal {number}: its seed is not hex.", { number: String(k) }), k); continue; }
      if (matchSeed !== null) {
        const derived = bytesToHex(await dealSeed(matchSeed, k));
        if (seed !== null && seed !== derived) {
          say("fail", "deal_seed", t("Deal {number}: its seed is not the one the match seed gives.", { number: String(k) }), k);
          continue;
        }
        seed = derived;
      }
      if (seed === null) {
        unchecked++;
        say("info", "unrevealed", t("Deal {number}: its seed is not revealed yet, so its deck cannot be checked.", { number: String(k) }), k);
        continue;
      }
      const h = await sha256hex(hexToBytes(seed));
      if (d.commitment !== null && h !== d.commitment) {
        say("fail", "commitment", t("Deal {number}: SHA-256 of its seed is not its commitment.", { number: String(k) }), k);
        continue;
      }
      const deck = await dealDeck(seed, d.clientSeeds);
      if (!d.deck) { unchecked++; say("info", "no_deck", t("Deal {number}: the record has no deck line.", { number: String(k) }), k); continue; }
      const at = deck.findIndex((c, i) => d.deck[i] !== c);
      if (at >= 0 || d.deck.length !== 52) {
        const pos = at >= 0 ? at : 52;
        say("fail", "deck", t("Deal {number}: the deck is not the one its seed gives (card {position} should be {card}).",
          { number: String(k), position: String(pos + 1), card: deck[pos] ?? "-" }), k);
        continue;
      }
      say("ok", "deal", d.clientSeeds
        ? t("Deal {number}: the seed matches its commitment, and with the players' client seeds it gives exactly the deck in the record.", { number: String(k) })
        : t("Deal {number}: the seed matches its commitment and gives exactly the deck in the record.", { number: String(k) }), k);
    }
    if (!rec.deals.length) say("info", "no_deals", t("The record has no deals."));
    const ok = !items.some(x => x.level === "fail");
    say("info", "replay", t("This page checks the shuffle only. Replaying every move under the rules (each card shown, each result and score) is gin verify's job: run gin verify on the file."));
    return { available: true, ok, partial: unchecked > 0 || matchSeed === null, items };
  }

  // ---- the table page's panel ----

  const store = {
    key(tableId, you, deal) { return `gin.fair.${tableId}.${you}.${deal}`; },
    get(key) { try { return JSON.parse(localStorage.getItem(key)) || null; } catch (e) { return null; } },
    set(key, value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ } },
  };

  const panel = {
    sentAt: new Map(),   // deal -> time this page last sent its client seed
    results: new Map(),  // deal -> Promise of checkDeal's answer
    shown: new Map(),    // deal -> checkDeal's answer once known
    matchOk: null,       // the match seed check, once revealed
    custom: "",          // a seed typed by the player for the next deal
    detailsOpen: false,  // the checked deals' lines are shown (the person opened them)
    state: null,
    send: null,
  };

  function tableId(state) { return state.table && state.table.id; }

  /** A spectator (?watch=1; docs/protocol.md "Spectators": ``you`` is null): he has no seed to
   *  send and no record to download, and sees only the commitments and whom the deal waits for. */
  function watching(state) { return state.you === null; }

  function observedOf(state, k) {
    return store.get(store.key(tableId(state), state.you, k)) || { commitment: null, client_seed: null, sends: 0, player: state.you,
                                                                   hand: null, upcard: null, dealer: null, draws: [] };
  }

  /** Send this seat's client seed for the pending deal; the commitment it saw is kept first.
   *  One seed per deal: the first send fixes it (``typed``, the seed the person typed, or else
   *  ``fallback``), it is kept in localStorage (a reload sends the same one) and every later send
   *  for that deal re-sends it unchanged, counted in ``sends``.  Only the person's own act (a
   *  typed seed, ``typed``) replaces it, and then the new one is the only one accepted. */
  function sendSeed(state, send, typed, fallback) {
    const pending = state.fair.pending;
    const key = store.key(tableId(state), state.you, pending.deal);
    const obs = observedOf(state, pending.deal);
    if (!obs.commitment) obs.commitment = pending.commitment;
    obs.player = state.you;
    const kept = sentSeed(obs);
    if (typed && typed !== kept) { obs.client_seed = typed; obs.sends = 0; }
    else if (!kept) { obs.client_seed = fallback(); obs.sends = 0; }
    else obs.client_seed = kept;
    delete obs.client_seeds_sent;
    obs.sends = (obs.sends || 0) + 1;
    store.set(key, obs);
    panel.sentAt.set(pending.deal, Date.now());
    send({ type: "client_seed", deal: pending.deal, seed: obs.client_seed });
  }

  /** What this seat saw of the deal in progress: the dealt hand (rebuilt from the hand and this
   *  seat's own moves), the upcard, and each card it drew from the stock with the stock size
   *  before that draw (31 at the start, R3.2; one less per stock draw by either seat). */
  function observe(state) {
    const v = state.view;
    if (!v || !state.deal || state.seat === null || state.seat === undefined || !Array.isArray(v.hand)) return;
    const k = state.deal.number;
    const key = store.key(tableId(state), state.you, k);
    const obs = observedOf(state, k);
    const me = String(v.seat);
    const hand = new Set(v.hand);
    const draws = [], piles = [];
    let stock = STOCK_AT_START, r = 0;
    let pile = v.upcard ? [v.upcard] : [];  // the discard pile, bottom to top: every move on it is public
    for (const h of v.history || []) {
      const parts = h.split(" ");
      if (parts[0] === "reshuffle") {  // R7.3: the pile below its top card becomes the stock
        r += 1;
        piles.push(pile.slice(0, -1));
        stock = pile.length - 1;
        pile = pile.slice(-1);
        continue;
      }
      const kind = parts.slice(1, 3).join(" ");
      if (kind === "draw stock") {
        if (parts[0] === me && parts[3]) draws.push({ card: parts[3], stock_before: stock, reshuffle: r });
        stock -= 1;
      } else if (kind === "take upcard" || kind === "take discard") pile.pop();
      else if (["discard", "knock", "gin"].includes(parts[1]) && parts[2]) pile.push(parts[2]);
    }
    const mine = (v.history || []).filter(h => h.startsWith(me + " ")).map(h => h.split(" "));
    for (const p of mine.reverse()) {
      const kind = p.slice(1, 3).join(" "), card = p[p.length - 1];
      if (["take upcard", "draw stock", "take discard"].includes(kind)) hand.delete(card);
      else if (["discard", "knock", "gin"].includes(p[1])) hand.add(card);
    }
    let changed = false;
    if (!obs.hand && hand.size === 10) { obs.hand = [...hand].sort(); changed = true; }
    if (!obs.upcard && v.upcard) { obs.upcard = v.upcard; changed = true; }
    if (obs.dealer === null || obs.dealer === undefined) { obs.dealer = v.dealer === v.seat; changed = true; }
    if ((obs.reshuffles || []).length < piles.length) { obs.reshuffles = piles; changed = true; }
    obs.draws = obs.draws || [];
    for (let i = obs.draws.length; i < draws.length; i++) { obs.draws.push(draws[i]); changed = true; }
    if (changed) store.set(key, obs);
  }

  function checkRevealed(state) {
    for (const d of watching(state) ? [] : state.deals || []) {
      if (!d.revealed || !d.seed || panel.results.has(d.number)) continue;
      const observed = observedOf(state, d.number);
      const p = checkDeal({ reveal: { seed: d.seed, client_seeds: d.client_seeds ?? null, commitment: d.commitment }, observed });
      panel.results.set(d.number, p);
      p.then(r => { panel.shown.set(d.number, r); render(); }, e => console.error("fair-deal check:", e));
    }
    const f = state.fair;
    if (f.match_seed && panel.matchOk === null && hasCrypto()) {
      panel.matchOk = "checking";
      const first = store.get(`gin.fair.${tableId(state)}.commitment`) || f.commitment;
      sha256hex(hexToBytes(f.match_seed)).then(h => { panel.matchOk = h === first; render(); }, () => { panel.matchOk = false; render(); });
    }
  }

  /** Called by table.js on every "state" message, with its send(msg) function.  Never throws:
   *  a fault here must not stop the table page from drawing the state. */
  function onState(state, send) {
    try { update(state, send); } catch (e) { console.error("fair-deal panel:", e); }
  }

  function update(state, send) {
    panel.state = state;
    panel.send = send;
    const box = document.getElementById("fair-panel");
    if (!state || !state.fair) { if (box) box.hidden = true; return; }
    const ckey = `gin.fair.${tableId(state)}.commitment`;
    if (!store.get(ckey)) store.set(ckey, state.fair.commitment);
    const pending = state.fair.pending;
    if (watching(state)) { checkRevealed(state); render(); return; }
    if (pending) {
      // the pending deal's commitment, seen before its cards are dealt: kept first, never replaced
      const obs = observedOf(state, pending.deal);
      if (!obs.commitment) { obs.commitment = pending.commitment; store.set(store.key(tableId(state), state.you, pending.deal), obs); }
    }
    if (pending && (pending.yours === null || pending.yours === undefined) && hasRandom()) {
      const last = panel.sentAt.get(pending.deal) || 0;
      if (Date.now() - last > 3000) {
        // a seed already sent for this deal is re-sent as it is; a typed one waits for a deal without one
        const obs = observedOf(state, pending.deal);
        const typed = sentSeed(obs) ? "" : panel.custom;
        if (typed) panel.custom = "";
        sendSeed(state, send, typed, newClientSeed);
      }
    }
    observe(state);
    checkRevealed(state);
    render();
  }

  function hasRandom() { return typeof crypto !== "undefined" && typeof crypto.getRandomValues === "function"; }

  function mono(text, id) { return el("div", { class: "mono fair-hex", id }, text); }

  function failText(c) {
    if (c.what === "commitment") return t("SHA-256 of the revealed seed is not the commitment this browser saw before it sent its seed");
    if (c.what === "commitment_shown") return t("SHA-256 of the revealed seed is not the deal's commitment");
    if (c.what === "client_seed") return t("the deal did not use the client seed this browser sent");
    if (c.what === "deck") return t("the revealed values do not give a deck");
    if (c.what === "hand") return t("your ten cards are not the ones this seed deals you");
    if (c.what === "upcard") return t("the upcard {card} is not the one this seed gives ({expected})", { card: c.card, expected: c.expected });
    if (c.reshuffle) {
      return t("the card you drew, {card}, is not card {n} of the stock rebuilt by reshuffle {r} ({expected})",
        { card: c.card, n: String(c.index + 1), r: String(c.reshuffle), expected: c.expected ?? "-" });
    }
    return t("the card you drew, {card}, is not stock card {n} of this seed ({expected})", { card: c.card, n: String(c.position - 20), expected: c.expected });
  }

  function resultLine(k, r) {
    if (!r.available) return el("div", { class: "fair-result" }, t("Deal {number}: this page cannot compute SHA-256 (WebCrypto needs https or localhost). Check the record with gin verify.", { number: String(k) }));
    if (r.ok === false) {
      const failed = r.checks.filter(c => c.ok === false).map(failText);
      return el("div", { class: "fair-result fair-bad", role: "alert", "data-deal": k, "data-ok": "false" },
        el("b", null, "\u2717 " + t("Deal {number}: the check FAILED:", { number: String(k) })), " " + failed.join("; ") + ".");
    }
    if (r.ok === null) {
      return el("div", { class: "fair-result", "data-deal": k, "data-ok": "unknown" },
        r.checks.some(c => c.what === "commitment" && c.ok === null)
          ? t("Deal {number}: this browser did not see the commitment before its seed was sent, so it cannot check this deal. Check the record with gin verify.", { number: String(k) })
          : t("Deal {number}: this browser could not check every card you drew. Check the record with gin verify.", { number: String(k) }));
    }
    const seat = r.checks.some(c => c.what === "hand");
    return el("div", { class: "fair-result ok", "data-deal": k, "data-ok": "true" }, "\u2713 " + (seat
      ? t("Deal {number}: your ten cards, the upcard and every card you drew came from this seed.", { number: String(k) })
      : t("Deal {number}: the seed matches the commitment you saw and used your client seed.", { number: String(k) })));
  }

  function render() {
    const state = panel.state;
    const box = document.getElementById("fair-panel");
    if (!box || !state || !state.fair) return;
    box.hidden = false;
    const f = state.fair;
    const out = [];
    out.push(el("div", null, t("The table's seed commitment (SHA-256 of its secret match seed), fixed when the table was made:")),
             mono(f.commitment, "fair-commitment"));
    const watcher = watching(state);
    if (f.pending) {
      const p = f.pending;
      out.push(el("div", { class: "fair-pending" }, watcher
        ? t("Deal {number} commitment (SHA-256 of its seed), shown before the deal:", { number: String(p.deal) })
        : t("Deal {number} commitment, shown before your seed is sent:", { number: String(p.deal) })),
               mono(p.commitment, "fair-pending-commitment"));
      if (!watcher) {
        const obs = observedOf(state, p.deal);
        const mine = sentSeed(obs);
        out.push(el("div", { id: "fair-yours" }, p.yours ? t("Your client seed for deal {number}: {seed}", { number: String(p.deal), seed: p.yours })
          : t("Sending your client seed...")));
        if (p.yours && mine && p.yours !== mine) {
          out.push(el("div", { class: "fair-bad", role: "alert", id: "fair-not-mine" },
            "\u2717 " + t("The server shows {seed} as your client seed, but this browser sent {mine}.", { seed: p.yours, mine })));
        }
      }
      if (p.waiting_for && p.waiting_for.length) {
        out.push(el("div", { class: "hint", id: "fair-waiting" }, t("The deal waits for the client seed of: {names}", { names: p.waiting_for.join(", ") })));
      }
    }
    // the deal waiting for a seed, else the deal in progress: did the server ask more than once?
    const current = f.pending ? f.pending.deal : state.deal && state.deal.number;
    const asked = watcher || !current ? 0 : observedOf(state, current).sends || 0;
    if (asked > 1) {
      out.push(el("div", { class: "hint", id: "fair-asked", "data-asked": String(current) },
        t("Deal {number}: the server asked for your seed {n} times; the same seed was sent each time.",
          { number: String(current), n: String(asked) })));
    }
    if (!hasCrypto()) {
      out.push(el("p", { class: "fair-bad" }, t("This page cannot compute SHA-256: the browser allows WebCrypto only over https or on this computer (localhost). Check the record with gin verify instead.")));
    }
    // the checked deals are one line ("all 12 deals checked"), each deal's line on demand; a deal
    // that failed or could not be checked is said outside it (issue 34: a paragraph a deal)
    const numbers = [...panel.shown.keys()].sort((a, b) => b - a);
    const good = numbers.filter(k => panel.shown.get(k).available && panel.shown.get(k).ok === true);
    for (const k of numbers) if (!good.includes(k)) out.push(resultLine(k, panel.shown.get(k)));
    if (good.length) {
      const details = el("details", { id: "fair-checked", class: "fair-result" },
        el("summary", { class: "ok" }, "\u2713 " + (good.length === 1 ? t("Deal {number} checked", { number: String(good[0]) })
          : good.length === numbers.length ? nt("all {n} deals checked", "all {n} deals checked", good.length)
          : nt("{n} deal checked", "{n} deals checked", good.length))),
        ...good.map(k => resultLine(k, panel.shown.get(k))));
      // the open state of the list being replaced, read now: its "toggle" event is queued and
      // may not have run yet when a new state comes (a click just before it was lost)
      const before = document.getElementById("fair-checked");
      if (before) panel.detailsOpen = before.open;
      details.open = panel.detailsOpen;
      details.addEventListener("toggle", () => { panel.detailsOpen = details.open; });
      out.push(details);
    }
    if (f.match_seed) {
      out.push(el("div", null, t("Match seed, revealed now the match is over:")), mono(f.match_seed, "fair-match-seed"));
      if (panel.matchOk === true) out.push(el("div", { class: "ok" }, "\u2713 " + t("SHA-256 of the match seed is the table's seed commitment.")));
      else if (panel.matchOk === false) out.push(el("div", { class: "fair-bad", role: "alert" }, "\u2717 " + t("SHA-256 of the match seed is NOT the table's seed commitment.")));
    }
    if (panel.custom) out.push(el("div", { class: "hint", id: "fair-custom" }, t("Your own seed for the next deal: {seed}", { seed: panel.custom })));
    // the record's one download link is the panel's first part (table_history.js renderFair)
    out.push(el("p", { class: "fair-links" },
      el("a", { href: "/fair", target: "_blank", rel: "noopener" }, t("How the deal is checked"))));
    // the form is made once, so a seed being typed survives every new state; a spectator has none
    let info = document.getElementById("fair-info");
    if (!info) { info = el("div", { id: "fair-info" }); box.replaceChildren(info, ...(watcher ? [] : [seedForm()])); }
    info.replaceChildren(...out);
  }

  function seedForm() {
    const input = el("input", { type: "text", id: "fair-seed", maxlength: 64, spellcheck: "false", autocomplete: "off" });
    input.value = panel.custom;
    const err = el("div", { class: "error-box", id: "fair-seed-error", role: "alert" });
    const form = el("form", { id: "fair-seed-form", class: "row" },
      el("label", { for: "fair-seed", class: "hint" }, t("Your own seed for the next deal (optional):")), input,
      el("button", { class: "btn secondary small", type: "submit" }, t("Use")), err);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const s = input.value.trim();
      if (!validClientSeed(s) || !s) {
        err.textContent = t("A seed is 1 to 64 characters of A-Z a-z 0-9 _ - (no spaces).");
        return;
      }
      err.textContent = "";
      const state = panel.state;
      const p = state && state.fair && state.fair.pending;
      // typed for the deal that waits, unless the server already holds this page's seed for it
      // (then it is for the next deal: a deal takes one seed per person)
      if (p && !p.yours) { panel.custom = ""; sendSeed(state, panel.send, s, newClientSeed); }
      else panel.custom = s;
      input.value = "";
      render();
      input.focus();
    });
    return form;
  }

  return { hasCrypto, hexToBytes, bytesToHex, sha256, sha256hex, validClientSeed, newClientSeed, dealSeed, deckSeed,
           seededShuffle, deckFromSeed, cardText, cardInt, reshuffledStock, dealDeck, checkDeal, parseRecord, verifyRecordText, onState,
           _panel: panel };
})();
window.GinFair = GinFair;  // a top-level const is no property of window: table.js may test window.GinFair
