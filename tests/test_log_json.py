"""``gin serve --log-format json``: one JSON object a line, seat tokens masked (issue 30;
docs/deploy.md, "Logs")."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from ginrummy.cli.main import main
from ginrummy.cli.server.logs import JsonFormatter, json_line, json_log_config

TOKEN = "4Jx_SeCrEt-tOkEn-0123"


def _record(name: str, msg: str, args: tuple[object, ...], **extra: object) -> logging.LogRecord:
    record = logging.LogRecord(name, logging.INFO, "h11_impl.py", 1, msg, args, None)
    record.created = 1_796_400_000.25  # 2026-12-04T16:00:00.250Z
    record.__dict__.update(extra)
    return record


def test_an_access_line_is_one_json_object_with_its_request_fields_and_the_seat_masked():
    record = _record("uvicorn.access", '%s - "%s %s HTTP/%s" %d',
                     ("127.0.0.1:5000", "GET", f"/table/abc123?seat={TOKEN}&lang=el", "1.1", 200))
    line = JsonFormatter().format(record)
    assert "\n" not in line and TOKEN not in line
    assert json.loads(line) == {
        "time": "2026-12-04T16:00:00.250Z",
        "level": "INFO",
        "logger": "uvicorn.access",
        "message": '127.0.0.1:5000 - "GET /table/abc123?seat=***&lang=el HTTP/1.1" 200',
        "client": "127.0.0.1:5000",
        "method": "GET",
        "path": "/table/abc123?seat=***&lang=el",
        "http_version": "1.1",
        "status": 200,
    }


def test_a_websocket_line_extra_fields_and_a_traceback_are_masked_too():
    ws = _record("uvicorn.error", '%s - "WebSocket %s" [accepted]', ("10.0.0.7:4242", f"/ws/table/t1?seat={TOKEN}"))
    assert json.loads(JsonFormatter().format(ws)) == {
        "time": "2026-12-04T16:00:00.250Z", "level": "INFO", "logger": "uvicorn.error",
        "message": '10.0.0.7:4242 - "WebSocket /ws/table/t1?seat=***" [accepted]',
        "client": "10.0.0.7:4242", "method": "WebSocket", "path": "/ws/table/t1?seat=***", "status": 101,
    }
    try:
        raise ValueError(f"bad link /table/t1?invite={TOKEN}")
    except ValueError:
        failed = _record("ginrummy.web", "table %s: message handling failed", ("t1",),
                         table="t1", link=f"postgresql://gin:{TOKEN}@db/gin")
        failed.exc_info = sys.exc_info()
    out = json.loads(JsonFormatter().format(failed))
    assert TOKEN not in json.dumps(out)
    assert out["message"] == "table t1: message handling failed"
    assert out["table"] == "t1" and out["link"] == "postgresql://gin:***@db/gin"
    assert out["exc"].splitlines()[-1] == "ValueError: bad link /table/t1?invite=***"
    assert json.loads(json_line("ginrummy.serve", "gin serve: http://127.0.0.1:8000/", url="http://127.0.0.1:8000/")
                      )["url"] == "http://127.0.0.1:8000/"


def test_the_config_sends_every_logger_through_the_json_formatter():
    config = json_log_config("warning")
    assert config["loggers"]["ginrummy"] == {"handlers": ["default"], "level": "WARNING", "propagate": False}
    assert config["root"] == {"handlers": ["default"], "level": "WARNING"}
    assert {h["formatter"] for h in config["handlers"].values()} == {"json"}


def test_a_log_format_not_known_is_one_line_and_exit_2(capsys):
    assert main(["serve", "--log-format", "xml"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == "gin: error: --log-format 'xml' is not allowed; allowed: text, json\n"


@pytest.mark.slow
def test_gin_serve_writes_json_lines_and_masks_the_seat_token(tmp_path: Path):
    out, err = tmp_path / "out.log", tmp_path / "err.log"
    with out.open("wb") as o, err.open("wb") as e:
        proc = subprocess.Popen(
            [sys.executable, "-m", "ginrummy", "serve", "--port", "0", "--bot-delay", "0", "--log-format", "json",
             "--database-url", f"sqlite:///{tmp_path / 'gin.sqlite3'}"],
            stdout=o, stderr=e, start_new_session=True)
        try:
            port = _port(out, proc)
            base = f"http://127.0.0.1:{port}"
            t = httpx.post(base + "/api/tables", json={"preset": "standard", "rules": {}, "seats": [
                {"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}]}).json()
            token = t["seats"][0]["token"]
            assert httpx.get(f"{base}/table/{t['id']}?seat={token}").status_code == 200

            async def ws() -> None:
                import websockets

                async with websockets.connect(f"ws://127.0.0.1:{port}/ws/table/{t['id']}?seat={token}") as sock:
                    assert json.loads(await asyncio.wait_for(sock.recv(), 60))["type"] == "state"
            asyncio.run(ws())
            deadline = time.monotonic() + 60  # the access lines are written as the server answers
            while f"/ws/table/{t['id']}?seat=***" not in err.read_text() and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(30)
    lines = out.read_text().splitlines() + err.read_text().splitlines()
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert token not in out.read_text() + err.read_text()
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    gets = [r for r in records if r.get("method") == "GET" and r["path"].startswith(f"/table/{t['id']}")]
    assert [(g["logger"], g["path"], g["status"]) for g in gets] == [
        ("uvicorn.access", f"/table/{t['id']}?seat=***", 200)]
    sockets = [r for r in records if r.get("method") == "WebSocket"]
    assert [(s["path"], s["status"]) for s in sockets] == [(f"/ws/table/{t['id']}?seat=***", 101)]
    assert records[0]["logger"] == "ginrummy.serve" and records[0]["url"] == f"http://127.0.0.1:{port}/"


def _port(out: Path, proc: subprocess.Popen[bytes]) -> int:
    """The port ``gin serve --port 0`` printed in its first (JSON) line, once it answers."""
    deadline = time.monotonic() + 90  # generous: a loaded machine imports slowly; no time is asserted
    while time.monotonic() < deadline:
        assert proc.poll() is None, out.read_text() + out.with_name("err.log").read_text()
        text = out.read_text()
        if text.endswith("\n"):
            port = int(json.loads(text.splitlines()[0])["url"].rsplit(":", 1)[1].strip("/"))
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    return port
            except httpx.HTTPError:
                pass
        time.sleep(0.1)
    raise AssertionError("gin serve did not start")


def test_an_error_that_stops_a_starting_server_is_one_json_line_on_stderr(tmp_path: Path):
    missing = tmp_path / "no-such-folder" / "gin.sqlite3"
    done = subprocess.run([sys.executable, "-m", "ginrummy", "serve", "--port", "0", "--log-format", "json",
                           "--database-url", f"sqlite:///{missing}"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.splitlines()
    record = json.loads(line)
    assert (record["level"], record["logger"]) == ("ERROR", "ginrummy.serve")
    assert record["message"].startswith(f"gin: error: cannot open the database sqlite:///{missing}: ")
