"""``gin puzzles``: puzzles mined from played games (``ginrummy.analysis.puzzles``, ``docs/puzzles.md``).

``gin puzzles mine RECORDS... --out FILE`` writes the puzzles of records as JSON lines;
``gin puzzles play [FILE]`` poses them at the terminal, one at a time, and keeps a puzzle rating
per person (OpenSkill, the ladder's model) in a local JSON file; ``gin puzzles verify [FILE]``
re-checks every puzzle's best move with more sampled deals and other seeds, in processes.
"""

from __future__ import annotations

import json
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from importlib import resources
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from ..analysis.puzzles import (
    INITIAL_RATING,
    THEMES,
    Puzzle,
    display_rating,
    dumps_puzzles,
    loads_puzzles,
    mine_record,
    rate_attempt,
    theme_name,
    verify_puzzle,
)
from ..errors import GinRummyError
from ..i18n import LANGUAGES, Translator, translate_error, translator
from .common import JsonOpt, emit_json, fail, read_text, text_console
from .main import app
from .play import play_language

__all__ = [
    "puzzles_app",
    "mine_command",
    "play_command",
    "verify_command",
    "verify_all",
    "shipped_puzzles",
    "pick_puzzle",
    "load_ratings",
]

puzzles_app = typer.Typer(help="Puzzles mined from played games: find them, solve them.", no_args_is_help=True)
app.add_typer(puzzles_app, name="puzzles")


def shipped_puzzles() -> str:
    """The text of the puzzle set shipped with the package (``analysis/puzzles.jsonl``)."""
    return resources.files("ginrummy.analysis").joinpath("puzzles.jsonl").read_text(encoding="utf-8")


@puzzles_app.command("mine")
def mine_command(
    records: list[str] = typer.Argument(
        ..., help="Game records (gin play --record, a web download, gin simulate --records)."
    ),
    out: str = typer.Option(..., "--out", help="The puzzle file to write (JSON lines, docs/puzzles.md)."),
    samples: int = typer.Option(
        50, "--samples", min=16, max=5000, help="Sampled deals of the mining check (the re-check uses 4 times as many)."
    ),
    seed: int = typer.Option(
        0, "--seed", help="Seed of the sampling: the same records and seed give the same puzzles."
    ),
    as_json: bool = JsonOpt,
) -> None:
    """Find decisions where one move is clearly best, re-checked at 4 times the budget."""
    found: list[Puzzle] = []
    seen: set[str] = set()
    for path in records:
        text = read_text(path)
        try:
            for p in mine_record(text, name=Path(path).name, samples=samples, seed=seed):
                if p.id not in seen:
                    seen.add(p.id)
                    found.append(p)
        except (GinRummyError, ValueError) as exc:
            fail(f"{path}: {exc}")
    try:
        Path(out).write_text(dumps_puzzles(found), encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {out}: {exc}")
    if as_json:
        emit_json({"puzzles": len(found), "out": out, "themes": {t: sum(p.theme == t for p in found) for t in THEMES}})
        return
    text_console().print(f"{len(found)} puzzles written to {out}")


def _default_ratings() -> str:
    import platformdirs

    return os.path.join(platformdirs.user_data_dir("ginrummy"), "puzzle-ratings.json")


def load_ratings(path: Path) -> dict[str, Any]:
    """The ratings file (``{"people": {name: {"mu", "sigma", "tried": [ids], "solved"}},
    "puzzles": {id: {"mu", "sigma"}}}``); an empty one when the file does not exist."""
    if not path.exists():
        return {"people": {}, "puzzles": {}}
    data = json.loads(path.read_text(encoding="utf-8"))
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("people"), dict)
        or not isinstance(data.get("puzzles"), dict)
    ):
        raise ValueError(f"{path} is not a puzzle ratings file")
    return data


def pick_puzzle(puzzles: list[Puzzle], ratings: dict[str, Any], person: str, theme: str | None) -> Puzzle | None:
    """The next puzzle for ``person``: of ``theme`` (any when ``None``), not tried yet, the one
    whose rating is closest to his (ties: file order); ``None`` when none is left."""
    me = ratings["people"].get(person, {})
    tried = set(me.get("tried", []))
    mine = display_rating(*(me.get("mu", INITIAL_RATING[0]), me.get("sigma", INITIAL_RATING[1])))
    best = None
    for i, p in enumerate(puzzles):
        if p.id in tried or (theme is not None and p.theme != theme):
            continue
        r = ratings["puzzles"].get(p.id, {})
        d = abs(display_rating(r.get("mu", INITIAL_RATING[0]), r.get("sigma", INITIAL_RATING[1])) - mine)
        if best is None or d < best[0]:
            best = (d, i, p)
    return None if best is None else best[2]


def _show(p: Puzzle, console: Console, tr: Translator, number: int) -> None:
    v = p.view
    console.print(
        Text(
            tr._(
                "Puzzle {number} ({theme}): what is the best move?",
                number=number,
                theme=translate_error(theme_name(p.theme), tr),
            ),
            style="bold",
        )
    )
    totals = [0, 0]
    for w, pts in p.results:
        if w is not None:
            totals[w] += pts
    console.print(tr._("Score: you {mine}, the opponent {theirs}.", mine=totals[p.player], theirs=totals[p.opponent]))
    console.print(tr._("Your hand: {cards}", cards=" ".join(v["hand"])))
    console.print(tr._("Discard pile (top last): {cards}", cards=" ".join(v["discard_pile"]) or "-"))
    console.print(
        tr._(
            "Stock: {n} cards. The opponent holds {m} cards; seen taking: {cards}.",
            n=v["stock_size"],
            m=v["opponent_count"],
            cards=" ".join(v["opponent_seen"]) or "-",
        )
    )
    console.print(tr._("Legal moves: {moves}", moves=", ".join(v["legal_actions"])))


@puzzles_app.command("play")
def play_command(
    file: str = typer.Argument(None, help="A puzzle file (JSON lines); default the set shipped with gin."),
    name: str = typer.Option("me", "--name", help="Whose puzzle rating to use and move."),
    theme: str = typer.Option(
        None, "--theme", help="Only puzzles of this theme: upcard, draw, wall, knock, gin, danger, discard."
    ),
    ratings_path: str = typer.Option(
        "", "--ratings", help="The ratings file (default puzzle-ratings.json in your user data folder)."
    ),
    count: int = typer.Option(
        0, "--count", min=0, max=100000, help="Stop after this many puzzles (0: until quit or none left)."
    ),
    lang: str = typer.Option(None, "--lang", help="Language: " + ", ".join(LANGUAGES) + " (default: from LANG)."),
) -> None:
    """Solve puzzles at the terminal; your puzzle rating is kept in a local file."""
    if theme is not None and theme not in THEMES:
        fail(f"--theme {theme!r}: themes are {', '.join(THEMES)}")
    try:
        text = shipped_puzzles() if file is None else read_text(file, "a puzzle file")
        puzzles = loads_puzzles(text)
    except (OSError, ValueError) as exc:
        fail(f"cannot read the puzzles {file or '(shipped)'}: {exc}")
    path = Path(ratings_path or _default_ratings())
    try:
        ratings = load_ratings(path)
    except (OSError, ValueError) as exc:
        fail(f"cannot read {path}: {exc}")
    tr = translator(play_language(lang))
    console = text_console()
    done = 0
    while count == 0 or done < count:
        p = pick_puzzle(puzzles, ratings, name, theme)
        if p is None:
            console.print(tr._("No puzzle left."))
            break
        _show(p, console, tr, done + 1)
        while True:
            console.print(tr._("Your move (or quit)> "), end="")
            line = sys.stdin.readline()
            if not line or line.strip().lower() in ("quit", "q"):
                return
            move = line.strip()
            loss = p.answer_loss(move)
            if loss is not None:
                break
            console.print(
                tr._(
                    "{move} is not a legal move here; legal moves: {moves}",
                    move=move,
                    moves=", ".join(p.view["legal_actions"]),
                )
            )
        solved = loss == 0.0
        me = ratings["people"].setdefault(
            name, {"mu": INITIAL_RATING[0], "sigma": INITIAL_RATING[1], "tried": [], "solved": 0}
        )
        pr = ratings["puzzles"].setdefault(p.id, {"mu": INITIAL_RATING[0], "sigma": INITIAL_RATING[1]})
        (me["mu"], me["sigma"]), (pr["mu"], pr["sigma"]) = rate_attempt(
            (me["mu"], me["sigma"]), (pr["mu"], pr["sigma"]), solved
        )
        me["tried"].append(p.id)
        me["solved"] += int(solved)
        if solved:
            console.print(Text(tr._("Right: {best} is the best move.", best=p.best), style="bold green"))
        else:
            console.print(
                Text(
                    tr._(
                        "Not the best: {best} is better by {loss} points of win chance.",
                        best=p.best,
                        loss=tr.format_number(round(loss, 1) + 0.0),
                    ),
                    style="bold red",
                )
            )
        console.print(
            tr._(
                "Every other move loses at least {margin} points of win chance: {losses}. Rules: {rules}.",
                margin=tr.format_number(p.margin),
                rules=", ".join(p.rules),
                losses=", ".join(f"{m} {tr.format_number(x)}" for m, x in p.losses.items()),
            )
        )
        console.print(tr._("Your puzzle rating: {rating}.", rating=display_rating(me["mu"], me["sigma"])))
        done += 1
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(ratings, indent=1, sort_keys=True), encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {path}: {exc}")


def verify_all(
    puzzles: list[Puzzle],
    *,
    factor: int,
    salt: str,
    jobs: int,
    time_limit: float = 0.0,
    progress: Any = None,
) -> list[dict[str, Any]]:
    """:func:`~ginrummy.analysis.puzzles.verify_puzzle` of each puzzle, in ``jobs`` processes (1:
    in this one), in file order.  ``time_limit`` > 0: no puzzle is started after that many
    seconds of wall time (the ones started finish); ``progress(done, total)`` after each."""
    out: list[dict[str, Any]] = []
    start = time.monotonic()

    def late() -> bool:
        return time_limit > 0 and time.monotonic() - start > time_limit

    if jobs <= 1:
        for p in puzzles:
            if late():
                break
            out.append(verify_puzzle(p, factor, salt))
            if progress is not None:
                progress(len(out), len(puzzles))
        return out
    results: dict[int, dict[str, Any]] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        todo = iter(enumerate(puzzles))
        running: dict[Future[dict[str, Any]], int] = {}
        while True:
            while len(running) < 2 * jobs and not late():
                nxt = next(todo, None)
                if nxt is None:
                    break
                running[pool.submit(verify_puzzle, nxt[1], factor, salt)] = nxt[0]
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for f in done:
                results[running.pop(f)] = f.result()
                if progress is not None:
                    progress(len(results), len(puzzles))
    return [results[i] for i in sorted(results)]


@puzzles_app.command("verify")
def verify_command(
    file: str = typer.Argument(None, help="A puzzle file (JSON lines); default the set shipped with gin."),
    factor: int = typer.Option(
        4, "--factor", min=1, max=100, help="Sampled deals: this many times each puzzle's mining budget."
    ),
    salt: str = typer.Option("1", "--salt", help="Seeds 'verify/SALT/ID': another salt, other sampled deals."),
    jobs: int = typer.Option(0, "--jobs", "-j", min=0, max=256, help="Processes (0: one per core)."),
    limit: int = typer.Option(0, "--limit", min=0, max=10**6, help="Only the first N puzzles (0: all)."),
    time_limit: float = typer.Option(
        0.0, "--time-limit", min=0.0, help="Start no puzzle after this many seconds (0: no limit)."
    ),
    as_json: bool = JsonOpt,
) -> None:
    """Re-check each puzzle's best move with FACTOR times the mining budget and other seeds;
    exits 1 when any fails (the best move is not best by its stated margin)."""
    try:
        text = shipped_puzzles() if file is None else Path(file).read_text(encoding="utf-8")
        puzzles = loads_puzzles(text)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        fail(f"cannot read the puzzles {file or '(shipped)'}: {exc}")
    if limit:
        puzzles = puzzles[:limit]
    n_jobs = jobs or os.cpu_count() or 1
    start = time.monotonic()
    columns = (TextColumn("verify"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True, disable=as_json) as bar:
        task = bar.add_task("verify", total=len(puzzles))
        results = verify_all(
            puzzles,
            factor=factor,
            salt=salt,
            jobs=n_jobs,
            time_limit=time_limit,
            progress=lambda done, total: bar.update(task, completed=done),
        )
    seconds = round(time.monotonic() - start, 1)
    failed = [r for r in results if not r["ok"]]
    if as_json:
        emit_json({"checked": len(results), "of": len(puzzles), "failed": failed, "factor": factor, "seconds": seconds})
    else:
        console = text_console()
        for r in failed:
            console.print(f"FAIL {r['id']} ({r['theme']}): smallest gap {r['gap']}, stated margin {r['margin']}")
        console.print(
            f"{len(failed)} of {len(results)} puzzles fail at {factor}x the mining budget"
            f" ({len(results)} of {len(puzzles)} checked, {seconds} s, {n_jobs} processes)"
        )
    if failed:
        raise typer.Exit(1)
