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
import time
import warnings
from collections.abc import Callable, Iterator
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

    from ginrummy.web.db.store import engine_url

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


def with_csrf(c: TestClient) -> TestClient:
    """``c`` made to pass the CSRF check as a page's script does (docs/accounts.md): it takes
    the ``gin_csrf`` cookie from a first answer and repeats it in the ``X-CSRF-Token`` header
    of every request."""
    c.get("/api/me")
    c.headers["X-CSRF-Token"] = c.cookies["gin_csrf"]
    return c


@pytest.fixture
def client(db_url: str):
    """A TestClient of an app on ``db_url`` whose computer players move at once.  The table
    scores (issue 32: a background review after each deal) are off, so that the tests of other
    features see only their own messages and jobs; tests/web/test_table_scores.py turns them on."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(db_url, bot_delay=0, table_scores=False)
        with TestClient(app) as c:
            yield with_csrf(c)


def next_message(ws: Any, pred: Callable[[dict[str, Any]], bool], limit: int = 2000) -> dict[str, Any]:
    """The next message of a TestClient WebSocket ``ws`` for which ``pred`` holds; the messages
    before it are skipped.  The server may send a state message at any moment (a computer's
    move, a connection or a spectator arriving or leaving, a catch-up), so a test waits for the
    message it asserts on rather than for the next one.  At most ``limit`` messages are read."""
    for _ in range(limit):
        msg = ws.receive_json()
        if pred(msg):
            return msg
    raise AssertionError(f"no such message among the next {limit}")


def next_not_state(ws: Any) -> dict[str, Any]:
    """The next message that is neither a state nor a spectator count (``watchers``), which
    may come at any moment: an answer, an error, a chat line..."""
    return next_message(ws, lambda m: m.get("type") not in ("state", "watchers"))


def wait_until(cond: Callable[[], bool], what: str, seconds: float = 60.0) -> None:
    """Poll ``cond`` until it holds, for at most ``seconds`` (generous: the machine running the
    tests may be loaded; no time is asserted).  Raises ``AssertionError`` naming ``what``."""
    deadline = time.monotonic() + seconds
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds:g} s")
        time.sleep(0.01)


def claim_all(client: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    """Claim every invite of ``table`` (the answer of ``POST /api/tables``), as the invited
    people would: each such seat gets the ``token`` and ``link`` minted for its claimer."""
    for seat in table["seats"]:
        if "invite" in seat:
            code = seat["invite"].split("invite=", 1)[1]
            r = client.post(f"/api/tables/{table['id']}/claim", json={"invite": code})
            assert r.status_code == 200, r.text
            seat["token"], seat["link"] = r.json()["token"], r.json()["link"]
    return table


def send_client_seeds(client: TestClient, table: dict[str, Any], deal: int = 1) -> None:
    """Every person of ``table`` sends a client seed for ``deal`` over the WebSocket (the
    browser does this by itself); the deal is dealt once the last one is in."""
    for i, seat in enumerate(table["seats"]):
        if seat["kind"] != "human":
            continue
        with client.websocket_connect(f"/ws/table/{table['id']}?seat={seat['token']}") as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "client_seed", "deal": deal, "seed": f"test{i}deal{deal}", "id": "seed"})
            while (msg := ws.receive_json()).get("reply_to") != "seed":
                assert msg["type"] == "state", msg
            assert msg["type"] == "ack", msg


def new_table(
    client: TestClient,
    seats: list[dict[str, Any]],
    preset: str = "standard",
    rules: dict[str, Any] | None = None,
    *,
    deal: bool = True,
) -> dict[str, Any]:
    """Open a table, claim its invites (:func:`claim_all`) and, with ``deal``, send every
    person's client seed so that the first deal is dealt (:func:`send_client_seeds`)."""
    r = client.post("/api/tables", json={"preset": preset, "rules": rules or {}, "seats": seats})
    assert r.status_code == 201, r.text
    table = claim_all(client, r.json())
    if deal:
        send_client_seeds(client, table)
    return table


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
