"""The end of a deal by knock or gin: the layouts (R5.2-R5.5) and the score (R6).

Hands and melds are card-set bit masks; points are whole game points.  Used by the deal
engine when a player knocks, and by ``gin score``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import card_str, cards_of, cards_str, mask_value
from .errors import N_, IllegalActionError
from .melds import Arrangement, DefenderLayout, best_arrangement, defender_layout, is_meld, knock_arrangement
from .rules import RuleSet

__all__ = ["Outcome", "Showdown", "showdown", "check_arrangement", "arrangement_json"]


class Outcome(StrEnum):
    """How a deal ended (R6, R7).  A ``str``: each member equals, hashes and is written (JSON,
    records, ``str``, ``repr``) as its value.

    >>> Outcome.BIG_GIN == "big_gin", str(Outcome.UNDERCUT), sorted(Outcome)[:2]
    (True, 'undercut', ['big_gin', 'draw'])
    """

    KNOCK = "knock"  #: the knocker wins (R6.2)
    UNDERCUT = "undercut"  #: the defender has as little deadwood or less (R6.3)
    GIN = "gin"  #: R6.1
    BIG_GIN = "big_gin"  #: R6.5
    DRAW = "draw"  #: no one knocked before the stock ran out (R7)

    def __repr__(self) -> str:
        # the plain string's repr, as before the enum, so reprs (and digests of them) are unchanged
        return repr(self.value)


@dataclass(frozen=True)
class Showdown:
    """The outcome of a knock, gin or big gin (R5, R6).

    Attributes:
        outcome: ``"knock"`` (knocker wins, R6.2), ``"undercut"`` (R6.3), ``"gin"`` (R6.1) or
            ``"big_gin"`` (R6.5).
        knocker: the knocker's arrangement (10 cards, 11 for big gin).
        defender: the defender's layout (his melds, layoffs, deadwood; no layoffs after gin).
        winner: ``"knocker"`` or ``"defender"`` (R6.4).
        base_points: points before the Oklahoma multiplier (R6).
        multiplier: 2 when an Oklahoma spade upcard doubles the deal (R9.3), else 1.
        points: ``base_points * multiplier``, what the winner scores.
        bonus: the gin, big gin or undercut bonus included in ``base_points`` (0 for a knock).
    """

    outcome: Outcome
    knocker: Arrangement
    defender: DefenderLayout
    winner: str
    base_points: int
    multiplier: int
    points: int
    bonus: int

    def to_json(self) -> dict[str, Any]:
        """The ``gin score`` JSON form: outcome, both layouts (cards as text), winner, points,
        multiplier, bonus."""
        return {
            "outcome": self.outcome,
            "knocker": arrangement_json(self.knocker),
            "defender": {
                "melds": [[card_str(c) for c in cards_of(m)] for m in self.defender.melds],
                "layoffs": [
                    {"card": card_str(lay.card), "onto": [card_str(c) for c in cards_of(lay.onto)]}
                    for lay in self.defender.layoffs
                ],
                "deadwood": [card_str(c) for c in cards_of(self.defender.deadwood)],
                "deadwood_value": self.defender.deadwood_value,
            },
            "winner": self.winner,
            "points": self.points,
            "multiplier": self.multiplier,
            "bonus": self.bonus * self.multiplier,
        }


def arrangement_json(arr: Arrangement) -> dict[str, Any]:
    """An arrangement as ``{"melds": [[card...]...], "deadwood": [card...], "deadwood_value"}``."""
    return {
        "melds": [[card_str(c) for c in cards_of(m)] for m in arr.melds],
        "deadwood": [card_str(c) for c in cards_of(arr.deadwood)],
        "deadwood_value": arr.deadwood_value,
    }


def check_arrangement(hand: int, melds: tuple[int, ...]) -> Arrangement:
    """Validate an arrangement a knocker chose (R5.2): each meld legal (R2.1, R2.2), melds
    disjoint (R2.3) and within ``hand``.  Returns it as an :class:`Arrangement`.

    Raises :class:`IllegalActionError` saying which meld is wrong.
    """
    used = 0
    for m in melds:
        if not is_meld(m):
            raise IllegalActionError(
                N_("{cards} is not a meld (a set of 3-4 of a rank or a run of 3+ of a suit)", cards=cards_str(m))
            )
        if m & ~hand:
            raise IllegalActionError(
                N_("meld {cards} uses {missing}, not in the hand", cards=cards_str(m), missing=cards_str(m & ~hand))
            )
        if m & used:
            raise IllegalActionError(N_("card {card} is in two melds (R2.3)", card=cards_str(m & used)))
        used |= m
    dead = hand & ~used
    ordered = tuple(sorted(melds, key=lambda x: (x & -x).bit_length()))
    return Arrangement(ordered, dead, mask_value(dead))


def showdown(
    rules: RuleSet,
    knocker: int,
    defender: int,
    *,
    knock_limit: int | None,
    multiplier: int = 1,
    melds: tuple[int, ...] | None = None,
    unseen: int | None = None,
) -> Showdown:
    """Lay out and score a knock, gin or big gin (R5.2-R5.5, R6.1-R6.5).

    Args:
        rules: the rule set (bonuses).
        knocker: the knocker's cards after his discard (10), or 11 for big gin.
        defender: the defender's 10 cards.
        knock_limit: the deal's knock limit in points, ``None`` when only gin may end the deal
            (Straight gin R8.1, Oklahoma ace R9.2).
        multiplier: 2 for an Oklahoma spade upcard (R9.3), else 1.
        melds: the knocker's own arrangement; ``None`` proposes the one of R5.2.
        unseen: cards the knocker cannot see, for the R5.2 tie-break (default all others).

    Raises :class:`IllegalActionError` when the knock is not allowed: deadwood above the knock
    limit, knocking where only gin is allowed, 11 cards that are not all melded, or a bad
    arrangement.
    """
    n = knocker.bit_count()
    if n not in (10, 11):
        raise IllegalActionError(N_("a knocker lays out 10 cards (11 for big gin), not {n}", n=n))
    if knocker & defender:
        raise IllegalActionError(N_("the knocker and the defender hold the same card"))
    if melds is not None:
        arr = check_arrangement(knocker, melds)
    else:
        arr = knock_arrangement(knocker, unseen) if n == 10 else best_arrangement(knocker)
    k = arr.deadwood_value
    if n == 11:
        if rules.big_gin_bonus is None:
            raise IllegalActionError(N_("big gin is not played under these rules (big_gin_bonus is null, R6.5)"))
        if k:
            raise IllegalActionError(N_("big gin needs all 11 cards melded; deadwood is {deadwood} (R6.5)", deadwood=k))
    elif k > 0:
        if knock_limit is None:
            raise IllegalActionError(
                N_("only gin ends this deal (R8.1, R9.2); the knocker's deadwood is {deadwood}", deadwood=k)
            )
        if k > knock_limit:
            raise IllegalActionError(
                N_("deadwood {deadwood} is above the knock limit {limit} (R5.1)", deadwood=k, limit=knock_limit)
            )
    if k == 0:
        d_layout = defender_layout(defender, arr.melds, allow_layoffs=False)
        big = n == 11
        bonus = rules.big_gin_bonus if big else rules.gin_bonus
        assert bonus is not None
        base = bonus + d_layout.deadwood_value
        return Showdown(
            Outcome.BIG_GIN if big else Outcome.GIN,
            arr,
            d_layout,
            "knocker",
            base,
            multiplier,
            base * multiplier,
            bonus,
        )
    d_layout = defender_layout(defender, arr.melds)
    d = d_layout.deadwood_value
    if k < d:
        base = d - k
        return Showdown(Outcome.KNOCK, arr, d_layout, "knocker", base, multiplier, base * multiplier, 0)
    base = rules.undercut_bonus + k - d
    return Showdown(
        Outcome.UNDERCUT, arr, d_layout, "defender", base, multiplier, base * multiplier, rules.undercut_bonus
    )
