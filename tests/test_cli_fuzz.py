"""A fuzz of ``gin``'s arguments (issue 34): every command, each option given values it must
refuse (not a number, out of range, control characters, huge, empty), each file argument a
binary file, a folder or a missing path.  Every answer is one ``gin: error:`` line, exit 2
(``gin verify``: 1 or 3 for a record that does not check out), in the project's words: no
Python exception, no traceback and no library's wording ("Input should be", "codec",
"Traceback", an exception's class name) reaches the person.

Nothing is served or played: the server's start is replaced by a failure the test would see,
and standard input is empty."""

from __future__ import annotations

import io
import re

import pytest
import typer

from ginrummy.cli.main import _load, app, main

_load()
_ROOT = typer.main.get_command(app)

#: words of a library or of Python that must never reach a person
LEAKS = re.compile(
    r"Traceback|Input should be|codec|Error\(|Exception|pydantic|sqlalchemy|psycopg|"
    r"NoneType|object has no attribute|invalid literal|unhashable|KeyError|ValueError|TypeError"
)

#: values no option of that kind may accept
NUMBER_VALUES = ("abc", "", "1e999", "nan", "99999999999999999999999999", "-99999999999999999999999999", "0x10", "1_0")
TEXT_VALUES = ("", "\x00", "=", "a" * 5000, "../../etc/passwd", "nonsense", "\u202e")
#: text options whose values are checked before any work starts (the others are names and
#: free text a command takes as given: --name, --chat, --player...)
CHECKED_TEXT = {
    "--preset", "--set", "--lang", "--opponent", "--level", "--levels", "--theme", "--database-url",
    "--date", "--log-level", "--log-format", "--players", "--upcard", "--knocker", "--defender",
    "--public-url", "--metrics-allow", "--forwarded-allow-ips", "--seat", "--server", "--ray", "--commitment",
}


def _commands(command=_ROOT, path=()):
    subs = getattr(command, "commands", None)
    if subs:
        for name, sub in subs.items():
            yield from _commands(sub, (*path, name))
    else:
        yield path, command


def _cases():
    for path, command in _commands():
        for param in command.params:
            if param.param_type_name != "option" or not param.opts or getattr(param, "is_flag", False):
                continue
            option = param.opts[0]
            kind = getattr(param, "bare_type", None)
            if kind in (int, float):
                values = NUMBER_VALUES
            elif option in CHECKED_TEXT:
                # an empty value of an option whose default is empty is documented as that default
                # (--database-url: the SQLite file; --public-url, --forwarded-allow-ips: none)
                values = tuple(v for v in TEXT_VALUES if v or param.default != "")
            else:
                continue
            for value in values:
                yield pytest.param([*path, option, value], id=f"{' '.join(path)} {option} {value[:12]!r}")


@pytest.fixture(autouse=True)
def _nothing_runs(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))

    def refuse(*args, **kwargs):
        raise AssertionError("the server would have started: a bad value was accepted")

    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", refuse)


def _check(capsys, argv):
    try:
        status = main(argv)
    except SystemExit as exc:  # pragma: no cover - main returns its status
        status = exc.code
    out = capsys.readouterr()
    said = out.err + out.out
    assert not LEAKS.search(said), (argv, said)
    return status, out


@pytest.mark.parametrize("argv", list(_cases()))
def test_bad_option_values_get_one_line_in_our_words(capsys, argv):
    status, out = _check(capsys, argv)
    assert status == 2, (argv, out.err, out.out[:300])
    assert out.err.startswith("gin: error: ") and out.err.count("\n") == 1, (argv, out.err)


@pytest.fixture
def bad_paths(tmp_path):
    binary = tmp_path / "noise.gin"
    binary.write_bytes(bytes(range(256)) * 4)
    return {"binary": str(binary), "folder": str(tmp_path), "missing": str(tmp_path / "none.gin")}


@pytest.mark.parametrize("command", [["replay"], ["verify"], ["review"], ["puzzles", "mine", "--out", "/dev/null"],
                                     ["puzzles", "play"], ["daily", "verify"]])
@pytest.mark.parametrize("which", ["binary", "folder", "missing"])
def test_bad_files_get_one_line_in_our_words(capsys, bad_paths, command, which):
    status, out = _check(capsys, [*command, bad_paths[which]])
    assert status == 2, (command, which, out.err)
    assert out.err.startswith(f"gin: error: cannot read {bad_paths[which]}") or "puzzle" in out.err, out.err
