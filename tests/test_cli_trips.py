"""What a new player tripped on at the terminal (issue 34, "The terminal"): errors quote the
person's own text and say what is allowed in the project's words (never a library's wording or
a Python exception), totals that jump by a game's bonuses say so (R11.3), a result line that
cannot be read as the ``gin: error:`` prefix, and help that is not cut at 80 columns."""

from __future__ import annotations

import pytest

from ginrummy.cli.main import main
from ginrummy.rules import RuleSet
from ginrummy.text_view import rules_text, text_observation
from ginrummy.views import view_of
from helpers import deal

GOLDEN = "tests/golden/records/standard.gin"


@pytest.fixture(autouse=True)
def _plain_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_a_result_after_the_match_is_over_is_quoted_as_typed(capsys):
    status, out, err = run(capsys, "sheet", "--players", "Ann,Bob", "Ann:10", "draw", "Bob:30", "Ann:100", "Bob:5")
    assert status == 2 and out == ""
    assert err == (
        "gin: error: result 'Bob:5' (deal 5): the match was already over after deal 4 (Ann won it); "
        "leave out the results after it\n"
    )


def test_negative_points_are_called_negative_not_a_bad_whole_number(capsys):
    status, _, err = run(capsys, "sheet", "--players", "Ann,Bob", "Ann:-5")
    assert status == 2
    assert err == (
        "gin: error: result 'Ann:-5': points '-5' is negative (allowed: 1 to 123 points; "
        "a deal nobody won is a draw, R6, R7)\n"
    )


def test_one_name_without_players_still_reports_the_bad_points_first(capsys):
    status, _, err = run(capsys, "sheet", "Ann:10", "Ann:ten")
    assert status == 2 and "points 'ten' is not a whole number of points" in err
    status, _, err = run(capsys, "sheet", "Ann:10")  # points fine: the missing name is the error
    assert err == "gin: error: the results name only Ann; give the players with --players A,B (or A,B,C)\n"


@pytest.mark.parametrize("command", [["replay"], ["verify"], ["review"]])
def test_a_binary_file_is_named_as_not_text_without_the_codec_wording(capsys, tmp_path, command):
    path = tmp_path / "noise.gin"
    path.write_bytes(b"gin-record 1\n\xa3\xff\x00binary")
    status, _, err = run(capsys, *command, str(path))
    assert status == 2
    assert (
        err
        == f"gin: error: cannot read {path}: it is not a text file (byte 14 is not UTF-8); a game record is UTF-8 text\n"
    )
    assert "codec" not in err and "0xa3" not in err


def test_a_folder_is_named_as_a_folder(capsys, tmp_path):
    status, _, err = run(capsys, "replay", str(tmp_path))
    assert (status, err) == (2, f"gin: error: cannot read {tmp_path}: it is a folder, not a file\n")


@pytest.mark.parametrize(
    "args, said",
    [
        (["serve", "--port", "99999"], "gin: error: Invalid value for '--port': the largest allowed is 65535\n"),
        (["serve", "--port", "-5"], "gin: error: Invalid value for '--port': the smallest allowed is 0\n"),
        (["bot", "--rematches", "500"], "gin: error: Invalid value for '--rematches': the largest allowed is 100\n"),
    ],
)
def test_out_of_range_options_are_said_in_the_projects_words(capsys, args, said):
    status, _, err = run(capsys, *args)
    assert (status, err) == (2, said)
    assert "Input should be" not in err


def test_a_score_result_line_cannot_be_read_as_the_error_prefix(capsys):
    status, out, _ = run(
        capsys, "score", "--knocker", "AS 2S 3S 4S 4H 5H 6H 7C 7D 7S", "--defender", "2C 3D 4C 5D 6C 8C 9D TD JC QH"
    )
    assert status == 0
    first = out.splitlines()[0]
    assert first == "Result: gin \u2014 the knocker wins the gin bonus plus the defender's deadwood (R6.1)"


def test_replay_says_when_totals_include_the_bonuses_of_a_finished_game(capsys):
    status, out, _ = run(capsys, "replay", GOLDEN)
    assert status == 0
    lines = out.splitlines()
    assert lines[-3] == "deal 9: dealer Ann; knock by Bob; 31 points to Bob; totals Ann 74, Bob 91"
    assert lines[-2] == (
        "deal 10: dealer Bob; knock by Bob; 28 points to Bob; game points Ann 74, Bob 119; "
        "with the bonuses of finished games (R11.3) totals Ann 174, Bob 369"
    )


def test_bot_help_at_80_columns_cuts_no_word(capsys):
    status, out, _ = run(capsys, "bot", "--help")
    assert status == 0
    assert "\u2026" not in out  # Rich marks a cut cell with an ellipsis
    assert "http://HOST/table/ID" in out and "?invite=CODE" in out


def test_text_of_a_lone_deal_does_not_promise_a_game_to_100_and_counts_once():
    state = deal("AS 2S 3S 4H 4D 4C 7C 8C 9C KD", "5S 7S 9S TH QH 2D 6D 8D JS KH", upcard="KC")
    text = text_observation(view_of(state, 0))
    assert "a game to 100" not in text
    assert "Scoring: this deal is played alone, not as part of a game; its points are scored as in R6." in text
    once = rules_text(RuleSet(stock_end="reshuffle", max_reshuffles=1), 10)
    assert "at most once; then the deal is a draw (R7.3)" in once and "1 times" not in once
    assert "counts twice (R9.3)" in rules_text(RuleSet(), 10, multiplier=2)


def test_gin_bot_says_which_fair_deal_checks_could_not_be_made():
    """A daily deal has no client seed of the bot's: its check could not be made, nothing failed
    (the new-user trial read "0 of 1 deals passed" as a failure, and --server exited 1)."""
    from types import SimpleNamespace as C

    from ginrummy.cli.bot import _checks_text

    assert _checks_text([C(ok=True), C(ok=True)]) == "fair-deal checks: 2 of 2 deals passed"
    assert _checks_text([C(ok=None)]) == (
        "fair-deal checks: 0 of 0 deals passed (1 could not be made: no client seed of this seat in them)"
    )
    assert _checks_text([C(ok=True), C(ok=False), C(ok=None)]) == (
        "fair-deal checks: 1 of 2 deals passed (1 could not be made: no client seed of this seat in them), SOME FAILED"
    )
