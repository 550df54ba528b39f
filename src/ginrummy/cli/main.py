"""The ``gin`` command line: ``gin play``, ``gin serve``, ``gin simulate``, ``gin analyze``,
``gin score``, ``gin sheet``, ``gin replay``, ``gin verify``, ``gin review``.

Each subcommand lives in its own module of this package and registers itself on :data:`app`.
Bad input exits with status 2 and one line on stderr (see :mod:`ginrummy.cli.common`).
"""

from __future__ import annotations

import importlib
import re
import sys
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:  # the type checker reads the Click that the installed Typer uses
    from typer._click import Context as _Context
    from typer._click import exceptions as _cx
else:
    try:  # Typer >= 0.20 carries its own copy of Click; older ones use Click itself
        from typer._click import Context as _Context
        from typer._click import exceptions as _cx
    except ImportError:  # pragma: no cover
        from click import Context as _Context
        from click import exceptions as _cx

app = typer.Typer(
    name="gin",
    help="Gin Rummy: play at the terminal or in the browser, keep score, simulate, analyse.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
)

_MODULES = (
    "analyze",
    "score",
    "sheet",
    "replay",
    "review",
    "simulate",
    "play",
    "server.serve",
    "ladder",
    "server.db",
    "server.admin",
    "bot",
    "puzzles",
)

#: Options whose value may be left out (Typer has no such options), and the value they take
#: then: ``gin simulate --ray`` alone means a Ray started on this machine.
OPTIONAL_VALUES = {"--ray": "local"}


def _fill_optional_values(args: list[str]) -> list[str]:
    """``args`` with each option of :data:`OPTIONAL_VALUES` that has no value (it is last, or
    the next word is an option) written as ``--option=VALUE``."""
    out: list[str] = []
    for k, word in enumerate(args):
        if word == "--":
            out.extend(args[k:])
            break
        if word in OPTIONAL_VALUES and (k + 1 == len(args) or args[k + 1].startswith("-")):
            word = f"{word}={OPTIONAL_VALUES[word]}"
        out.append(word)
    return out


def _load() -> None:
    for name in _MODULES:
        try:
            importlib.import_module(f"ginrummy.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"ginrummy.cli.{name}":
                raise


#: The type checker's wording of a bad number (Typer reads options through pydantic), and what
#: ``gin`` says instead: what kind of value the option takes.
_PLAIN = {
    "Input should be a valid integer, unable to parse string as an integer": "a whole number is needed (digits only, e.g. 1000)",
    "Input should be a valid number, unable to parse string as a number": "a number is needed (e.g. 0.5)",
}


#: The type checker's wording of a bound (``Input should be less than or equal to 65535``) and
#: what ``gin`` says instead; the bound is kept.
_PLAIN_BOUNDS = (
    (re.compile(r"Input should be less than or equal to (\S+)"), r"the largest allowed is \1"),
    (re.compile(r"Input should be greater than or equal to (\S+)"), r"the smallest allowed is \1"),
    (re.compile(r"Input should be less than (\S+)"), r"it must be below \1"),
    (re.compile(r"Input should be greater than (\S+)"), r"it must be above \1"),
    (re.compile(r"Input should be (.+)"), r"allowed: \1"),
)


def _plain(message: str) -> str:
    """``message`` with the type checker's wording of a bad value replaced by the project's:
    :data:`_PLAIN` for a value of the wrong kind, :data:`_PLAIN_BOUNDS` for one out of range
    (``--port 99999``: "the largest allowed is 65535")."""
    for said, meant in _PLAIN.items():
        message = message.replace(said, meant)
    for pattern, replacement in _PLAIN_BOUNDS:
        message = pattern.sub(replacement, message)
    return message


def _label_flags(command: object) -> None:
    """Show no value after a flag in the help of ``command`` and its subcommands.

    Typer's help labels every option with its Python type, a flag too (``--json <bool>``,
    ``--help <bool>``), which reads as if the flag took a value; a flag given an empty
    metavar shows none.  (Options that take values keep their label; a repeatable one names
    its value itself, e.g. ``--set KEY=VALUE``.)  The help option is made on first use, so it
    is made here, from a bare context, to be labelled too."""
    get_params = getattr(command, "get_params", None)
    params = get_params(_Context(command)) if get_params is not None else []  # type: ignore[arg-type]
    for param in params:
        if getattr(param, "is_flag", False) and not getattr(param, "count", False) and param.metavar is None:
            param.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        _label_flags(sub)


def _print_version(value: bool) -> None:
    """``--version``: print ``gin <version>`` (``ginrummy.__version__``) and exit 0."""
    if value:
        from .. import __version__

        print(f"gin {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", is_eager=True, callback=_print_version, help="Print the version (gin X.Y.Z) and exit."
    ),
) -> None:
    """Gin Rummy: play at the terminal or in the browser, keep score, simulate, analyse."""


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``gin`` script; returns the exit status.

    Usage errors (unknown option, missing argument) exit with status 2 and one line on stderr.
    """
    _load()
    command = typer.main.get_command(app)
    _label_flags(command)
    try:
        # with standalone_mode=False, Click returns the code of a typer.Exit raised in a command
        args = _fill_optional_values(list(argv if argv is not None else sys.argv[1:]))
        status = command.main(args=args, prog_name="gin", standalone_mode=False)
    except _cx.NoArgsIsHelpError as exc:
        print(exc.ctx.get_help() if exc.ctx else "")
        return 0
    except _cx.ClickException as exc:
        print(f"gin: error: {_plain(' '.join(exc.format_message().split()))}", file=sys.stderr)
        return 2
    except typer.Exit as exc:
        return exc.exit_code
    except BrokenPipeError:
        return 0
    except typer.Abort:
        print("gin: aborted", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        return 130
    return status if isinstance(status, int) and not isinstance(status, bool) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


def run() -> None:
    """Console-script entry point: exits with :func:`main`'s status."""
    sys.exit(main())
