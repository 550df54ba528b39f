"""Bot accounts and their API tokens (issue 35, docs/bot-api.md): ``gin_bots`` (a bot account and
its owner) and ``gin_api_tokens`` (the SHA-256 of each token's secret, its name, scopes, last use
and whether it is revoked).  A bot account is a ``gin_accounts`` row of kind ``"bot"``.

Revision ID: 0004_bots
Revises: 0002_account_role
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_bots"
down_revision = "0002_account_role"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "gin_bots" not in tables:  # a database made by create_all from a model that has it already
        op.create_table(
            "gin_bots",
            sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("owner_id", sa.Integer, nullable=False),
            sa.Column("created", sa.String(40), nullable=False),
        )
        op.create_index("ix_gin_bots_owner_id", "gin_bots", ["owner_id"])
    if "gin_api_tokens" not in tables:
        op.create_table(
            "gin_api_tokens",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
            sa.Column("account_id", sa.Integer, nullable=False),
            sa.Column("name", sa.String(80), nullable=False),
            sa.Column("scopes", sa.String(80), nullable=False),
            sa.Column("created", sa.String(40), nullable=False),
            sa.Column("last_used", sa.String(40), nullable=True),
            sa.Column("revoked", sa.Integer, nullable=False),
        )
        op.create_index("ix_gin_api_tokens_account_id", "gin_api_tokens", ["account_id"])


def downgrade() -> None:
    op.drop_table("gin_api_tokens")
    op.drop_table("gin_bots")
