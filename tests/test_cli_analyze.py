"""``gin analyze``: melds and deadwood (R2), knock limit (R5.1, R8.1, R9.1, R9.2), big gin
(R6.5); exact JSON of hand-checked hands.  Commands run in-process via ``main([...])``."""

from __future__ import annotations

import json

import pytest

from ginrummy.cli.main import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def analyze_json(capsys, *argv: str) -> dict:
    rc, out, err = run(capsys, "analyze", "--json", *argv)
    assert rc == 0, err
    assert err == ""
    return json.loads(out)


# 7C 7D 7H set, 4H 5H 6H run, AS 2S 3S run; 9C deadwood (9 points).  7H could extend the
# heart run instead, but then 7C 7D are deadwood (23): the set is better (R2.4).
KNOCKABLE = "AS 2S 3S 7H 7D 7C 4H 5H 6H 9C"
GIN = "AS 2S 3S 4S 7H 7D 7C KC KD KH"


def test_gin_hand_standard(capsys):
    # R2.5: ten cards, deadwood 0; knocking is allowed (limit 10), so can_knock is true too.
    assert analyze_json(capsys, GIN) == {
        "cards": ["7C", "KC", "7D", "KD", "7H", "KH", "AS", "2S", "3S", "4S"],
        "melds": [["7C", "7D", "7H"], ["KC", "KD", "KH"], ["AS", "2S", "3S", "4S"]],
        "deadwood": [],
        "deadwood_value": 0,
        "knock_limit": 10,
        "can_knock": True,
        "is_gin": True,
    }


def test_knockable_hand_cards_in_one_argument_with_commas(capsys):
    data = analyze_json(capsys, "AS,2S,3S 7H,7D", "7C", "4H 5H 6H 9C")
    assert data == {
        "cards": ["7C", "9C", "7D", "4H", "5H", "6H", "7H", "AS", "2S", "3S"],
        "melds": [["7C", "7D", "7H"], ["4H", "5H", "6H"], ["AS", "2S", "3S"]],
        "deadwood": ["9C"],
        "deadwood_value": 9,
        "knock_limit": 10,
        "can_knock": True,
        "is_gin": False,
    }


def test_knock_limit_set_by_rule_override(capsys):
    # R5.1 with knock_limit 8 (R14): 9 deadwood is too much.
    data = analyze_json(capsys, "--set", "knock_limit=8", KNOCKABLE)
    assert (data["knock_limit"], data["can_knock"], data["deadwood_value"]) == (8, False, 9)


@pytest.mark.parametrize(
    "upcard, limit, can_knock",
    [
        ("8D", 8, False),  # R9.1: the upcard's value; 9 deadwood > 8
        ("9S", 9, True),  # R9.1: 9 deadwood <= 9 (the spade doubles the score, not the limit)
        ("KD", 10, True),  # R9.1: face cards count 10
        ("JS", 10, True),
        ("AD", None, False),  # R9.2: an ace upcard means gin only (oklahoma_ace="gin")
    ],
)
def test_oklahoma_upcard_limits(capsys, upcard, limit, can_knock):
    data = analyze_json(capsys, "--preset", "oklahoma", "--upcard", upcard, KNOCKABLE)
    assert (data["knock_limit"], data["can_knock"], data["is_gin"]) == (limit, can_knock, False)


def test_oklahoma_ace_one_option(capsys):
    # R9.2 option oklahoma_ace="one" (VALUE not JSON, so read as the string "one"): limit 1.
    data = analyze_json(capsys, "--preset", "oklahoma", "--set", "oklahoma_ace=one", "--upcard", "ad", KNOCKABLE)
    assert (data["knock_limit"], data["can_knock"]) == (1, False)


def test_oklahoma_ace_gin_hand_is_gin_but_cannot_knock(capsys):
    data = analyze_json(capsys, "--preset", "oklahoma", "--upcard", "AC", GIN)
    assert (data["knock_limit"], data["can_knock"], data["is_gin"]) == (None, False, True)


def test_straight_has_no_knock_limit(capsys):
    # R8.1: knocking is not allowed: knock_limit null, can_knock false even for gin.
    data = analyze_json(capsys, "--preset", "straight", KNOCKABLE)
    assert (data["knock_limit"], data["can_knock"], data["is_gin"]) == (None, False, False)
    data = analyze_json(capsys, "--preset", "straight", GIN)
    assert (data["knock_limit"], data["can_knock"], data["is_gin"], data["deadwood_value"]) == (None, False, True, 0)


def test_standard_ignores_upcard_value(capsys):
    data = analyze_json(capsys, "--upcard", "2D", KNOCKABLE)
    assert (data["knock_limit"], data["can_knock"]) == (10, True)


def test_eleven_cards_discards_in_order(capsys):
    # KNOCKABLE plus KD.  Deadwood after each discard, worked by hand:
    # KD 9 (9C left); 9C 10 (KD left); 3S 22 (AS 2S + 19); 2S 23; AS 24; 7C 26 (7D 9C KD, the
    # heart run takes 7H); 7D 26; 6H 28 (4H 5H + 19); 5H 29; 4H 30 (5H 6H + 19 beats the run
    # 5H 6H 7H with 7C 7D dead, 33); 7H 33 (7C 7D + 19).  Ties (7C, 7D) in card order.
    data = analyze_json(capsys, KNOCKABLE, "KD")
    assert data["cards"] == ["7C", "9C", "7D", "KD", "4H", "5H", "6H", "7H", "AS", "2S", "3S"]
    assert data["melds"] == [["7C", "7D", "7H"], ["4H", "5H", "6H"], ["AS", "2S", "3S"]]
    assert (data["deadwood"], data["deadwood_value"]) == (["9C", "KD"], 19)
    assert (data["knock_limit"], data["can_knock"], data["is_gin"], data["big_gin"]) == (10, True, False, False)
    summary = [(d["discard"], d["deadwood_value"], d["can_knock"], d["is_gin"]) for d in data["discards"]]
    assert summary == [
        ("KD", 9, True, False), ("9C", 10, True, False), ("3S", 22, False, False),
        ("2S", 23, False, False), ("AS", 24, False, False), ("7C", 26, False, False),
        ("7D", 26, False, False), ("6H", 28, False, False), ("5H", 29, False, False),
        ("4H", 30, False, False), ("7H", 33, False, False),
    ]
    assert data["discards"][0] == {
        "discard": "KD", "deadwood_value": 9, "can_knock": True, "is_gin": False,
        "melds": [["7C", "7D", "7H"], ["4H", "5H", "6H"], ["AS", "2S", "3S"]],
    }
    by_card = {d["discard"]: d for d in data["discards"]}
    assert by_card["4H"]["melds"] == [["7C", "7D", "7H"], ["AS", "2S", "3S"]]
    assert by_card["7C"]["melds"] == [["4H", "5H", "6H", "7H"], ["AS", "2S", "3S"]]


def test_eleven_cards_big_gin_depends_on_rule(capsys):
    # R6.5: all eleven melded.  Big gin is only declared when big_gin_bonus is not null.
    hand = GIN + " 5S"
    plain = analyze_json(capsys, hand)
    assert (plain["deadwood_value"], plain["big_gin"], plain["is_gin"], plain["can_knock"]) == (0, False, True, True)
    on = analyze_json(capsys, "--set", "big_gin_bonus=31", hand)
    assert on["big_gin"] is True
    assert on["melds"] == [["7C", "7D", "7H"], ["KC", "KD", "KH"], ["AS", "2S", "3S", "4S", "5S"]]
    # discarding either end of the spade run leaves gin; the 4S leaves 5S dead (5), the 3S
    # leaves AS 2S 4S 5S dead (12)
    first = [(d["discard"], d["deadwood_value"], d["is_gin"]) for d in on["discards"][:3]]
    assert first == [("AS", 0, True), ("5S", 0, True), ("2S", 1, False)]  # 2S: AS alone is dead
    values = {d["discard"]: d["deadwood_value"] for d in on["discards"]}
    assert (values["4S"], values["3S"]) == (5, 12)


def test_readable_output_shows_melds_and_deadwood(capsys):
    rc, out, err = run(capsys, "analyze", KNOCKABLE)
    assert rc == 0 and err == ""
    assert "[7C 7D 7H] [4H 5H 6H] [AS 2S 3S]" in out
    assert "Deadwood: 9C  (9 points)" in out
    assert "Can knock with 9 deadwood." in out


def test_one_point_of_deadwood_in_the_singular(capsys):
    rc, out, err = run(capsys, "analyze", "AS 2H 3H 4H 5D 6D 7D 8C 9C TC")
    assert rc == 0 and err == ""
    assert "Deadwood: AS  (1 point)" in out.splitlines()


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["AS 2S 3S"], "10 or 11 cards"),
        ([KNOCKABLE, "KD", "QD"], "not 12"),
        (["AS 2S 3S 7H 7D 7C 4H 5H 6H AS"], "AS is given twice"),
        (["AS 2S 3S 7H 7D 7C 4H 5H 6H 1C"], "not a card: '1C'"),
        (["--upcard", "9C", KNOCKABLE], "--upcard 9C is also one of the cards"),
        (["--upcard", "XX", KNOCKABLE], "--upcard"),
        (["--preset", "oklahoma", KNOCKABLE], "give --upcard"),
        (["--preset", "nosuch", KNOCKABLE], "unknown preset"),
        (["--set", "knock_limit=11", KNOCKABLE], "knock_limit=11"),
        (["--set", "nosuch=1", KNOCKABLE], "unknown rule"),
        ([], "Missing argument"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, needle):
    rc, out, err = run(capsys, "analyze", *argv)
    assert rc == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1
    assert err.startswith("gin: error: ")
    assert needle in err

