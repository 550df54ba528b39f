"""Strength of the computer player levels: a round robin under the ``eaai`` preset, and our
players inside OpenSpiel's ``gin_rummy`` against its simple bot.

Run from the repository root:

    python benchmarks/strength.py [--games 200] [--seed 1] [--pairs expert:novice,club:novice,expert:club]
                                  [--budget-ms 150] [--openspiel-deals 0] [--openspiel-level expert]
                                  [--start 0] [--out FILE.jsonl] [--merge FILE.jsonl ...] [--write]
                                  [--workers N] [--ray [ADDRESS]] [--duplicate] [--cpu-clock]

Each pairing plays ``--games`` games to 100 (preset ``eaai``: no bonuses, the deal alternates,
R13), the first dealer alternating from game to game and every game from a fixed seed
(:func:`ginrummy.analysis.simulate.match_seed`; the same seeds as ``gin simulate``), each player seeing
only its :class:`~ginrummy.views.PlayerView`.  It reports games won with the 95% Wilson
interval, deals won, mean deal points a deal, and the time per decision (median and 99th
percentile, decisions with more than one legal action) of each level.  ``--out`` appends one
JSON line per finished game so partial figures survive an interrupted run; a long run can be
split in shards (``--start``, ``--games``) run side by side and summed with ``--merge``.  ``--write``
replaces the ``## Strength`` section of ``benchmarks/RESULTS.md`` and keeps the other sections.

``--duplicate`` plays duplicate deals (:mod:`ginrummy.analysis.duplicate`): every match seed twice, the
levels swapping seats, and reports games won and the duplicate points difference with 95%
intervals over the pairs, and how much the variance fell against independent games.
``--cpu-clock`` makes the time budget of the expert (and master) count the processor time of
its own process (``time.process_time``), so that win rates measured at ``nice -n 19`` on a
shared machine are those of a quiet one (their decision times then only show the load).

A level may carry options after ``@`` (see ``build``): ``club@rules`` (the hand-made opponent
model) and ``expert@learned`` (the learned one; each level's default is the other), ``expert@classic``, ``expert@careful``, ``expert@staged``,
``expert@nofeed``, ``expert@safe`` (the playout policy, :data:`ginrummy.players.rollout.POLICIES`),
``expert@eager`` (the knock as the default move), ``expert@peek`` (told the opponent's real hand,
a ceiling that no fair player reaches), ``expert@noguess`` (no inference: his hidden cards uniformly drawn), ``expert@peekdw`` (told
only his real deadwood: the sampled hands nearest it), ``expert@oz1.0`` (``override_z``) and
``expert@ms280`` (a budget of its own, in milliseconds a decision) and ``expert@s750`` (the most
sampled deals a decision); several
may be joined, ``expert@learned@careful``.

The fixed-sample levels ``expert-fixed`` and ``master-fixed`` (no clock, 400 and 2,000 sampled
deals a decision) are left as they are by ``--budget-ms`` and ``--cpu-clock``, and ``@s<samples>``
keeps them fixed (``expert-fixed@s64``): their games are the same on any machine.

``--workers N`` plays the games and OpenSpiel deals in N local processes, ``--ray [ADDRESS]`` on
Ray (a local Ray without ADDRESS), with :mod:`ginrummy.analysis.shards`: every game and deal is seeded
from ``--seed`` and its number alone, so the results are those of one process (except for the
expert, whose time budget makes its play depend on the machine's speed).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import shlex
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ginrummy.analysis.duplicate import duplicate_order, pair_of, summarise_pairs  # noqa: E402
from ginrummy.match import Match  # noqa: E402
from ginrummy.melds import deadwood  # noqa: E402
from ginrummy.analysis.shards import LOCAL, MAX_WORKERS, ShardError, iter_shards  # noqa: E402
from ginrummy.players import make_player  # noqa: E402
from ginrummy.rules import preset  # noqa: E402
from ginrummy.analysis.simulate import _names, match_seed, player_seed, seat_levels, wilson_interval  # noqa: E402

RESULTS = ROOT / "benchmarks" / "RESULTS.md"


class Timed:
    """A player wrapper that records the seconds of each decision with two or more legal actions."""

    def __init__(self, player, sink: list[float]) -> None:
        self.player = player
        self.sink = sink
        self.name = getattr(player, "name", "?")

    def choose(self, view, legal):
        if len(legal) < 2:
            return self.player.choose(view, legal)
        t = time.perf_counter()
        a = self.player.choose(view, legal)
        self.sink.append(time.perf_counter() - t)
        return a


def build(level: str, rng: random.Random, budget_ms: float | None, cpu_clock: bool = False):
    """The player of ``level``; an expert (or master) with ``budget_ms`` a decision if given,
    reading the process's processor time (``time.process_time``) for its budget when
    ``cpu_clock``: then a busy machine slows the games but does not weaken the player.
    ``LEVEL@rules`` and ``LEVEL@learned`` are that level with the hand-made or the learned
    opponent model (``club`` uses the learned one by default, ``expert`` and ``master`` the
    hand-made one, so ``club@rules`` is the club player before issue 17 and ``expert@learned``
    the expert of issue 17's first two stops); ``expert@careful`` (or ``master@careful``,
    ``expert@learned@careful``) the expert with the careful playout policy
    (:data:`ginrummy.players.rollout.POLICIES`; ``classic`` is the default); ``expert@oz1.0`` the expert with ``override_z`` 1.0 (the standard errors
    by which a move must beat the club move to be chosen); ``expert@ms280`` the expert with a
    budget of 280 ms a decision (``--budget-ms`` then leaves it as it is) and ``expert@s750`` with at
    most 750 sampled deals a decision (400 by default); ``expert@eager`` the expert whose
    default move is the knock when one is legal (``eager_knock``); ``sage@nosearch`` the sage's
    default move alone, no sampled deals (``sage@searchknock``: searching only the decisions
    where a knock is legal, ``sage@searchdraw`` those and the draws); ``sage@all`` and ``sage@moves`` the sage whose
    network decides every default move, or the draws and discards only (``knock``, the default:
    whether to knock).  Measured before these names: ``sage@knockonly`` is ``sage``,
    ``sage@clubknock`` is ``sage@moves``, and ``sage`` was ``sage@all``.  ``@dw<x>``, ``@pw<x>`` and
    ``@tm<x>`` set the club rules' danger weight, next-draw weight and take margin
    (:data:`CLUB_WEIGHTS`) of the club player, or of the club player inside an expert or sage
    (``sage-fast@pw0.6``).  Raises ``ValueError`` for an unknown suffix."""
    from ginrummy.cards import cards_of
    from ginrummy.players.club import OPPONENT_MODELS
    from ginrummy.players.inference import sample_hands
    from ginrummy.players.rollout import POLICIES

    base, *options = level.split("@")
    player = make_player(base, rng)
    kwargs: dict[str, object] = {}
    weights: dict[str, float] = {}
    peek = noguess = peekdw = False
    if options:
        for opt in options:
            if opt in OPPONENT_MODELS:
                kwargs["opponent_model"] = opt
            elif opt in POLICIES and hasattr(player, "playout"):
                kwargs["playout"] = opt
            elif opt == "nosearch" and hasattr(player, "search"):
                kwargs["search"] = "none"
            elif opt in ("searchknock", "searchdraw", "searchmoves") and hasattr(player, "search"):
                kwargs["search"] = {"searchknock": "knock", "searchdraw": "draw+knock", "searchmoves": "moves"}[opt]
            elif opt in ("knock", "all", "moves", "whether") and hasattr(player, "network"):
                kwargs["network"] = opt
            elif opt == "peek" and hasattr(player, "_sample_hands"):
                peek = True
            elif opt == "noguess" and hasattr(player, "_sample_hands"):
                noguess = True
            elif opt == "peekdw" and hasattr(player, "_sample_hands"):
                peekdw = True
            elif opt == "eager" and hasattr(player, "eager_knock"):
                kwargs["eager_knock"] = True
            elif opt.startswith("oz") and hasattr(player, "override_z") and _is_float(opt[2:]):
                kwargs["override_z"] = float(opt[2:])
            elif opt.startswith("ms") and hasattr(player, "budget_ms") and _is_float(opt[2:]) and float(opt[2:]) > 0:
                kwargs["budget_ms"] = float(opt[2:])
            elif opt.startswith("s") and hasattr(player, "samples") and opt[1:].isdigit() and int(opt[1:]) >= 1:
                kwargs["samples"] = int(opt[1:])
            elif opt[:2] in CLUB_WEIGHTS and _is_float(opt[2:]) and hasattr(getattr(player, "_club", player), "take_margin"):
                weights[CLUB_WEIGHTS[opt[:2]]] = float(opt[2:])
            else:
                raise ValueError(f"unknown option {opt!r} of level {level!r}: opponent models "
                                 f"{', '.join(OPPONENT_MODELS)}, playouts {', '.join(POLICIES)}, and for "
                                 f"the expert and master eager, oz<standard errors>, ms<milliseconds>, s<samples>; "
                                 f"peek (told the opponent's real hand: a ceiling), noguess (his hidden cards drawn uniformly), peekdw (told his real deadwood); for the sage nosearch, searchknock, searchdraw, searchmoves, knock, all, moves, "
                                 f"whether; for the club player and those with one inside dw<x>, pw<x>, tm<x>")
        if peek + noguess + peekdw > 1:
            raise ValueError(f"level {level!r}: peek, noguess and peekdw each replace the sampled hands; take one")
        if kwargs:
            player = type(player)(rng, **kwargs)
    if peek:  # a ceiling, never in the product: every sampled deal has the opponent's real hand
        player._sample_hands = lambda k, n, w, p=player: [p.peek_hand()] * n
    if peek or peekdw:  # the game (play_game) tells the player the opponent's real hand
        player.peek_hand = None
    if peekdw:  # told only how good his hand is: of 6n sampled hands the n nearest his real deadwood
        player._sample_hands = lambda k, n, w, p=player: _nearest_deadwood(
            sample_hands(k, p.rng, 6 * n, weights=w), deadwood(p.peek_hand()), n
        )
    if noguess:  # no inference: the cards he took from the pile and the rest drawn uniformly (no posterior)
        player._sample_hands = lambda k, n, w, p=player: [
            k.known_opp | sum(1 << c for c in p.rng.sample(cards_of(k.unknown), k.opp_hidden)) for _ in range(n)
        ]
    club = getattr(player, "_club", player)
    for attr, x in weights.items():
        setattr(club, attr, x)
    if hasattr(player, "budget_ms") and player.budget_ms is not None:
        if budget_ms is not None and "budget_ms" not in kwargs:
            player.budget_ms = budget_ms
        if cpu_clock:
            player.clock = time.process_time
    return player


def _nearest_deadwood(hands: list[int], dw: int, n: int) -> list[int]:
    """The ``n`` of ``hands`` (masks) whose deadwood is nearest ``dw`` (points), in their order
    among equals (``@peekdw``)."""
    order = sorted(range(len(hands)), key=lambda i: (abs(deadwood(hands[i]) - dw), i))
    return [hands[i] for i in order[:n]]


#: ``@dw<x>``, ``@pw<x>``, ``@tm<x>``: the club rules' weights (its own or the club player inside
#: an expert or sage): danger, the next draw's saving, the take margin (:mod:`ginrummy.players.club`).
CLUB_WEIGHTS = {"dw": "danger_weight", "pw": "potential_weight", "tm": "take_margin"}


def _is_float(text: str) -> bool:
    """Whether ``text`` is a finite number >= 0 (``"1.0"``)."""
    try:
        x = float(text)
    except ValueError:
        return False
    return 0.0 <= x < float("inf")


@dataclass
class Pairing:
    levels: tuple[str, str]
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    deals: int = 0
    deals_won: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    times: list[list[float]] = field(default_factory=lambda: [[], []])
    seconds: float = 0.0
    duplicate: bool = False
    #: duplicate games: (pair, swapped, A won, A's game points minus B's)
    dup: list[tuple[int, bool, float, float]] = field(default_factory=list)
    cpu_clock: bool = False

    def add(self, r: dict) -> None:
        """Count one game's JSON line (as ``--out`` writes it)."""
        if "swapped" in r:
            won = r["won"][0] if sum(r["won"]) else 0.5
            self.dup.append((r["game"], r["swapped"], won, r["points"][0] - r["points"][1]))
        if r.get("clock") == "process":
            self.cpu_clock = True
        self.games += 1
        self.deals += r["deals"]
        self.seconds += r["seconds"]
        for j in range(2):
            self.wins[j] += r["won"][j]
            self.deals_won[j] += r["deals_won"][j]
            self.points[j] += r["points"][j]
            self.times[j].extend(r["times"][j])


def play_game(levels: tuple[str, str], index: int, seed: int, budget_ms: float | None,
              swapped: bool | None = None, cpu_clock: bool = False) -> dict:
    """Play game ``index`` of a pairing (same seeding as ginrummy.analysis.simulate.play_game); its JSON
    line: ``{"pair", "seed", "game", "won", "deals", "deals_won", "points", "times", "seconds"}``.
    With ``swapped`` (not ``None``), ``index`` is a duplicate pair (:mod:`ginrummy.analysis.duplicate`):
    its match seed, the levels seated as in game ``index`` or, if ``swapped``, each in the
    other's seat; the line then has ``"swapped"`` too."""
    t0 = time.perf_counter()
    rules = preset("eaai")
    mseed = match_seed(seed, index)
    if swapped is None:
        order = seat_levels(rules, levels, index, mseed)
    else:
        order = duplicate_order(rules, levels, index, mseed, swapped)
    names = [""] * 2
    for j, name in enumerate(_names(levels)):
        names[order[j]] = name
    match = Match.new(rules, names, mseed)
    times: list[list[float]] = [[], []]
    players: list = [None, None]
    for j in range(2):
        pl = build(levels[j], random.Random(player_seed(mseed, order[j])), budget_ms, cpu_clock)
        players[order[j]] = Timed(pl, times[j])
        if hasattr(pl, "peek_hand"):  # @peek: told the opponent's real hand (two-hand: seat = player)
            pl.peek_hand = lambda s=order[j]: match.deal.hands[1 - s]
    match.play_out(players)
    won, deals_won, points = [0, 0], [0, 0], [0, 0]
    if match.winner is not None:
        won[order.index(match.winner)] += 1
    for rec in match.deals:
        r = rec.result
        if r is not None and r.winner is not None:
            j = order.index(rec.seat_players[r.winner])
            deals_won[j] += 1
            points[j] += r.points
    line = {"pair": list(levels), "seed": seed, "game": index, "won": won, "deals": len(match.deals),
            "deals_won": deals_won, "points": points, "times": times, "seconds": time.perf_counter() - t0}
    if swapped is not None:
        line["swapped"] = swapped
    if cpu_clock:
        line["clock"] = "process"
    return line


@dataclass(frozen=True)
class PairTask:
    """The games of one pairing, as a task for :mod:`ginrummy.analysis.shards` (picklable)."""

    levels: tuple[str, str]
    budget_ms: float | None
    duplicate: bool = False
    cpu_clock: bool = False

    def play(self, index: int, seed: int) -> dict:
        if self.duplicate:  # game index = 2 * pair + swapped (ginrummy.analysis.duplicate.pair_of)
            pair, swapped = pair_of(index)
            return play_game(self.levels, pair, seed, self.budget_ms, swapped, self.cpu_clock)
        return play_game(self.levels, index, seed, self.budget_ms, None, self.cpu_clock)


@dataclass(frozen=True)
class OpenSpielTask:
    """Deals of our ``level`` against OpenSpiel's simple bot, as a task: deal ``i`` is
    :func:`ginrummy.interop.openspiel.play_indexed_deal` ``(level, seed, i)``."""

    level: str
    budget_ms: float | None
    cpu_clock: bool = False

    def play(self, index: int, seed: int) -> tuple[float, float]:
        from ginrummy.interop.openspiel import play_indexed_deal

        return play_indexed_deal(self.level, seed, index, self.make)

    def make(self, rng: random.Random):
        return build(self.level, rng, self.budget_ms, self.cpu_clock)


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def ms(xs: list[float], q: float) -> str:
    if not xs:
        return "-"
    s = sorted(xs)
    if q == 0.5:
        return f"{1000 * statistics.median(s):.1f}"
    return f"{1000 * s[min(len(s) - 1, int(q * len(s)))]:.1f}"


def summary_row(p: Pairing) -> str:
    a, b = p.levels
    if p.duplicate:
        b += " (duplicate)"
    lo, hi = wilson_interval(p.wins[0], p.games)
    return (f"| {a} vs {b} | {p.games} | {p.wins[0]} ({pct(p.wins[0] / max(1, p.games))}) | "
            f"{pct(lo)}-{pct(hi)} | {p.deals} | {p.deals_won[0]} / {p.deals_won[1]} | "
            f"{p.points[0] / max(1, p.deals):.2f} / {p.points[1] / max(1, p.deals):.2f} | "
            f"{ms(p.times[0], 0.5)} / {ms(p.times[0], 0.99)} | {ms(p.times[1], 0.5)} / {ms(p.times[1], 0.99)} | "
            f"{p.seconds / 60:.1f} |")


HEADER = ("| pairing (A vs B) | games | A won | 95% interval | deals | deals won A / B | points a deal A / B "
          "| A ms/decision median / p99 | B ms/decision median / p99 | minutes (summed) |\n"
          "|---|---|---|---|---|---|---|---|---|---|")


DUP_HEADER = ("| duplicate pairing (A vs B) | pairs (games) | A's games won | A's share, 95% interval over pairs "
              "| duplicate points difference a pair (A - B), 95% interval | variance vs independent games: wins / points |\n"
              "|---|---|---|---|---|---|")


def _ratio(x: float) -> str:
    """A variance ratio for the tables: two decimals, or "-" when undefined (one side won every
    game, so the games' variance is 0)."""
    return "-" if math.isnan(x) else f"{x:.2f}"


def dup_row(p: Pairing) -> str:
    """The duplicate statistics of ``p`` (:func:`ginrummy.analysis.duplicate.summarise_pairs`), a table row."""
    try:
        st = summarise_pairs(p.dup)
    except ValueError:
        return f"| {p.levels[0]} vs {p.levels[1]} | 0 | - | - | - | - |"
    return (f"| {p.levels[0]} vs {p.levels[1]} | {st.pairs} ({2 * st.pairs}) | {st.games_won:g} | "
            f"{pct(st.win_rate)} ({pct(st.win_low)}-{pct(st.win_high)}) | "
            f"{st.points_diff:+.1f} ({st.points_low:+.1f} to {st.points_high:+.1f}) | "
            f"{_ratio(st.win_variance_ratio)} / {_ratio(st.points_variance_ratio)} |")


def write_section(text: str) -> None:
    """Replace the ``## Strength`` section of RESULTS.md (or append it), keeping the others."""
    old = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
    lines = old.splitlines(keepends=True)
    out: list[str] = []
    i = 0
    found = False
    while i < len(lines):
        if lines[i].startswith("## Strength"):
            found = True
            out.append(text if text.endswith("\n") else text + "\n")
            i += 1
            while i < len(lines) and not lines[i].startswith("## "):
                i += 1
            if i < len(lines):
                out.append("\n")
            continue
        out.append(lines[i])
        i += 1
    if not found:
        if out and not out[-1].endswith("\n"):
            out.append("\n")
        out.append("\n" + text)
    RESULTS.write_text("".join(out))


OS_MERGED: dict[str, list[float]] = {}
"""Our returns a deal inside OpenSpiel, by level (and the expert's budget), read by :func:`merge`."""


def os_row(level: str, returns: list[float], minutes: float | None) -> str:
    """A table row of deals against OpenSpiel's simple bot."""
    n = len(returns)
    won = sum(1 for x in returns if x > 0)
    lost = sum(1 for x in returns if x < 0)
    lo, hi = wilson_interval(won, n)
    mins = "-" if minutes is None else f"{minutes:.1f}"
    return (f"| {level} vs OpenSpiel simple bot | {n} | {won} ({pct(won / max(1, n))}) | {pct(lo)}-{pct(hi)} | "
            f"{lost} | {n - won - lost} | {sum(returns) / max(1, n):+.2f} | {mins} |")


def merge(paths: list[Path]) -> list[Pairing]:
    """The pairings summed from the JSON lines that ``--out`` wrote (shards of one run); a game
    recorded twice counts once."""
    by: dict[tuple[str, str, bool], Pairing] = {}
    seen: set[tuple] = set()
    for path in paths:
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            r = json.loads(line)
            if "openspiel" in r:
                # a deal is known by its seed and index; lines written before the seed was
                # recorded are told apart by their file
                level = r["openspiel"]
                if r.get("budget_ms") is not None:
                    level = f"{level} ({r['budget_ms']:g} ms)"
                okey = (level, str(r.get("seed", path)), -1, r["deal"])
                if okey not in seen:
                    seen.add(okey)
                    OS_MERGED.setdefault(level, []).append(r["ours"])
                continue
            dup = "swapped" in r
            key = (r["pair"][0], r["pair"][1], r["seed"], r["game"], r.get("swapped"))
            if key in seen:
                continue
            seen.add(key)
            p = by.setdefault((r["pair"][0], r["pair"][1], dup),
                              Pairing((r["pair"][0], r["pair"][1]), duplicate=dup))
            p.add(r)
    return list(by.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per pairing")
    ap.add_argument("--start", type=int, default=0, help="index of the first game (to split a run in shards)")
    ap.add_argument("--merge", type=Path, nargs="*", default=None,
                    help="only summarise the games recorded in these --out files")
    ap.add_argument("--seed", type=int, default=1,
                    help="seed of the run: games use match_seed(seed, i), OpenSpiel deals their chance (default 1)")
    ap.add_argument("--pairs", default="expert:novice,club:novice,expert:club",
                    help='comma-separated A:B pairings ("" for none; default: the round robin)')
    ap.add_argument("--budget-ms", type=float, default=None, help="expert time budget (default: its own, 150 ms)")
    ap.add_argument("--openspiel-deals", type=int, default=0, help="deals against OpenSpiel's simple bot")
    ap.add_argument("--openspiel-level", default="expert",
                    help="our level inside OpenSpiel: novice, club or expert (default expert)")
    ap.add_argument("--out", type=Path, default=None, help="append one JSON line per game")
    ap.add_argument("--write", action="store_true", help="replace the Strength section of RESULTS.md")
    ap.add_argument("--workers", type=int, default=1,
                    help="local processes to split the games and deals between (same results; default 1)")
    ap.add_argument("--duplicate", action="store_true",
                    help="duplicate deals: every match seed played twice, the levels swapping seats "
                         "(--games and --start count seeds, so 2 x --games games)")
    ap.add_argument("--cpu-clock", action="store_true",
                    help="the computer players' time budget reads their process's processor time "
                         "(time.process_time), so a busy machine does not weaken them")
    ap.add_argument("--ray", nargs="?", const=LOCAL, default=None, metavar="ADDRESS",
                    help="play on Ray: alone, a Ray started on this machine; with ADDRESS, that cluster")
    args = ap.parse_args(argv)
    if not 1 <= args.workers <= MAX_WORKERS:
        ap.error(f"--workers {args.workers}: the number of processes is from 1 to {MAX_WORKERS}")
    if args.start < 0 or args.games < 0 or args.openspiel_deals < 0:
        ap.error("--start, --games and --openspiel-deals are 0 or more")
    shards = {"workers": args.workers, "ray_address": args.ray}
    command = "python benchmarks/strength.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    pairings = []
    for item in args.pairs.split(","):
        if not item.strip():
            continue
        a, _, b = item.strip().partition(":")
        if not a or not b:
            ap.error(f"--pairs {item.strip()!r}: a pairing is two levels, A:B (expert:club)")
        for level in (a, b) if args.merge is None else ():
            try:  # every level checked before any game: a bad option must not end a run hours in
                build(level, random.Random(0), args.budget_ms)
            except ValueError as exc:
                ap.error(f"--pairs {item.strip()!r}: {exc}")
        pairings.append(Pairing((a, b), duplicate=args.duplicate, cpu_clock=args.cpu_clock))
    if args.merge is not None:
        missing = [str(path) for path in args.merge if not path.is_file()]
        if missing:
            ap.error(f"--merge: no such file: {', '.join(missing)}")
        pairings = merge(args.merge)
    try:
        for p in pairings if args.merge is None else []:
            done = 0
            k = 2 if args.duplicate else 1
            task = PairTask(p.levels, args.budget_ms, args.duplicate, args.cpu_clock)
            for _, rec in iter_shards(task, k * args.games, args.seed, start=k * args.start, **shards):
                p.add(rec)
                done += 1
                if args.out is not None:
                    with args.out.open("a") as fh:
                        fh.write(json.dumps(rec) + "\n")
                if done % 50 == 0 or done == k * args.games:
                    print(summary_row(p), flush=True)
                    if args.duplicate:
                        print(dup_row(p), flush=True)
        os_line = ""
        if args.openspiel_deals:
            budget = None  # the expert's budget a decision (ms), recorded with each deal
            if args.openspiel_level == "expert":
                from ginrummy.players.expert import ExpertPlayer

                budget = args.budget_ms
                if budget is None:
                    budget = ExpertPlayer.default_budget_ms
            t0 = time.perf_counter()
            returns: list[float] = []
            task = OpenSpielTask(args.openspiel_level, args.budget_ms, args.cpu_clock)
            for i, (ours, theirs) in iter_shards(task, args.openspiel_deals, args.seed, **shards):
                returns.append(ours)
                if args.out is not None:
                    with args.out.open("a") as fh:
                        fh.write(json.dumps({"openspiel": args.openspiel_level, "seed": args.seed,
                                             "budget_ms": budget, "deal": i, "ours": ours,
                                             "theirs": theirs}) + "\n")
            os_line = os_row(args.openspiel_level, returns, (time.perf_counter() - t0) / 60)
            print(os_line, flush=True)
    except ShardError as exc:
        ap.error(str(exc))
    if args.merge is not None and OS_MERGED:
        os_line = "\n".join(os_row(lv, rs, None) for lv, rs in OS_MERGED.items())
    lines = ["## Strength", "", f"Command: `{command}`", "",
             f"_Run: {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, {platform.machine()}, "
             "2 shared cores._", ""]
    if pairings:
        lines += [HEADER] + [summary_row(p) for p in pairings] + [""]
        dups = [p for p in pairings if p.duplicate]
        if dups:
            lines += [DUP_HEADER] + [dup_row(p) for p in dups] + [""]
            lines += ["- Duplicate deals: every match seed played twice, the levels swapping seats (the same cards "
                      "and first dealer, `ginrummy.analysis.duplicate`); intervals over the pairs (the games of a pair are "
                      "not independent, so the Wilson interval of the first table is only indicative for them).",
                      "- Variance vs independent games: the variance of a pair's mean over that of two independent "
                      "games, estimated from the same games one by one (below 1: duplicate play is more precise).", ""]
        if any(p.cpu_clock for p in pairings):
            lines += ["- Processor-time clock (`--cpu-clock`): each player's time budget counted in its process's "
                      "processor time (`time.process_time`), so the win rates do not depend on the machine's load; "
                      "the decision times of such a run are wall-clock and only show the load.", ""]
        lines += ["- Games to 100 under the `eaai` preset (R13: no bonuses, the deal alternates), first dealer "
                  "alternating between the levels, seeds from `ginrummy.analysis.simulate.match_seed(seed, i)`.",
                  "- Points a deal: deal points scored by each side divided by all deals (drawn deals included).",
                  "- Time per decision: `choose()` calls with two or more legal actions, in milliseconds.", ""]
    if os_line:
        lines += ["| our level vs | deals | deals won | 95% interval | lost | no score | our points a deal | minutes |",
                  "|---|---|---|---|---|---|---|---|", os_line, "",
                  "- Inside OpenSpiel's `gin_rummy` (its rules: taken card may be discarded, wall ending, "
                  "tie after a knock scores nothing); our player reads only its seat's observation "
                  "(`ginrummy.interop.openspiel`); seats alternate; points are OpenSpiel's returns.", ""]
    text = "\n".join(lines)
    print(text)
    if args.write:
        write_section(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
