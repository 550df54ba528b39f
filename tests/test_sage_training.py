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
