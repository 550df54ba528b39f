"""A lean simulation of the rest of a deal over card-set masks, for the ``expert`` player.

The engine's :class:`~ginrummy.deal.DealState` checks and records everything; a playout needs
none of that.  :func:`playout` plays a deal to its end from a determinized position (both hands
known, the stock in a fixed order) with a fast policy for both sides and returns who scored and
how many points (R6).  Two policies (:class:`Policy`, :data:`POLICIES`):

* ``classic``, the baseline: take the top discard only if it makes a meld (R4.1), discard the
  card that leaves the least deadwood (ties: the highest card), knock or go gin at the first
  chance (R5.1, R6.1).
* ``careful`` (the expert's default): knock only within :func:`stage_knock_point` (the deal's
  knock limit early, falling as the stock shrinks, as the ``club`` player does; gin always),
  charge 6 points to a discard that melds with the other hand (known in the playout), and
  also take a low card (value 5 or less) that lowers the deadwood by 6 or more.  Its deals last
  about twice as many turns, so a playout costs about twice as much.

The stock ends the deal as a draw when two cards are left after a discard (R7.1; the ``wall``
and ``reshuffle`` endings are approximated by it).  Seat 0 of a playout is the deciding player ("me"), seat 1 the opponent.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from ..cards import CARD_VALUES, cards_of
from ..melds import RUN_DW, deadwood, knock_arrangement, meld_extensions
from ..rules import RuleSet
from .inference import MELDS_BY_CARD

__all__ = [
    "Table",
    "Policy",
    "CLASSIC",
    "CAREFUL",
    "POLICIES",
    "playout",
    "greedy_discard",
    "policy_discard",
    "feed_mask",
    "knock_points",
    "knocks_now",
    "take_by_policy",
    "stage_knock_point",
]


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
        return Table(
            knock_limit,
            rules.gin_bonus,
            rules.undercut_bonus,
            rules.big_gin_bonus,
            multiplier,
            rules.discard_taken_card,
        )


@dataclass(frozen=True)
class Policy:
    """How both sides of a playout play (the same rules for both).

    Attributes:
        name: the policy's name (:data:`POLICIES`).
        staged_knock: knock only within :func:`stage_knock_point` (the deal's knock limit early,
            falling as the stock shrinks, R5.1, R6.3) instead of at the first chance; gin (R6.1)
            is always taken.
        undercut_check: knock only with less deadwood than the other hand holds before layoffs
            (known in the determinized playout; R6.3: an equal count is an undercut).
        feed_penalty: deadwood points charged to a discard that melds with the other side's hand
            (known in the determinized playout), so a side avoids feeding the other (0: off).
        take_gain: take a top discard that makes no meld when it lowers the deadwood after the
            discard by at least this many points (0: only a card that makes a meld is taken, R4.1).
    """

    name: str
    staged_knock: bool = False
    undercut_check: bool = False
    feed_penalty: int = 0
    take_gain: int = 0


#: The classic playout: take a card that makes a meld, least deadwood discard, knock at once.
CLASSIC = Policy("classic")
#: The careful playout: knock by the stage of the deal, avoid feeding, take a card that saves a lot.
CAREFUL = Policy("careful", staged_knock=True, feed_penalty=6, take_gain=6)
#: The classic playout with the staged knock only, and with the feed penalty only.
STAGED = Policy("staged", staged_knock=True)
NOFEED = Policy("nofeed", feed_penalty=6)
#: The classic playout that knocks only when the other hand holds more deadwood.
SAFE = Policy("safe", undercut_check=True)
#: The playout policies by name.
POLICIES = {p.name: p for p in (CLASSIC, CAREFUL, STAGED, NOFEED, SAFE)}

#: Stock size of a fresh two-hand deal (52 - 2 x 10 - 1 upcard, R3.1).
_FULL_STOCK = 31


def stage_knock_point(limit: int, stock_left: int) -> int:
    """The most deadwood (points) a playout side knocks with when ``stock_left`` cards remain:
    the ``club`` player's :func:`~ginrummy.players.club.knock_point` with the turns played read
    off the stock (a side has played about half the cards drawn), never below ``limit // 3``
    (R5.1; a lower knock risks less undercut, R6.3)."""
    turns = (_FULL_STOCK - stock_left) // 2
    fall = turns - 5 if turns > 5 else 0
    if stock_left < 12:
        fall += (12 - stock_left) // 3
    return max(limit // 3, limit - fall)


def feed_mask(other: int) -> int:
    """The mask of the cards that make a meld with two cards of ``other`` (R2.1, R2.2): the
    cards of a rank ``other`` holds twice or more, and the cards next to two of a suit's run
    (the same test as :func:`take_by_policy`, for all cards at once by bit operations)."""
    s0 = other & 8191
    s1 = (other >> 13) & 8191
    s2 = (other >> 26) & 8191
    s3 = other >> 39
    pairs = (s0 & (s1 | s2 | s3)) | (s1 & (s2 | s3)) | (s2 & s3)
    out = pairs | pairs << 13 | pairs << 26 | pairs << 39
    for i, o in enumerate((s0, s1, s2, s3)):
        if o:
            run = ((o >> 1) & (o >> 2)) | ((o << 1) & (o >> 1)) | ((o << 1) & (o << 2))
            out |= (run & 8191) << (13 * i)
    return out & ~other


def policy_discard(h: int, other: int, pol: Policy, forbid: int = -1) -> tuple[int, int]:
    """``(card, deadwood)``: the discard from ``h`` (11 cards) by ``pol``: the least deadwood
    left (R2.4) plus ``pol.feed_penalty`` when the card makes a meld with ``other`` (the other
    side's 10 cards, R2.1, R2.2; :func:`feed_mask`); ties toward the higher card value, then the
    higher card; never ``forbid``.  The deadwood returned is that of the hand left."""
    pen = pol.feed_penalty
    if not pen:
        return greedy_discard(h, forbid)
    fm = feed_mask(other)
    best_c = -1
    best_d = 0
    best_key = (1 << 30, 0)
    for d, negv, c in _discard_rows(h, forbid):
        key = (d + pen if (fm >> c) & 1 else d, negv)
        if key <= best_key:
            best_key = key
            best_c = c
            best_d = d
    return best_c, best_d


def _discard_rows(h: int, forbid: int) -> list[tuple[int, int, int]]:
    """``(deadwood left, -card value, card)`` for every discard from ``h`` but ``forbid``, cards
    ascending (the four-lookup path of :func:`greedy_discard` when no rank is held three times)."""
    t = RUN_DW
    vals = CARD_VALUES
    s0 = h & 8191
    s1 = (h >> 13) & 8191
    s2 = (h >> 26) & 8191
    s3 = h >> 39
    rows = []
    if not ((s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)):
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
                if c != forbid:
                    rows.append((rest + t[sm ^ low], -vals[c], c))
        return rows
    x = h
    while x:
        low = x & -x
        x ^= low
        c = low.bit_length() - 1
        if c != forbid:
            rows.append((deadwood(h ^ low), -vals[c], c))
    return rows


def knocks_now(tab: Table, pol: Policy, d: int, stock_left: int, other: int = 0) -> bool:
    """Whether a playout side with ``d`` deadwood (points) after its discard, ``stock_left``
    cards in the stock, the other side holding ``other`` (10 cards), knocks (or goes gin, R6.1)
    by ``pol`` (R5.1)."""
    if d == 0:
        return True
    limit = tab.knock_limit
    if limit is None or d > limit:
        return False
    if pol.undercut_check and d >= deadwood(other):
        return False
    return not pol.staged_knock or d <= stage_knock_point(limit, stock_left)


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


def playout(
    tab: Table,
    hands: list[int],
    stock: list[int],
    pos: int,
    top: int | None,
    p: int,
    stock_only: bool = False,
    max_turns: int = 200,
    pol: Policy = CLASSIC,
) -> tuple[int | None, int]:
    """Play the deal to its end from the draw of seat ``p`` (0 me, 1 the opponent).

    ``hands`` are the two 10-card masks (changed in place), ``stock[pos:]`` the stock top first,
    ``top`` the top of the discard pile (``None``: empty), ``stock_only``: ``p`` may only draw
    from the stock (R4.2), ``pol`` how both sides play (:class:`Policy`; the classic one by
    default).  Returns ``(winner seat or None for a draw, points)``.
    """
    if pol is not CLASSIC:
        return _playout_policy(tab, pol, hands, stock, pos, top, p, stock_only, max_turns)
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


def _playout_policy(
    tab: Table,
    pol: Policy,
    hands: list[int],
    stock: list[int],
    pos: int,
    top: int | None,
    p: int,
    stock_only: bool,
    max_turns: int,
) -> tuple[int | None, int]:
    """:func:`playout` with a policy other than the classic one."""
    n = len(stock)
    big = tab.big_gin_bonus
    forbid_taken = not tab.discard_taken_card
    gain = pol.take_gain
    vals = CARD_VALUES
    for _ in range(max_turns):
        h = hands[p]
        other = hands[1 - p]
        forbid = -1
        took = False
        if top is not None and not stock_only:
            if take_by_policy(top, h):
                took = True
            elif gain and vals[top] <= 5:
                # a low card that makes no meld stays deadwood: it saves the value of the
                # highest deadwood card it replaces, less its own
                c, d = policy_discard(h | (1 << top), other, pol, top if forbid_taken else -1)
                if c != top and d <= deadwood(h) - gain:
                    took = True
        if took:
            assert top is not None
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
            return p, (big + deadwood(other)) * tab.multiplier
        c, d = policy_discard(h, other, pol, forbid)
        h ^= 1 << c
        hands[p] = h
        if knocks_now(tab, pol, d, n - pos, other):
            wins, pts = knock_points(tab, h, other, d)
            return (p if wins else 1 - p), pts
        top = c
        if n - pos <= 2:
            return None, 0
        p = 1 - p
    return None, 0
