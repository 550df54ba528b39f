"""The project's static checks, run with the tests (docs/architecture.md, "How to check each
goal"; docs/design-notes.md, "Habits"): ``ruff check src``, ``ruff check tests/web``,
``ruff format --check src`` and ``mypy`` (its settings and files in pyproject.toml) each exit 0, so ``./dev test`` and CI fail
on a lint error, an unformatted file or a type error.

The tools are the ones installed next to the running Python (``sys.executable``'s folder, the
virtual environment's ``bin``); a tool that is not installed there is skipped, saying so.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

CHECKS = {
    "ruff check": ("ruff", ["check", "src"]),
    # the web tests are linted too (their exemption is down to the browser tests' fixture imports)
    "ruff check tests/web": ("ruff", ["check", "tests/web"]),
    "ruff format": ("ruff", ["format", "--check", "src"]),
    "mypy": ("mypy", []),
}


def _tool(name: str) -> Path:
    """The tool ``name`` of this virtual environment; skips the test when it is not installed."""
    path = BIN / name
    if not path.is_file():
        pytest.skip(f"{name} is not installed next to {sys.executable} (pip install -e '.[dev]')")
    return path


@pytest.mark.parametrize("check", sorted(CHECKS))
def test_static_check_passes(check):
    tool, args = CHECKS[check]
    done = subprocess.run(
        [str(_tool(tool)), *args], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, f"{check} failed:\n{done.stdout}{done.stderr}"
