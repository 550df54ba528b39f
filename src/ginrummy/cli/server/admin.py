"""``gin admin``: the host's commands on the web table's database (docs/deploy.md, "gin admin").

``gin admin moderator NAME [--remove]``
    make the account ``NAME`` a moderator (``gin_accounts.role``, migration 0002), or a player again;
``gin admin reset-password NAME``
    set a new password, read from standard input (never from the command line: it would show
    in the process list and the shell's history), and end the account's sessions;
``gin admin tables``
    the stored tables: id, created, names, steps stored, last step (UTC);
``gin admin backup FILE``
    a consistent copy of a SQLite database through SQLite's online backup API, safe while
    ``gin serve`` runs; for PostgreSQL use ``pg_dump`` (the command says so).

Each opens the database as ``gin serve`` does (``--database-url``) and migrates it first.
"""

from __future__ import annotations

import getpass
import json
import os
import sys

import typer

from ..common import fail
from ..main import app
from .db import DATABASE_HELP, open_engine

__all__ = ["admin_app"]

admin_app = typer.Typer(
    help="The host's commands: moderators, passwords, tables, backups (docs/deploy.md).", no_args_is_help=True
)
app.add_typer(admin_app, name="admin")


def _engine(database_url: str):  # -> tuple[str, Engine]
    from ...web.db.migrations import upgrade
    from .serve import database_error

    url, engine = open_engine(database_url)
    try:
        upgrade(engine)
    except Exception as exc:
        fail(database_error(url, exc))
    return url, engine


def _account_id(conn, name: str) -> int:
    """The id of the living person's account called ``name`` (any case), or exit 2."""
    from sqlalchemy import text

    from ...web.community.accounts import name_key

    row = conn.execute(
        text("SELECT id FROM gin_accounts WHERE name_key = :k AND deleted = 0 AND kind = 'human'"),
        {"k": name_key(name)},
    ).first()
    if row is None:
        fail(f"no account is called {name!r} (names are compared ignoring case; computer levels have no password)")
    return int(row[0])


@admin_app.command("moderator")
def moderator(
    name: str = typer.Argument(..., help="The account's name."),
    remove: bool = typer.Option(False, "--remove", help="Make the account a player again."),
    database_url: str = typer.Option("", "--database-url", help=DATABASE_HELP),
) -> None:
    """Make an account a moderator (or, with --remove, a player again)."""
    from sqlalchemy import text

    _, engine = _engine(database_url)
    with engine.begin() as conn:
        account = _account_id(conn, name)
        conn.execute(
            text("UPDATE gin_accounts SET role = :r WHERE id = :i"),
            {"r": None if remove else "moderator", "i": account},
        )
    engine.dispose()
    print(f"{name} is {'a player' if remove else 'a moderator'}")


@admin_app.command("reset-password")
def reset_password(
    name: str = typer.Argument(..., help="The account's name."),
    database_url: str = typer.Option("", "--database-url", help=DATABASE_HELP),
) -> None:
    """Set an account's password (typed twice at a terminal, else the first line of standard
    input) and sign it out everywhere.  The account is looked up first: an unknown name is
    said before any password is asked for."""
    from argon2 import PasswordHasher
    from sqlalchemy import text

    from ...web.community.accounts import PASSWORD_MAX, PASSWORD_MIN

    _, engine = _engine(database_url)
    with engine.connect() as conn:
        _account_id(conn, name)
    if sys.stdin.isatty():
        password = getpass.getpass("new password: ")
        if getpass.getpass("again: ") != password:
            fail("the two passwords differ; nothing changed")
    else:
        password = sys.stdin.readline().rstrip("\n")
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        fail(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters, not {len(password)}; nothing changed")
    with engine.begin() as conn:
        account = _account_id(conn, name)
        conn.execute(
            text("UPDATE gin_accounts SET password_hash = :h WHERE id = :i"),
            {"h": PasswordHasher().hash(password), "i": account},
        )
        ended = conn.execute(text("DELETE FROM gin_sessions WHERE account_id = :i"), {"i": account}).rowcount
    engine.dispose()
    print(f"{name}'s password is changed; {ended} session(s) ended")


@admin_app.command("tables")
def tables(
    database_url: str = typer.Option("", "--database-url", help=DATABASE_HELP),
    as_json: bool = typer.Option(False, "--json", help="One JSON list instead of lines."),
) -> None:
    """List the stored tables: id, created, names, steps stored, time of the last step (UTC).
    A running server holds them all in memory and resumes them at start."""
    from sqlalchemy import text

    _, engine = _engine(database_url)
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT t.id, t.created, t.names, count(a.seq), max(a.created) FROM gin_tables t "
                "LEFT JOIN gin_actions a ON a.table_id = t.id GROUP BY t.id, t.created, t.names "
                "ORDER BY t.created, t.id"
            )
        ).all()
    engine.dispose()
    out = [
        {"id": r[0], "created": r[1], "names": json.loads(r[2]), "steps": int(r[3]), "last_step": r[4]} for r in rows
    ]
    if as_json:
        print(json.dumps(out))
        return
    for t in out:
        print(f"{t['id']}  {t['created']}  {' / '.join(t['names'])}  {t['steps']} steps  last {t['last_step'] or '-'}")
    print(f"{len(out)} table(s)")


@admin_app.command("backup")
def backup(
    file: str = typer.Argument(..., help="The copy to write (a new file)."),
    database_url: str = typer.Option("", "--database-url", help=DATABASE_HELP),
) -> None:
    """Copy a SQLite database to FILE with SQLite's online backup API: consistent, and safe
    while gin serve runs.  For PostgreSQL, use pg_dump (docs/deploy.md)."""
    import sqlite3

    from ...web.db.store import masked_url

    url, engine = open_engine(database_url)
    if engine.url.get_backend_name() != "sqlite":
        fail(
            f"gin admin backup copies SQLite files; for {masked_url(url)} use pg_dump "
            "(pg_dump --format=custom --file=FILE DBNAME, docs/deploy.md)"
        )
    source = engine.url.database
    engine.dispose()
    if not source or source == ":memory:" or not os.path.exists(source):
        fail(f"no SQLite file at {source!r}")
    if os.path.exists(file):
        fail(f"{file} exists already; give a new file name")
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(file)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    print(f"backed up {source} to {file} ({os.path.getsize(file)} bytes)")
