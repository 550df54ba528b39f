"""Tournaments in the room (issue 33, docs/compete.md): ``gin_tournaments`` (one row each: the
settings, the creator, the state as last seen) and ``gin_tournament_events`` (the events of
``ginrummy.compete.tournament``, in order).  Two unique constraints make the database decide
what two server processes would both do: ``(tournament_id, round)`` (a Swiss round is paired
once) and ``(tournament_id, game)`` (a game gets one result); ``NULL`` is never equal, so the
other events do not collide.

Revision ID: 0003_tournaments
Revises: 0002_account_role
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_tournaments"
down_revision = "0002_account_role"
branch_labels = None
depends_on = None


def upgrade() -> None:
    have = set(sa.inspect(op.get_bind()).get_table_names())
    if "gin_tournaments" not in have:
        op.create_table(
            "gin_tournaments",
            sa.Column("id", sa.String(20), primary_key=True),
            sa.Column("created", sa.String(40), nullable=False),
            sa.Column("creator_id", sa.Integer, nullable=True),
            sa.Column("name", sa.String(200), nullable=False),
            sa.Column("start", sa.String(40), nullable=False),
            sa.Column("state", sa.String(20), nullable=False),
        )
    if "gin_tournament_events" not in have:
        op.create_table(
            "gin_tournament_events",
            sa.Column("tournament_id", sa.String(20), primary_key=True),
            sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("kind", sa.String(20), nullable=False),
            sa.Column("round", sa.Integer, nullable=True),
            sa.Column("game", sa.String(20), nullable=True),
            sa.Column("event", sa.Text, nullable=False),
            sa.Column("created", sa.String(40), nullable=False),
            sa.UniqueConstraint("tournament_id", "round", name="gin_tournament_round_once"),
            sa.UniqueConstraint("tournament_id", "game", name="gin_tournament_result_once"),
        )


def downgrade() -> None:
    op.drop_table("gin_tournament_events")
    op.drop_table("gin_tournaments")
