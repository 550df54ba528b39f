"""The tournaments' storage (migration ``0003_tournaments``, docs/compete.md "Tournaments in
the room").

``gin_tournaments``
    one row per tournament: ``id``, ``created`` (ISO time, UTC), ``creator_id`` (the account
    that made it), ``name``, ``start`` (ISO time) and ``state`` (the state after its last
    event: a cache for the lists, the events decide).
``gin_tournament_events``
    append-only: ``(tournament_id, seq)`` the primary key (seq 1, 2, 3...), ``kind`` (the
    event's ``type``), ``round`` (a ``paired`` event's round, else ``NULL``), ``game`` (a
    ``result`` event's game, else ``NULL``), ``event`` (the JSON of
    :mod:`ginrummy.compete.tournament`), ``created``.  Unique ``(tournament_id, round)`` and
    ``(tournament_id, game)``: of two processes pairing a round, or giving a game its result,
    one insert wins and the other gets an integrity error (:meth:`TournamentStore.append`
    answers ``False``) and reads the events again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Column, Integer, MetaData, String, Table, Text, UniqueConstraint, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

__all__ = ["TournamentStore", "TournamentRow", "OPEN_STATES"]

metadata = MetaData()  # made by the migration, never by create_all

tournaments_t = Table(
    "gin_tournaments",
    metadata,
    Column("id", String(20), primary_key=True),
    Column("created", String(40), nullable=False),
    Column("creator_id", Integer, nullable=True),
    Column("name", String(200), nullable=False),
    Column("start", String(40), nullable=False),
    Column("state", String(20), nullable=False),
)

events_t = Table(
    "gin_tournament_events",
    metadata,
    Column("tournament_id", String(20), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(20), nullable=False),
    Column("round", Integer, nullable=True),
    Column("game", String(20), nullable=True),
    Column("event", Text, nullable=False),
    Column("created", String(40), nullable=False),
    # the database decides: a round is paired once, a game's result given once (0003_tournaments)
    UniqueConstraint("tournament_id", "round", name="gin_tournament_round_once"),
    UniqueConstraint("tournament_id", "game", name="gin_tournament_result_once"),
)

OPEN_STATES = ("created", "registration", "running")
"""The states of a tournament not finished."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class TournamentRow:
    """A row of ``gin_tournaments`` (see the module docstring)."""

    id: str
    created: str
    creator_id: int | None
    name: str
    start: str
    state: str


class TournamentStore:
    """The two tables over the store's ``engine``; every write commits before it returns."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, row: TournamentRow, events: list[dict[str, Any]]) -> None:
        """Insert a tournament and its first events, in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(insert(tournaments_t).values(**row.__dict__))
            for i, e in enumerate(events):
                conn.execute(insert(events_t).values(**self._event_row(row.id, i + 1, e)))

    @staticmethod
    def _event_row(tid: str, seq: int, e: dict[str, Any]) -> dict[str, Any]:
        kind = str(e["type"])
        return {
            "tournament_id": tid,
            "seq": seq,
            "kind": kind,
            "round": int(e["round"]) if kind == "paired" and e.get("round") is not None else None,
            "game": str(e["game"]) if kind == "result" else None,
            "event": json.dumps(e, sort_keys=True),
            "created": _now(),
        }

    def append(self, tid: str, seq: int, events: list[dict[str, Any]], state: str) -> bool:
        """Append ``events`` as ``seq``, ``seq + 1``... of tournament ``tid`` and note its
        ``state``, in one transaction.  ``False`` (nothing stored) when another writer stored
        one of those seqs, that round's pairing or that game's result first."""
        try:
            with self.engine.begin() as conn:
                for i, e in enumerate(events):
                    conn.execute(insert(events_t).values(**self._event_row(tid, seq + i, e)))
                conn.execute(update(tournaments_t).where(tournaments_t.c.id == tid).values(state=state))
        except IntegrityError:
            return False
        return True

    def events(self, tid: str) -> list[dict[str, Any]]:
        """The events of ``tid`` in order (``[]`` for no such tournament)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(events_t.c.event).where(events_t.c.tournament_id == tid).order_by(events_t.c.seq)
            ).all()
        return [json.loads(r[0]) for r in rows]

    def row(self, tid: str) -> TournamentRow | None:
        """The row of ``tid``, or ``None``."""
        with self.engine.connect() as conn:
            r = conn.execute(select(tournaments_t).where(tournaments_t.c.id == tid)).first()
        return None if r is None else TournamentRow(**r._mapping)

    def rows(
        self, states: tuple[str, ...] = OPEN_STATES + ("finished",), limit: int | None = 200, soonest: bool = False
    ) -> list[TournamentRow]:
        """The tournaments in ``states``, by start time: the latest ``limit`` first (``None``: all),
        or with ``soonest`` the ``limit`` that start first."""
        start = tournaments_t.c.start
        query = (
            select(tournaments_t)
            .where(tournaments_t.c.state.in_(states))
            .order_by(start.asc() if soonest else start.desc(), tournaments_t.c.id)
        )
        with self.engine.connect() as conn:
            rs = conn.execute(query if limit is None else query.limit(limit)).all()
        return [TournamentRow(**r._mapping) for r in rs]

    def events_of(self, ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        """``{tid: its events in order}`` of the tournaments ``ids`` (absent: no events), read in
        one query for every 500 ids."""
        out: dict[str, list[dict[str, Any]]] = {}
        with self.engine.connect() as conn:
            for i in range(0, len(ids), 500):
                rows = conn.execute(
                    select(events_t.c.tournament_id, events_t.c.event)
                    .where(events_t.c.tournament_id.in_(ids[i : i + 500]))
                    .order_by(events_t.c.tournament_id, events_t.c.seq)
                ).all()
                for r in rows:
                    out.setdefault(r.tournament_id, []).append(json.loads(r.event))
        return out

    def times(self, ids: list[str]) -> dict[str, dict[str, str]]:
        """``{tid: {"started": ISO time, "finished": ISO time}}`` of the tournaments ``ids``
        that started or finished (one query; a kind not reached yet is absent)."""
        if not ids:
            return {}
        out: dict[str, dict[str, str]] = {}
        with self.engine.connect() as conn:
            rs = conn.execute(
                select(events_t.c.tournament_id, events_t.c.kind, events_t.c.event).where(
                    events_t.c.tournament_id.in_(ids), events_t.c.kind.in_(("started", "finished"))
                )
            ).all()
        for r in rs:
            out.setdefault(r.tournament_id, {})[r.kind] = str(json.loads(r.event).get("at", ""))
        return out

    def open_by(self, account_id: int) -> int:
        """How many tournaments not finished ``account_id`` created."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count()).where(
                        tournaments_t.c.creator_id == account_id, tournaments_t.c.state.in_(OPEN_STATES)
                    )
                ).scalar_one()
            )
