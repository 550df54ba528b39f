"""Shared pieces of the ``gin`` commands: rule options, JSON output, and the one-line error
exit (status 2) that every command uses on bad input."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import typer

from ..errors import GinRummyError
from ..rules import RuleSet, make_rules

__all__ = [
    "PresetOpt",
    "SetOpt",
    "JsonOpt",
    "rules_from",
    "fail",
    "emit_json",
    "bad_input",
    "text_console",
    "CARDS_HELP",
    "read_text",
]

PresetOpt = typer.Option(
    "standard",
    "--preset",
    help="Rule set preset (R13): standard, classic, hollywood, single, oklahoma, straight, eaai.",
)
SetOpt = typer.Option(
    [],
    "--set",
    metavar="KEY=VALUE",
    help="Override a rule (R14) as KEY=VALUE; VALUE is JSON when it parses (true, 31, null), else text. Repeatable.",
)
JsonOpt = typer.Option(False, "--json", help="Print the result as JSON.")
CARDS_HELP = "cards as in R1.4 (AS TD 10H KC), separated by spaces or commas"


def text_console(file: Any = None, *, stderr: bool = False) -> Any:
    """The Rich console a ``gin`` command writes to (standard output, standard error with
    ``stderr``, or ``file``).  On a terminal, Rich wraps lines at its width; when the output is
    not a terminal (a pipe, a file: its width is unknown, and Rich would assume 80 columns),
    lines are written whole (soft wrap), so no line is broken in the middle of a word or a card.
    Tables are still drawn at the console's width."""
    from rich.console import Console

    console = Console(highlight=False, file=file, stderr=stderr)
    if not console.is_terminal:
        console.soft_wrap = True
    return console


def fail(message: str) -> NoReturn:
    """Print ``gin: error: message`` as one line on stderr and exit with status 2."""
    one_line = " ".join(str(message).split())
    print(f"gin: error: {one_line}", file=sys.stderr)
    raise typer.Exit(2)


def read_text(path: str, what: str = "a game record") -> str:
    """The text of the file at ``path`` (``-``: standard input), read as UTF-8.

    Exits 2 with one line in the project's words (never Python's codec or OS wording) when
    the file is missing, is a folder, cannot be opened, or is not UTF-8 text; ``what`` names
    what the file should hold (``"a game record"``)."""
    try:
        if path == "-":
            raw = getattr(sys.stdin, "buffer", None)  # a text stream without bytes (a test's) is read as text
            return raw.read().decode("utf-8") if raw is not None else sys.stdin.read()
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        fail(f"cannot read {path}: no such file")
    except IsADirectoryError:
        fail(f"cannot read {path}: it is a folder, not a file")
    except PermissionError:
        fail(f"cannot read {path}: permission denied")
    except UnicodeDecodeError as exc:
        fail(
            f"cannot read {'standard input' if path == '-' else path}: it is not a text file (byte {exc.start + 1} is not UTF-8); {what} is UTF-8 text"
        )
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or 'the system refused'}")


@contextmanager
def bad_input() -> Iterator[None]:
    """Turn any :class:`GinRummyError` (bad cards, rules, actions, records) into :func:`fail`."""
    try:
        yield
    except GinRummyError as exc:
        fail(str(exc))


def rules_from(preset: str, overrides: list[str]) -> RuleSet:
    """The rule set of ``--preset`` and ``--set`` options; exits 2 on a bad one."""
    with bad_input():
        return make_rules(preset, overrides)
    raise AssertionError  # pragma: no cover


def emit_json(data: Any) -> None:
    """Print ``data`` as indented JSON on stdout."""
    print(json.dumps(data, indent=2, ensure_ascii=False))
