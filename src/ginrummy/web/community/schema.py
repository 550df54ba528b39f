"""The tables of accounts and sessions (SQLAlchemy Core, on the table store's engine): the
bottom of :mod:`ginrummy.web.community`, so that the accounts and the ratings both read them
without importing each other."""

from __future__ import annotations

from sqlalchemy import Column, Float, Index, Integer, MetaData, String, Table, Text

__all__ = [
    "metadata",
    "accounts_t",
    "sessions_t",
    "seat_accounts_t",
    "puzzle_people_t",
    "puzzle_attempts_t",
    "puzzle_ratings_t",
    "relations_t",
    "reports_t",
    "sanctions_t",
    "mod_actions_t",
    "signins_t",
    "voided_t",
    "settings_t",
    "bots_t",
    "api_tokens_t",
]

metadata = MetaData()

accounts_t = Table(
    "gin_accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(80), nullable=True),
    Column("name_key", String(80), nullable=True, unique=True),
    Column("kind", String(10), nullable=False),
    Column("password_hash", Text, nullable=True),
    Column("created", String(40), nullable=False),
    Column("deleted", Integer, nullable=False, default=0),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),
    Column("matches", Integer, nullable=False, default=0),
    # NULL: a player; "moderator" (migration 0002_account_role, ``gin admin moderator``)
    Column("role", String(20), nullable=True),
    # the ladder order, covering its filter: a page at any offset is read from the index alone
    Index("gin_accounts_board", "deleted", "ordinal", "id", "matches"),
)

sessions_t = Table(
    "gin_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, nullable=False, index=True),
    Column("created", String(40), nullable=False),
    Column("expires", String(40), nullable=False),
)

seat_accounts_t = Table(
    "gin_seat_accounts",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("player", Integer, primary_key=True, autoincrement=False),
    Column("account_id", Integer, nullable=False),
)

# the puzzle room (web/community/puzzles.py; migration 0003_puzzles)
puzzle_people_t = Table(
    "gin_puzzle_people",
    metadata,
    Column("account_id", Integer, primary_key=True, autoincrement=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
)

puzzle_attempts_t = Table(
    "gin_puzzle_attempts",
    metadata,
    Column("account_id", Integer, primary_key=True, autoincrement=False),
    Column("puzzle_id", String(40), primary_key=True),
    Column("solved", Integer, nullable=False),
    Column("created", String(40), nullable=False),
)

puzzle_ratings_t = Table(
    "gin_puzzle_ratings",
    metadata,
    Column("puzzle_id", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
)

# -- moderation (migration 0003_moderation; web/community/moderation.py, docs/accounts.md) ---

relations_t = Table(
    "gin_relations",
    metadata,
    Column("owner_id", Integer, primary_key=True, autoincrement=False),
    Column("target_id", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(5), primary_key=True),  # "block" or "mute"
    Column("created", String(40), nullable=False),
    Index("gin_relations_target", "target_id"),
)

reports_t = Table(
    "gin_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter_id", Integer, nullable=False),
    Column("subject_id", Integer, nullable=True),
    Column("table_id", String(40), nullable=True),
    Column("message", Text, nullable=True),
    Column("reason", String(20), nullable=False),
    Column("text", Text, nullable=False),
    Column("chat", Text, nullable=False),
    Column("created", String(40), nullable=False),
    Column("closed", String(40), nullable=True),
)

sanctions_t = Table(
    "gin_sanctions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, nullable=False, index=True),
    Column("kind", String(12), nullable=False),
    Column("until", String(40), nullable=True),
    Column("action_id", Integer, nullable=False),
)

mod_actions_t = Table(
    "gin_mod_actions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("created", String(40), nullable=False),
    Column("moderator_id", Integer, nullable=False),
    Column("account_id", Integer, nullable=True, index=True),
    Column("action", String(20), nullable=False),
    Column("reason", Text, nullable=False),
    Column("until", String(40), nullable=True),
    Column("report_id", Integer, nullable=True),
    Column("flag", String(120), nullable=True),
    Column("detail", Text, nullable=False),
    Column("seen", Integer, nullable=False, default=0),
)

signins_t = Table(
    "gin_signins",
    metadata,
    Column("account_id", Integer, primary_key=True, autoincrement=False),
    Column("address_hash", String(64), primary_key=True),
    Column("last", String(40), nullable=False),
    Index("gin_signins_address", "address_hash"),
)

voided_t = Table(
    "gin_voided_results",
    metadata,
    Column("result_id", String(60), primary_key=True),
    Column("action_id", Integer, nullable=False),
)

settings_t = Table(
    "gin_settings",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("value", Text, nullable=False),
)

bots_t = Table(
    "gin_bots",
    metadata,
    Column("account_id", Integer, primary_key=True, autoincrement=False),
    Column("owner_id", Integer, nullable=False, index=True),
    Column("created", String(40), nullable=False),
)
"""A bot account (``gin_accounts.kind`` ``"bot"``) and the person who owns it (migration 0004)."""

api_tokens_t = Table(
    "gin_api_tokens",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("account_id", Integer, nullable=False, index=True),
    Column("name", String(80), nullable=False),
    Column("scopes", String(80), nullable=False),
    Column("created", String(40), nullable=False),
    Column("last_used", String(40), nullable=True),
    Column("revoked", Integer, nullable=False, default=0),
)
"""A bot account's API tokens: only the SHA-256 of each secret is kept (migration 0004)."""
