"""The API reference (docs/api, ``scripts/api-docs.sh``) builds from the docstrings with no
warning (Sphinx autodoc, ``-W``).  Skipped when Sphinx is not installed (the ``dev`` extra has it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_api_reference_builds_without_a_warning(tmp_path):
    pytest.importorskip("sphinx")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                          str(ROOT / "docs" / "api"), str(tmp_path / "html")],
                         capture_output=True, text=True, env=env, timeout=600)
    assert (out.returncode, out.stderr) == (0, "")
