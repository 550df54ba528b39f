"""The performance score kept per account (issue 32): ``gin_performance``, one row per player
with an account of a recorded match (web/community/performance.py), and its index by account
and date for the player page's trend.

Revision ID: 0003_performance
Revises: 0002_account_role
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_performance"
down_revision = "0002_account_role"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "gin_performance" in sa.inspect(op.get_bind()).get_table_names():
        return  # made by create_all from a model that has it already
    op.create_table(
        "gin_performance",
        sa.Column("result_id", sa.String(60), primary_key=True),
        sa.Column("player", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("finished", sa.String(40), nullable=False),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("loss_per_decision", sa.Float, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("inaccuracies", sa.Integer, nullable=False),
        sa.Column("mistakes", sa.Integer, nullable=False),
        sa.Column("blunders", sa.Integer, nullable=False),
        sa.Column("rating", sa.Integer, nullable=True),
        sa.Column("rating_low", sa.Integer, nullable=True),
        sa.Column("rating_high", sa.Integer, nullable=True),
    )
    op.create_index("gin_performance_account", "gin_performance", ["account_id", "finished"])


def downgrade() -> None:
    op.drop_index("gin_performance_account", table_name="gin_performance")
    op.drop_table("gin_performance")
