"""Tables and seats of the web server, independent of HTTP.

A :class:`Table` holds a :class:`~ginrummy.match.Match`, one seat per player (a person
invited by a link with a secret token, or a computer player of a level of
:data:`ginrummy.players.PLAYER_LEVELS`), and writes every accepted step to the
:class:`~ginrummy.web.store.Store` *before* applying it, so a restart rebuilds the match
exactly (DESIGN "The server").  :class:`TableManager` creates and loads tables, sends each
watcher its own state, and schedules the computer players' moves with asyncio (the engine
stays synchronous and pure).

What a seat is sent (:meth:`Table.state_for`) is built only from ``Match.view(player)``, the
score sheet, the names and the deal commitments; a deal seed is included only once its deal is
over (DESIGN "Fair shuffling"), the match seed never.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, parse_action
from ..cards import card_str, cards_of
from ..errors import N_, GinRummyError, IllegalActionError, NotYourTurnError
from ..match import Match
from ..melds import best_arrangement, deadwood
from ..players import make_player
from ..players.base import PLAYER_LEVELS, load_levels
from ..rules import RuleSet
from ..views import PlayerView
from .commit import GroupCommitter
from .i18n_web import W_, web_translator
from .store import ActionRow, Store, TableRow

__all__ = ["Table", "TableManager", "TableError", "SeatSpec", "player_levels", "advise", "MAX_NAME_CHARS"]

log = logging.getLogger("ginrummy.web")

MAX_NAME_CHARS = 24


class TableError(GinRummyError, ValueError):
    """A table request was refused.  ``code``: ``not_found``, ``bad_token``, ``bad_request``,
    ``not_allowed``, ``conflict``.  ``message`` is made with :func:`~ginrummy.web.i18n_web.W_`,
    so ``key``/``params`` let the server say it in each seat's language."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


_LEVEL_ORDER = ("random", "novice", "club", "expert")


def player_levels() -> list[str]:
    """The computer player levels registered now, weakest first: random, novice, club, expert,
    then any others in the order they were registered (the same order whatever module was
    imported first)."""
    load_levels()
    known = [x for x in _LEVEL_ORDER if x in PLAYER_LEVELS]
    return known + [x for x in PLAYER_LEVELS if x not in known]


@dataclass(frozen=True)
class SeatSpec:
    """A seat asked for at table creation: ``kind`` ``"human"`` or ``"bot"``; ``level`` for a
    bot; ``name`` shown at the table (defaulted if empty)."""

    kind: str
    name: str = ""
    level: str = ""


Watcher = Callable[[dict[str, Any]], Awaitable[None]]


def advise(level: str, rng: random.Random, view: PlayerView) -> tuple[Action, str]:
    """What a player of ``level`` (a name of :data:`~ginrummy.players.PLAYER_LEVELS`) would do
    in ``view`` (a :class:`~ginrummy.views.PlayerView` whose seat is to act) and why:
    ``(action, reason)``, the action one of ``view.legal`` and the reason a
    :class:`~ginrummy.errors.Msg` to say in the asker's language.  The player sees only the
    view (DESIGN principle 3) and draws from ``rng``; a player with a time budget
    (``budget_ms``, the expert) is made without it, so the same position always gets the same
    hint.  A level without a ``hint`` method is answered by the novice.

    Raises :class:`~ginrummy.errors.GinRummyError` for an unknown level.
    """
    p: Any = make_player(level, rng)
    if getattr(p, "budget_ms", None) is not None:
        p = type(p)(rng, budget_ms=None)  # no clock: deterministic given rng
    if not callable(getattr(p, "hint", None)):
        p = make_player("novice", rng)
    return p.hint(view, view.legal)


@dataclass
class Table:
    """One table: the stored row, the live :class:`Match`, and the in-memory extras.

    Attributes:
        row: the stored :class:`TableRow` (rules, names, seat kinds, tokens, seed).
        match: the match rebuilt from the store.
        seq: how many steps are stored.
        suggestions: the adviser's suggestions in the current deal (three-hand, R10.2).
        watchers: ``(player, send)`` of the open connections.
        hints: the hint of the current step, ``{(seq, player): (action, reason)}`` (one entry).
    """

    row: TableRow
    match: Match
    seq: int = 0
    suggestions: list[dict[str, Any]] = field(default_factory=list)
    watchers: list[tuple[int, Watcher]] = field(default_factory=list)
    hints: dict[tuple[int, int], tuple[Action, str]] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    # the entries of :meth:`_deals` for deals that are over (they never change): {index: (deal, entry)}
    _over_deals: dict[int, tuple[Any, dict[str, Any]]] = field(default_factory=dict, repr=False)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def names(self) -> list[str]:
        return self.row.names

    def seat_kind(self, player: int) -> str:
        """``"human"`` or ``"bot:<level>"``."""
        return self.row.seats[player]

    def is_bot(self, player: int) -> bool:
        return self.row.seats[player].startswith("bot:")

    @property
    def hint_level(self) -> str:
        """The level of the player that answers ``hint`` requests: the level of the first
        computer seat (the computer opponent), else ``club``."""
        for kind in self.row.seats:
            if kind.startswith("bot:"):
                return kind[4:]
        return "club"

    def hint_target(self, player: int) -> int:
        """The player whose move a hint asked by ``player`` is about: ``player`` himself when he
        is to act, or the captain when ``player`` sits out of the three-hand deal and advises
        him (R10.2).  Raises :class:`NotYourTurnError` otherwise (another player is to act, the
        deal or the match is over)."""
        m = self.match
        if m.finished:
            raise NotYourTurnError(N_("the match is over"), "hint", [], m.seat_of(player), None)
        to_act = m.player_to_act()
        if to_act is None:
            raise NotYourTurnError(W_("a hint is for a move in a deal, and this deal is over"), "hint", [],
                                   m.seat_of(player), None)
        if to_act == player:
            return player
        if m.roles is not None and m.roles[2] == player and to_act == m.roles[1]:
            return to_act
        raise NotYourTurnError(W_("a hint is only for the player to act, and {name} is to act",
                                  name=self.names[to_act]), "hint", [], m.seat_of(player), m.deal.to_act)

    def can_hint(self, player: int) -> bool:
        """Whether ``player`` may ask for a hint now (see :meth:`hint_target`)."""
        try:
            self.hint_target(player)
        except NotYourTurnError:
            return False
        return True

    def player_of(self, token: str | None) -> int:
        """The player index whose secret token is ``token``.  Raises :class:`TableError`
        (``bad_token``) otherwise; tokens are compared in constant time."""
        if isinstance(token, str) and token:
            for i, t in enumerate(self.row.tokens):
                if secrets.compare_digest(t, token):
                    return i
        raise TableError("bad_token", W_("this link's seat token is not valid for this table"))

    # -- steps -----------------------------------------------------------------------------

    def check_action(self, player: int, text: str) -> Action:
        """Parse and verify ``player``'s action without changing anything.  Raises
        :class:`IllegalActionError` / :class:`NotYourTurnError` saying why (R4-R9); another
        player to act is named ("it is Bob's turn", code ``not_your_turn``)."""
        action = parse_action(text)
        m = self.match
        if m.finished:
            raise NotYourTurnError(N_("the match is over"), action.text, [], player, None)
        seat = m.seat_of(player)
        if seat is None:
            raise NotYourTurnError(W_("{name} sits out this deal and advises the captain (R10.2)",
                                      name=self.names[player]), action.text, [], None, m.deal.to_act)
        to_act = m.player_to_act()
        if to_act is not None and to_act != player:
            # the engine says "seat 0 cannot act now: seat 1 is to act"; a person is told a name
            raise NotYourTurnError(W_("it is {name}'s turn", name=self.names[to_act]), action.text, [],
                                   seat, m.deal.to_act)
        # DealState.apply is functional: a trial apply verifies everything (a knock's chosen
        # melds included) and leaves the state as it was.
        m.deal.apply(seat, action)
        return action

    def check_next_deal(self) -> None:
        """Raises :class:`IllegalActionError` while the deal is on or once the match is over."""
        if self.match.finished:
            # the engine's own messages (messages domain)
            raise IllegalActionError(N_("the match is over"))
        if not self.match.deal.is_over:
            raise IllegalActionError(N_("the deal is not over yet"))

    def replay(self, steps: list[ActionRow]) -> None:
        """Re-apply stored steps (at load time)."""
        for s in steps:
            if s.kind == "action":
                assert s.player is not None
                self.match.apply(s.player, parse_action(s.text))
            elif s.kind == "next_deal":
                self.match.next_deal()
                self.suggestions = []
            else:  # pragma: no cover - never written
                raise ValueError(f"unknown stored step kind {s.kind!r}")
            self.seq = s.seq

    # -- what a seat sees ------------------------------------------------------------------

    def _deals(self) -> list[dict[str, Any]]:
        out = []
        m = self.match
        for i, d in enumerate(m.deals):
            cached = self._over_deals.get(i)
            if cached is not None and cached[0] is d:
                out.append(dict(cached[1]))
                continue
            r = d.result
            entry: dict[str, Any] = {
                "number": d.number, "commitment": d.commitment,
                "players": [self.names[p] for p in d.seat_players],
                "dealer": self.names[d.seat_players[d.dealer]],
                "over": r is not None,
            }
            if r is not None:
                entry.update({
                    "seed": d.seed.hex(), "outcome": r.outcome, "points": r.points,
                    "winner": None if r.winner is None else self.names[d.seat_players[r.winner]],
                    "knocker": None if r.knocker is None else self.names[d.seat_players[r.knocker]],
                    "reason": r.reason, "actions": len(d.actions),
                })
                self._over_deals[i] = (d, entry)
            out.append(dict(entry))
        return out

    def state_for(self, player: int) -> dict[str, Any]:
        """The ``state`` message for ``player`` (see ``docs/protocol.md``)."""
        m = self.match
        view = m.view(player)
        v = view.to_json()
        hand = view.hand
        arr = best_arrangement(hand)
        arrangement: dict[str, Any] = {
            "melds": [[card_str(c) for c in cards_of(x)] for x in arr.melds],
            "deadwood": [card_str(c) for c in cards_of(arr.deadwood)],
            "deadwood_value": arr.deadwood_value,
        }
        if hand.bit_count() == 11:
            # what each discard would leave: the legal knocks and gins already say when a knock is on
            arrangement["after_discard"] = {card_str(c): deadwood(hand & ~(1 << c)) for c in cards_of(hand)}
        record = m.record
        over = m.deal.is_over
        roles = None
        if m.roles is not None:
            roles = {"box": self.names[m.roles[0]], "captain": self.names[m.roles[1]], "out": self.names[m.roles[2]]}
        seat = m.seat_of(player)
        is_adviser = m.roles is not None and m.roles[2] == player
        is_captain = m.roles is not None and m.roles[1] == player
        to_act = m.player_to_act()
        state: dict[str, Any] = {
            "type": "state",
            "table": {
                "id": self.id, "rules": m.rules.to_dict(), "names": list(self.names),
                "seats": [{"name": n, "kind": "human" if k == "human" else "computer",
                           "level": None if k == "human" else k[4:],
                           "connected": any(p == i for p, _ in self.watchers) or k != "human"}
                          for i, (n, k) in enumerate(zip(self.names, self.row.seats))],
            },
            "you": player,
            "role": m.role_of(player),
            "seat": seat,
            "seq": self.seq,
            "seat_players": [self.names[p] for p in m.seat_players],
            "to_act": None if to_act is None else self.names[to_act],
            "your_turn": to_act == player,
            "roles": roles,
            "view": v,
            "arrangement": arrangement,
            "deal": {
                "number": record.number, "commitment": record.commitment,
                "seed": record.seed.hex() if over else None,
                "dealer": self.names[m.seat_players[m.deal.dealer]],
            },
            "deals": self._deals(),
            "sheet": m.sheet.to_dict(self.names),
            "match": {"finished": m.finished,
                      "winner": None if m.winner is None else self.names[m.winner]},
            "can_next_deal": over and not m.finished,
            "suggestions": list(self.suggestions) if (is_adviser or is_captain) else [],
            "can_suggest": is_adviser and not over,
            "can_hint": self.can_hint(player),
            "hint_level": self.hint_level,
            "record_available": m.finished,
        }
        return state


class TableManager:
    """Creates, loads and runs tables over one :class:`Store`.

    ``bot_delay``: seconds a computer player waits before each move; ``None`` draws a natural
    delay uniformly from 0.7 to 1.2 seconds; ``0`` moves at once (tests).
    The async methods must run on one event loop; they never block on the network.
    """

    def __init__(self, store: Store, bot_delay: float | None = None) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self._delay_rng = random.Random()
        self._locks: dict[str, asyncio.Lock] = {}
        self.committer = GroupCommitter(store)  # steps are written in group commits (web/commit.py)
        self.follower: Any = None  # set by web/notify.py when several processes share PostgreSQL

    # -- creating and loading ------------------------------------------------------------------

    def create(self, rules: RuleSet, seats: list[SeatSpec], *, seed: bytes | None = None, lang: str = "en") -> Table:
        """A new table with ``seats`` (2, or 3 for three-hand gin, R10) under ``rules``; the
        match seed is 32 secret random bytes unless given.  Stored before it is returned.
        A seat without a name gets "Player 2" or "Computer (novice)" in ``lang`` (the language
        of whoever opens the table; names are then fixed for everyone).

        Raises :class:`TableError` (``bad_request``) for a bad seat list or level, and
        :class:`~ginrummy.errors.RuleSetError` for rules that do not fit (e.g. Hollywood with 3).
        """
        if not isinstance(seats, list) or len(seats) not in (2, 3):
            raise TableError("bad_request", W_("a table has 2 seats, or 3 for three-hand gin (R10)"))
        levels = player_levels()
        tr = web_translator(lang)
        names: list[str] = []
        kinds: list[str] = []
        for i, s in enumerate(seats):
            if s.kind not in ("human", "bot"):
                raise TableError("bad_request", W_("seat {seat}: kind {kind!r} is not allowed; allowed: human, bot",
                                                   seat=str(i + 1), kind=s.kind))
            if s.kind == "bot" and s.level not in levels:
                raise TableError("bad_request", W_("seat {seat}: unknown computer level {level!r}; levels: {levels}",
                                                   seat=str(i + 1), level=s.level, levels=", ".join(levels)))
            name = " ".join(str(s.name or "").split())[:MAX_NAME_CHARS]
            if not name:
                # the level names are the terminal table's ("Novice"), in the messages domain
                name = (tr.t("Player {n}", n=i + 1) if s.kind == "human"
                        else tr.t("Computer ({level})", level=tr.pgettext("level", s.level.capitalize()).lower()))
            base, k = name, 2
            while name.casefold() in (n.casefold() for n in names):
                name = f"{base} {k}"
                k += 1
            names.append(name)
            kinds.append("human" if s.kind == "human" else f"bot:{s.level}")
        rules = rules.replace(players=len(seats)) if rules.players != len(seats) else rules
        seed = seed if seed is not None else secrets.token_bytes(32)
        match = Match.new(rules, names, seed)  # validates rules vs players
        row = TableRow(id=secrets.token_hex(6), created=Store.now(), rules=rules.to_dict(), names=names,
                       seats=kinds, tokens=[secrets.token_urlsafe(18) for _ in seats], seed=seed)
        self.store.create_table(row)
        table = Table(row, match)
        self.tables[row.id] = table
        return table

    def load(self, table_id: str) -> Table:
        """The table ``table_id``, rebuilt from the store if not in memory.  Raises
        :class:`TableError` (``not_found``)."""
        if table_id in self.tables:
            return self.tables[table_id]
        if not isinstance(table_id, str) or not table_id.isalnum() or len(table_id) > 40:
            raise TableError("not_found", W_("no such table"))
        loaded = self.store.load(table_id)
        if loaded is None:
            raise TableError("not_found", W_("no table {table_id!r}", table_id=table_id))
        row, steps = loaded
        rules = RuleSet.from_dict({k: v for k, v in row.rules.items()})
        table = Table(row, Match.new(rules, row.names, row.seed))
        table.replay(steps)
        self.tables[table_id] = table
        return table

    def load_all(self) -> list[Table]:
        """Load every stored table (at start-up) and schedule the pending computer moves."""
        out = []
        for tid in self.store.table_ids():
            try:
                out.append(self.load(tid))
            except Exception:  # pragma: no cover - a corrupt row must not stop the server
                log.exception("could not load table %s", tid)
        return out

    # -- acting ------------------------------------------------------------------------------

    def _lock(self, table: Table) -> asyncio.Lock:
        return self._locks.setdefault(table.id, asyncio.Lock())

    async def _write(self, table: Table, player: int | None, kind: str, text: str) -> None:
        """Store the step (returns once its group commit has committed), or raise
        :class:`TableError` ``conflict`` after reloading the table when another writer got
        there first."""
        try:
            await self.committer.append(table.id, table.seq + 1, player, kind, text)
        except Exception as exc:
            log.warning("store write failed for table %s: %s; reloading", table.id, exc)
            self.tables.pop(table.id, None)
            fresh = self.load(table.id)
            fresh.watchers = table.watchers
            raise TableError("conflict", W_("the table changed elsewhere; here is its current state")) from None

    async def catch_up(self, table_id: str) -> bool:
        """Apply the steps another process stored for ``table_id`` since this one last saw it
        (several servers on one PostgreSQL, web/notify.py); ``True`` if there were any.  No-op
        without a follower or for a table not in memory."""
        if self.follower is None or table_id not in self.tables:
            return False
        return bool(await self.follower.catch_up(table_id))

    async def act(self, table: Table, player: int, text: str) -> None:
        """Play ``player``'s action: verify, store, apply, then tell every watcher.  Raises
        :class:`IllegalActionError`/:class:`NotYourTurnError` (nothing changes).  A refused
        action is tried once more after :meth:`catch_up` found steps from another process."""
        try:
            await self._act(table, player, text)
        except (IllegalActionError, NotYourTurnError):
            if not await self.catch_up(table.id):
                raise
            await self._act(table, player, text)

    async def _act(self, table: Table, player: int, text: str) -> None:
        async with self._lock(table):
            table = self.tables.get(table.id, table)
            action = table.check_action(player, text)
            await self._write(table, player, "action", action.text)
            table.match.apply(player, action)
            table.seq += 1
        await self.changed(table)

    async def next_deal(self, table: Table, player: int | None) -> None:
        """Start the next deal (any seat may ask once the deal is over)."""
        try:
            await self._next_deal(table, player)
        except IllegalActionError:
            if not await self.catch_up(table.id):
                raise
            await self._next_deal(table, player)

    async def _next_deal(self, table: Table, player: int | None) -> None:
        async with self._lock(table):
            table = self.tables.get(table.id, table)
            table.check_next_deal()
            await self._write(table, None, "next_deal", "next deal")
            table.match.next_deal()
            table.seq += 1
            table.suggestions = []
        await self.changed(table)

    async def suggest(self, table: Table, player: int, text: str) -> None:
        """Record the adviser's suggestion for the captain (R10.2) and send it to both.
        Raises :class:`TableError` (``not_allowed``) for anyone but the adviser."""
        m = table.match
        if m.roles is None or m.roles[2] != player:
            raise TableError("not_allowed", W_("only the player sitting out advises the captain (R10.2)"))
        if m.deal.is_over:
            raise TableError("not_allowed", W_("the deal is over"))
        entry = {"type": "suggestion", "from": table.names[player], "text": text, "seq": table.seq}
        table.suggestions.append(entry)
        del table.suggestions[:-20]
        for p, send in list(table.watchers):
            if p in (m.roles[1], m.roles[2]):
                await self._send(table, p, send, entry)

    async def hint(self, table: Table, player: int) -> tuple[int, Action, str]:
        """What the table's hint player (:attr:`Table.hint_level`) would do for ``player`` now:
        ``(seq, action, reason)``, ``seq`` the step it is about, ``reason`` a
        :class:`~ginrummy.errors.Msg`.  The hint player is given only ``Match.view`` of the
        player to act and its legal actions; its random choices come from the match seed and
        the step, so the same position always gets the same hint (also for the adviser and the
        captain, R10.2).  Nothing changes.  Raises :class:`NotYourTurnError` when ``player`` may
        not ask (see :meth:`Table.hint_target`)."""
        table = self.tables.get(table.id, table)
        target = table.hint_target(player)
        key = (table.seq, target)
        if key not in table.hints:
            rng = random.Random(int.from_bytes(hashlib.sha256(
                table.row.seed + f"/hint/{target}/{table.seq}".encode()).digest()[:8], "big"))
            view = table.match.view(target)
            # off the event loop: the expert samples for a tenth of a second or so
            action, reason = await asyncio.to_thread(advise, table.hint_level, rng, view)
            table = self.tables.get(table.id, table)
            if table.seq != key[0]:  # the deal moved on meanwhile: still the answer for that step
                return key[0], action, reason
            table.hints = {key: (action, reason)}
        action, reason = table.hints[key]
        return key[0], action, reason

    # -- watchers and bots ------------------------------------------------------------------------

    def watch(self, table: Table, player: int, send: Watcher) -> None:
        table.watchers.append((player, send))

    def unwatch(self, table: Table, player: int, send: Watcher) -> None:
        table = self.tables.get(table.id, table)
        try:
            table.watchers.remove((player, send))
        except ValueError:
            pass

    async def _send(self, table: Table, player: int, send: Watcher, msg: dict[str, Any]) -> None:
        try:
            await send(msg)
        except Exception:
            self.unwatch(table, player, send)

    async def changed(self, table: Table) -> None:
        """Send every watcher its state and schedule a computer move if one is due."""
        table = self.tables.get(table.id, table)
        for p, send in list(table.watchers):
            await self._send(table, p, send, table.state_for(p))
        self.schedule_bot(table)

    def bot_due(self, table: Table) -> tuple[int | None, str] | None:
        """``(player, "action")`` if a computer player is to act, ``(None, "next_deal")`` if
        the deal is over and every seat is a computer, else ``None``."""
        m = table.match
        if m.finished:
            return None
        p = m.player_to_act()
        if p is not None:
            return (p, "action") if table.is_bot(p) else None
        if m.deal.is_over and all(table.is_bot(i) for i in range(len(table.names))):
            return (None, "next_deal")
        return None

    def schedule_bot(self, table: Table) -> None:
        """Start the task that plays the due computer move after the delay (once)."""
        if self.bot_due(table) is None:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bot_move(table))

    def _delay(self) -> float:
        if self.bot_delay is None:
            return self._delay_rng.uniform(0.7, 1.2)
        return max(0.0, float(self.bot_delay))

    async def _bot_move(self, table: Table) -> None:
        await asyncio.sleep(self._delay())
        table = self.tables.get(table.id, table)
        due = self.bot_due(table)
        if due is None:
            return
        player, what = due
        table.bot_task = None  # the moves below schedule the next computer move themselves
        try:
            if what == "next_deal":
                await self.next_deal(table, None)
            else:
                assert player is not None
                level = table.seat_kind(player)[4:]
                # deterministic per step: the same table and step give the same choice after a restart
                rng = random.Random(int.from_bytes(hashlib.sha256(
                    table.row.seed + f"/bot/{player}/{table.seq}".encode()).digest()[:8], "big"))
                bot = make_player(level, rng)
                view = table.match.view(player)
                action = bot.choose(view, view.legal)
                await self.act(table, player, action.text)
        except Exception:
            log.exception("computer move failed at table %s", table.id)

    def start(self) -> None:
        """Schedule every pending computer move (call from the running event loop)."""
        for t in list(self.tables.values()):
            self.schedule_bot(t)

    async def stop(self) -> None:
        """Cancel the pending computer moves; write the steps waiting for a commit."""
        for t in self.tables.values():
            if t.bot_task is not None:
                t.bot_task.cancel()
        await self.committer.stop()
