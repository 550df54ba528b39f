"""Tournaments in the room (issue 33; docs/compete.md, "Tournaments in the room"): the rules of
:mod:`ginrummy.compete.tournament` over the store of :mod:`ginrummy.web.db.tournaments`, with a
table of the room for every game.

An entrant is ``"a<account id>"`` (a signed-in person) or ``"bot:<level>"`` (a computer level
the creator allowed; one entrant per level).  Every change is an event appended to the store;
the tournament is rebuilt from its events each time (:meth:`Tournaments.load`), so a server
restart loses nothing and any server process can take the next step: :meth:`Tournaments.advance`
starts it at its start time, gives each game whose table is over its result, forfeits the
games of the withdrawn, pairs the next round once every game has its result (the store's
unique ``(tournament, round)`` decides which process pairs it), opens a table per pairing
(its id made of the tournament, round and board: two processes opening it collide in the
store) and finishes it after the last round.  A person who leaves his table is forfeited by its
clock (three timeouts in a row, ``web/room/clock.py``) and then withdrawn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select, text
from sqlalchemy.exc import IntegrityError

from ...compete.errors import CompeteError
from ...compete.tournament import Tournament, TournamentSettings
from ...errors import Msg
from ...rules import RuleSet
from ..community.accounts import Account, accounts_t, seat_accounts_t
from ..community.members import Players, rated_tables_t
from ..community.ratings import rateable
from ..db.tournaments import TournamentRow, TournamentStore
from ..errors import ErrorCode, WebError
from ..levels import player_levels
from ..room.clock import DAY, FORFEIT_AFTER, parse_time
from ..room.seats import SeatSpec, level_refusal, secret_hash
from ..room.table import Table as GameTable
from ..room.tables import TableManager
from ..texts import W_
from .feed import TournamentFeed
from .tournament_view import entrant_status, table_id_of, table_result, tournament_view

__all__ = ["Tournaments", "MAX_OPEN_PER_ACCOUNT", "MAX_ENTRANTS", "PRESET_OF", "table_id_of"]

log = logging.getLogger("ginrummy.web")

MAX_OPEN_PER_ACCOUNT = 2
"""The tournaments not finished one account (not a moderator) may have made."""

MAX_ENTRANTS = 64
"""The most entrants of a tournament made by an account that is not a moderator's."""

PRESET_OF = {"game": "standard", "hollywood": "hollywood", "deal": "single"}
"""The rule preset (R13) of each round scoring: one game to 100, Hollywood, one scored deal."""


def _now() -> datetime:
    return datetime.now(UTC)


def _starts(start: str) -> datetime:
    """A stored start time (ISO) as an aware time (UTC when it names no zone)."""
    t = datetime.fromisoformat(start)
    return t if t.tzinfo else t.replace(tzinfo=UTC)


class Tournaments:
    """The room's tournaments over ``players``' engine and ``manager``'s tables; ``clock`` gives
    the time (UTC; tests pass their own)."""

    def __init__(self, manager: TableManager, players: Players, clock: Callable[[], datetime] = _now) -> None:
        self.manager, self.players, self.clock = manager, players, clock
        self.db = TournamentStore(players.engine)
        self.interval = 1.0
        self._task: asyncio.Task[None] | None = None
        self.feed = TournamentFeed(self.snapshot)
        """The pages watching a tournament live (``WS /ws/tournament/ID``)."""
        self._ending: set[str] = set()

    # -- reading -----------------------------------------------------------------------------

    def load(self, tid: str) -> Tournament:
        """The tournament ``tid`` rebuilt from its events.  Raises :class:`WebError`
        (``not_found``)."""
        events = self.db.events(tid) if isinstance(tid, str) and tid.isalnum() and len(tid) <= 20 else []
        if not events:
            raise WebError(ErrorCode.NOT_FOUND, W_("no such tournament"))
        return Tournament.replay(events)

    def names(self, keys: list[str]) -> dict[str, str]:
        """The name shown for each entrant key (an account's name, a computer level's)."""
        ids = [int(k[1:]) for k in keys if k.startswith("a") and k[1:].isdigit()]
        out = {k: k[4:] for k in keys if k.startswith("bot:")}
        if ids:
            with self.players.engine.connect() as conn:
                for r in conn.execute(select(accounts_t.c.id, accounts_t.c.name).where(accounts_t.c.id.in_(ids))):
                    out[f"a{r.id}"] = r.name
        return out

    def is_moderator(self, account: Account) -> bool:
        """Whether ``account`` is a moderator (``gin_accounts.role``, migration 0002)."""
        with self.players.engine.connect() as conn:
            row = conn.execute(text("SELECT role FROM gin_accounts WHERE id = :i"), {"i": account.id}).first()
        return row is not None and row[0] == "moderator"

    # -- people's requests -------------------------------------------------------------------

    def create(self, account: Account, settings: TournamentSettings) -> str:
        """A new tournament (Swiss or arena) by ``account``, open for entries, with one computer
        entrant per level of ``settings.levels``; returns its id.  Raises :class:`WebError`
        (``bad_request``): an unknown level, a turn-based arena (``clock_days``), more than
        :data:`MAX_OPEN_PER_ACCOUNT` open or :data:`MAX_ENTRANTS` entrants (moderators have
        no limit), a start in the past."""
        levels = player_levels()
        for level in settings.levels:
            if level not in levels:
                raise WebError(ErrorCode.BAD_REQUEST, level_refusal(level, levels))
        if settings.clock_days and settings.kind == "arena":
            raise WebError(ErrorCode.BAD_REQUEST, W_("an arena is played live: a turn-based tournament is a Swiss one"))
        start = settings.start if settings.start.tzinfo else settings.start.replace(tzinfo=UTC)
        if start < self.clock().replace(microsecond=0):
            raise WebError(ErrorCode.BAD_REQUEST, W_("the start time has passed; choose a later one"))
        if not self.is_moderator(account):
            if settings.max_players > MAX_ENTRANTS:
                raise WebError(ErrorCode.BAD_REQUEST, W_("a tournament has at most {most} entrants", most=MAX_ENTRANTS))
            if self.db.open_by(account.id) >= MAX_OPEN_PER_ACCOUNT:
                raise WebError(
                    ErrorCode.BAD_REQUEST,
                    W_(
                        "you have {most} tournaments not finished; a new one when one has ended",
                        most=MAX_OPEN_PER_ACCOUNT,
                    ),
                )
        settings = settings.model_copy(update={"start": start, "levels": tuple(dict.fromkeys(settings.levels))})
        t = Tournament.create(settings)
        t.open()
        for level in settings.levels:
            t.join(f"bot:{level}")
        tid = secrets.token_hex(5)
        row = TournamentRow(tid, self.clock().isoformat(), account.id, settings.name, start.isoformat(), t.state)
        self.db.create(row, t.events)
        return tid

    def join(self, tid: str, account: Account) -> None:
        """``account`` enters ``tid`` (before the start).  Raises :class:`WebError` or
        :class:`~ginrummy.compete.errors.CompeteError` (closed, full, entered already;
        ``blocked`` when he and an entrant blocked one another: a Swiss may pair any two, and
        blocked people are never seated together, docs/accounts.md)."""

        def enter(t: Tournament) -> None:
            entrants = {int(p[1:]) for p in t.players if p.startswith("a") and p[1:].isdigit()}
            if self.players.accounts.moderation.blocked_among(account.id, entrants):
                raise WebError(
                    ErrorCode.BLOCKED,
                    W_("you cannot enter this tournament: you and an entrant blocked one another"),
                )
            t.join(f"a{account.id}")

        self._change(tid, enter)

    def withdraw(self, tid: str, account: Account) -> None:
        """``account`` leaves ``tid``: before the start he is no longer entered; while it runs
        his game in play is forfeited at the next step and he is not paired again."""
        self._change(tid, lambda t: t.withdraw(f"a{account.id}"))

    def _change(self, tid: str, step: Callable[[Tournament], Any]) -> None:
        for _ in range(5):  # another process may append meanwhile: read again and retry
            events = self.db.events(tid)
            if not events:
                raise WebError(ErrorCode.NOT_FOUND, W_("no such tournament"))
            t = Tournament.replay(events)
            try:
                step(t)
            except CompeteError as exc:  # said with the entrants' names, not their keys
                if exc.key is None:
                    raise
                names = self.names(t.players + [str(v) for v in exc.params.values()])
                params = {k: names.get(str(v), v) for k, v in exc.params.items()}
                raise CompeteError(Msg(exc.key, params)) from None
            if self.db.append(tid, len(events) + 1, t.events[len(events) :], t.state):
                self.feed.note(tid, len(t.events))
                return
        raise WebError(ErrorCode.CONFLICT, W_("the tournament changed meanwhile; try again"))

    def seat(self, tid: str, account: Account) -> tuple[str, str]:
        """``(table id, new seat token)`` of ``account``'s game in play in ``tid`` (the token
        replaces any earlier one).  Raises :class:`WebError` (``not_found``) when he has none,
        ``conflict`` when his game is paired but its table not stored yet (a moment after the
        round is paired)."""
        t = self.load(tid)
        me = f"a{account.id}"
        for gid, g in zip(t.game_ids, t.games):
            if g.result is None and g.b is not None and me in (g.a, g.b):
                table = self._table(table_id_of(tid, gid))
                if table is None:  # paired, its table still being stored: a moment
                    raise WebError(ErrorCode.CONFLICT, W_("your table is being opened; try again in a moment"))
                token = secrets.token_urlsafe(18)
                player = 0 if g.a == me else 1
                self.manager.store.reseat(table.id, player, secret_hash(token))
                table.seat_secrets = self.manager.store.seat_secrets(table.id)
                return table.id, token
        raise WebError(ErrorCode.NOT_FOUND, W_("you have no game in play in this tournament"))

    # -- the server's steps ------------------------------------------------------------------

    def _table(self, table_id: str) -> GameTable | None:
        if table_id in self.manager.tables:
            return self.manager.tables[table_id]
        try:
            return self.manager.load(table_id)
        except WebError:
            return None

    def _results(self, tid: str, t: Tournament, at: str) -> None:
        """Give each game in play whose table is over its result; forfeit the withdrawn's."""
        for gid in t.in_play():
            g = t.games[t.game_ids.index(gid)]
            assert g.b is not None
            if g.a in t.withdrawn or g.b in t.withdrawn:
                both = g.a in t.withdrawn and g.b in t.withdrawn
                t.result(gid, "forfeit_both" if both else "forfeit_a" if g.a in t.withdrawn else "forfeit_b", at)
                continue
            table = self._table(table_id_of(tid, gid))
            if table is None:
                continue
            if not table.over:
                absent = self._absent(t, table)
                if absent:  # never came, or left between deals: forfeited and withdrawn
                    both = len(absent) == 2
                    t.result(gid, "forfeit_both" if both else "forfeit_a" if absent == [0] else "forfeit_b", at)
                    for p in absent:
                        if (g.a, g.b)[p] in t.active():
                            t.withdraw((g.a, g.b)[p])
                continue
            result = table_result(table)
            assert result is not None
            t.result(gid, result, at)
            if table.forfeit is not None:
                gone = g.a if table.forfeit == 0 else g.b
                if gone in t.active():
                    t.withdraw(gone)  # left his table: withdrawn, as his clock forfeited the game

    def grace(self, t: Tournament) -> float:
        """Seconds a table waits for a person's client seed (the first deal, or the next) before
        he is forfeited: as long as the live clock takes to forfeit one who left (his bank and
        :data:`~ginrummy.web.room.clock.FORFEIT_AFTER` moves); in a turn-based tournament, its
        days a move (the days clock forfeits at its first timeout)."""
        if t.settings.clock_days:
            return t.settings.clock_days * DAY
        return t.settings.clock_bank + FORFEIT_AFTER * t.settings.clock_move

    def _absent(self, t: Tournament, table: GameTable) -> list[int]:
        """The seats of ``table`` whose person the deal has waited for longer than :meth:`grace`
        (the clock runs only in a deal: a person who never opens his table would hold the
        round forever).  None when the store holds steps this copy has not seen (the table is
        played in another server process)."""
        waiting = table.waiting_for
        if not waiting:
            return []
        since = table.last_write or parse_time(table.row.created)
        if self.manager.now() - since <= self.grace(t):
            return []
        stored = self.manager.store.load(table.id)  # another process may hold it and have moved on
        if stored is not None and stored[1] and stored[1][-1].seq != table.seq:
            return []
        return list(waiting)

    def _next(self, tid: str, t: Tournament) -> None:
        """Apply to ``t`` the steps due now (nothing stored)."""
        now = self.clock()
        at = now.isoformat()
        if t.state == "registration" and now >= t.settings.start.replace(tzinfo=t.settings.start.tzinfo or UTC):
            if len(t.players) < 2:
                return
            t.start(at)
        if t.state != "running":
            return
        self._results(tid, t, at)
        if t.settings.kind == "arena":
            end = t.end_time()
            if end is not None and now >= end:
                t.finish(at)  # the games still in play do not count
            else:
                t.pair_free(at)  # the free players, at once
            return
        if t.in_play():
            return
        if t.round < t.rounds and len(t.active()) >= 2:
            t.pair()
        else:
            t.finish(at)

    async def advance(self, tid: str, read: tuple[list[dict[str, Any]], Tournament] | None = None) -> bool:
        """Take the steps of ``tid`` due now, store them, and open the tables of the games in
        play that have none; ``True`` when an event was stored here.  ``read``: its events and
        the tournament rebuilt from them, when the caller read them (:meth:`tick`).  Bounded: a
        few tries when another process appends meanwhile."""
        stored = False
        for _ in range(5):
            if read is None:
                events = await asyncio.to_thread(self.db.events, tid)
                if not events:
                    return stored
                t = Tournament.replay(events)
            else:
                (events, t), read = read, None
            self._next(tid, t)
            new = t.events[len(events) :]
            if new and not await asyncio.to_thread(self.db.append, tid, len(events) + 1, new, t.state):
                continue  # another process stored its step first: read again
            stored = stored or bool(new)
            self.feed.note(tid, len(t.events))  # a step here or another process's: pushed once
            await self._open_tables(tid, t)
            if not new:
                return stored
        return stored

    async def _open_tables(self, tid: str, t: Tournament) -> None:
        for gid in t.in_play():
            table_id = table_id_of(tid, gid)
            if table_id in self.manager.tables or self._table(table_id) is not None:
                continue
            g = t.games[t.game_ids.index(gid)]
            assert g.b is not None
            await self._open(t, table_id, (g.a, g.b), tid)

    async def _open(self, t: Tournament, table_id: str, pair: tuple[str, str], tid: str) -> None:
        """Open the table of a pairing: a person's seat under his account's name (his link
        from ``POST /api/tournaments/ID/seat``), a computer entrant's as a computer seat."""
        s = t.settings
        rules = RuleSet.from_dict({"preset": PRESET_OF[s.scoring]})
        names = self.names(list(pair))
        seats = [
            SeatSpec(kind="bot", level=p[4:]) if p.startswith("bot:") else SeatSpec(kind="human", name=names[p])
            for p in pair
        ]
        options = {
            "public": True,
            "spectator_chat": False,
            "clock": {"days": s.clock_days} if s.clock_days else {"move": s.clock_move, "bank": s.clock_bank},
            "tournament": tid,
        }
        table, _shown = self.manager.create(
            rules,
            seats,
            options=options,
            seat_all=True,
            stored_later=True,
            table_id=table_id,
            allowed_names=names.values(),
        )
        people = {i: int(p[1:]) for i, p in enumerate(pair) if not p.startswith("bot:")}
        rated = s.rated and rateable(rules)

        def store() -> bool:
            try:
                self.manager.store.create_table(table.row, table.seat_secrets, table.options)
            except IntegrityError:
                return False  # another process opened it
            with self.players.engine.begin() as conn:
                for i, a in people.items():
                    conn.execute(insert(seat_accounts_t).values(table_id=table_id, player=i, account_id=a))
                if rated:
                    conn.execute(insert(rated_tables_t).values(table_id=table_id, rated=1))
            return True

        if not await asyncio.to_thread(store):
            return
        table.signed_in = set(people)
        if rated:
            table.rating = {"rated": True, "changes": []}
        self.manager.opened(table)
        await self.manager.changed(table)

    def table_changed(self, table: GameTable) -> None:
        """After each change of a table: when a tournament's table is over, take its steps now
        (its result, the next pairing) rather than at the next :meth:`tick`, so the page's live
        feed shows it at once."""
        tid = table.options.get("tournament")
        if not table.over or not isinstance(tid, str) or tid in self._ending:
            return
        self._ending.add(tid)

        async def step() -> None:
            try:
                await self.advance(tid)
            except Exception:  # pragma: no cover - logged; the next tick tries again
                log.exception("tournament %s: a step failed", tid)
            finally:
                self._ending.discard(tid)

        asyncio.get_running_loop().create_task(step())

    async def tick(self) -> None:
        """:meth:`advance` every tournament that may have a step due (a failure is logged, not
        raised): all running ones and those open for entries whose start time has come, read
        and rebuilt in one worker thread (:meth:`_due`)."""
        for tid, events, t in await asyncio.to_thread(self._due, self.clock()):
            try:
                await self.advance(tid, (events, t))
            except Exception:  # pragma: no cover - logged; the next tick tries again
                log.exception("tournament %s: a step failed", tid)

    def _due(self, now: datetime) -> list[tuple[str, list[dict[str, Any]], Tournament]]:
        """(worker thread) ``(id, events, tournament)`` of each tournament running, or open for
        entries with its start at or before ``now``: every one of them, however many (an open
        one that starts later has nothing due and is not read); their events in one query."""
        rows = self.db.rows(("registration", "running"), limit=None)
        ids = [r.id for r in rows if r.state == "running" or _starts(r.start) <= now]
        events = self.db.events_of(ids)
        return [(tid, events[tid], Tournament.replay(events[tid])) for tid in ids if tid in events]

    def start(self) -> None:
        """Run :meth:`tick` every :attr:`interval` seconds (with the app)."""

        async def loop() -> None:
            while True:
                await self.tick()
                await asyncio.sleep(self.interval)

        self._task = asyncio.get_running_loop().create_task(loop())

    async def stop(self) -> None:
        """Stop the loop of :meth:`start`."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    # -- views -------------------------------------------------------------------------------

    def view(self, tid: str) -> dict[str, Any]:
        """The JSON of ``GET /api/tournaments/ID`` (docs/protocol.md, "Tournaments") but ``me``."""
        return self._view(tid, self.load(tid))

    def snapshot(self, tid: str) -> tuple[dict[str, Any], Callable[[int], dict[str, Any]]]:
        """``(view, me)`` of ``tid`` read once: :meth:`view`, and ``me`` of an account id (the
        live feed's push, :mod:`ginrummy.web.contests.feed`)."""
        t = self.load(tid)
        return self._view(tid, t), lambda account_id: self._me(tid, t, f"a{account_id}")

    def _view(self, tid: str, t: Tournament) -> dict[str, Any]:
        return tournament_view(tid, t, self.names(t.players))

    def me(self, tid: str, account: Account) -> dict[str, Any]:
        """``{"entered", "withdrawn", "table"}`` of ``account`` in ``tid``: ``table`` the id of
        his table in play (his seat link from ``POST /api/tournaments/ID/seat``), else ``None``."""
        return self._me(tid, self.load(tid), f"a{account.id}")

    def _me(self, tid: str, t: Tournament, me: str) -> dict[str, Any]:
        return entrant_status(tid, t, me)

    def listing(self) -> dict[str, list[dict[str, Any]]]:
        """``{"upcoming", "running", "finished"}``: each ``[{"id", "name", "start", "state",
        "started_at", "finished_at"}]`` (the last two ``null`` until then): the 200 upcoming
        that start first (soonest first), the 200 running that started last, the latest 50
        finished; each list read on its own (one list read for all once let 200 tournaments
        announced for later hide the running ones)."""
        db = self.db
        parts = {
            "upcoming": db.rows(("created", "registration"), limit=200, soonest=True),
            "running": db.rows(("running",), limit=200),
            "finished": db.rows(("finished",), limit=50),
        }
        out: dict[str, list[dict[str, Any]]] = {
            k: [{"id": r.id, "name": r.name, "start": r.start, "state": r.state} for r in rows]
            for k, rows in parts.items()
        }
        times = self.db.times([x["id"] for k in ("running", "finished") for x in out[k]])
        for x in (x for k in out.values() for x in k):
            x["started_at"], x["finished_at"] = (times.get(x["id"], {}).get(k) for k in ("started", "finished"))
        return out
