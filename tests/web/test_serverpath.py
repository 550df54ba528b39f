"""benchmarks/serverpath.py in small: a few tables of a scripted person against the computer,
driven through ``TableManager`` in one process, make acknowledged moves and report the CPU
they took (figures only; no time is asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_serverpath_plays_and_reports_its_figures() -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "serverpath.py"),
            "--tables",
            "3",
            "--seconds",
            "2",
            "--warmup",
            "0.5",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )  # bound, generous for a loaded machine
    assert out.returncode == 0, out.stdout + out.stderr
    r = json.loads(out.stdout)
    assert r["tables"] == 3
    assert r["acked_moves_per_s"] > 0 and r["cpu_ms_per_acked_move"] > 0
    assert set(r) == {"tables", "seconds", "acked_moves_per_s", "cpu_percent", "cpu_ms_per_acked_move"}
