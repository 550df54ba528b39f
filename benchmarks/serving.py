"""Start and stop a ``gin serve`` of a benchmark's own, on 127.0.0.1 only (shared by
score_ready.py, bystander.py, abuse.py, puzzle_serving.py, tournament_tick.py).

    from serving import start_server, stop_server
    proc, log = start_server("bystander.py", port, tmp, "--bot-delay", "0")
    try:
        ...
    finally:
        stop_server(proc)

The server runs in a session of its own (so that stopping it stops its workers too), on a
SQLite file ``tmp/gin.sqlite3`` unless the extra arguments name a ``--database-url``, with its
output in ``tmp/server.log``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def start_server(
    who: str,
    port: int,
    tmp: Path,
    *extra: str,
    src: str | Path = ROOT / "src",
    ready: str = "/api/options",
    seconds: float = 60.0,
) -> tuple[subprocess.Popen[bytes], Path]:
    """Start ``gin serve --host 127.0.0.1 --port PORT --log-level warning [--database-url
    sqlite:///TMP/gin.sqlite3] EXTRA...`` with the sources ``src`` first on the path, and wait
    until ``GET ready`` answers (any status but 503) or ``seconds`` pass.

    Returns the process and its log file.  Raises ``SystemExit`` (naming ``who``, with the log's
    end) when the server exits at start or does not answer in time (the server is then killed).
    """
    cmd = [sys.executable, "-m", "ginrummy", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--log-level", "warning"]
    if "--database-url" not in extra:
        cmd += ["--database-url", f"sqlite:///{tmp / 'gin.sqlite3'}"]
    cmd += list(extra)
    env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
    log = tmp / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{who}: the server exited at start; see {log}:\n{log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{ready}", timeout=2):
                return proc, log
        except urllib.error.HTTPError as e:
            if e.code != 503:  # it answers (503: not ready yet, e.g. /readyz)
                return proc, log
            time.sleep(0.1)
        except OSError:
            time.sleep(0.1)
    stop_server(proc, grace=0)
    raise SystemExit(f"{who}: the server did not start in {seconds:g} s; see {log}")


def stop_server(proc: subprocess.Popen[bytes] | None, grace: float = 15.0) -> None:
    """Stop the server's session: SIGTERM, then SIGKILL after ``grace`` seconds (at once for
    ``grace`` 0).  Does nothing for ``None`` or a server already gone."""
    if proc is None or proc.poll() is not None:
        return
    if grace > 0:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(grace)
            return
        except subprocess.TimeoutExpired:
            pass
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(15)
