"""``gin db upgrade [--check]``: bring the web table's database to this version's schema
(Alembic migrations shipped in :mod:`ginrummy.web.db.migrations`; docs/deploy.md, "Upgrading")."""

from __future__ import annotations

import typer

from ..common import fail
from ..main import app

__all__ = ["db_app", "upgrade_command", "open_engine"]

db_app = typer.Typer(help="The web table's database: schema migrations (docs/deploy.md).", no_args_is_help=True)
app.add_typer(db_app, name="db")

DATABASE_HELP = (
    "SQLAlchemy database URL (sqlite:///file.db or postgresql://...), as for gin serve; "
    "default: the SQLite file in the user's data folder."
)


def open_engine(database_url: str):  # -> tuple[str, sqlalchemy.engine.Engine]
    """``(url, engine)`` for ``--database-url`` (the default SQLite file when empty), after the
    checks of ``gin serve``: a database kind other than SQLite or PostgreSQL, or text that is
    not a URL, exits with status 2 and one line."""
    from sqlalchemy import create_engine

    from ...web.db.store import default_database_url, engine_url, masked_url
    from .serve import database_backend, database_error

    url = database_url or default_database_url()
    backend = database_backend(url)
    if backend is None:
        fail(database_error(url, ValueError(url)))
    if backend not in ("sqlite", "postgresql"):
        fail(
            f"--database-url {masked_url(url)}: {backend} is not supported; "
            "use sqlite:///FILE (the default) or postgresql://USER:PASSWORD@HOST/DB"
        )
    try:
        return url, create_engine(engine_url(url))
    except Exception as exc:  # a missing driver
        fail(database_error(url, exc))


def _rev(revision: str | None) -> str:
    return revision if revision is not None else "no revision (made before migrations)"


@db_app.command("upgrade")
def upgrade_command(
    database_url: str = typer.Option("", "--database-url", help=DATABASE_HELP),
    check: bool = typer.Option(False, "--check", help="Change nothing: exit 0 if the database is current, else 1."),
) -> None:
    """Migrate the database to this version's schema (gin serve does it at start too), under a
    lock so that servers starting at once migrate once.  Back the database up first
    (gin admin backup FILE; pg_dump for PostgreSQL)."""
    from ...web.db.migrations import current_revision, head_revision, upgrade
    from ...web.db.store import masked_url
    from .serve import database_error

    url, engine = open_engine(database_url)
    shown = masked_url(url)
    if check and engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
        from pathlib import Path

        if not Path(engine.url.database).exists():  # a check changes nothing: it makes no file
            engine.dispose()
            print(f"there is no database at {shown}: gin serve (or gin db upgrade) makes one there")
            raise typer.Exit(1)
    try:
        if check:
            now, head = current_revision(engine), head_revision()
            if now == head:
                print(f"the database {shown} is at {head}: current")
                return
            print(f"the database {shown} is at {_rev(now)}; this version needs {head}: run gin db upgrade")
            raise typer.Exit(1)
        before, after = upgrade(engine)
    except typer.Exit:
        raise
    except Exception as exc:
        fail(database_error(url, exc))
    finally:
        engine.dispose()
    if before == after:
        print(f"the database {shown} is at {after}: current, nothing to do")
    else:
        print(f"the database {shown} was at {_rev(before)} and is now at {after}")
