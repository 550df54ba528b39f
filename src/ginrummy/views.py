"""What one seat may see of a deal: the :class:`PlayerView` (DESIGN principle 3).

A computer player or a human adapter gets a ``PlayerView``, never a
:class:`~ginrummy.deal.DealState`.  It holds the seat's own cards, the discard pile, the
stock count (not its order), the opponent's card count and the cards he was seen taking from
the discard pile and still holds, the public history with the seat's own draws, and, once the
deal is over, its result (the rules then reveal both layouts).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .cards import CARD_STRS, card_str, cards_of
from .deal import OVER, DealResult, DealState, Event
from .rules import RuleSet

__all__ = ["PlayerView", "view_of", "spectator_json"]


@dataclass(frozen=True)
class PlayerView:
    """One seat's view of a deal.

    Attributes:
        seat: the seat seen from (0 or 1).
        rules: the rule set.
        phase: the deal's phase (``upcard_offer``, ``draw``, ``discard``, ``wall``, ``over``;
            ``layout`` and ``layoff`` under ``layout="players"``, R5.6).
        to_act: the seat to act, ``None`` when over.
        dealer: the dealer's seat.
        hand: card-set mask of the seat's own cards.
        pile: the discard pile, bottom to top (card ints).
        stock_size: cards left in the stock.
        opponent_count: cards in the opponent's hand.
        opponent_seen: mask of cards the opponent was seen taking from the pile and still holds.
        upcard: the first upcard of the deal.
        knock_limit: the deal's knock limit (points) or ``None`` (gin only).
        multiplier: 2 for an Oklahoma spade deal (R9.3), else 1.
        taken: the card this seat took from the pile this turn (R4.3), or ``None``.
        stock_only: the first draw after both passed the upcard (R4.2).
        must_knock: the card was taken at the wall (R7.2).
        legal: the legal actions, if this seat is to act; else empty.
        history: the deal's events as this seat sees them (others' stock draws hidden).
        result: the deal's result once over (layouts are then public), else ``None``.
        reshuffles: how many times the stock was rebuilt (R7.3).
        scores: optional match context given by the caller (names, totals), never hidden cards.
        knocker: the seat that knocked, during the layout decisions (R5.6), else ``None``.
        laid: (seat 0, seat 1): the melds (card-set masks) each seat has laid in the layout
            decisions (R5.6), in order; public, empty outside them.
        layoffs: the cards the defender has laid off so far (R5.6), in order; public.
        layoffs_done: the defender has finished laying off (R5.6).
    """

    seat: int
    rules: RuleSet
    phase: str
    to_act: int | None
    dealer: int
    hand: int
    pile: tuple[int, ...]
    stock_size: int
    opponent_count: int
    opponent_seen: int
    upcard: int
    knock_limit: int | None
    multiplier: int
    taken: int | None
    stock_only: bool
    must_knock: bool
    legal: tuple[Action, ...]
    history: tuple[Event, ...]
    result: DealResult | None
    reshuffles: int = 0
    scores: dict[str, Any] = field(default_factory=dict, compare=False)
    knocker: int | None = None
    laid: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    layoffs: tuple[int, ...] = ()
    layoffs_done: bool = False

    @property
    def my_turn(self) -> bool:
        """Whether this seat is to act."""
        return self.to_act == self.seat

    @property
    def top_discard(self) -> int | None:
        """The top card of the discard pile, or ``None``."""
        return self.pile[-1] if self.pile else None

    @property
    def hand_cards(self) -> list[int]:
        """The seat's cards as ints, ascending."""
        return cards_of(self.hand)

    def to_json(self, history_texts: Sequence[str] | None = None, *, agent: bool = False) -> dict[str, Any]:
        """A JSON-ready dict with cards in text form (used by the web protocol).

        ``history_texts``: the texts of :attr:`history` (``Event.text`` of each), when the
        caller keeps them already (the web table extends them step by step); else built here.

        ``agent=True`` (for programs: the envs' text mode, ``docs/env.md``) adds three keys the
        web protocol does not send: ``legal_codes``, the integer code of each legal action
        (:attr:`~ginrummy.actions.Action.code`, 0..160, in the order of ``legal_actions``);
        ``scores``, the match context of :attr:`scores` (names, totals, deal number, seat
        players, three-hand roles; ``{}`` when the caller gave none), with every key a string;
        and ``rules``, the rule set's fields (R14).  Without it the dict is the web's, unchanged."""
        out = self._json(history_texts)
        if agent:
            out["legal_codes"] = [a.code for a in self.legal]
            out["scores"] = _jsonable(self.scores)
            out["rules"] = self.rules.to_dict()
        return out

    def _json(self, history_texts: Sequence[str] | None) -> dict[str, Any]:
        cs = CARD_STRS  # the engine's cards are ints 0..51: no need to check each (card_str)
        return {
            "seat": self.seat,
            "phase": self.phase,
            "to_act": self.to_act,
            "dealer": self.dealer,
            "hand": [cs[c] for c in cards_of(self.hand)],
            "discard_pile": [cs[c] for c in self.pile],
            "stock_size": self.stock_size,
            "opponent_count": self.opponent_count,
            "opponent_seen": [cs[c] for c in cards_of(self.opponent_seen)],
            "upcard": card_str(self.upcard),
            "knock_limit": self.knock_limit,
            "multiplier": self.multiplier,
            "taken": None if self.taken is None else cs[self.taken],
            "legal_actions": [a.text for a in self.legal],
            "history": [e.text for e in self.history] if history_texts is None else history_texts,
            "result": None if self.result is None else self.result.to_json(),
        }


def _jsonable(value: Any) -> Any:
    """``value`` with every mapping key a string and tuples as lists (what ``json.dumps`` keeps)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def view_of(state: DealState, seat: int, *, scores: dict[str, Any] | None = None) -> PlayerView:
    """The :class:`PlayerView` of ``seat`` (0 or 1) in ``state``.

    ``scores`` is optional match context (for example names and totals) passed through.
    Raises ``ValueError`` for a seat other than 0 or 1.
    """
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    other = 1 - seat
    mine = state.to_act == seat
    # Speed: a frozen dataclass's __init__ sets each of its 25 fields through
    # object.__setattr__ (about 9 us a view); filling the instance dict directly gives the same
    # object (same fields, equality, repr, dataclasses.replace) in about 1 us.
    view = _NEW(PlayerView)
    view.__dict__.update(
        seat=seat,
        rules=state.rules,
        phase=state.phase,
        to_act=state.to_act,
        dealer=state.dealer,
        hand=state.hands[seat],
        pile=state.pile,
        stock_size=state.stock_size,
        opponent_count=state.hands[other].bit_count(),
        opponent_seen=state.seen[other],
        upcard=state.upcard,
        knock_limit=state.knock_limit,
        multiplier=state.multiplier,
        taken=state.taken if mine else None,
        stock_only=state.stock_only,
        must_knock=state.must_knock,
        legal=tuple(state.legal_actions()) if mine and state.phase != OVER else (),
        history=state.history(seat),
        result=state.result,
        reshuffles=state.reshuffles,
        scores=dict(scores) if scores else {},
        knocker=state.knocker,
        laid=state.laid,
        layoffs=state.layoffs,
        layoffs_done=state.layoffs_done,
    )
    return view


_NEW = object.__new__


def spectator_json(state: DealState) -> dict[str, Any]:
    """What a spectator may see of a deal, JSON-ready, in the shape of
    :meth:`PlayerView.to_json` (``seat`` ``None``, ``hand`` empty, no legal actions): the
    discard pile, the stock count, both hands' card counts (``hand_counts``), the cards each
    seat was seen taking from the pile and still holds (``seen``, R4), the history with every
    stock draw hidden, and the result once over (the layouts are then public, R5.2-R5.5).
    Never a card of a hand that was not shown."""
    return {
        "seat": None,
        "phase": state.phase,
        "to_act": state.to_act,
        "dealer": state.dealer,
        "hand": [],
        "hand_counts": [state.hands[0].bit_count(), state.hands[1].bit_count()],
        "seen": [[card_str(c) for c in cards_of(state.seen[s])] for s in (0, 1)],
        "discard_pile": [card_str(c) for c in state.pile],
        "stock_size": state.stock_size,
        "opponent_count": state.hands[1].bit_count(),
        "opponent_seen": [card_str(c) for c in cards_of(state.seen[1])],
        "upcard": card_str(state.upcard),
        "knock_limit": state.knock_limit,
        "multiplier": state.multiplier,
        "taken": None,
        "legal_actions": [],
        "history": [e.seen_by(None).text for e in state.log],
        "result": None if state.result is None else state.result.to_json(),
    }
