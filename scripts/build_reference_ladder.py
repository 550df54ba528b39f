"""Build the reference ladder that a new web server's computer levels start from (issue 34).

    PYTHONPATH=src python scripts/build_reference_ladder.py          # plays the ladder (slow)
    PYTHONPATH=src python scripts/build_reference_ladder.py --from out.json   # a saved --json

It runs ``gin ladder --games 60 --seed 1 --json`` (the default levels: random, novice, club,
expert; the default rules, a game to 100) on a new SQLite database in a temporary folder, and
writes the levels' final ``mu`` and ``sigma`` with the command that made them to
``src/ginrummy/web/community/reference_ladder.json``.  ``gin serve`` gives a computer level
these when its account is first made on the server's database (``docs/accounts.md``, "The
reference ladder").  Match ``i`` depends only on the seed and ``i``: the same command always
writes the same file.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

COMMAND = ["ladder", "--games", "60", "--seed", "1", "--json"]
OUT = Path(__file__).resolve().parents[1] / "src/ginrummy/web/community/reference_ladder.json"


def main() -> int:
    """Write the reference ladder; 0 when done."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--from", dest="source", help="the saved output of the same gin ladder --json run")
    args = ap.parse_args()
    if args.source:
        text = Path(args.source).read_text(encoding="utf-8")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            db = ["--database-url", f"sqlite:///{tmp}/ladder.sqlite3"]
            run = subprocess.run(
                [sys.executable, "-m", "ginrummy", *COMMAND, *db], capture_output=True, text=True, check=True
            )
            text = run.stdout
    got = json.loads(text)
    data = {
        "command": "gin " + " ".join(COMMAND),
        "games": got["games"],
        "seed": got["seed"],
        "levels": {e["level"]: {"mu": e["mu"], "sigma": e["sigma"], "rating": e["rating"]} for e in got["levels"]},
    }
    OUT.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: " + ", ".join(f"{k} {v['rating']}" for k, v in data["levels"].items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
