"""Block, mute, report, moderators' actions, sign-in addresses (issue 31, docs/accounts.md,
"Block, mute, report" and "Moderation").

Revision ID: 0003_moderation
Revises: 0002_account_role
Create Date: 2026-12-04

Seven tables (web/community/schema.py): ``gin_relations`` (blocks and mutes),
``gin_reports``, ``gin_sanctions`` (lobby mutes, bars from rated play, suspensions,
closings, each until a time or for good), ``gin_mod_actions`` (the audit log),
``gin_signins`` (a keyed hash of each address an account signed in from, never the address),
``gin_voided_results`` (the matches whose ratings a moderator voided) and ``gin_settings``
(the address key when the server is given none). A table that exists already (made by
``create_all`` from a model that has it) is left as it is.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003_moderation"
down_revision = "0002_account_role"
branch_labels = None
depends_on = None


def _tables() -> list[tuple[str, list[Any]]]:
    s, i, t = sa.String, sa.Integer, sa.Text
    return [
        (
            "gin_relations",
            [
                sa.Column("owner_id", i, primary_key=True, autoincrement=False),
                sa.Column("target_id", i, primary_key=True, autoincrement=False),
                sa.Column("kind", s(5), primary_key=True),
                sa.Column("created", s(40), nullable=False),
                sa.Index("gin_relations_target", "target_id"),
            ],
        ),
        (
            "gin_reports",
            [
                sa.Column("id", i, primary_key=True, autoincrement=True),
                sa.Column("reporter_id", i, nullable=False),
                sa.Column("subject_id", i, nullable=True),
                sa.Column("table_id", s(40), nullable=True),
                sa.Column("message", t, nullable=True),
                sa.Column("reason", s(20), nullable=False),
                sa.Column("text", t, nullable=False),
                sa.Column("chat", t, nullable=False),
                sa.Column("created", s(40), nullable=False),
                sa.Column("closed", s(40), nullable=True),
            ],
        ),
        (
            "gin_sanctions",
            [
                sa.Column("id", i, primary_key=True, autoincrement=True),
                sa.Column("account_id", i, nullable=False, index=True),
                sa.Column("kind", s(12), nullable=False),
                sa.Column("until", s(40), nullable=True),
                sa.Column("action_id", i, nullable=False),
            ],
        ),
        (
            "gin_mod_actions",
            [
                sa.Column("id", i, primary_key=True, autoincrement=True),
                sa.Column("created", s(40), nullable=False),
                sa.Column("moderator_id", i, nullable=False),
                sa.Column("account_id", i, nullable=True, index=True),
                sa.Column("action", s(20), nullable=False),
                sa.Column("reason", t, nullable=False),
                sa.Column("until", s(40), nullable=True),
                sa.Column("report_id", i, nullable=True),
                sa.Column("flag", s(120), nullable=True),
                sa.Column("detail", t, nullable=False),
                sa.Column("seen", i, nullable=False),
            ],
        ),
        (
            "gin_signins",
            [
                sa.Column("account_id", i, primary_key=True, autoincrement=False),
                sa.Column("address_hash", s(64), primary_key=True),
                sa.Column("last", s(40), nullable=False),
                sa.Index("gin_signins_address", "address_hash"),
            ],
        ),
        (
            "gin_voided_results",
            [sa.Column("result_id", s(60), primary_key=True), sa.Column("action_id", i, nullable=False)],
        ),
        ("gin_settings", [sa.Column("name", s(40), primary_key=True), sa.Column("value", t, nullable=False)]),
    ]


def upgrade() -> None:
    have = set(sa.inspect(op.get_bind()).get_table_names())
    for name, items in _tables():
        if name not in have:
            op.create_table(name, *items)


def downgrade() -> None:
    for name, _ in reversed(_tables()):
        op.drop_table(name)
