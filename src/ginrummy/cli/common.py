"""Shared pieces of the ``gin`` commands: rule options, JSON output, and the one-line error
exit (status 2) that every command uses on bad input."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import typer

from ..errors import GinRummyError
from ..rules import RuleSet, make_rules

__all__ = ["PresetOpt", "SetOpt", "JsonOpt", "rules_from", "fail", "emit_json", "bad_input", "CARDS_HELP"]

PresetOpt = typer.Option("standard", "--preset", help="Rule set preset (R13): standard, classic, hollywood, single, oklahoma, straight, eaai.")
SetOpt = typer.Option([], "--set", help="Override a rule (R14) as KEY=VALUE; VALUE is JSON when it parses (true, 31, null), else text. Repeatable.")
JsonOpt = typer.Option(False, "--json", help="Print the result as JSON.")
CARDS_HELP = "cards as in R1.4 (AS TD 10H KC), separated by spaces or commas"


def fail(message: str) -> NoReturn:
    """Print ``gin: error: message`` as one line on stderr and exit with status 2."""
    one_line = " ".join(str(message).split())
    print(f"gin: error: {one_line}", file=sys.stderr)
    raise typer.Exit(2)


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

