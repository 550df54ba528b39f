"""``gin sheet``: the score sheet from deal results (R10.5, R10.6, R11, R12).  Commands run
in-process via ``main([...])``."""

from __future__ import annotations

import json

import pytest

from ginrummy.cli.main import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def sheet_json(capsys, *argv: str) -> dict:
    rc, out, err = run(capsys, "sheet", "--json", *argv)
    assert rc == 0, err
    assert err == ""
    return json.loads(out)


def zero_bonuses(*names: str) -> dict:
    return {n: {"game": 0, "box": 0} for n in names}


def test_r12_worked_example(capsys):
    # R12: Bob 10, Alexandra 18, Bob 30 (his 2nd win: games 1, 2), Bob 4 (3rd: games 1-3).
    data = sheet_json(capsys, "--preset", "hollywood", "--players", "Alexandra,Bob",
                      "Bob:10", "Alexandra:18", "Bob:30", "Bob:4")
    assert data == {
        "scoring": "hollywood",
        "target": 100,
        "games": [
            {"number": 1, "points": {"Alexandra": 18, "Bob": 44}, "deals_won": {"Alexandra": 1, "Bob": 3},
             "finished": False, "winner": None, "bonuses": zero_bonuses("Alexandra", "Bob"),
             "total": {"Alexandra": 18, "Bob": 44}},
            {"number": 2, "points": {"Alexandra": 0, "Bob": 34}, "deals_won": {"Alexandra": 0, "Bob": 2},
             "finished": False, "winner": None, "bonuses": zero_bonuses("Alexandra", "Bob"),
             "total": {"Alexandra": 0, "Bob": 34}},
            {"number": 3, "points": {"Alexandra": 0, "Bob": 4}, "deals_won": {"Alexandra": 0, "Bob": 1},
             "finished": False, "winner": None, "bonuses": zero_bonuses("Alexandra", "Bob"),
             "total": {"Alexandra": 0, "Bob": 4}},
        ],
        "totals": {"Alexandra": 18, "Bob": 82},
        "finished": False,
        "match_winner": None,
    }
    # the dict keeps the --players order
    assert list(data["totals"]) == ["Alexandra", "Bob"]


def test_names_inferred_in_order_of_first_appearance(capsys):
    data = sheet_json(capsys, "--preset", "hollywood", "Bob:10", "alexandra:18", "BOB:30", "Bob:4")
    assert list(data["totals"]) == ["Bob", "alexandra"]
    assert data["totals"] == {"Bob": 82, "alexandra": 18}


def test_game_and_box_bonuses(capsys):
    # R11.3: Bob reaches 105 and wins; Ann scored 10 (no shutout): game bonus 100; box bonus
    # 25 per deal won: Bob 2, Ann 1.  The draw (R7) changes nothing.
    data = sheet_json(capsys, "Bob:60", "draw", "Ann:10", "Bob:45")
    assert data == {
        "scoring": "game",
        "target": 100,
        "games": [
            {"number": 1, "points": {"Bob": 105, "Ann": 10}, "deals_won": {"Bob": 2, "Ann": 1},
             "finished": True, "winner": "Bob",
             "bonuses": {"Bob": {"game": 100, "box": 50}, "Ann": {"game": 0, "box": 25}},
             "total": {"Bob": 255, "Ann": 35}},
        ],
        "totals": {"Bob": 255, "Ann": 35},
        "finished": True,
        "match_winner": "Bob",
    }


def test_shutout_doubles_the_game_bonus(capsys):
    # R11.3: Ann never scored: Bob's game bonus is 200; plus 2 box bonuses.
    data = sheet_json(capsys, "--players", "Ann,Bob", "Bob:60", "Bob:45")
    game = data["games"][0]
    assert game["bonuses"] == {"Ann": {"game": 0, "box": 0}, "Bob": {"game": 200, "box": 50}}
    assert data["totals"] == {"Ann": 0, "Bob": 355}
    off = sheet_json(capsys, "--set", "shutout_doubles=false", "--players", "Ann,Bob", "Bob:60", "Bob:45")
    assert off["totals"] == {"Ann": 0, "Bob": 255}


def test_classic_has_no_bonuses_and_target_override(capsys):
    data = sheet_json(capsys, "--preset", "classic", "--set", "target=250", "Bob:60", "Ann:10", "Bob:45")
    assert data["target"] == 250
    assert data["finished"] is False
    assert data["games"][0]["bonuses"] == zero_bonuses("Bob", "Ann")


def test_hollywood_finished_game_bonuses(capsys):
    # R12.4: game 1 finishes at Bob 110 (30 + 80); game 2 has only Bob's 2nd win (80).
    data = sheet_json(capsys, "--preset", "hollywood", "--players", "Ann,Bob", "Bob:30", "Bob:80", "Ann:5")
    g1, g2, g3 = data["games"]
    assert (g1["finished"], g1["winner"], g1["points"]) == (True, "Bob", {"Ann": 0, "Bob": 110})
    assert g1["bonuses"] == {"Ann": {"game": 0, "box": 0}, "Bob": {"game": 200, "box": 50}}
    # Ann's 1st win goes to game 1, which is finished: written nowhere (R12.3)
    assert (g2["finished"], g2["points"], g3["points"]) == (False, {"Ann": 0, "Bob": 80}, {"Ann": 0, "Bob": 0})
    assert data["totals"] == {"Ann": 0, "Bob": 440}


def test_three_hand_no_bonuses(capsys):
    # R10.5, R10.6: three names: three-hand scoring, one game, no bonuses.
    data = sheet_json(capsys, "A:50", "B:30", "draw", "C:100")
    assert data["games"][0]["points"] == {"A": 50, "B": 30, "C": 100}
    assert data["games"][0]["bonuses"] == zero_bonuses("A", "B", "C")
    assert (data["finished"], data["match_winner"], data["totals"]) == (True, "C", {"A": 50, "B": 30, "C": 100})


def test_empty_sheet_with_players(capsys):
    data = sheet_json(capsys, "--players", "Ann,Bob")
    assert data["totals"] == {"Ann": 0, "Bob": 0} and data["finished"] is False


def test_readable_hollywood_sheet(capsys):
    rc, out, err = run(capsys, "sheet", "--preset", "hollywood", "--players", "Alexandra,Bob",
                       "Bob:10", "Alexandra:18", "Bob:30", "Bob:4")
    assert rc == 0 and err == ""
    # each column: the name, whole, above its game number (no "Alexand…" in some columns only)
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if "Alexandra" in line and "Bob" in line)
    assert [c.strip() for c in lines[head].split("┃")[2:-1]] == ["Alexandra"] * 3 + ["Bob"] * 3
    assert [c.strip() for c in lines[head + 1].split("┃")[2:-1]] == ["G1", "G2", "G3"] * 2
    assert "…" not in out
    assert "Totals: Alexandra 18, Bob 82" in out
    rc, out, err = run(capsys, "sheet", "Bob:60", "draw", "Ann:10", "Bob:45")
    assert "box bonus" in out and "Match over: won by Bob." in out


def test_match_winner_named_you(capsys):
    """A player named You: "won by You", never "You wins"."""
    rc, out, err = run(capsys, "sheet", "You:60", "Ann:10", "You:45")
    assert rc == 0 and err == ""
    assert out.splitlines()[-3:] == ["Game 1: won by You", "Totals: You 255, Ann 35", "Match over: won by You."]


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["A:1", "B:2", "C:3", "D:4"], "name 4 players"),
        (["Bob:10", "Bob:20"], "only Bob; give the players with --players"),
        ([], "no player"),
        (["--players", "Ann,Bob", "Carl:10"], "'Carl' is not a player"),
        (["--players", "Ann,Bob", "Ann:ten"], "points 'ten' is not a whole number of points (allowed: 1 to 123"),
        (["--players", "Ann,Bob", "Ann:-5"], "is negative (allowed: 1 to 123"),
        (["--players", "Ann,Bob", "Ann:five"], "is not a whole number of points (allowed: 1 to 123"),
        (["--players", "Ann,ann"], "must differ"),
        (["--players", "Ann"], "2 or 3 players"),
        (["--players", "Ann,,Bob"], "cannot be empty"),
        (["Ann:100", "Bob:10"], "result 'Bob:10' (deal 2): the match was already over after deal 1"),
        (["--preset", "hollywood", "A:1", "B:2", "C:3"], "two players (R10.6)"),
        (["--set", "players=3", "Ann:1", "Bob:2"], "three players"),
        (["Ann10", "Bob:3"], "not understood"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, needle):
    rc, out, err = run(capsys, "sheet", *argv)
    assert rc == 2
    assert out == ""
    assert err.startswith("gin: error: ") and err.count("\n") == 1
    assert needle in err


@pytest.mark.parametrize("argv, least", [([], 1), (["--set", "undercut_bonus=0"], 0), (["--preset", "straight"], 25)])
def test_points_that_are_not_a_number_name_the_range_the_range_check_allows(capsys, argv, least):
    """gin sheet A:-5 names the range of won-deal scores (scoring.min_deal_score to
    max_deal_score, R6, R7) that A:0 is then checked against, not a looser ">= 0"."""
    from ginrummy.rules import make_rules
    from ginrummy.scoring import max_deal_score, min_deal_score

    rules = make_rules("straight" if "straight" in argv else "standard", [a for a in argv if "=" in a])
    assert min_deal_score(rules) == least
    allowed = (f"(allowed: {least} to {max_deal_score(rules)} points; a deal nobody won is a draw, R6, R7)")
    rc, out, err = run(capsys, "sheet", *argv, "--players", "A,B", "A:-5")
    assert (rc, out) == (2, "")
    assert " ".join(err.split()) == f"gin: error: result 'A:-5': points '-5' is negative {allowed}"
    if least:
        rc, out, err = run(capsys, "sheet", *argv, "--players", "A,B", f"A:{least - 1}")
        assert rc == 2 and " ".join(err.split()).endswith(f"is less than a won deal scores under these rules {allowed}")
