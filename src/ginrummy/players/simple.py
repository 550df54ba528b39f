"""The ``random`` player and the ``novice`` player, which plays the classic baseline
strategy of the EAAI Gin Rummy challenge exactly."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..cards import card_str
from ..errors import N_
from ..melds import deadwood_after_discards, melds_with
from ..views import PlayerView
from .base import register

__all__ = ["RandomPlayer", "NovicePlayer", "melds_with"]


@register("random")
class RandomPlayer:
    """Chooses uniformly at random among the legal actions (with ``rng``)."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """A uniformly random legal action."""
        return self.rng.choice(list(legal))

    def hint(self, view: PlayerView, legal: Sequence[Action]) -> tuple[Action, str]:
        """The action and why: it is random."""
        return self.choose(view, legal), N_("a random legal move")


@register("novice")
class NovicePlayer:
    """The classic baseline of the EAAI Gin Rummy challenge (SimpleGinRummyPlayer):

    - takes the upcard or the top discard only if it would belong to some meld with the cards
      in hand, else draws from the stock (passes the upcard offer, R4.2);
    - discards, uniformly at random, one of the cards whose discard leaves the least deadwood,
      never the card just taken from the discard pile and never repeating a (drawn card,
      discarded card) pair of the same deal;
    - knocks (or goes gin) at the first legal chance;
    - as defender, lays out the arrangement with the least deadwood (the engine's layout).
    """

    name = "novice"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        # Speed: what the last scan of a history found, (history, drawn, pairs, seat), so the
        # next turn reads only the new events when the history goes on from the same prefix.
        self._scan: tuple[tuple, int | None, set[tuple[int, int]], int] | None = None

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The baseline move for ``view`` (see the class docstring)."""
        return self.hint(view, legal)[0]

    def hint(self, view: PlayerView, legal: Sequence[Action]) -> tuple[Action, str]:
        """The baseline move and the reason for it (a :class:`~ginrummy.errors.Msg`: English text that
        :func:`ginrummy.i18n.translate_error` says in another language; cards as text, ``7H``)."""
        kinds: dict[str, Action] = {a.kind: a for a in legal}
        top = view.top_discard
        if "big_gin" in kinds:
            return kinds["big_gin"], N_("all eleven cards are melded: big gin")
        if view.phase in ("upcard_offer", "draw", "wall"):
            # the offered card when it makes a meld with the hand, else None
            want = top if top is not None and melds_with(top, view.hand) else None
            if view.phase == "upcard_offer":
                if want is not None:
                    return kinds["take_upcard"], N_("{card} makes a meld with the hand", card=card_str(want))
                return kinds["pass"], N_("the upcard makes no meld with the hand")
            if view.phase == "wall":
                if "take_discard" not in kinds:  # the forced pass of wall_forced_pass (R7.2)
                    return legal[0], N_("the only legal move")
                return kinds["take_discard"], N_("taking the discard allows a knock")
            if want is not None and "take_discard" in kinds:
                return kinds["take_discard"], N_("{card} makes a meld with the hand", card=card_str(want))
            return kinds["draw_stock"], N_("the top discard makes no meld with the hand")
        return self._discard(view, legal)

    def _discard(self, view: PlayerView, legal: Sequence[Action]) -> tuple[Action, str]:
        hand = view.hand
        drawn, pairs = self._drawn_and_pairs(view)
        best = None
        candidates: list[int] = []
        allowed = sorted({a.card for a in legal if a.card is not None})
        after = deadwood_after_discards(hand, allowed)
        for c in allowed:
            if c == view.taken:
                continue
            if drawn is not None and (min(drawn, c), max(drawn, c)) in pairs:
                continue
            d = after[c]
            if best is None or d < best:
                best, candidates = d, [c]
            elif d == best:
                candidates.append(c)
        if not candidates:  # every card excluded: fall back to the least deadwood among all
            for c in allowed:
                d = after[c]
                if best is None or d < best:
                    best, candidates = d, [c]
                elif d == best:
                    candidates.append(c)
        c = self.rng.choice(candidates)
        by_kind: dict[tuple[str, int | None], Action] = {(a.kind, a.card): a for a in legal}
        if best == 0 and ("gin", c) in by_kind:
            return by_kind[("gin", c)], N_("discarding {card} leaves gin", card=card_str(c))
        if ("knock", c) in by_kind:
            return by_kind[("knock", c)], N_(
                "discarding {card} leaves {deadwood} deadwood: knock at once", card=card_str(c), deadwood=best
            )
        return by_kind[("discard", c)], N_(
            "discarding {card} leaves the least deadwood ({deadwood})", card=card_str(c), deadwood=best
        )

    def _drawn_and_pairs(self, view: PlayerView) -> tuple[int | None, set[tuple[int, int]]]:
        """:func:`_drawn_and_pairs` of ``view``, reading only the events added since the last
        call when the history goes on from the one seen then (same deal, same seat)."""
        history = view.history
        scan = self._scan
        if (
            scan is not None
            and scan[0]
            and len(scan[0]) <= len(history)
            and history[: len(scan[0])] == scan[0]
            and scan[3] == view.seat
        ):
            drawn, pairs = _scan_history(history, len(scan[0]), view.seat, scan[1], set(scan[2]))
        else:
            drawn, pairs = _scan_history(history, 0, view.seat, None, set())
        self._scan = (history, drawn, pairs, view.seat)
        return drawn, pairs


def _drawn_and_pairs(view: PlayerView) -> tuple[int | None, set[tuple[int, int]]]:
    """The card this seat drew this turn, and the (drawn, discarded) pairs of its earlier turns."""
    return _scan_history(view.history, 0, view.seat, None, set())


def _scan_history(
    history: Sequence, start: int, seat: int, drawn: int | None, pairs: set[tuple[int, int]]
) -> tuple[int | None, set[tuple[int, int]]]:
    """Go on scanning ``history[start:]`` for :func:`_drawn_and_pairs` from ``drawn`` and
    ``pairs`` (updated in place)."""
    for e in history[start:]:
        if e.seat != seat:
            continue
        if e.kind in ("draw_stock", "take_discard", "take_upcard"):
            drawn = e.card
        elif e.kind == "discard" and e.card is not None:
            if drawn is not None:
                pairs.add((min(drawn, e.card), max(drawn, e.card)))
            drawn = None
    return drawn, pairs
