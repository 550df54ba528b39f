"""Shared helpers of the web tests: an app on a temp SQLite file, table creation, and a
websocket reader that records every message for the visibility scans."""

from __future__ import annotations

import re
import warnings
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402

from ginrummy.web.app import create_app  # noqa: E402

CARD_RE = re.compile(r"\b([A2-9TJQK][CDHS])\b")


@pytest.fixture
def db_url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path / 'gin.sqlite3'}"


@pytest.fixture
def client(db_url: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(db_url, bot_delay=0)
        with TestClient(app) as c:
            yield c


def new_table(client: TestClient, seats: list[dict[str, Any]], preset: str = "standard",
              rules: dict[str, Any] | None = None) -> dict[str, Any]:
    r = client.post("/api/tables", json={"preset": preset, "rules": rules or {}, "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()


def cards_in(obj: Any) -> set[str]:
    """Every card text (R1.4 notation) found in any string of a JSON value."""
    out: set[str] = set()
    if isinstance(obj, str):
        out.update(CARD_RE.findall(obj))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out |= cards_in(k) | cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= cards_in(v)
    return out
