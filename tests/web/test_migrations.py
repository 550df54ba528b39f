"""Schema migrations (issue 30; ginrummy.web.db.migrations, docs/deploy.md "Upgrading"): a database
written before migrations (tests/web/fixtures/legacy_store.sqlite3, made by main at df93d27
with tests/web/fixtures/make_legacy_store.py) is upgraded at start and loses nothing: every
table resumes where it was, every account signs in, every rating stays; on SQLite and, when
GIN_TEST_DATABASE_URL is set, on PostgreSQL.  The baseline revision is that schema exactly;
several processes upgrading at once migrate once; ``gin db upgrade [--check]``."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, inspect, select, text
from starlette.testclient import TestClient

from ginrummy.web.app import create_app
from ginrummy.web.db.migrations import current_revision, head_revision, upgrade
from ginrummy.web.db.store import engine_url

from .conftest import STORES, database_url

FIXTURES = Path(__file__).resolve().parent / "fixtures"
LEGACY = FIXTURES / "legacy_store.sqlite3"
EXPECTED = json.loads((FIXTURES / "legacy_store.json").read_text())
SRC = str(Path(__file__).resolve().parents[2] / "src")


def _schema(engine) -> dict:
    """Every gin_ table's columns (name, type, nullable, primary key), indexes and unique
    constraints, comparable across two databases of one kind."""
    insp = inspect(engine)
    out = {}
    for t in sorted(insp.get_table_names()):
        if not t.startswith("gin_"):
            continue
        pk = set(insp.get_pk_constraint(t)["constrained_columns"])
        out[t] = {
            "columns": [(c["name"], str(c["type"]), c["nullable"], c["name"] in pk) for c in insp.get_columns(t)],
            "indexes": sorted((i["name"], tuple(i["column_names"]), bool(i["unique"])) for i in insp.get_indexes(t)),
            "unique": sorted(tuple(u["column_names"]) for u in insp.get_unique_constraints(t)),
        }
    return out


def test_the_baseline_is_the_schema_create_all_made(tmp_path):
    legacy = create_engine(f"sqlite:///{LEGACY}")
    fresh = create_engine(f"sqlite:///{tmp_path / 'fresh.db'}")
    upgrade(fresh, revision="0001_baseline")
    assert current_revision(fresh) == "0001_baseline"
    assert current_revision(legacy) is None  # made before migrations
    want = _schema(legacy)
    assert len(want) == 10 and _schema(fresh) == want
    legacy.dispose()
    fresh.dispose()


def _legacy_url(kind: str, tmp_path: Path, url: str) -> str:
    """A database of ``kind`` holding the legacy fixture, at ``url`` (a fresh store)."""
    if kind == "sqlite":
        path = tmp_path / "legacy.sqlite3"
        shutil.copy(LEGACY, path)
        return f"sqlite:///{path}"
    # PostgreSQL: the baseline's tables, no alembic_version (as create_all made them), and
    # every row of the SQLite fixture
    base = importlib.import_module("ginrummy.web.db.migrations.versions.0001_baseline")
    import sqlalchemy as sa

    meta = sa.MetaData()
    tables = [sa.Table(name, meta, *items) for name, items in base._tables()]
    engine = create_engine(engine_url(url))
    meta.create_all(engine)
    src = create_engine(f"sqlite:///{LEGACY}")
    with src.connect() as s, engine.begin() as d:
        for t in tables:
            rows = [dict(r._mapping) for r in s.execute(select(t))]
            if rows:
                d.execute(t.insert(), rows)
        d.execute(
            text("SELECT setval(pg_get_serial_sequence('gin_accounts', 'id'), (SELECT max(id) FROM gin_accounts))")
        )
    src.dispose()
    engine.dispose()
    return url


@pytest.fixture(params=STORES)
def store_url(request, tmp_path):
    yield from database_url(request.param, tmp_path)


def test_a_database_from_before_migrations_is_upgraded_and_loses_nothing(store_url, tmp_path):
    kind = "sqlite" if store_url.startswith("sqlite") else "postgresql"
    url = _legacy_url(kind, tmp_path, store_url)
    engine = create_engine(engine_url(url))
    assert current_revision(engine) is None
    with engine.connect() as conn:
        before = {
            t: conn.execute(text(f"SELECT count(*) FROM {t}")).scalar()
            for t in (
                "gin_tables",
                "gin_actions",
                "gin_seats",
                "gin_accounts",
                "gin_results",
                "gin_result_players",
                "gin_sessions",
                "gin_seat_accounts",
                "gin_rated_tables",
            )
        }
    assert before["gin_tables"] == 4 and before["gin_accounts"] == 4 and before["gin_results"] == 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(url, bot_delay=0)
        with TestClient(app) as c:
            assert current_revision(engine) == head_revision()
            mgr = c.app.state.manager
            assert sorted(mgr.tables) == sorted(EXPECTED["tables"]) and not mgr.skipped
            for tid, want in EXPECTED["tables"].items():
                t = mgr.tables[tid]
                m = t.match
                got = {
                    "seq": t.seq,
                    "started": m is not None and bool(m.deals),
                    "finished": bool(m is not None and m.finished),
                    "hands": [list(map(str, m.view(p).to_json()["hand"])) for p in range(2)]
                    if m is not None and m.deals
                    else None,
                    "totals": list(m.sheet.totals) if m is not None else None,
                }
                assert got == want, tid
            for name in EXPECTED["accounts"]:
                c.cookies.clear()
                c.get("/api/me")
                r = c.post(
                    "/api/session",
                    json={"name": name, "password": EXPECTED["password"]},
                    headers={"X-CSRF-Token": c.cookies["gin_csrf"]},
                )
                assert r.status_code == 200, (name, r.text)
            board = {e["name"]: [e["mu"], e["sigma"], e["matches"]] for e in c.get("/api/leaderboard").json()}
            assert board == EXPECTED["leaderboard"]
    with engine.connect() as conn:
        after = {t: conn.execute(text(f"SELECT count(*) FROM {t}")).scalar() for t in before}
        assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
    # sign-ins added sessions; nothing else changed
    assert {k: v for k, v in after.items() if k != "gin_sessions"} == {
        k: v for k, v in before.items() if k != "gin_sessions"
    }
    engine.dispose()


def test_several_processes_starting_at_once_migrate_once(tmp_path):
    db = tmp_path / "race.sqlite3"
    code = (
        "import sys; from sqlalchemy import create_engine; from ginrummy.web.db.migrations import upgrade; "
        "print(upgrade(create_engine(sys.argv[1]))[0])"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, f"sqlite:///{db}"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
        )
        for _ in range(4)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], [o[1][-400:] for o in outs]
    # exactly one found the database empty (None) and migrated; the others found it current
    assert sorted(o[0].strip() for o in outs) == sorted(["None"] + [head_revision()] * 3)
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(text("alembic_version"))).scalar() == 1
    engine.dispose()


def _gin(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ginrummy", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin", "HOME": "/tmp"},
    )


def test_gin_db_upgrade_and_check(tmp_path):
    path = tmp_path / "legacy.sqlite3"
    shutil.copy(LEGACY, path)
    url = f"sqlite:///{path}"
    r = _gin("db", "upgrade", "--check", "--database-url", url)
    assert r.returncode == 1 and r.stdout.strip() == (
        f"the database sqlite:///{path} is at no revision (made before migrations); "
        f"this version needs {head_revision()}: run gin db upgrade"
    )
    r = _gin("db", "upgrade", "--database-url", url)
    assert r.returncode == 0 and r.stdout.strip() == (
        f"the database sqlite:///{path} was at no revision (made before migrations) and is now at {head_revision()}"
    )
    r = _gin("db", "upgrade", "--check", "--database-url", url)
    assert r.returncode == 0 and r.stdout.strip() == f"the database sqlite:///{path} is at {head_revision()}: current"
    r = _gin("db", "upgrade", "--database-url", "mysql://x@localhost/y")
    assert r.returncode == 2 and "mysql is not supported" in r.stderr


def test_gin_db_upgrade_check_of_a_missing_file_makes_none(tmp_path):
    """A check changes nothing: a mistyped path was made an empty file and reported as a
    database made before migrations (found by the new-user trial)."""
    path = tmp_path / "typo.sqlite3"
    r = _gin("db", "upgrade", "--check", "--database-url", f"sqlite:///{path}")
    assert r.returncode == 1 and r.stdout.strip() == (
        f"there is no database at sqlite:///{path}: gin serve (or gin db upgrade) makes one there"
    )
    assert not path.exists()
