"""Issue 27: start-up cannot be made to crash.  A stored table that cannot be resumed (its
rules now past a bound of R14, a step that no longer replays, a row that does not decode) is
skipped with one log line naming it, and answers 404 saying so; the other tables are served."""

from __future__ import annotations

import json
import logging
import warnings

from sqlalchemy import update
from starlette.testclient import TestClient

from ginrummy.web.app import create_app
from ginrummy.web.db.store import Store, tables_t

from .conftest import new_table, with_csrf

SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}]


def _app(db_url: str) -> TestClient:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(create_app(db_url, bot_delay=0))


def test_a_table_past_the_bounds_or_broken_is_skipped_at_start_up(db_url, caplog):
    with _app(db_url) as c:
        c = with_csrf(c)
        good = new_table(c, SEATS)
        huge = new_table(c, SEATS, rules={"target": 500}, deal=False)
        broken = new_table(c, SEATS, deal=False)
        garbled = new_table(c, SEATS, deal=False)
    store = Store(db_url)
    with store.engine.begin() as conn:  # written in the store directly, as an older server would have
        rules = dict(json.loads(conn.execute(tables_t.select().where(tables_t.c.id == huge["id"])).first().rules))
        rules["target"] = 1_000_000
        conn.execute(update(tables_t).where(tables_t.c.id == huge["id"]).values(rules=json.dumps(rules)))
        conn.execute(update(tables_t).where(tables_t.c.id == garbled["id"]).values(seed="not hex"))
    store.append(broken["id"], 1, 0, "action", "discard ZZ")
    store.close()

    caplog.set_level(logging.WARNING, logger="ginrummy.web")
    with _app(db_url) as c:
        lines = [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()]
        assert sorted(lines) == sorted(
            [
                f"table {huge['id']} skipped: it cannot be resumed (rule target=1000000 is out of range; allowed: 1..1000)",
                f"table {broken['id']} skipped: it cannot be resumed (NotYourTurnError)",
                f"table {garbled['id']} skipped: it cannot be resumed (ValueError)",
            ]
        )
        r = c.get(f"/api/tables/{good['id']}/record?seat={good['seats'][0]['token']}")
        assert r.status_code == 200 and "gin-record" in r.text
        for t in (huge, broken, garbled):
            r = c.get(f"/api/tables/{t['id']}/record?seat={t['seats'][0]['token']}")
            assert (r.status_code, r.json()["error"]) == (
                404,
                f"the table {t['id']} cannot be resumed: its stored rules or moves are not valid now",
            )
        # asked again: not retried, not logged again
        assert len([r for r in caplog.records if "skipped" in r.getMessage()]) == 3
