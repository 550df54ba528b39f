"""``gin review RECORD``: what the expert would have done, move by move (``ginrummy.analysis.review``).

Prints, per deal, every decision reviewed (the move played, the expert's move, both values, the
loss and the mark), the marked decisions' reasons, the hindsight line (clearly labelled: it
reads every hand) and a summary per player; ``--json`` prints the contract of
``docs/review.md``.  A Rich progress bar runs on stderr while the decisions are valued.

The same renderer (:func:`show_review`) and runner (:func:`run_review`) serve ``gin play``'s
offer of a review after each deal and at the end of the match, in the table's language.
"""

from __future__ import annotations

from dataclasses import replace

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ..analysis.performance import performance
from ..analysis.review import DEFAULT_BUDGET_MS, MAX_BUDGET_MS, NOISE_Z, Review, build_review
from ..errors import GinRummyError
from ..i18n import Translator, translate_error, translator
from ..match import Match
from ..record import GameRecord
from .common import JsonOpt, emit_json, fail, read_text, text_console
from .main import app

__all__ = ["review_command", "run_review", "show_review", "show_performance", "only", "mark_name", "phase_name"]

_MARK_STYLE = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def mark_name(mark: str | None, tr: Translator) -> str:
    """A mark (``inaccuracy``, ``mistake``, ``blunder``) in ``tr``'s language; ``""`` for none."""
    if mark is None:
        return ""
    return {
        "inaccuracy": tr.p_("review mark", "inaccuracy"),
        "mistake": tr.p_("review mark", "mistake"),
        "blunder": tr.p_("review mark", "blunder"),
    }.get(mark, mark)


def phase_name(phase: str, tr: Translator) -> str:
    """A deal phase (R4, R7.2) in ``tr``'s language."""
    return {
        "upcard_offer": tr.p_("phase", "upcard offer"),
        "draw": tr.p_("phase", "draw"),
        "wall": tr.p_("phase", "wall"),
        "discard": tr.p_("phase", "discard"),
    }.get(phase, phase)


def _num(x: float, tr: Translator) -> str:
    return tr.format_number(round(x, 1) + 0.0)


def run_review(
    record: GameRecord | Match | str,
    *,
    tr: Translator,
    player: str | None = None,
    deal: int | None = None,
    budget_ms: float = DEFAULT_BUDGET_MS,
    seed: int = 0,
    console: Console | None = None,
) -> Review:
    """:func:`ginrummy.analysis.review.build_review` with a Rich progress bar on ``console`` (default:
    stderr; transient: it disappears when done).  Raises what ``build_review`` raises."""
    console = console or Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(tr._("Reviewing the decisions"), total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return build_review(record, player=player, deal=deal, budget_ms=budget_ms, seed=seed, progress=progress)


def show_review(review: Review, console: Console, tr: Translator) -> None:
    """Print ``review`` on ``console`` in ``tr``'s language: a table per deal (move number, player,
    move played, the expert's move, value played -> value of the expert's move, loss, mark), the
    reasons of the marked decisions, the hindsight line apart, then the summary per player and
    how the values were made."""
    unit = tr._("chance to win the game or match, in percentage points")
    for d in review.deals:
        t = Table(title=tr._("Deal {number}: the expert's review", number=d.number), title_justify="left")
        several = len(review.players) > 1
        t.add_column("#", justify="right")
        if several:
            t.add_column(tr._("Player"))
        t.add_column(tr._("Played"), no_wrap=True)
        t.add_column(tr._("Expert"), no_wrap=True)
        t.add_column(tr._("Value"), justify="right", no_wrap=True)
        t.add_column(tr._("Loss"), justify="right")
        t.add_column(tr._("Mark"))
        for x in d.decisions:
            same = x.played == x.best
            value = _num(x.value_played, tr) if same else f"{_num(x.value_played, tr)} → {_num(x.value_best, tr)}"
            cells: list[str | Text] = [
                str(x.index),
                *([x.player] if several else []),
                x.played,
                "=" if same else x.best,
                value,
                _num(x.loss, tr),
                Text(mark_name(x.mark, tr), style=_MARK_STYLE.get(x.mark or "", "")),
            ]
            t.add_row(*cells)
        if d.decisions:
            console.print(t)
        else:
            console.print(Text(tr._("Deal {number}: no decision to review.", number=d.number), style="bold"))
        for x in d.decisions:
            if x.mark is not None:
                console.print(
                    Text(
                        tr._(
                            "Move {index} ({mark}): {reason}",
                            index=x.index,
                            mark=mark_name(x.mark, tr),
                            reason=translate_error(x.reason, tr),
                        ),
                        style=_MARK_STYLE[x.mark],
                    )
                )
        lines = "; ".join(translate_error(m, tr) for m in d.hindsight.lines())
        console.print(
            Text(tr._("Hindsight (all hands shown, not part of the review): {lines}.", lines=lines), style="dim italic")
        )
    # no vertical rules, and no header cut short: the seven columns fit 80 characters
    s = Table(title=tr._("Summary"), title_justify="left", box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False)
    s.add_column(tr._("Player"), overflow="fold")
    for header in (
        tr._("Decisions"),
        tr._("Inaccuracies"),
        tr._("Mistakes"),
        tr._("Blunders"),
        tr._("Mean loss"),
        tr._("Accuracy"),
    ):
        s.add_column(header, justify="right", min_width=max(len(w) for w in header.split()))
    for name, p in review.summary.items():
        s.add_row(
            name,
            str(p.decisions),
            str(p.inaccuracies),
            str(p.mistakes),
            str(p.blunders),
            tr.format_number(round(p.mean_loss, 2) + 0.0),
            f"{_num(p.accuracy, tr)}%",
        )
    console.print(s)
    show_performance(review, console, tr)
    low, mid, high = review.thresholds
    console.print(
        Text(
            tr._(
                "Values: {unit}, from each player's own view at that moment, over {n} sampled deals a "
                "decision (seed {seed}). A loss is marked only above its noise ({z} standard errors of "
                "the sampled difference): inaccuracy from {low}, mistake from {mid}, blunder from {high}. "
                "Accuracy: the share of decisions within the noise of the expert's move.",
                unit=unit,
                n=review.samples,
                seed=str(review.seed),
                z=NOISE_Z,
                low=low,
                mid=mid,
                high=high,
            ),
            style="dim",
        )
    )


def only(review: Review, player: str) -> Review:
    """``review`` of every player narrowed to ``player``'s decisions and summary (the same
    values: each decision is seeded on its own, so this is what ``build_review(...,
    player=player)`` gives; the hindsight lines stay as they are).  Raises ``KeyError`` for a
    name that was not reviewed."""
    deals = tuple(replace(d, decisions=tuple(x for x in d.decisions if x.player == player)) for d in review.deals)
    return replace(review, players=(player,), deals=deals, summary={player: review.summary[player]})


def show_performance(review: Review, console: Console, tr: Translator) -> None:
    """Print each reviewed player's performance (:func:`ginrummy.analysis.performance.performance`):
    the score 0..100 (called "score", not "accuracy", which is the review's own share of
    decisions within the noise), the loss per decision, and "played like a player rated about N"
    with its 95% interval."""
    for name, p in performance(review).items():
        if p.rating is None:
            continue
        console.print(
            Text(
                tr._(
                    "{player}: score {score} of 100, {loss} points of win chance lost a decision "
                    "over {n} decisions; played like a player rated about {rating} ({low} to {high}).",
                    player=name,
                    score=_num(p.score, tr),
                    loss=tr.format_number(round(p.loss_per_decision, 2) + 0.0),
                    n=p.decisions,
                    rating=p.rating.rating,
                    low=p.rating.low,
                    high=p.rating.high,
                ),
                style="bold",
            )
        )


def _read(path: str) -> str:
    return read_text(path)


@app.command("review")
def review_command(
    record: str = typer.Argument(
        ..., help="A game record (gin play --record, a web download, gin simulate --records); - reads stdin."
    ),
    deal: int | None = typer.Option(None, "--deal", help="Review only deal N (1-based)."),
    player: str | None = typer.Option(
        None, "--player", help="Review only this player's decisions (a name of the record)."
    ),
    as_json: bool = JsonOpt,
    budget_ms: float = typer.Option(
        DEFAULT_BUDGET_MS,
        "--budget-ms",
        help="Budget per decision in ms; it fixes the number of sampled deals (budget/2, at least 16), so the review does not depend on the clock.",
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the sampling: the same seed gives the same review."),
) -> None:
    """Review a played deal or match: the expert's move beside each move played, with marks."""
    if not 0 < budget_ms <= MAX_BUDGET_MS:
        fail(f"--budget-ms {budget_ms:g} must be a number > 0 and at most {MAX_BUDGET_MS:g}")
    text = _read(record)
    tr = translator("en")
    try:
        review = run_review(text, tr=tr, player=player, deal=deal, budget_ms=budget_ms, seed=seed)
    except (GinRummyError, ValueError) as exc:
        fail(f"{record}: {exc}")
    if as_json:
        emit_json(review.to_dict())
        return
    show_review(review, text_console(), tr)
