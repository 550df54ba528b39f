"""``gin sheet``: keep the score of a match from its deal results (R10.5, R10.6, R11, R12)."""

from __future__ import annotations

from collections.abc import Sequence

import typer
from rich.console import Console
from rich.table import Table

from ..rules import RuleSet
from ..scoring import Result, ScoreSheet, parse_results
from .common import JsonOpt, PresetOpt, SetOpt, bad_input, emit_json, fail, rules_from, text_console
from .main import app

__all__ = ["sheet", "player_names", "render_sheet"]


def player_names(players: str | None, results: Sequence[str], rules: RuleSet | None = None) -> list[str]:
    """The players' names: from ``--players A,B[,C]`` (2 or 3 distinct names, ignoring case),
    or else the names of the ``NAME:POINTS`` results in order of first appearance (a name
    matched ignoring case; ``draw`` names nobody).  Exits 2 unless there are 2 or 3 names;
    with ``rules``, a bad POINTS among too few names is reported before the missing names
    (both are wrong, and the points are the person's own mistake)."""
    if players is not None:
        names = [n.strip() for n in players.split(",")]
        if any(not n for n in names):
            fail(
                f"--players {players!r}: names are separated by commas and cannot be empty (e.g. --players Alexandra,Bob)"
            )
        if len({n.casefold() for n in names}) != len(names):
            fail(f"--players {players!r}: the names must differ (ignoring case)")
        if len(names) not in (2, 3):
            fail(f"--players {players!r}: a match has 2 or 3 players (three-hand gin, R10), not {len(names)}")
        return names
    names = []
    seen: set[str] = set()
    for arg in results:
        if arg.strip().casefold() == "draw":
            continue
        name, sep, _ = arg.rpartition(":")
        name = name.strip()
        if not sep or not name:
            fail(f"result {arg!r} is not understood; expected NAME:POINTS (for example Bob:25) or draw")
        if name.casefold() not in seen:
            seen.add(name.casefold())
            names.append(name)
    if len(names) > 3:
        fail(f"the results name {len(names)} players ({', '.join(names)}); a match has 2 or 3 (R10)")
    if len(names) < 2:
        if rules is not None:
            with bad_input():
                parse_results(results, names, rules)
        found = f"only {', '.join(names)}" if names else "no player"
        fail(f"the results name {found}; give the players with --players A,B (or A,B,C)")
    return names


def _running(rules_sheet: ScoreSheet, names: Sequence[str]) -> list[tuple[str, list[list[int | None]]]]:
    """Per deal: its label and, per game and player, the running points written in that deal
    (``None`` where nothing was written), as on a paper score sheet."""
    rows = []
    prev = ScoreSheet(rules_sheet.rules, rules_sheet.players)
    for i, (winner, points) in enumerate(rules_sheet.results):
        cur = prev.add(winner, points)
        cells: list[list[int | None]] = []
        for g_prev, g_cur in zip(prev.games, cur.games):
            cells.append(
                [
                    g_cur.points[p] if g_cur.deals_won[p] != g_prev.deals_won[p] else None
                    for p in range(rules_sheet.players)
                ]
            )
        label = f"{i + 1}. " + ("draw" if winner is None else f"{names[winner]} {points}")
        rows.append((label, cells))
        prev = cur
    return rows


def render_sheet(sheet: ScoreSheet, names: Sequence[str], console: Console) -> None:
    """Print the sheet as a table like a paper score sheet: one column per game and player
    (three games per player for Hollywood, R12.1), a row per deal with the running points
    written, then the game and box bonuses (R11.3), the totals of each game and the match."""
    games = sheet.games
    n = sheet.players
    multi = len(games) > 1
    title = {"hollywood": "Hollywood score sheet", "game": "Score sheet", "deal": "Score sheet (one deal)"}
    table = Table(title=f"{title[sheet.rules.scoring]}, target {sheet.rules.target}")
    table.add_column("deal", no_wrap=True)
    for p in range(n):
        for g in games:
            # the name above its game number: a name is never cut to "Alexand…" in some columns only
            table.add_column(f"{names[p]}\nG{g.number}" if multi else names[p], justify="right", overflow="fold")

    def row(label: str, values: list[list[int | None]], style: str | None = None) -> None:
        cells = [label]
        for p in range(n):
            for gi in range(len(games)):
                v = values[gi][p]
                cells.append("" if v is None else str(v))
        table.add_row(*cells, style=style)

    for label, cells in _running(sheet, names):
        row(label, cells)
    table.add_section()
    row("points", [list(g.points) for g in games])
    if n == 2 and sheet.rules.bonuses_on:
        row("game bonus", [[g.game_bonus[p] if g.finished else None for p in range(n)] for g in games])
        row("box bonus", [[g.box_bonus[p] if g.finished else None for p in range(n)] for g in games])
    row("game total", [list(g.total) for g in games], style="bold")
    console.print(table)
    for g in games:
        state = f"won by {names[g.winner]}" if g.winner is not None else "open"
        console.print(f"Game {g.number}: {state}")
    totals = ", ".join(f"{names[p]} {sheet.totals[p]}" for p in range(n))
    console.print(f"Totals: {totals}")
    if sheet.finished:
        w = sheet.match_winner
        # "won by NAME", as for a game: a player may be named You ("You wins" would be wrong)
        console.print(f"Match over: won by {names[w]}." if w is not None else "Match over.", style="bold green")


def _sheet_of(rules: RuleSet, names: Sequence[str], results: Sequence[str], parsed: Sequence[Result]) -> ScoreSheet:
    """The score sheet of ``parsed`` (one pair per argument of ``results``), added deal by deal so
    that a result after the end of the match is named as the person typed it (``Bob:5``), not
    as the sheet's own ``1:5`` (R11.1, R12.5).  Exits 2 then."""
    score_sheet = ScoreSheet(rules, len(names))
    for number, (text, (winner, points)) in enumerate(zip(results, parsed), 1):
        if score_sheet.finished:
            won = score_sheet.match_winner
            by = f" ({names[won]} won it)" if won is not None else ""
            fail(
                f"result {text!r} (deal {number}): the match was already over after deal {number - 1}"
                f"{by}; leave out the results after it"
            )
        score_sheet = score_sheet.add(winner, points)
    return score_sheet


@app.command("sheet")
def sheet(
    results: list[str] = typer.Argument(
        None, help="The deals in order, each NAME:POINTS (the winner and his points) or draw.", show_default=False
    ),
    players: str = typer.Option(
        None,
        "--players",
        help="The players' names, A,B (three names: three-hand gin, R10). Default: the names in the results, in order of first appearance.",
    ),
    preset: str = PresetOpt,
    overrides: list[str] = SetOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Score sheet of a match from its deal results: games, game/shutout/box bonuses (R11.3),
    Hollywood's three games (R12), three-hand scores (R10.5, R10.6).

    JSON: the sheet's games (points, deals won, winner, bonuses, totals), totals per player,
    whether the match is finished and its winner.
    """
    results = list(results or [])
    rules = rules_from(preset, overrides)
    names = player_names(players, results, rules)
    if rules.players != len(names) and rules.players == 3:
        fail(f"the rules say three players (players=3) but {len(names)} are named ({', '.join(names)})")
    with bad_input():
        parsed = parse_results(results, names, rules)
        if rules.players != len(names):
            rules = rules.replace(players=len(names))
        score_sheet = _sheet_of(rules, names, results, parsed)
        data = score_sheet.to_dict(names)
    if as_json:
        emit_json(data)
    else:
        render_sheet(score_sheet, names, text_console())
