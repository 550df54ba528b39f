"""How each recorded match ended: ``gin_result_players.ended`` (``"rules"``, ``"resigned"``,
``"left"`` or ``"time"``; ``NULL`` for a match recorded before this revision), read for the
completion rate, the refusal of rated play after forfeits and the daily pair allowance
(docs/accounts.md, "Fair play").

Revision ID: 0003_fair_play_leaving
Revises: 0002_account_role
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_fair_play_leaving"
down_revision = "0002_account_role"
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("gin_result_players")}
    if "ended" not in columns:  # a table made by create_all from a model that has it already
        op.add_column("gin_result_players", sa.Column("ended", sa.String(10), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("gin_result_players") as batch:
        batch.drop_column("ended")
