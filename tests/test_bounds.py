"""Issue 27 (bounds): every whole-number rule field has an upper bound (R14, ``rules.BOUNDS``),
a record whose rules or JSON break a bound fails with a RecordError (not a crash), and the
expert's game table (``game_win_table``) is quick, bounded and the same floats as before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ginrummy import record as R
from ginrummy.errors import RecordError, RuleSetError
from ginrummy.players.expert import _DEAL_POINTS, FINE_POINTS, game_win_table
from ginrummy.rules import BOUNDS, MAX_NAME_CHARS, MAX_TARGET, PRESETS, RuleSet, make_rules

GOLDEN = Path(__file__).parent / "golden" / "records" / "standard.gin"


def test_every_number_field_has_its_bound():
    """R14: the bounds written in docs/rules.md."""
    assert BOUNDS == {"knock_limit": (0, 10), "gin_bonus": (0, 250), "big_gin_bonus": (0, 250),
                      "undercut_bonus": (0, 250), "max_reshuffles": (0, 10), "target": (1, 1000),
                      "game_bonus": (0, 1000), "box_bonus": (0, 250), "max_pile_takes": (0, 100)}
    assert MAX_TARGET == 1000 and MAX_NAME_CHARS == 60


@pytest.mark.parametrize("key", sorted(BOUNDS))
def test_a_field_past_its_bound_is_refused_naming_field_and_range(key):
    lo, hi = BOUNDS[key]
    assert getattr(PRESETS["standard"].replace(**{key: hi}), key) == hi
    assert getattr(PRESETS["standard"].replace(**{key: lo}), key) == lo
    for bad in (hi + 1, 10**18, lo - 1):
        with pytest.raises(RuleSetError) as err:
            make_rules("standard", [f"{key}={bad}"])
        assert str(err.value) == f"rule {key}={bad} is out of range; allowed: {lo}..{hi}"
    with pytest.raises(RuleSetError) as err:
        RuleSet(**{key: 2.5})
    assert str(err.value) == f"rule {key}=2.5 is not a whole number; allowed: {lo}..{hi}"


def test_the_target_of_the_issue_is_refused():
    """Issue 27: ``{"rules": {"target": 3000}}`` made the expert's first move take 35 s."""
    with pytest.raises(RuleSetError) as err:
        RuleSet.from_dict({"target": 3000})
    assert str(err.value) == "rule target=3000 is out of range; allowed: 1..1000"


def test_a_long_rule_set_name_is_refused():
    assert RuleSet(name="n" * 60).name == "n" * 60
    with pytest.raises(RuleSetError) as err:
        RuleSet.from_dict({"name": "n" * 100_000})
    assert str(err.value) == "rule set name is 100000 characters long; allowed: at most 60"


def _record(line: str, new: str) -> str:
    text = GOLDEN.read_text(encoding="utf-8")
    out, n = re.subn(line, lambda m: new, text, count=1, flags=re.M)
    assert n == 1
    return out


@pytest.mark.parametrize("pattern, new, message", [
    (r'"target":100', '"target":1000000', "line 5: rule target=1000000 is out of range; allowed: 1..1000"),
    (r'"max_reshuffles":1', '"max_reshuffles":1000000000',
     "line 5: rule max_reshuffles=1000000000 is out of range; allowed: 0..10"),
    (r'"target":100', '"target":' + "9" * 5000,
     "line 5: rules must be a JSON object of rule fields: Exceeds the limit (4300 digits)"),
    (r'"target":100', '"target":' + "[" * 100_000 + "]" * 100_000,
     "line 5: rules must be a JSON object of rule fields: maximum recursion depth exceeded"),
    (r"^players .*$", "players " + "[" * 100_000 + "]" * 100_000,
     "line 4: players must be a JSON list of names: maximum recursion depth exceeded"),
    (r"^gin-record 1$", "gin-record " + "1" * 5000, "line 2: format version must be a whole number, not '111"),
    (r"^gin-record 1$", "gin-record \u00b2", "line 2: format version must be a whole number, not '\u00b2'"),
])
def test_a_record_past_a_bound_is_a_record_error(pattern, new, message):
    """record.loads: rules out of bounds, a 5,000-digit number and deep nesting are each one
    RecordError naming the line (a ValueError or RecursionError escaped before)."""
    with pytest.raises(RecordError) as err:
        R.loads(_record(pattern, new))
    assert str(err.value).startswith(message)


def _old_table(target: int, points=_DEAL_POINTS) -> list[list[float]]:
    """The former game_win_table: the (target+1)² table filled cell by cell in pure Python."""
    t = target
    v = [[0.0] * (t + 1) for _ in range(t + 1)]
    for a in range(t, -1, -1):
        for b in range(t, -1, -1):
            if a >= t:
                v[a][b] = 1.0
                continue
            if b >= t:
                v[a][b] = 0.0
                continue
            win = sum(p * v[min(t, a + x)][b] for x, p in points)
            lose = sum(p * v[a][min(t, b + x)] for x, p in points)
            v[a][b] = 0.5 * win + 0.5 * lose
    return v


@pytest.mark.parametrize("target", [0, 1, 2, 7, 56, 57, 100, 250])
def test_game_win_table_is_the_same_floats_as_before(target):
    new = game_win_table(target)
    old = _old_table(target)
    assert new.shape == (target + 1, target + 1) and new.step == 1
    assert [[new[a, b] for b in range(target + 1)] for a in range(target + 1)] == old


@pytest.mark.parametrize("target", [251, 500, 999, 1000])
def test_game_win_table_past_250_is_the_model_on_a_coarser_grid(target):
    """Past FINE_POINTS the points are counted in cells of ceil(target / 250) points, a deal of
    x points counting ceil(x / step) cells: the former loop on that smaller table."""
    v = game_win_table(target)
    step = -(-target // FINE_POINTS)
    n = -(-target // step)
    assert v.step == step and v.shape == (target + 1, target + 1) and n <= FINE_POINTS
    grid = _old_table(n, tuple((-(-x // step), p) for x, p in _DEAL_POINTS))
    for a in range(target + 1):
        for b in (0, 1, target // 3, target // 2, target - 7, target):
            i, j = -(-(target - a) // step), -(-(target - b) // step)
            assert v[a, b] == grid[n - i][n - j]


def test_game_win_table_is_bounded_and_read_only():
    v = game_win_table(MAX_TARGET)
    assert v.shape == (1001, 1001) and v[1000, 0] == 1.0 and v[0, 1000] == 0.0
    assert v[500, 500] == pytest.approx(0.5) and v[999, 0] > 0.99
    with pytest.raises(TypeError):
        v[0, 0] = 0.5
    with pytest.raises(IndexError):
        v[1001, 0]
    for bad in (MAX_TARGET + 1, 10**6, -1, True, 100.0):
        with pytest.raises(ValueError) as err:
            game_win_table(bad)
        assert str(err.value) == f"game_win_table: target must be a whole number in 0..1000 (R14), not {bad!r}"
