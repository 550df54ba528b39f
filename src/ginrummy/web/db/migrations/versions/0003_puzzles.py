"""The puzzle room (issue 32): ``gin_puzzle_people`` (an account's puzzle rating),
``gin_puzzle_attempts`` (an account's first, rated, answer to each puzzle) and
``gin_puzzle_ratings`` (each puzzle's rating); web/community/puzzles.py, docs/puzzles.md.

Revision ID: 0003_puzzles
Revises: 0002_account_role
Create Date: 2026-12-04
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003_puzzles"
down_revision = "0002_account_role"
branch_labels = None
depends_on = None


def _tables() -> list[tuple[str, list[Any]]]:
    def rating() -> list[Any]:
        return [
            sa.Column("mu", sa.Float, nullable=False),
            sa.Column("sigma", sa.Float, nullable=False),
            sa.Column("attempts", sa.Integer, nullable=False),
            sa.Column("solved", sa.Integer, nullable=False),
        ]

    return [
        ("gin_puzzle_people", [sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False), *rating()]),
        (
            "gin_puzzle_attempts",
            [
                sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
                sa.Column("puzzle_id", sa.String(40), primary_key=True),
                sa.Column("solved", sa.Integer, nullable=False),
                sa.Column("created", sa.String(40), nullable=False),
            ],
        ),
        ("gin_puzzle_ratings", [sa.Column("puzzle_id", sa.String(40), primary_key=True), *rating()]),
    ]


def upgrade() -> None:
    have = set(sa.inspect(op.get_bind()).get_table_names())
    for name, items in _tables():
        if name not in have:  # made by create_all from a model that has it already
            op.create_table(name, *items)


def downgrade() -> None:
    for name, _ in reversed(_tables()):
        op.drop_table(name)
