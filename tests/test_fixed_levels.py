"""The fixed-sample levels ``expert-fixed`` and ``master-fixed`` (issue 36, item 4): no clock,
so the same seed gives the same game on any machine, and they are chosen by level name wherever
a level is (``make_player``, ``gin simulate``, the envs' opponent, the strength benchmark)."""

from __future__ import annotations

import json
import random

import pytest

from ginrummy.analysis.simulate import play_game
from ginrummy.cli.main import main
from ginrummy.players import make_player
from ginrummy.players.expert import FIXED_SAMPLES, ExpertPlayer, FixedExpertPlayer, FixedMasterPlayer, MasterPlayer
from ginrummy.record import dumps
from ginrummy.rules import make_rules

ONE_DEAL = make_rules("eaai", {"scoring": "deal"})  # R11.1: one deal is the whole game


def _no_clock() -> float:
    raise AssertionError("a fixed-sample level read the clock")


def test_levels_by_name() -> None:
    e = make_player("expert-fixed", 1)
    m = make_player("master-fixed", 1)
    assert type(e) is FixedExpertPlayer and isinstance(e, ExpertPlayer)
    assert type(m) is FixedMasterPlayer and isinstance(m, MasterPlayer)
    assert (e.name, e.budget_ms, e.samples, e.max_discards) == ("expert-fixed", None, 400, 5)
    assert (m.name, m.budget_ms, m.samples, m.max_discards) == ("master-fixed", None, 2000, 6)
    assert FIXED_SAMPLES == {"expert-fixed": 400, "master-fixed": 2000}
    # the clocked levels are as they were
    assert (make_player("expert", 1).budget_ms, make_player("master", 1).budget_ms) == (150.0, 1000.0)
    # options keep the level fixed (benchmarks/strength.py's build remakes a player by its type)
    assert type(e)(random.Random(1), samples=64).budget_ms is None


def _game(seed: int) -> str:
    out = play_game(ONE_DEAL, ["expert-fixed", "novice"], 0, seed)
    return dumps(out.match, date="2000-01-01")


def test_same_seed_same_record() -> None:
    a, b = _game(3), _game(3)
    assert a == b
    assert "expert-fixed" in a
    assert _game(4) != a


def test_never_reads_the_clock() -> None:
    # a machine of any speed (or load) plays the same game: the clock is never read
    from ginrummy.match import Match

    match = Match.new(ONE_DEAL, ["a", "b"], b"fixed")
    players = [make_player("expert-fixed", 5), make_player("novice", 5)]
    players[0].clock = _no_clock
    decisions = 0
    while not match.finished:
        p = match.player_to_act()
        view = match.view(p)
        decisions += p == 0 and len(view.legal) > 1
        match.apply(p, players[p].choose(view, view.legal))
    assert decisions > 3


def test_gin_simulate_takes_the_fixed_level(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "simulate",
        "--players",
        "expert-fixed,random",
        "--games",
        "1",
        "--seed",
        "2",
        "--set",
        "scoring=deal",
        "--json",
    ]
    runs = []
    for _ in range(2):
        assert main(argv) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert runs[0] == runs[1]
    assert runs[0]["players"] == ["expert-fixed", "random"]


def test_env_opponent_takes_the_fixed_level() -> None:
    pytest.importorskip("gymnasium")
    from ginrummy.env.single import GinRummySingle

    env = GinRummySingle(opponent="master-fixed")
    assert type(env.opponent) is FixedMasterPlayer


def test_not_in_the_web_lobby() -> None:
    pytest.importorskip("starlette")
    from ginrummy.web.levels import player_levels

    levels = player_levels()
    assert levels[:5] == ["random", "novice", "club", "expert", "master"]
    assert "expert-fixed" not in levels and "master-fixed" not in levels and "rlcard-rule" not in levels
