"""Strength of the computer player levels: a round robin under the ``eaai`` preset, and our
players inside OpenSpiel's ``gin_rummy`` against its simple bot.

Run from the repository root:

    python benchmarks/strength.py [--games 200] [--seed 1] [--pairs expert:novice,club:novice,expert:club]
                                  [--budget-ms 150] [--openspiel-deals 0] [--openspiel-level expert]
                                  [--start 0] [--out FILE.jsonl] [--merge FILE.jsonl ...] [--write]
                                  [--workers N] [--ray [ADDRESS]]

Each pairing plays ``--games`` games to 100 (preset ``eaai``: no bonuses, the deal alternates,
R13), the first dealer alternating from game to game and every game from a fixed seed
(:func:`ginrummy.simulate.match_seed`; the same seeds as ``gin simulate``), each player seeing
only its :class:`~ginrummy.views.PlayerView`.  It reports games won with the 95% Wilson
interval, deals won, mean deal points a deal, and the time per decision (median and 99th
percentile, decisions with more than one legal action) of each level.  ``--out`` appends one
JSON line per finished game so partial figures survive an interrupted run; a long run can be
split in shards (``--start``, ``--games``) run side by side and summed with ``--merge``.  ``--write``
replaces the ``## Strength`` section of ``benchmarks/RESULTS.md`` and keeps the other sections.

``--workers N`` plays the games and OpenSpiel deals in N local processes, ``--ray [ADDRESS]`` on
Ray (a local Ray without ADDRESS), with :mod:`ginrummy.shards`: every game and deal is seeded
from ``--seed`` and its number alone, so the results are those of one process (except for the
expert, whose time budget makes its play depend on the machine's speed).
"""

from __future__ import annotations

import argparse
import inspect
import json
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

from ginrummy.match import Match  # noqa: E402
from ginrummy.shards import LOCAL, MAX_WORKERS, ShardError, iter_shards  # noqa: E402
from ginrummy.players import make_player  # noqa: E402
from ginrummy.rules import preset  # noqa: E402
from ginrummy.simulate import _names, match_seed, player_seed, seat_levels, wilson_interval  # noqa: E402

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


def build(level: str, rng: random.Random, budget_ms: float | None):
    if level == "expert" and budget_ms is not None:
        from ginrummy.players.expert import ExpertPlayer

        return ExpertPlayer(rng, budget_ms=budget_ms)
    return make_player(level, rng)


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

    def add(self, r: dict) -> None:
        """Count one game's JSON line (as ``--out`` writes it)."""
        self.games += 1
        self.deals += r["deals"]
        self.seconds += r["seconds"]
        for j in range(2):
            self.wins[j] += r["won"][j]
            self.deals_won[j] += r["deals_won"][j]
            self.points[j] += r["points"][j]
            self.times[j].extend(r["times"][j])


def play_game(levels: tuple[str, str], index: int, seed: int, budget_ms: float | None) -> dict:
    """Play game ``index`` of a pairing (same seeding as ginrummy.simulate.play_game); its JSON
    line: ``{"pair", "seed", "game", "won", "deals", "deals_won", "points", "times", "seconds"}``."""
    t0 = time.perf_counter()
    rules = preset("eaai")
    mseed = match_seed(seed, index)
    order = seat_levels(rules, levels, index, mseed)
    names = [""] * 2
    for j, name in enumerate(_names(levels)):
        names[order[j]] = name
    match = Match.new(rules, names, mseed)
    times: list[list[float]] = [[], []]
    players = {}
    for j in range(2):
        pl = build(levels[j], random.Random(player_seed(mseed, order[j])), budget_ms)
        players[order[j]] = Timed(pl, times[j])
    while not match.finished:
        if match.deal.is_over:
            match.next_deal()
            continue
        who = match.player_to_act()
        view = match.view(who)
        match.apply(who, players[who].choose(view, view.legal))
    won, deals_won, points = [0, 0], [0, 0], [0, 0]
    if match.winner is not None:
        won[order.index(match.winner)] += 1
    for rec in match.deals:
        r = rec.result
        if r is not None and r.winner is not None:
            j = order.index(rec.seat_players[r.winner])
            deals_won[j] += 1
            points[j] += r.points
    return {"pair": list(levels), "seed": seed, "game": index, "won": won, "deals": len(match.deals),
            "deals_won": deals_won, "points": points, "times": times, "seconds": time.perf_counter() - t0}


@dataclass(frozen=True)
class PairTask:
    """The games of one pairing, as a task for :mod:`ginrummy.shards` (picklable)."""

    levels: tuple[str, str]
    budget_ms: float | None

    def play(self, index: int, seed: int) -> dict:
        return play_game(self.levels, index, seed, self.budget_ms)


@dataclass(frozen=True)
class OpenSpielTask:
    """Deals of our ``level`` against OpenSpiel's simple bot, as a task: deal ``i`` is
    :func:`ginrummy.interop.openspiel.play_indexed_deal` ``(level, seed, i)``."""

    level: str
    budget_ms: float | None

    def play(self, index: int, seed: int) -> tuple[float, float]:
        from ginrummy.interop.openspiel import play_indexed_deal

        return play_indexed_deal(self.level, seed, index, self.make)

    def make(self, rng: random.Random):
        return build(self.level, rng, self.budget_ms)


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
    lo, hi = wilson_interval(p.wins[0], p.games)
    return (f"| {a} vs {b} | {p.games} | {p.wins[0]} ({pct(p.wins[0] / max(1, p.games))}) | "
            f"{pct(lo)}-{pct(hi)} | {p.deals} | {p.deals_won[0]} / {p.deals_won[1]} | "
            f"{p.points[0] / max(1, p.deals):.2f} / {p.points[1] / max(1, p.deals):.2f} | "
            f"{ms(p.times[0], 0.5)} / {ms(p.times[0], 0.99)} | {ms(p.times[1], 0.5)} / {ms(p.times[1], 0.99)} | "
            f"{p.seconds / 60:.1f} |")


HEADER = ("| pairing (A vs B) | games | A won | 95% interval | deals | deals won A / B | points a deal A / B "
          "| A ms/decision median / p99 | B ms/decision median / p99 | minutes (summed) |\n"
          "|---|---|---|---|---|---|---|---|---|---|")


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
    by: dict[tuple[str, str], Pairing] = {}
    seen: set[tuple[str, str, int, int]] = set()
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
            key = (r["pair"][0], r["pair"][1], r["seed"], r["game"])
            if key in seen:
                continue
            seen.add(key)
            p = by.setdefault((r["pair"][0], r["pair"][1]), Pairing((r["pair"][0], r["pair"][1])))
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
        pairings.append(Pairing((a, b)))
    if args.merge is not None:
        missing = [str(path) for path in args.merge if not path.is_file()]
        if missing:
            ap.error(f"--merge: no such file: {', '.join(missing)}")
        pairings = merge(args.merge)
    try:
        for p in pairings if args.merge is None else []:
            done = 0
            for _, rec in iter_shards(PairTask(p.levels, args.budget_ms), args.games, args.seed, start=args.start,
                                      **shards):
                p.add(rec)
                done += 1
                if args.out is not None:
                    with args.out.open("a") as fh:
                        fh.write(json.dumps(rec) + "\n")
                if done % 50 == 0 or done == args.games:
                    print(summary_row(p), flush=True)
        os_line = ""
        if args.openspiel_deals:
            budget = None  # the expert's budget a decision (ms), recorded with each deal
            if args.openspiel_level == "expert":
                from ginrummy.players.expert import ExpertPlayer

                budget = args.budget_ms
                if budget is None:
                    budget = inspect.signature(ExpertPlayer).parameters["budget_ms"].default
            t0 = time.perf_counter()
            returns: list[float] = []
            task = OpenSpielTask(args.openspiel_level, args.budget_ms)
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
        lines += ["- Games to 100 under the `eaai` preset (R13: no bonuses, the deal alternates), first dealer "
                  "alternating between the levels, seeds from `ginrummy.simulate.match_seed(seed, i)`.",
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
