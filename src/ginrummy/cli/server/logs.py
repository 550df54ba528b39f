"""Structured logs for ``gin serve --log-format json`` (docs/deploy.md, "Logs").

One JSON object a line: ``time`` (ISO 8601, UTC, milliseconds), ``level`` (``INFO``,
``WARNING``...), ``logger`` (``uvicorn.access``, ``uvicorn.error``, ``ginrummy.web``...),
``message`` (the line as the text format would show it), and where the record is about a
request, its fields: ``client`` (``ADDRESS:PORT``), ``method`` (``GET``... or ``WebSocket``),
``path`` (with its query), ``http_version`` and ``status`` (an int; ``101`` for an accepted
WebSocket).  A record's ``extra`` fields are added as they are; a traceback is ``exc``.  Every
string written is passed through :func:`ginrummy.web.security.redact` first, so seat tokens,
invites and database passwords are masked (``seat=***``) whatever logged them.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

__all__ = ["LOG_FORMATS", "JsonFormatter", "json_log_config", "json_line"]

LOG_FORMATS = ("text", "json")
"""The values of ``gin serve --log-format``."""

# the attributes every LogRecord has (and uvicorn's colour copy of a message): not extra fields
_RECORD_KEYS = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime", "color_message", "taskName"}
_WS_PREFIX = '%s - "WebSocket %s"'
_WS_STATUS = {'%s - "WebSocket %s" [accepted]': 101, '%s - "WebSocket %s" 403': 403}


def _redact(text: str) -> str:
    from ...web.security import redact

    return redact(text)


def _clean(value: Any) -> Any:
    """``value`` ready for JSON: strings redacted, containers walked, other types as text."""
    if isinstance(value, str):
        return _redact(value)
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return _redact(str(value))


def request_fields(record: logging.LogRecord) -> dict[str, Any]:
    """The request fields of an uvicorn record: its access line (``uvicorn.access``: client,
    method, path, HTTP version, status) or its WebSocket handshake line (``uvicorn.error``:
    client, ``method`` ``WebSocket``, path, status); ``{}`` for any other record."""
    args = record.args if isinstance(record.args, tuple) else ()
    if record.name == "uvicorn.access" and len(args) == 5:
        client, method, path, version, status = args
        return {"client": client, "method": method, "path": path, "http_version": version, "status": status}
    if isinstance(record.msg, str) and record.msg.startswith(_WS_PREFIX) and len(args) >= 2:
        status = _WS_STATUS.get(record.msg, args[2] if len(args) == 3 else None)
        return {"client": args[0], "method": "WebSocket", "path": args[1], "status": status}
    return {}


class JsonFormatter(logging.Formatter):
    """A :class:`logging.Formatter` writing each record as one line of JSON (the module's
    docstring lists the keys).  Never raises on odd records: a message that cannot be made
    from its arguments is written as its format string."""

    def format(self, record: logging.LogRecord) -> str:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string must not lose the line
            message = str(record.msg)
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": message,
        }
        out.update(request_fields(record))
        for key, value in vars(record).items():
            if key not in _RECORD_KEYS and key not in out:
                out[key] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exc"] = record.exc_text
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(_clean(out), ensure_ascii=False)


def json_line(logger: str, message: str, level: int = logging.INFO, **fields: Any) -> str:
    """One JSON log line for ``message`` from ``logger`` with ``fields`` (what ``gin serve``
    prints at start, in the JSON format)."""
    record = logging.makeLogRecord(
        {"name": logger, "msg": message, "levelno": level, "levelname": logging.getLevelName(level), **fields}
    )
    return JsonFormatter().format(record)


def json_log_config(level: str) -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` dictionary (uvicorn's ``log_config``) writing every
    log as JSON lines: uvicorn's access lines on stdout, the rest (uvicorn, ``ginrummy``, and
    anything else reaching the root logger at ``WARNING`` or above) on stderr.  ``level``:
    ``critical``, ``error``, ``warning``, ``info`` or ``debug`` (for ``ginrummy``'s loggers;
    uvicorn's are set by uvicorn from the same option)."""
    formatter = {"()": f"{__name__}.JsonFormatter"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": formatter},
        "handlers": {
            "default": {"formatter": "json", "class": "logging.StreamHandler", "stream": "ext://sys.stderr"},
            "access": {"formatter": "json", "class": "logging.StreamHandler", "stream": "ext://sys.stdout"},
        },
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
            "ginrummy": {"handlers": ["default"], "level": level.upper(), "propagate": False},
        },
        "root": {"handlers": ["default"], "level": "WARNING"},
    }
