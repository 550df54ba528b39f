"""The computer levels' play in the layout decisions (R5.6, ``layout="players"``).

Under ``layout="players"`` (OpenSpiel's rules) the knocker lays his melds one by one and
passes; the defender lays off cards on the knocker's melds, passes, lays his own melds and
passes.  The levels were written for the engine's layout (R5.2-R5.5), so in these phases every
level but ``random`` plays one simple correct policy, :func:`layout_move`:

- lay the melds of the engine's best arrangement of the cards held
  (:func:`~ginrummy.melds.best_arrangement`; a run longer than one move allows, R5.6, is laid
  in parts), then pass;
- as defender, first lay off every card that can be laid off without raising the deadwood of
  the cards kept (a card of one's own meld stays), then pass.

It sees the :class:`~ginrummy.views.PlayerView` and the legal actions only (no ``deal``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import Action, ActionKind
from ..melds import best_arrangement, deadwood
from ..views import PlayerView

__all__ = ["LAYOUT_PHASE_NAMES", "layout_move", "choose_move"]

#: the phases of the layout decisions (``deal.LAYOUT_PHASES``, as strings: the players do not
#: import ``deal``)
LAYOUT_PHASE_NAMES = ("layout", "layoff")


def layout_move(view: PlayerView, legal: Sequence[Action]) -> Action:
    """The simple policy's move (module docstring) for ``view`` in a layout phase (R5.6): one
    of ``legal``.  Raises ``ValueError`` when ``legal`` is empty."""
    legal = list(legal)
    if not legal:
        raise ValueError("no legal action to choose from")
    hand = view.hand
    layoffs = [a for a in legal if a.kind == ActionKind.LAYOFF]
    if layoffs:
        now = deadwood(hand)
        for a in layoffs:
            assert a.card is not None
            if deadwood(hand & ~(1 << a.card)) <= now:
                return a
    melds = {a.melds[0]: a for a in legal if a.kind == ActionKind.MELD and a.melds}
    if melds:
        for target in best_arrangement(hand).melds:
            if target in melds:
                return melds[target]
            # a run longer than one move: its lowest legal part whose rest is still a meld
            for m, a in sorted(melds.items()):
                rest = target & ~m
                if m & target == m and (rest == 0 or deadwood(rest) == 0):
                    return a
    for a in legal:
        if a.kind == ActionKind.PASS:
            return a
    return legal[0]


def choose_move(player: Any, view: PlayerView, legal: Sequence[Action]) -> Action:
    """``player``'s move (a :class:`~ginrummy.players.base.Player`): :func:`layout_move` in
    the layout phases (R5.6) unless the player is the ``random`` level (which stays random),
    else ``player.choose(view, legal)``."""
    if view.phase in LAYOUT_PHASE_NAMES and getattr(player, "name", None) != "random":
        return layout_move(view, legal)
    return player.choose(view, legal)
