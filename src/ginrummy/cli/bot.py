"""``gin bot``: a computer level or a program of yours at a seat of a web table (docs/bot-api.md)."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

import typer

from ..client import (
    ACCEPT_POLICIES,
    ApiError,
    BotApi,
    ClientError,
    CommandDecider,
    GamePlan,
    LinkError,
    PlayerDecider,
    SeatClient,
    download_record,
    load_player,
    parse_link,
    serve_games,
)
from ..errors import GinRummyError
from .common import fail
from .main import app

__all__ = ["bot"]

_LEVELS = ("random", "novice", "club", "expert", "master")


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
        None,
        "--token",
        metavar="TOKEN",
        envvar="GIN_BOT_TOKEN",
        help="An API token of a bot account (or the GIN_BOT_TOKEN environment variable).",
    ),
    server: str = typer.Option(None, "--server", metavar="URL", help="The server of --token: http(s)://HOST[:PORT]."),
    games: int = typer.Option(
        1, "--games", min=0, max=100000, metavar="N", help="With --server: games to play, then stop (0: until stopped)."
    ),
    accept: str = typer.Option(
        "all",
        "--accept",
        metavar="POLICY",
        help="With --server: challenges accepted: all, none, rated, casual, people, bots.",
    ),
    seek: bool = typer.Option(False, "--seek", help="With --server: open a table in the lobby before each game."),
    challenge: str = typer.Option(
        None,
        "--challenge",
        metavar="NAME",
        help="With --server: challenge this account or computer level before each game.",
    ),
    preset: str = typer.Option(
        "standard", "--preset", metavar="PRESET", help="With --seek or --challenge: the rules (R13)."
    ),
    rated: bool = typer.Option(False, "--rated", help="With --seek or --challenge: a rated match."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log every step on stderr."),
) -> None:
    """Play a seat of a `gin serve` table with a computer level (--level) or your program (--command)."""
    if (level is None) == (command is None):
        fail("give one of --level LEVEL or --command PROGRAM")
    if (token is not None or server is not None) and seat:
        fail("give --seat URL (a seat link) or --server URL with --token TOKEN (a bot account), not both")
    if token is not None or server is not None:
        _serve(
            server,
            token,
            level,
            command,
            seed,
            timeout,
            chat,
            verbose,
            (record, transcript),
            GamePlan(
                games=games, accept=accept, seek=seek, challenge=challenge, preset=preset, rated=rated, levels=_LEVELS
            ),
        )
        return
    if not seat:
        fail(
            "--seat URL is needed: the seat link of the table (http(s)://HOST/table/ID?seat=TOKEN), or --server and --token"
        )
    _play_seat(seat, level, command, seed, timeout, chat, verbose, rematches, (record, transcript))


def _play_seat(
    seat: str,
    level: str | None,
    command: str | None,
    seed: int,
    timeout: float,
    chat: str | None,
    verbose: bool,
    rematches: int,
    files: tuple[Path | None, Path | None],
) -> None:
    """``gin bot --seat URL``: play that seat's match (and ``rematches``); ``files``:
    ``--record`` and ``--transcript``."""
    record, transcript = files
    try:
        link = parse_link(seat)
        decider = (
            PlayerDecider(load_player(level, seed)) if level is not None else CommandDecider(command or "", timeout)
        )
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
    print(
        f"match over: winner {outcome.winner}; {outcome.moves} moves sent, {outcome.refused} refused, "
        f"{outcome.fallbacks} played by the fallback; {_checks_text(outcome.checks)}"
    )
    if not outcome.fair_ok:
        raise typer.Exit(1)


def _serve(
    server: str | None,
    token: str | None,
    level: str | None,
    command: str | None,
    seed: int,
    timeout: float,
    chat: str | None,
    verbose: bool,
    files: tuple[Path | None, Path | None],
    plan: GamePlan,
) -> None:
    """``gin bot --server URL --token T``: play ``plan`` through the bot API (docs/bot-api.md);
    ``files``: ``--record`` (the last game's record) and ``--transcript``."""
    if not server or not token:
        fail("--server URL and --token TOKEN go together (the token of a bot account on that server)")
    if plan.accept not in ACCEPT_POLICIES:
        fail(f"--accept is one of {', '.join(ACCEPT_POLICIES)}, not {plan.accept[:40]!r}")
    if plan.seek and plan.challenge is not None:
        fail("give at most one of --seek or --challenge NAME")
    try:
        api = BotApi(server, token)
        if level is not None:
            load_player(level, seed)
    except (LinkError, ValueError, GinRummyError) as exc:
        fail(str(exc))
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        stream=sys.stderr,
        format="gin bot: %(levelname)s %(message)s",
    )
    games = iter(range(1_000_000_000))

    def decider() -> PlayerDecider | CommandDecider:
        n = next(games)
        return (
            PlayerDecider(load_player(level, seed + n)) if level is not None else CommandDecider(command or "", timeout)
        )

    record, transcript = files
    out = transcript.open("w", encoding="utf-8") if transcript is not None else None
    try:
        name = api.account()["name"]
        asyncio.run(serve_games(api, plan, decider, chat=chat, transcript=out))
        if record is not None and plan.links:
            record.write_text(download_record(plan.links[-1]), encoding="utf-8")
    except (ApiError, ClientError, LinkError) as exc:
        print(f"gin bot: error: {exc}", file=sys.stderr)
        raise typer.Exit(1) from None
    finally:
        if out is not None:
            out.close()
    outcomes = plan.outcomes
    won = sum(1 for o in outcomes if o.winner == name)
    checks = [c for o in outcomes for c in o.checks]
    print(
        f"{len(outcomes)} games played as {name}: {won} won; "
        f"{sum(o.moves for o in outcomes)} moves sent, {sum(o.refused for o in outcomes)} refused, "
        f"{sum(o.fallbacks for o in outcomes)} played by the fallback; {_checks_text(checks)}"
    )
    if any(c.ok is False for c in checks):  # a check that could not be made is no failure
        raise typer.Exit(1)


def _checks_text(checks: list[Any]) -> str:
    """``fair-deal checks: P of N deals passed``, then how many could not be made (a deal dealt
    with no client seed of this seat, such as the daily deal's, or joined after its start:
    nothing to check, nothing failed) and ``, SOME FAILED`` when one failed."""
    passed = sum(1 for c in checks if c.ok)
    unmade = sum(1 for c in checks if c.ok is None)
    text = f"fair-deal checks: {passed} of {len(checks) - unmade} deals passed"
    if unmade:
        text += f" ({unmade} could not be made: no client seed of this seat in them)"
    return text + (", SOME FAILED" if any(c.ok is False for c in checks) else "")
