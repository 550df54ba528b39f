"""The fewest points a won deal scores (``scoring.min_deal_score``) and the scorekeeper's
refusal of a win below it: ``gin sheet``, ``ScoreSheet`` and the web ``POST /api/sheet``.  A
won knock scores D - K >= 1 (R6.2), gin and undercut carry their bonuses (R6.1, R6.3), so under
the default rules a won deal is worth at least 1; 0 needs a bonus of 0 (R14)."""

from __future__ import annotations

import json

import pytest

from ginrummy.cli.main import main
from ginrummy.errors import IllegalActionError
from ginrummy.rules import PRESETS
from ginrummy.scoring import ScoreSheet, max_deal_score, min_deal_score


@pytest.mark.parametrize("preset,overrides,least", [
    ("standard", {}, 1),                                  # R6.2: D - K >= 1
    ("oklahoma", {}, 1),                                  # R9.1: a knock is possible
    ("straight", {}, 25),                                 # R8.1: only gin, gin_bonus + D with D = 0
    ("straight", {"big_gin_bonus": 20}, 20),              # R6.5
    ("standard", {"undercut_bonus": 0}, 0),               # R6.3: K == D is an undercut worth 0
    ("standard", {"gin_bonus": 0}, 0),                    # R6.1: gin against a fully melded hand
    ("standard", {"knock_limit": 0}, 25),                 # R5.1: K = 0 is gin, no other knock
    ("standard", {"knock_limit": 0, "undercut_bonus": 0}, 25),  # ... so no undercut either
    ("straight", {"undercut_bonus": 0}, 25),              # R8.1: no undercut in Straight gin
])
def test_min_deal_score(preset, overrides, least):
    assert min_deal_score(PRESETS[preset].replace(**overrides)) == least


def test_the_sheet_refuses_a_win_of_0_under_the_default_rules():
    sheet = ScoreSheet(PRESETS["standard"], 2)
    with pytest.raises(IllegalActionError) as err:
        sheet.add(0, 0)
    assert str(err.value) == ("deal result '0:0': 0 points is less than a won deal scores under these rules "
                              "(allowed: 1 to 123 points; a deal nobody won is a draw, R6, R7)")
    assert sheet.results == () and sheet.add(0, 1).results == ((0, 1),) and sheet.add(None, 0).results == ((None, 0),)
    assert ScoreSheet(PRESETS["standard"].replace(undercut_bonus=0), 2).add(0, 0).results == ((0, 0),)


def test_gin_sheet_refuses_a_win_of_0(capsys):
    rc = main(["sheet", "--players", "A,B", "A:0", "A:100"])
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    assert "result 'A:0': 0 points is less than a won deal scores under these rules (allowed: 1 to 123 points; " \
           "a deal nobody won is a draw, R6, R7)" in " ".join(err.split())
    rc = main(["sheet", "--json", "--players", "A,B", "--set", "undercut_bonus=0", "A:0", "A:100"])
    out, err = capsys.readouterr()
    assert rc == 0 and json.loads(out)["games"][0]["deals_won"] == {"A": 2, "B": 0}


def test_gin_sheet_in_straight_gin_names_its_range(capsys):
    rc = main(["sheet", "--preset", "straight", "--players", "A,B", "A:24"])
    _, err = capsys.readouterr()
    assert rc == 2
    assert f"24 points is less than a won deal scores under these rules (allowed: 25 to {max_deal_score(PRESETS['straight'])} points" \
        in " ".join(err.split())
