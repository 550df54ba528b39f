"""What a new user tripped on at the terminal (issue 14, item 7): values and cards echoed as
typed, help and action lists offering only what the rules allow (R6.5, R8.1), prompts that do
not take any text for Enter, and the rules named by preset and changes (R13, R14)."""

from __future__ import annotations

import io

import pytest

from ginrummy.cli import render as R
from ginrummy.cli.main import main
from ginrummy.cli.play import help_text
from ginrummy.i18n import translator
from ginrummy.rules import make_rules, preset


@pytest.fixture(autouse=True)
def _plain_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)


class _Tty(io.StringIO):
    """Typed lines, as from a terminal (the prompts between computer moves are asked)."""

    def isatty(self) -> bool:
        return True


def play(monkeypatch, capsys, args, lines, tty=False):
    text = "".join(line + "\n" for line in lines)
    monkeypatch.setattr("sys.stdin", _Tty(text) if tty else io.StringIO(text))
    status = main(["play", "--delay", "0", "--no-clear", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.parametrize("override, shown", [
    ("gin_bonus=true", "rule gin_bonus=true is not a whole number"),
    ("knock_limit=null", "rule knock_limit=null is not a whole number"),
    ("spade_doubles=1", "rule spade_doubles=1 must be true or false"),
    ("stock_end=Wall", 'rule stock_end="Wall" is not allowed; allowed: "draw_at_two", "wall", "reshuffle"'),
])
def test_rule_values_are_echoed_as_typed(capsys, override, shown):
    """R14: a --set value is echoed in the command line's (JSON) form, never Python's True/None."""
    assert main(["sheet", "--set", override]) == 2
    err = capsys.readouterr().err
    assert shown in err and "True" not in err and "None" not in err


def test_a_bad_card_is_echoed_as_typed(monkeypatch, capsys):
    """R1.4: '11H' is not a card, and the error quotes '11H', not a lower-cased '11h'."""
    status, out, _ = play(monkeypatch, capsys, ["--seed", "1"], ["11H", "Kx", "quit"])
    assert "not a card: '11H'" in out and "'11h'" not in out
    assert "not a card: 'Kx'" in out and "'kx'" not in out


def test_help_offers_only_what_the_rules_allow():
    tr = translator("en")
    standard = help_text(tr, preset("standard"))
    assert "big gin" not in standard and "k 7H, knock 7H" in standard           # R6.5 off by default
    assert "  big gin " in help_text(tr, make_rules("standard", ["big_gin_bonus=31"]))
    straight = help_text(tr, preset("straight"))
    assert "knock 7H" not in straight and "g 7H, gin 7H" in straight              # R8.1: no knocking
    for lang in ("el", "fi", "mt", "fr", "es", "de"):
        text = help_text(translator(lang), preset("straight"))
        assert "big gin" not in text and "knock 7H" not in text and "g 7H, gin 7H" in text
        assert "  big gin " in help_text(translator(lang), make_rules("straight", ["big_gin_bonus=31"]))


def test_not_an_action_names_the_moves_legal_now(monkeypatch, capsys):
    """At the upcard offer (R4.2) the refusal names the two moves allowed there, with their
    short commands, as the Legal: line does; in the discard phase, the discard and its form."""
    status, out, _ = play(monkeypatch, capsys, ["--seed", "1"], ["xyz", "help", "quit"])
    assert "not an action: 'xyz'; now: take upcard (u); pass (p); type help for the commands" in out
    assert "big gin" not in out
    status, out, _ = play(monkeypatch, capsys, ["--seed", "1"], ["p", "s", "xyz", "quit"])
    line = next(x for x in out.splitlines() if "not an action: 'xyz'" in x)
    assert "; now: discard a card (type it, e.g. " in line and "draw stock" not in line


def test_text_at_an_enter_prompt_is_not_taken_for_enter(monkeypatch, capsys):
    """Seed 4, three-hand (R10.1): the person sits out the first deal, so the table asks for
    Enter between the computers' moves; other text is refused and asked again."""
    status, out, _ = play(monkeypatch, capsys, ["--seed", "4", "--players", "3"], ["xyz", "quit"], tty=True)
    assert "'xyz': not a choice here; press Enter for the next move, or type run or quit" in out
    assert "You quit the match." in out


def test_text_at_next_deal_prompt_is_not_taken_for_enter(monkeypatch, capsys):
    """After a deal (played out by 'auto'), 'xyz' at "Enter for the next deal" is refused and
    echoed as typed; Enter then starts deal 2."""
    status, out, _ = play(monkeypatch, capsys, ["--seed", "3"], ["auto"] * 80)
    moves = out[:out.index("Enter for the next deal")].count("Auto: ")  # the person's moves in deal 1
    status, out, _ = play(monkeypatch, capsys, ["--seed", "3"], ["auto"] * moves + ["Xyz", "", "quit"])
    first_end = out.index("Enter for the next deal")
    assert "Deal 2" not in out[:first_end]
    assert "'Xyz': the deal is over; press Enter for the next deal, or type review, sheet or quit" in out[first_end:]
    assert "Deal 2" in out[out.index("'Xyz': the deal is over"):]


def test_rules_are_named_by_preset_and_changes(monkeypatch, capsys):
    """R10, R13, R14: three players are not a change of rules; a changed field is named."""
    assert R.rules_label(preset("standard").replace(players=3)) == "standard"
    assert R.rules_label(make_rules("oklahoma", ["gin_bonus=30", "big_gin_bonus=31"])) == "oklahoma, gin_bonus=30, big_gin_bonus=31"
    status, out, _ = play(monkeypatch, capsys, ["--seed", "1", "--players", "3"], ["quit"])
    assert "Rules: standard (standard gin, game scoring, target 100)." in out
    assert "+custom" not in out
    status, out, _ = play(monkeypatch, capsys, ["--seed", "1", "--set", "stock_end=wall"], ["quit"])
    assert 'rules standard, stock_end="wall" · seed 1' in out


COMMANDS = ["analyze", "score", "sheet", "replay", "verify", "review", "simulate", "play", "serve", "ladder",
            "db upgrade"]


def option_rows(capsys, *command: str) -> dict[str, list[str]]:
    """The words of each option's row in ``gin COMMAND --help``: {"--set": ["KEY=VALUE", "Override", ...]}."""
    assert main([*command, "--help"]) == 0
    rows = {}
    for line in capsys.readouterr().out.splitlines():
        words = line.strip("│ ").split()
        if line.startswith("│") and words and words[0] in ("*",):
            words = words[1:]
        if line.startswith("│") and words and words[0].startswith("--"):
            rows[words[0]] = words[1:]
    return rows


def test_help_shows_no_value_after_a_flag_and_names_a_repeatable_value(capsys):
    """Typer labels each option with its Python type: a flag read "--json <bool>" (as if it took
    a value) and --set "<list[str]>".  A flag shows no value, a repeatable option its value."""
    rows = option_rows(capsys, "sheet")
    assert {opt: words[0] for opt, words in rows.items()} == {
        "--players": "<str>", "--preset": "<str>", "--set": "KEY=VALUE", "--json": "Print", "--help": "Show"}
    assert rows["--json"][:2] == ["Print", "the"] and rows["--help"][:2] == ["Show", "this"]
    score = option_rows(capsys, "score")
    assert (score["--knocker"][0], score["--defender"][0], score["--set"][0]) == ("CARDS", "CARDS", "KEY=VALUE")
    assert option_rows(capsys) == {"--version": ["Print", "the", "version", "(gin", "X.Y.Z)", "and", "exit."],
                                   "--help": ["Show", "this", "message", "and", "exit."]}
    for command in COMMANDS:
        rows = option_rows(capsys, *command.split())
        assert rows["--help"][0] == "Show", command
        labels = [words[0] for words in rows.values()]
        assert not [x for x in labels if x == "<bool>" or "list[" in x], command
    assert option_rows(capsys, "play")["--no-clear"][:2] == ["Do", "not"]
    assert option_rows(capsys, "replay")["--record"][:2] == ["For", "a"]


def test_help_paragraphs_flow_at_80_columns_and_keep_their_brackets(capsys, monkeypatch):
    """The commands' help is Markdown (rich_markup_mode): a docstring's hard line breaks do not
    break the help's lines at a narrow terminal ("... the\\n starting box,\\n captain ..."), and
    "ginrummy[postgres]" is not read as a Rich style tag (it printed "ginrummy")."""
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["simulate", "--help"]) == 0
    out = capsys.readouterr().out
    lines = [line.strip() for line in out.splitlines()]
    assert "Seats and the first dealer rotate fairly between games (three-hand: the" in lines
    assert "starting box, captain and sitter-out).  The summary gives each player's games" in lines
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    words = " ".join(w for w in out.replace("\u2502", " ").split())
    assert "or a postgresql:// URL with the ginrummy[postgres] extra" in words
    assert "\u2026" not in out  # nothing cut short


def test_gin_version_prints_the_package_version(capsys):
    """``gin --version`` (issue 30): one line, the version of ginrummy.__version__, exit 0."""
    from ginrummy import __version__

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"gin {__version__}\n"
