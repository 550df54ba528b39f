"""The operator's view (issue 30; web/ops.py, docs/deploy.md "Health and metrics"): /healthz,
/readyz (database reachable, migrations current), /metrics only with --metrics and only to
loopback or --metrics-allow; after a load of 50 tables the counters equal what the clients did."""

from __future__ import annotations

import re
import warnings

import pytest
from sqlalchemy import text
from starlette.testclient import TestClient

from ginrummy.web.app import create_app
from ginrummy.web.db.migrations import head_revision

from .conftest import with_csrf


def _client(db_url: str, host: str = "127.0.0.1", **kw) -> TestClient:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(create_app(db_url, bot_delay=0, **kw), client=(host, 50000))


def _value(page: str, name: str) -> float:
    m = re.search(rf"^{re.escape(name)} (\S+)$", page, re.M)
    assert m, f"{name} not in the metrics"
    return float(m.group(1))


def test_healthz_and_readyz(db_url):
    with _client(db_url) as c:
        r = c.get("/healthz")
        assert (r.status_code, r.json()) == (200, {"status": "alive"})
        r = c.get("/readyz")
        assert (r.status_code, r.json()) == (200, {"status": "ready", "revision": head_revision()})
        with c.app.state.store.engine.begin() as conn:  # as if an older version's schema
            conn.execute(text("UPDATE alembic_version SET version_num = 'older'"))
        r = c.get("/readyz")
        assert r.status_code == 503 and r.json() == {
            "status": "not_ready",
            "reason": f"the database is at revision older, this version needs {head_revision()}: run gin db upgrade",
        }
        c.app.state.store.engine.dispose()
        with c.app.state.store.engine.begin() as conn:
            conn.execute(text(f"UPDATE alembic_version SET version_num = '{head_revision()}'"))


@pytest.mark.parametrize(
    ("metrics", "allow", "host", "status"),
    [
        (False, (), "127.0.0.1", 404),  # off: as an unknown page
        (True, (), "127.0.0.1", 200),  # loopback
        (True, (), "::1", 200),
        (True, (), "10.0.0.7", 404),  # not allowed
        (True, ("10.0.0.0/24",), "10.0.0.7", 200),
        (True, ("10.0.0.5",), "10.0.0.7", 404),
        (True, (), "testclient", 404),  # not an address
    ],
)
def test_metrics_are_off_unless_asked_and_only_for_allowed_addresses(db_url, metrics, allow, host, status):
    with _client(db_url, host, metrics=metrics, metrics_allow=allow) as c:
        r = c.get("/metrics")
        assert r.status_code == status
        if status == 200:
            assert r.headers["content-type"].startswith("text/plain") and "gin_moves_acked_total 0.0" in r.text
        else:
            assert "gin_" not in r.text


def test_metrics_after_a_load_of_50_tables_agree_with_the_clients(db_url):
    tables, moves, illegal, bad_json = 50, 0, 0, 0
    with _client(db_url, metrics=True) as c:
        with_csrf(c)
        mgr = c.app.state.manager
        for k in range(tables):
            r = c.post(
                "/api/tables", json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}]}
            )
            assert r.status_code == 201, r.text
            t = r.json()
            with c.websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}") as ws:
                ws.send_json({"type": "client_seed", "deal": 1, "seed": f"load{k}", "id": "s"})
                while (msg := ws.receive_json()).get("reply_to") != "s":
                    pass
                assert msg["type"] == "ack"
                for n in range(1 + k % 3):  # 1 to 3 moves a table
                    table = mgr.tables[t["id"]]
                    m = table.match
                    if m.player_to_act() != 0 or m.deal.is_over:
                        break
                    ws.send_json({"type": "action", "action": m.view(0).legal[0].text, "id": n})
                    while (msg := ws.receive_json()).get("reply_to") != n:
                        pass
                    assert msg["type"] == "ack", msg
                    moves += 1
                ws.send_json({"type": "action", "action": "discard ZZ", "id": "bad"})
                while (msg := ws.receive_json()).get("reply_to") != "bad":
                    pass
                assert msg["type"] == "error"
                illegal += msg["code"] == "illegal"
                ws.send_text("{not json")
                while (msg := ws.receive_json()).get("type") != "error":
                    pass
                bad_json += msg["code"] == "bad_json"
        page = c.get("/metrics").text
        assert moves > 0 and illegal == tables and bad_json == tables  # moves: who acts first is dealt
        assert _value(page, "gin_moves_acked_total") == moves
        assert _value(page, "gin_ack_seconds_count") == moves
        assert _value(page, 'gin_errors_total{code="illegal"}') == illegal
        assert _value(page, 'gin_errors_total{code="bad_json"}') == bad_json
        assert _value(page, "gin_live_tables") == tables
        assert _value(page, "gin_connections") == 0  # every client has left
        assert _value(page, "gin_commit_seconds_count") == c.app.state.manager.committer.batches > 0
