"""The daily deal in the room (issue 33, ``docs/compete.md``): the day's seed made once and
stored, its commitment published before the day, the seed revealed after it; the signed-in
person's tables of the day's deals, one try a deal; the daily and monthly tables by
matchpoints; how others played a deal.  The rules are :mod:`ginrummy.compete.daily` (pure);
this module stores and asks.

Tables (``0003_daily``): ``gin_server_secrets`` (``daily``: the key of every day seed, 32
random bytes made by the first server that needs it), ``gin_daily`` (one row per day: ``seed``
hex, secret until the day is over; ``commitment``) and ``gin_daily_entries`` (``account_id,
day, number`` the primary key, so a second try is refused by the database; ``level``,
``table_id``, ``score`` once the deal is over).  Every row is made by one insert whose primary
key decides between server processes: a process that loses the race reads the winner's row.

A deal's result is read from its stored game (its table, replayed from the store) the first
time it is asked for after the deal is over, and kept in ``score``; :meth:`DailyRoom.recompute`
reads every result from the games again (a test compares the two).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import Column, Index, Integer, MetaData, String, Table, and_, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from ...compete.daily import (
    DAILY_DEALS,
    DAILY_RULES,
    DailySet,
    Entry,
    daily_seed,
    daily_table,
    deal_seed_of_day,
    how_others_played,
    may_reveal,
    monthly_table,
    result_of,
    reveal_at,
)
from ...match import Match, commitment
from ..community.accounts import Account
from ..community.schema import accounts_t
from ..db.store import Store
from ..errors import ErrorCode, WebError
from ..room.seats import SeatSpec
from ..room.table import Table as GameTable
from ..room.tables import TableManager
from ..texts import W_

__all__ = ["DailyRoom", "DailyEntry", "open_deal", "daily_secrets_t", "daily_t", "daily_entries_t"]

metadata = MetaData()

daily_secrets_t = Table(
    "gin_server_secrets",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("value", String(128), nullable=False),
)

daily_t = Table(
    "gin_daily",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("created", String(40), nullable=False),
)

daily_entries_t = Table(
    "gin_daily_entries",
    metadata,
    Column("account_id", Integer, primary_key=True, autoincrement=False),
    Column("day", String(10), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("level", String(20), nullable=False),
    Column("table_id", String(40), nullable=False, unique=True),
    Column("score", Integer, nullable=True),
    Column("started", String(40), nullable=False),
    Column("finished", String(40), nullable=True),
    Index("gin_daily_entries_day", "day", "level"),
)


@dataclass(frozen=True)
class DailyEntry:
    """A stored entry: ``player`` (account name), ``account_id``, ``day``, ``number``,
    ``level``, ``table_id``, ``score`` (``None`` until the deal is over), ``finished``."""

    player: str
    account_id: int
    day: date
    number: int
    level: str
    table_id: str
    score: int | None
    finished: str | None

    def entry(self) -> Entry:
        """The :class:`~ginrummy.compete.daily.Entry` of a finished entry."""
        assert self.score is not None
        return Entry(self.player, self.day, self.number, self.level, self.score, self.table_id, self.finished or "")


class DailyRoom:
    """The daily deal over the store's ``engine`` and the room's ``manager``.  ``now``: the
    clock (an aware UTC datetime; tests pass their own)."""

    def __init__(self, engine: Engine, manager: TableManager, now: Callable[[], datetime] | None = None) -> None:
        self.engine = engine
        self.manager = manager
        self.now = now or (lambda: datetime.now(UTC))

    # -- the seeds -------------------------------------------------------------------------

    def today(self) -> date:
        """The UTC date now."""
        return self.now().astimezone(UTC).date()

    def _secret(self) -> bytes:
        """The server's daily key (made once: the first insert wins)."""
        with self.engine.begin() as conn:
            row = conn.execute(select(daily_secrets_t.c.value).where(daily_secrets_t.c.name == "daily")).first()
        if row is None:
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(daily_secrets_t).values(name="daily", value=secrets.token_hex(32)))
            except IntegrityError:
                pass  # another process made it first: its key is the key
            with self.engine.begin() as conn:
                row = conn.execute(select(daily_secrets_t.c.value).where(daily_secrets_t.c.name == "daily")).first()
        assert row is not None
        return bytes.fromhex(row[0])

    def seed(self, day: date, make: bool = True) -> bytes | None:
        """The seed of ``day`` (stored; made now when ``make`` and it has none: the first
        process's insert wins, the others read it).  ``None`` for a day without one."""
        key = day.isoformat()
        with self.engine.connect() as conn:
            row = conn.execute(select(daily_t.c.seed).where(daily_t.c.day == key)).first()
        if row is None and make:
            seed = daily_seed(self._secret(), day)
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        insert(daily_t).values(
                            day=key, seed=seed.hex(), commitment=commitment(seed), created=Store.now()
                        )
                    )
            except IntegrityError:
                pass  # another process stored the day first: its row is the day's
            with self.engine.connect() as conn:
                row = conn.execute(select(daily_t.c.seed).where(daily_t.c.day == key)).first()
        return None if row is None else bytes.fromhex(row[0])

    def _known_day(self, day: date) -> bytes:
        """The seed of a day that may be asked about: up to tomorrow (made if new), or a past
        day that had a set.  Raises :class:`WebError` ``not_found``."""
        if day > self.today() + timedelta(days=1):
            raise WebError(
                ErrorCode.NOT_FOUND,
                W_("no daily set for {day} yet: the set of a day is published the day before", day=day.isoformat()),
            )
        seed = self.seed(day, make=day >= self.today())
        if seed is None:
            raise WebError(ErrorCode.NOT_FOUND, W_("no daily set was played on {day}", day=day.isoformat()))
        return seed

    def published(self, day: date) -> dict[str, Any]:
        """What anyone may know of ``day``: the :class:`~ginrummy.compete.daily.DailySet`
        (commitments), ``reveal_at`` and, once the day is over, its ``seed`` (hex; else
        ``None``).  Raises :class:`WebError` ``not_found`` (:meth:`_known_day`)."""
        seed = self._known_day(day)
        out = _set_json(seed, day)
        out["reveal_at"] = reveal_at(day).isoformat()
        out["seed"] = seed.hex() if may_reveal(day, self.now()) else None
        return out

    # -- playing ---------------------------------------------------------------------------

    async def start(self, account: Account, day: date, number: int, level: str, lang: str = "en") -> tuple[Any, str]:
        """Open ``account``'s table of deal ``number`` of ``day`` (today only) against
        ``level``: ``(table, seat token)``.  Raises :class:`WebError`: ``not_allowed`` for
        another day than today, ``conflict`` for a deal already started (one try a deal) or a
        level other than the one of his first deal of the day."""
        if day != self.today():
            raise WebError(
                ErrorCode.NOT_ALLOWED,
                W_("only today's deals can be played; today is {day}", day=self.today().isoformat()),
            )
        mine = [e for e in await asyncio.to_thread(self.entries, day) if e.account_id == account.id]
        if any(e.number == number for e in mine):
            raise WebError(
                ErrorCode.CONFLICT, W_("you have played daily deal {number} already: one try a deal", number=number)
            )
        if mine and mine[0].level != level:
            raise WebError(
                ErrorCode.CONFLICT,
                W_("today you play against the level {level}, chosen with your first deal", level=mine[0].level),
            )
        seed = await asyncio.to_thread(self._known_day, day)
        table, token = await open_deal(
            self.manager, account, deal_seed_of_day(seed, number), 0, level, f"{day.isoformat()}/{number}", lang
        )
        try:
            await asyncio.to_thread(self._enter, account.id, day, number, level, table.id)
        except IntegrityError:  # the same person's other tab, at the same moment
            raise WebError(
                ErrorCode.CONFLICT, W_("you have played daily deal {number} already: one try a deal", number=number)
            ) from None
        table.signed_in.add(0)
        return table, token

    def _enter(self, account_id: int, day: date, number: int, level: str, table_id: str) -> None:
        """Insert an entry; raises ``IntegrityError`` when it exists (the primary key)."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(daily_entries_t).values(
                    account_id=account_id,
                    day=day.isoformat(),
                    number=number,
                    level=level,
                    table_id=table_id,
                    started=Store.now(),
                )
            )

    # -- results ---------------------------------------------------------------------------

    def entries(self, day: date | None = None, month: tuple[int, int] | None = None) -> list[DailyEntry]:
        """The entries of ``day`` (or of the month ``(year, month)``), their results read
        from the games that ended since last asked (and stored)."""
        q = select(daily_entries_t, accounts_t.c.name).join(accounts_t, accounts_t.c.id == daily_entries_t.c.account_id)
        if day is not None:
            q = q.where(daily_entries_t.c.day == day.isoformat())
        if month is not None:
            q = q.where(daily_entries_t.c.day.like(f"{month[0]:04d}-{month[1]:02d}-%"))
        with self.engine.connect() as conn:
            rows = conn.execute(q.order_by(daily_entries_t.c.started)).mappings().all()
        out = []
        for r in rows:
            score, finished = r["score"], r["finished"]
            if score is None:
                score, finished = self.result(r["table_id"])
                if score is not None:
                    with self.engine.begin() as conn:
                        conn.execute(
                            update(daily_entries_t)
                            .where(and_(daily_entries_t.c.table_id == r["table_id"], daily_entries_t.c.score.is_(None)))
                            .values(score=score, finished=finished)
                        )
            out.append(
                DailyEntry(
                    r["name"] or "?",
                    r["account_id"],
                    date.fromisoformat(r["day"]),
                    r["number"],
                    r["level"],
                    r["table_id"],
                    score,
                    finished,
                )
            )
        return out

    def result(self, table_id: str) -> tuple[int | None, str | None]:
        """``(result, when its last step was stored)`` of the game at ``table_id`` when it is
        over, else ``(None, None)``: from the table this process runs, else replayed from the
        store (never added to the manager: this runs in worker threads)."""
        table = self.game(table_id)
        if table is None or table.match is None or not table.match.finished:
            return None, None
        at = datetime.fromtimestamp(table.last_write, UTC) if table.last_write else self.now()
        return result_of(table.match), at.isoformat(timespec="milliseconds")

    def game(self, table_id: str) -> GameTable | None:
        """The table of a daily game: the one this process runs, else rebuilt from the store
        (apart from the manager); ``None`` when there is none."""
        return self.manager.tables.get(table_id) or self.stored(table_id)

    def stored(self, table_id: str) -> GameTable | None:
        """The daily table ``table_id`` rebuilt from its stored steps, apart from the manager;
        ``None`` when it is not stored or does not replay."""
        try:
            loaded = self.manager.store.load(table_id)
            if loaded is None:
                return None
            row, steps = loaded
            table = GameTable(row, Match.new(DAILY_RULES, row.names, row.seed), options={"daily": table_id})
            table.replay(steps)
        except Exception:  # a stored game that does not replay counts as not over
            return None
        return table

    def recompute(self, day: date) -> dict[tuple[str, int], int]:
        """Every finished result of ``day`` read again from the stored games (not from
        ``score``, nor from the tables in memory): ``{(player, number): result}``."""
        out = {}
        for e in self.entries(day=day):
            t = self.stored(e.table_id)
            if t is not None and t.match is not None and t.match.finished:
                out[(e.player, e.number)] = result_of(t.match)
        return out

    def table(self, day: date, level: str) -> list[dict[str, Any]]:
        """The daily table of ``day`` against ``level`` (:func:`~ginrummy.compete.daily.daily_table`), as JSON rows."""
        done = [e.entry() for e in self.entries(day=day) if e.score is not None]
        return [r.to_json() for r in daily_table(done, day, level)]

    def month_table(self, year: int, month: int, level: str) -> list[dict[str, Any]]:
        """The monthly table (:func:`~ginrummy.compete.daily.monthly_table`), as JSON rows."""
        done = [e.entry() for e in self.entries(month=(year, month)) if e.score is not None]
        return [r.to_json() for r in monthly_table(done, year, month, level)]

    def mine(self, account: Account, day: date) -> list[dict[str, Any]]:
        """``account``'s entries of ``day``: ``{"number", "level", "table", "score"}``."""
        return [
            {"number": e.number, "level": e.level, "table": e.table_id, "score": e.score}
            for e in self.entries(day=day)
            if e.account_id == account.id
        ]

    def others(self, account: Account, day: date, number: int) -> dict[str, Any]:
        """How others played deal ``number`` of ``day`` (against ``account``'s level): the
        ``best`` and ``median`` results (player, score; the replay link and the table only once
        the day is over, as :meth:`may_replay`).  Raises :class:`WebError` ``not_allowed`` until ``account`` has finished
        that deal himself."""
        entries = self.entries(day=day)
        mine = next((e for e in entries if e.account_id == account.id and e.number == number), None)
        if mine is None or mine.score is None:
            raise WebError(
                ErrorCode.NOT_ALLOWED,
                W_("finish daily deal {number} first; then you see how others played it", number=number),
            )
        done = [e.entry() for e in entries if e.score is not None]
        pair = how_others_played(done, day, number, mine.level)
        assert pair is not None  # his own result is in

        revealed = may_reveal(day, self.now())

        def shown(e: Entry) -> dict[str, Any]:  # the game itself once the day is over (may_replay)
            link = f"/replay/{e.record}" if revealed else None
            return {"player": e.player, "score": e.score, "replay": link, "table": e.record if revealed else None}

        return {
            "level": mine.level,
            "best": shown(pair[0]),
            "median": shown(pair[1]),
            "entrants": sum(1 for e in done if e.number == number and e.level == mine.level),
        }

    def secret(self, table_ids: list[str]) -> set[str]:
        """Those of ``table_ids`` that are daily tables of a day not over yet, read in one query:
        their results are kept off the player pages until then (who won a deal tells something
        of its cards)."""
        if not table_ids:
            return set()
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(daily_entries_t.c.table_id, daily_entries_t.c.day).where(
                    daily_entries_t.c.table_id.in_(table_ids)
                )
            ).all()
        now = self.now()
        return {r.table_id for r in rows if not may_reveal(date.fromisoformat(r.day), now)}

    def may_replay(self, table_id: str, account_id: int | None) -> bool | None:
        """Whether ``table_id``'s game may be replayed (by anyone, ``account_id`` included)
        when it is a daily table: once its day is over and the game too; ``None`` when it is no
        daily table (the replay's other rules decide).  Before the end of the day no daily game
        is replayed, the player's own neither: its first frame shows the computer's hand and its
        draws the stock's order, which a second account would then play against knowing them
        (a game resigned at once showed them)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(daily_entries_t.c.day, daily_entries_t.c.score).where(daily_entries_t.c.table_id == table_id)
            ).first()
        if row is None:
            return None
        if row[1] is None and self.result(table_id)[0] is None:
            return False
        return may_reveal(date.fromisoformat(row[0]), self.now())

    def records(self, day: date) -> list[dict[str, Any]]:
        """Once ``day`` is over, every finished game of it: ``{"number", "level", "player",
        "table"}``.  Raises :class:`WebError` ``not_allowed`` before (the games would tell the
        cards of deals still to be played)."""
        if not may_reveal(day, self.now()):
            raise WebError(
                ErrorCode.NOT_ALLOWED,
                W_("the games of {day} are shown once the day is over (UTC)", day=day.isoformat()),
            )
        return [
            {"number": e.number, "level": e.level, "player": e.player, "table": e.table_id, "score": e.score}
            for e in self.entries(day=day)
            if e.score is not None
        ]


async def open_deal(
    manager: TableManager, account: Account, seed: bytes, seat: int, level: str, label: str, lang: str = "en"
) -> tuple[Any, str]:
    """Open a table of one duplicate deal (the daily deal's, a friend challenge's): the match
    seeded ``seed`` under :data:`DAILY_RULES`, dealt at once without client seeds (option
    ``daily``: ``label``), ``account`` at player index ``seat`` (0 or 1) and the computer
    ``level`` at the other: ``(table, the person's seat token)``."""
    person, bot = SeatSpec(kind="human", name=account.name), SeatSpec(kind="bot", level=level)
    table, shown = await manager.create_async(
        DAILY_RULES,
        [bot, person] if seat else [person, bot],
        seed=seed,
        lang=lang,
        options={"daily": label},
        allowed_names=[account.name],
    )
    return table, shown[seat][1]


def _set_json(seed: bytes, day: date) -> dict[str, Any]:
    """The published set of ``day`` seeded ``seed`` (its commitments), as JSON."""
    deals = tuple(commitment(deal_seed_of_day(seed, k)) for k in range(1, DAILY_DEALS + 1))
    return DailySet(day, commitment(seed), deals).to_json()
