"""The store's schema migrations (Alembic), shipped inside the package: ``versions/`` holds one
revision per change, oldest first (``0001_baseline``: the schema as ``metadata.create_all``
made it before migrations).  docs/deploy.md, "Upgrading", says how an operator runs them.

:func:`upgrade` brings a database to the newest revision; ``gin serve`` runs it at start (through
:class:`~ginrummy.web.db.store.Store`) and ``gin db upgrade`` on demand.  It runs under a lock, so
several server processes starting at once migrate once: a PostgreSQL transaction-level advisory
lock (:data:`PG_LOCK_KEY`) on PostgreSQL, whose DDL is transactional, and an exclusive ``flock``
on ``<database file>.migrate.lock`` beside a SQLite file.  A database made before migrations (no
``alembic_version`` table) is taken as the baseline: the baseline creates only the tables that
are missing.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

__all__ = ["upgrade", "current_revision", "head_revision", "is_current", "PG_LOCK_KEY", "LOCATION"]

LOCATION = Path(__file__).resolve().parent
"""The folder of ``env.py`` and ``versions/`` (Alembic's ``script_location``)."""

PG_LOCK_KEY = 0x67696E5F6D6967  # "gin_mig": the advisory lock key of a PostgreSQL migration


def _config(connection: Connection | None = None):  # -> alembic.config.Config
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(LOCATION))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    """The newest revision shipped with this version of the package (e.g. ``"0002_account_role"``)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The revision the database at ``engine`` is at, or ``None`` when it has no
    ``alembic_version`` table (new, or made before migrations)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def is_current(engine: Engine) -> bool:
    """Whether the database at ``engine`` is at :func:`head_revision` (``/readyz``, ``gin db
    upgrade --check``)."""
    return current_revision(engine) == head_revision()


@contextmanager
def _file_lock(engine: Engine) -> Iterator[None]:
    """An exclusive ``flock`` on ``<SQLite file>.migrate.lock`` (nothing for an in-memory
    database), held until the block ends."""
    path = engine.url.database
    if engine.url.get_backend_name() != "sqlite" or not path or path == ":memory:" or path.startswith("file:"):
        yield
        return
    fd = os.open(f"{path}.migrate.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def upgrade(engine: Engine, *, revision: str = "head") -> tuple[str | None, str]:
    """Migrate the database at ``engine`` to ``revision`` (the newest by default), under the
    lock of the module docstring, in one transaction.  Returns ``(before, after)``: the
    revisions it was at (``None``: no ``alembic_version``) and is at now.  Raises what the
    database raises (unreachable, no right to create tables)."""
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    with _file_lock(engine), engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": PG_LOCK_KEY})
        before = MigrationContext.configure(conn).get_current_revision()
        if before != head_revision() or revision != "head":
            command.upgrade(_config(conn), revision)
        after = MigrationContext.configure(conn).get_current_revision()
    return before, after or ""
