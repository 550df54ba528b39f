"""A lean simulation of the rest of a deal over card-set masks, for the ``expert`` player.

The engine's :class:`~ginrummy.deal.DealState` checks and records everything; a playout needs
none of that.  :func:`playout` plays a deal to its end from a determinized position (both hands
known, the stock in a fixed order) with a fast policy for both sides and returns who scored and
how many points (R6).  The policy is the classic baseline: take the top discard only if it
makes a meld (R4.1), discard the card that leaves the least deadwood (ties: the highest card),
knock or go gin at the first chance (R5.1, R6.1).  The stock ends the deal as a draw when two
cards are left after a discard (R7.1; the ``wall`` and ``reshuffle`` endings are approximated by
it).  Seat 0 of a playout is the deciding player ("me"), seat 1 the opponent.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from ..cards import CARD_VALUES
from ..cards import cards_of
from ..melds import RUN_DW, meld_extensions, deadwood, knock_arrangement
from ..rules import RuleSet
from .inference import MELDS_BY_CARD

__all__ = ["Table", "playout", "greedy_discard", "knock_points", "take_by_policy"]


@dataclass(frozen=True)
class Table:
    """The constants of a deal a playout needs.

    Attributes:
        knock_limit: most deadwood (points) a knocker keeps, ``None`` when only gin ends the deal.
        gin_bonus, undercut_bonus: points (R6.1, R6.3).
        big_gin_bonus: points, or ``None`` when big gin is not played (R6.5).
        multiplier: 2 for an Oklahoma spade deal (R9.3), else 1.
        discard_taken_card: whether a card taken from the pile may be discarded at once (R4.3).
    """

    knock_limit: int | None
    gin_bonus: int
    undercut_bonus: int
    big_gin_bonus: int | None
    multiplier: int
    discard_taken_card: bool

    @staticmethod
    def of(rules: RuleSet, knock_limit: int | None, multiplier: int) -> Table:
        """The table of a deal under ``rules`` with its knock limit and multiplier."""
        return Table(knock_limit, rules.gin_bonus, rules.undercut_bonus, rules.big_gin_bonus, multiplier,
                     rules.discard_taken_card)


def take_by_policy(card: int, hand: int) -> bool:
    """The policy's draw: take ``card`` if it makes a meld with ``hand`` (R2.1, R2.2)."""
    full = hand | (1 << card)
    for m in MELDS_BY_CARD[card]:
        if m & full == m:
            return True
    return False


def greedy_discard(h: int, forbid: int = -1) -> tuple[int, int]:
    """``(card, deadwood)``: the discard from ``h`` (11 cards) leaving the least deadwood
    (R2.4), ties broken toward the higher card value then the higher card; never ``forbid``."""
    t = RUN_DW
    s0 = h & 8191
    s1 = (h >> 13) & 8191
    s2 = (h >> 26) & 8191
    s3 = h >> 39
    trips = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    best_c = -1
    best_key = (1 << 30, 0)
    vals = CARD_VALUES
    if not trips:
        sl = (s0, s1, s2, s3)
        base = t[s0] + t[s1] + t[s2] + t[s3]
        for suit in range(4):
            sm = sl[suit]
            rest = base - t[sm]
            x = sm
            while x:
                low = x & -x
                x ^= low
                c = suit * 13 + low.bit_length() - 1
                if c == forbid:
                    continue
                key = (rest + t[sm ^ low], -vals[c])
                if key <= best_key:
                    best_key = key
                    best_c = c
        return best_c, best_key[0]
    x = h
    while x:
        low = x & -x
        x ^= low
        c = low.bit_length() - 1
        if c == forbid:
            continue
        key = (deadwood(h ^ low), -vals[c])
        if key <= best_key:
            best_key = key
            best_c = c
    return best_c, best_key[0]


@lru_cache(maxsize=8192)
def _knock_melds(knocker: int) -> tuple[int, ...]:
    """The melds of the arrangement proposed to a knocker (R5.2), cached by hand."""
    return knock_arrangement(knocker).melds


def defender_deadwood(defender: int, knocker_melds: tuple[int, ...]) -> int:
    """The defender's least deadwood (points) after his best layoffs and melds (R5.4, R5.5):
    the value of :func:`ginrummy.melds.defender_layout` without building the layout."""
    options: list[list[int]] = []
    for meld in knocker_melds:
        dirs = meld_extensions(meld, defender)
        if not dirs:
            continue
        if len(dirs) == 1 or len({c % 13 for c in cards_of(meld)}) == 1:
            if len({c % 13 for c in cards_of(meld)}) == 1:
                options.append([0] + [1 << d[0] for d in dirs])
                continue
        per_dir = []
        for chain in dirs:
            acc = 0
            choice = [0]
            for c in chain:
                acc |= 1 << c
                choice.append(acc)
            per_dir.append(choice)
        if len(per_dir) == 1:
            options.append(per_dir[0])
        else:
            options.append([x | y for x in per_dir[0] for y in per_dir[1]])
    if not options:
        return deadwood(defender)
    best = 1 << 30
    for combo in product(*options):
        used = 0
        ok = True
        for x in combo:
            if used & x:
                ok = False
                break
            used |= x
        if ok:
            d = deadwood(defender & ~used)
            if d < best:
                best = d
    return best


def knock_points(tab: Table, knocker: int, defender: int, k: int) -> tuple[bool, int]:
    """Score a knock (R6): ``knocker`` (10 cards, deadwood ``k``) against ``defender`` (10
    cards).  Returns ``(knocker wins, points)``, points multiplied (R9.3)."""
    if k == 0:
        return True, (tab.gin_bonus + deadwood(defender)) * tab.multiplier
    d = defender_deadwood(defender, _knock_melds(knocker))
    if k < d:
        return True, (d - k) * tab.multiplier
    return False, (tab.undercut_bonus + k - d) * tab.multiplier


def playout(tab: Table, hands: list[int], stock: list[int], pos: int, top: int | None, p: int,
            stock_only: bool = False, max_turns: int = 200) -> tuple[int | None, int]:
    """Play the deal to its end from the draw of seat ``p`` (0 me, 1 the opponent).

    ``hands`` are the two 10-card masks (changed in place), ``stock[pos:]`` the stock top first,
    ``top`` the top of the discard pile (``None``: empty), ``stock_only``: ``p`` may only draw
    from the stock (R4.2).  Returns ``(winner seat or None for a draw, points)``.
    """
    limit = tab.knock_limit
    n = len(stock)
    big = tab.big_gin_bonus
    forbid_taken = not tab.discard_taken_card
    for _ in range(max_turns):
        h = hands[p]
        forbid = -1
        if top is not None and not stock_only and take_by_policy(top, h):
            h |= 1 << top
            if forbid_taken:
                forbid = top
        else:
            if pos >= n:
                return None, 0
            h |= 1 << stock[pos]
            pos += 1
        stock_only = False
        if big is not None and deadwood(h) == 0:
            return p, (big + deadwood(hands[1 - p])) * tab.multiplier
        c, d = greedy_discard(h, forbid)
        h ^= 1 << c
        hands[p] = h
        if d == 0 or (limit is not None and d <= limit):
            wins, pts = knock_points(tab, h, hands[1 - p], d)
            return (p if wins else 1 - p), pts
        top = c
        if n - pos <= 2:
            return None, 0
        p = 1 - p
    return None, 0
