"""Baseline: the store's schema as ``metadata.create_all`` made it before migrations (issue 30).

Revision ID: 0001_baseline
Revises:
Create Date: 2026-12-04

Nine tables: ``gin_tables``, ``gin_actions``, ``gin_seats``, ``gin_table_options`` (web/db/store.py),
``gin_accounts``, ``gin_sessions``, ``gin_seat_accounts`` (web/community/accounts.py), ``gin_rated_tables``
(web/community/members.py), ``gin_results``, ``gin_result_players`` (web/community/ratings.py), column for column.
A table that already exists is left as it is: a database made by ``create_all`` before
migrations (no ``alembic_version``) is thereby stamped as this baseline, and one that lacks
some of these tables gets them.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0001_baseline"
down_revision = None
branch_labels = None
depends_on = None


def _tables() -> list[tuple[str, list[Any]]]:
    """Every table of the baseline schema, ``(name, columns and indexes)``."""
    return _game_tables() + _people_tables()


def _game_tables() -> list[tuple[str, list[Any]]]:
    """The tables of the tables and their steps (web/db/store.py)."""
    return [
        (
            "gin_tables",
            [
                sa.Column("id", sa.String(40), primary_key=True),
                sa.Column("created", sa.String(40), nullable=False),
                sa.Column("rules", sa.Text, nullable=False),
                sa.Column("names", sa.Text, nullable=False),
                sa.Column("seats", sa.Text, nullable=False),
                sa.Column("tokens", sa.Text, nullable=False),
                sa.Column("seed", sa.String(128), nullable=False),
            ],
        ),
        (
            "gin_actions",
            [
                sa.Column("table_id", sa.String(40), primary_key=True),
                sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
                sa.Column("player", sa.Integer, nullable=True),
                sa.Column("kind", sa.String(20), nullable=False),
                sa.Column("text", sa.String(200), nullable=False),
                sa.Column("created", sa.String(40), nullable=False),
            ],
        ),
        (
            "gin_seats",
            [
                sa.Column("table_id", sa.String(40), primary_key=True),
                sa.Column("player", sa.Integer, primary_key=True, autoincrement=False),
                sa.Column("token_hash", sa.String(64), nullable=True),
                sa.Column("invite_hash", sa.String(64), nullable=True),
            ],
        ),
        (
            "gin_table_options",
            [
                sa.Column("table_id", sa.String(40), primary_key=True),
                sa.Column("options", sa.Text, nullable=False),
            ],
        ),
    ]


def _people_tables() -> list[tuple[str, list[Any]]]:
    """The tables of accounts, sessions and results (web/community/)."""
    return [
        (
            "gin_accounts",
            [
                sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                sa.Column("name", sa.String(80), nullable=True),
                sa.Column("name_key", sa.String(80), nullable=True, unique=True),
                sa.Column("kind", sa.String(10), nullable=False),
                sa.Column("password_hash", sa.Text, nullable=True),
                sa.Column("created", sa.String(40), nullable=False),
                sa.Column("deleted", sa.Integer, nullable=False),
                sa.Column("mu", sa.Float, nullable=False),
                sa.Column("sigma", sa.Float, nullable=False),
                sa.Column("ordinal", sa.Float, nullable=False),
                sa.Column("matches", sa.Integer, nullable=False),
                sa.Index("gin_accounts_board", "deleted", "ordinal", "id", "matches"),
            ],
        ),
        (
            "gin_sessions",
            [
                sa.Column("token_hash", sa.String(64), primary_key=True),
                sa.Column("account_id", sa.Integer, nullable=False, index=True),
                sa.Column("created", sa.String(40), nullable=False),
                sa.Column("expires", sa.String(40), nullable=False),
            ],
        ),
        (
            "gin_seat_accounts",
            [
                sa.Column("table_id", sa.String(40), primary_key=True),
                sa.Column("player", sa.Integer, primary_key=True, autoincrement=False),
                sa.Column("account_id", sa.Integer, nullable=False),
            ],
        ),
        (
            "gin_rated_tables",
            [
                sa.Column("table_id", sa.String(40), primary_key=True),
                sa.Column("rated", sa.Integer, nullable=False),
            ],
        ),
        (
            "gin_results",
            [
                sa.Column("id", sa.String(60), primary_key=True),
                sa.Column("finished", sa.String(40), nullable=False),
                sa.Column("rated", sa.Integer, nullable=False),
                sa.Column("source", sa.String(10), nullable=False),
                sa.Column("public", sa.Integer, nullable=False),
            ],
        ),
        (
            "gin_result_players",
            [
                sa.Column("result_id", sa.String(60), primary_key=True),
                sa.Column("player", sa.Integer, primary_key=True, autoincrement=False),
                sa.Column("account_id", sa.Integer, nullable=True),
                sa.Column("opponent_id", sa.Integer, nullable=True),
                sa.Column("opponent_name", sa.String(80), nullable=False),
                sa.Column("finished", sa.String(40), nullable=False),
                sa.Column("outcome", sa.String(5), nullable=False),
                sa.Column("deals", sa.Integer, nullable=False),
                sa.Column("deals_won", sa.Integer, nullable=False),
                sa.Column("knocks", sa.Integer, nullable=False),
                sa.Column("gins", sa.Integer, nullable=False),
                sa.Column("undercuts_made", sa.Integer, nullable=False),
                sa.Column("undercuts_suffered", sa.Integer, nullable=False),
                sa.Column("points", sa.Integer, nullable=False),
                sa.Column("knock_deadwood", sa.Integer, nullable=False),
                sa.Column("mu_before", sa.Float, nullable=True),
                sa.Column("sigma_before", sa.Float, nullable=True),
                sa.Column("mu_after", sa.Float, nullable=True),
                sa.Column("sigma_after", sa.Float, nullable=True),
                sa.Index("gin_result_players_account", "account_id", "finished"),
            ],
        ),
    ]


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    meta = sa.MetaData()
    for name, items in _tables():
        if name not in existing:
            sa.Table(name, meta, *items).create(op.get_bind())


def downgrade() -> None:
    raise NotImplementedError("the baseline is not undone: restore a backup (docs/deploy.md)")
