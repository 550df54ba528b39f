"""Published baselines (issue 36, item 6): OpenSkill ratings of the computer levels, OpenSpiel's
simple bot and RLCard's rule agent on duplicate deals, and any agent of your own.

Run from the repository root (``docs/baselines.md`` has the figures and how they were made):

    python benchmarks/baselines.py [--levels random,novice,...] [--add module:Class ...]
                                   [--rounds 40] [--minutes 20] [--seed 36] [--every master-fixed=4]
                                   [--out games.jsonl] [--merge games.jsonl ...]

The pool plays a round robin of **duplicate deals**: in round ``r`` every pairing plays deal
``r`` (the deck and the dealer of :func:`ginrummy.analysis.simulate.match_seed` ``(seed, r)``,
the same for every pairing) twice, the two sides swapping seats, so each side holds each hand
once and the luck of the cards cancels in the pair.  A deal is the whole game (preset ``eaai``
with ``scoring=deal``, R11.1, R13: no bonuses): its winner wins, a drawn deal (R7) is a tie.

Ratings: OpenSkill's Plackett-Luce model (``openskill``, the model of the web ladder,
``ginrummy.web.community.ratings``; mu 25, sigma 25/3 at the start), updated game by game; as one order
favours whoever played well last, the games are rated in 50 orders (as played, then shuffled
with fixed seeds) and ``mu`` and ``sigma`` are the means (:func:`rating_table`).  Each rating is
shown as ``mu`` with the interval ``mu ± 1.96 sigma``, the spread of ``mu`` between the orders,
and the ladder's number ``1000 + 40 (mu - 3 sigma)``.  Beside them, each pairing's share of deals won (a tie half)
with its 95% interval over the duplicate pairs (:func:`ginrummy.analysis.duplicate.summarise_pairs`).

``--add module:Class`` puts your own agent at the table: a class with ``name`` and
``choose(view, legal) -> action`` (the :class:`ginrummy.players.Player` protocol: it sees only its
seat's :class:`~ginrummy.views.PlayerView` and the legal actions), built as ``Class(rng)`` (a
``random.Random`` seeded per deal and seat) or ``Class()``.  The module is imported from the
current directory or ``PYTHONPATH``.  ``--add NAME=module:Class`` names it; a registered level
(``make_player``) can be given by name in ``--levels``.

Bounds: ``--rounds`` (deals a pairing, each played twice) and ``--minutes`` (no new round is
started after that many minutes of wall clock); ``--every LEVEL=K`` has the pairings of a slow
level play only every K-th round (default ``master-fixed=4``), and ``--only LEVEL`` plays only
that level's pairings (more rounds of a slow level, in a run of their own: give it rounds the
main run skipped, and sum the files with ``--merge``).  ``--out`` appends one JSON line
per game so a run can be stopped and continued (``--start`` the first round) and several runs
summed with ``--merge``.  A Rich progress bar shows the games played.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from openskill.models import PlackettLuce  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: E402

from ginrummy.analysis.duplicate import summarise_pairs  # noqa: E402
from ginrummy.analysis.simulate import match_seed, player_seed  # noqa: E402
from ginrummy.match import Match  # noqa: E402
from ginrummy.players import make_player  # noqa: E402
from ginrummy.rules import make_rules  # noqa: E402

POOL = ("random", "novice", "club", "expert-fixed", "master-fixed", "openspiel-simple", "rlcard-rule")
"""The default pool: our levels (the expert and master in their fixed-sample modes, so a run is
the same on any machine), OpenSpiel's simple bot and RLCard's rule agent."""

RULES = make_rules("eaai", {"scoring": "deal"})
"""One deal is the game (R11.1), preset ``eaai`` (R13)."""


def _interop_levels() -> None:
    """Register the interop levels even when the installed entry points predate them."""
    for mod in ("ginrummy.interop.openspiel_simple", "ginrummy.interop.rlcard_rule"):
        try:
            importlib.import_module(mod)
        except ImportError:  # its optional dependency is missing: the level is left out
            pass


def agent_factory(spec: str) -> tuple[str, Callable[[random.Random], object]]:
    """``(name, factory)`` of ``[NAME=]module:Class``: the factory builds ``Class(rng)`` (or
    ``Class()`` for a class that takes no argument).  Raises ``ValueError`` for a bad spec,
    ``ImportError`` for a module that cannot be imported, and ``TypeError`` for something that
    has no ``choose``."""
    name, _, target = spec.rpartition("=")
    module, sep, attr = target.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"--add {spec!r}: give module:Class (or NAME=module:Class)")
    sys.path.insert(0, str(Path.cwd()))
    cls = getattr(importlib.import_module(module), attr)
    if not callable(getattr(cls, "choose", None)):
        raise TypeError(f"--add {spec!r}: {attr} has no choose(view, legal) method")
    takes_rng = bool(inspect.signature(cls).parameters)
    return (name or str(getattr(cls, "name", attr))), (lambda rng: cls(rng) if takes_rng else cls())


def _made(level: str, rng: random.Random, cpu_clock: bool) -> object:
    """``make_player(level, rng)``; a clocked one reading ``time.process_time`` when ``cpu_clock``
    (then a busy machine slows the run but does not weaken the player)."""
    p = make_player(level, rng)
    if cpu_clock and getattr(p, "budget_ms", None) is not None:
        p.clock = time.process_time
    return p


def play_deal(makers: tuple[Callable[[random.Random], object], Callable[[random.Random], object]],
              rnd: int, seed: int, swapped: bool) -> tuple[float, int]:
    """Deal ``rnd`` of ``seed`` with side A at player index 0 (1 when ``swapped``): ``(a_score,
    a_minus_b_points)``, ``a_score`` 1 for A's win, 0 for B's, 0.5 for a drawn deal."""
    mseed = match_seed(seed, rnd)
    match = Match.new(RULES, ["A", "B"] if not swapped else ["B", "A"], mseed)
    a_at = 1 if swapped else 0
    players = [None, None]
    players[a_at] = makers[0](random.Random(player_seed(mseed, a_at)))
    players[1 - a_at] = makers[1](random.Random(player_seed(mseed, 1 - a_at)))
    deal = match.deal
    while not deal.is_over:
        p = match.player_to_act()
        view = match.view(p)
        match.apply(p, players[p].choose(view, view.legal))
        deal = match.deal
    result = deal.result
    if result.winner is None:
        return 0.5, 0
    pts = result.points
    return (1.0, pts) if result.winner == a_at else (0.0, -pts)


def schedule(levels: list[str], rounds: int, start: int, every: dict[str, int],
             only: str | None = None) -> list[tuple[int, str, str]]:
    """``(round, A, B)`` in playing order: round by round, every pairing of ``levels`` (in the
    order of ``combinations``) whose levels' ``every`` divides the round; with ``only``, just
    the pairings of that level."""
    out = []
    for r in range(start, start + rounds):
        for a, b in combinations(levels, 2):
            if only is not None and only not in (a, b):
                continue
            if r % max(every.get(a, 1), every.get(b, 1)) == 0:
                out.append((r, a, b))
    return out


ORDERS = 50
"""How many orders of the games :func:`rating_table` rates in (the first as played)."""


def rating_table(games: list[dict], orders: int = ORDERS) -> dict[str, tuple[float, float, float]]:
    """``(mu, sigma, spread)`` of every side: the means over ``orders`` runs of :func:`rate`, the
    games as played and then shuffled (``random.Random(order)``), and ``spread`` the standard
    deviation of ``mu`` between the orders.  OpenSkill updates game by game, so one order alone
    favours whoever played well last; the mean over orders takes that out."""
    runs = []
    for k in range(orders):
        order = list(games)
        if k:
            random.Random(k).shuffle(order)
        runs.append(rate(order))
    out = {}
    for name in runs[0]:
        mus = [r[name][0] for r in runs]
        mean = sum(mus) / len(mus)
        spread = (sum((m - mean) ** 2 for m in mus) / max(1, len(mus) - 1)) ** 0.5
        out[name] = (mean, sum(r[name][1] for r in runs) / len(runs), spread)
    return out


def rate(games: list[dict]) -> dict[str, tuple[float, float]]:
    """OpenSkill Plackett-Luce ``(mu, sigma)`` of every side, updated game by game in the order
    given (a drawn deal is a tie)."""
    model = PlackettLuce()
    ratings: dict[str, object] = {}
    for g in games:
        a, b = g["a"], g["b"]
        ra = ratings.setdefault(a, model.rating(name=a))
        rb = ratings.setdefault(b, model.rating(name=b))
        s = g["a_score"]
        ranks = [1, 1] if s == 0.5 else ([1, 2] if s == 1.0 else [2, 1])
        [[ra], [rb]] = model.rate([[ra], [rb]], ranks=ranks)
        ratings[a], ratings[b] = ra, rb
    return {k: (r.mu, r.sigma) for k, r in ratings.items()}


def report(games: list[dict], console: Console) -> str:
    """The markdown tables of ``games``: the ratings, then each pairing's duplicate figures."""
    ratings = rating_table(games)
    deals: dict[str, int] = defaultdict(int)
    won: dict[str, float] = defaultdict(float)
    for g in games:
        deals[g["a"]] += 1
        deals[g["b"]] += 1
        won[g["a"]] += g["a_score"]
        won[g["b"]] += 1 - g["a_score"]
    lines = ["| rank | player | deals | won (a tie half) | mu | 95% interval (mu ± 1.96 sigma) | sigma | "
             "mu's spread over orders | ladder number |", "|---|---|---|---|---|---|---|---|---|"]
    for i, (k, (mu, sigma, spread)) in enumerate(sorted(ratings.items(), key=lambda kv: -kv[1][0]), 1):
        lines.append(f"| {i} | `{k}` | {deals[k]} | {won[k]:g} ({100 * won[k] / deals[k]:.1f}%) | {mu:.2f} | "
                     f"{mu - 1.96 * sigma:.2f} to {mu + 1.96 * sigma:.2f} | {sigma:.2f} | {spread:.2f} | "
                     f"{round(1000 + 40 * (mu - 3 * sigma))} |")
    lines += ["", "| pairing (A vs B) | pairs (deals) | A's share of deals, 95% interval over pairs | "
              "duplicate points a pair (A - B), 95% interval |", "|---|---|---|---|"]
    by: dict[tuple[str, str], list[tuple[int, bool, float, float]]] = defaultdict(list)
    for g in games:
        by[(g["a"], g["b"])].append((g["round"], g["swapped"], g["a_score"], g["points"]))
    for (a, b), rows in by.items():
        try:
            st = summarise_pairs(rows)
        except ValueError:
            continue
        lines.append(f"| `{a}` vs `{b}` | {st.pairs} ({2 * st.pairs}) | {100 * st.win_rate:.1f}% "
                     f"({100 * st.win_low:.1f}%-{100 * st.win_high:.1f}%) | {st.points_diff:+.1f} "
                     f"({st.points_low:+.1f} to {st.points_high:+.1f}) |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", default=",".join(POOL), help="registered levels, comma separated")
    ap.add_argument("--add", action="append", default=[], help="[NAME=]module:Class, your own agent")
    ap.add_argument("--rounds", type=int, default=40, help="deals a pairing (each played twice, seats swapped)")
    ap.add_argument("--start", type=int, default=0, help="the first round (to continue a run)")
    ap.add_argument("--minutes", type=float, default=20.0, help="start no round after this many minutes")
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--every", action="append", default=["master-fixed=4"], help="LEVEL=K: its pairings play every K-th round")
    ap.add_argument("--only", help="play only the pairings of this level (e.g. more rounds of a slow one)")
    ap.add_argument("--out", type=Path, help="append one JSON line per game")
    ap.add_argument("--cpu-clock", action="store_true",
                    help="a clocked level (expert, master) counts its budget in processor time (time.process_time)")
    ap.add_argument("--merge", type=Path, nargs="+", help="only report the games of these files")
    args = ap.parse_args(argv)
    console = Console()
    if args.merge:
        games = [json.loads(line) for f in args.merge for line in f.read_text().splitlines() if line.strip()]
        print(report(games, console))
        return 0
    if not 1 <= args.rounds <= 100_000 or args.start < 0 or not 0 < args.minutes <= 24 * 60:
        ap.error("--rounds 1..100000, --start >= 0, --minutes in (0, 1440]")
    _interop_levels()
    makers: dict[str, Callable[[random.Random], object]] = {}
    for lv in [x.strip() for x in args.levels.split(",") if x.strip()]:
        try:
            make_player(lv, 0)
        except ValueError as e:
            console.print(f"[yellow]left out {lv!r}: {e}[/yellow]")
            continue
        makers[lv] = (lambda level: lambda rng: _made(level, rng, args.cpu_clock))(lv)
    for spec in args.add:
        name, factory = agent_factory(spec)
        makers[name] = factory
    every = {}
    for item in args.every:
        k, _, v = item.partition("=")
        if not v.isdigit() or int(v) < 1:
            ap.error(f"--every {item!r}: give LEVEL=K with K >= 1")
        every[k] = int(v)
    plan = schedule(list(makers), args.rounds, args.start, every, args.only)
    games: list[dict] = []
    t0 = time.monotonic()
    out = args.out.open("a") if args.out else None
    cols = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*cols, console=console) as progress:
        task = progress.add_task("games", total=2 * len(plan))
        current = None
        for rnd, a, b in plan:
            if rnd != current:
                current = rnd
                if time.monotonic() - t0 > 60 * args.minutes:
                    console.print(f"time is up: stopped before round {rnd}")
                    break
            for swapped in (False, True):
                progress.update(task, description=f"round {rnd}: {a} vs {b}")
                t = time.perf_counter()
                score, pts = play_deal((makers[a], makers[b]), rnd, args.seed, swapped)
                g = {"seed": args.seed, "round": rnd, "swapped": swapped, "a": a, "b": b, "a_score": score,
                     "points": pts, "seconds": round(time.perf_counter() - t, 3)}
                games.append(g)
                if out:
                    out.write(json.dumps(g) + "\n")
                    out.flush()
                progress.advance(task)
    if out:
        out.close()
    console.print(f"{len(games)} games in {(time.monotonic() - t0) / 60:.1f} minutes")
    print(report(games, console))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
