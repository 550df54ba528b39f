"""``gin ladder``: the computer levels play each other and their ratings are written to the
web server's database (``docs/accounts.md``), so ``gin serve`` on that database shows
calibrated computer players on its leaderboard.  The loop is
:func:`ginrummy.web.community.level_ladder.run_ladder` (matches from :func:`ginrummy.analysis.simulate.play_game`),
played like ``gin simulate``'s: in this process, in ``--workers N`` local processes or on Ray
(``--ray [ADDRESS]``), with the same ratings for every split."""

from __future__ import annotations

import typer
from rich.table import Table

from ..analysis.shards import MAX_WORKERS, ShardError
from ..players import make_player
from ..web.security import mask_url, redact
from .common import JsonOpt, PresetOpt, SetOpt, bad_input, emit_json, fail, rules_from, text_console
from .main import app

__all__ = ["ladder_command"]


@app.command("ladder")
def ladder_command(
    games: int = typer.Option(
        60,
        "--games",
        help="Matches to play (0 to 1,000,000,000), shared out among every pair of levels in turn.",
        min=0,
        max=1_000_000_000,
    ),
    levels: str = typer.Option(
        "random,novice,club,expert",
        "--levels",
        help="Computer levels on the ladder, separated by commas (expert thinks 150 ms a move, so its matches are slow).",
    ),
    seed: int = typer.Option(0, "--seed", help="Simulation seed: match i uses the seed of gin simulate's match i."),
    workers: int = typer.Option(
        1,
        "--workers",
        help="Local processes to play the matches in, this one included (the ratings do not change); with --ray and no address, the CPUs of the local Ray.",
    ),
    ray_address: str = typer.Option(
        None,
        "--ray",
        metavar="[ADDRESS]",
        help="Play the matches on Ray: alone, a Ray started on this machine for the run; with ADDRESS (auto, HOST:PORT, ray://HOST:10001), that cluster. Needs the Ray extra: pip install 'ginrummy\\[ray]'.",
    ),
    database_url: str = typer.Option(
        "",
        "--database-url",
        help="The web server's database (as gin serve); default the SQLite file in your user data folder.",
    ),
    preset: str = PresetOpt,
    overrides: list[str] = SetOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Play the computer levels against each other and write their ratings (OpenSkill) to the
    web server's database.

    Every match is seeded from --seed and its number alone and the ratings are updated in
    match order, so --workers N (local processes) and --ray [ADDRESS] write the same ratings
    as one process. Run again with the same seed, levels and rules, it plays the next matches
    (61-120 after a first run of 60), never the same ones twice."""
    from sqlalchemy import create_engine

    from ..web.community.level_ladder import ladder_played, run_ladder
    from ..web.db.store import default_database_url

    rules = rules_from(preset, overrides)
    names = [x.strip().lower() for x in levels.split(",") if x.strip()]
    if len(set(names)) < 2:
        fail(f"--levels {levels!r}: give at least two different computer levels, e.g. novice,club")
    for lv in names:
        with bad_input():
            make_player(lv)
    if not 1 <= workers <= MAX_WORKERS:
        fail(f"--workers {workers}: the number of processes is from 1 to {MAX_WORKERS}")
    if ray_address is not None and not ray_address.strip():
        fail("--ray: give a Ray address (auto, HOST:PORT, ray://HOST:10001) or no value for a local Ray")
    url = database_url or default_database_url()
    try:
        engine = create_engine(url)
        with engine.connect():
            pass
    except Exception as exc:
        fail(f"cannot open the database {mask_url(url)!r}: {redact(str(exc))}")
    try:
        with bad_input():
            first = ladder_played(engine, rules, names, seed) + 1
            board = run_ladder(engine, rules, names, games, seed, workers=workers, ray_address=ray_address)
    except ShardError as exc:
        fail(f"--ray: {exc}" if ray_address is not None else str(exc))
    except ValueError as exc:
        fail(str(exc))
    finally:
        engine.dispose()
    if as_json:
        emit_json({"games": games, "seed": seed, "first": first, "levels": [e.to_json() for e in board]})
        return
    if games == 1:
        title = f"Ladder after match {first} of seed {seed}"
    elif games:
        title = f"Ladder after matches {first}-{first + games - 1} of seed {seed}"
    else:
        title = f"Ladder after no new match of seed {seed}"
    table = Table(title=title)
    for col in ("level", "rating", "mu", "sigma", "rated matches"):
        table.add_column(col, justify="left" if col == "level" else "right")
    for e in board:
        table.add_row(
            e.level, f"{e.rating}{'?' if e.provisional else ''}", f"{e.mu:.2f}", f"{e.sigma:.2f}", str(e.matches)
        )
    text_console().print(table)
