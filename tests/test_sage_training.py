"""The sage's training script (``scripts/train_sage.py``): its data are reproducible from the
seed, and the same data and seed give the same network, byte for byte."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("numpy")

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("train_sage", ROOT / "scripts" / "train_sage.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_data_and_training_are_reproducible_from_the_seed(tmp_path):
    from ginrummy.players.sage import FEATURES, move_scores

    ts = _script()
    a = ts.label_game(3, 5, 6)
    assert a == ts.label_game(3, 5, 6)
    assert a["decisions"] and a["samples"] == 6
    for d in a["decisions"]:
        assert len(d["f"]) == len(d["u"]) >= 2 and 0 <= d["club"] < len(d["u"])
        assert all(len(r) == len(FEATURES) for r in d["f"])
        assert all(-0.01 <= u <= 1.01 for u in d["u"])  # chances of winning the game
    data = tmp_path / "d.jsonl"
    # games 0 and 10 are held out (every tenth game), 1 is trained on
    rows = [a | {"game": g} for g in (0, 1, 10)]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    outs = []
    for name in ("m1.json", "m2.json"):
        out = tmp_path / name
        assert ts.main(["train", str(data), "--seed", "4", "--epochs", "3", "--hidden", "5", "--out", str(out),
                        "--svg", str(tmp_path / "c.svg")]) == 0
        outs.append(out.read_text())
    assert outs[0] == outs[1]
    model = json.loads(outs[0])
    assert model["features"] == list(FEATURES) and len(model["w1"]) == 5 and model["hidden"] == 5
    assert model["trained"]["data"] == {"games": 3, "seeds": [5], "samples": [6]}
    assert model["decisions"] == 3 * len(a["decisions"])
    assert "<svg" in (tmp_path / "c.svg").read_text()
    scores = move_scores(a["decisions"][0]["f"], model)
    assert len(scores) == len(a["decisions"][0]["f"])


def test_knock_data_is_reproducible_and_the_knock_policies_are_valued(tmp_path, capsys):
    # the fast sages' games with one knock decision a player and deal played at random: the
    # same seed gives the same lines; knock-eval values each policy on the decisions the coin
    # played its way (always knock: every decision where the coin knocked)
    from ginrummy.players.sage import FEATURES

    ts = _script()
    lines = [ts.knock_game(g, 9) for g in range(6)]
    assert lines[0] == ts.knock_game(0, 9)
    decisions = [d for r in lines for d in r["decisions"]]
    assert decisions, "six games give knock decisions"
    for d in decisions:
        assert len(d["k"]) == len(d["n"]) == len(FEATURES) and isinstance(d["knocked"], bool)
        assert d["k"][FEATURES.index("is_knock")] == 1.0 and d["n"][FEATURES.index("is_discard")] == 1.0
        assert -0.01 <= d["u"] <= 1.01
    assert len(ts.knock_terms(decisions[0]["k"], decisions[0]["n"])) == 1 + 10 + 27
    data = tmp_path / "k.jsonl"
    data.write_text("".join(json.dumps(r | {"game": g}) + "\n" for g, r in zip((0, 1, 2, 3, 10, 11), lines)))
    capsys.readouterr()
    assert ts.main(["knock-eval", str(data)]) == 0
    out = capsys.readouterr().out
    knocked = [d["u"] for d in decisions if d["knocked"]]
    assert f"| always knock | 100.0% | {len(knocked)} | {sum(knocked) / len(knocked):.4f}" in out
    assert "| never (not at this decision) | 0.0% |" in out and "the network (sage)" in out


def test_discard_data_is_reproducible_and_the_discard_policies_are_valued(tmp_path, capsys):
    # one discard a player and deal where no knock is legal played by a coin, between the club
    # player's discard and another candidate: the same seed gives the same lines; discard-eval
    # values each policy on the decisions the coin played its way
    from ginrummy.players.sage import FEATURES

    ts = _script()
    lines = [ts.discard_game(g, 9) for g in range(4)]
    assert lines[0] == ts.discard_game(0, 9)
    decisions = [d for r in lines for d in r["decisions"]]
    assert len(decisions) >= 8, "four games give randomized discards"
    i = FEATURES.index
    for d in decisions:
        assert len(d["c"]) == len(d["a"]) == len(FEATURES) and isinstance(d["club"], bool)
        assert d["c"][i("is_club")] == 1.0 and d["a"][i("is_club")] == 0.0
        assert d["c"][i("is_discard")] == d["a"][i("is_discard")] == 1.0 and d["c"] != d["a"]
        assert -0.01 <= d["u"] <= 1.01
    assert {d["club"] for d in decisions} == {True, False}
    assert len(ts.discard_terms(decisions[0]["c"], decisions[0]["a"])) == 1 + 2 * len(ts.DISCARD_TERMS)
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r | {"game": g}) + "\n" for g, r in zip((0, 1, 2, 10), lines)))
    capsys.readouterr()
    assert ts.main(["discard-eval", str(data)]) == 0
    out = capsys.readouterr().out
    club = [d["u"] for d in decisions if d["club"]]
    other = [d["u"] for d in decisions if not d["club"]]
    assert f"| the club player's discard | 100.0% | {len(club)} | {sum(club) / len(club):.4f}" in out
    assert f"| the other candidate | 0.0% | {len(other)} | {sum(other) / len(other):.4f}" in out
    assert "the network's choice of the two" in out and "(held-out games)" in out
    with pytest.raises(SystemExit, match=r"line 1 lacks \['a', 'c', 'club'\]"):
        ts.main(["discard-eval", str(_knock_file(tmp_path))])


def _knock_file(tmp_path):
    """A one-line file of the knock step (a wrong input for discard-eval)."""
    from ginrummy.players.sage import FEATURES

    path = tmp_path / "knock-only.jsonl"
    row = [0.0] * len(FEATURES)
    path.write_text(json.dumps({"seed": 1, "game": 0, "decisions": [{"k": row, "n": row, "knocked": True, "u": 0.5}]}))
    return path


def test_bad_input_is_one_clear_error(tmp_path, capsys):
    ts = _script()
    with pytest.raises(SystemExit):
        ts.main(["data", "--games", "0", "--out", str(tmp_path / "x")])
    assert "argument --games: 0 is less than 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        ts.main(["train", str(tmp_path / "none.jsonl"), "--out", str(tmp_path / "m.json")])
    assert "none.jsonl: not a file" in capsys.readouterr().err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(SystemExit):
        ts.main(["knock-eval", str(empty)])
    assert "the file is empty" in capsys.readouterr().err
    from ginrummy.players.sage import FEATURES

    short = tmp_path / "short.jsonl"
    short.write_text(json.dumps({"seed": 1, "game": 0, "decisions": [{"k": [], "n": [], "knocked": True, "u": 0.5}]}))
    with pytest.raises(SystemExit, match=f"line 1 has rows of other than {len(FEATURES)} features"):
        ts.main(["knock-eval", str(short)])
    other = tmp_path / "knock.jsonl"
    row = [0.0] * len(FEATURES)
    other.write_text(json.dumps({"seed": 1, "game": 0, "decisions": [{"k": row, "n": row, "knocked": True, "u": 0.5}]}))
    with pytest.raises(SystemExit, match=r"line 1 lacks \['club', 'f'\] \(a file of the other data step\?\)"):
        ts.main(["train", str(other), "--out", str(tmp_path / "m.json")])
    with pytest.raises(SystemExit, match="knock-eval needs knock decisions in held-out games"):
        ts.main(["knock-eval", str(other)])
    with pytest.raises(SystemExit):
        ts.main(["train", str(other), "--out", str(tmp_path / "no" / "m.json")])
    err = capsys.readouterr().err
    assert "argument --out:" in err and f"the folder {tmp_path / 'no'} does not exist" in err
    with pytest.raises(SystemExit):
        ts.main(["train", str(other), "--out", str(tmp_path / "m.json"), "--lr", "-1"])
    assert "argument --lr: -1 is not above 0" in capsys.readouterr().err
    assert not (tmp_path / "x").exists() and not (tmp_path / "m.json").exists()
