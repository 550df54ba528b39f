"""Tests of the rule set: presets exactly as the table of R13, every field of R14 validated
(a bad value raises RuleSetError naming the field and what is allowed), overrides
(``--set KEY=VALUE``) and the derived per-deal values (R5.1, R8.1, R9.1-R9.3)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from ginrummy.cards import parse_card
from ginrummy.errors import RuleSetError
from ginrummy.rules import FIELD_RULES, PRESETS, RuleSet, make_rules, parse_overrides, preset

# R13, column by column: knock, gin, undercut, stock end, (game, shutout doubles, box), scoring,
# target, next dealer.  "bonuses none" = game bonus 0 and box bonus 0.
R13 = {
    "standard": dict(variant="standard", knock_limit=10, gin_bonus=25, undercut_bonus=25, stock_end="draw_at_two",
                     game_bonus=100, shutout_doubles=True, box_bonus=25, scoring="game", target=100,
                     next_dealer="winner"),
    "classic": dict(variant="standard", knock_limit=10, gin_bonus=25, undercut_bonus=10, stock_end="draw_at_two",
                    game_bonus=0, box_bonus=0, scoring="game", target=100, next_dealer="winner"),
    "hollywood": dict(variant="standard", knock_limit=10, gin_bonus=25, undercut_bonus=25, stock_end="draw_at_two",
                      game_bonus=100, shutout_doubles=True, box_bonus=25, scoring="hollywood", target=100,
                      next_dealer="winner"),
    "single": dict(variant="standard", knock_limit=10, gin_bonus=25, undercut_bonus=25, stock_end="reshuffle",
                   game_bonus=0, box_bonus=0, scoring="deal", next_dealer="winner"),
    "oklahoma": dict(variant="oklahoma", gin_bonus=25, undercut_bonus=25, stock_end="draw_at_two",
                     game_bonus=100, shutout_doubles=True, box_bonus=25, scoring="game", target=100,
                     next_dealer="winner"),
    "straight": dict(variant="straight", gin_bonus=25, stock_end="draw_at_two", game_bonus=100,
                     shutout_doubles=True, box_bonus=25, scoring="game", target=100, next_dealer="winner"),
    "eaai": dict(variant="standard", knock_limit=10, gin_bonus=25, undercut_bonus=25, stock_end="draw_at_two",
                 game_bonus=0, box_bonus=0, scoring="game", target=100, next_dealer="alternate"),
}

# R14 defaults (the standard preset).
R14_DEFAULTS = dict(variant="standard", knock_limit=10, oklahoma_ace="gin", spade_doubles=True, gin_bonus=25,
                    big_gin_bonus=None, undercut_bonus=25, discard_taken_card=False, stock_end="draw_at_two",
                    max_reshuffles=1, scoring="game", target=100, game_bonus=100, shutout_doubles=True,
                    box_bonus=25, hollywood_late_entry="nowhere", next_dealer="winner", players=2, tie="undercut",
                    wall_forced_pass=False, repeated_move_ends=False, max_pile_takes=0, layout="engine")


@pytest.mark.parametrize("name", list(R13))
def test_r13_presets_match_the_table(name):
    """R13: each preset has exactly the values of its row; every other field is the R14
    default (big gin off, two players, ...)."""
    p = preset(name)
    assert p.name == name
    expected = dict(R14_DEFAULTS)
    expected.update(R13[name])
    for key, value in expected.items():
        assert getattr(p, key) == value, (name, key)


def test_r13_preset_names_and_lookup():
    """R13: exactly the seven presets; lookup is case-insensitive; an unknown name raises
    RuleSetError listing the presets."""
    assert set(PRESETS) == set(R13)
    assert preset("Standard") is PRESETS["standard"]
    with pytest.raises(RuleSetError) as err:
        preset("vegas")
    assert "vegas" in str(err.value) and "oklahoma" in str(err.value)


def test_r14_defaults_are_standard():
    """R14: the field defaults are the standard preset."""
    r = RuleSet()
    for key, value in R14_DEFAULTS.items():
        assert getattr(r, key) == value, key
    assert RuleSet() == PRESETS["standard"]  # names do not take part in equality
    fields = {f.name for f in dataclasses.fields(RuleSet)} - {"name"}
    assert fields == set(R14_DEFAULTS) == set(FIELD_RULES)


BAD = [
    ("variant", "vegas", ["standard", "straight", "oklahoma"]),
    ("variant", 1, ["standard"]),
    ("knock_limit", 11, ["0..10"]),
    ("knock_limit", -1, ["0..10"]),
    ("knock_limit", 5.0, ["0..10"]),
    ("knock_limit", True, ["0..10"]),
    ("oklahoma_ace", "two", ["gin", "one"]),
    ("spade_doubles", "yes", ["true or false"]),
    ("spade_doubles", 1, ["true or false"]),
    ("gin_bonus", -5, ["0..250"]),
    ("gin_bonus", "25", ["0..250"]),
    ("big_gin_bonus", -1, ["0..250"]),
    ("big_gin_bonus", 31.5, ["0..250"]),
    ("undercut_bonus", -1, ["0..250"]),
    ("discard_taken_card", "no", ["true or false"]),
    ("stock_end", "wall_of_china", ["draw_at_two", "wall", "reshuffle"]),
    ("max_reshuffles", -1, ["0..10"]),
    ("scoring", "rubber", ["deal", "game", "hollywood"]),
    ("target", 0, ["1..1000"]),
    ("target", -100, ["1..1000"]),
    ("game_bonus", -100, ["0..1000"]),
    ("shutout_doubles", None, ["true or false"]),
    ("box_bonus", -25, ["0..250"]),
    ("hollywood_late_entry", "somewhere", ["nowhere", "next_open"]),
    ("next_dealer", "loser", ["winner", "alternate"]),
    ("players", 4, ["2", "3"]),
    ("players", True, ["2", "3"]),
    ("players", 2.0, ["2", "3"]),  # equal to 2, but not a number of players (a float from JSON)
    ("target", 100.0, ["1..1000"]),
    ("target", 1001, ["1..1000"]),
    ("gin_bonus", 251, ["0..250"]),
    ("max_reshuffles", 11, ["0..10"]),
]


@pytest.mark.parametrize("key,value,allowed", BAD)
def test_r14_bad_values_raise_naming_field_and_allowed(key, value, allowed):
    """R14: a bad value raises RuleSetError whose message names the field and what is allowed;
    the same through ``replace`` and ``make_rules``."""
    with pytest.raises(RuleSetError) as err:
        RuleSet(**{key: value})
    msg = str(err.value)
    assert key in msg
    for word in allowed:
        assert word in msg, (msg, word)
    with pytest.raises(RuleSetError):
        PRESETS["standard"].replace(**{key: value})
    with pytest.raises(RuleSetError):
        make_rules("standard", {key: value})


@pytest.mark.parametrize("key,value", [
    ("variant", "straight"), ("variant", "oklahoma"), ("knock_limit", 0), ("knock_limit", 10),
    ("oklahoma_ace", "one"), ("spade_doubles", False), ("gin_bonus", 20), ("gin_bonus", 0),
    ("big_gin_bonus", 31), ("big_gin_bonus", 0), ("big_gin_bonus", None), ("undercut_bonus", 10),
    ("discard_taken_card", True), ("stock_end", "wall"), ("stock_end", "reshuffle"),
    ("max_reshuffles", 0), ("max_reshuffles", 5), ("scoring", "deal"), ("scoring", "hollywood"),
    ("target", 250), ("target", 1), ("game_bonus", 0), ("shutout_doubles", False), ("box_bonus", 20),
    ("hollywood_late_entry", "next_open"), ("next_dealer", "alternate"), ("players", 3),
])
def test_r14_good_values_accepted(key, value):
    """R14: every listed value of every field is accepted."""
    r = RuleSet(**{key: value})
    assert getattr(r, key) == value


def test_r14_unknown_field_raises_listing_known():
    """R14: an unknown rule name raises RuleSetError listing the known ones."""
    with pytest.raises(RuleSetError) as err:
        PRESETS["standard"].replace(knock=5)
    assert "knock" in str(err.value) and "knock_limit" in str(err.value)
    with pytest.raises(RuleSetError):
        make_rules("standard", ["knock=5"])


def test_r10_6_three_players_no_hollywood():
    """R10.6: Hollywood scoring is for two players: three players with it raise."""
    with pytest.raises(RuleSetError) as err:
        RuleSet(players=3, scoring="hollywood")
    assert "R10.6" in str(err.value)
    with pytest.raises(RuleSetError):
        PRESETS["hollywood"].replace(players=3)


def test_parse_overrides_json_values():
    """``--set KEY=VALUE``: VALUE is JSON when it parses (true, 31, null, "wall"), else text."""
    got = parse_overrides(["target=250", "big_gin_bonus=31", "spade_doubles=false", "stock_end=wall",
                           "big_gin_bonus = null", 'scoring="deal"'])
    assert got == {"target": 250, "big_gin_bonus": None, "spade_doubles": False, "stock_end": "wall",
                   "scoring": "deal"}


@pytest.mark.parametrize("item", ["target", "=250", " =1", 5])
def test_parse_overrides_errors(item):
    """An override without ``=`` or without a key raises RuleSetError showing the form."""
    with pytest.raises(RuleSetError) as err:
        parse_overrides([item])
    assert "KEY=VALUE" in str(err.value) or "no key" in str(err.value)


def test_make_rules_applies_overrides():
    """R13: every preset value can be overridden; the name records it."""
    r = make_rules("classic", ["target=250", "undercut_bonus=25"])
    assert (r.target, r.undercut_bonus, r.game_bonus, r.box_bonus) == (250, 25, 0, 0)
    assert r.name == "classic+custom"
    assert make_rules("eaai") is PRESETS["eaai"]
    r = make_rules("oklahoma", {"oklahoma_ace": "one"})
    assert r.oklahoma_ace == "one" and r.variant == "oklahoma"
    with pytest.raises(RuleSetError):
        make_rules("standard", ["target=abc"])  # a string is not an int


def test_json_round_trip():
    """A rule set survives ``to_json`` / ``from_dict`` (records)."""
    r = make_rules("oklahoma", ["big_gin_bonus=31", "target=250"])
    back = RuleSet.from_dict(json.loads(r.to_json()))
    assert back == r and back.name == r.name
    assert RuleSet.from_dict({"preset": "straight", "target": 250}).variant == "straight"
    with pytest.raises(RuleSetError):
        RuleSet.from_dict({"preset": "nope"})


@pytest.mark.parametrize("variant,upcard,limit,mult", [
    ("standard", "7H", 10, 1), ("standard", "AS", 10, 1),
    ("straight", "7H", None, 1), ("straight", "7S", None, 1),
    ("oklahoma", "7H", 7, 1), ("oklahoma", "QD", 10, 1), ("oklahoma", "TC", 10, 1),
    ("oklahoma", "3S", 3, 2), ("oklahoma", "AC", None, 1), ("oklahoma", "AS", None, 2),
])
def test_deal_knock_limit_and_multiplier(variant, upcard, limit, mult):
    """R5.1 standard limit 10; R8.1 Straight: no knocking; R9.1 Oklahoma: the upcard's value,
    face cards 10; R9.2 an ace: gin only; R9.3 a spade doubles (Oklahoma only)."""
    r = RuleSet(variant=variant)
    card = parse_card(upcard)
    assert r.deal_knock_limit(card) == limit
    assert r.deal_multiplier(card) == mult


def test_r9_2_oklahoma_ace_one_and_r9_3_option_off():
    """R9.2 ``oklahoma_ace="one"``: an ace upcard makes the limit 1; R9.3 ``spade_doubles=false``."""
    r = RuleSet(variant="oklahoma", oklahoma_ace="one", spade_doubles=False)
    assert r.deal_knock_limit(parse_card("AH")) == 1
    assert r.deal_multiplier(parse_card("9S")) == 1
    assert RuleSet(knock_limit=4).deal_knock_limit(parse_card("9S")) == 4


def test_rule_set_is_frozen():
    """A RuleSet cannot be changed in place (use ``replace``)."""
    r = PRESETS["standard"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.target = 250  # type: ignore[misc]


@pytest.mark.parametrize("override, message", [
    ("knock_limit=abc", "rule knock_limit=\"abc\" is not a whole number; allowed: 0..10"),
    ("knock_limit=true", "rule knock_limit=true is not a whole number; allowed: 0..10"),
    ("target=1.5", "rule target=1.5 is not a whole number; allowed: 1..1000"),
    ("knock_limit=11", "rule knock_limit=11 is out of range; allowed: 0..10"),
])
def test_a_number_rule_that_is_not_a_whole_number_says_so(override, message):
    """R13: a points field given text, true/false or a fraction is named as not a whole number
    (not as out of range)."""
    with pytest.raises(RuleSetError) as err:
        make_rules("standard", [override])
    assert str(err.value) == message
