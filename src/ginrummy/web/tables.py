"""Tables and seats of the web server, independent of HTTP.

A :class:`Table` holds a :class:`~ginrummy.match.Match`, one seat per player (a person with a
secret seat token, or a computer player of a level of :data:`ginrummy.players.PLAYER_LEVELS`),
and writes every accepted step to the :class:`~ginrummy.web.store.Store` *before* applying
it, so a restart rebuilds the match exactly (DESIGN "The server").

Seats no one can borrow: whoever opens a table gets the token of the first human seat only;
every other human seat gets a one-time **invite** code, and the person who claims it
(:meth:`TableManager.claim`) gets a newly minted token.  Only SHA-256 hashes of tokens and
invite codes are stored; tokens are compared as bytes in constant time.

A deal no one controls (``docs/record-format.md``): at a table with people, each deal (the
first included) is dealt only once every person has sent a client seed for it
(:meth:`TableManager.client_seed`); the deck comes from the server's deal seed and every
client seed.  Before the first deal the table has no match yet (``Table.match`` is ``None``).  :class:`TableManager` creates and loads tables, sends each
watcher its own state, and schedules the computer players' moves with asyncio (the engine
stays synchronous and pure).

What a seat is sent (:meth:`Table.state_for`) is built only from ``Match.view(player)``, the
score sheet, the names and the deal commitments; a deal seed is included only once its deal is
revealed (:func:`ginrummy.record.revealable`: a scored deal when it ends, a drawn deal when
the match ends), the match seed once the match is over.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, parse_action
from ..cards import card_str, cards_of
from ..errors import N_, GinRummyError, IllegalActionError, NotYourTurnError
from ..match import Match, commitment, deal_seed
from ..melds import best_arrangement, deadwood
from ..players import make_player
from ..players.base import PLAYER_LEVELS, load_levels
from ..record import revealable
from ..rules import RuleSet
from ..scoring import ScoreSheet
from ..views import PlayerView
from .i18n_web import W_, web_translator
from .store import ActionRow, SeatSecret, Store, TableRow

__all__ = ["Table", "TableManager", "TableError", "SeatSpec", "player_levels", "advise", "MAX_NAME_CHARS",
           "secret_hash", "same_secret"]

log = logging.getLogger("ginrummy.web")

MAX_NAME_CHARS = 24


def secret_hash(secret: str) -> str:
    """SHA-256 of a seat token or invite code (its UTF-8 bytes; any text, non-ASCII too), hex."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def same_secret(a: str, b: str) -> bool:
    """Whether two secrets (or hashes) are equal, compared as UTF-8 bytes in constant time."""
    return secrets.compare_digest(a.encode("utf-8", "surrogatepass"), b.encode("utf-8", "surrogatepass"))


class TableError(GinRummyError, ValueError):
    """A table request was refused.  ``code``: ``not_found``, ``bad_token``, ``bad_request``,
    ``not_allowed``, ``conflict``, ``bad_invite``, ``claimed``.  ``message`` is made with :func:`~ginrummy.web.i18n_web.W_`,
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
    match: Match | None
    seq: int = 0
    suggestions: list[dict[str, Any]] = field(default_factory=list)
    watchers: list[tuple[int, Watcher]] = field(default_factory=list)
    hints: dict[tuple[int, int], tuple[Action, str]] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    seat_secrets: list[SeatSecret] = field(default_factory=list)
    pending_seeds: dict[int, str] = field(default_factory=dict)
    rating: dict[str, Any] | None = None
    """Set by the players' ladder (:mod:`ginrummy.web.players`) for a rated table: sent in
    every started state as ``"rating"``."""

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
                                      names=", ".join(self.names[p] for p in self.waiting_for)), "", [], None, None)
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

    def check_action(self, player: int, text: str) -> Action:
        """Parse and verify ``player``'s action without changing anything.  Raises
        :class:`IllegalActionError` / :class:`NotYourTurnError` saying why (R4-R9); another
        player to act is named ("it is Bob's turn", code ``not_your_turn``)."""
        action = parse_action(text)
        m = self.started_match()
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
        """Raises :class:`IllegalActionError` while the deal is on or once the match is over, and
        :class:`TableError` (``not_allowed``) while a person's client seed is missing."""
        m = self.match
        if m is None:
            raise TableError("not_allowed", W_("the first deal is dealt as soon as every client seed is in"))
        if m.finished:
            # the engine's own messages (messages domain)
            raise IllegalActionError(N_("the match is over"))
        if not m.deal.is_over:
            raise IllegalActionError(N_("the deal is not over yet"))
        if self.waiting_for:
            raise TableError("not_allowed", W_("the next deal waits for the client seed of {names}",
                                               names=", ".join(self.names[p] for p in self.waiting_for)))

    def check_client_seed(self, player: int, deal: int) -> None:
        """Raises :class:`TableError` (``not_allowed``) unless ``player`` may send a client seed
        for deal ``deal`` now: a person, at a table with client seeds, and ``deal`` the next deal
        to be dealt."""
        if not self.fair or self.is_bot(player):
            raise TableError("not_allowed", W_("this table takes no client seeds"))
        nxt = self.next_deal_number
        if nxt is None:
            raise TableError("not_allowed", W_("no deal waits for client seeds now; send yours when the deal is over"))
        if deal != nxt:
            raise TableError("not_allowed", W_("deal {deal} is not the next deal; the next deal is {next}",
                                               deal=deal, next=nxt))

    def deal_next(self, kind: str) -> None:
        """Deal the next deal with the client seeds in: the first (``kind`` ``"deal"``) or the
        one after a deal that is over (``"next_deal"``)."""
        seeds = self.client_seeds()
        if kind == "deal":
            self.match = Match.new(RuleSet.from_dict(dict(self.row.rules)), self.row.names, self.row.seed,
                                   client_seeds=seeds)
        else:
            self.started_match().next_deal(seeds)
        self.pending_seeds = {}
        self.suggestions = []

    def replay(self, steps: list[ActionRow]) -> None:
        """Re-apply stored steps (at load time)."""
        for s in steps:
            if s.kind == "action":
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

    # -- what a seat sees ------------------------------------------------------------------

    def _deals(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        m = self.match
        if m is None:
            return out
        for d in m.deals:
            r = d.result
            shown = revealable(m, d)
            entry: dict[str, Any] = {
                "number": d.number, "commitment": d.commitment,
                "players": [self.names[p] for p in d.seat_players],
                "dealer": self.names[d.seat_players[d.dealer]],
                "dealer_seat": d.dealer, "seat_players": list(d.seat_players),
                "client_seeds": None if d.client_seeds is None else list(d.client_seeds),
                "over": r is not None, "revealed": shown,
            }
            if shown:
                entry["seed"] = d.seed.hex()
            if r is not None:
                entry.update({
                    "outcome": r.outcome, "points": r.points,
                    "winner": None if r.winner is None else self.names[d.seat_players[r.winner]],
                    "knocker": None if r.knocker is None else self.names[d.seat_players[r.knocker]],
                    "reason": r.reason, "actions": len(d.actions),
                })
            out.append(entry)
        return out

    def _fair(self, player: int) -> dict[str, Any]:
        """The ``fair`` part of a state: the match seed's commitment (and the seed once the
        match is over) and the deal waiting for client seeds."""
        m = self.match
        finished = m is not None and m.finished
        out: dict[str, Any] = {"commitment": commitment(self.row.seed),
                               "match_seed": self.row.seed.hex() if finished else None, "pending": None}
        nxt = self.next_deal_number
        if self.fair and nxt is not None:
            out["pending"] = {"deal": nxt, "commitment": commitment(deal_seed(self.row.seed, nxt)),
                              "waiting_for": [self.names[p] for p in self.waiting_for],
                              "yours": self.pending_seeds.get(player)}
        return out

    def _seats(self) -> list[dict[str, Any]]:
        return [{"name": n, "kind": "human" if k == "human" else "computer",
                 "level": None if k == "human" else k[4:],
                 "connected": any(p == i for p, _ in self.watchers) or k != "human"}
                for i, (n, k) in enumerate(zip(self.names, self.row.seats))]

    def _waiting_state(self, player: int) -> dict[str, Any]:
        """The state before the first deal: who is here, and whose client seed is missing."""
        rules = RuleSet.from_dict(dict(self.row.rules))
        return {
            "type": "state", "started": False,
            "table": {"id": self.id, "rules": rules.to_dict(), "names": list(self.names), "seats": self._seats()},
            "you": player, "role": None, "seat": None, "seq": self.seq, "seat_players": [],
            "to_act": None, "your_turn": False, "roles": None, "view": None, "arrangement": None,
            "deal": None, "deals": [], "sheet": ScoreSheet(rules, len(self.names)).to_dict(self.names),
            "match": {"finished": False, "winner": None}, "can_next_deal": False, "suggestions": [],
            "can_suggest": False, "can_hint": False, "hint_level": self.hint_level, "record_available": False,
            "fair": self._fair(player),
        }

    def state_for(self, player: int) -> dict[str, Any]:
        """The ``state`` message for ``player`` (see ``docs/protocol.md``)."""
        m = self.match
        if m is None:
            return self._waiting_state(player)
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
            "type": "state", "started": True,
            "table": {"id": self.id, "rules": m.rules.to_dict(), "names": list(self.names), "seats": self._seats()},
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
                "seed": record.seed.hex() if revealable(m, record) else None,
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
            "record_available": True,
            "fair": self._fair(player),
            "rating": self.rating,
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
        self.on_finish: Callable[[Table, int, Action], Callable[[Any], None] | None] | None = None
        """Called before storing an action with ``(table, player, action)``; it may return a
        function of the open connection to run in the same transaction as the step (the
        ladder's hook for the step that ends a match, :mod:`ginrummy.web.players`)."""

    # -- creating and loading ------------------------------------------------------------------

    def create(self, rules: RuleSet, seats: list[SeatSpec], *, seed: bytes | None = None,
               lang: str = "en") -> tuple[Table, dict[int, tuple[str, str]]]:
        """A new table with ``seats`` (2, or 3 for three-hand gin, R10) under ``rules``; the
        match seed is 32 secret random bytes unless given.  Stored before it is returned.

        Returns ``(table, secrets)``: ``secrets[player]`` is ``("token", TOKEN)`` for the first
        human seat (whoever opens the table sits there) and ``("invite", CODE)`` for every
        other human seat: a one-time code that :meth:`claim` turns into a new token.  Only
        their hashes are stored; these values are shown once, to whoever opens the table.
        At a table with a person the first deal waits for the client seeds; a table of
        computer players is dealt at once.
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
                       seats=kinds, tokens=[], seed=seed)
        shown: dict[int, tuple[str, str]] = {}
        stored: list[SeatSecret] = []
        for i, kind in enumerate(kinds):
            if kind != "human":
                continue
            secret = secrets.token_urlsafe(18)
            if not shown:
                shown[i] = ("token", secret)
                stored.append(SeatSecret(i, secret_hash(secret), None))
            else:
                shown[i] = ("invite", secret)
                stored.append(SeatSecret(i, None, secret_hash(secret)))
        self.store.create_table(row, stored)
        table = Table(row, None if stored else match, seat_secrets=stored)
        self.tables[row.id] = table
        return table, shown

    def claim(self, table_id: str, invite: str) -> tuple[Table, int, str]:
        """Claim a human seat with its one-time invite code: ``(table, player, token)``, the
        token minted now for whoever claims.  Raises :class:`TableError`: ``not_found``,
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
        return table, player, token

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
        secrets_ = self.store.seat_secrets(table_id)
        table = Table(row, None if secrets_ else Match.new(rules, row.names, row.seed), seat_secrets=secrets_)
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

    def _write(self, table: Table, player: int | None, kind: str, text: str,
               also: Callable[[Any], None] | None = None) -> None:
        """Store the step (committed; ``also(conn)`` in the same transaction), or raise
        :class:`TableError` ``conflict`` after reloading the table when another writer got
        there first."""
        try:
            if also is None:
                self.store.append(table.id, table.seq + 1, player, kind, text)
            else:
                self.store.append(table.id, table.seq + 1, player, kind, text, also=also)
        except Exception as exc:
            log.warning("store write failed for table %s: %s; reloading", table.id, exc)
            self.tables.pop(table.id, None)
            fresh = self.load(table.id)
            fresh.watchers = table.watchers
            raise TableError("conflict", W_("the table changed elsewhere; here is its current state")) from None

    async def client_seed(self, table: Table, player: int, deal: int, seed: str) -> None:
        """Take ``player``'s client seed for deal ``deal`` (``docs/record-format.md``): store it
        as a step, and deal the first deal once every person's seed is in.  Raises
        :class:`TableError` (``not_allowed``) when no such seed is wanted now (nothing changes)."""
        async with self._lock(table):
            table = self.tables.get(table.id, table)
            table.check_client_seed(player, deal)
            if table.pending_seeds.get(player) != seed:
                self._write(table, player, "client_seed", json.dumps({"deal": deal, "seed": seed}))
                table.pending_seeds[player] = seed
                table.seq += 1
            self._deal_first_if_ready(table)
        await self.changed(table)

    def _deal_first_if_ready(self, table: Table) -> None:
        """Deal the first deal when every person's client seed is in (stored first)."""
        if table.match is None and not table.waiting_for:
            self._write(table, None, "deal", "deal")
            table.deal_next("deal")
            table.seq += 1

    async def act(self, table: Table, player: int, text: str) -> None:
        """Play ``player``'s action: verify, store, apply, then tell every watcher.  Raises
        :class:`IllegalActionError`/:class:`NotYourTurnError` (nothing changes)."""
        async with self._lock(table):
            table = self.tables.get(table.id, table)
            action = table.check_action(player, text)
            also = self.on_finish(table, player, action) if self.on_finish is not None else None
            self._write(table, player, "action", action.text, also)
            table.started_match().apply(player, action)
            table.seq += 1
        await self.changed(table)

    async def next_deal(self, table: Table, player: int | None) -> None:
        """Start the next deal (any seat may ask once the deal is over)."""
        async with self._lock(table):
            table = self.tables.get(table.id, table)
            table.check_next_deal()
            self._write(table, None, "next_deal", "next deal")
            table.deal_next("next_deal")
            table.seq += 1
        await self.changed(table)

    async def suggest(self, table: Table, player: int, text: str) -> None:
        """Record the adviser's suggestion for the captain (R10.2) and send it to both.
        Raises :class:`TableError` (``not_allowed``) for anyone but the adviser."""
        m = table.match
        if m is None or m.roles is None or m.roles[2] != player:
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
            view = table.started_match().view(target)
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
        if m is None or m.finished:
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
                view = table.started_match().view(player)
                action = bot.choose(view, view.legal)
                await self.act(table, player, action.text)
        except Exception:
            log.exception("computer move failed at table %s", table.id)

    def start(self) -> None:
        """Deal every first deal whose client seeds are all in (a restart may have come between
        the last seed and the deal) and schedule every pending computer move (call from the
        running event loop)."""
        for t in list(self.tables.values()):
            try:
                self._deal_first_if_ready(t)
            except TableError:  # pragma: no cover - another process dealt it first
                pass
            self.schedule_bot(t)

    async def stop(self) -> None:
        """Cancel the pending computer moves."""
        for t in self.tables.values():
            if t.bot_task is not None:
                t.bot_task.cancel()
