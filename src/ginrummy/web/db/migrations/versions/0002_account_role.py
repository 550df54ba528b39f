"""Accounts get a role: ``gin_accounts.role`` (``NULL``: a player; ``"moderator"``), set by
``gin admin moderator NAME`` (docs/deploy.md, "gin admin").

Revision ID: 0002_account_role
Revises: 0001_baseline
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_account_role"
down_revision = "0001_baseline"
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("gin_accounts")}
    if "role" not in columns:  # a table made by create_all from a model that has it already
        op.add_column("gin_accounts", sa.Column("role", sa.String(20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("gin_accounts") as batch:
        batch.drop_column("role")
