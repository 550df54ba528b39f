"""``gin simulate``: computer against computer, whole matches, with a summary.

The games are played by :func:`ginrummy.analysis.shards.simulate_sharded`: in this process, in
``--workers N`` local processes, or on Ray (``--ray [ADDRESS]``); every split gives the same
summary.  This module reads the options, shows a progress bar on stderr (only on a terminal and
without ``--json``), saves records and prints the summary.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..analysis.shards import MAX_WORKERS, ShardError, simulate_sharded
from ..i18n import translator
from ..players import make_player

MAX_GAMES = 1_000_000_000
"""The most games one ``gin simulate`` run takes (at a few hundred games a second on a core, more
would not end in a lifetime; a bound also keeps a mistyped number from planning shards forever)."""
from ..analysis.simulate import GameResult, SimulationSummary  # noqa: E402  (after MAX_GAMES, as before)
from .common import JsonOpt, PresetOpt, SetOpt, bad_input, emit_json, fail, rules_from, text_console  # noqa: E402
from .main import app  # noqa: E402

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
        importlib.import_module("ginrummy.record")
    except ImportError:
        fail("--records: game records are unavailable (the module ginrummy.record is missing)")
    path = Path(directory)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"--records {directory!r}: cannot create the directory ({exc.strerror or exc})")
    if not path.is_dir():
        fail(f"--records {directory!r} is not a directory")

    def write(game: GameResult) -> None:
        target = path / f"game-{game.index + 1:04d}.gin"
        assert game.record is not None
        try:
            target.write_text(game.record, encoding="utf-8")
        except OSError as exc:
            fail(f"--records: cannot write {target} ({exc.strerror or exc})")

    return write


def render_summary(summary: SimulationSummary, console: Console) -> None:
    """Print the readable summary: per level its wins, win rate with the 95% Wilson interval
    and deal points per deal; then the deals and how they ended."""
    tr = translator("en")  # the plural form of each count: "1 game", "2 games"
    table = Table(title=tr.n_("{n} game, seed {seed}", "{n} games, seed {seed}", summary.games, seed=str(summary.seed)))
    table.add_column("player")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("points/deal", justify="right")
    rates, ivs, ppd = summary.win_rate, summary.interval95, summary.points_per_deal
    for k, level in enumerate(summary.players):
        lo, hi = ivs[k]
        table.add_row(
            f"{k + 1}. {level}", str(summary.wins[k]), f"{rates[k]:.1%}", f"{lo:.1%} - {hi:.1%}", f"{ppd[k]:.2f}"
        )
    console.print(table)
    d = summary.deals or 1
    ends = [
        tr.n_("{n} knock won", "{n} knocks won", summary.knocks),
        tr.n_("{n} gin", "{n} gins", summary.gins),
        tr.n_("{n} undercut", "{n} undercuts", summary.undercuts),
        tr.n_("{n} draw", "{n} draws", summary.draws),
    ]
    shares = [summary.knocks, summary.gins, summary.undercuts, summary.draws]
    console.print(
        tr.n_("{n} deal", "{n} deals", summary.deals)
        + ": "
        + ", ".join(f"{end} ({k / d:.1%})" for end, k in zip(ends, shares))
    )


@app.command("simulate")
def simulate_command(
    players: str = typer.Option(
        "novice,novice",
        "--players",
        help="Two or three computer levels separated by commas (random, novice, club, expert, master, ismcts, sage; expert-fixed, master-fixed and sage-fast never read the clock, so a seed gives the same games on any machine); three play three-hand gin (R10).",
    ),
    games: int = typer.Option(100, "--games", help="Number of whole games (matches) to play."),
    seed: int = typer.Option(0, "--seed", help="Seed of the whole simulation: the same seed gives the same results."),
    records: str = typer.Option(
        None, "--records", help="Directory to save each game's record in (game-0001.gin, ...)."
    ),
    workers: int = typer.Option(
        1,
        "--workers",
        help="Local processes to play the games in, this one included (the results do not change); with --ray and no address, the CPUs of the local Ray.",
    ),
    ray_address: str = typer.Option(
        None,
        "--ray",
        metavar="[ADDRESS]",
        help="Run the games on Ray: alone, a Ray started on this machine for the run; with ADDRESS (auto, HOST:PORT, ray://HOST:10001), that cluster. Needs the Ray extra: pip install 'ginrummy\\[ray]'.",
    ),
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

    Every game is seeded from --seed and its number alone, so --workers N (local processes)
    and --ray [ADDRESS] give the same summary, game for game, as one process.
    """
    rules = rules_from(preset, overrides)
    levels = read_levels(players)
    if not 1 <= games <= MAX_GAMES:
        fail(f"--games {games}: the number of games is from 1 to {MAX_GAMES:,}")
    if rules.players == 3 and len(levels) != 3:
        fail(f"the rules say three players (players=3) but --players names {len(levels)}: give three levels")
    if not 1 <= workers <= MAX_WORKERS:
        fail(f"--workers {workers}: the number of processes is from 1 to {MAX_WORKERS}")
    if ray_address is not None and not ray_address.strip():
        fail("--ray: give a Ray address (auto, HOST:PORT, ray://HOST:10001) or no value for a local Ray")
    if len(levels) == 3:
        with bad_input():
            rules = rules.replace(players=3)
    writer = _record_writer(records) if records is not None else None
    console = Console(stderr=True)
    where = "on Ray" if ray_address is not None else f"{workers} workers" if workers > 1 else "1 process"
    progress = Progress(
        TextColumn(f"simulating ({where})"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=as_json or not console.is_terminal,
        transient=True,
    )
    with progress:
        task = progress.add_task("games", total=games)

        def on_result(game: GameResult) -> None:
            if writer is not None:
                writer(game)
            progress.advance(task)

        with bad_input():
            try:
                summary = simulate_sharded(
                    rules,
                    levels,
                    games,
                    seed,
                    workers=workers,
                    ray_address=ray_address,
                    records=writer is not None,
                    on_result=on_result,
                )
            except ShardError as exc:
                fail(f"--ray: {exc}" if ray_address is not None else str(exc))
    if as_json:
        emit_json(summary.to_json())
    else:
        render_summary(summary, text_console())
