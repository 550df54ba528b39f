"""The daily deal (issue 33, docs/compete.md): ``gin_server_secrets`` (the server's secrets by
name: ``daily``, the key of every day's seed), ``gin_daily`` (one row per day: its seed, secret
until the day is over, and the seed's commitment; the primary key makes two server processes
agree on one row) and ``gin_daily_entries`` (one row per person and deal of a day: the level,
the table it is played at, its result once over; the primary key refuses a second try).

Revision ID: 0003_daily
Revises: 0002_account_role
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_daily"
down_revision = "0002_account_role"
branch_labels = None
depends_on = None


def upgrade() -> None:
    have = set(sa.inspect(op.get_bind()).get_table_names())
    if "gin_server_secrets" not in have:
        op.create_table(
            "gin_server_secrets",
            sa.Column("name", sa.String(40), primary_key=True),
            sa.Column("value", sa.String(128), nullable=False),
        )
    if "gin_daily" not in have:
        op.create_table(
            "gin_daily",
            sa.Column("day", sa.String(10), primary_key=True),
            sa.Column("seed", sa.String(64), nullable=False),
            sa.Column("commitment", sa.String(64), nullable=False),
            sa.Column("created", sa.String(40), nullable=False),
        )
    if "gin_daily_entries" not in have:
        op.create_table(
            "gin_daily_entries",
            sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("day", sa.String(10), primary_key=True),
            sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("level", sa.String(20), nullable=False),
            sa.Column("table_id", sa.String(40), nullable=False, unique=True),
            sa.Column("score", sa.Integer, nullable=True),
            sa.Column("started", sa.String(40), nullable=False),
            sa.Column("finished", sa.String(40), nullable=True),
            sa.Index("gin_daily_entries_day", "day", "level"),
        )


def downgrade() -> None:
    op.drop_table("gin_daily_entries")
    op.drop_table("gin_daily")
    op.drop_table("gin_server_secrets")
