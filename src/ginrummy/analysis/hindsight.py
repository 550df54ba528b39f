"""Hindsight: with every card shown, when could each player first have won a deal?

This is **not** fair play and is never mixed with the review's values (:mod:`ginrummy.analysis.review`):
it reads both hands and the order of the stock, which no player saw.  For each turn of a player
in a recorded deal it tries, on the real deal state, every draw (R4.1, R4.2, R7.2: the stock
card is the one really on top) followed by every knock, gin or big gin (R5.1, R6.1, R6.5), and
scores it exactly against the opponent's real hand (R5.4, R5.5, R6).  The first turn at which
one of them wins the deal is reported, with the highest-scoring such line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..deal import DealState
from ..errors import N_, Msg
from ..record import RecordedDeal, deal_states
from ..rules import RuleSet

__all__ = ["FirstWin", "Hindsight", "hindsight", "first_wins"]

_ENDS = ("knock", "gin", "big_gin")
_DRAWS = ("draw_stock", "take_discard", "take_upcard")


@dataclass(frozen=True)
class FirstWin:
    """A winning line found in hindsight: at action number ``move`` (1-based, as in the review)
    the player could play ``moves`` (text forms, e.g. ``["draw stock", "knock 7H"]``) and win
    the deal with ``points`` (R6)."""

    move: int
    moves: tuple[str, ...]
    points: int

    def to_dict(self) -> dict[str, Any]:
        """``{"move", "moves", "points"}``."""
        return {"move": self.move, "moves": list(self.moves), "points": self.points}


@dataclass(frozen=True)
class Hindsight:
    """The hindsight line of a deal: per player (name) the first winning line or ``None``; the
    action number at which the deal really ended (``ended``) and its winner's name (``None``:
    a draw, or the deal is not over); ``over``: whether the deal is over."""

    first: dict[str, FirstWin | None]
    ended: int
    winner: str | None
    over: bool = True

    def lines(self) -> list[Msg]:
        """One sentence per player, as :class:`Msg` (English, translatable)."""
        out = []
        for name, fw in self.first.items():
            if not self.over:
                out.append(N_("{name}: none while the deal is not over (its hidden cards are still secret)", name=name))
            elif fw is None:
                out.append(N_("{name} could not have won this deal by knocking at any turn", name=name))
            elif self.winner == name and fw.move >= self.ended - 1:
                out.append(N_("{name} won at the first chance (move {move})", name=name, move=fw.move))
            else:
                out.append(
                    N_(
                        "{name} could have won from move {move}: {moves} ({points} points)",
                        name=name,
                        move=fw.move,
                        moves=", ".join(fw.moves),
                        points=fw.points,
                    )
                )
        return out

    def text(self) -> str:
        """The line in English: ``Hindsight (all hands shown): ...``."""
        return "Hindsight (all hands shown): " + "; ".join(str(x) for x in self.lines()) + "."

    def to_dict(self) -> dict[str, Any]:
        """``{"label": "hindsight", "text", "over", "first_win": {name: {...} | null}}``."""
        return {
            "label": "hindsight",
            "text": self.text(),
            "over": self.over,
            "first_win": {n: (None if fw is None else fw.to_dict()) for n, fw in self.first.items()},
        }


def _winning_end(state: DealState, seat: int) -> tuple[int, str] | None:
    """The best ``(points, action text)`` among the knocks/gins of ``seat`` that win now."""
    best = None
    for a in state.legal_actions():
        if a.kind in _ENDS:
            after, _ = state.apply(seat, a)
            r = after.result
            if r is not None and r.winner == seat and (best is None or r.points > best[0]):
                best = (r.points, a.text)
    return best


def first_wins(states: Sequence[tuple[int, DealState]], seats: Sequence[int]) -> dict[int, FirstWin | None]:
    """For each of ``seats``: the first winning line over ``states`` (``(action number, state
    before it)`` in order), or ``None``.  Reads hidden cards: hindsight only."""
    found: dict[int, FirstWin | None] = {s: None for s in seats}
    for index, state in states:
        seat = state.to_act
        if seat not in found or found[seat] is not None:
            continue
        best: tuple[int, tuple[str, ...]] | None = None
        if state.phase == "discard":
            end = _winning_end(state, seat)
            if end is not None:
                best = (end[0], (end[1],))
        else:
            for a in state.legal_actions():
                if a.kind not in _DRAWS:
                    continue
                after, _ = state.apply(seat, a)
                if after.result is not None or after.to_act != seat:
                    continue
                end = _winning_end(after, seat)
                if end is not None and (best is None or end[0] > best[0]):
                    best = (end[0], (a.text, end[1]))
        if best is not None:
            found[seat] = FirstWin(index, best[1], best[0])
    return found


def hindsight(rules: RuleSet, deal: RecordedDeal, players: Sequence[tuple[str, int]]) -> Hindsight:
    """The hindsight line of recorded ``deal`` under ``rules`` for ``players`` (``(name, deal
    seat)`` pairs).  The record must replay (see :func:`ginrummy.record.replay`).  A deal that
    is not over gets no hindsight (``over`` false, no first win): its hidden cards are secret."""
    states, state = deal_states(rules, deal)
    index = len(states)
    if state.result is None:  # a deal in progress: its hidden cards are still secret, say nothing
        return Hindsight({name: None for name, _ in players}, index, None, False)
    found = first_wins([(i, st) for i, st, _, _ in states], [seat for _, seat in players])
    winner = None
    if state.result is not None and state.result.winner is not None:
        winner = next((n for n, s in players if s == state.result.winner), None)
    return Hindsight({name: found[seat] for name, seat in players}, index, winner, state.result is not None)
