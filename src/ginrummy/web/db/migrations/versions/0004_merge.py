"""Joins the migrations that issues 31, 32, 33 and 35 added side by side on 0002 (each branch made
its own 0003, the bot API's 0004): nothing changes in the schema; the database is at one head again.

Revision ID: 0004_merge
Revises: 0003_puzzles, 0003_fair_play_leaving, 0003_moderation, 0003_daily,
    0003_tournaments, 0003_performance, 0004_bots
Create Date: 2026-12-04
"""

from __future__ import annotations

revision = "0004_merge"
down_revision = (
    "0003_puzzles",
    "0003_fair_play_leaving",
    "0003_moderation",
    "0003_daily",
    "0003_tournaments",
    "0003_performance",
    "0004_bots",
)
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
