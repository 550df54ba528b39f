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
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from datetime import datetime, timezone
from typing import Any, NoReturn

from sqlalchemy.exc import SQLAlchemyError

from ...actions import ACTION_HELP, Action, parse_action
from ...cards import card_str
from ...errors import N_, IllegalActionError, Msg, NotYourTurnError, RuleSetError
from ...i18n import LANGUAGES, level_in_text
from ...deal import DealState
from ...match import Match
from ...rules import RuleSet
from .clock import Clock, parse_time
from ..db.commit import GroupCommitter
from ..texts import W_, web_translator
from ..protocol.inbound import plain_text
from ..community.accounts import is_reserved_name, name_key, name_skeleton, name_skeletons, strip_invisible, typed_name_key
from .autoplay import AutoPlayMixin, bot_choice
from .thinking import CHEAP_LEVELS, FALLBACK_LEVEL, HINT_DEADLINE, ThinkingPool, decision_seed, hint_text
from .lobby import RoomMixin
from .seats import (MAX_NAME_CHARS, SPECTATOR, SeatSpec, TableError, advise, player_levels, same_secret,
                    secret_hash)
from ..protocol.state import state_message
from ..db.store import ActionRow, SeatSecret, Store, TableRow

log = logging.getLogger("ginrummy.web")

HELD_STEPS = 4
"""The most steps one state may wait for when holding is on (:attr:`TableManager.held_steps`): a
person's move and the computer's immediate answer (its draw and its discard, a knock), never an
unbounded run of computer moves."""

Watcher = Callable[[dict[str, Any]], Awaitable[None]]

__all__ = ["Table", "TableManager", "TableError", "SeatSpec", "player_levels", "advise", "MAX_NAME_CHARS",
           "secret_hash", "same_secret", "SPECTATOR"]

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
    match: Match | None
    seq: int = 0
    suggestions: list[dict[str, Any]] = field(default_factory=list)
    watchers: list[tuple[int, Watcher]] = field(default_factory=list)
    hints: dict[tuple[int, int], tuple[Action, str]] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    seat_secrets: list[SeatSecret] = field(default_factory=list)
    pending_seeds: dict[int, str] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    chat: list[dict[str, Any]] = field(default_factory=list)
    rematch_votes: set[int] = field(default_factory=set)
    clock: Clock | None = None
    clock_timer: asyncio.TimerHandle | None = None
    last_write: float = 0.0
    # the state entries of deals that are over (they never change): {index: (deal, entry)}
    over_deals: dict[int, tuple[Any, dict[str, Any]]] = field(default_factory=dict, repr=False)
    # the parts of this table's state messages built once per change (web/protocol/state.py)
    state_cache: dict[str, tuple[Any, Any, str]] = field(default_factory=dict, repr=False)
    trial: tuple[Any, Action, Any, Any] | None = field(default=None, repr=False)
    """The last action verified by :meth:`check_action`: ``(deal, action, new deal, events)``."""
    unsent: bool = False
    """A person's step whose state waits for the computer's immediate answer (bot delay 0)."""
    held: int = 0
    """How many steps the state has waited for so far (at most :data:`HELD_STEPS`)."""
    flushed: asyncio.Event | None = field(default=None, repr=False)
    """Set when the state that waited (:attr:`unsent`) is sent; see :meth:`TableManager.flushed`."""
    spectators_seen: int = 0
    """How many spectator connections this process has opened to the table: the next one's
    number in the chat ("spectator 3"), so that players can tell them apart and mute one."""
    owner: str | None = None
    """The address of the last person who connected to a seat: the key of the table's
    computer moves in the thinking pool's fair queue (:mod:`ginrummy.web.room.thinking`)."""
    hint_job: tuple[tuple[int, int], asyncio.Future[Any]] | None = field(default=None, repr=False)
    """The hint being worked out, ``((seq, player), future)``: a second ask shares it."""
    signed_in: set[int] = field(default_factory=set)
    """The seats a signed-in person took (their names are the accounts' names): set by
    :mod:`ginrummy.web.community.members` and the app; states mark them ``"account": true``."""
    rating: dict[str, Any] | None = None
    """Set by the players' ladder (:mod:`ginrummy.web.community.members`) for a rated table: sent in
    every started state as ``"rating"``."""

    def __post_init__(self) -> None:
        if self.clock is None:
            self.clock = Clock.from_options(self.options)

    @property
    def forfeit(self) -> int | None:
        """The player who forfeited the match on time (three timeouts in a row), or ``None``."""
        return None if self.clock is None else self.clock.forfeit

    @property
    def over(self) -> bool:
        """Whether the match is over: finished by the rules, or forfeited on time."""
        return self.forfeit is not None or (self.match is not None and self.match.finished)

    def stored(self, kind: str, player: int | None) -> None:
        """A live step was stored (at :attr:`last_write`) and applied: count it, run the clocks."""
        self.seq += 1
        self.after_step(kind, player, self.last_write)

    def after_step(self, kind: str, player: int | None, at: float) -> None:
        """Run the clocks after a stored step at time ``at`` (seconds since the epoch): charge
        the mover (a ``timeout`` step is a move the server made for him), then start the clock
        of the person to act, if any."""
        if self.clock is None:
            return
        m = self.match
        if kind in ("action", "timeout") and player is not None:
            self.clock.moved(player, at, timed_out=kind == "timeout", match_over=m is not None and m.finished)
        to_act = None if m is None or self.over else m.player_to_act()
        self.clock.start(to_act if to_act is not None and not self.is_bot(to_act) else None, at)

    @property
    def public(self) -> bool:
        """Whether the table is listed in the lobby, its free seats open to anyone, its play
        open to spectators."""
        return bool(self.options.get("public"))

    @property
    def spectators(self) -> int:
        """How many spectators watch now."""
        return sum(1 for p, _ in self.watchers if p == SPECTATOR)

    def sees_chat(self, player: int) -> bool:
        """Players always see the table chat; spectators only when the players allow it."""
        return player != SPECTATOR or bool(self.options.get("spectator_chat"))

    @property
    def fair(self) -> bool:
        """Whether each deal waits for the people's client seeds (every table with a person,
        made since client seeds exist)."""
        return bool(self.seat_secrets)

    @property
    def humans(self) -> list[int]:
        """The players who are people."""
        return [i for i in range(len(self.names)) if not self.is_bot(i)]

    @property
    def next_deal_number(self) -> int | None:
        """The number of the deal that may be dealt next: 1 before the first deal, K+1 when
        deal K is over and the match goes on, else ``None``."""
        m = self.match
        if m is None:
            return 1
        if m.deal.is_over and not m.finished:
            return m.record.number + 1
        return None

    @property
    def waiting_for(self) -> list[int]:
        """The people whose client seed for :attr:`next_deal_number` is not in yet."""
        if not self.fair or self.next_deal_number is None:
            return []
        return [p for p in self.humans if p not in self.pending_seeds]

    @property
    def waiting_names(self) -> str:
        """The names of :attr:`waiting_for`, joined by commas (``"Ann, Bob"``; ``""`` for none)."""
        return ", ".join(self.names[p] for p in self.waiting_for)

    def client_seeds(self) -> list[str] | None:
        """The client seeds of the next deal, one per player (``""`` for a computer seat), or
        ``None`` at a table without client seeds."""
        if not self.fair:
            return None
        return [self.pending_seeds.get(p, "") for p in range(len(self.names))]

    def started_match(self) -> Match:
        """The match; raises :class:`NotYourTurnError` before the first deal is dealt."""
        if self.match is None:
            raise NotYourTurnError(W_("the first deal is not dealt yet: it waits for the client seeds of {names}",
                                      names=self.waiting_names), "", [], None, None)
        return self.match

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
        m = self.started_match()
        if m.finished or self.forfeit is not None:
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

    @property
    def rated(self) -> bool:
        """Whether the table's match is rated (:mod:`ginrummy.web.community.members` sets :attr:`rating`):
        no computer advice there, neither hints nor an adviser's suggestions."""
        return self.rating is not None

    def can_hint(self, player: int) -> bool:
        """Whether ``player`` may ask for a hint now (see :meth:`hint_target`); never at a
        rated table (:attr:`rated`)."""
        if self.rated:
            return False
        try:
            self.hint_target(player)
        except NotYourTurnError:
            return False
        return True

    def player_of(self, token: str | None) -> int:
        """The player index whose secret token is ``token`` (any text).  Raises
        :class:`TableError` (``bad_token``) otherwise; tokens are compared as bytes in constant
        time (their SHA-256 against the stored hashes)."""
        if isinstance(token, str) and token and len(token) <= 200:
            h = secret_hash(token)
            for s in self.seat_secrets:
                if s.token_hash is not None and same_secret(s.token_hash, h):
                    return s.player
            for i, t in enumerate(self.row.tokens):  # tables made before claims kept plain tokens
                if same_secret(t, token):
                    return i
        raise TableError("bad_token", W_("this link's seat token is not valid for this table"))

    # -- steps -----------------------------------------------------------------------------

    def check_action(self, player: int, text: str | Action) -> Action:
        """Parse (unless it is an :class:`Action` already) and verify ``player``'s action
        without changing anything.  Raises
        :class:`IllegalActionError` / :class:`NotYourTurnError` saying why (R4-R9); another
        player to act is named ("it is Bob's turn", code ``not_your_turn``)."""
        action = text if isinstance(text, Action) else self.parse_action(player, text)
        m = self.started_match()
        if m.finished or self.forfeit is not None:
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
        # melds included) and leaves the state as it was; kept for Match.apply (checked=)
        new, events = m.deal.apply(seat, action)
        self.trial = (m.deal, action, new, events)
        return action

    def parse_action(self, player: int, text: str) -> Action:
        """``text`` read as an action (:func:`ginrummy.actions.parse_action`).  A text that is
        no action says what ``player`` may do now, as the terminal table does ("now: ..."), not
        every action form there is: ``not an action: 'zz'; now: draw stock | take discard``,
        ``bad action 'discard ZZ': ...; now: discard 2C/7H/KD | knock 7H`` (the action texts of
        the protocol, grouped by kind), the legal action texts as the error's ``legal``.
        Before the first deal and between deals it says that no deal is in progress and what
        comes next (:meth:`no_deal_now`: the next deal, or the client seeds it waits for):
        ``not an action: 'zz'; no deal is in progress: the deal is over; send next_deal to
        start the next deal``.  While another is to act (or the match is over) the error names
        the action forms as before.  Raises :class:`IllegalActionError`."""
        try:
            return parse_action(text)
        except IllegalActionError as exc:
            if exc.params.get("actions") != ACTION_HELP:
                raise
            legal = self.legal_now(player)
            why = None if legal else self.no_deal_now()
            if not legal and why is None:
                raise
            texts = [a.text for a in legal]
            if exc.key == _NOT_AN_ACTION:  # the terminal's words, its translations too
                if why is not None:
                    raise IllegalActionError(W_("not an action: {text!r}; {why}", text=exc.params["text"], why=why),
                                             exc.params["text"], []) from None
                raise IllegalActionError(N_("not an action: {text!r}; now: {legal}", text=exc.params["text"],
                                            legal=legal_words(legal)), exc.params["text"], texts) from None
            error = (N_("bad action {text!r}: {error}", text=exc.params["text"], error=exc.params["error"])
                     if "error" in exc.params else W_("bad action {text!r}: name exactly one card", text=exc.params["text"]))
            if why is not None:
                raise IllegalActionError(W_("{error}; {why}", error=error, why=why), exc.params["text"], []) from None
            raise IllegalActionError(W_("{error}; now: {legal}", error=error, legal=legal_words(legal)),
                                     exc.params["text"], texts) from None

    def no_deal_now(self) -> Msg | None:
        """Why no action is legal for anyone now, when no deal is in progress, and what comes
        next: before the first deal, that it waits for the client seeds of the people named;
        between deals (R11: the match goes on), that ``next_deal`` starts the next deal, or
        whose client seeds it waits for.  ``None`` while a deal is in progress, once the match is
        over or forfeited."""
        m = self.match
        names = self.waiting_names
        if m is None:
            if names:
                return W_("no deal is in progress: the first deal waits for the client seeds of {names}", names=names)
            return W_("no deal is in progress: the first deal is dealt as soon as every client seed is in")
        if not m.deal.is_over or m.finished or self.forfeit is not None:
            return None
        if names:
            return W_("no deal is in progress: the deal is over, and the next deal waits for the client seeds of "
                      "{names}", names=names)
        return W_("no deal is in progress: the deal is over; send next_deal to start the next deal")

    def legal_now(self, player: int) -> list[Action]:
        """The actions ``player`` may take now: none before the first deal, between deals,
        once the match is over, while he sits out (R10.2) or while another is to act."""
        m = self.match
        if m is None or m.finished or self.forfeit is not None or m.player_to_act() != player:
            return []
        return list(m.deal.legal_actions())  # the player to act holds a seat of the deal

    def check_next_deal(self) -> None:
        """Raises :class:`IllegalActionError` while the deal is on or once the match is over, and
        :class:`TableError` (``not_allowed``) while a person's client seed is missing."""
        m = self.match
        if m is None:
            raise TableError("not_allowed", W_("the first deal is dealt as soon as every client seed is in"))
        if m.finished or self.forfeit is not None:
            # the engine's own messages (messages domain)
            raise IllegalActionError(N_("the match is over"))
        if not m.deal.is_over:
            raise IllegalActionError(N_("the deal is not over yet"))
        if self.waiting_for:
            raise TableError("not_allowed", W_("the next deal waits for the client seed of {names}",
                                               names=self.waiting_names))

    def check_client_seed(self, player: int, deal: int, seed: str | None = None) -> None:
        """Raises :class:`TableError` (``not_allowed``) unless ``player`` may send client seed
        ``seed`` for deal ``deal`` now: a person, at a table with client seeds, ``deal`` the next
        deal to be dealt, and no other seed of his already in for it.  One seed per person per
        deal: were a second, different one taken, a server (or anyone between) that asked again
        would hold several and could deal from whichever it liked (issue 28).  The same seed
        again is allowed (a page re-sends it when it hears nothing)."""
        if not self.fair or self.is_bot(player):
            raise TableError("not_allowed", W_("this table takes no client seeds"))
        nxt = self.next_deal_number
        if nxt is None:
            raise TableError("not_allowed", W_("no deal waits for client seeds now; send yours when the deal is over"))
        if deal != nxt:
            raise TableError("not_allowed", W_("deal {deal} is not the next deal; the next deal is {next}",
                                               deal=deal, next=nxt))
        held = self.pending_seeds.get(player)
        if seed is not None and held is not None and held != seed:
            raise TableError("not_allowed", W_("your client seed for deal {deal} is already in ({held}); a deal takes "
                                               "one seed per person, so it cannot be changed", deal=deal, held=held))

    def deal_next(self, kind: str) -> None:
        """Deal the next deal with the client seeds in: the first (``kind`` ``"deal"``) or the
        one after a deal that is over (``"next_deal"``)."""
        seeds = self.client_seeds()
        if kind == "deal":
            self.match = Match.new(RuleSet.from_dict(dict(self.row.rules)), self.row.names, self.row.seed,
                                   client_seeds=seeds, first_dealer=self.options.get("first_dealer"))
        else:
            self.started_match().next_deal(seeds)
        self.pending_seeds = {}
        self.suggestions = []

    def replay(self, steps: list[ActionRow]) -> None:
        """Re-apply stored steps (at load time)."""
        for s in steps:
            if s.kind in ("action", "timeout"):
                assert s.player is not None
                self.started_match().apply(s.player, parse_action(s.text))
            elif s.kind in ("deal", "next_deal"):
                self.deal_next(s.kind)
            elif s.kind == "client_seed":
                assert s.player is not None
                self.pending_seeds[s.player] = json.loads(s.text)["seed"]
            else:  # pragma: no cover - never written
                raise ValueError(f"unknown stored step kind {s.kind!r}")
            self.seq = s.seq
            self.last_write = parse_time(s.created)
            self.after_step(s.kind, s.player, self.last_write)

    # -- what a seat sees ------------------------------------------------------------------

    def state_for(self, player: int) -> dict[str, Any]:
        """The ``state`` message for ``player`` (``docs/protocol.md``; built by
        :func:`ginrummy.web.protocol.state.state_message`)."""
        return state_message(self, player)



def computer_seat_name(level: str, tr: Any) -> str:
    """The name the server gives a computer seat of ``level`` in ``tr``'s language (a
    :func:`~ginrummy.web.texts.web_translator`): ``Computer (novice)``."""
    return tr.t("Computer ({level})", level=level_in_text(level, tr))


@lru_cache(maxsize=1)
def _computer_names() -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    """The names the server gives computer seats ("Computer (novice)"), of every level in every
    language, and the computer levels' own names ("novice"), as
    :func:`~ginrummy.web.community.accounts.name_skeleton` skeletons; and the ``(before, after)``
    skeletons, spaces left out, of "Computer ({level})" in every language, around any level."""
    out = {k for level in player_levels() for k in name_skeletons(level)}
    frames = set()
    for lang in LANGUAGES:
        tr = web_translator(lang)
        for level in player_levels():
            out.update(name_skeletons(computer_seat_name(level, tr)))
        before, _, after = tr.t("Computer ({level})", level="\x00").partition("\x00")
        frames.add((name_skeleton(before).replace(" ", ""), name_skeleton(after).replace(" ", "")))
    return frozenset(out), tuple(sorted(frames))


def is_computer_name(name: str) -> bool:
    """Whether a person's ``name`` reads as a computer's: a computer seat's ("Computer
    (expert)") or a computer level's ("expert"), or any "Computer (...)" (``Computer
    (grandmaster)``), in any language, and with a number after it as a repeated name gets;
    compared by :func:`~ginrummy.web.community.accounts.name_skeleton`, so in any case or width, with
    look-alike letters (``Cоmputer (nоvice)``, Cyrillic о) and invisible characters
    (``Computer (nov\u200dice)``).  A person may not take it, or the table would show a
    computer where a person sits."""
    names, frames = _computer_names()
    for key in name_skeletons(name):
        base, _, tail = key.rpartition(" ")
        if key in names or (tail.isdigit() and base in names):
            return True
    key = name_skeleton(name)
    flat = key.replace(" ", "")
    return any(before and flat.startswith(before) and flat.rstrip("0123456789").endswith(after)
               and len(flat) > len(before) + len(after) for before, after in frames)

_NOT_AN_ACTION = "not an action: {text!r}; actions: {actions}"
"""The key of :func:`ginrummy.actions.parse_action`'s "not an action" error."""


def legal_words(legal: Sequence[Action]) -> str:
    """The legal actions in their protocol text, short: each action without a card by its
    text, the cards of each card action grouped (``draw stock | take discard``, ``discard
    2C/7H/KD | knock 7H | gin 7H``), in the order of ``legal``'s first action of each kind.
    The words are the protocol's (as :data:`ginrummy.actions.ACTION_HELP`), not translated."""
    parts: dict[str, list[str]] = {}
    for a in legal:
        if a.card is None:
            parts.setdefault(a.text, [])
        else:
            parts.setdefault(a.text.partition(" ")[0], []).append(card_str(a.card))
    return " | ".join(k if not cards else f"{k} {'/'.join(cards)}" for k, cards in parts.items())


class TableManager(AutoPlayMixin, RoomMixin):
    """Creates, loads and runs tables over one :class:`Store`; the card room (lobby, seats
    taken from the lobby, spectators, chat, rematch) comes from :class:`RoomMixin`, the moves
    the server makes by itself (computer players, clock timeouts) from :class:`AutoPlayMixin`
    (:mod:`ginrummy.web.room.autoplay`).

    ``bot_delay``: seconds a computer player waits before each move; ``None`` draws a natural
    delay uniformly from 0.7 to 1.2 seconds; ``0`` moves at once (tests).
    The async methods must run on one event loop; they never block on the network.
    """

    def __init__(self, store: Store, bot_delay: float | None = None,
                 now: Callable[[], float] = time.time, workers: int | None = None) -> None:
        self.store = store
        #: the worker processes of the computer's moves and hints (web/room/thinking.py); ``workers``
        #: processes (default one less than the cores), started with the first decision
        self.thinking = ThinkingPool(workers)
        self.bot_delay = bot_delay
        self.now = now
        self.committer = GroupCommitter(store)  # steps are written in group commits (web/db/commit.py)
        self.follower: Any = None  # set by web/db/notify.py when several processes share PostgreSQL
        self.tables: dict[str, Table] = {}
        self._delay_rng = random.Random()
        self._locks: dict[str, asyncio.Lock] = {}
        #: stored tables that could not be resumed (id -> why, without secrets): skipped, not
        #: retried by this process (:meth:`load`)
        self.skipped: dict[str, str] = {}
        #: with no bot delay, how many steps the state of a person's move may wait for (the
        #: computer's immediate answer, :meth:`changed`; :data:`HELD_STEPS` by default); 0 sends
        #: a state after every step.  Holding saves a state a move (about 10% more moves a second
        #: in the closed loop of ``benchmarks/load.py``) but the ack then waits for three commits
        #: in a row (about twice the p99): benchmarks/RESULTS.md, "Load".
        self.held_steps = HELD_STEPS
        self.on_finish: Callable[[Table, int, Action, str], Callable[[Any], None] | None] | None = None
        """Called before storing an action with ``(table, player, action, kind)`` (``kind``
        ``"action"``, or ``"timeout"`` for a move the clock made); it may return a function of
        the open connection to run in the same transaction as the step (the ladder's hook for
        the step that ends a match, by the rules or by a forfeit on time,
        :mod:`ginrummy.web.community.members`)."""
        RoomMixin.__init__(self)

    # -- creating and loading ------------------------------------------------------------------

    def create(self, rules: RuleSet, seats: list[SeatSpec], *, seed: bytes | None = None,
               lang: str = "en", options: dict[str, Any] | None = None, seat_all: bool = False,
               first_dealer: int | None = None, stored_later: bool = False,
               allowed_names: Collection[str] = ()) -> tuple[Table, dict[int, tuple[str, str]]]:
        """A new table with ``seats`` (2, or 3 for three-hand gin, R10) under ``rules``; the
        match seed is 32 secret random bytes unless given.  Stored before it is returned.

        Returns ``(table, secrets)``: ``secrets[player]`` is ``("token", TOKEN)`` for the first
        human seat (whoever opens the table sits there) and ``("invite", CODE)`` for every
        other human seat: a one-time code that :meth:`claim` turns into a new token.  Only
        their hashes are stored; these values are shown once, to whoever opens the table.
        At a table with a person the first deal waits for the client seeds; a table of
        computer players is dealt at once.  ``options``: ``public`` (listed in the lobby, free
        seats taken with one click, spectators), ``spectator_chat``; ``seat_all`` gives every
        human seat a token (a rematch: the same people sit again); ``first_dealer`` (player 0
        or 1) deals first instead of R3.1's random choice (a rematch goes on by R11.2);
        ``stored_later`` leaves the store's write and :meth:`opened` to the caller
        (:meth:`create_async`).  A seat without a name gets "Player 2" or "Computer (novice)" in ``lang`` (the language
        of whoever opens the table; names are then fixed for everyone).

        Raises :class:`TableError` (``bad_request``) for a bad seat list or level, a person's seat named as a computer seat or
        with a reserved name ("System", :func:`~ginrummy.web.community.accounts.is_reserved_name`), and
        :class:`~ginrummy.errors.RuleSetError` for rules that do not fit (e.g. Hollywood with 3).
        A person's seat name is also refused when it is an account's or passes for one
        (:attr:`account_name_taken`), unless it is in ``allowed_names`` (the signed-in opener's
        own account name; a rematch's names).  Invisible characters are left out of every name
        (:func:`~ginrummy.web.community.accounts.strip_invisible`).
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
            if s.kind == "bot" and not s.level:
                raise TableError("bad_request", W_("seat {seat}: a computer seat needs a level; levels: {levels}",
                                                   seat=str(i + 1), levels=", ".join(levels)))
            if s.kind == "bot" and s.level not in levels:
                raise TableError("bad_request", W_("seat {seat}: unknown computer level {level!r}; levels: {levels}",
                                                   seat=str(i + 1), level=s.level, levels=", ".join(levels)))
            name = " ".join(strip_invisible(plain_text(str(s.name or ""))).split())[:MAX_NAME_CHARS]
            if s.kind == "human" and is_computer_name(name):
                raise TableError("bad_request", W_("seat {seat}: the name {name} is a computer seat's; choose another",
                                                   seat=str(i + 1), name=name))
            if s.kind == "human" and is_reserved_name(name):
                raise TableError("bad_request", W_("seat {seat}: the name {name} is reserved; choose another",
                                                   seat=str(i + 1), name=name))
            if (s.kind == "human" and name and name not in allowed_names and self.account_name_taken is not None
                    and self.account_name_taken(name)):
                raise TableError("bad_request", W_("seat {seat}: the name {name} is an account's, or looks like one; "
                                                   "choose another (a person signed in sits under his account's "
                                                   "name)", seat=str(i + 1), name=name))
            if not name:
                # the level names are the terminal table's ("Novice"), in the messages domain
                name = (tr.t("Player {n}", n=i + 1) if s.kind == "human"
                        else computer_seat_name(s.level, tr))
            base, k = name, 2
            while name.casefold() in (n.casefold() for n in names):
                name = f"{base} {k}"
                k += 1
            names.append(name)
            kinds.append("human" if s.kind == "human" else f"bot:{s.level}")
        rules = rules.replace(players=len(seats)) if rules.players != len(seats) else rules
        seed = seed if seed is not None else secrets.token_bytes(32)
        options = dict(options or {})
        if first_dealer is not None:
            options["first_dealer"] = first_dealer
        match = Match.new(rules, names, seed, first_dealer=first_dealer)  # validates rules vs players
        row = TableRow(id=secrets.token_hex(6), created=Store.now(), rules=rules.to_dict(), names=names,
                       seats=kinds, tokens=[], seed=seed)
        shown: dict[int, tuple[str, str]] = {}
        stored: list[SeatSecret] = []
        for i, kind in enumerate(kinds):
            if kind != "human":
                continue
            secret = secrets.token_urlsafe(18)
            if not shown or seat_all:
                shown[i] = ("token", secret)
                stored.append(SeatSecret(i, secret_hash(secret), None))
            else:
                shown[i] = ("invite", secret)
                stored.append(SeatSecret(i, None, secret_hash(secret)))
        table = Table(row, None if stored else match, seat_secrets=stored, options=options)
        if not stored_later:
            self.store.create_table(row, stored, options)
            self.opened(table)
        return table, shown

    async def create_async(self, rules: RuleSet, seats: list[SeatSpec], **kwargs: Any
                           ) -> tuple[Table, dict[int, tuple[str, str]]]:
        """:meth:`create` (same arguments, same errors), its store write (a commit with the
        store's full durability) in a worker thread: the event loop serves the other tables
        meanwhile."""
        table, shown = self.create(rules, seats, **kwargs, stored_later=True)
        await asyncio.to_thread(self.store.create_table, table.row, table.seat_secrets, table.options)
        self.opened(table)
        return table, shown

    def opened(self, table: Table) -> None:
        """A new table is stored: keep it, and tell the lobby."""
        self.tables[table.id] = table
        if table.public:
            self.lobby_changed()

    def claim(self, table_id: str, invite: str, account: str | None = None) -> tuple[Table, int, str]:
        """Claim a human seat with its one-time invite code: ``(table, player, token)``, the
        token minted now for whoever claims.  ``account``: the name of the signed-in person who
        claims: the seat then shows it (made unique among the seats as at creation), not the
        name the host gave the seat, and is marked signed in (:attr:`Table.signed_in`).  Raises :class:`TableError`: ``not_found``,
        ``bad_invite`` for a code that is not this table's, ``claimed`` when the invite was
        used already (also by another server process: the store decides atomically)."""
        table = self.load(table_id)
        token = secrets.token_urlsafe(18)
        result, player = self.store.claim(table.id, secret_hash(invite), secret_hash(token))
        if result == "unknown":
            raise TableError("bad_invite", W_("this invite link is not valid for this table"))
        if result == "claimed":
            raise TableError("claimed", W_("this invite link was used already: each link seats one person, once; "
                                           "ask whoever invited you for a new table"))
        assert player is not None
        table.seat_secrets = self.store.seat_secrets(table.id)
        if account is not None and table.match is None:
            names, wanted, k = list(table.names), account, 2
            while wanted.casefold() in (n.casefold() for i, n in enumerate(names) if i != player):
                wanted = f"{account} {k}"
                k += 1
            names[player] = wanted
            self.store.set_names(table.id, names)
            table.row = type(table.row)(**{**table.row.__dict__, "names": names})
        if account is not None:
            table.signed_in.add(player)
        return table, player, token

    def load(self, table_id: str) -> Table:
        """The table ``table_id``, rebuilt from the store if not in memory.  Raises
        :class:`TableError` (``not_found``)."""
        if table_id in self.tables:
            return self.tables[table_id]
        if not isinstance(table_id, str) or not table_id.isalnum() or len(table_id) > 40:
            raise TableError("not_found", W_("no such table"))
        if table_id in self.skipped:
            raise TableError("not_found", W_("the table {table_id} cannot be resumed: its stored rules or moves "
                                             "are not valid now", table_id=table_id))
        try:
            loaded = self.store.load(table_id)
            if loaded is None:
                raise TableError("not_found", W_("no table {table_id!r}", table_id=table_id))
            row, steps = loaded
            rules = RuleSet.from_dict({k: v for k, v in row.rules.items()})  # R14: within bounds
            secrets_ = self.store.seat_secrets(table_id)
            options = self.store.options(table_id)
            table = Table(row, None if secrets_ else Match.new(rules, row.names, row.seed,
                                                               first_dealer=options.get("first_dealer")),
                          seat_secrets=secrets_, options=options)
            table.replay(steps)
        except (TableError, SQLAlchemyError):
            raise  # unknown, or the database is away: nothing wrong with the table
        except Exception as exc:  # the stored table: rules out of bounds, a bad row, a replay that fails
            self.skip(table_id, exc)
        self.tables[table_id] = table
        return table

    def skip(self, table_id: str, exc: Exception) -> NoReturn:
        """Mark the stored table ``table_id`` as not resumable (:attr:`skipped`, this process
        only: nothing is written), log one line naming it and why, and raise
        :class:`TableError` (``not_found``).  The reason is the rule set's own error
        (R14, no secret in it) or only the kind of error: a replay's message could name a
        hidden card."""
        why = str(exc)[:200] if isinstance(exc, RuleSetError) else type(exc).__name__
        self.skipped[table_id] = why
        log.warning("table %s skipped: it cannot be resumed (%s)", table_id, why)
        raise TableError("not_found", W_("the table {table_id} cannot be resumed: its stored rules or moves "
                                         "are not valid now", table_id=table_id)) from None

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
            except TableError:
                pass  # logged by skip (or gone since table_ids)
            except Exception as exc:  # the database failed: the table is tried again when asked for
                log.warning("table %s not loaded at start-up: %s", tid, type(exc).__name__)
        return out

    # -- acting ------------------------------------------------------------------------------

    def _lock(self, table: Table) -> asyncio.Lock:
        lock = self._locks.get(table.id)
        if lock is None:  # made once per table (setdefault would make one at every call)
            lock = self._locks[table.id] = asyncio.Lock()
        return lock

    async def _write(self, table: Table, player: int | None, kind: str, text: str,
                     also: Callable[[Any], None] | None = None,
                     more: Sequence[tuple[int | None, str, str]] = ()) -> None:
        """Store the step (returns once its group commit has committed; ``also(conn)`` runs in
        the same transaction), and the steps ``more`` after it, ``(player, kind, text)`` each,
        in the same transaction; or raise :class:`TableError` ``conflict`` after reloading the
        table when another writer got there first (then none is stored).  The steps' time is
        :attr:`now` (the clocks are rebuilt from it)."""
        at = self.now()
        steps = [(table.seq + 1, player, kind, text)]
        steps += [(table.seq + 2 + i, p, k, x) for i, (p, k, x) in enumerate(more)]
        try:
            await self.committer.append_steps(
                table.id, steps, datetime.fromtimestamp(at, timezone.utc).isoformat(timespec="milliseconds"),
                also=also)
        except Exception as exc:
            log.warning("store write failed for table %s: %s; reloading", table.id, exc)
            self.tables.pop(table.id, None)
            fresh = self.load(table.id)
            fresh.watchers = table.watchers
            raise TableError("conflict", W_("the table changed elsewhere; here is its current state")) from None
        table.last_write = at

    async def client_seed(self, table: Table, player: int, deal: int, seed: str) -> None:
        """Take ``player``'s client seed for deal ``deal`` (``docs/record-format.md``): store it
        as a step, and deal the first deal once every person's seed is in.  Raises
        :class:`TableError` (``not_allowed``) when no such seed is wanted now (nothing changes).

        At the end of a deal every person sends a seed at once: with the seats on two server
        processes, the other person's seed can take the step first (``conflict``, the table
        reloaded).  The seed is then tried once more on the fresh table, where it is usually
        still wanted (R3.2: the shuffle of the next deal takes each person's seed); if it is
        not, the ``conflict`` is raised (the player is sent the fresh state)."""
        try:
            await self._client_seed(table, player, deal, seed)
        except TableError as exc:
            if exc.code != "conflict":
                raise
            try:
                await self._client_seed(self.tables.get(table.id, table), player, deal, seed)
            except TableError:
                raise exc from None

    async def _client_seed(self, table: Table, player: int, deal: int, seed: str) -> None:
        async with self._lock(table):
            table = self.tables.get(table.id, table)
            table.check_client_seed(player, deal, seed)
            if table.pending_seeds.get(player) != seed:
                await self._write(table, player, "client_seed", json.dumps({"deal": deal, "seed": seed}))
                table.pending_seeds[player] = seed
                table.stored("client_seed", player)
            await self._deal_first_if_ready(table)
        await self.changed(table)

    async def _deal_first_if_ready(self, table: Table) -> None:
        """Deal the first deal when every person's client seed is in (stored first)."""
        if table.match is None and not table.waiting_for:
            await self._write(table, None, "deal", "deal")
            table.deal_next("deal")
            table.stored("deal", None)

    async def catch_up(self, table_id: str) -> bool:
        """Apply the steps another process stored for ``table_id`` since this one last saw it
        (several servers on one PostgreSQL, web/db/notify.py); ``True`` if there were any.  No-op
        without a follower or for a table not in memory."""
        if self.follower is None or table_id not in self.tables:
            return False
        return bool(await self.follower.catch_up(table_id))

    async def act(self, table: Table, player: int, text: str | Action, *, kind: str = "action") -> int:
        """Play ``player``'s action: verify, store, apply, then tell every watcher; returns the
        step's number (its ``seq``; the computer's immediate answer may follow it).  Raises
        :class:`IllegalActionError`/:class:`NotYourTurnError` (nothing changes).  A refused
        action is tried once more after :meth:`catch_up` found steps from another process.
        ``kind`` ``"timeout"``: the server moves for a person whose clock ran out
        (:mod:`~ginrummy.web.room.clock`)."""
        try:
            return await self._act(table, player, text, kind)
        except (IllegalActionError, NotYourTurnError):
            if not await self.catch_up(table.id):
                raise
            return await self._act(table, player, text, kind)

    async def _act(self, table: Table, player: int, text: str | Action, kind: str) -> int:
        async with self._lock(table):
            table = self.tables.get(table.id, table)
            action = table.check_action(player, text)
            also = self.on_finish(table, player, action, kind) if self.on_finish is not None else None
            trial, table.trial = table.trial, None
            checked = (trial[0], trial[2], trial[3]) if trial is not None and trial[1] is action else None
            person = kind == "action" and not table.is_bot(player)
            answer = await self._answer(table, checked[1]) if person and checked is not None else []
            await self._write(table, player, kind, action.text, also,
                              more=[(p, "action", a.text) for p, a, _ in answer])
            table.started_match().apply(player, action, checked=checked)
            table.stored(kind, player)
            own = table.seq
            for p, a, tried in answer:
                table.started_match().apply(p, a, checked=tried)
                table.stored("action", p)
        await self.changed(table, after_person=person)
        return own

    async def _answer(self, table: Table, deal: DealState
                      ) -> list[tuple[int, Action, tuple[DealState, DealState, Any]]]:
        """The computer's immediate answer to a person's move, worked out before the move is
        stored, so that the move and the answer go into one transaction: with no bot delay
        and holding on (:attr:`held_steps`), the moves of the computer seat to act in
        ``deal`` (the state after the person's move), each ``(player, action, (state, new
        state, events))``, at most ``held_steps - 1`` of them, up to a person's turn.  The
        moves are those the computer would make after the stored steps (:func:`bot_choice`,
        seeded by the step; decided in the thinking pool, :meth:`think_move`), so nothing
        differs from making them one by one.  A move that would
        end the deal (a knock, a gin, the end of the stock, R5-R7) is left out: it is made
        after the stored steps like any other, since the end of a match has work of its own in
        its transaction (:attr:`on_finish`)."""
        if self.bot_delay != 0 or self.held_steps < 2:
            return []
        m = table.started_match()
        out: list[tuple[int, Action, tuple[DealState, DealState, Any]]] = []
        while len(out) < self.held_steps - 1 and deal.to_act is not None:
            p = m.seat_players[deal.to_act]
            if not table.is_bot(p):
                break
            action = await self.think_move(table, p, table.seq + 1 + len(out), m.view(p, deal))
            if action.kind in ("knock", "gin", "big_gin"):
                break
            new, events = deal.apply(deal.to_act, action)
            if new.result is not None:
                break
            out.append((p, action, (deal, new, events)))
            deal = new
        return out

    async def next_deal(self, table: Table, player: int | None) -> None:
        """Start the next deal (any seat may ask once the deal is over); tried once more after
        :meth:`catch_up` found steps from another process."""
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
            table.deal_next("next_deal")
            table.stored("next_deal", None)
        await self.changed(table)

    async def suggest(self, table: Table, player: int, text: str) -> None:
        """Record the adviser's suggestion for the captain (R10.2) and send it to both.
        Raises :class:`TableError` (``not_allowed``) for anyone but the adviser."""
        m = table.match
        if m is None or m.roles is None or m.roles[2] != player:
            raise TableError("not_allowed", W_("only the player sitting out advises the captain (R10.2)"))
        if m.deal.is_over:
            raise TableError("not_allowed", W_("the deal is over"))
        if table.rated:
            raise TableError("not_allowed", W_("a rated match is played without advice: no hints or suggestions"))
        entry = {"type": "suggestion", "from": table.names[player], "text": text, "seq": table.seq}
        table.suggestions.append(entry)
        del table.suggestions[:-20]
        for p, send in list(table.watchers):
            if p in (m.roles[1], m.roles[2]):
                await self._send(table, p, send, entry)

    async def hint(self, table: Table, player: int, *, owner: str | None = None,
                   on_queued: Callable[[int], None] | None = None) -> tuple[int, Action, str]:
        """What the table's hint player (:attr:`Table.hint_level`) would do for ``player`` now:
        ``(seq, action, reason)``, ``seq`` the step it is about, ``reason`` a
        :class:`~ginrummy.errors.Msg`.  The hint player is given only ``Match.view`` of the
        player to act and its legal actions; its random choices come from the match seed and
        the step, so the same position always gets the same hint (also for the adviser and the
        captain, R10.2).  Nothing changes.  Raises :class:`TableError` (``not_allowed``) at a
        rated table (:attr:`Table.rated`: no computer advice in rated play), and
        :class:`NotYourTurnError` when ``player`` may not ask (see :meth:`Table.hint_target`).

        A sampling level's hint is worked out in the thinking pool (:mod:`ginrummy.web.room.thinking`)
        under the fair queue's key ``owner`` (the asker's address; default the table), within
        :data:`~ginrummy.web.room.thinking.HINT_DEADLINE` seconds of reaching a worker, else the
        :data:`~ginrummy.web.room.thinking.FALLBACK_LEVEL`'s hint from the same seed;
        ``on_queued(ahead)`` is told the jobs before it.  A hint asked while the same one (same
        step and player) is worked out shares that job."""
        table = self.tables.get(table.id, table)
        if table.rated:
            raise TableError("not_allowed", W_("a rated match is played without advice: no hints or suggestions"))
        target = table.hint_target(player)
        key = (table.seq, target)
        if key not in table.hints:
            job = table.hint_job
            if job is None or job[0] != key or job[1].done():
                job = (key, asyncio.get_running_loop().create_task(
                    self._hint_job(table, key, owner, on_queued)))
                table.hint_job = job
            elif on_queued is not None:
                on_queued(0)
            action, reason = await asyncio.shield(job[1])
            table = self.tables.get(table.id, table)
            if table.seq != key[0]:  # the deal moved on meanwhile: still the answer for that step
                return key[0], action, reason
            table.hints = {key: (action, reason)}
        action, reason = table.hints[key]
        return key[0], action, reason

    async def _hint_job(self, table: Table, key: tuple[int, int], owner: str | None,
                        on_queued: Callable[[int], None] | None) -> tuple[Action, str]:
        seq, target = key
        seed = decision_seed(table.row.seed, "hint", target, seq)
        view = table.started_match().view(target)
        level = table.hint_level
        if level in CHEAP_LEVELS:
            text, reason = hint_text(level, seed, view)
        else:
            text, reason = await self.thinking.run(
                hint_text, (level, seed, view), owner=f"addr:{owner}" if owner else f"table:{table.id}",
                table=table.id, deadline=HINT_DEADLINE, fallback=lambda: hint_text(FALLBACK_LEVEL, seed, view),
                on_queued=on_queued)
        return next(a for a in view.legal if a.text == text), reason

    # -- watchers ------------------------------------------------------------------------------

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

    async def changed(self, table: Table, *, after_person: bool = False) -> None:
        """Send every watcher its state and schedule a computer move if one is due.

        ``after_person``: the step was a person's move.  When computer seats answer it at once
        (no bot delay) and :attr:`held_steps` is set, the state waits for their moves, up to that
        many steps, until a person is to act or the deal is over: one state says all those steps
        (``docs/protocol.md``)."""
        table = self.tables.get(table.id, table)
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
            await self._send(table, p, send, table.state_for(p))
        if table.flushed is not None:
            table.flushed.set()
            table.flushed = None
        self.schedule_bot(table)
        self.schedule_clock(table)
        if table.public:
            self.lobby_changed()

    async def flushed(self, table: Table, timeout: float = 10.0) -> None:
        """Return once the state showing the table's last step has been handed to every
        watcher: at once, unless it waits for the computer's immediate answer (:meth:`changed`),
        then when that state is sent (at most ``timeout`` seconds).  An ``ack`` waits for it,
        so that it still follows the state that shows the move (``docs/protocol.md``)."""
        t = self.tables.get(table.id, table)
        event = t.flushed
        if t.unsent and event is not None:
            try:
                async with asyncio.timeout(timeout):  # no task of its own, unlike wait_for
                    await event.wait()
            except TimeoutError:  # pragma: no cover - the computer's move failed unseen
                log.warning("table %s: the state of a step was not sent in %s s", t.id, timeout)
