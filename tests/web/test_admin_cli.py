"""``gin admin`` (issue 30; cli/server/admin.py, docs/deploy.md "gin admin"): moderator (the role column
of migration 0002), reset-password (from standard input; sessions end), tables, and backup
(SQLite's online backup API, while a connection holds the database open)."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, text

from ginrummy.web.community.accounts import Accounts
from ginrummy.web.db.migrations import head_revision

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SRC = str(Path(__file__).resolve().parents[2] / "src")


def _gin(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ginrummy", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin", "HOME": "/tmp"},
    )


def test_admin_commands_on_an_upgraded_database(tmp_path):
    path = tmp_path / "gin.sqlite3"
    shutil.copy(FIXTURES / "legacy_store.sqlite3", path)
    url = f"sqlite:///{path}"
    r = _gin("admin", "moderator", "ann", "--database-url", url)
    assert (r.returncode, r.stdout) == (0, "ann is a moderator\n"), r.stderr
    engine = create_engine(url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == head_revision()
        roles = dict(conn.execute(text("SELECT name, role FROM gin_accounts")).all())
    assert roles == {"Ann": "moderator", "Bob": None, "Carol": None, "novice": None}
    assert _gin("admin", "moderator", "Ann", "--remove", "--database-url", url).stdout == "Ann is a player\n"
    r = _gin("admin", "moderator", "Zed", "--database-url", url)
    assert r.returncode == 2 and "no account is called 'Zed'" in r.stderr
    r = _gin("admin", "moderator", "novice", "--database-url", url)
    assert r.returncode == 2  # a computer level is no person's account

    accounts = Accounts(engine)
    token = accounts.open_session(accounts.verify("Bob", "correct horse"))
    assert accounts.account_of(token) is not None
    r = _gin("admin", "reset-password", "Bob", "--database-url", url, stdin="new secret 42\n")
    # two sessions: the one the fixture's sign-up opened and this one
    assert (r.returncode, r.stdout) == (0, "Bob's password is changed; 2 session(s) ended\n"), r.stderr
    assert "new secret 42" not in r.stdout + r.stderr
    assert accounts.account_of(token) is None
    assert accounts.verify("Bob", "new secret 42").name == "Bob"
    r = _gin("admin", "reset-password", "Bob", "--database-url", url, stdin="short\n")
    assert r.returncode == 2 and "a password has 8 to 128 characters, not 5; nothing changed" in r.stderr

    r = _gin("admin", "tables", "--database-url", url)
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and lines[-1] == "4 table(s)" and len(lines) == 5

    # a backup while another connection holds a write transaction open
    held = sqlite3.connect(path)
    held.execute("BEGIN IMMEDIATE")
    held.execute("INSERT INTO gin_table_options VALUES ('pending', '{}')")
    copy = tmp_path / "copy.sqlite3"
    r = _gin("admin", "backup", str(copy), "--database-url", url)
    held.rollback()
    held.close()
    assert r.returncode == 0 and r.stdout.startswith(f"backed up {path} to {copy} ("), r.stderr
    one, two = sqlite3.connect(path), sqlite3.connect(copy)
    for t in ("gin_tables", "gin_actions", "gin_accounts", "gin_results", "gin_table_options"):
        assert (
            one.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
            == two.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
        )
    assert two.execute("SELECT count(*) FROM gin_table_options WHERE table_id = 'pending'").fetchone() == (0,)
    one.close(), two.close()
    r = _gin("admin", "backup", str(copy), "--database-url", url)
    assert r.returncode == 2 and "exists already" in r.stderr
    r = _gin("admin", "backup", str(tmp_path / "x"), "--database-url", "postgresql://u:pw@127.0.0.1:1/db")
    assert r.returncode == 2 and "use pg_dump" in r.stderr and "pw" not in r.stderr
    engine.dispose()


def test_an_unknown_account_is_said_before_a_password_is_read(tmp_path):
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    r = _gin("admin", "reset-password", "Zed", "--database-url", url, stdin="short\n")
    assert (r.returncode, r.stderr) == (
        2,
        "gin: error: no account is called 'Zed' (names are compared ignoring case; computer levels have no password)\n",
    )


def test_a_missing_or_closed_folder_is_one_clear_line(tmp_path):
    """Not the OS's error about the migration's lock file (``x.sqlite3.migrate.lock``)."""
    url = f"sqlite:///{tmp_path / 'missing' / 'x.sqlite3'}"
    r = _gin("admin", "moderator", "Ann", "--database-url", url)
    assert (r.returncode, r.stderr) == (
        2,
        f"gin: error: cannot open the database {url}: the folder {tmp_path / 'missing'} does not exist; make it first\n",
    )
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o500)
    url = f"sqlite:///{closed / 'x.sqlite3'}"
    r = _gin("admin", "moderator", "Ann", "--database-url", url)
    if r.stderr.startswith("gin: error: no account"):  # run as root: the folder is writable
        return
    assert (r.returncode, r.stderr) == (
        2,
        f"gin: error: cannot open the database {url}: this user may not write in the folder {closed}\n",
    )
