"""``benchmarks/baselines.py`` (issue 36, item 6): the duplicate round robin, OpenSkill ratings
and one's own agent at the table."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("openskill")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import baselines  # noqa: E402


def test_schedule_rounds_and_slow_levels() -> None:
    plan = baselines.schedule(["a", "b", "c"], 3, 5, {"c": 2})
    assert plan == [(5, "a", "b"), (6, "a", "b"), (6, "a", "c"), (6, "b", "c"), (7, "a", "b")]


def test_a_pair_of_the_same_player_cancels_out() -> None:
    # duplicate: in the second game each side holds the other's cards and seat (and seed), so
    # two copies of one deterministic player split the pair exactly
    novice = baselines.agent_factory("ginrummy.players.simple:NovicePlayer")[1]
    for rnd in range(6):
        s1, p1 = baselines.play_deal((novice, novice), rnd, 1, False)
        s2, p2 = baselines.play_deal((novice, novice), rnd, 1, True)
        assert (s1 + s2, p1 + p2) == (1.0, 0)


def test_rate_orders_a_winner_first() -> None:
    games = [{"a": "x", "b": "y", "a_score": 1.0}] * 5 + [{"a": "x", "b": "y", "a_score": 0.5}]
    r = baselines.rate(games)
    assert r["x"][0] > 25 > r["y"][0]
    assert r["x"][1] < 25 / 3


def test_own_agent_at_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    rc = baselines.main(["--levels", "random,nope", "--add", "mine=ginrummy.players.simple:NovicePlayer",
                         "--rounds", "3", "--out", str(out)])
    assert rc == 0
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(g["round"], g["swapped"], g["a"], g["b"]) for g in games] == [
        (r, s, "random", "mine") for r in range(3) for s in (False, True)]
    text = capsys.readouterr().out
    assert "left out 'nope'" in text and "| `random` vs `mine` | 3 (6) |" in text
    with pytest.raises(ValueError, match="module:Class"):
        baselines.agent_factory("no_colon")
    with pytest.raises(TypeError, match="choose"):
        baselines.agent_factory("ginrummy.rules:RuleSet")


def test_schedule_only_one_level() -> None:
    plan = baselines.schedule(["a", "b", "c"], 2, 1, {"c": 1}, only="c")
    assert plan == [(1, "a", "c"), (1, "b", "c"), (2, "a", "c"), (2, "b", "c")]


def test_rating_table_takes_out_the_order() -> None:
    # x beats y in the first half, y beats x in the second: one order favours y, the mean does not
    games = [{"a": "x", "b": "y", "a_score": 1.0}] * 10 + [{"a": "x", "b": "y", "a_score": 0.0}] * 10
    one = baselines.rate(games)
    assert one["y"][0] > one["x"][0] + 1
    table = baselines.rating_table(games, orders=40)
    assert abs(table["x"][0] - table["y"][0]) < 1 and table["x"][2] > 0
