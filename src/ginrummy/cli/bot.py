"""``gin bot``: a computer level or a program of yours at a seat of a web table (docs/bot-api.md)."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import typer

from ..client import (
    ClientError,
    CommandDecider,
    LinkError,
    PlayerDecider,
    SeatClient,
    download_record,
    load_player,
    parse_link,
)
from ..errors import GinRummyError
from .common import fail
from .main import app

__all__ = ["bot"]

_NO_TOKEN_API = (
    "--token and --server are for the server's bot accounts and API tokens, which come in the next "
    "step (issue 35); today give a seat link: --seat URL"
)


@app.command()
def bot(
    seat: str = typer.Option(
        None,
        "--seat",
        metavar="URL",
        help="The seat link of the table: http://HOST/table/ID with ?seat=TOKEN, or with ?invite=CODE (claimed first).",
    ),
    level: str = typer.Option(
        None,
        "--level",
        metavar="LEVEL",
        help="A computer level (random, novice, club, expert, master) or package.module:Class.",
    ),
    command: str = typer.Option(
        None,
        "--command",
        metavar="PROGRAM",
        help="A program that reads one JSON view a line on stdin and answers one move a line.",
    ),
    seed: int = typer.Option(0, "--seed", metavar="N", help="Seed of the level's random choices."),
    rematches: int = typer.Option(
        0, "--rematches", min=0, max=100, metavar="N", help="Rematches to ask for and play (0 to 100)."
    ),
    chat: str = typer.Option(None, "--chat", metavar="TEXT", help="A line to say at the table once seated."),
    record: Path = typer.Option(None, "--record", metavar="FILE", help="Save the table's record here at the end."),
    transcript: Path = typer.Option(
        None, "--transcript", metavar="FILE", help="Write every message received and sent, one JSON object a line."
    ),
    timeout: float = typer.Option(
        60.0,
        "--timeout",
        min=1,
        max=3600,
        metavar="SECONDS",
        help="Seconds a --command has for each answer (1 to 3600).",
    ),
    token: str = typer.Option(
        None, "--token", metavar="TOKEN", help="An API token of a bot account (next step: not yet served)."
    ),
    server: str = typer.Option(None, "--server", metavar="URL", help="The server of --token (next step)."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log every step on stderr."),
) -> None:
    """Play a seat of a `gin serve` table with a computer level (--level) or your program (--command)."""
    if token is not None or server is not None:
        fail(_NO_TOKEN_API)
    if not seat:
        fail("--seat URL is needed: the seat link of the table (http(s)://HOST/table/ID?seat=TOKEN)")
    if (level is None) == (command is None):
        fail("give one of --level LEVEL or --command PROGRAM")
    try:
        link = parse_link(seat)
        decider = PlayerDecider(load_player(level, seed)) if level is not None else CommandDecider(command, timeout)
    except (LinkError, ValueError, GinRummyError) as exc:
        fail(str(exc))
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        stream=sys.stderr,
        format="gin bot: %(levelname)s %(message)s",
    )
    out = transcript.open("w", encoding="utf-8") if transcript is not None else None
    client = SeatClient(link, decider, rematches=rematches, chat=chat, transcript=out)
    try:
        outcome = asyncio.run(client.run())
    except (ClientError, LinkError) as exc:
        print(f"gin bot: error: {exc}", file=sys.stderr)
        raise typer.Exit(1) from None
    finally:
        if out is not None:
            out.close()
    if record is not None:
        try:
            record.write_text(download_record(client.link), encoding="utf-8")
        except LinkError as exc:
            print(f"gin bot: error: {exc}", file=sys.stderr)
            raise typer.Exit(1) from None
    checked = sum(1 for c in outcome.checks if c.ok)
    print(
        f"match over: winner {outcome.winner}; {outcome.moves} moves sent, {outcome.refused} refused, "
        f"{outcome.fallbacks} played by the fallback; fair-deal checks: {checked} of {len(outcome.checks)} deals passed"
        + ("" if outcome.fair_ok else ", SOME FAILED")
    )
    if not outcome.fair_ok:
        raise typer.Exit(1)
