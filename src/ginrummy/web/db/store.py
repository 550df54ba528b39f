"""The table store: SQLAlchemy Core over SQLite (default) or PostgreSQL (by URL).

Four tables:

``gin_tables``
    one row per table: ``id`` (text), ``created`` (ISO time, UTC), ``rules`` (the RuleSet as
    JSON, R14), ``names`` (JSON list), ``seats`` (JSON list of seat kinds: ``"human"`` or
    ``"bot:<level>"``), ``tokens`` (``[]``; tables made before seat claims held the seats' secret
    tokens here), ``seed`` (the match seed, hex; secret).
``gin_seats``
    one row per human seat: ``(table_id, player)`` is the primary key, ``token_hash`` (SHA-256
    of the seat's secret token, hex; ``NULL`` until the seat is claimed), ``invite_hash``
    (SHA-256 of the seat's one-time invite code, hex; ``NULL`` for the host's seat).  Only
    hashes are stored, so the database alone opens no seat.
``gin_table_options``
    one row per table made with options: ``table_id``, ``options`` (JSON: ``public``,
    ``spectator_chat``, ``rematch_of``, ...).
``gin_actions``
    append-only: ``(table_id, seq)`` is the primary key (seq 1, 2, 3... per table), ``player``
    (the player index, or ``None``), ``kind`` (``"action"`` for a deal action in its text form,
    ``"client_seed"`` for a player's client seed of the next deal, ``text`` ``{"deal": K,
    "seed": "..."}``; ``"deal"`` for dealing the first deal once every client seed is in;
    ``"next_deal"`` for the step to the next deal; ``"timeout"`` for an action the server made
    for a person whose clock ran out; ``"resign"`` for a player who resigned the match and
    ``"left"`` for a person who forfeited it by leaving, ``"time"`` for one whose days ran out
    at a turn-based table), ``text``, ``created`` (ISO 8601,
    UTC, milliseconds: the clocks are rebuilt from it).

The match is rebuilt by :meth:`Store.load` from the seed by re-applying the rows in ``seq``
order.  Rows are only ever inserted; a second writer racing for the same ``seq`` gets an
integrity error instead of a fork in the history (several processes can share PostgreSQL).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.engine.url import URL

__all__ = [
    "Store",
    "TableRow",
    "ActionRow",
    "StepKind",
    "SeatSecret",
    "default_database_url",
    "engine_url",
    "masked_url",
]

metadata = MetaData()

tables_t = Table(
    "gin_tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("created", String(40), nullable=False),
    Column("rules", Text, nullable=False),
    Column("names", Text, nullable=False),
    Column("seats", Text, nullable=False),
    Column("tokens", Text, nullable=False),
    Column("seed", String(128), nullable=False),
)

actions_t = Table(
    "gin_actions",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("player", Integer, nullable=True),
    Column("kind", String(20), nullable=False),
    Column("text", String(200), nullable=False),
    Column("created", String(40), nullable=False),
)


seats_t = Table(
    "gin_seats",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("player", Integer, primary_key=True, autoincrement=False),
    Column("token_hash", String(64), nullable=True),
    Column("invite_hash", String(64), nullable=True),
)


options_t = Table(
    "gin_table_options",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("options", Text, nullable=False),
)


def default_database_url() -> str:
    """``sqlite:///<user data folder>/ginrummy.sqlite3`` (platformdirs ``user_data_dir("ginrummy")``),
    creating the folder."""
    import platformdirs

    folder = platformdirs.user_data_dir("ginrummy")
    os.makedirs(folder, exist_ok=True)
    return "sqlite:///" + os.path.join(folder, "ginrummy.sqlite3")


def engine_url(url: str) -> URL:
    """The SQLAlchemy URL for a ``--database-url``: ``postgres://`` and ``postgresql://`` (no
    driver named) mean PostgreSQL through psycopg 3 (``postgresql+psycopg://``, the
    ``ginrummy[postgres]`` extra); anything else is taken as it is.  Raises
    ``sqlalchemy.exc.ArgumentError`` for text that is not a URL (its message may quote the
    text: show :func:`masked_url` instead)."""
    u = make_url(url.strip())
    if u.drivername in ("postgres", "postgresql"):
        u = u.set(drivername="postgresql+psycopg")
    return u


def masked_url(url: str | URL) -> str:
    """``url`` fit to print: the password replaced by ``***``; text that is not a URL at all
    is shown as ``<not a database URL>`` (it might hold a password)."""
    try:
        u = make_url(url) if isinstance(url, str) else url
    except Exception:
        return "<not a database URL>"
    return u.render_as_string(hide_password=True)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class TableRow:
    """One stored table (see the module docstring); ``rules`` is the dict of RuleSet fields."""

    id: str
    created: str
    rules: dict[str, Any]
    names: list[str]
    seats: list[str]
    tokens: list[str]
    seed: bytes


@dataclass(frozen=True)
class SeatSecret:
    """A human seat's stored secrets: ``player`` index, ``token_hash`` (hex SHA-256 of its seat
    token, ``None`` until claimed) and ``invite_hash`` (hex SHA-256 of its one-time invite
    code, ``None`` for the host's seat)."""

    player: int
    token_hash: str | None
    invite_hash: str | None


class StepKind(StrEnum):
    """The kind of a stored step (``gin_actions.kind``), equal to and stored as its string."""

    ACTION = "action"  # a player's action (its text form)
    TIMEOUT = "timeout"  # the move the clock made for a person whose time ran out
    CLIENT_SEED = "client_seed"  # a person's client seed for the next deal
    DEAL = "deal"  # the first deal, once every client seed is in
    NEXT_DEAL = "next_deal"  # the next deal
    RESIGN = "resign"  # a player resigned the match (docs/protocol.md, "Leaving and resigning")
    LEFT = "left"  # a person away past the grace period forfeited the match (claimed, or by the server)
    TIME = "time"  # a turn-based table's move not made in its days: its player forfeited the match


@dataclass(frozen=True)
class ActionRow:
    """One stored step of a table: ``kind`` ``"action"`` (``text`` an action's text form) or
    ``"next_deal"``; ``player`` the acting player index (``None`` for ``next_deal``)."""

    seq: int
    player: int | None
    kind: str
    text: str
    created: str = ""


class Store:
    """Synchronous access to the database at ``url`` (any SQLAlchemy URL; ``sqlite:///path``
    by default).  Brings its schema to the newest migration (:func:`ginrummy.web.db.migrations.upgrade`:
    every table of the store, accounts and ratings; a new database gets them all).  Every write commits before it returns, so
    a caller that acknowledges after :meth:`append` never acknowledges a lost action."""

    def __init__(self, url: str) -> None:
        kwargs: dict[str, Any] = {}
        u = engine_url(url)
        self.is_sqlite = u.get_backend_name() == "sqlite"
        self.is_postgresql = u.get_backend_name() == "postgresql"
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False}
        self.url = url
        self.engine: Engine = create_engine(u, **kwargs)
        if self.is_sqlite:

            @event.listens_for(self.engine, "connect")
            def _pragmas(conn: Any, _record: Any) -> None:  # pragma: no cover - trivial
                cur = conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=FULL")
                cur.close()

        # the schema by migration (web/migrations: one revision per change, under a lock), not
        # metadata.create_all: an existing database is brought up to date too
        from .migrations import upgrade

        upgrade(self.engine)

    def create_table(
        self, row: TableRow, seats: Sequence[SeatSecret] = (), options: dict[str, Any] | None = None
    ) -> None:
        """Insert a new table row, its human seats' secrets and its options, in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables_t).values(
                    id=row.id,
                    created=row.created or _now(),
                    rules=json.dumps(row.rules, sort_keys=True),
                    names=json.dumps(row.names),
                    seats=json.dumps(row.seats),
                    tokens=json.dumps(row.tokens),
                    seed=row.seed.hex(),
                )
            )
            for s in seats:
                conn.execute(
                    insert(seats_t).values(
                        table_id=row.id, player=s.player, token_hash=s.token_hash, invite_hash=s.invite_hash
                    )
                )
            if options:
                conn.execute(insert(options_t).values(table_id=row.id, options=json.dumps(options, sort_keys=True)))

    def options(self, table_id: str) -> dict[str, Any]:
        """A table's options (``{}`` when it has none)."""
        with self.engine.connect() as conn:
            r = conn.execute(select(options_t.c.options).where(options_t.c.table_id == table_id)).first()
        return {} if r is None else json.loads(r[0])

    def take_seat(self, table_id: str, player: int, token_hash: str, names: list[str]) -> bool:
        """Give the free seat ``player`` (no token yet) the token hashing to ``token_hash`` and
        store ``names`` (the seat's new name), atomically: of two people taking one seat, exactly
        one gets it (``True``)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seats_t)
                .where(and_(seats_t.c.table_id == table_id, seats_t.c.player == player, seats_t.c.token_hash.is_(None)))
                .values(token_hash=token_hash)
            )
            if done.rowcount != 1:
                return False
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(names=json.dumps(names)))
            return True

    def reseat(self, table_id: str, player: int, token_hash: str) -> bool:
        """Give the human seat ``player`` the token hashing to ``token_hash`` whatever it had
        (a tournament's seat, asked for by the account seated there: a new link replaces the
        old one).  ``False`` when there is no such seat."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seats_t)
                .where(and_(seats_t.c.table_id == table_id, seats_t.c.player == player))
                .values(token_hash=token_hash)
            )
            return done.rowcount == 1

    def set_names(self, table_id: str, names: list[str]) -> None:
        """Store the seat names of a table whose match has not started (a signed-in person who
        claimed a seat sits under his account's name)."""
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(names=json.dumps(names)))

    def seat_secrets(self, table_id: str) -> list[SeatSecret]:
        """The human seats' secrets of a table, by player (empty for tables made before claims)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.player)).all()
        return [SeatSecret(r.player, r.token_hash, r.invite_hash) for r in rows]

    def claim(self, table_id: str, invite_hash: str, token_hash: str) -> tuple[str, int | None]:
        """Claim the seat whose invite code hashes to ``invite_hash``, giving it ``token_hash``:
        atomically, so that of two claims of one invite exactly one wins (also across server
        processes).  Returns ``("ok", player)``, ``("claimed", player)`` when the invite was
        used already, or ``("unknown", None)``."""
        where = and_(seats_t.c.table_id == table_id, seats_t.c.invite_hash == invite_hash)
        with self.engine.begin() as conn:
            row = conn.execute(select(seats_t.c.player).where(where)).first()
            if row is None:
                return "unknown", None
            done = conn.execute(
                update(seats_t).where(and_(where, seats_t.c.token_hash.is_(None))).values(token_hash=token_hash)
            )
            return ("ok" if done.rowcount == 1 else "claimed"), row.player

    def append(
        self,
        table_id: str,
        seq: int,
        player: int | None,
        kind: str,
        text: str,
        created: str | None = None,
        also: Callable[[Connection], None] | None = None,
    ) -> None:
        """Append step ``seq`` (1-based, consecutive) of a table at time ``created`` (ISO 8601,
        UTC; now by default); committed on return.  ``also(conn)``, when given, runs in the same
        transaction after the insert (a match's last step and its rating are stored together,
        or neither is).  Raises ``sqlalchemy.exc.IntegrityError`` if that ``seq`` is already
        stored."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(actions_t).values(
                    table_id=table_id, seq=seq, player=player, kind=kind, text=text, created=created or _now()
                )
            )
            if also is not None:
                also(conn)

    def table_ids(self) -> list[str]:
        """Every stored table id, oldest first."""
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(select(tables_t.c.id).order_by(tables_t.c.created, tables_t.c.id))]

    def load(self, table_id: str) -> tuple[TableRow, list[ActionRow]] | None:
        """The table row and its steps in ``seq`` order, or ``None`` if there is no such table."""
        with self.engine.connect() as conn:
            r = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
            if r is None:
                return None
            steps = conn.execute(
                select(actions_t).where(actions_t.c.table_id == table_id).order_by(actions_t.c.seq)
            ).all()
        row = TableRow(
            id=r.id,
            created=r.created,
            rules=json.loads(r.rules),
            names=json.loads(r.names),
            seats=json.loads(r.seats),
            tokens=json.loads(r.tokens),
            seed=bytes.fromhex(r.seed),
        )
        return row, [ActionRow(s.seq, s.player, s.kind, s.text, s.created) for s in steps]

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()

    @staticmethod
    def now() -> str:
        """The current UTC time as stored in ``created``."""
        return _now()
