"""The tables of accounts and sessions (SQLAlchemy Core, on the table store's engine): the
bottom of :mod:`ginrummy.web.community`, so that the accounts and the ratings both read them
without importing each other."""

from __future__ import annotations

from sqlalchemy import Column, Float, Index, Integer, MetaData, String, Table, Text

__all__ = ["metadata", "accounts_t", "sessions_t", "seat_accounts_t", "bots_t", "api_tokens_t"]

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
