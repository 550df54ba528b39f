"""``gin simulate``: computer against computer, whole matches, with a summary.

The loop is :func:`ginrummy.simulate.simulate`; this module reads the options, shows a
progress bar on stderr (only on a terminal and without ``--json``), saves records and prints
the summary.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..players import make_player
from ..simulate import GameOutcome, SimulationSummary, simulate as run_simulation
from .common import JsonOpt, PresetOpt, SetOpt, bad_input, emit_json, fail, rules_from
from .main import app

__all__ = ["simulate_command", "render_summary", "read_levels"]


def read_levels(text: str) -> list[str]:
    """The levels of ``--players A,B[,C]``; exits 2 on an unknown level or a wrong count."""
    levels = [x.strip().lower() for x in text.split(",")]
    if len(levels) not in (2, 3) or any(not x for x in levels):
        fail(f"--players {text!r}: give 2 or 3 computer levels separated by commas, e.g. novice,random")
    for lv in levels:
        with bad_input():
            make_player(lv)
    return levels


def _record_writer(directory: str) -> Any:
    """A function saving each finished match to ``directory`` as ``game-NNNN.gin`` (the
    record format of :mod:`ginrummy.record`); exits 2 if records cannot be written."""
    try:
        record = importlib.import_module("ginrummy.record")
    except ImportError:
        fail("--records: game records are unavailable (the module ginrummy.record is missing)")
    path = Path(directory)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"--records {directory!r}: cannot create the directory ({exc.strerror or exc})")
    if not path.is_dir():
        fail(f"--records {directory!r} is not a directory")

    def write(game: GameOutcome) -> None:
        target = path / f"game-{game.index + 1:04d}.gin"
        try:
            target.write_text(record.dumps(game.match), encoding="utf-8")
        except OSError as exc:
            fail(f"--records: cannot write {target} ({exc.strerror or exc})")

    return write


def render_summary(summary: SimulationSummary, console: Console) -> None:
    """Print the readable summary: per level its wins, win rate with the 95% Wilson interval
    and deal points per deal; then the deals and how they ended."""
    table = Table(title=f"{summary.games} games, seed {summary.seed}")
    table.add_column("player")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("points/deal", justify="right")
    rates, ivs, ppd = summary.win_rate, summary.interval95, summary.points_per_deal
    for k, level in enumerate(summary.players):
        lo, hi = ivs[k]
        table.add_row(f"{k + 1}. {level}", str(summary.wins[k]), f"{rates[k]:.1%}",
                      f"{lo:.1%} - {hi:.1%}", f"{ppd[k]:.2f}")
    console.print(table)
    d = summary.deals or 1
    console.print(
        f"Deals {summary.deals}: knocks won {summary.knocks} ({summary.knocks / d:.1%}), "
        f"gins {summary.gins} ({summary.gins / d:.1%}), undercuts {summary.undercuts} "
        f"({summary.undercuts / d:.1%}), draws {summary.draws} ({summary.draws / d:.1%})"
    )


@app.command("simulate")
def simulate_command(
    players: str = typer.Option("novice,novice", "--players", help="Two or three computer levels separated by commas (random, novice, club, expert); three play three-hand gin (R10)."),
    games: int = typer.Option(100, "--games", help="Number of whole games (matches) to play."),
    seed: int = typer.Option(0, "--seed", help="Seed of the whole simulation: the same seed gives the same results."),
    records: str = typer.Option(None, "--records", help="Directory to save each game's record in (game-0001.gin, ...)."),
    preset: str = PresetOpt,
    overrides: list[str] = SetOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Computer against computer: play whole games under the rules and summarise them.

    Seats and the first dealer rotate fairly between games (three-hand: the starting box,
    captain and sitter-out).  The summary gives each player's games won with a 95% Wilson
    interval, the deals and how they ended (knocks won by the knocker, gins including big gins,
    undercuts, draws: they add up to the deals) and each player's mean deal points per deal
    (drawn deals included, bonuses not).  JSON keys: players, games, wins, win_rate,
    interval95, deals, knocks, gins, undercuts, draws, points_per_deal (lists in the order of
    --players).
    """
    rules = rules_from(preset, overrides)
    levels = read_levels(players)
    if games < 1:
        fail(f"--games {games}: the number of games is 1 or more")
    if rules.players == 3 and len(levels) != 3:
        fail(f"the rules say three players (players=3) but --players names {len(levels)}: give three levels")
    if len(levels) == 3:
        with bad_input():
            rules = rules.replace(players=3)
    writer = _record_writer(records) if records is not None else None
    show = not as_json and sys.stderr.isatty()
    progress = Progress(
        TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
        console=Console(stderr=True), disable=not show, transient=True,
    )
    with progress:
        task = progress.add_task("games", total=games)

        def on_game(game: GameOutcome) -> None:
            if writer is not None:
                writer(game)
            progress.advance(task)

        with bad_input():
            summary = run_simulation(rules, levels, games, seed, on_game=on_game)
    if as_json:
        emit_json(summary.to_json())
    else:
        render_summary(summary, Console())
