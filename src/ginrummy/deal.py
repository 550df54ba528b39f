"""One deal of two-hand gin as a state machine (R3-R9).

Phases: ``upcard_offer`` (R4.2) -> ``draw`` -> ``discard`` (or knock, gin, big gin) -> ``over``;
``wall`` is the last chance to take a discard to knock under ``stock_end="wall"`` (R7.2).  The
layout (R5.2-R5.5) is computed when a player knocks, so a knock goes straight to ``over``.

The state is immutable: :meth:`DealState.apply` returns a new state and the events that
happened, and leaves the old state as it was, so a rejected action changes nothing.  Seats are
0 and 1; ``dealer`` is one of them and the other, the non-dealer, acts first (R3.3).  Cards are
ints 0..51 and hands are card-set masks (see :mod:`ginrummy.cards`).  Randomness: the deck order
comes from the caller (a deal script) or from a seed (:func:`deck_from_seed`); a reshuffle of
the discard pile (R7.3) is derived from the deal's seed, so every deal replays exactly.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from . import actions as A
from .actions import Action
from .cards import card_str, cards_of, mask_of, mask_value, parse_card
from .errors import N_, IllegalActionError, NotYourTurnError, RecordError
from .melds import (
    Arrangement,
    DefenderLayout,
    Layoff,
    best_discard_deadwood,
    deadwood,
    deadwood_after_discards,
    is_big_gin,
)
from .rules import RuleSet
from .showdown import Outcome, Showdown, check_arrangement, showdown

__all__ = [
    "Phase",
    "UPCARD_OFFER",
    "DRAW",
    "DISCARD",
    "WALL",
    "OVER",
    "PHASES",
    "LAYOUT",
    "LAYOFF",
    "LAYOUT_PHASES",
    "Outcome",
    "DISCARD_ACTIONS",
    "KNOCK_ACTIONS",
    "GIN_ACTIONS",
    "Event",
    "DealResult",
    "DealState",
    "new_deal",
    "deck_from_seed",
    "seeded_shuffle",
]


class Phase(StrEnum):
    """The phase of a deal: who may do what next (R4, R7).  A ``str``: each member equals, hashes
    and is written (JSON, records, ``str``, f-strings, ``repr``) as its value.

    >>> import json
    >>> Phase.DRAW == "draw", f"{Phase.UPCARD_OFFER}", json.dumps(Phase.WALL)
    (True, 'upcard_offer', '"wall"')
    """

    UPCARD_OFFER = "upcard_offer"  #: the upcard is offered, non-dealer first (R4.2)
    DRAW = "draw"  #: the seat to act draws from the stock or takes the discard (R4.1)
    DISCARD = "discard"  #: the seat to act discards, knocks or goes gin (R4.3, R5.1)
    WALL = "wall"  #: two cards left in the stock: the last discard may be taken (R7.2)
    OVER = "over"  #: the deal is scored or drawn
    LAYOUT = "layout"  #: the knocker lays his melds one by one (R5.6, ``layout="players"``)
    LAYOFF = "layoff"  #: the defender lays off, then lays his melds (R5.6, ``layout="players"``)

    def __repr__(self) -> str:
        # the plain string's repr, as before the enum, so reprs (and digests of them) are unchanged
        return repr(self.value)


UPCARD_OFFER = Phase.UPCARD_OFFER
DRAW = Phase.DRAW
DISCARD = Phase.DISCARD
WALL = Phase.WALL
OVER = Phase.OVER
LAYOUT = Phase.LAYOUT
LAYOFF = Phase.LAYOFF
#: The phases of a deal whose layout the engine makes (``layout="engine"``, the default).
PHASES = (UPCARD_OFFER, DRAW, DISCARD, WALL, OVER)
#: The phases of the layout decisions (R5.6, ``layout="players"``).
LAYOUT_PHASES = (LAYOUT, LAYOFF)


# -- chance ---------------------------------------------------------------------------------


def seeded_shuffle(items: Sequence[int], seed: bytes) -> list[int]:
    """A Fisher-Yates shuffle of ``items`` whose random numbers are SHA-256 of ``seed`` and a
    counter: for i from n-1 down to 1, j = int(SHA-256(seed || i as 4 bytes big-endian)) mod
    (i+1); swap items i and j.  Fully specified, so anyone can recompute a deck (docs)."""
    out = list(items)
    sha = _sha256
    counters = _COUNTERS
    for i in range(len(out) - 1, 0, -1):
        digest = sha(seed + (counters[i] if i < 64 else i.to_bytes(4, "big"))).digest()
        j = int.from_bytes(digest, "big") % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


try:  # the standard library's own SHA-256 (the same digests), quicker than OpenSSL's for short inputs
    from _sha256 import sha256 as _sha256  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the Python build
    _sha256 = hashlib.sha256
_COUNTERS = tuple(i.to_bytes(4, "big") for i in range(64))  # i as 4 bytes big-endian, for a deck's shuffle


def deck_from_seed(seed: bytes) -> list[int]:
    """The 52-card deck order of a deal seeded with ``seed`` (bytes): :func:`seeded_shuffle` of
    the cards 0..51.  deck[0:10] is the non-dealer's hand, deck[10:20] the dealer's, deck[20] the
    upcard, deck[21:] the stock, top first (R3.2)."""
    if not isinstance(seed, (bytes, bytearray)):
        raise TypeError("a deal seed is bytes")
    return seeded_shuffle(range(52), bytes(seed))


# -- events and results ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in a deal.

    Attributes:
        kind: an action kind (``take_upcard``, ``pass``, ``draw_stock``, ``take_discard``,
            ``discard``, ``knock``, ``gin``, ``big_gin``), or ``reshuffle`` (R7.3) or ``end``.
        seat: the seat that acted (``None`` for ``reshuffle``/``end``).
        card: the card concerned (the card drawn, taken or discarded), or ``None``.
        private: ``True`` when only ``seat`` may see ``card`` (a card drawn from the stock).
    """

    kind: str
    seat: int | None
    card: int | None = None
    private: bool = False

    def seen_by(self, seat: int | None) -> Event:
        """The event as ``seat`` sees it (``None``: a spectator): a private card is hidden from
        everyone but its owner."""
        if self.private and seat != self.seat and self.card is not None:
            return Event(self.kind, self.seat, None, True)
        return self

    @property
    def text(self) -> str:
        """E.g. ``"1 discard 7H"``, ``"0 draw stock 4C"`` (a hidden card is omitted)."""
        head = "" if self.seat is None else f"{self.seat} "
        body = self.kind.replace("_", " ")
        if self.card is not None:
            body += " " + card_str(self.card)
        return head + body

    @classmethod
    def from_text(cls, text: str) -> Event:
        """The event of one :attr:`text` (the inverse of :attr:`text`): ``"1 discard 7H"``,
        ``"0 draw stock"`` (the card hidden), ``"reshuffle"``.  A stock draw is private (R3.2).

        Raises ``ValueError`` for a text that names no event.

        >>> Event.from_text("1 discard 7H") == Event("discard", 1, parse_card("7H"))
        True
        >>> Event.from_text("0 draw stock").private
        True
        """
        parts = text.split()
        seat = int(parts.pop(0)) if parts and parts[0].isdigit() else None
        card = None
        if parts:
            try:
                card = parse_card(parts[-1])
                parts.pop()
            except ValueError:
                card = None
        kind = "_".join(parts)
        if not kind:
            raise ValueError(f"history entry {text!r} names no event")
        return cls(kind, seat, card, kind == "draw_stock")


@dataclass(frozen=True)
class DealResult:
    """How a deal ended.

    Attributes:
        outcome: ``"knock"``, ``"undercut"``, ``"gin"``, ``"big_gin"`` or ``"draw"`` (R6, R7).
        winner: the seat that scores, or ``None`` for a draw (R6.4).
        points: what the winner scores (multiplier applied, R9.3); 0 for a draw.
        knocker: the seat that knocked or went gin, or ``None`` for a draw.
        showdown: the layouts and score details, or ``None`` for a draw.
        reason: for a draw, the rule that ended it: ``"R7.1"``, ``"R7.2"`` or ``"R7.3"``.
    """

    outcome: Outcome
    winner: int | None
    points: int
    knocker: int | None = None
    showdown: Showdown | None = None
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        """JSON form: outcome, winner, points, knocker, reason, and the layouts of a knock."""
        out: dict[str, Any] = {
            "outcome": self.outcome,
            "winner": self.winner,
            "points": self.points,
            "knocker": self.knocker,
        }
        if self.showdown is not None:
            sd = self.showdown.to_json()
            out.update(
                {
                    "multiplier": sd["multiplier"],
                    "bonus": sd["bonus"],
                    "knocker_layout": sd["knocker"],
                    "defender_layout": sd["defender"],
                }
            )
        else:
            out["reason"] = self.reason
        return out


def _event_table(kind: str, private: bool = False) -> tuple[tuple[Event, ...], tuple[Event, ...]]:
    return tuple(tuple(Event(kind, seat, c, private) for c in range(52)) for seat in (0, 1))  # type: ignore[return-value]


# events are immutable values: the common ones are shared, not rebuilt per action
_EV_DISCARD = _event_table("discard")
_EV_DRAW_STOCK = _event_table("draw_stock", True)
_EV_TAKE_DISCARD = _event_table("take_discard")
_EV_TAKE_UPCARD = _event_table("take_upcard")
_EV_PASS = (Event("pass", 0), Event("pass", 1))
_EV_END = Event("end", None)
_EV_RESHUFFLE = Event("reshuffle", None)


class _Log:
    """The events of a deal, shared by its successive states (no copy per action).

    ``events`` is append-only; a state sees its first ``DealState._nlog`` entries.  A state
    applies onto the shared list only when it is the newest state of the list (its ``_nlog`` is
    the list's length); applying from an older state (a branch) starts a new list from a copy
    of its prefix, so every state's log stays what it was.  ``seen[seat]`` holds
    ``events[i].seen_by(seat)`` for the first entries, filled when a view asks for them.
    """

    __slots__ = ("events", "seen")

    def __init__(self, events: list[Event]) -> None:
        self.events = events
        self.seen: tuple[list[Event], list[Event]] = ([], [])


# action objects are shared, not rebuilt per call
_NEW = object.__new__
#: ``DISCARD_ACTIONS[c]``: the discard of card ``c`` (0..51), the very object
#: :meth:`DealState.legal_actions` lists (so a table keyed by ``id(action)`` finds it).
DISCARD_ACTIONS: tuple[Action, ...] = tuple(A.discard(c) for c in range(52))
#: ``KNOCK_ACTIONS[c]``: the knock discarding card ``c`` (R5.1), shared as :data:`DISCARD_ACTIONS`.
KNOCK_ACTIONS: tuple[Action, ...] = tuple(A.knock(c) for c in range(52))
#: ``GIN_ACTIONS[c]``: going gin discarding card ``c`` (R6.1), shared as :data:`DISCARD_ACTIONS`.
GIN_ACTIONS: tuple[Action, ...] = tuple(A.gin(c) for c in range(52))
_DISCARDS, _KNOCKS, _GINS = DISCARD_ACTIONS, KNOCK_ACTIONS, GIN_ACTIONS  # the engine's short names
_DISCARD_CARD = {id(a): a.card for a in _DISCARDS}  # id of a shared discard action -> its card


class DealState:
    """The whole state of one deal (R3-R9), hidden cards included.

    Never give a ``DealState`` to a player: give it a :class:`~ginrummy.views.PlayerView`.
    Its attributes are read-only by convention.

    Attributes:
        rules: the :class:`RuleSet`.
        dealer: the dealer's seat (0 or 1).
        hands: (seat 0 mask, seat 1 mask).
        stock: the stock, top first, from ``stock[drawn]`` on.
        drawn: how many stock cards have been drawn since the stock was (re)built.
        pile: the discard pile, bottom to top.
        phase: one of :data:`PHASES`.
        to_act: the seat to act, ``None`` when the deal is over.
        upcard: the first upcard of the deal (R3.2; decides Oklahoma, R9).
        knock_limit: deadwood points a knocker may keep, ``None`` if only gin ends the deal.
        multiplier: 2 for an Oklahoma spade upcard (R9.3), else 1.
        taken: the card taken from the discard pile this turn (R4.3), else ``None``.
        stock_only: the first draw after both players passed the upcard (R4.2).
        must_knock: the card was taken at the wall: only a knock or gin may follow (R7.2).
        reshuffles: how many times the stock was rebuilt (R7.3).
        repeat: the last discard was the card just taken from the pile (R7.4).
        pile_takes: how many times a discard was taken in a draw (R7.5).
        knocker: the seat that knocked, during the layout decisions (R5.6), else ``None``.
        laid: (seat 0, seat 1): the melds each seat has laid in the layout decisions (R5.6).
        layoffs: the cards the defender has laid off so far, in order (R5.6).
        layoffs_done: the defender has finished laying off (R5.6).
        seen: (seat 0, seat 1): cards each seat was seen taking from the pile and still holds.
        result: the :class:`DealResult` once over.
        seed: bytes from which reshuffles are derived.
        turn: how many actions have been applied.
        log: every event of the deal so far, in order (hidden cards included; filter with
            :meth:`Event.seen_by`).
    """

    __slots__ = (
        "rules",
        "dealer",
        "hands",
        "stock",
        "drawn",
        "pile",
        "phase",
        "to_act",
        "upcard",
        "knock_limit",
        "multiplier",
        "taken",
        "stock_only",
        "must_knock",
        "reshuffles",
        "seen",
        "result",
        "seed",
        "turn",
        "offer_passes",
        "repeat",
        "pile_takes",
        "knocker",
        "laid",
        "layoffs",
        "layoffs_done",
        "_log",
        "_nlog",
        "_logt",
        "_legal",
    )

    rules: RuleSet
    dealer: int
    hands: tuple[int, int]
    stock: tuple[int, ...]
    drawn: int
    pile: tuple[int, ...]
    phase: Phase
    to_act: int | None
    upcard: int
    knock_limit: int | None
    multiplier: int
    taken: int | None
    stock_only: bool
    must_knock: bool
    reshuffles: int
    seen: tuple[int, int]
    result: DealResult | None
    seed: bytes
    turn: int
    offer_passes: int
    repeat: bool
    pile_takes: int
    knocker: int | None
    laid: tuple[tuple[int, ...], tuple[int, ...]]
    layoffs: tuple[int, ...]
    layoffs_done: bool
    _log: _Log
    _nlog: int
    _logt: tuple[Event, ...] | None
    _legal: list[Action] | None

    def _copy(self) -> DealState:
        new = _NEW(DealState)
        new.rules = self.rules
        new.dealer = self.dealer
        new.hands = self.hands
        new.stock = self.stock
        new.drawn = self.drawn
        new.pile = self.pile
        new.phase = self.phase
        new.to_act = self.to_act
        new.upcard = self.upcard
        new.knock_limit = self.knock_limit
        new.multiplier = self.multiplier
        new.taken = self.taken
        new.stock_only = self.stock_only
        new.must_knock = self.must_knock
        new.reshuffles = self.reshuffles
        new.seen = self.seen
        new.result = self.result
        new.seed = self.seed
        new.turn = self.turn
        new.offer_passes = self.offer_passes
        new.repeat = self.repeat
        new.pile_takes = self.pile_takes
        new.knocker = self.knocker
        new.laid = self.laid
        new.layoffs = self.layoffs
        new.layoffs_done = self.layoffs_done
        new._log = self._log
        new._nlog = self._nlog
        new._logt = self._logt
        new._legal = None
        return new

    # -- reading ---------------------------------------------------------------------------

    @property
    def log(self) -> tuple[Event, ...]:
        """Every event of the deal so far, in order (hidden cards included; filter with
        :meth:`Event.seen_by`).  Built from the shared event list when first read."""
        t = self._logt
        if t is None:
            t = self._logt = tuple(self._log.events[: self._nlog])
        return t

    def log_position(self) -> tuple[list[Event], int]:
        """``(events, n)``: the event list this state shares with the states before and after it
        (append-only, hidden cards included) and how many of its first entries are this state's
        log.  Two states with the same list (``is``) and ``n <= m`` are an earlier and a later
        state of one line of play: ``events[n:m]`` is what happened between them.  For
        incremental readers (:class:`ginrummy.env.observation.SeatEncoder`); never change the list."""
        return self._log.events, self._nlog

    def history(self, seat: int) -> tuple[Event, ...]:
        """The log as ``seat`` (0 or 1) sees it: :meth:`Event.seen_by` of every event.  Each
        event is filtered once per deal and seat, so reading it after every action is cheap."""
        lg = self._log
        n = self._nlog
        seen = lg.seen[seat]
        done = len(seen)
        if done < n:
            seen.extend([e.seen_by(seat) for e in lg.events[done:n]])
        return tuple(seen[:n]) if len(seen) > n else tuple(seen)

    @property
    def non_dealer(self) -> int:
        """The seat of the non-dealer, who acts first (R3.3)."""
        return 1 - self.dealer

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return len(self.stock) - self.drawn

    @property
    def top_discard(self) -> int | None:
        """The top card of the discard pile, or ``None`` if it is empty."""
        return self.pile[-1] if self.pile else None

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended (scored or drawn)."""
        return self.phase == OVER

    def hand(self, seat: int) -> int:
        """The card-set mask of ``seat``'s hand."""
        return self.hands[seat]

    def legal_actions(self) -> list[Action]:
        """The actions the seat ``to_act`` may take now (empty when the deal is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = _LEGAL[self.phase](self)
        return list(legal)

    def legal_actions_shared(self) -> list[Action]:
        """The list :meth:`legal_actions` copies: computed once per state and then shared, so the
        caller must not change it.  For hot loops (:mod:`ginrummy.env`); others use
        :meth:`legal_actions`."""
        legal = self._legal
        if legal is None:
            legal = self._legal = _LEGAL[self.phase](self)
        return legal

    @property
    def legal_actions_known(self) -> bool:
        """Whether the legal actions of this state are computed already (then
        :meth:`legal_actions_shared` costs nothing)."""
        return self._legal is not None

    def discards_only(self) -> int | None:
        """When the seat to act may only discard (the discard phase, no knock, gin or big gin
        possible, R5.1, R6.1, R6.5): the card-set mask of the cards it may discard (its hand,
        less the card just taken from the pile unless ``discard_taken_card``, R4.3); else
        ``None``.  Then :meth:`legal_actions` is the discard of each of these cards, in card
        order, and no more; finding it costs less than building that list."""
        if self.phase != DISCARD:
            return None
        assert self.to_act is not None  # a seat is to act in the discard phase
        return _discards_only(self, self.hands[self.to_act], self.taken, self.must_knock)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` (an explicit knock arrangement aside) is legal for the seat to act."""
        legal = self._legal
        if legal is None:
            legal = self._legal = _LEGAL[self.phase](self)
        if action.melds is not None and action.kind != "meld":
            action = Action(action.kind, action.card)
        return action in legal

    def verify(self, seat: int, action: Action) -> None:
        """Check that ``seat`` may take ``action`` now.

        Raises :class:`NotYourTurnError` when the deal is over or another seat is to act, and
        :class:`IllegalActionError` naming the action and the legal ones otherwise.
        """
        if self.phase == OVER:
            raise NotYourTurnError(
                N_("the deal is over; {action} is not allowed", action=_text(action)), _text(action), [], seat, None
            )
        if seat != self.to_act:
            raise NotYourTurnError(
                N_("seat {seat} cannot act now: seat {to_act} is to act", seat=seat, to_act=self.to_act),
                _text(action),
                [],
                seat,
                self.to_act,
            )
        if not isinstance(action, Action):
            raise IllegalActionError(
                N_("not an action: {action!r}", action=action), repr(action), [a.text for a in self.legal_actions()]
            )
        if not self.is_legal(action):
            legal = self.legal_actions()
            raise IllegalActionError(
                N_(
                    "{action} is not legal now ({why}); legal: {legal}",
                    action=action.text,
                    why=self._why(action),
                    legal=", ".join(a.text for a in legal),
                ),
                action.text,
                [a.text for a in legal],
            )

    def _why(self, action: Action) -> str:
        hand = self.hands[self.to_act or 0]
        if self.phase == DRAW and self.stock_only:
            phase_help = N_("first draw a card (R4.1): from the stock, after both passed the upcard (R4.2)")
        else:
            phase_help = {
                UPCARD_OFFER: N_("the upcard offer: take upcard or pass (R4.2)"),
                DRAW: N_("first draw a card (R4.1)"),
                DISCARD: N_("after the draw, discard, knock or go gin (R4.1, R5.1)"),
                WALL: N_("two cards are left: take the discard only to knock or go gin, or pass (R7.2)"),
                LAYOUT: N_("the knocker lays his melds one by one, then passes (R5.6)"),
                LAYOFF: N_("the defender lays off cards, passes, lays his melds, then passes (R5.6)"),
            }[self.phase]
        if action.kind == "big_gin":
            if self.rules.big_gin_bonus is None:
                return N_("big gin is not played under these rules (big_gin_bonus is null, R6.5)")
            if self.phase == DISCARD:
                return N_("big gin needs all 11 cards melded; deadwood is {deadwood} (R6.5)", deadwood=deadwood(hand))
        c = action.card
        if action.kind in ("discard", "knock", "gin") and self.phase == DISCARD and c is not None:
            if not (hand >> c) & 1:
                return N_("{card} is not in the hand", card=card_str(c))
            if c == self.taken and not self.rules.discard_taken_card:
                return N_("{card} was just taken from the discard pile (R4.3)", card=card_str(c))
            if action.kind == "discard" and self.must_knock:
                return N_("a card taken at the wall must be used to knock or go gin (R7.2)")
            if action.kind == "knock":
                if self.knock_limit is None:
                    return N_("knocking is not allowed in this deal: only gin (R8.1, R9.2)")
                left = deadwood(hand & ~(1 << c))
                if left == 0:
                    return N_(
                        "discarding {card} leaves no deadwood: that is gin, so go gin with it (R6.1)", card=card_str(c)
                    )
                return N_(
                    "discarding {card} leaves {deadwood} deadwood, above the knock limit {limit} (R5.1)",
                    card=card_str(c),
                    deadwood=left,
                    limit=self.knock_limit,
                )
            if action.kind == "gin":
                return N_("the hand is not gin after that discard (R2.5)")
        return phase_help

    # -- acting ----------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> tuple[DealState, list[Event]]:
        """Apply ``action`` by ``seat``; return the new state and the events that happened.

        Raises what :meth:`verify` raises, leaving this state unchanged.
        """
        legal = self._legal
        c = _DISCARD_CARD.get(id(action)) if legal is None else None
        if (
            c is not None
            and self.phase == DISCARD
            and seat == self.to_act
            and not self.must_knock
            and (self.hands[seat] >> c) & 1
            and (c != self.taken or self.rules.discard_taken_card)
        ):
            pass  # our discard of a card of the hand, legal whatever else is (R4.1, R4.3): no list needed
        else:
            if legal is None:
                legal = self._legal = _LEGAL[self.phase](self)
            for a in legal:  # one of the (shared) action objects: an identity test, cheaper than
                # the dataclass equality of ``in``
                if a is action:
                    if seat != self.to_act:
                        self.verify(seat, action)  # raises
                    break
            else:
                self.verify(seat, action)  # raises, or accepts an equal action that is not one of ours
        new = self._copy()
        new.turn = self.turn + 1
        events: list[Event] = []
        _APPLY[action.kind](new, seat, action, events)
        lg = self._log
        n = self._nlog
        if len(lg.events) == n:  # the newest state of this log: extend it in place
            lg.events.extend(events)
        else:  # a branch from an older state: a log of its own
            new._log = _Log(lg.events[:n] + events)
        new._nlog = n + len(events)
        new._logt = None
        return new, events

    def with_next_stock_card(self, card: int) -> DealState:
        """A copy in which ``card``, one of the cards left in the stock, is the stock's top card
        (it changes place with the card that was there).  For games that deal each stock card
        when it is drawn, as OpenSpiel's chance moves do (:mod:`ginrummy.interop.spiel_game`).
        Raises ``ValueError`` when ``card`` is not in the stock."""
        rest = self.stock[self.drawn :]
        if card not in rest:
            raise ValueError(f"{card!r} is not a card of the stock")
        i = self.drawn + rest.index(card)
        stock = list(self.stock)
        stock[self.drawn], stock[i] = stock[i], stock[self.drawn]
        new = self._copy()
        new.stock = tuple(stock)
        new._legal = self._legal
        return new

    def __repr__(self) -> str:
        return (
            f"DealState(phase={self.phase!r}, to_act={self.to_act}, stock={self.stock_size}, "
            f"top={card_str(self.pile[-1]) if self.pile else None})"
        )


def _text(action: object) -> str:
    return action.text if isinstance(action, Action) else repr(action)


# -- legal actions per phase ---------------------------------------------------------------


def _legal_offer(s: DealState) -> list[Action]:
    return [A.TAKE_UPCARD, A.PASS]


def _legal_draw(s: DealState) -> list[Action]:
    if s.stock_only or not s.pile:
        return [A.DRAW_STOCK]
    return [A.DRAW_STOCK, A.TAKE_DISCARD]


def _discards_only(s: DealState, hand: int, taken: int | None, must_knock: bool) -> int | None:
    """The card-set mask of the cards ``hand`` may discard when plain discards are all it may do
    (no discard leaves deadwood within the knock limit, so no knock, gin or big gin, R5.1, R6.1,
    R6.5): the hand less the card just taken when that may not be discarded (R4.3); ``None``
    when a knock or gin is possible or a card taken at the wall must be knocked with (R7.2)."""
    if must_knock:
        return None
    limit = s.knock_limit
    if best_discard_deadwood(hand) <= (0 if limit is None else limit):
        return None
    if taken is not None and not s.rules.discard_taken_card:
        hand &= ~(1 << taken)
    return hand


def _discard_phase_actions(s: DealState, hand: int, taken: int | None, must_knock: bool = False) -> list[Action]:
    bits = _discards_only(s, hand, taken, must_knock)
    if bits is not None:  # discards only, in card order
        return [*_SD0[bits & 0x1FFF], *_SD1[(bits >> 13) & 0x1FFF], *_SD2[(bits >> 26) & 0x1FFF], *_SD3[bits >> 39]]
    limit = s.knock_limit
    forbid = taken if (taken is not None and not s.rules.discard_taken_card) else None
    discards: list[Action] = []
    knocks: list[Action] = []
    gins: list[Action] = []
    for c, d in deadwood_after_discards(hand, [c for c in cards_of(hand) if c != forbid]).items():
        if not must_knock:
            discards.append(_DISCARDS[c])
        if d == 0:
            gins.append(_GINS[c])
        elif limit is not None and d <= limit:
            knocks.append(_KNOCKS[c])
    out = discards + knocks + gins
    if s.rules.big_gin_bonus is not None and is_big_gin(hand):
        out.append(A.BIG_GIN)
    return out


class _SuitDiscards(dict[int, tuple[Action, ...]]):
    """13-bit mask of one suit's cards -> the tuple of their discard actions, in card order
    (filled when first asked: ``cards_of`` and a list of ``_DISCARDS`` for each hand cost more)."""

    __slots__ = ("suit",)

    def __init__(self, suit: int) -> None:
        super().__init__()
        self.suit = suit

    def __missing__(self, bits: int) -> tuple[Action, ...]:
        t = self[bits] = tuple(_DISCARDS[c] for c in cards_of(bits << (13 * self.suit)))
        return t


_SD0, _SD1, _SD2, _SD3 = (_SuitDiscards(s) for s in range(4))


def _legal_discard(s: DealState) -> list[Action]:
    assert s.to_act is not None
    return _discard_phase_actions(s, s.hands[s.to_act], s.taken, s.must_knock)


def _legal_wall(s: DealState) -> list[Action]:
    if s.rules.wall_forced_pass:  # the wall is entered even when no knock is possible (R7.2)
        assert s.to_act is not None
        top = s.pile[-1]
        if not _can_knock_at_wall(s, s.hands[s.to_act] | (1 << top), top):
            return [A.PASS]
    return [A.TAKE_DISCARD, A.PASS]


def _one_move_melds(hand: int) -> list[int]:
    """Every meld within ``hand`` that may be laid in one move (R5.6): the sets of three and
    four, the runs of three to five cards (:func:`~ginrummy.actions.meld_id`), in id order."""
    return [m for m in _ALL_ONE_MOVE_MELDS if m & hand == m]


def _legal_layout(s: DealState) -> list[Action]:
    """The knocker's layout (R5.6): a meld that some layout of his cards keeping deadwood within
    the knock limit contains; ``pass`` (his layout is done) once his cards left are within it."""
    assert s.to_act is not None
    hand = s.hands[s.to_act]
    limit = s.knock_limit or 0
    out = [_MELD_ACTIONS[m] for m in _one_move_melds(hand) if deadwood(hand & ~m) <= limit]
    if mask_value(hand) <= limit:
        out.append(A.PASS)
    return out


def layoff_cards(knocker_melds: Sequence[int], layoffs: Sequence[int]) -> int:
    """The card-set mask of the cards that may be laid off now (R5.6): the missing card of each
    set of three, and for each run the card below and above it, the run extended first by those
    cards already laid off that touch the run as it was laid (so one layoff at an end opens the
    next card, and no more: the layout decisions follow OpenSpiel's ``AllLayoffs``)."""
    out = 0
    for m in knocker_melds:
        cards = cards_of(m)
        if len({c % 13 for c in cards}) == 1:
            if len(cards) == 3:
                out |= mask_of([(s * 13 + cards[0] % 13) for s in range(4)]) & ~m
            continue
        lo, hi = cards[0], cards[-1]
        ends = [c for c in (lo - 1 if lo % 13 else None, hi + 1 if hi % 13 != 12 else None) if c is not None]
        for c in layoffs:
            if c in ends:
                lo, hi = min(lo, c), max(hi, c)
        if lo % 13:
            out |= 1 << (lo - 1)
        if hi % 13 != 12:
            out |= 1 << (hi + 1)
    return out


def _legal_layoff(s: DealState) -> list[Action]:
    """The defender's layoffs, then his melds (R5.6); ``pass`` ends each part."""
    assert s.to_act is not None and s.knocker is not None
    hand = s.hands[s.to_act]
    if not s.layoffs_done:
        cards = layoff_cards(s.laid[s.knocker], s.layoffs) & hand
        return [A.PASS, *(_LAYOFF_ACTIONS[c] for c in cards_of(cards))]
    return [A.PASS, *(_MELD_ACTIONS[m] for m in _one_move_melds(hand))]


def _legal_over(s: DealState) -> list[Action]:
    return []


_LEGAL: dict[str, Callable[[DealState], list[Action]]] = {
    UPCARD_OFFER: _legal_offer,
    DRAW: _legal_draw,
    DISCARD: _legal_discard,
    WALL: _legal_wall,
    OVER: _legal_over,
    LAYOUT: _legal_layout,
    LAYOFF: _legal_layoff,
}


# -- applying actions -------------------------------------------------------------------------


def _set_hand(s: DealState, seat: int, mask: int) -> None:
    s.hands = (mask, s.hands[1]) if seat == 0 else (s.hands[0], mask)


def _take_top(s: DealState, seat: int) -> int:
    c = s.pile[-1]
    s.pile = s.pile[:-1]
    _set_hand(s, seat, s.hands[seat] | (1 << c))
    seen = s.seen
    s.seen = (seen[0] | (1 << c), seen[1]) if seat == 0 else (seen[0], seen[1] | (1 << c))
    s.taken = c
    s.phase = DISCARD
    return c


def _apply_take_upcard(s: DealState, seat: int, a: Action, ev: list[Event]) -> None:
    ev.append(_EV_TAKE_UPCARD[seat][_take_top(s, seat)])


def _apply_pass(s: DealState, seat: int, a: Action, ev: list[Event]) -> None:
    ev.append(_EV_PASS[seat])
    if s.phase == LAYOUT:  # the knocker's layout is done (R5.6): no layoffs on gin (R5.4)
        s.phase = LAYOFF
        s.to_act = 1 - seat
        s.layoffs_done = mask_value(s.hands[seat]) == 0
        return
    if s.phase == LAYOFF:
        if not s.layoffs_done:
            s.layoffs_done = True
        else:
            _score_laid(s, ev)
        return
    if s.phase == WALL:
        _end_draw(s, "R7.2", ev)
        return
    if s.offer_passes == 0:
        s.offer_passes = 1
        s.to_act = s.dealer
    else:
        s.offer_passes = 2
        s.to_act = 1 - s.dealer
        s.phase = DRAW
        s.stock_only = True


def _apply_draw_stock(s: DealState, seat: int, a: Action, ev: list[Event]) -> None:
    c = s.stock[s.drawn]
    s.drawn += 1
    _set_hand(s, seat, s.hands[seat] | (1 << c))
    s.taken = None
    s.stock_only = False
    s.phase = DISCARD
    ev.append(_EV_DRAW_STOCK[seat][c])


def _apply_take_discard(s: DealState, seat: int, a: Action, ev: list[Event]) -> None:
    wall = s.phase == WALL
    limit = s.rules.max_pile_takes
    if limit and not wall:
        s.pile_takes += 1
        if s.pile_takes >= limit:  # the limit of takes ends the deal before the card is taken (R7.5)
            _end_draw(s, "R7.5", ev)
            return
    ev.append(_EV_TAKE_DISCARD[seat][_take_top(s, seat)])
    if wall:
        s.must_knock = True


def _apply_discard(s: DealState, seat: int, a: Action, ev: list[Event]) -> None:
    c = a.card
    assert c is not None
    repeated = c == s.taken
    _set_hand(s, seat, s.hands[seat] & ~(1 << c))
    s.pile = s.pile + (c,)
    seen = s.seen
    s.seen = (seen[0] & ~(1 << c), seen[1] & ~(1 << c))
    s.taken = None
    ev.append(_EV_DISCARD[seat][c])
    if s.rules.repeated_move_ends:  # two repeated moves in a row end the deal (R7.4)
        if repeated and s.repeat:
            _end_draw(s, "R7.4", ev)
            return
        s.repeat = repeated
    other = 1 - seat
    end = s.rules.stock_end
    size = len(s.stock) - s.drawn
    if end == "draw_at_two" and size <= 2:
        _end_draw(s, "R7.1", ev)
    elif end == "wall" and size <= 2:
        s.to_act = other
        if s.rules.wall_forced_pass or _can_knock_at_wall(s, s.hands[other] | (1 << c), c):
            s.phase = WALL
        else:
            _end_draw(s, "R7.2", ev)
    elif end == "reshuffle" and size == 0:
        if s.reshuffles < s.rules.max_reshuffles and len(s.pile) > 1:
            _reshuffle(s, ev)
            s.phase = DRAW
            s.to_act = other
        else:
            _end_draw(s, "R7.3", ev)
    else:
        s.phase = DRAW
        s.to_act = other


def _can_knock_at_wall(s: DealState, hand11: int, card: int) -> bool:
    """Whether taking ``card`` into ``hand11`` allows a knock or gin at once (R7.2, R4.3)."""
    return any(a.kind != "discard" for a in _discard_phase_actions(s, hand11, card, must_knock=True))


def _reshuffle(s: DealState, ev: list[Event]) -> None:
    top = s.pile[-1]
    rest = s.pile[:-1]
    s.reshuffles += 1
    seed = hashlib.sha256(s.seed + b"/reshuffle/" + str(s.reshuffles).encode()).digest()
    s.stock = tuple(seeded_shuffle(rest, seed))
    s.drawn = 0
    s.pile = (top,)
    ev.append(_EV_RESHUFFLE)


def _end_draw(s: DealState, reason: str, ev: list[Event]) -> None:
    s.phase = OVER
    s.to_act = None
    s.taken = None
    s.must_knock = False
    s.result = DealResult(Outcome.DRAW, None, 0, None, None, reason)
    ev.append(_EV_END)


def _finish_showdown(
    s: DealState, seat: int, knocker_hand: int, melds: tuple[int, ...] | None, ev: list[Event]
) -> None:
    unseen = ((1 << 52) - 1) & ~knocker_hand & ~mask_of(s.pile)
    sd = showdown(
        s.rules,
        knocker_hand,
        s.hands[1 - seat],
        knock_limit=s.knock_limit,
        multiplier=s.multiplier,
        melds=melds,
        unseen=unseen,
    )
    winner = seat if sd.winner == "knocker" else 1 - seat
    if (
        s.rules.tie == "nothing"
        and sd.outcome == Outcome.UNDERCUT
        and sd.knocker.deadwood_value == sd.defender.deadwood_value
    ):  # a tie scores nothing (R6.3)
        s.phase = OVER
        s.to_act = None
        s.taken = None
        s.must_knock = False
        s.result = DealResult(Outcome.DRAW, None, 0, seat, None, "R6.3")
        ev.append(_EV_END)
        return
    s.phase = OVER
    s.to_act = None
    s.taken = None
    s.must_knock = False
    s.result = DealResult(sd.outcome, winner, sd.points, seat, sd)
    ev.append(_EV_END)


def _apply_knock(s: DealState, seat: int, a: Action, ev: list[Event]) -> None:
    c = a.card
    assert c is not None
    hand = s.hands[seat] & ~(1 << c)
    if a.melds is not None:
        # validate the chosen arrangement before changing anything (the state is a copy anyway)
        legal = [x.text for x in s.legal_actions()]
        try:
            arr = check_arrangement(hand, a.melds)
        except IllegalActionError as exc:
            raise IllegalActionError(N_("{error} (R5.2)", error=exc), a.text, legal) from None
        if a.kind == "gin" and arr.deadwood_value != 0:
            raise IllegalActionError(
                N_("that arrangement leaves {deadwood} deadwood: not a gin (R2.5, R6.1)", deadwood=arr.deadwood_value),
                a.text,
                legal,
            )
        if a.kind == "knock" and (s.knock_limit is None or arr.deadwood_value > s.knock_limit):
            raise IllegalActionError(
                N_(
                    "that arrangement leaves {deadwood} deadwood, above the knock limit {limit} (R5.1)",
                    deadwood=arr.deadwood_value,
                    limit=s.knock_limit,
                ),
                a.text,
                legal,
            )
    _set_hand(s, seat, hand)
    s.pile = s.pile + (c,)
    s.seen = (s.seen[0] & ~(1 << c), s.seen[1] & ~(1 << c))
    ev.append(Event(a.kind, seat, c))
    if s.rules.layout == "players" and a.melds is None:  # the knocker lays his melds himself (R5.6)
        s.phase = LAYOUT
        s.knocker = seat
        s.taken = None
        s.must_knock = False
        return
    _finish_showdown(s, seat, hand, a.melds, ev)


def _apply_meld(s: DealState, seat: int, a: Action, ev: list[Event]) -> None:
    assert a.melds is not None
    m = a.melds[0]
    _set_hand(s, seat, s.hands[seat] & ~m)
    s.laid = (s.laid[0] + (m,), s.laid[1]) if seat == 0 else (s.laid[0], s.laid[1] + (m,))
    ev.append(Event("meld", seat, (m & -m).bit_length() - 1))


def _apply_layoff(s: DealState, seat: int, a: Action, ev: list[Event]) -> None:
    c = a.card
    assert c is not None
    _set_hand(s, seat, s.hands[seat] & ~(1 << c))
    s.layoffs = s.layoffs + (c,)
    ev.append(Event("layoff", seat, c))


def _score_laid(s: DealState, ev: list[Event]) -> None:
    """Score the layouts the players made (R5.6): K is what the knocker kept out of his melds,
    D what the defender kept after his layoffs and melds; then R6.1-R6.3 as usual."""
    knocker = s.knocker
    assert knocker is not None
    defender = 1 - knocker
    kh, dh = s.hands[knocker], s.hands[defender]
    k, d = mask_value(kh), mask_value(dh)
    rules = s.rules
    s.phase = OVER
    s.to_act = None
    ev.append(_EV_END)
    if k == d and k > 0 and rules.tie == "nothing":
        s.result = DealResult(Outcome.DRAW, None, 0, knocker, None, "R6.3")
        return
    k_arr = Arrangement(s.laid[knocker], kh, k)
    onto: list[Layoff] = []
    laid: list[int] = []
    for c in s.layoffs:
        for m in s.laid[knocker]:
            if (layoff_cards((m,), laid) >> c) & 1:
                onto.append(Layoff(c, m))  # the knocker's meld as he laid it
                break
        laid.append(c)
    d_lay = DefenderLayout(s.laid[defender], tuple(onto), dh, d)
    mult = s.multiplier
    if k == 0:
        base = rules.gin_bonus + d
        sd = Showdown(Outcome.GIN, k_arr, d_lay, "knocker", base, mult, base * mult, rules.gin_bonus)
    elif k < d:
        sd = Showdown(Outcome.KNOCK, k_arr, d_lay, "knocker", d - k, mult, (d - k) * mult, 0)
    else:
        base = rules.undercut_bonus + k - d
        sd = Showdown(Outcome.UNDERCUT, k_arr, d_lay, "defender", base, mult, base * mult, rules.undercut_bonus)
    winner = knocker if sd.winner == "knocker" else defender
    s.result = DealResult(sd.outcome, winner, sd.points, knocker, sd)


def _apply_big_gin(s: DealState, seat: int, a: Action, ev: list[Event]) -> None:
    ev.append(Event("big_gin", seat))
    _finish_showdown(s, seat, s.hands[seat], None, ev)


_APPLY: dict[str, Callable[[DealState, int, Action, list[Event]], None]] = {
    "take_upcard": _apply_take_upcard,
    "pass": _apply_pass,
    "draw_stock": _apply_draw_stock,
    "take_discard": _apply_take_discard,
    "discard": _apply_discard,
    "knock": _apply_knock,
    "gin": _apply_knock,
    "big_gin": _apply_big_gin,
    "meld": _apply_meld,
    "layoff": _apply_layoff,
}

#: Every meld of one move (R5.6) in id order, and the shared actions laying them or a layoff.
_ALL_ONE_MOVE_MELDS: tuple[int, ...] = tuple(A.meld_mask(i) for i in range(A.NUM_MELD_IDS))
_MELD_ACTIONS: dict[int, Action] = {m: A.meld(m) for m in _ALL_ONE_MOVE_MELDS}
_LAYOFF_ACTIONS: tuple[Action, ...] = tuple(A.layoff(c) for c in range(52))


_REPEAT_INT = (int,) * 52
_ALL_CARDS = frozenset(range(52))


def new_deal(rules: RuleSet, dealer: int, deck: Sequence[int], *, seed: bytes | None = None) -> DealState:
    """Deal a new hand (R3.2) from ``deck``: 52 distinct card ints, deck[0:10] to the
    non-dealer, deck[10:20] to the dealer, deck[20] the upcard, deck[21:] the stock, top first.

    ``dealer`` is seat 0 or 1.  ``seed`` (bytes) is the source of reshuffles (R7.3); by default
    it is derived from the deck.  The knock limit and multiplier of the deal follow from the
    upcard (R5.1, R9).  Raises :class:`RecordError` for a deck that is not 52 distinct cards
    and ``ValueError`` for a bad dealer.

    >>> from ginrummy.cards import cards_str
    >>> from ginrummy.rules import preset
    >>> s = new_deal(preset("standard"), 0, list(range(52)))
    >>> s.phase, s.to_act, cards_str(s.hands[1]), [a.text for a in s.legal_actions()]
    ('upcard_offer', 1, 'AC 2C 3C 4C 5C 6C 7C 8C 9C TC', ['take upcard', 'pass'])
    >>> s2, events = s.apply(1, s.legal_actions()[1])
    >>> s2.phase, s2.to_act, events
    ('upcard_offer', 0, [Event(kind='pass', seat=1, card=None, private=False)])
    """
    if dealer not in (0, 1):
        raise RecordError(f"dealer must be seat 0 or 1, not {dealer!r}")
    deck = list(deck)
    # 52 ints (isinstance, as before: bools pass) whose set is 0..51: 52 distinct cards
    if len(deck) != 52 or not all(map(isinstance, deck, _REPEAT_INT)) or set(deck) != _ALL_CARDS:
        raise RecordError("a deck is the 52 distinct cards, each once")
    s = DealState.__new__(DealState)
    s.rules = rules
    s.dealer = dealer
    nd = mask_of(deck[0:10])
    dl = mask_of(deck[10:20])
    s.hands = (nd, dl) if dealer == 1 else (dl, nd)
    s.upcard = deck[20]
    s.pile = (deck[20],)
    s.stock = tuple(deck[21:])
    s.drawn = 0
    s.phase = UPCARD_OFFER
    s.to_act = 1 - dealer
    s.knock_limit = rules.deal_knock_limit(deck[20])
    s.multiplier = rules.deal_multiplier(deck[20])
    s.taken = None
    s.stock_only = False
    s.must_knock = False
    s.reshuffles = 0
    s.seen = (0, 0)
    s.result = None
    s.seed = seed if seed is not None else hashlib.sha256(bytes(deck)).digest()
    s.turn = 0
    s.offer_passes = 0
    s.repeat = False
    s.pile_takes = 0
    s.knocker = None
    s.laid = ((), ())
    s.layoffs = ()
    s.layoffs_done = False
    s._log = _Log([])
    s._nlog = 0
    s._logt = ()
    s._legal = None
    return s
