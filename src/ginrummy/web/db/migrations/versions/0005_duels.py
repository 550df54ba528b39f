"""The friend challenge on the same deals (issue 33, docs/compete.md): ``gin_duels`` (one row per
challenge: who sent it, to whom (``NULL`` for a link until someone accepts it), how many deals,
the computer level, its seed, secret until it is over, and the seed's commitment, its status and
times) and ``gin_duel_games`` (one row per person and deal: the primary key ``duel_id, number,
swapped`` refuses a second try; the table it is played at, its result once over).

Revision ID: 0005_duels
Revises: 0004_merge
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_duels"
down_revision = "0004_merge"
branch_labels = None
depends_on = None


def upgrade() -> None:
    have = set(sa.inspect(op.get_bind()).get_table_names())
    if "gin_duels" not in have:
        op.create_table(
            "gin_duels",
            sa.Column("id", sa.String(16), primary_key=True),
            sa.Column("from_id", sa.Integer, nullable=False),
            sa.Column("to_id", sa.Integer, nullable=True),
            sa.Column("deals", sa.Integer, nullable=False),
            sa.Column("level", sa.String(20), nullable=False),
            sa.Column("seed", sa.String(64), nullable=False),
            sa.Column("commitment", sa.String(64), nullable=False),
            sa.Column("status", sa.String(12), nullable=False),
            sa.Column("created", sa.String(40), nullable=False),
            sa.Column("accepted", sa.String(40), nullable=True),
            sa.Column("expires", sa.String(40), nullable=False),
            sa.Index("gin_duels_from", "from_id"),
            sa.Index("gin_duels_to", "to_id"),
        )
    if "gin_duel_games" not in have:
        op.create_table(
            "gin_duel_games",
            sa.Column("duel_id", sa.String(16), primary_key=True),
            sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("swapped", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("account_id", sa.Integer, nullable=False),
            sa.Column("table_id", sa.String(40), nullable=False, unique=True),
            sa.Column("score", sa.Integer, nullable=True),
            sa.Column("started", sa.String(40), nullable=False),
            sa.Column("finished", sa.String(40), nullable=True),
        )


def downgrade() -> None:
    op.drop_table("gin_duel_games")
    op.drop_table("gin_duels")
