"""RLCard's gin rummy rule agent as a computer level of ours: ``rlcard-rule`` (registered only
when ``rlcard`` is installed; ``pip install rlcard``).

RLCard's ``GinRummyNoviceRuleAgent`` (``rlcard/models/gin_rummy_rule_models.py``) decides from
its legal action ids and its hand (``state["obs"][0]``): it goes gin when it may, else knocks
when it may (a random one of its knocks), else throws a card that leaves the least deadwood (a
random one of the ties); every other decision (draw from the stock or take the discard) is a
random choice among the legal actions.  For each decision this player gives the agent exactly
that, from our :class:`~ginrummy.views.PlayerView`: our legal actions as RLCard ids
(:func:`ginrummy.interop.action_maps.to_rlcard`) and our hand as RLCard's 52-card plane, calls
the agent's own ``step``, and plays the action of ours the id stands for.  So the agent plays in
our engine, under our rules.

Where RLCard has no action for ours, the nearest one stands in: the upcard offer (R4.2, which
RLCard does not have: it deals the upcard to the non-dealer) is "pick up the discard" (take
the upcard) or "draw a card" (pass); at the wall (R7.2) passing is "declare a dead hand";
big gin (R6.5, not in RLCard) is its gin and is preferred to a gin with a discard.  So those
decisions are random choices, as the agent makes every decision that is not a gin, knock or
discard.

The agent draws its random choices from numpy's global generator (``np.random.choice``); this
player seeds that generator from its own ``rng`` for each call and puts its state back after,
so the level is reproducible given its seed and leaves the global generator as it found it.
"""

from __future__ import annotations

import importlib.util
import random
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

if importlib.util.find_spec("rlcard") is None:  # the level is left out without rlcard (load_levels)
    raise ImportError("rlcard is not installed: pip install 'ginrummy[research]'")
# rlcard itself is imported when the level is first made, not when the levels are loaded: its
# import runs `pip freeze` in a subprocess, which a server starting (gin serve loads every level
# before it answers) must not wait for, nor leave behind broken when it is stopped at once

from ..actions import Action
from ..cards import cards_of
from ..deal import UPCARD_OFFER, WALL
from ..players.base import register
from ..views import PlayerView
from .action_maps import RL_DEAD_HAND, RL_DRAW, RL_GIN, RL_PICK_UP, card_to_rlcard, to_rlcard

__all__ = ["RLCardRulePlayer", "rlcard_ids"]


def rlcard_ids(view: PlayerView, legal: Sequence[Action]) -> dict[int, Action]:
    """RLCard action id -> our legal action, for the decision of ``view`` (module docstring):
    ``to_rlcard`` of each code, the upcard offer's take and pass as pick up and draw, the wall's
    pass as a dead hand, big gin as gin (kept over a gin with a discard).  Every legal action
    whose id another already holds (the other gins) is left out."""
    out: dict[int, Action] = {}
    for a in legal:
        if a.kind == "big_gin":
            out[RL_GIN] = a  # preferred: set over any gin already there
            continue
        if view.phase == UPCARD_OFFER:
            rid = RL_PICK_UP if a.kind == "take_upcard" else RL_DRAW
        elif view.phase == WALL and a.kind == "pass":
            rid = RL_DEAD_HAND
        else:
            r = to_rlcard(a.code)
            if r is None:
                continue
            rid = r
        if rid not in out:
            out[rid] = a
    return out


@register("rlcard-rule")
class RLCardRulePlayer:
    """RLCard's ``GinRummyNoviceRuleAgent`` deciding in our engine (see the module docstring).
    ``rng`` seeds the agent's random choices.  Not offered in the web lobby (``lobby = False``)."""

    name = "rlcard-rule"
    lobby = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        from rlcard.models.gin_rummy_rule_models import GinRummyNoviceRuleAgent

        self._agent = GinRummyNoviceRuleAgent()

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The agent's move for ``view`` (one of ``legal``)."""
        if len(legal) == 1:
            return legal[0]
        ids = rlcard_ids(view, legal)
        if not ids:  # pragma: no cover - every decision maps (test_rlcard_rule)
            return self.rng.choice(list(legal))
        plane = np.zeros((5, 52), dtype=int)
        for c in cards_of(view.hand):
            plane[0, card_to_rlcard(c)] = 1
        state = {"obs": plane, "legal_actions": OrderedDict((i, None) for i in ids)}
        saved = np.random.get_state()
        try:
            np.random.seed(self.rng.getrandbits(32))
            rid = int(self._agent.step(state))
        finally:
            np.random.set_state(saved)
        return ids[rid]
