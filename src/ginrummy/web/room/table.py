"""A table of the web server: its match, seats and secrets (the domain state), and what the
server keeps beside it while it runs (:class:`TableRuntime`: caches, tasks, watchers).

Every accepted step is written to the :class:`~ginrummy.web.db.store.Store` *before* it is
applied (:class:`~ginrummy.web.room.tables.TableManager`), so a restart rebuilds the match exactly.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from ...actions import ACTION_HELP, Action, parse_action
from ...errors import N_, IllegalActionError, Msg, NotYourTurnError
from ...match import Match
from ...rules import RuleSet
from ..db.store import ActionRow, SeatSecret, StepKind, TableRow
from ..errors import ErrorCode, WebError
from ..levels import is_bot_kind, seat_level
from ..protocol.outbound import legal_words
from ..protocol.state import state_message
from ..texts import W_
from .clock import Clock, parse_time
from .seats import SPECTATOR, TableRuntime, Watcher, same_secret, secret_hash

log = logging.getLogger("ginrummy.web")

__all__ = ["Table", "TableRuntime", "Watcher", "ENDED"]

ENDED = ("rules", "resigned", "left", "time")
"""How a match ended: finished by the rules, resigned, forfeited by leaving, lost on time."""


def _runtime(name: str) -> Any:
    """A :class:`Table` attribute that is its :class:`TableRuntime`'s ``name``."""
    return property(lambda self: getattr(self.runtime, name), lambda self, value: setattr(self.runtime, name, value))


@dataclass
class Table:
    """One table: the stored row, the live :class:`Match` and the other domain state (seats,
    options, clocks, chat, votes); what the server keeps beside it while it runs is its
    :attr:`runtime` (:class:`TableRuntime`), read through attributes of the same names.

    Attributes:
        row: the stored :class:`TableRow` (rules, names, seat kinds, tokens, seed).
        match: the match rebuilt from the store.
        seq: how many steps are stored.
        suggestions: the adviser's suggestions in the current deal (three-hand, R10.2).
    """

    row: TableRow
    match: Match | None
    seq: int = 0
    suggestions: list[dict[str, Any]] = field(default_factory=list)
    seat_secrets: list[SeatSecret] = field(default_factory=list)
    pending_seeds: dict[int, str] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    chat: list[dict[str, Any]] = field(default_factory=list)
    rematch_votes: set[int] = field(default_factory=set)
    clock: Clock | None = None
    signed_in: set[int] = field(default_factory=set)
    """The seats a signed-in person took (their names are the accounts' names): set by
    :mod:`ginrummy.web.community.members` and the app; states mark them ``"account": true``."""
    bot_seats: set[int] = field(default_factory=set)  # bot accounts' seats: ``"bot": true`` (docs/bot-api.md)
    rating: dict[str, Any] | None = None
    """Set by the players' ladder (:mod:`ginrummy.web.community.members`) for a rated table: sent in
    every started state as ``"rating"``."""
    ended: tuple[int, str] | None = None
    """``(player, how)`` of a match ended by a player's stored ``resign``, ``left`` or ``time``
    step (``how`` ``"resigned"``, ``"left"`` or ``"time"``: a turn-based table's move not made
    in its days), else ``None``."""
    runtime: TableRuntime = field(default_factory=lambda: TableRuntime(), repr=False)
    """The connections, tasks, timers and caches of this table in this process."""

    watchers = _runtime("watchers")
    hints = _runtime("hints")
    bot_task = _runtime("bot_task")
    clock_timer = _runtime("clock_timer")
    last_write = _runtime("last_write")
    over_deals = _runtime("over_deals")
    state_cache = _runtime("state_cache")
    trial = _runtime("trial")
    unsent = _runtime("unsent")
    held = _runtime("held")
    flushed = _runtime("flushed")
    spectators_seen = _runtime("spectators_seen")
    owner = _runtime("owner")
    hint_job = _runtime("hint_job")
    away = _runtime("away")
    leave_timer = _runtime("leave_timer")
    leave_due = _runtime("leave_due")

    def __post_init__(self) -> None:
        if self.clock is None:
            self.clock = Clock.from_options(self.options)

    @property
    def forfeit(self) -> int | None:
        """The player who lost the match without finishing it by the rules, or ``None``: on
        time (three timeouts in a row), by resigning, or by leaving (:attr:`ended`)."""
        if self.ended is not None:
            return self.ended[0]
        return None if self.clock is None else self.clock.forfeit

    @property
    def how_ended(self) -> str | None:
        """How the match ended, one of :data:`ENDED`, or ``None`` while it goes on."""
        if self.ended is not None:
            return self.ended[1]
        if self.clock is not None and self.clock.forfeit is not None:
            return "time"
        return "rules" if self.match is not None and self.match.finished else None

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
        the mover (a ``timeout`` step is a move the server made for him; a client seed charges
        its sender), then start the clock of the person to act, if any; between the deals of a
        two-hand match, of the person the next deal waits for (:meth:`Clock.between_deals`)."""
        if self.clock is None:
            return
        m = self.match
        if kind in (StepKind.ACTION, StepKind.TIMEOUT) and player is not None:
            self.clock.moved(player, at, timed_out=kind == StepKind.TIMEOUT, match_over=m is not None and m.finished)
        elif kind == StepKind.CLIENT_SEED and player is not None:
            self.clock.charge(player, at)
        to_act = None if m is None or self.over else m.player_to_act()
        if to_act is None and m is not None and not self.over and len(self.names) == 2:
            self.clock.between_deals(self.waiting_for, self.humans, player, at)
            return
        self.clock.start(to_act if to_act is not None and not self.is_bot(to_act) else None, at)

    @property
    def turn_based(self) -> bool:
        """Whether the table is turn-based: its clock gives days a move (``options["clock"]
        ["days"]``, :mod:`~ginrummy.web.room.clock`)."""
        return self.clock is not None and self.clock.turn_based

    def lobby_seconds(self, unstarted: float) -> float:
        """Seconds an open table whose match has not started stays in the lobby: ``unstarted``,
        or at a turn-based table its days a move (a stranger may come any day)."""
        return self.clock.move if self.clock is not None and self.clock.turn_based else unstarted

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
        made since client seeds exist, but a daily deal's: its cards are the day's)."""
        return bool(self.seat_secrets) and "daily" not in self.options

    @property
    def humans(self) -> list[int]:
        """The players who are people."""
        return [i for i in range(len(self.names)) if not self.is_bot(i)]

    @property
    def next_deal_number(self) -> int | None:
        """The number of the deal that may be dealt next: 1 before the first deal, K+1 when
        deal K is over and the match goes on (neither finished nor forfeited), else ``None``."""
        m = self.match
        if m is None:
            return 1
        if m.deal.is_over and not self.over:
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
            raise NotYourTurnError(
                W_(
                    "the first deal is not dealt yet: it waits for the client seeds of {names}",
                    names=self.waiting_names,
                ),
                "",
                [],
                None,
                None,
            )
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
        return is_bot_kind(self.row.seats[player])

    @property
    def hint_level(self) -> str:
        """The level of the player that answers ``hint`` requests: the level of the first
        computer seat (the computer opponent), else ``club``."""
        for kind in self.row.seats:
            if is_bot_kind(kind):
                return seat_level(kind)
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
            raise NotYourTurnError(
                W_("a hint is for a move in a deal, and this deal is over"), "hint", [], m.seat_of(player), None
            )
        if to_act == player:
            return player
        if m.roles is not None and m.roles[2] == player and to_act == m.roles[1]:
            return to_act
        raise NotYourTurnError(
            W_("a hint is only for the player to act, and {name} is to act", name=self.names[to_act]),
            "hint",
            [],
            m.seat_of(player),
            m.deal.to_act,
        )

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
        :class:`WebError` (``bad_token``) otherwise; tokens are compared as bytes in constant
        time (their SHA-256 against the stored hashes)."""
        if isinstance(token, str) and token and len(token) <= 200:
            h = secret_hash(token)
            for s in self.seat_secrets:
                if s.token_hash is not None and same_secret(s.token_hash, h):
                    return s.player
            for i, t in enumerate(self.row.tokens):  # tables made before claims kept plain tokens
                if same_secret(t, token):
                    return i
        raise WebError(ErrorCode.BAD_TOKEN, W_("this link's seat token is not valid for this table"))

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
            raise NotYourTurnError(
                W_("{name} sits out this deal and advises the captain (R10.2)", name=self.names[player]),
                action.text,
                [],
                None,
                m.deal.to_act,
            )
        to_act = m.player_to_act()
        if to_act is not None and to_act != player:
            # the engine says "seat 0 cannot act now: seat 1 is to act"; a person is told a name
            raise NotYourTurnError(
                W_("it is {name}'s turn", name=self.names[to_act]), action.text, [], seat, m.deal.to_act
            )
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
                    raise IllegalActionError(
                        W_("not an action: {text!r}; {why}", text=exc.params["text"], why=why), exc.params["text"], []
                    ) from None
                raise IllegalActionError(
                    N_("not an action: {text!r}; now: {legal}", text=exc.params["text"], legal=legal_words(legal)),
                    exc.params["text"],
                    texts,
                ) from None
            error = (
                N_("bad action {text!r}: {error}", text=exc.params["text"], error=exc.params["error"])
                if "error" in exc.params
                else W_("bad action {text!r}: name exactly one card", text=exc.params["text"])
            )
            if why is not None:
                raise IllegalActionError(W_("{error}; {why}", error=error, why=why), exc.params["text"], []) from None
            raise IllegalActionError(
                W_("{error}; now: {legal}", error=error, legal=legal_words(legal)), exc.params["text"], texts
            ) from None

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
            return W_(
                "no deal is in progress: the deal is over, and the next deal waits for the client seeds of {names}",
                names=names,
            )
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
        :class:`WebError` (``not_allowed``) while a person's client seed is missing."""
        m = self.match
        if m is None:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("the first deal is dealt as soon as every client seed is in"))
        if m.finished or self.forfeit is not None:
            # the engine's own messages (messages domain)
            raise IllegalActionError(N_("the match is over"))
        if not m.deal.is_over:
            raise IllegalActionError(N_("the deal is not over yet"))
        if self.waiting_for:
            raise WebError(
                ErrorCode.NOT_ALLOWED,
                W_("the next deal waits for the client seed of {names}", names=self.waiting_names),
            )

    def check_client_seed(self, player: int, deal: int, seed: str | None = None) -> None:
        """Raises :class:`WebError` (``not_allowed``) unless ``player`` may send client seed
        ``seed`` for deal ``deal`` now: a person, at a table with client seeds, ``deal`` the next
        deal to be dealt, and no other seed of his already in for it.  One seed per person per
        deal: were a second, different one taken, a server (or anyone between) that asked again
        would hold several and could deal from whichever it liked (issue 28).  The same seed
        again is allowed (a page re-sends it when it hears nothing)."""
        if not self.fair or self.is_bot(player):
            why = W_("this table takes no client seeds")
        elif (nxt := self.next_deal_number) is None:
            why = W_("no deal waits for client seeds now; send yours when the deal is over")
        elif deal != nxt:
            why = W_("deal {deal} is not the next deal; the next deal is {next}", deal=deal, next=nxt)
        elif seed is not None and (held := self.pending_seeds.get(player)) is not None and held != seed:
            why = W_(
                "your client seed for deal {deal} is already in ({held}); a deal takes "
                "one seed per person, so it cannot be changed",
                deal=deal,
                held=held,
            )
        else:
            return
        raise WebError(ErrorCode.NOT_ALLOWED, why)

    def deal_next(self, kind: str) -> None:
        """Deal the next deal with the client seeds in: the first (``kind`` ``"deal"``) or the
        one after a deal that is over (``"next_deal"``)."""
        seeds = self.client_seeds()
        if kind == StepKind.DEAL:
            self.match = Match.new(
                RuleSet.from_dict(dict(self.row.rules)),
                self.row.names,
                self.row.seed,
                client_seeds=seeds,
                first_dealer=self.options.get("first_dealer"),
            )
        else:
            self.started_match().next_deal(seeds)
        self.pending_seeds = {}
        self.suggestions = []

    def replay(self, steps: list[ActionRow]) -> None:
        """Re-apply stored steps (at load time)."""
        for s in steps:
            if s.kind in (StepKind.ACTION, StepKind.TIMEOUT):
                assert s.player is not None
                self.started_match().apply(s.player, parse_action(s.text))
            elif s.kind in (StepKind.DEAL, StepKind.NEXT_DEAL):
                self.deal_next(s.kind)
            elif s.kind in (StepKind.RESIGN, StepKind.LEFT, StepKind.TIME):
                assert s.player is not None
                self.ended = (s.player, _HOW[StepKind(s.kind)])
            elif s.kind == StepKind.CLIENT_SEED:
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


_HOW = {StepKind.RESIGN: "resigned", StepKind.LEFT: "left", StepKind.TIME: "time"}
"""How a match ended (:data:`ENDED`) by each stored step that ends it without the rules."""

_NOT_AN_ACTION = "not an action: {text!r}; actions: {actions}"
"""The key of :func:`ginrummy.actions.parse_action`'s "not an action" error."""
