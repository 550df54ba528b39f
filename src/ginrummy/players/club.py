"""The ``club`` player: fast rules of good play, from the :class:`PlayerView` alone.

* It tracks the dead cards (the discard pile) and the cards known in the opponent's hand, and
  estimates for every unknown card the chance that the opponent holds it from the cards he
  took, passed and threw: by default with the learned opponent model
  (:func:`ginrummy.players.opponent_model.holding_weights`, and the chance he melds a discard
  :func:`~ginrummy.players.opponent_model.meld_chance`); with ``opponent_model="rules"`` as
  before, by hand-made factors (:func:`ginrummy.players.inference.card_weights` and
  :func:`danger`).
* Discards (R4.1): each candidate is scored by the deadwood it leaves (R2.4), minus the
  expected deadwood saved by the next draw from the stock (cards that make many melds with
  live cards are kept), plus the danger of the discard: the chance that the opponent can meld
  it, times a weight that grows with the card's value to him.
* Draws (R4.1, R4.2): the upcard or top discard is taken when the best hand after taking it
  beats the expected hand after a stock draw (by a margin when it makes no meld: taking shows
  the opponent what we collect).
* Knocks (R5.1): the knock point falls as the stock shrinks (the opponent's hand improves and
  an undercut, R6.3, grows likelier); with very low deadwood early it plays on for gin (R6.1)
  unless the score says a sure small win ends the game; gin is always taken.  When one deal is
  the whole game (``scoring="deal"``, R11.1) it knocks as soon as it may: only winning counts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..cards import CARD_VALUES, card_str, cards_of
from ..errors import N_, Msg
from ..melds import best_discard_deadwood, best_discard_deadwood_except, deadwood
from ..views import PlayerView
from .base import register, stock_draw_due
from .inference import Knowledge, card_weights, danger, melds_with, read_view

#: The opponent models a player can use: the learned one (the club player's default) and the hand-made rules (the expert's).
OPPONENT_MODELS = ("learned", "rules")

__all__ = [
    "ClubPlayer",
    "danger",
    "draw_deadwoods",
    "expected_draw_gain",
    "knock_point",
    "score_context",
    "stock_chances",
    "OPPONENT_MODELS",
]

#: Deadwood points charged per unit of danger (chance the opponent melds the discard).
DANGER_WEIGHT = 6.0
#: Weight of the expected deadwood saved by the next stock draw.
POTENTIAL_WEIGHT = 0.4
#: Extra points a take must gain when the taken card makes no meld.
TAKE_MARGIN = 2.0


def knock_point(limit: int, stock_size: int, my_turns: int) -> int:
    """The most deadwood (points) the club player knocks with: the deal's knock ``limit``
    (R5.1) early, falling as the deal goes on (``stock_size`` cards left, ``my_turns`` turns
    played), to no less than ``limit // 3``."""
    fall = 0
    if my_turns > 5:
        fall += my_turns - 5
    if stock_size < 12:
        fall += (12 - stock_size) // 3
    return max(limit // 3, limit - fall)


def score_context(view: PlayerView) -> tuple[int, int, int] | None:
    """(our points, the opponent's points, target) of the game in play, from the match context
    the view carries (``scores``), or ``None`` when it has none or the scoring is not a single
    game to a target (R11.1)."""
    sc = view.scores or {}
    totals = sc.get("totals")
    seats = sc.get("seat_players")
    if not totals or not seats or view.rules.scoring != "game":
        return None
    try:
        return int(totals[seats[view.seat]]), int(totals[seats[1 - view.seat]]), view.rules.target
    except (IndexError, TypeError, ValueError):
        return None


def _one_decimal(x: float) -> float:
    """``x`` rounded to one decimal (``-0.0`` as ``0.0``), for a reason's number: ``12.34`` ->
    ``12.3``, written ``12.3`` in English and ``12,3`` in Greek by the translation layer."""
    return round(x, 1) + 0.0


def stock_chances(k: Knowledge, w: Sequence[float]) -> tuple[list[int], list[float]]:
    """The unknown cards and the chance that each is the next stock card: in proportion to the
    chance that the opponent does not hold it (``w``, the chance he holds each card)."""
    cards = cards_of(k.unknown)
    raw = [max(0.0, 1.0 - w[c]) for c in cards]
    total = sum(raw) or 1.0
    return cards, [x / total for x in raw]


def draw_deadwoods(view: PlayerView, k: Knowledge, top: int, stock: tuple[list[int], list[float]]) -> tuple[int, float]:
    """``(take, stock)``: the deadwood (points) our hand keeps after taking ``top`` (the upcard
    or top discard, R4.1, R4.2) and its best discard (not ``top`` itself unless the rules allow
    it, R4.3), and the deadwood expected after a stock draw and its best discard, ``stock``
    being the unknown cards and their chances of :func:`stock_chances`."""
    h = k.hand
    take = best_discard_deadwood_except(h | (1 << top), None if view.rules.discard_taken_card else top)
    return take, sum(p * best_discard_deadwood(h | (1 << x)) for x, p in zip(*stock))


def expected_draw_gain(h: int, dw: int, stock_cards: list[int], sw: list[float]) -> float:
    """Expected deadwood saved by drawing one stock card into the 10-card hand ``h`` (``dw``
    deadwood now), the stock's cards and their chances from :func:`stock_chances`."""
    total = 0.0
    for x, p in zip(stock_cards, sw):
        gain = dw - best_discard_deadwood(h | (1 << x))
        if gain > 0:
            total += p * gain
    return total


@register("club")
class ClubPlayer:
    """Rules of good play (see the module docstring).  ``rng`` breaks exact ties only.

    ``opponent_model``: ``"learned"`` (default) or ``"rules"`` (:data:`OPPONENT_MODELS`); raises
    ``ValueError`` for another."""

    name = "club"
    #: the weights of the rules (an experiment changes them on one instance)
    danger_weight = DANGER_WEIGHT
    potential_weight = POTENTIAL_WEIGHT
    take_margin = TAKE_MARGIN

    def __init__(self, rng: random.Random, opponent_model: str = "learned") -> None:
        if opponent_model not in OPPONENT_MODELS:
            raise ValueError(f"opponent_model must be one of {', '.join(OPPONENT_MODELS)}, not {opponent_model!r}")
        self.rng = rng
        self.opponent_model = opponent_model

    def weights(self, k: Knowledge) -> list[float]:
        """For each card 0..51 the chance that the opponent holds it, by this player's model
        (the last answer is kept: the expert asks again for the same view)."""
        cached = getattr(self, "_cached", None)
        if cached is not None and cached[0] == k:
            return list(cached[1])
        if self.opponent_model == "learned":
            from .opponent_model import holding_weights

            w = holding_weights(k)
        else:
            w = card_weights(k)
        self._cached = (k, w)
        return list(w)

    def meld_chance(self, c: int, w: Sequence[float]) -> float:
        """The chance (0..1) that the opponent can meld card ``c`` given the weights ``w`` of
        :meth:`weights`, by this player's model."""
        if self.opponent_model == "learned":
            from .opponent_model import meld_chance

            return meld_chance(c, list(w))
        return danger(c, w)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The club move for ``view``: one of ``legal``."""
        return self.hint(view, legal)[0]

    def hint(self, view: PlayerView, legal: Sequence[Action]) -> tuple[Action, str]:
        """The club move and the reason for it (a :class:`~ginrummy.errors.Msg`: English text that
        :func:`ginrummy.i18n.translate_error` says in another language; cards as text, ``7H``;
        numbers as params, so they are written in the language's format)."""
        legal = list(legal)
        kinds: dict[str, Action] = {a.kind: a for a in legal}
        if "big_gin" in kinds:
            return kinds["big_gin"], N_("all eleven cards are melded: big gin (R6.5)")
        if len(legal) == 1:
            return legal[0], N_("the only legal move")
        due = stock_draw_due(view, legal)
        if due is not None:
            return due
        k = read_view(view)
        w = self.weights(k)
        if view.phase == "wall":
            return kinds["take_discard"], N_("taking the last discard allows a knock (R7.2)")
        if view.phase in ("upcard_offer", "draw"):
            return self._draw(view, k, w, kinds)
        return self._discard(view, k, w, legal)

    # -- drawing -------------------------------------------------------------------------

    def _draw(self, view: PlayerView, k: Knowledge, w: list[float], kinds: dict[str, Action]) -> tuple[Action, str]:
        top = view.top_discard
        take = kinds.get("take_upcard") or kinds.get("take_discard")
        other = kinds.get("pass") or kinds.get("draw_stock")
        assert other is not None, "the upcard offer allows pass, the draw draw_stock (R4.1, R4.2)"
        if take is None or top is None:
            return other, N_("draw from the stock")
        take_dw, stock_dw = draw_deadwoods(view, k, top, stock_chances(k, w))
        meld = melds_with(top, k.hand)
        margin = 0.0 if meld else self.take_margin
        if take_dw + margin < stock_dw:
            if meld:
                return take, N_(
                    "take {card}: it makes a meld (deadwood {deadwood} after the discard, "
                    "against {expected} expected from the stock)",
                    card=card_str(top),
                    deadwood=take_dw,
                    expected=_one_decimal(stock_dw),
                )
            return take, N_(
                "take {card}: it lowers the deadwood (deadwood {deadwood} after the discard, "
                "against {expected} expected from the stock)",
                card=card_str(top),
                deadwood=take_dw,
                expected=_one_decimal(stock_dw),
            )
        return other, N_(
            "leave {card}: the stock is expected to leave {expected} deadwood, taking it {deadwood}",
            card=card_str(top),
            expected=_one_decimal(stock_dw),
            deadwood=take_dw,
        )

    # -- discarding and knocking -----------------------------------------------------------

    def _discard(self, view: PlayerView, k: Knowledge, w: list[float], legal: list[Action]) -> tuple[Action, str]:
        by: dict[tuple[str, int | None], Action] = {(a.kind, a.card): a for a in legal}
        gins = [a for a in legal if a.kind == "gin"]
        if gins:
            return gins[0], N_("discarding {card} leaves gin (R6.1)", card=card_str(gins[0].card))  # type: ignore[arg-type]
        hand = k.hand
        cands = sorted({a.card for a in legal if a.card is not None})
        dws = {c: deadwood(hand & ~(1 << c)) for c in cands}
        knocks = [c for c in cands if ("knock", c) in by]
        if knocks:
            c = min(knocks, key=lambda x: (dws[x], -CARD_VALUES[x], x))
            d = dws[c]
            decision, why = self._should_knock(view, k, d)
            if decision:
                return by[("knock", c)], N_(
                    "knock discarding {card} with {deadwood} deadwood: {why}", card=card_str(c), deadwood=d, why=why
                )
        discards = [c for c in cands if ("discard", c) in by]
        if not discards:  # must knock (wall, R7.2)
            c = min(knocks, key=lambda x: (dws[x], x))
            return by[("knock", c)], N_(
                "knock discarding {card}: a card taken at the wall must knock (R7.2)", card=card_str(c)
            )
        best_dw = min(dws[c] for c in discards)
        cards, sw = stock_chances(k, w)
        turns_left = max(1.0, min(4.0, k.stock_size / 6))
        scored = []
        for c in discards:
            if dws[c] > best_dw + 12:
                continue
            h = hand & ~(1 << c)
            pot = expected_draw_gain(h, dws[c], cards, sw)
            dan = self.meld_chance(c, w)
            score = (
                dws[c]
                - self.potential_weight * turns_left * pot
                + self.danger_weight * dan * (0.5 + CARD_VALUES[c] / 20)
            )
            scored.append((score, -CARD_VALUES[c], c, pot, dan))
        scored.sort()
        s, _, c, pot, dan = scored[0]
        reason = N_(
            "discard {card}: leaves {deadwood} deadwood, next draw saves {saving} on average, "
            "the opponent melds it with a chance of {percent}%",
            card=card_str(c),
            deadwood=dws[c],
            saving=_one_decimal(pot),
            percent=round(100 * dan),
        )
        if knocks:
            reason = N_(
                "{reason}; not knocking: {why}",
                reason=reason,
                why=self._should_knock(view, k, min(dws[x] for x in knocks))[1],
            )
        return by[("discard", c)], reason

    def _should_knock(self, view: PlayerView, k: Knowledge, d: int) -> tuple[bool, Msg]:
        limit = view.knock_limit if view.knock_limit is not None else 0
        if view.rules.scoring == "deal" and d <= limit:
            # R11.1: the deal is the whole game, and only winning it counts: a gin or a bigger
            # win is worth no more, while every turn played on gives the opponent a chance to
            # knock first.
            return True, N_("one deal is the whole game (R11.1): knock at once to win it")
        ctx = score_context(view)
        if ctx is not None:
            mine, theirs, target = ctx
            if mine + 10 >= target and d <= limit:
                return True, N_("a small win likely ends the game")
        point = knock_point(limit, k.stock_size, k.my_turns)
        if d <= 1 and k.my_turns <= 3 and k.stock_size > 20:
            return False, N_("{deadwood} deadwood this early: play on for gin", deadwood=d)
        if d <= point:
            return True, N_("within the knock point {point} for this stage of the deal", point=point)
        return False, N_(
            "{deadwood} deadwood is above the knock point {point} for this stage (undercut risk)",
            deadwood=d,
            point=point,
        )
