"""OpenSpiel's simple gin bot as a computer level of ours: ``openspiel-simple`` (registered only
when ``open-spiel`` is installed; ``pip install open-spiel``).

OpenSpiel's ``SimpleGinRummyBot`` (``open_spiel/bots/gin_rummy``) decides from its seat's
observation: its hand, the upcard or top discard, the knock card, whether the stock is at the
wall, and the legal actions.  For each decision this player builds an OpenSpiel ``gin_rummy``
state that shows the bot exactly that from our :class:`~ginrummy.views.PlayerView` (its hand, our
top discard, our deal's knock limit as OpenSpiel's ``knock_card``; the cards OpenSpiel deals to
the other seat are filler the bot never sees), asks the bot, and maps its answer back with
:mod:`ginrummy.interop.action_maps`.  So the bot plays in our engine, under our rules:

- upcard offer (R4.2), draw: it takes the card when that lets it knock, or when the card would
  belong to its best melds; else it passes or draws from the stock;
- discard: it knocks (or goes gin) as soon as its deadwood allows (R5.1), else it throws the
  highest deadwood card of its best melds;
- the wall (R7.2): it takes the discard whenever that lets it knock (the bot's own rule).

Where the bot's answer is not legal under our rules (it may throw the card it just took, which
R4.3 forbids unless ``discard_taken_card``), the novice's choice is played instead.  The level
has no ``hint`` of its own: the tables answer a hint with the novice's (the same strategy, and its
reasons are translated).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pyspiel  # raises ImportError without open-spiel: the level is then not registered

from ..actions import PASS, TAKE_DISCARD, Action
from ..cards import cards_of
from ..deal import DISCARD, DRAW, UPCARD_OFFER, WALL
from ..players.base import register
from ..players.simple import NovicePlayer
from ..views import PlayerView
from .action_maps import OS_DRAW_STOCK, OS_DRAW_UPCARD, OS_KNOCK, OS_PASS, from_openspiel
from .openspiel import card_to_os

__all__ = ["OpenSpielSimplePlayer"]


@lru_cache(maxsize=16)
def _game(knock_card: int) -> Any:
    return pyspiel.load_game("gin_rummy", {"knock_card": knock_card})


def _filler(used: int, n: int) -> list[int]:
    """``n`` cards (ours) not in ``used``, lowest first: the other seat's cards the bot never sees."""
    out = []
    for c in range(52):
        if not (used >> c) & 1:
            out.append(c)
            if len(out) == n:
                break
    return out


@register("openspiel-simple")
class OpenSpielSimplePlayer:
    """OpenSpiel's ``SimpleGinRummyBot`` deciding in our engine (see the module docstring).
    ``rng`` draws only the novice's tie-breaks in the rare fallback."""

    name = "openspiel-simple"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._novice = NovicePlayer(rng)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The bot's move for ``view`` (one of ``legal``)."""
        if len(legal) == 1:
            return legal[0]
        if view.phase == WALL:
            return TAKE_DISCARD if TAKE_DISCARD in legal else PASS
        code = self._ask(view)
        for a in legal:
            if code is not None and a.code == code:
                return a
        return self._novice.choose(view, legal)

    def _ask(self, view: PlayerView) -> int | None:
        knock = view.knock_limit if view.knock_limit is not None else 0
        game = _game(knock)
        st = game.new_initial_state()
        hand = view.hand
        top = view.pile[-1] if view.pile else None
        # the upcard offer and the draw always have a discard pile (R3.2, R4.1); without one, no answer
        if view.phase == UPCARD_OFFER and top is not None:
            # the bot is OpenSpiel's player 0 (first to be offered) or player 1 after a pass
            me = 0 if not view.history else 1
            other = _filler(hand | (1 << top), 10)
            hands = (cards_of(hand), other) if me == 0 else (other, cards_of(hand))
            for c in [*hands[0], *hands[1], top]:
                st.apply_action(card_to_os(c))
            if me == 1:
                st.apply_action(OS_PASS)
            phase = "FirstUpcard"
        elif view.phase == DRAW and top is not None:
            # the other seat (player 0) takes an upcard and throws our top discard; the bot draws
            (up,) = _filler(hand | (1 << top), 1)
            other = _filler(hand | (1 << top) | (1 << up), 9) + [top]
            for c in [*other, *cards_of(hand), up]:
                st.apply_action(card_to_os(c))
            st.apply_action(OS_DRAW_UPCARD)
            st.apply_action(card_to_os(top))
            phase = "Draw"
        elif view.phase == DISCARD:
            # as in the draw, then the bot draws one of its 11 cards from the stock
            cards = cards_of(hand)
            last = view.taken if view.taken is not None else cards[-1]
            ten = hand & ~(1 << last)
            used = hand | ((1 << top) if top is not None else 0)
            up, throw = _filler(used, 2)
            other = _filler(used | (1 << up) | (1 << throw), 9) + [throw]
            for c in [*other, *cards_of(ten), up]:
                st.apply_action(card_to_os(c))
            st.apply_action(OS_DRAW_UPCARD)
            st.apply_action(card_to_os(throw))
            st.apply_action(OS_DRAW_STOCK)
            st.apply_action(card_to_os(last))
            phase = "Discard"
        else:
            return None
        player = st.current_player()
        bot = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), player)
        first = bot.step(st)
        if phase == "Discard" and first == OS_KNOCK:
            st.apply_action(OS_KNOCK)
            second = bot.step(st)
            return from_openspiel([OS_KNOCK, second], "Discard", hand)
        if phase == "Discard" and view.must_knock:
            return None
        return from_openspiel([first], phase, hand)
