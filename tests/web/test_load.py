"""benchmarks/load.py in small: a few tables of scripted players over real WebSockets on
127.0.0.1, the server killed with SIGKILL twice; every acknowledged step is stored and every
table resumes.  On a SQLite file and on PostgreSQL, and two servers on one PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(*args: str) -> dict:
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "load.py"),
            "--tables",
            "4",
            "--seconds",
            "4",
            "--warmup",
            "1",
            "--stuck-seconds",
            "60",
            "--json",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )  # bounds, generous for a loaded machine
    assert out.returncode == 0, out.stdout + out.stderr
    return json.loads(out.stdout)


def _pg() -> str:
    url = os.environ.get("GIN_TEST_DATABASE_URL")
    if not url:
        pytest.skip("no PostgreSQL for the tests: GIN_TEST_DATABASE_URL is not set (./dev test starts one)")
    return url


@pytest.mark.slow
@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_load_with_kills_loses_no_acknowledged_step(store: str) -> None:
    args = ["--kills", "2"] + (["--database-url", _pg()] if store == "postgresql" else [])
    r = _load(*args)
    assert r["store"] == store and r["kills"] == 2
    assert r["acked_steps_checked"] > 0 and r["acked_steps_missing"] == 0
    assert r["stuck_tables"] == 0 and r["acked_moves_per_s"] > 0
    assert r["errors"] == {}


@pytest.mark.slow
def test_two_servers_on_one_postgresql_under_load() -> None:
    r = _load("--servers", "2", "--kills", "1", "--database-url", _pg())
    assert r["servers"] == 2 and len(r["server_cpu_percent"]) == 2
    assert r["acked_steps_checked"] > 0 and r["acked_steps_missing"] == 0 and r["stuck_tables"] == 0


@pytest.mark.slow
def test_paced_tables_offer_about_the_rate_with_random_waits() -> None:
    """--rate 20 over 4 tables: each table waits 0.2 s on average (exponential waits, --think
    random) between its moves, so far fewer moves than the unpaced hundreds a second."""
    r = _load("--rate", "20")
    assert r["offered_moves_per_s"] == 20 and r["think"] == "random"
    assert 0 < r["acked_moves_per_s"] <= 40
    assert r["acked_steps_missing"] == 0 and r["errors"] == {}
