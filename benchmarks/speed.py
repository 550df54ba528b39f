"""Speed benchmarks of ginrummy against OpenSpiel and RLCard, in one process, on the same inputs.

Run from the repository root:

    python benchmarks/speed.py [--n 10000] [--seed 2024] [--write]

Sections (each a function registered with :func:`section`; see ``SECTIONS``):

* ``Meld search``: minimum deadwood (R2.4) of random 10-card hands, of meld-rich 10-card hands
  from simple self-play, and best-discard deadwood (R5.1) of random and self-play 11-card hands;
  agreement with OpenSpiel; peak memory.

* ``Random play``: whole deals a second with random legal actions: ours against OpenSpiel's
  ``gin_rummy`` stepped from Python and RLCard's ``gin-rummy`` environment (``--deals`` deals).
* ``Novice vs random``: deals a second of our ``novice`` against ``random`` driven through
  ``view_of`` as a table does, against OpenSpiel's simple bot against random.

More sections: register a function with ``@section("Title")`` on ``def bench(ctx) -> Section``.
``--write`` replaces each measured section of ``benchmarks/RESULTS.md`` and keeps the others.
"""

from __future__ import annotations

import argparse
import platform
import random
import resource
import shlex
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ginrummy.cards import CARD_VALUES, mask_of  # noqa: E402
from ginrummy.deal import new_deal  # noqa: E402
from ginrummy.melds import best_discard_deadwood, deadwood, discard_options  # noqa: E402
from ginrummy.players.simple import NovicePlayer, RandomPlayer  # noqa: E402
from ginrummy.rules import PRESETS  # noqa: E402
from ginrummy.views import view_of  # noqa: E402

RSS_AFTER_OURS_KB = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

try:
    import pyspiel  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the machine
    pyspiel = None

try:
    from rlcard.games.gin_rummy.utils import melding as rl_melding  # type: ignore[import-not-found]
    from rlcard.games.gin_rummy.utils import utils as rl_utils  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the machine
    rl_melding = rl_utils = None

try:
    import rlcard  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the machine
    rlcard = None

RESULTS = ROOT / "benchmarks" / "RESULTS.md"


# --- the extension point -----------------------------------------------------------------------


@dataclass
class Context:
    """What every section gets: the size, a seeded generator, and where to note what is missing."""

    n: int
    seed: int
    deals: int = 1000
    notes: list[str] = field(default_factory=list)

    def rng(self, salt: str) -> random.Random:
        """A generator of its own for each input set, so sections do not disturb each other."""
        return random.Random(f"{self.seed}:{salt}")


@dataclass
class Section:
    """One section of results: a markdown table (header + rows) and notes under it."""

    title: str
    header: list[str]
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def markdown(self, command: str) -> str:
        out = [f"## {self.title}", "", f"Command: `{command}`", ""]
        out.append("| " + " | ".join(self.header) + " |")
        out.append("|" + "---|" * len(self.header))
        out.extend("| " + " | ".join(r) + " |" for r in self.rows)
        if self.notes:
            out.append("")
            out.extend(f"- {n}" for n in self.notes)
        return "\n".join(out) + "\n"


SECTIONS: list[tuple[str, Callable[[Context], Section]]] = []


def section(title: str) -> Callable[[Callable[[Context], Section]], Callable[[Context], Section]]:
    """Register a benchmark section (run in registration order)."""

    def register(fn: Callable[[Context], Section]) -> Callable[[Context], Section]:
        SECTIONS.append((title, fn))
        return fn

    return register


# --- timing --------------------------------------------------------------------------------


def rate(fn: Callable, inputs: Sequence, repeat: int = 3) -> tuple[float, list]:
    """Calls per second of ``fn`` over ``inputs`` (best of ``repeat`` passes) and its answers."""
    best = float("inf")
    answers: list = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        answers = [fn(x) for x in inputs]
        best = min(best, time.perf_counter() - t0)
    return len(inputs) / best, answers


def fmt_rate(r: float | None) -> str:
    if r is None:
        return "n/a"
    return f"{r / 1e6:.2f}M/s" if r >= 1e6 else f"{r / 1e3:.1f}k/s"


def fmt_ratio(a: float | None, b: float | None) -> str:
    return "n/a" if a is None or b is None else f"{a / b:.2f}x"


# --- inputs --------------------------------------------------------------------------------


def random_hands(rng: random.Random, n: int, size: int) -> list[list[int]]:
    return [rng.sample(range(52), size) for _ in range(n)]


def self_play_hands(rng: random.Random, n: int, near: int = 20) -> tuple[list[list[int]], list[list[int]]]:
    """Meld-rich hands "from real play": ``n`` 10-card and ``n`` 11-card hands.

    Deals are played by a lean loop on the melds module, apart from the deal engine, so that
    this section times the meld search alone:
    two seats of ten cards, an upcard; each turn a seat takes the discard if that lowers its
    best-discard deadwood, else draws the stock, then discards the card leaving the least
    deadwood (the highest card on ties).  Every hand held at a deadwood of ``near`` or less
    (R5.1 knocks at 10) is collected: its 11 cards after the draw and its 10 after the discard.
    A deal stops when a seat could knock or two stock cards remain (R7.1).
    """
    tens: list[list[int]] = []
    elevens: list[list[int]] = []
    while len(tens) < n or len(elevens) < n:
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [mask_of(deck[:10]), mask_of(deck[10:20])]
        pile = [deck[20]]
        stock = deck[21:]
        seat = 0
        while len(stock) > 2:
            hand = hands[seat]
            top = pile[-1]
            if best_discard_deadwood(hand | (1 << top)) < deadwood(hand):
                pile.pop()
                drawn = top
            else:
                drawn = stock.pop()
            hand |= 1 << drawn
            options = [(d, -CARD_VALUES[c], c) for c, d in discard_options(hand) if not (c == drawn and drawn == top)]
            dw, _, discard = min(options)
            if dw <= near:
                if len(elevens) < n:
                    elevens.append(cards_list(hand))
                if len(tens) < n:
                    tens.append(cards_list(hand & ~(1 << discard)))
            hands[seat] = hand & ~(1 << discard)
            pile.append(discard)
            if dw <= 10:
                break
            seat ^= 1
    return tens, elevens


def cards_list(mask: int) -> list[int]:
    return [c for c in range(52) if (mask >> c) & 1]


# --- the three implementations -----------------------------------------------------------------


def to_openspiel(cards: list[int]) -> list[int]:
    """Our card (suits C D H S) to OpenSpiel's (suit * 13 + rank, suits s c d h)."""
    return [((c // 13 + 1) % 4) * 13 + c % 13 for c in cards]


def to_rlcard(cards: list[int]) -> list:
    """Our card to RLCard's Card object (card id rank + 13 * suit, suits S H D C)."""
    return [rl_utils.get_card((3 - c // 13) * 13 + c % 13) for c in cards]


def rlcard_deadwood(hand: list) -> int:
    """Least deadwood of a 10-card RLCard hand with RLCard's own helpers."""
    clusters = rl_melding.get_best_meld_clusters(hand=hand)
    if not clusters:
        return sum(rl_utils.get_deadwood_value(c) for c in hand)
    return rl_utils.get_deadwood_count(hand=hand, meld_cluster=clusters[0])


def rlcard_best_discard(hand: list) -> int:
    """Least deadwood after the best discard of an 11-card RLCard hand: over RLCard's meld
    clusters of the 11 cards, the cluster's deadwood less its highest card (RLCard's judge
    reasons the same way about going out)."""
    values = [rl_utils.get_deadwood_value(c) for c in hand]
    best = sum(values) - max(values)
    for cluster in rl_melding.get_meld_clusters(hand=hand):
        melded = {c for pile in cluster for c in pile}
        dead = [v for c, v in zip(hand, values) if c not in melded]
        d = sum(dead) - max(dead) if dead else 0
        if d < best:
            best = d
    return best


# --- the meld search section -------------------------------------------------------------------


@section("Meld search")
def meld_search(ctx: Context) -> Section:
    n = ctx.n
    t0 = time.perf_counter()
    play10, play11 = self_play_hands(ctx.rng("play"), n)
    gen_time = time.perf_counter() - t0
    inputs = {
        "random 10-card, min deadwood": (random_hands(ctx.rng("r10"), n, 10), 10),
        "self-play 10-card (meld-rich), min deadwood": (play10, 10),
        "random 11-card, best-discard deadwood": (random_hands(ctx.rng("r11"), n, 11), 11),
        "self-play 11-card (meld-rich), best-discard deadwood": (play11, 11),
    }
    sec = Section(
        "Meld search",
        ["input (n hands)", "ours", "OpenSpiel (C++)", "RLCard", "ours/OpenSpiel", "ours/RLCard",
         "agree with OpenSpiel", "agree with RLCard"],
    )
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10) if pyspiel else None
    for label, (hands, size) in inputs.items():
        masks = [mask_of(h) for h in hands]
        ours_fn = deadwood if size == 10 else best_discard_deadwood
        r_ours, a_ours = rate(ours_fn, masks)
        print(f"{label}: ours {fmt_rate(r_ours)}", flush=True)
        r_os = r_rl = None
        agree_os = agree_rl = "n/a"
        if utils is not None:
            os_hands = [to_openspiel(h) for h in hands]
            r_os, a_os = rate(utils.min_deadwood, os_hands)
            same = sum(a == b for a, b in zip(a_ours, a_os))
            agree_os = f"{same}/{len(hands)}"
            if size == 11:
                # OpenSpiel's 11-card answer is a shortcut (one best 11-card meld group, less
                # its highest deadwood card); its exact answer is the best 10-card discard
                exact = [min(utils.min_deadwood(h[:i] + h[i + 1:]) for i in range(11)) for h in os_hands]
                same_exact = sum(a == b for a, b in zip(a_ours, exact))
                agree_os += f" (exact per discard: {same_exact}/{len(hands)})"
            print(f"  OpenSpiel {fmt_rate(r_os)}, ours/OpenSpiel {fmt_ratio(r_ours, r_os)}, agree {agree_os}", flush=True)
        if rl_melding is not None:
            rl_hands = [to_rlcard(h) for h in hands]
            r_rl, a_rl = rate(rlcard_deadwood if size == 10 else rlcard_best_discard, rl_hands, repeat=1)
            agree_rl = f"{sum(a == b for a, b in zip(a_ours, a_rl))}/{len(hands)}"
            print(f"  RLCard {fmt_rate(r_rl)}, ours/RLCard {fmt_ratio(r_ours, r_rl)}, agree {agree_rl}", flush=True)
        sec.rows.append([f"{label} ({len(hands)})", fmt_rate(r_ours), fmt_rate(r_os), fmt_rate(r_rl),
                         fmt_ratio(r_ours, r_os), fmt_ratio(r_ours, r_rl), agree_os, agree_rl])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    sec.notes.append(
        f"Peak memory (ru_maxrss): {RSS_AFTER_OURS_KB / 1024:.1f} MB after importing ginrummy (tables built), "
        f"{peak / 1024:.1f} MB for the whole run (OpenSpiel and RLCard loaded, all inputs held)."
    )
    sec.notes.append(
        "Rates are calls per second on inputs already in each library's own card form (best of 3 passes "
        "for ours and OpenSpiel, 1 pass for RLCard); OpenSpiel is `GinRummyUtils(13, 4, 10).min_deadwood` "
        "called from Python; RLCard is `melding.get_best_meld_clusters` (10 cards) and "
        "`melding.get_meld_clusters` less the highest deadwood card (11 cards)."
    )
    sec.notes.append(
        f"Self-play hands: simple greedy deals played with ginrummy.melds (apart from the deal engine), "
        f"every hand at deadwood <= 20 collected ({gen_time:.1f} s to generate)."
    )
    sec.notes.append(
        "OpenSpiel's `min_deadwood` on 11 cards may answer too high when several 11-card meld groups tie; "
        "its exact answer (least `min_deadwood` over the 11 ten-card hands) is given in brackets."
    )
    sec.notes.extend(ctx.notes)
    return sec


# --- the deal-play sections --------------------------------------------------------------------


def ours_random_deals(n: int, seed: int) -> tuple[int, Counter]:
    """``n`` whole deals of our engine (preset ``standard``) with uniformly random legal actions:
    the deck shuffled with ``random.Random``, the dealer alternating.  Returns the actions
    taken and the outcomes."""
    rules = PRESETS["standard"]
    rng = random.Random(seed)
    actions = 0
    outcomes: Counter = Counter()
    for d in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        s = new_deal(rules, d % 2, deck)
        while s.to_act is not None:
            s, _ = s.apply(s.to_act, rng.choice(s.legal_actions()))
            actions += 1
        outcomes[s.result.outcome] += 1
    return actions, outcomes


def openspiel_random_deals(n: int, seed: int) -> tuple[int, Counter]:
    """``n`` whole deals of ``pyspiel.load_game("gin_rummy")`` from Python: chance nodes by
    ``chance_outcomes`` (uniform) with ``random.Random``, random legal actions."""
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    actions = 0
    outcomes: Counter = Counter()
    for _ in range(n):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                actions += 1
        r = s.returns()
        outcomes["draw" if r[0] == r[1] == 0 else "scored"] += 1
    return actions, outcomes


def rlcard_random_deals(n: int, seed: int) -> tuple[int, Counter]:
    """``n`` whole deals of ``rlcard.make("gin-rummy")`` (its environment, state encoding
    included, as an agent uses it) with random legal actions."""
    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = random.Random(seed)
    actions = 0
    outcomes: Counter = Counter()
    for _ in range(n):
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            actions += 1
        p = env.get_payoffs()
        outcomes["draw" if p[0] == p[1] == 0 else "scored"] += 1
    return actions, outcomes


def ours_novice_deals(n: int, seed: int) -> tuple[int, Counter]:
    """``n`` deals of ``novice`` against ``random`` as a real table plays them: each turn the seat
    to act gets ``view_of(state, seat)`` and the legal actions and chooses.  Seats and dealer
    alternate.  Outcomes counted from the novice's side (``win``/``loss``/``draw``, points)."""
    rules = PRESETS["standard"]
    rng = random.Random(seed)
    actions = 0
    outcomes: Counter = Counter()
    for d in range(n):
        me = (d // 2) % 2
        players = {me: NovicePlayer(random.Random(seed * 100003 + d)), 1 - me: RandomPlayer(random.Random(-d))}
        deck = list(range(52))
        rng.shuffle(deck)
        s = new_deal(rules, d % 2, deck)
        while s.to_act is not None:
            seat = s.to_act
            legal = s.legal_actions()
            s, _ = s.apply(seat, players[seat].choose(view_of(s, seat), legal))
            actions += 1
        res = s.result
        key = "draw" if res.winner is None else ("win" if res.winner == me else "loss")
        outcomes[key] += 1
        outcomes["points"] += res.points if key == "win" else -res.points
    return actions, outcomes


def openspiel_simple_deals(n: int, seed: int) -> tuple[int, Counter]:
    """``n`` deals of OpenSpiel's simple bot (``make_simple_gin_rummy_bot``, the same EAAI
    baseline) against random legal actions, seats alternating; the bot is restarted per deal."""
    game = pyspiel.load_game("gin_rummy")
    params = game.get_parameters()
    bots = [pyspiel.make_simple_gin_rummy_bot(params, p) for p in (0, 1)]
    rng = random.Random(seed)
    actions = 0
    outcomes: Counter = Counter()
    for d in range(n):
        me = (d // 2) % 2
        bot = bots[me]
        bot.restart()
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            elif s.current_player() == me:
                s.apply_action(bot.step(s))
                actions += 1
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                actions += 1
        r = s.returns()[me]
        outcomes["draw" if r == 0 else ("win" if r > 0 else "loss")] += 1
        outcomes["points"] += int(r)
    return actions, outcomes


def timed(fn: Callable[[int, int], tuple[int, Counter]], n: int, seed: int) -> tuple[float, int, Counter]:
    """Deals per second of one pass of ``fn(n, seed)``, its actions and outcomes."""
    t0 = time.perf_counter()
    actions, outcomes = fn(n, seed)
    return n / (time.perf_counter() - t0), actions, outcomes


def best_of(fns: list[Callable[[int, int], tuple[int, Counter]]], n: int, seed: int,
            repeat: int = 3) -> list[tuple[float, int, Counter]]:
    """:func:`timed` of each of ``fns``, best of ``repeat`` passes, the passes taken in turn
    (ours, theirs, ours, theirs, ...) so that a busy spell of the machine hits both alike."""
    best: list[tuple[float, int, Counter] | None] = [None] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t = timed(fn, n, seed)
            if best[i] is None or t[0] > best[i][0]:  # type: ignore[index]
                best[i] = t
    return best  # type: ignore[return-value]


def traced_peak_kb(fn: Callable[[int, int], tuple[int, Counter]], n: int, seed: int) -> float:
    """Peak Python allocation (tracemalloc, KB) while ``fn`` plays ``n`` deals (untimed pass)."""
    tracemalloc.start()
    try:
        fn(n, seed)
        return tracemalloc.get_traced_memory()[1] / 1024
    finally:
        tracemalloc.stop()


def fmt_deals(r: float | None) -> str:
    return "n/a" if r is None else f"{r:,.0f}/s"


def deal_rows(sec: Section, label: str, n: int, ours: tuple[float, int, Counter], other: tuple[float, int, Counter] | None,
              other_name: str) -> None:
    r_o, a_o, _ = ours
    r_x, a_x = (other[0], other[1]) if other else (None, None)
    sec.rows.append([label, other_name, str(n), fmt_deals(r_o), fmt_deals(r_x), fmt_ratio(r_o, r_x),
                     f"{a_o / n:.1f}", "n/a" if a_x is None else f"{a_x / n:.1f}"])


DEAL_HEADER = ["play", "against", "deals", "ours", "theirs", "ours/theirs", "actions/deal (ours)", "actions/deal (theirs)"]


@section("Random play")
def random_play(ctx: Context) -> Section:
    n = ctx.deals
    sec = Section("Random play", DEAL_HEADER)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if pyspiel is not None:
        ours, os_ = best_of([ours_random_deals, openspiel_random_deals], n, ctx.seed)
    else:
        ours, = best_of([ours_random_deals], n, ctx.seed)
    print(f"ours: {fmt_deals(ours[0])} ({ours[1] / n:.1f} actions/deal) {dict(ours[2])}", flush=True)
    if pyspiel is not None:
        print(f"OpenSpiel: {fmt_deals(os_[0])} ({os_[1] / n:.1f} actions/deal), ours/OpenSpiel {fmt_ratio(ours[0], os_[0])}",
              flush=True)
        deal_rows(sec, "random legal actions", n, ours, os_, "OpenSpiel (C++ game, Python loop)")
    else:
        deal_rows(sec, "random legal actions", n, ours, None, "OpenSpiel (not installed)")
    if rlcard is not None:
        rl = timed(rlcard_random_deals, n, ctx.seed)
        print(f"RLCard: {fmt_deals(rl[0])} ({rl[1] / n:.1f} actions/deal), ours/RLCard {fmt_ratio(ours[0], rl[0])}",
              flush=True)
        deal_rows(sec, "random legal actions", n, ours, rl, "RLCard env (Python)")
    else:
        deal_rows(sec, "random legal actions", n, ours, None, "RLCard (not installed)")
    peak = traced_peak_kb(ours_random_deals, min(n, 200), ctx.seed)
    sec.notes.append(
        f"Peak memory: ours {peak:.0f} KB of Python allocations at most while playing {min(n, 200)} random deals "
        f"(tracemalloc); the process's ru_maxrss went from {rss0 / 1024:.1f} MB to "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MB over this section (all three libraries "
        f"loaded; OpenSpiel's C++ allocations are not traced).")
    sec.notes.append(
        f"Outcomes, ours: {dict(sorted(ours[2].items()))} (a random player rarely knocks: most deals end "
        f"with two stock cards left, R7.1).")
    sec.notes.append(
        "Ours and OpenSpiel: best of 3 passes of `--deals` deals each, taken in turn (ours, OpenSpiel, ours, ...); "
        "RLCard: 1 pass. Same machine, one process. Ours: preset "
        "`standard`, deck shuffled by `random.Random`, `state.apply(state.to_act, rng.choice(state.legal_actions()))` "
        "to the end. OpenSpiel: `pyspiel.load_game(\"gin_rummy\")` stepped from Python, chance nodes sampled "
        "from `chance_outcomes()`, its knock phase (meld lay-down actions) included in its action count. "
        "RLCard: `rlcard.make(\"gin-rummy\")` with `env.reset()`/`env.step()` (state encoding per step).")
    sec.notes.extend(ctx.notes)
    return sec


@section("Novice vs random")
def novice_vs_random(ctx: Context) -> Section:
    n = ctx.deals
    sec = Section("Novice vs random", DEAL_HEADER)
    os_ = None
    if pyspiel is not None:
        ours, os_ = best_of([ours_novice_deals, openspiel_simple_deals], n, ctx.seed)
    else:
        ours, = best_of([ours_novice_deals], n, ctx.seed)
    print(f"ours: {fmt_deals(ours[0])} ({ours[1] / n:.1f} actions/deal) {dict(ours[2])}", flush=True)
    if os_ is not None:
        print(f"OpenSpiel: {fmt_deals(os_[0])} ({os_[1] / n:.1f} actions/deal), ours/OpenSpiel "
              f"{fmt_ratio(ours[0], os_[0])} {dict(os_[2])}", flush=True)
    deal_rows(sec, "novice vs random", n, ours, os_,
              "OpenSpiel simple bot vs random" if os_ else "OpenSpiel (not installed)")
    peak = traced_peak_kb(ours_novice_deals, min(n, 200), ctx.seed)

    def share(c: Counter) -> str:
        return (f"wins {c['win']}, losses {c['loss']}, draws {c['draw']}, "
                f"{c['points'] / n:+.1f} points/deal")

    sec.notes.append(f"Novice's results, ours: {share(ours[2])}"
                     + (f"; OpenSpiel's simple bot: {share(os_[2])}" if os_ else "") + ".")
    sec.notes.append(
        f"Peak memory: ours {peak:.0f} KB of Python allocations at most while playing {min(n, 200)} deals "
        f"(tracemalloc); process ru_maxrss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MB.")
    sec.notes.append(
        "Ours as a table plays: each action, the seat to act gets `views.view_of(state, seat)` and "
        "`state.legal_actions()` and its player (`NovicePlayer` / `RandomPlayer`) chooses; building the view "
        "is timed. OpenSpiel: `pyspiel.make_simple_gin_rummy_bot(params, seat).step(state)` against "
        "random legal actions, chance nodes sampled from Python, bot restarted per deal. Novice seat and dealer "
        "alternate. Best of 3 passes each, taken in turn.")
    return sec


# --- main ----------------------------------------------------------------------------------


def write_results(sections: list[Section], command: str) -> None:
    """Replace the measured sections of RESULTS.md (by their ``## title``), keep the others."""
    text = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
    blocks: list[str] = []
    head, *rest = ("\n" + text).split("\n## ")
    blocks = ["## " + b for b in rest]
    new = {s.title: s.markdown(command) for s in sections}
    out = []
    seen = set()
    for b in blocks:
        title = b[3:].split("\n", 1)[0].strip()
        if title in new:
            out.append(new[title])
            seen.add(title)
        else:
            out.append(b.rstrip("\n") + "\n")
    out.extend(md for title, md in new.items() if title not in seen)
    machine = f"_Last run: {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, {platform.machine()}._\n"
    head = head.strip("\n") or "# Benchmark results"
    head_lines = [ln for ln in head.split("\n") if not ln.startswith("_Last run:")]
    RESULTS.write_text("\n".join(head_lines).rstrip("\n") + "\n\n" + machine + "\n" + "\n".join(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000, help="hands per input set (default 10000)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the input generators")
    parser.add_argument("--deals", type=int, default=1000, help="deals per deal-play measurement (default 1000)")
    parser.add_argument("--only", action="append", help="run only the named section(s)")
    parser.add_argument("--write", action="store_true", help="write the tables into benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    ctx = Context(n=args.n, seed=args.seed, deals=args.deals)
    if pyspiel is None:
        msg = "OpenSpiel (pyspiel) is not installed: its columns are n/a."
        print(msg)
        ctx.notes.append(msg)
    if rl_melding is None:
        msg = "RLCard is not installed: its columns are n/a."
        print(msg)
        ctx.notes.append(msg)
    results = []
    for title, fn in SECTIONS:
        if args.only and title not in args.only:
            continue
        print(f"== {title}")
        results.append(fn(ctx))
    for s in results:
        for note in s.notes:
            print(note)
    if args.write:
        command = "python benchmarks/speed.py " + shlex.join(argv if argv is not None else sys.argv[1:])
        write_results(results, command.strip())
        print(f"written: {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
