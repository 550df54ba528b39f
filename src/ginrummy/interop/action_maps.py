"""Our action codes (:mod:`ginrummy.actions`, 0..160) to and from OpenSpiel's ``gin_rummy``
actions and RLCard's ``gin-rummy`` action ids, where both sides have the action
(``docs/env.md``, "Action maps").

Cards: ours are ``suit * 13 + rank`` with suits ``C D H S``; OpenSpiel orders the suits
``s c d h`` (:func:`~ginrummy.interop.openspiel.card_to_os`), RLCard ``S H D C``
(:func:`card_to_rlcard`).  Neither package is imported here.

OpenSpiel (``open_spiel/games/gin_rummy``): 0..51 discard that card, 52 draw the upcard (the
first upcard or the top discard), 53 draw from the stock, 54 pass, 55 knock (then the card to
discard), 56.. lay a meld.  A knock or gin of ours is two OpenSpiel actions, 55 and the
discard; after taking the discard at the wall (R7.2, OpenSpiel's "Wall" phase: 55 takes it) the
knock is the discard alone.  OpenSpiel's knocker and defender then lay out melds and layoffs
move by move; our engine does that itself (R5.2-R5.5), so those actions have no code.
OpenSpiel has no big gin (our code 4).

RLCard: 2 draw card, 3 pick up discard, 4 declare dead hand, 5 gin, 6 + card discard,
58 + card knock, 0/1 score a player (book-keeping after the deal).  RLCard has no upcard offer
(the non-dealer is dealt 11 cards: our deal after the non-dealer takes the upcard, R4.2) and no
big gin; its gin names no card (it discards the first gin card its own search finds), and the end
of the stock is a "declare dead hand" action where our R7.1 ends the deal by itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import NUM_CODES
from ..melds import deadwood
from .openspiel import card_to_os, os_to_card

__all__ = [
    "to_openspiel",
    "from_openspiel",
    "to_rlcard",
    "from_rlcard",
    "card_to_rlcard",
    "rlcard_to_card",
    "OS_DRAW_UPCARD",
    "OS_DRAW_STOCK",
    "OS_PASS",
    "OS_KNOCK",
    "RL_DRAW",
    "RL_PICK_UP",
    "RL_DEAD_HAND",
    "RL_GIN",
    "RL_DISCARD",
    "RL_KNOCK",
]

OS_DRAW_UPCARD, OS_DRAW_STOCK, OS_PASS, OS_KNOCK = 52, 53, 54, 55
RL_DRAW, RL_PICK_UP, RL_DEAD_HAND, RL_GIN, RL_DISCARD, RL_KNOCK = 2, 3, 4, 5, 6, 58

#: OpenSpiel's phase names -> ours (its "Knock" phase is the discard after a knock).
_OS_PHASES = {"FirstUpcard": "upcard_offer", "Draw": "draw", "Discard": "discard", "Knock": "knock", "Wall": "wall"}
_PHASES = ("upcard_offer", "draw", "discard", "knock", "wall")


def _check_code(code: int) -> None:
    if type(code) is not int or not 0 <= code < NUM_CODES:
        raise ValueError(f"not an action code: {code!r} (codes are 0..{NUM_CODES - 1})")


#: pyspiel's own ``pyspiel.gin_rummy.Phase`` member names -> OpenSpiel's phase strings.
_OS_ENUM_NAMES = {
    "FIRST_UPCARD": "FirstUpcard",
    "DRAW": "Draw",
    "DISCARD": "Discard",
    "KNOCK": "Knock",
    "WALL": "Wall",
    "LAYOFF": "Layoff",
    "DEAL": "Deal",
    "GAME_OVER": "GameOver",
}


def _phase(phase: object) -> str:
    if not isinstance(phase, str):  # pyspiel's Phase enum (state.current_phase())
        name = getattr(phase, "name", None)
        phase = _OS_ENUM_NAMES.get(name, repr(phase)) if isinstance(name, str) else repr(phase)
    p = _OS_PHASES.get(phase, phase)
    if p not in _PHASES:
        raise ValueError(
            f"unknown phase {phase!r}; phases: {', '.join(_PHASES)} (or OpenSpiel's {', '.join(_OS_PHASES)})"
        )
    return p


def to_openspiel(code: int, phase: object = "discard") -> tuple[int, ...]:
    """The OpenSpiel actions, in order, that make our action ``code`` in ``phase`` (ours:
    ``upcard_offer``, ``draw``, ``discard``, ``wall``, or ``knock`` for the discard after taking the
    card at the wall, R7.2; OpenSpiel's names, and pyspiel's ``pyspiel.gin_rummy.Phase`` members
    such as ``Phase.DRAW``, are accepted too).

    Raises ``ValueError`` for a bad code or phase, and when OpenSpiel has no such action (big
    gin, R6.5) or the code cannot be made in that phase.
    """
    _check_code(code)
    p = _phase(phase)
    if code == 4:
        raise ValueError("OpenSpiel's gin_rummy has no big gin (code 4, R6.5)")
    if code >= 5:
        kind, card = (code - 5) // 52, (code - 5) % 52
        if p == "knock":  # after taking the card at the wall: the knock discard only
            if kind == 0:
                raise ValueError("after taking the discard at the wall only a knock or gin may follow (R7.2)")
            return (card_to_os(card),)
        if p != "discard":
            raise ValueError(f"code {code} is a discard, knock or gin: not in phase {p}")
        return (card_to_os(card),) if kind == 0 else (OS_KNOCK, card_to_os(card))
    if code == 0 and p in ("draw", "upcard_offer"):
        return (OS_DRAW_STOCK,)
    if code == 1 and p == "draw":
        return (OS_DRAW_UPCARD,)
    if code == 1 and p == "wall":
        return (OS_KNOCK,)
    if code == 2 and p == "upcard_offer":
        return (OS_DRAW_UPCARD,)
    if code == 3 and p in ("upcard_offer", "wall"):
        return (OS_PASS,)
    raise ValueError(f"code {code} cannot be played in phase {p}")


def from_openspiel(actions: Sequence[int], phase: object, hand: int | None = None) -> int | None:
    """Our action code for OpenSpiel ``actions`` (one action, or a knock and its discard) in
    ``phase`` (a name, or pyspiel's ``pyspiel.gin_rummy.Phase`` member, as ``state.current_phase()``
    gives it), or ``None`` when the default rules have no such action (meld lay-downs and layoffs:
    the engine lays out by itself; under ``layout="players"`` they are decisions, mapped by
    :mod:`ginrummy.interop.openspiel_exact`).

    ``hand``: the actor's 11-card mask (our cards), needed to tell a knock from a gin (a gin
    leaves no deadwood, R2.5).  Raises ``ValueError`` for an action that is not OpenSpiel's in that
    phase, or a knock without ``hand``.
    """
    acts = tuple(actions)
    p = _phase(phase)
    if not acts or any(type(a) is not int or a < 0 for a in acts):
        raise ValueError(f"not OpenSpiel actions: {actions!r}")
    a = acts[0]
    if p in ("discard", "knock"):
        if p == "discard" and a < 52 and len(acts) == 1:
            return 5 + os_to_card(a)
        card_os = acts[1] if (p == "discard" and a == OS_KNOCK and len(acts) == 2) else (a if p == "knock" else None)
        if card_os is None or not 0 <= card_os < 52:
            if a >= 56:
                return None
            raise ValueError(f"OpenSpiel actions {acts} are not a discard or a knock in phase {p}")
        if hand is None:
            raise ValueError("a knock needs the 11-card hand to tell knock from gin")
        card = os_to_card(card_os)
        return (109 if deadwood(hand & ~(1 << card)) == 0 else 57) + card
    if len(acts) != 1:
        raise ValueError(f"one OpenSpiel action is expected in phase {p}, not {acts}")
    table = {
        "upcard_offer": {OS_DRAW_UPCARD: 2, OS_PASS: 3, OS_DRAW_STOCK: 0},
        "draw": {OS_DRAW_STOCK: 0, OS_DRAW_UPCARD: 1},
        "wall": {OS_KNOCK: 1, OS_PASS: 3},
    }[p]
    if a in table:
        return table[a]
    if a >= 56:
        return None
    raise ValueError(f"OpenSpiel action {a} is not one of phase {p}")


def card_to_rlcard(card: int) -> int:
    """RLCard's card id (``rank + 13 * suit``, suits ``S H D C``) of our card (0..51)."""
    return (3 - card // 13) * 13 + card % 13


def rlcard_to_card(card_id: int) -> int:
    """Our card of RLCard's card id (the same formula: the suit orders are each other's reverse)."""
    return (3 - card_id // 13) * 13 + card_id % 13


def to_rlcard(code: int) -> int | None:
    """RLCard's action id for our ``code``, or ``None`` when RLCard has none (take upcard and
    pass: RLCard deals the upcard to the non-dealer; big gin).  Our gin maps to RLCard's gin,
    which names no card: RLCard discards the first card of its own gin search.
    Raises ``ValueError`` for a bad code."""
    _check_code(code)
    if code == 0:
        return RL_DRAW
    if code == 1:
        return RL_PICK_UP
    if code < 5:
        return None
    kind, card = (code - 5) // 52, (code - 5) % 52
    if kind == 0:
        return RL_DISCARD + card_to_rlcard(card)
    if kind == 1:
        return RL_KNOCK + card_to_rlcard(card)
    return RL_GIN


def from_rlcard(action_id: int, gin_card: int | None = None) -> int | None:
    """Our code for RLCard's ``action_id``, or ``None`` for its book-keeping actions (0, 1: score
    a player; 4: declare a dead hand, which our R7.1 does by itself).  Its gin (5) needs
    ``gin_card``, our card that RLCard discards (the first of
    ``rlcard...judge.get_going_out_cards(hand, 10)[1]``).  Raises ``ValueError`` for an id outside
    0..109 or a gin without ``gin_card``."""
    if type(action_id) is not int or not 0 <= action_id < RL_KNOCK + 52:
        raise ValueError(f"not an RLCard gin-rummy action id: {action_id!r} (ids are 0..109)")
    if action_id == RL_DRAW:
        return 0
    if action_id == RL_PICK_UP:
        return 1
    if action_id == RL_GIN:
        if gin_card is None:
            raise ValueError("RLCard's gin names no card: pass gin_card")
        return 109 + gin_card
    if action_id >= RL_KNOCK:
        return 57 + rlcard_to_card(action_id - RL_KNOCK)
    if action_id >= RL_DISCARD:
        return 5 + rlcard_to_card(action_id - RL_DISCARD)
    return None
