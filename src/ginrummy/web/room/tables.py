"""Tables and seats of the web server, independent of HTTP.

A :class:`Table` holds a :class:`~ginrummy.match.Match`, one seat per player (a person with a
secret seat token, or a computer player of a level of :data:`ginrummy.players.PLAYER_LEVELS`),
and writes every accepted step to the :class:`~ginrummy.web.db.store.Store` *before* applying
it, so a restart rebuilds the match exactly (DESIGN "The server").

Seats no one can borrow: whoever opens a table gets the token of the first human seat only;
every other human seat gets a one-time **invite** code, and the person who claims it
(:meth:`TableManager.claim`) gets a newly minted token.  Only SHA-256 hashes of tokens and
invite codes are stored; tokens are compared as bytes in constant time.

A deal no one controls (``docs/record-format.md``): at a table with people, each deal (the
first included) is dealt only once every person has sent a client seed for it
(:meth:`TableManager.client_seed`); the deck comes from the server's deal seed and every
client seed.  Before the first deal the table has no match yet (``Table.match`` is ``None``).  :class:`TableManager` creates and loads tables, sends each
watcher its own state, and schedules the computer players' moves and the clocks' timeouts with
asyncio (:mod:`ginrummy.web.room.autoplay`; the engine stays synchronous and pure).

What a seat is sent (:meth:`Table.state_for`) is built only from ``Match.view(player)``, the
score sheet, the names and the deal commitments; a deal seed is included only once its deal is
revealed (:func:`ginrummy.record.revealable`: a scored deal when it ends, a drawn deal when
the match ends), the match seed once the match is over.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, NoReturn

from sqlalchemy.exc import SQLAlchemyError

from ...actions import Action
from ...errors import IllegalActionError, NotYourTurnError, RuleSetError
from ...match import Match
from ...rules import RuleSet
from ..db.commit import CommitterStopped, GroupCommitter
from ..db.store import StepKind, Store
from ..errors import ErrorCode, WebError
from ..protocol.outbound import legal_words
from ..texts import W_
from .advice import Advice
from .autoplay import DEFAULT_LEAVE_GRACE, AutoPlay, bot_choice
from .lobby import Room
from .names import computer_seat_name, is_computer_name, typed_name_key
from .opening import Opening
from .seats import MAX_NAME_CHARS, SPECTATOR, SeatSpec, advise, player_levels, same_secret, secret_hash
from .table import Table, TableRuntime, Watcher
from .thinking import ThinkingPool

log = logging.getLogger("ginrummy.web")

HELD_STEPS = 4
"""The most steps one state may wait for when holding is on (:attr:`TableManager.held_steps`): a
person's move and the computer's immediate answer (its draw and its discard, a knock), never an
unbounded run of computer moves."""


__all__ = [
    "Table",
    "TableManager",
    "WebError",
    "SeatSpec",
    "player_levels",
    "advise",
    "MAX_NAME_CHARS",
    "secret_hash",
    "same_secret",
    "SPECTATOR",
    "HELD_STEPS",
    "is_computer_name",
    "computer_seat_name",
    "legal_words",
    "typed_name_key",
    "bot_choice",
    "Watcher",
]


def _part(part: str, name: str) -> Any:
    """A manager attribute that is ``part``'s attribute ``name`` (read and written there): the
    manager's public face stays one object while its parts are collaborators."""
    return property(
        lambda self: getattr(getattr(self, part), name), lambda self, value: setattr(getattr(self, part), name, value)
    )


class TableManager:
    """Creates, loads and runs tables over one :class:`Store`; the card room (lobby, seats
    taken from the lobby, spectators, chat, rematch) is its collaborator :attr:`room`
    (:class:`~ginrummy.web.room.lobby.Room`), the moves the server makes by itself (computer
    players, clock timeouts) its collaborator :attr:`autoplay`
    (:class:`~ginrummy.web.room.autoplay.AutoPlay`); both see it as a
    :class:`~ginrummy.web.room.host.TableHost`, and its attributes of their names are theirs.

    ``bot_delay``: seconds a computer player waits before each move; ``None`` draws a natural
    delay uniformly from 0.7 to 1.2 seconds; ``0`` moves at once (tests).  The async methods
    must run on one event loop; they never block on the network."""

    def __init__(
        self,
        store: Store,
        bot_delay: float | None = None,
        now: Callable[[], float] = time.time,
        workers: int | None = None,
    ) -> None:
        self.store = store
        #: the worker processes of the computer's moves and hints (web/room/thinking.py); ``workers``
        #: processes (default one less than the cores), started with the first decision
        self.thinking = ThinkingPool(workers)
        self.bot_delay = bot_delay
        self.now = now
        self.committer = GroupCommitter(store)  # steps are written in group commits (web/db/commit.py)
        self.follower: Any = None  # set by web/room/follower.py when several processes share PostgreSQL
        self.tables: dict[str, Table] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        #: stored tables that could not be resumed (id -> why, without secrets; :meth:`load`)
        self.skipped: dict[str, str] = {}
        #: steps a person's move's state may wait for with no bot delay (:meth:`changed`; 0: a
        #: state after every step; benchmarks/RESULTS.md, "Load")
        self.held_steps = HELD_STEPS
        self.on_finish: Callable[[Table, int, Action, str], Callable[[Any], None] | None] | None = None
        """Called before storing an action with ``(table, player, action, kind)`` (``"action"``
        or ``"timeout"``); may return a function of the open connection run in the step's
        transaction (the ladder's hook for a match's end, :mod:`ginrummy.web.community.members`)."""
        #: seconds a person of a rated match may be away before the other may claim the win
        self.leave_grace = DEFAULT_LEAVE_GRACE
        #: ``(table, player, how)`` -> the function recording a match ended by a resign or a leave
        self.on_end: Callable[[Table, int, str], Callable[[Any], None] | None] | None = None
        self.on_changed: Callable[[Table], None] | None = None  # after each change sent (learning/table_scores.py)
        self.autoplay = AutoPlay(self)
        self.room = Room(self)
        self.opening = Opening(self)
        self.advice = Advice(self)

    # the parts' attributes, on the manager as before (callers and tests use these names)
    create = _part("opening", "create")
    create_async = _part("opening", "create_async")
    opened = _part("opening", "opened")
    claim = _part("opening", "claim")
    hint = _part("advice", "hint")
    suggest = _part("advice", "suggest")
    owner_of = _part("autoplay", "owner_of")
    think_move = _part("autoplay", "think_move")
    check_clock = _part("autoplay", "check_clock")
    schedule_clock = _part("autoplay", "schedule_clock")
    bot_due = _part("autoplay", "bot_due")
    schedule_bot = _part("autoplay", "schedule_bot")
    start = _part("autoplay", "start")
    resign = _part("autoplay", "resign")
    claim_win = _part("autoplay", "claim_win")
    leaving = _part("autoplay", "leaving")
    stop = _part("autoplay", "stop")
    lobby_watchers = _part("room", "lobby_watchers")
    lobby_chat = _part("room", "lobby_chat")
    watchers_interval = _part("room", "watchers_interval")
    on_rematch = _part("room", "on_rematch")
    account_name_taken = _part("room", "account_name_taken")
    lobby_entry = _part("room", "lobby_entry")
    lobby = _part("room", "lobby")
    attended = _part("room", "attended")
    watch_lobby = _part("room", "watch_lobby")
    unwatch_lobby = _part("room", "unwatch_lobby")
    lobby_changed = _part("room", "lobby_changed")
    spectator_came = _part("room", "spectator_came")
    spectators_changed = _part("room", "spectators_changed")
    sit = _part("room", "sit")
    say = _part("room", "say")
    say_in_lobby = _part("room", "say_in_lobby")
    ask_rematch = _part("room", "ask_rematch")

    def current(self, table: Table) -> Table:
        """The table of ``table``'s id as this manager holds it now (a step replaces the
        object), else ``table`` itself (one no longer held)."""
        return self.tables.get(table.id, table)

    # -- creating and loading ------------------------------------------------------------------

    def load(self, table_id: str) -> Table:
        """The table ``table_id``, rebuilt from the store if not in memory.  Raises
        :class:`WebError` (``not_found``)."""
        if table_id in self.tables:
            return self.tables[table_id]
        if not isinstance(table_id, str) or not table_id.isalnum() or len(table_id) > 40:
            raise WebError(ErrorCode.NOT_FOUND, W_("no such table"))
        if table_id in self.skipped:
            raise WebError(
                ErrorCode.NOT_FOUND,
                W_(
                    "the table {table_id} cannot be resumed: its stored rules or moves are not valid now",
                    table_id=table_id,
                ),
            )
        try:
            loaded = self.store.load(table_id)
            if loaded is None:
                raise WebError(ErrorCode.NOT_FOUND, W_("no table {table_id!r}", table_id=table_id))
            row, steps = loaded
            rules = RuleSet.from_dict({k: v for k, v in row.rules.items()})  # R14: within bounds
            secrets_ = self.store.seat_secrets(table_id)
            options = self.store.options(table_id)
            seeded = secrets_ and "daily" not in options  # a daily table is dealt with no client seeds
            match = None if seeded else Match.new(rules, row.names, row.seed, first_dealer=options.get("first_dealer"))
            table = Table(row, match, seat_secrets=secrets_, options=options, runtime=TableRuntime(now=self.now))
            table.replay(steps)
        except (WebError, SQLAlchemyError):
            raise  # unknown, or the database is away: nothing wrong with the table
        except Exception as exc:  # the stored table: rules out of bounds, a bad row, a replay that fails
            self.skip(table_id, exc)
        self.tables[table_id] = table
        return table

    def skip(self, table_id: str, exc: Exception) -> NoReturn:
        """Mark the stored table ``table_id`` as not resumable (:attr:`skipped`, this process
        only: nothing is written), log one line naming it and why, and raise
        :class:`WebError` (``not_found``).  The reason is the rule set's own error
        (R14, no secret in it) or only the kind of error: a replay's message could name a
        hidden card."""
        why = str(exc)[:200] if isinstance(exc, RuleSetError) else type(exc).__name__
        self.skipped[table_id] = why
        log.warning("table %s skipped: it cannot be resumed (%s)", table_id, why)
        raise WebError(
            ErrorCode.NOT_FOUND,
            W_(
                "the table {table_id} cannot be resumed: its stored rules or moves are not valid now", table_id=table_id
            ),
        ) from None

    def load_all(self) -> list[Table]:
        """Load every stored table (at start-up) and schedule the pending computer moves.  A
        table that cannot be resumed is skipped with one log line (:meth:`skip`): start-up
        never stops on a stored table."""
        out = []
        for tid in self.store.table_ids():
            if tid in self.tables or tid in self.skipped:
                continue
            try:
                out.append(self.load(tid))
            except WebError:
                pass  # logged by skip (or gone since table_ids)
            except Exception as exc:  # the database failed: the table is tried again when asked for
                log.warning("table %s not loaded at start-up: %s", tid, type(exc).__name__)
        return out

    # -- acting ------------------------------------------------------------------------------

    def lock(self, table: Table) -> asyncio.Lock:
        lock = self._locks.get(table.id)
        if lock is None:  # made once per table (setdefault would make one at every call)
            lock = self._locks[table.id] = asyncio.Lock()
        return lock

    async def _write(
        self,
        table: Table,
        player: int | None,
        kind: str,
        text: str,
        also: Callable[[Any], None] | None = None,
        more: Sequence[tuple[int | None, str, str]] = (),
    ) -> None:
        """Store the step (returns once its group commit has committed; ``also(conn)`` runs in
        the same transaction), and the steps ``more`` after it, ``(player, kind, text)`` each,
        in the same transaction; or raise :class:`WebError` ``conflict`` after reloading the
        table when another writer got there first or the database failed, ``internal`` when
        the step's own work failed (a fault of ours, logged); then none is stored.  The steps'
        time is :attr:`now` (the clocks are rebuilt from it)."""
        at = self.now()
        steps = [(table.seq + 1, player, str(kind), text)]  # a StepKind is stored as its string
        steps += [(table.seq + 2 + i, p, k, x) for i, (p, k, x) in enumerate(more)]
        try:
            await self.committer.append_steps(
                table.id, steps, datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds"), also=also
            )
        except (SQLAlchemyError, sqlite3.Error, OSError, CommitterStopped) as exc:  # the database said no
            log.warning("store write failed for table %s: %s; reloading", table.id, exc)
            self._reload(table)
            raise WebError(ErrorCode.CONFLICT, W_("the table changed elsewhere; here is its current state")) from None
        except Exception:  # a fault of ours (the step's own work raised): not a conflict, but not stored either
            log.exception("storing a step of table %s failed; reloading", table.id)
            self._reload(table)
            raise WebError(
                ErrorCode.INTERNAL, W_("the server could not handle this message; nothing changed")
            ) from None
        table.last_write = at

    def _reload(self, table: Table) -> None:
        """Read ``table`` again from the store (a step of it was not stored), keeping its watchers."""
        self.tables.pop(table.id, None)
        fresh = self.load(table.id)
        fresh.watchers = table.watchers

    async def client_seed(self, table: Table, player: int, deal: int, seed: str) -> None:
        """Take ``player``'s client seed for deal ``deal`` (``docs/record-format.md``): store it
        as a step, and deal the first deal once every person's seed is in.  Raises
        :class:`WebError` (``not_allowed``) when no such seed is wanted now (nothing changes).

        At the end of a deal every person sends a seed at once: with the seats on two server
        processes, the other person's seed can take the step first (``conflict``, the table
        reloaded).  The seed is then tried once more on the fresh table, where it is usually
        still wanted (R3.2: the shuffle of the next deal takes each person's seed); if it is
        not, the ``conflict`` is raised (the player is sent the fresh state).  A clock that has
        run out has its step first (:meth:`AutoPlay.overdue`): a seed after its deadline is not taken."""
        table = await self.autoplay.overdue(table)
        try:
            await self._client_seed(table, player, deal, seed)
        except WebError as exc:
            if exc.code != "conflict":
                raise
            try:
                await self._client_seed(self.current(table), player, deal, seed)
            except WebError:
                raise exc from None

    async def _client_seed(self, table: Table, player: int, deal: int, seed: str) -> None:
        async with self.lock(table):
            table = self.current(table)
            table.check_client_seed(player, deal, seed)
            if table.pending_seeds.get(player) != seed:
                await self._write(table, player, StepKind.CLIENT_SEED, json.dumps({"deal": deal, "seed": seed}))
                table.pending_seeds[player] = seed
                table.stored(StepKind.CLIENT_SEED, player)
            await self.deal_first_if_ready(table)
        await self.changed(table)

    async def deal_first_if_ready(self, table: Table) -> None:
        """Deal the first deal when every person's client seed is in (stored first)."""
        if table.match is None and not table.waiting_for:
            await self._write(table, None, StepKind.DEAL, "deal")
            table.deal_next(StepKind.DEAL)
            table.stored(StepKind.DEAL, None)

    async def catch_up(self, table_id: str) -> bool:
        """Apply the steps another process stored for ``table_id`` since this one last saw it
        (several servers on one PostgreSQL, web/room/follower.py); ``True`` if there were any.  No-op
        without a follower or for a table not in memory."""
        if self.follower is None or table_id not in self.tables:
            return False
        return bool(await self.follower.catch_up(table_id))

    async def act(self, table: Table, player: int, text: str | Action, *, kind: str = StepKind.ACTION) -> int:
        """Play ``player``'s action: verify, store, apply, then tell every watcher; returns the
        step's number (its ``seq``; the computer's immediate answer may follow it).  Raises
        :class:`IllegalActionError`/:class:`NotYourTurnError` (nothing changes).  A refused
        action is tried once more after :meth:`catch_up` found steps from another process.
        ``kind`` ``"timeout"``: the server moves for a person whose clock ran out
        (:mod:`~ginrummy.web.room.clock`).  A clock that has run out has its step first
        (:meth:`AutoPlay.overdue`): a move after its deadline is not taken."""
        if kind == StepKind.ACTION:
            table = await self.autoplay.overdue(table)
        try:
            return await self._act(table, player, text, kind)
        except (IllegalActionError, NotYourTurnError):
            if not await self.catch_up(table.id):
                raise
            return await self._act(table, player, text, kind)

    async def _act(self, table: Table, player: int, text: str | Action, kind: str) -> int:
        async with self.lock(table):
            table = self.current(table)
            action = table.check_action(player, text)
            also = self.on_finish(table, player, action, kind) if self.on_finish is not None else None
            trial, table.trial = table.trial, None
            checked = (trial[0], trial[2], trial[3]) if trial is not None and trial[1] is action else None
            person = kind == StepKind.ACTION and not table.is_bot(player)
            answer = await self.autoplay.answer(table, checked[1]) if person and checked is not None else []
            await self._write(
                table, player, kind, action.text, also, more=[(p, StepKind.ACTION.value, a.text) for p, a, _ in answer]
            )
            table.started_match().apply(player, action, checked=checked)
            table.stored(kind, player)
            own = table.seq
            for p, a, tried in answer:
                table.started_match().apply(p, a, checked=tried)
                table.stored("action", p)
        await self.changed(table, after_person=person)
        return own

    async def next_deal(self, table: Table, player: int | None) -> None:
        """Start the next deal (any seat may ask once the deal is over); tried once more after
        :meth:`catch_up` found steps from another process.  A clock that has run out has its
        step first (:meth:`AutoPlay.overdue`: the person who owed it forfeits)."""
        table = await self.autoplay.overdue(table)
        try:
            await self._next_deal(table, player)
        except IllegalActionError:
            if not await self.catch_up(table.id):
                raise
            await self._next_deal(table, player)

    async def _next_deal(self, table: Table, player: int | None) -> None:
        async with self.lock(table):
            table = self.current(table)
            table.check_next_deal()
            await self._write(table, None, StepKind.NEXT_DEAL, "next deal")
            table.deal_next("next_deal")
            table.stored(StepKind.NEXT_DEAL, None)
        await self.changed(table)

    # -- watchers ------------------------------------------------------------------------------

    def watch(self, table: Table, player: int, send: Watcher) -> None:
        """Add a connection; a person back within his grace period is no longer away."""
        table.watchers.append((player, send))
        self.autoplay.came_back(table, player)

    def unwatch(self, table: Table, player: int, send: Watcher) -> None:
        """Forget a connection; a person's last one makes him away (:meth:`AutoPlay.left_seat`)."""
        table = self.current(table)
        try:
            table.watchers.remove((player, send))
        except ValueError:
            return
        self.autoplay.left_seat(table, player)

    async def send_to(self, table: Table, player: int, send: Watcher, msg: dict[str, Any]) -> None:
        try:
            await send(self.room.guard.for_viewer(table.id, send, msg))
        except Exception:
            self.unwatch(table, player, send)

    async def changed(self, table: Table, *, after_person: bool = False) -> None:
        """Send every watcher its state and schedule a computer move if one is due.

        ``after_person``: the step was a person's move.  When computer seats answer it at once
        (no bot delay) and :attr:`held_steps` is set, the state waits for their moves, up to that
        many steps, until a person is to act or the deal is over: one state says all those steps
        (``docs/protocol.md``)."""
        table = self.current(table)
        if (after_person or table.unsent) and self.bot_delay == 0 and table.held < self.held_steps:
            due = self.bot_due(table)
            if due is not None and due[1] == "action":
                self.schedule_bot(table)
                if table.bot_task is not None and not table.bot_task.done():
                    if not table.unsent:
                        table.flushed = asyncio.Event()
                    table.unsent = True
                    table.held += 1
                    self.schedule_clock(table)
                    if table.public:
                        self.lobby_changed()
                    return
        table.unsent = False
        table.held = 0
        for p, send in list(table.watchers):
            await self.send_to(table, p, send, table.state_for(p))
        if table.flushed is not None:
            table.flushed.set()
            table.flushed = None
        self.schedule_bot(table)
        self.schedule_clock(table)
        if self.on_changed is not None:
            self.on_changed(table)
        if table.public:
            self.lobby_changed()

    async def flushed(self, table: Table, timeout: float = 10.0) -> None:
        """Return once the state showing the table's last step has been handed to every
        watcher: at once, unless it waits for the computer's immediate answer (:meth:`changed`),
        then when that state is sent (at most ``timeout`` seconds).  An ``ack`` waits for it,
        so that it still follows the state that shows the move (``docs/protocol.md``)."""
        t = self.current(table)
        event = t.flushed
        if t.unsent and event is not None:
            try:
                async with asyncio.timeout(timeout):  # no task of its own, unlike wait_for
                    await event.wait()
            except TimeoutError:  # pragma: no cover - the computer's move failed unseen
                log.warning("table %s: the state of a step was not sent in %s s", t.id, timeout)
