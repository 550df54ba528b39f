"""The OpenSpiel mode: our engine under :data:`~ginrummy.interop.openspiel.OPENSPIEL_RULES` plays
OpenSpiel's ``gin_rummy`` exactly, decision by decision (docs/env.md, "The OpenSpiel mode").

Those rules (R5.6, R6.3, R7.2, R7.4, R7.5) make the engine ask for every decision OpenSpiel
asks for: the forced pass at the wall, the knocker's melds one by one, the defender's layoffs
and melds.  :func:`to_openspiel_action` and :func:`from_openspiel_action` map each of our
actions in a state to OpenSpiel's action ids and back (a knock or gin of ours is OpenSpiel's
55 and then the discard: :func:`openspiel_legal` reports the first, :class:`Replay` feeds the
second).  :func:`replay` replays an OpenSpiel game (its action history) through the engine and
lists every disagreement in legal actions and returns.  pyspiel is imported by callers only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import actions as A
from ..actions import Action
from ..deal import DISCARD, OVER, WALL, DealState, new_deal
from ..rules import RuleSet
from .openspiel import OPENSPIEL_RULES, card_to_os, os_to_card

__all__ = [
    "os_meld_id",
    "meld_of_os_id",
    "to_openspiel_action",
    "from_openspiel_action",
    "openspiel_legal",
    "Replay",
    "replay",
    "returns_of",
]

OS_DRAW_UPCARD, OS_DRAW_STOCK, OS_PASS, OS_KNOCK, OS_MELD_BASE = 52, 53, 54, 55, 56


def os_meld_id(mask: int) -> int:
    """OpenSpiel's meld id (0..184) of our meld ``mask`` (a set of 3-4 or a run of 3-5, R5.6):
    :func:`~ginrummy.actions.meld_id` of the meld written in OpenSpiel's cards."""
    return A.meld_id(sum(1 << card_to_os(c) for c in range(52) if (mask >> c) & 1))


def meld_of_os_id(i: int) -> int:
    """Our card-set mask of OpenSpiel's meld id ``i`` (0..184).  Raises ``ValueError`` otherwise."""
    m = A.meld_mask(i)
    return sum(1 << os_to_card(c) for c in range(52) if (m >> c) & 1)


def to_openspiel_action(state: DealState, action: Action) -> tuple[int, ...]:
    """OpenSpiel's actions, in order, for our legal ``action`` in ``state`` (a knock or gin: 55
    then the discard; after taking the card at the wall, the discard alone)."""
    k = action.kind
    if k in ("knock", "gin"):
        assert action.card is not None
        c = card_to_os(action.card)
        return (c,) if state.must_knock else (OS_KNOCK, c)
    if k == "discard" or k == "layoff":
        assert action.card is not None
        return (card_to_os(action.card),)
    if k == "meld":
        assert action.melds is not None
        return (OS_MELD_BASE + os_meld_id(action.melds[0]),)
    if k == "pass":
        return (OS_PASS,)
    if k == "take_upcard":
        return (OS_DRAW_UPCARD,)
    if k == "draw_stock":
        return (OS_DRAW_STOCK,)
    if k == "take_discard":
        return (OS_KNOCK,) if state.phase == WALL else (OS_DRAW_UPCARD,)
    raise ValueError(f"OpenSpiel's gin_rummy has no action {action.text!r} (R6.5)")


def openspiel_legal(state: DealState, knocking: bool = False) -> list[int]:
    """OpenSpiel's legal actions (sorted) in the state matching ours: the first OpenSpiel action
    of each of our legal actions; ``knocking``: OpenSpiel's 55 was played, so the discards of
    our knocks and gins."""
    legal = state.legal_actions()
    if knocking:
        return sorted({card_to_os(a.card) for a in legal if a.kind in ("knock", "gin") and a.card is not None})
    return sorted({to_openspiel_action(state, a)[0] for a in legal})


def from_openspiel_action(state: DealState, action: int, knocking: bool = False) -> Action | None:
    """Our action in ``state`` for OpenSpiel's ``action``; ``None`` for OpenSpiel's 55 in the
    discard phase (the knock waits for its discard: call again with ``knocking=True``).
    Raises ``ValueError`` when it is none of ours there."""
    for a in state.legal_actions():
        os_actions = to_openspiel_action(state, a)
        if knocking and a.kind in ("knock", "gin") and os_actions[-1] == action:
            return a
        if not knocking and os_actions[0] == action:
            return None if len(os_actions) == 2 else a
    raise ValueError(f"OpenSpiel action {action} is not legal in phase {state.phase}")


def returns_of(state: DealState) -> list[float]:
    """OpenSpiel's returns (seat 0, seat 1) of our finished deal: the winner's points and their
    negative; 0 and 0 without a winner."""
    r = state.result
    if r is None or r.winner is None:
        return [0.0, 0.0]
    out = [0.0, 0.0]
    out[r.winner] = float(r.points)
    out[1 - r.winner] = -float(r.points)
    return out


@dataclass
class Replay:
    """Our state beside an OpenSpiel state, fed the same moves.

    ``state`` is our deal (seat 1 deals, as OpenSpiel's player 0 plays first); ``knocking`` is
    true between OpenSpiel's 55 and the knock's discard.  :meth:`step` applies one OpenSpiel
    player action; :meth:`legal` is OpenSpiel's legal actions as our state sees them."""

    state: DealState
    knocking: bool = False
    disagreements: list[str] = field(default_factory=list)

    def legal(self) -> list[int]:
        """OpenSpiel's legal actions now, from our state."""
        return openspiel_legal(self.state, self.knocking)

    def step(self, action: int) -> None:
        """Apply OpenSpiel's player action.  Raises ``ValueError`` when it is none of ours."""
        s = self.state
        if not self.knocking and s.phase == DISCARD and not s.must_knock and action == OS_KNOCK:
            self.knocking = True
            return
        ours = from_openspiel_action(s, action, self.knocking or s.must_knock)
        assert ours is not None and s.to_act is not None
        self.knocking = False
        self.state, _ = s.apply(s.to_act, ours)


def replay(
    history: Sequence[int],
    is_chance: Sequence[bool],
    os_legal: Sequence[Sequence[int] | None],
    os_returns: Sequence[float],
    rules: RuleSet = OPENSPIEL_RULES,
) -> list[str]:
    """Replay an OpenSpiel game through the engine: ``history`` its actions, ``is_chance`` which
    were chance moves, ``os_legal`` OpenSpiel's legal actions before each player action
    (``None`` before chance moves), ``os_returns`` its returns.  Returns the disagreements (an
    empty list when the engine asked for exactly the same decisions and paid the same)."""
    dealt = [os_to_card(a) for a, ch in zip(history, is_chance) if ch]
    rest = [c for c in range(52) if c not in set(dealt)]
    deck = dealt + rest
    rp = Replay(new_deal(rules, 1, deck))
    bad: list[str] = []
    for i, (a, ch) in enumerate(zip(history, is_chance)):
        if ch:
            continue
        if rp.state.phase == OVER:
            bad.append(f"move {i}: our deal is over, OpenSpiel plays {a}")
            return bad
        ours = rp.legal()
        theirs = sorted(os_legal[i] or ())
        if ours != theirs:
            bad.append(f"move {i} ({rp.state.phase}): legal ours {ours} OpenSpiel {theirs}")
            return bad
        rp.step(a)
    if rp.state.phase != OVER:
        bad.append(f"end: OpenSpiel's game is over, ours in phase {rp.state.phase}")
    elif returns_of(rp.state) != [float(x) for x in os_returns]:
        bad.append(f"returns ours {returns_of(rp.state)} OpenSpiel {list(os_returns)}")
    return bad
