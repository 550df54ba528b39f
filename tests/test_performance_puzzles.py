"""Issue 32: the performance score (analysis/performance.py) and puzzles (analysis/puzzles.py)."""

from __future__ import annotations

import io
import json
import math

import pytest

from ginrummy.analysis.hindsight import Hindsight
from ginrummy.analysis.performance import decision_score, performance, rating_estimate
from ginrummy.analysis.puzzles import (
    FORMAT,
    Puzzle,
    dumps_puzzles,
    loads_puzzles,
    rate_attempt,
    theme_of,
    view_from_json,
    view_to_json,
)
from ginrummy.analysis.review import DealReview, Decision, Review
from ginrummy.analysis.simulate import play_game
from ginrummy.errors import N_
from ginrummy.record import deal_states, dumps, loads
from ginrummy.rules import preset
from ginrummy.views import view_of


def test_decision_score_is_lichess_accuracy_on_win_chance():
    assert decision_score(0) == 100.0
    assert round(decision_score(1), 2) == 95.6
    assert round(decision_score(3), 2) == 87.37
    assert round(decision_score(6), 2) == 76.28
    assert decision_score(100) == 0.0
    with pytest.raises(ValueError, match="finite number >= 0"):
        decision_score(-1)
    with pytest.raises(ValueError):
        decision_score(math.nan)


def test_rating_estimate_falls_with_the_loss_and_narrows_with_more_decisions():
    good, bad = rating_estimate(0.2), rating_estimate(3.0)
    assert good.rating > bad.rating
    assert good.low <= good.rating <= good.high
    wide, narrow = rating_estimate(1.0, 10), rating_estimate(1.0, 160)
    assert wide.rating == narrow.rating
    assert narrow.high - narrow.low < wide.high - wide.low
    with pytest.raises(ValueError, match="decisions is an int >= 1"):
        rating_estimate(1.0, 0)


def _decision(player: str, loss: float, mark: str | None) -> Decision:
    return Decision(1, player, 0, "discard", "discard 7H", "discard 7H", 50.0 - loss, 50.0, loss, 1.0, mark,
                    N_("x"), 50)


def test_performance_of_a_review():
    ds = (_decision("Ann", 0.0, None), _decision("Ann", 6.0, "blunder"), _decision("Bob", 1.5, "inaccuracy"))
    review = Review(("Ann", "Bob", "Cy"), "win_chance", (DealReview(1, ds, Hindsight({}, 0, None, False)),), {}, 50,
                    100.0, 0)
    perf = performance(review)
    ann = perf["Ann"].to_dict()
    assert ann["decisions"] == 2 and ann["loss_per_decision"] == 3.0 and ann["blunders"] == 1
    assert ann["score"] == round((100.0 + decision_score(6.0)) / 2, 1) == 88.1
    assert ann["rating"] == rating_estimate(3.0, 2).to_dict()
    assert perf["Bob"].inaccuracies == 1 and perf["Bob"].mistakes == 0
    assert perf["Cy"].to_dict() == {"decisions": 0, "loss_per_decision": 0.0, "score": 100.0, "inaccuracies": 0,
                                    "mistakes": 0, "blunders": 0, "rating": None, "samples": 50}


def test_a_view_survives_its_json_in_every_position_of_a_match():
    g = play_game(preset("standard"), ["novice", "club"], 0, 7)
    rec = loads(dumps(g.match))
    n = 0
    for d in rec.deals:
        for _, state, seat, _ in deal_states(rec.rules, d)[0]:
            for s in (0, 1):
                v = view_of(state, s)
                back = view_from_json(json.loads(json.dumps(view_to_json(v))))
                assert back == v
                n += 1
    assert n > 100


def _puzzle() -> Puzzle:
    g = play_game(preset("standard"), ["novice", "club"], 0, 7)
    rec = loads(dumps(g.match))
    index, state, seat, _ = next(x for x in deal_states(rec.rules, rec.deals[0])[0]
                                 if len(x[1].legal_actions()) > 1)
    v = view_of(state, seat)
    return Puzzle("0123456789ab", view_to_json(v), ((0, 12),), 0, 1, v.legal[0].text,
                  {a.text: 4.5 for a in v.legal[1:]}, 3.0, "draw", ("R4.1",), 50, "mine/x", "recheck/x",
                  {"record": "r", "deal": 1, "index": index})


def test_puzzle_lines_round_trip_and_bad_lines_are_named():
    p = _puzzle()
    text = dumps_puzzles([p, p])
    assert text.count("\n") == 2 and json.loads(text.splitlines()[0])["format"] == FORMAT
    assert loads_puzzles(text) == [p, p]
    assert p.answer_loss(p.best) == 0.0
    other = next(iter(p.losses))
    assert p.answer_loss(other) == 4.5
    assert p.answer_loss("fly away") is None
    bad = json.loads(text.splitlines()[0])
    bad["theme"] = "luck"
    with pytest.raises(ValueError, match="line 2: unknown theme 'luck'"):
        loads_puzzles(text.splitlines()[0] + "\n" + json.dumps(bad) + "\n")


def test_theme_of_the_first_turn_is_the_upcard():
    p = _puzzle()
    v = p.player_view()
    assert theme_of(v, v.legal[0], v.legal[1:]) == {"upcard_offer": "upcard", "draw": "draw"}.get(v.phase, v.phase)


def test_rate_attempt_moves_both_ratings():
    (pm, ps), (qm, qs) = rate_attempt((25.0, 25 / 3), (25.0, 25 / 3), True)
    assert pm > 25.0 > qm and ps < 25 / 3 and qs < 25 / 3
    (pm2, _), (qm2, _) = rate_attempt((25.0, 25 / 3), (25.0, 25 / 3), False)
    assert round(pm2 + pm, 6) == 50.0 and round(qm2 + qm, 6) == 50.0


def test_gin_puzzles_play_rates_the_person(tmp_path, monkeypatch):
    from ginrummy.cli.main import main

    p = _puzzle()
    f = tmp_path / "p.jsonl"
    f.write_text(dumps_puzzles([p]))
    ratings = tmp_path / "r.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{p.best}\n"))
    assert main(["puzzles", "play", str(f), "--ratings", str(ratings), "--name", "ann"]) == 0
    data = json.loads(ratings.read_text())
    assert data["people"]["ann"]["tried"] == [p.id] and data["people"]["ann"]["solved"] == 1
    assert data["people"]["ann"]["mu"] > 25.0 > data["puzzles"][p.id]["mu"]


def test_the_shipped_puzzles_load():
    from ginrummy.cli.puzzles import shipped_puzzles

    ps = loads_puzzles(shipped_puzzles())
    assert len(ps) >= 1
    assert all(p.margin >= 3.0 and min(p.losses.values()) >= p.margin for p in ps)
