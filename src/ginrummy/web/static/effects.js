// Sound and motion of the table page: a card drawn from the stock or taken from the pile flies
// into the hand, a discard lands on the pile, a knock shakes the table; short tones for your turn,
// a knock, gin and the end of a deal. Both can be turned off (remembered), and the system's
// "reduce motion" setting (prefers-reduced-motion) turns the motion off. Tones are made with
// Web Audio (no sound files).
"use strict";

const GinEffects = (() => {
  const $ = (id) => document.getElementById(id);
  const played = [];  // what was played, newest last (read by the browser tests)
  let audio = null;

  const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const soundOn = () => SETTINGS.get("sound", true);
  const motionOn = () => SETTINGS.get("motion", true) && !reduced();

  const TONES = {  // [frequency Hz, start s, length s]
    turn: [[660, 0, 0.12]],
    knock: [[220, 0, 0.08], [220, 0.14, 0.08]],
    gin: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.2]],
    end: [[392, 0, 0.15], [523, 0.15, 0.25]],
  };

  function play(name) {
    played.push(name);
    if (!soundOn()) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const t0 = audio.currentTime;
      for (const [f, at, len] of TONES[name]) {
        const o = audio.createOscillator(), g = audio.createGain();
        o.frequency.value = f;
        g.gain.setValueAtTime(0.08, t0 + at);
        g.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
        o.connect(g).connect(audio.destination);
        o.start(t0 + at);
        o.stop(t0 + at + len + 0.02);
      }
    } catch (e) { /* no audio device: silence */ }
  }

  function animate(sel, cls) {
    if (!motionOn()) return;
    const e = document.querySelector(sel);
    if (!e) return;
    e.classList.remove(cls);
    void e.offsetWidth;  // restart the animation
    e.classList.add(cls);
    setTimeout(() => e.classList.remove(cls), 700);
  }

  /** Called after each state is drawn, with the state before it (or null). */
  function onState(prev, s) {
    if (!s || !s.view) return;
    const before = prev && prev.view && prev.deal && s.deal && prev.deal.number === s.deal.number ? prev.view.history.length : null;
    const fresh = before === null ? [] : s.view.history.slice(before);
    for (const h of fresh) {
      const m = /^(\d) (draw stock|take discard|take upcard|discard|knock|gin|big gin)/.exec(h);
      if (!m) continue;
      const mine = Number(m[1]) === s.view.seat;
      if (m[2] === "discard") animate("#discard .card:last-child, #discard", "land");
      else if (m[2] === "knock") { animate("#felt", "knock-shake"); play("knock"); }
      else if (m[2] === "gin" || m[2] === "big gin") play("gin");
      else if (mine) animate("#hand .card.new, #hand .card:last-child", "arrive");
    }
    if (s.your_turn && !(prev && prev.your_turn)) play("turn");
    if (s.view.phase === "over" && prev && prev.view && prev.view.phase !== "over") play("end");
  }

  function toggles() {
    const box = $("effects");
    if (!box) return;
    const make = (key, label) => {
      const input = el("input", { type: "checkbox", id: `effect-${key}` });
      input.checked = SETTINGS.get(key, true);
      input.addEventListener("change", () => SETTINGS.set(key, input.checked));
      return el("label", { style: "margin-right:12px" }, input, " " + label);
    };
    box.replaceChildren(make("sound", t("Sound")), make("motion", t("Motion")),
      reduced() ? el("span", { class: "hint" }, t("(your system asks for reduced motion)")) : null);
  }

  document.addEventListener("DOMContentLoaded", toggles);
  if (document.readyState !== "loading") toggles();
  return { onState, play, played, motionOn };
})();
window.GinEffects = GinEffects;
