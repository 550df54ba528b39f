"""``gin score``: layouts and score of a knock, undercut, gin, big gin (R5.2-R5.5, R6,
R8.1, R9); exact JSON of hand-checked deals.  Commands run in-process via ``main([...])``."""

from __future__ import annotations

import json

import pytest

from ginrummy.cli.main import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def score_json(capsys, *argv: str) -> dict:
    rc, out, err = run(capsys, "score", "--json", *argv)
    assert rc == 0, err
    assert err == ""
    return json.loads(out)


# Knocker: set KC KD KS, runs 4H 5H 6H and AS 2S 3S, deadwood 2C (K = 2).
KNOCKER = "KC KD KS 4H 5H 6H AS 2S 3S 2C"
# Defender: no melds of his own; lays off KH on the kings, 3H below the heart run and 7H, 8H
# above it (a chain: 8H only fits once 7H is laid, R5.4), 4S on the spade run.  Left:
# 9C TD JC QD 5C = 9 + 10 + 10 + 10 + 5 = 44 (D = 44).
DEFENDER = "KH 3H 7H 8H 4S 9C TD JC QD 5C"

KNOCK_LAYOUT = {
    "melds": [["KC", "KD", "KS"], ["4H", "5H", "6H"], ["AS", "2S", "3S"]],
    "deadwood": ["2C"],
    "deadwood_value": 2,
}


def test_knock_with_chained_layoffs(capsys):
    # R6.2: K = 2 < D = 44: the knocker scores 42.
    assert score_json(capsys, "--knocker", KNOCKER, "--defender", DEFENDER) == {
        "outcome": "knock",
        "knocker": KNOCK_LAYOUT,
        "defender": {
            "melds": [],
            "layoffs": [
                {"card": "KH", "onto": ["KC", "KD", "KS"]},
                {"card": "3H", "onto": ["4H", "5H", "6H"]},
                {"card": "7H", "onto": ["3H", "4H", "5H", "6H"]},
                {"card": "8H", "onto": ["3H", "4H", "5H", "6H", "7H"]},
                {"card": "4S", "onto": ["AS", "2S", "3S"]},
            ],
            "deadwood": ["5C", "9C", "JC", "TD", "QD"],
            "deadwood_value": 44,
        },
        "winner": "knocker",
        "points": 42,
        "multiplier": 1,
    }


def test_cards_may_be_given_in_several_option_values(capsys):
    a = score_json(capsys, "--knocker", "KC,KD,KS", "--knocker", "4H 5H 6H AS 2S 3S 2C", "--defender", DEFENDER)
    assert a["points"] == 42 and a["knocker"] == KNOCK_LAYOUT


# Undercut hands: the defender melds 8C-JC and 7D-TD, keeps 2D 3D (D = 5), lays nothing off.
UNDERCUT_DEFENDER = "8C 9C TC JC 7D 8D 9D TD 2D 3D"
UNDERCUT_DEFENDER_LAYOUT = {
    "melds": [["8C", "9C", "TC", "JC"], ["7D", "8D", "9D", "TD"]],
    "layoffs": [],
    "deadwood": ["2D", "3D"],
    "deadwood_value": 5,
}


def test_undercut_tie_goes_to_the_defender(capsys):
    # R6.3: K = 5 (5C) and D = 5: a tie is an undercut; the defender scores 25 + 0.
    data = score_json(capsys, "--knocker", "KC KD KS 4H 5H 6H AS 2S 3S 5C", "--defender", UNDERCUT_DEFENDER)
    assert data == {
        "outcome": "undercut",
        "knocker": {
            "melds": [["KC", "KD", "KS"], ["4H", "5H", "6H"], ["AS", "2S", "3S"]],
            "deadwood": ["5C"],
            "deadwood_value": 5,
        },
        "defender": UNDERCUT_DEFENDER_LAYOUT,
        "winner": "defender",
        "points": 25,
        "multiplier": 1,
    }


def test_undercut_with_difference_and_classic_bonus(capsys):
    # R6.3: K = 9 (9H) > D = 5: 25 + 4 = 29; the classic preset's undercut bonus is 10: 14.
    argv = ("--knocker", "KC KD KS 4H 5H 6H AS 2S 3S 9H", "--defender", UNDERCUT_DEFENDER)
    data = score_json(capsys, *argv)
    assert (data["outcome"], data["winner"], data["points"], data["defender"]) == ("undercut", "defender", 29, UNDERCUT_DEFENDER_LAYOUT)
    assert score_json(capsys, "--preset", "classic", *argv)["points"] == 14


# Gin: AS 2S 3S, 4H-7H, KC KD KS.  The defender holds KH, 8H and 4S, which would lay off on
# a knock, but never on gin (R5.4, R6.1): D = 10+8+4+9+10+10+10+5+2+3 = 71.
GIN_KNOCKER = "AS 2S 3S 4H 5H 6H 7H KC KD KS"
GIN_DEFENDER = "KH 8H 4S 9C TD JC QD 5C 2D 3D"


def test_gin_defender_lays_nothing_off(capsys):
    assert score_json(capsys, "--knocker", GIN_KNOCKER, "--defender", GIN_DEFENDER) == {
        "outcome": "gin",
        "knocker": {
            "melds": [["KC", "KD", "KS"], ["4H", "5H", "6H", "7H"], ["AS", "2S", "3S"]],
            "deadwood": [],
            "deadwood_value": 0,
        },
        "defender": {
            "melds": [],
            "layoffs": [],
            "deadwood": ["5C", "9C", "JC", "2D", "3D", "TD", "QD", "8H", "KH", "4S"],
            "deadwood_value": 71,
        },
        "winner": "knocker",
        "points": 96,  # R6.1: 25 + 71
        "multiplier": 1,
    }


def test_gin_under_straight_and_oklahoma_ace(capsys):
    # Only gin ends these deals (R8.1, R9.2), and gin does.
    assert score_json(capsys, "--preset", "straight", "--knocker", GIN_KNOCKER, "--defender", GIN_DEFENDER)["points"] == 96
    data = score_json(capsys, "--preset", "oklahoma", "--upcard", "AC", "--knocker", GIN_KNOCKER, "--defender", GIN_DEFENDER)
    assert (data["outcome"], data["points"], data["multiplier"]) == ("gin", 96, 1)


def test_big_gin_with_bonus_31(capsys):
    # R6.5: eleven cards all melded (AS 2S 3S, 4H-7H, four kings); defender:
    # 8H 4S 9C TD JC QD 5C 2D 3D QS = 8+4+9+10+10+10+5+2+3+10 = 71, no meld (QD QS only two).
    data = score_json(capsys, "--set", "big_gin_bonus=31", "--knocker", GIN_KNOCKER + " KH",
                      "--defender", "8H 4S 9C TD JC QD 5C 2D 3D QS")
    assert data == {
        "outcome": "big_gin",
        "knocker": {
            "melds": [["KC", "KD", "KH", "KS"], ["4H", "5H", "6H", "7H"], ["AS", "2S", "3S"]],
            "deadwood": [],
            "deadwood_value": 0,
        },
        "defender": {
            "melds": [],
            "layoffs": [],
            "deadwood": ["5C", "9C", "JC", "2D", "3D", "TD", "QD", "8H", "4S", "QS"],
            "deadwood_value": 71,
        },
        "winner": "knocker",
        "points": 102,  # 31 + 71
        "multiplier": 1,
    }


def test_oklahoma_spade_upcard_doubles(capsys):
    # R9.1: upcard 5S: knock limit 5 (K = 2 is fine); R9.3: a spade doubles: 2 * 42.
    data = score_json(capsys, "--preset", "oklahoma", "--upcard", "5S", "--knocker", KNOCKER, "--defender", DEFENDER)
    assert (data["outcome"], data["winner"], data["points"], data["multiplier"]) == ("knock", "knocker", 84, 2)
    assert data["knocker"] == KNOCK_LAYOUT
    # a diamond upcard does not double; spade_doubles=false switches doubling off
    assert score_json(capsys, "--preset", "oklahoma", "--upcard", "5D", "--knocker", KNOCKER, "--defender", DEFENDER)["points"] == 42
    off = score_json(capsys, "--preset", "oklahoma", "--set", "spade_doubles=false", "--upcard", "5S",
                     "--knocker", KNOCKER, "--defender", DEFENDER)
    assert (off["points"], off["multiplier"]) == (42, 1)


def test_oklahoma_spade_doubles_undercut_bonus(capsys):
    # R9.3: every score of the deal, bonuses included: (25 + 0) * 2 on a tie with upcard 6S.
    data = score_json(capsys, "--preset", "oklahoma", "--upcard", "6S",
                      "--knocker", "KC KD KS 4H 5H 6H AS 2S 3S 5C", "--defender", UNDERCUT_DEFENDER)
    assert (data["outcome"], data["points"], data["multiplier"]) == ("undercut", 50, 2)


def test_readable_output(capsys):
    rc, out, err = run(capsys, "score", "--knocker", KNOCKER, "--defender", DEFENDER)
    assert rc == 0 and err == ""
    assert "lays off 8H onto 3H 4H 5H 6H 7H" in out
    assert "The knocker scores 42 points." in out


def test_one_point_in_the_singular(capsys):
    """R6.2: K = 9 (9D), D = 10 (TH), nothing to lay off: the knocker scores 10 - 9 = 1 point."""
    rc, out, err = run(capsys, "score", "--knocker", "AS 2S 3S 4H 5H 6H 7C 8C 9C 9D",
                       "--defender", "KD KH KC QS JS TS 2D 3D 4D TH")
    assert rc == 0 and err == ""
    assert out.splitlines()[-1] == "The knocker scores 1 point."


@pytest.mark.parametrize(
    "argv, needle",
    [
        # R5.1: deadwood 11 (2C 9C) is above the knock limit 10
        (["--knocker", "KC KD KS 4H 5H 6H AS 2S 2C 9C", "--defender", "KH 3H 7H 8H 4S TC TD JC QD 5C"], "above the knock limit 10"),
        # R9.1: upcard 3C: K = 5 is above 3
        (["--preset", "oklahoma", "--upcard", "3C", "--knocker", "KC KD KS 4H 5H 6H AS 2S 3S 5C", "--defender", UNDERCUT_DEFENDER], "above the knock limit 3"),
        # R9.2: ace upcard: only gin
        (["--preset", "oklahoma", "--upcard", "AH", "--knocker", KNOCKER, "--defender", DEFENDER], "only gin"),
        # R8.1: Straight: no knocking
        (["--preset", "straight", "--knocker", KNOCKER, "--defender", DEFENDER], "only gin"),
        (["--preset", "oklahoma", "--knocker", KNOCKER, "--defender", DEFENDER], "give --upcard"),
        # R6.5: big gin is off by default
        (["--knocker", GIN_KNOCKER + " KH", "--defender", "8H 4S 9C TD JC QD 5C 2D 3D QS"], "big gin is not played"),
        (["--set", "big_gin_bonus=31", "--knocker", KNOCKER + " 9H", "--defender", DEFENDER], "big gin needs all 11 cards melded"),
        (["--knocker", KNOCKER, "--defender", "KH 3H 7H 8H 4S 9C TD JC QD 2C"], "2C given to both"),
        (["--knocker", KNOCKER, "--defender", "KH 3H 7H 8H 4S 9C TD JC QD"], "--defender: the defender holds 10 cards, not 9"),
        (["--knocker", "KC KD KS", "--defender", DEFENDER], "--knocker: the knocker lays out 10 cards"),
        (["--knocker", KNOCKER, "--defender", "KH 3H 7H 8H 4S 9C TD JC QD ZZ"], "--defender: not a card"),
        (["--upcard", "2C", "--knocker", KNOCKER, "--defender", DEFENDER], "--upcard 2C is also one of the cards"),
        (["--defender", DEFENDER], "--knocker"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, needle):
    rc, out, err = run(capsys, "score", *argv)
    assert rc == 2
    assert out == ""
    assert err.startswith("gin: error: ") and err.count("\n") == 1
    assert needle in err
