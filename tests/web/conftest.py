"""Shared helpers of the web tests: an app on a temp SQLite file, table creation, and a
websocket reader that records every message for the visibility scans.

:func:`database_url` makes a fresh store of either kind: a SQLite file, or a schema of its
own in the PostgreSQL of ``GIN_TEST_DATABASE_URL`` (``./dev test`` starts a throw-away
cluster and sets it; without it the PostgreSQL cases are skipped).  Modules that run against
both stores override ``db_url`` with ``params=STORES``."""

from __future__ import annotations

import os
import re
import secrets
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402

from ginrummy.web.app import create_app  # noqa: E402

CARD_RE = re.compile(r"\b([A2-9TJQK][CDHS])\b")


STORES = ["sqlite", "postgresql"]


def database_url(kind: str, tmp_path: Any) -> Iterator[str]:
    """Yield the URL of an empty store of ``kind`` (``"sqlite"`` or ``"postgresql"``), and drop
    the PostgreSQL schema afterwards.  Skips the test when no PostgreSQL is configured."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'gin.sqlite3'}"
        return
    base = os.environ.get("GIN_TEST_DATABASE_URL")
    if not base:
        pytest.skip("no PostgreSQL for the tests: GIN_TEST_DATABASE_URL is not set (./dev test starts one)")
    from sqlalchemy import create_engine, text

    from ginrummy.web.store import engine_url

    schema = "t_" + secrets.token_hex(6)
    engine = create_engine(engine_url(base))
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()


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
