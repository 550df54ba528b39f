"""Alembic's environment for the store's migrations: always run on the connection that
:func:`ginrummy.web.db.migrations.upgrade` passes (``config.attributes["connection"]``), inside its
transaction and under its lock; there is no ``alembic.ini`` and no URL here."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None, render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
