"""Exact meld search: best arrangement and deadwood (R2), knock discards (R5.1), big gin
(R6.5), and the defender's optimal melds plus chained layoffs (R5.4, R5.5).

Hands and melds are card-set bit masks (see :mod:`ginrummy.cards`); deadwood values are
points (R1.3).

How the search is exact and fast: within one suit, runs only, the best choice is fixed: every
maximal block of three or more consecutive cards is melded, shorter blocks are deadwood.  So the
runs-only deadwood of each 13-bit suit mask is a table of 8,192 entries built once at import.
Only ranks held three or four times can form sets; the search enumerates, for those few ranks,
"no set", the set of all, or (for four) each set of three, removes the chosen set cards, and
adds the four suits' table values.  The minimum over those choices is the minimum over all
legal arrangements (R2.4), since any arrangement is some choice of sets plus runs in what
remains.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from .cards import SUIT_MASK, cards_of, mask_value

__all__ = [
    "Arrangement",
    "Layoff",
    "DefenderLayout",
    "deadwood",
    "best_arrangement",
    "min_deadwood_arrangements",
    "discard_options",
    "deadwood_after_discards",
    "best_discard_deadwood",
    "best_discard_deadwood_except",
    "is_big_gin",
    "defender_layout",
    "layoff_cards",
    "meld_extensions",
    "is_meld",
    "knock_arrangement",
    "MELDS_BY_CARD",
    "melds_with",
]

_RANK_VALUES = tuple(min(r + 1, 10) for r in range(13))


def _build_run_tables() -> tuple[list[int], list[int]]:
    """RUN_DW[m]: deadwood points of suit mask m with runs only; RUN_MELDED[m]: its melded bits."""
    dw = [0] * 8192
    melded = [0] * 8192
    for m in range(1, 8192):
        total = 0
        mel = 0
        r = 0
        while r < 13:
            if not (m >> r) & 1:
                r += 1
                continue
            start = r
            while r < 13 and (m >> r) & 1:
                r += 1
            length = r - start
            block = ((1 << length) - 1) << start
            if length >= 3:
                mel |= block
            else:
                total += sum(_RANK_VALUES[k] for k in range(start, r))
        dw[m] = total
        melded[m] = mel
    return dw, melded


RUN_DW, RUN_MELDED = _build_run_tables()


def _build_gain_table() -> list[int]:
    """DROP_GAIN[m]: the runs-only deadwood points saved by the best removal of one card of
    suit mask m, ``RUN_DW[m] - min(RUN_DW[m without c] for c in m)``; negative when every
    removal costs (a three-card run).  The empty mask gets a large negative number: it has no
    card to drop."""
    gain = [-(1 << 20)] * 8192
    for m in range(1, 8192):
        best = 1 << 20
        rest = m
        while rest:
            low = rest & -rest
            d = RUN_DW[m ^ low]
            if d < best:
                best = d
            rest ^= low
        gain[m] = RUN_DW[m] - best
    return gain


#: Per 13-bit suit mask: runs-only points saved by dropping its best card (R5.1 discards).
DROP_GAIN = _build_gain_table()

# For each 4-bit pattern of suits holding a rank: the set choices (as 4-bit suit subsets).
_SET_CHOICES: list[tuple[int, ...]] = []
for _pattern in range(16):
    _n = _pattern.bit_count()
    if _n < 3:
        _SET_CHOICES.append((0,))
    elif _n == 3:
        _SET_CHOICES.append((0, _pattern))
    else:
        _SET_CHOICES.append((0, 15, 14, 13, 11, 7))


def _build_set_removals() -> list[tuple[int, ...]]:
    """_SET_REMOVALS[rank * 16 + pattern]: the set choices of that rank held in the suits of
    ``pattern``, each as the 52-bit mask of the cards the set takes (0 = no set)."""
    out = []
    for r in range(13):
        for pattern in range(16):
            rems = []
            for sub in _SET_CHOICES[pattern]:
                rems.append(sum(1 << (13 * s + r) for s in range(4) if (sub >> s) & 1))
            out.append(tuple(rems))
    return out


_SET_REMOVALS = _build_set_removals()


def _slices(mask: int) -> tuple[int, int, int, int]:
    return (mask & SUIT_MASK, (mask >> 13) & SUIT_MASK, (mask >> 26) & SUIT_MASK, (mask >> 39) & SUIT_MASK)


def _set_ranks(s0: int, s1: int, s2: int, s3: int) -> int:
    """Bits of the ranks held in three or four suits."""
    return (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)


def _set_removal_lists(mask: int, trips: int) -> list[tuple[int, ...]]:
    """For each rank of ``trips``: its set choices as removal masks (see _SET_REMOVALS)."""
    out = []
    while trips:
        low = trips & -trips
        r = low.bit_length() - 1
        trips ^= low
        pattern = ((mask >> r) & 1) | ((mask >> (r + 12)) & 2) | ((mask >> (r + 24)) & 4) | ((mask >> (r + 36)) & 8)
        out.append(_SET_REMOVALS[r * 16 + pattern])
    return out


def deadwood(mask: int) -> int:
    """The least deadwood value, in points, of the cards in ``mask`` over all legal meld
    arrangements (R2.4).  Works for any number of cards (10 for a hand, 11 after a draw).

    Hot path: no rank held three times -> four table lookups.  One such rank -> its set
    choices change only the suits that hold it, independently, so the best choice is read off
    the per-suit changes (no set; the set of all; or, for four of a kind, all but the suit whose
    removal costs most).  Two or more such ranks -> every combination of set choices.

    >>> from ginrummy.cards import mask_of, parse_cards
    >>> deadwood(mask_of(parse_cards("AS 2S 3S 7H 7D 7C KD QC 9H 2D")))
    31
    """
    s0 = mask & 8191
    s1 = (mask >> 13) & 8191
    s2 = (mask >> 26) & 8191
    s3 = mask >> 39
    trips = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    t = RUN_DW
    if not trips:
        return t[s0] + t[s1] + t[s2] + t[s3]
    if not trips & (trips - 1):
        a0 = t[s0]
        a1 = t[s1]
        a2 = t[s2]
        a3 = t[s3]
        keep = ~trips
        b0 = t[s0 & keep] - a0
        b1 = t[s1 & keep] - a1
        b2 = t[s2 & keep] - a2
        b3 = t[s3 & keep] - a3
        d = b0 + b1 + b2 + b3
        if s0 & s1 & s2 & s3:
            # four of a kind: the set may leave out the suit whose removal costs most
            m = b0
            if b1 > m:
                m = b1
            if b2 > m:
                m = b2
            if b3 > m:
                m = b3
            if m > 0:
                d -= m
        return a0 + a1 + a2 + a3 + d if d < 0 else a0 + a1 + a2 + a3
    return _deadwood_sets(mask, trips)


def _deadwood_sets(mask: int, trips: int) -> int:
    """deadwood() for two or more ranks held three or four times: every set choice."""
    t = RUN_DW
    lists = _set_removal_lists(mask, trips)
    best = 1 << 30
    if len(lists) == 2:
        first, second = lists
        for x in first:
            mx = mask ^ x
            for y in second:
                m = mx ^ y
                d = t[m & 8191] + t[(m >> 13) & 8191] + t[(m >> 26) & 8191] + t[m >> 39]
                if d < best:
                    best = d
        return best
    for combo in product(*lists):
        m = mask
        for x in combo:
            m ^= x
        d = t[m & 8191] + t[(m >> 13) & 8191] + t[(m >> 26) & 8191] + t[m >> 39]
        if d < best:
            best = d
    return best


def _search(s0: int, s1: int, s2: int, s3: int, trips: int) -> tuple[int, list[tuple[int, int]]]:
    """Least deadwood and the list of (rank, suit-subset) set choices that reach it."""
    ranks = []
    while trips:
        low = trips & -trips
        r = low.bit_length() - 1
        ranks.append(r)
        trips ^= low
    choice_lists = []
    for r in ranks:
        pattern = ((s0 >> r) & 1) | (((s1 >> r) & 1) << 1) | (((s2 >> r) & 1) << 2) | (((s3 >> r) & 1) << 3)
        choice_lists.append(_SET_CHOICES[pattern])
    best = 1 << 30
    best_choice: list[tuple[int, int]] = []
    for combo in product(*choice_lists):
        c0, c1, c2, c3 = s0, s1, s2, s3
        for r, sub in zip(ranks, combo):
            if sub:
                bit = 1 << r
                if sub & 1:
                    c0 &= ~bit
                if sub & 2:
                    c1 &= ~bit
                if sub & 4:
                    c2 &= ~bit
                if sub & 8:
                    c3 &= ~bit
        total = RUN_DW[c0] + RUN_DW[c1] + RUN_DW[c2] + RUN_DW[c3]
        if total < best:
            best = total
            best_choice = [(r, sub) for r, sub in zip(ranks, combo) if sub]
    return best, best_choice


@dataclass(frozen=True)
class Arrangement:
    """One way to lay out a hand: melds and deadwood.

    Attributes:
        melds: tuple of card-set masks, one per meld (sets of 3-4, runs of 3+; R2.1-R2.3),
            ordered by their lowest card.
        deadwood: card-set mask of the unmelded cards.
        deadwood_value: their total value in points (R2.4).
    """

    melds: tuple[int, ...]
    deadwood: int
    deadwood_value: int

    def meld_cards(self) -> list[list[int]]:
        """The melds as lists of card ints (each ascending)."""
        return [cards_of(m) for m in self.melds]

    def deadwood_cards(self) -> list[int]:
        """The deadwood cards as ints, ascending."""
        return cards_of(self.deadwood)


def _runs_of_suit(bits: int, suit: int) -> list[int]:
    """The maximal runs (as card masks) of a suit's melded bits."""
    out = []
    r = 0
    while r < 13:
        if not (bits >> r) & 1:
            r += 1
            continue
        start = r
        while r < 13 and (bits >> r) & 1:
            r += 1
        out.append((((1 << (r - start)) - 1) << start) << (13 * suit))
    return out


def _arrangement_from_choice(mask: int, choice: Iterable[tuple[int, int]]) -> Arrangement:
    sl = list(_slices(mask))
    melds = []
    for r, sub in choice:
        set_mask = 0
        for s in range(4):
            if (sub >> s) & 1:
                sl[s] &= ~(1 << r)
                set_mask |= 1 << (13 * s + r)
        melds.append(set_mask)
    for s in range(4):
        melds.extend(_runs_of_suit(RUN_MELDED[sl[s]], s))
    melded = 0
    for m in melds:
        melded |= m
    dead = mask & ~melded
    melds.sort(key=lambda m: (m & -m).bit_length())
    return Arrangement(tuple(melds), dead, mask_value(dead))


def best_arrangement(mask: int) -> Arrangement:
    """An arrangement of ``mask`` with the least deadwood (R2.4).  Any number of cards.

    >>> from ginrummy.cards import cards_str, mask_of, parse_cards
    >>> a = best_arrangement(mask_of(parse_cards("AS 2S 3S 7H 7D 7C KD QC 9H 2D")))
    >>> [cards_str(m) for m in a.melds], cards_str(a.deadwood), a.deadwood_value
    (['7C 7D 7H', 'AS 2S 3S'], 'QC 2D KD 9H', 31)
    """
    s0, s1, s2, s3 = _slices(mask)
    trips = _set_ranks(s0, s1, s2, s3)
    choice = _search(s0, s1, s2, s3, trips)[1] if trips else []
    return _arrangement_from_choice(mask, choice)


def min_deadwood_arrangements(mask: int) -> list[Arrangement]:
    """Every arrangement of ``mask`` whose deadwood is the least (R2.4, R5.2), differing in
    which cards form sets; runs are written as maximal blocks."""
    s0, s1, s2, s3 = _slices(mask)
    trips = _set_ranks(s0, s1, s2, s3)
    if not trips:
        return [_arrangement_from_choice(mask, [])]
    ranks = cards_of(trips)
    choice_lists = []
    for r in ranks:
        pattern = ((s0 >> r) & 1) | (((s1 >> r) & 1) << 1) | (((s2 >> r) & 1) << 2) | (((s3 >> r) & 1) << 3)
        choice_lists.append(_SET_CHOICES[pattern])
    best = deadwood(mask)
    out = []
    seen = set()
    for combo in product(*choice_lists):
        arr = _arrangement_from_choice(mask, [(r, sub) for r, sub in zip(ranks, combo) if sub])
        if arr.deadwood_value == best and arr.melds not in seen:
            seen.add(arr.melds)
            out.append(arr)
    return out


def deadwood_after_discards(hand: int, cards: Iterable[int]) -> dict[int, int]:
    """``{c: deadwood points of hand without c}`` for each card ``c`` of ``cards`` (cards of
    ``hand``, a card-set mask), R2.4, R5.1.

    Speed: when no rank of ``hand`` is held three or four times, deadwood is the sum of the four
    suits' runs-only deadwood (``RUN_DW``) and a discard changes only its own suit, so each card
    costs two table reads; otherwise :func:`deadwood` per card.
    """
    s0, s1, s2, s3 = s = (hand & SUIT_MASK, (hand >> 13) & SUIT_MASK, (hand >> 26) & SUIT_MASK, hand >> 39)
    if (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3):
        return {c: deadwood(hand & ~(1 << c)) for c in cards}
    t = RUN_DW
    base = t[s0] + t[s1] + t[s2] + t[s3]
    out = {}
    for c in cards:
        k = c // 13
        sk = s[k]
        out[c] = base - t[sk] + t[sk & ~(1 << (c - 13 * k))]
    return out


def discard_options(mask: int) -> list[tuple[int, int]]:
    """For each card of ``mask`` (an 11-card hand after the draw): ``(card, deadwood points of
    the other cards)``, in card order (R5.1)."""
    return list(deadwood_after_discards(mask, cards_of(mask)).items())


def best_discard_deadwood(mask: int) -> int:
    """The least deadwood (points) of ``mask`` less one card: what an 11-card hand can keep
    after its best discard (R5.1).  Equals ``min(deadwood(mask without c) for c in mask)``.

    Computed directly, not by eleven deadwood() calls: for each choice of sets (as in
    deadwood()), the discard is taken from what is left for runs, and the best card to drop in
    each suit is a table (``DROP_GAIN``).  Dropping a card of a chosen set is covered too: a
    set of four becomes a set of three (another choice), and a set of three broken by the
    discard is the choice "no set" with that card dropped.
    """
    if not mask:
        return 1 << 30
    s0 = mask & 8191
    s1 = (mask >> 13) & 8191
    s2 = (mask >> 26) & 8191
    s3 = mask >> 39
    trips = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    t = RUN_DW
    g = DROP_GAIN
    if not trips:
        m = g[s0]
        x = g[s1]
        if x > m:
            m = x
        x = g[s2]
        if x > m:
            m = x
        x = g[s3]
        if x > m:
            m = x
        return t[s0] + t[s1] + t[s2] + t[s3] - m
    best = 1 << 30
    if not trips & (trips - 1):
        r = trips.bit_length() - 1
        combos: Iterable[int] = _SET_REMOVALS[
            r * 16
            + (((mask >> r) & 1) | ((mask >> (r + 12)) & 2) | ((mask >> (r + 24)) & 4) | ((mask >> (r + 36)) & 8))
        ]
    else:
        lists = _set_removal_lists(mask, trips)
        if len(lists) == 2:
            first, second = lists
            combos = [x ^ y for x in first for y in second]
        else:
            combos = []
            for combo in product(*lists):
                m = 0
                for x in combo:
                    m |= x
                combos.append(m)
    for rem in combos:
        r = mask ^ rem
        c0 = r & 8191
        c1 = (r >> 13) & 8191
        c2 = (r >> 26) & 8191
        c3 = r >> 39
        m = g[c0]
        x = g[c1]
        if x > m:
            m = x
        x = g[c2]
        if x > m:
            m = x
        x = g[c3]
        if x > m:
            m = x
        d = t[c0] + t[c1] + t[c2] + t[c3] - m
        if d < best:
            best = d
    return best


def best_discard_deadwood_except(mask: int, forbid: int | None) -> int:
    """The least deadwood (points) of ``mask`` less one card other than ``forbid``: what an
    11-card hand keeps after its best discard when ``forbid`` may not be thrown, such as the card
    just taken from the discard pile (R4.3).  With ``forbid`` ``None`` or not in ``mask``, the same
    as :func:`best_discard_deadwood`.

    >>> from ginrummy.cards import mask_of, parse_card, parse_cards
    >>> hand = mask_of(parse_cards("AC 2C 3C 4D 5D 6D 7H 8H 9H KS 10H"))
    >>> best_discard_deadwood_except(hand, None), best_discard_deadwood_except(hand, parse_card("KS"))
    (0, 10)
    """
    if forbid is None or not (mask >> forbid) & 1:
        return best_discard_deadwood(mask)
    return min(deadwood_after_discards(mask, cards_of(mask & ~(1 << forbid))).values(), default=1 << 30)


def is_big_gin(mask: int) -> bool:
    """Whether all cards of ``mask`` (11 after the draw) form melds (R2.5, R6.5)."""
    return deadwood(mask) == 0


def is_meld(mask: int) -> bool:
    """Whether the cards of ``mask`` form one legal meld: a set of 3-4 of a rank (R2.1) or a
    run of 3+ consecutive cards of one suit, ace low (R2.2).

    >>> from ginrummy.cards import mask_of, parse_cards
    >>> is_meld(mask_of(parse_cards("7H 7D 7C"))), is_meld(mask_of(parse_cards("7H 8H 9D")))
    (True, False)
    """
    n = mask.bit_count()
    if n < 3:
        return False
    cards = cards_of(mask)
    ranks = {c % 13 for c in cards}
    if len(ranks) == 1:
        return n <= 4
    suits = {c // 13 for c in cards}
    if len(suits) != 1:
        return False
    lo = cards[0]
    return mask == ((1 << n) - 1) << lo and (lo % 13) + n <= 13


@dataclass(frozen=True)
class Layoff:
    """One card laid off by the defender (R5.4).

    Attributes:
        card: the card int laid off.
        onto: card-set mask of the knocker's meld as it stood before this card (the original
            meld plus the cards laid off on it before, since layoffs chain).
    """

    card: int
    onto: int


@dataclass(frozen=True)
class DefenderLayout:
    """The defender's best layout against a knock (R5.3-R5.5).

    Attributes:
        melds: the defender's own melds (card-set masks).
        layoffs: the cards he lays off, in the order laid.
        deadwood: card-set mask of what remains.
        deadwood_value: its value in points (the D of R6).
    """

    melds: tuple[int, ...]
    layoffs: tuple[Layoff, ...]
    deadwood: int
    deadwood_value: int


def meld_extensions(meld: int, pool: int) -> list[list[int]]:
    """The layoff chains the cards of ``pool`` allow on ``meld``: a list of directions, each a
    list of cards in the order they must be laid (nearest first)."""
    cards = cards_of(meld)
    ranks = {c % 13 for c in cards}
    if len(ranks) == 1:
        if len(cards) >= 4:
            return []
        r = cards[0] % 13
        missing = [s * 13 + r for s in range(4) if not (meld >> (s * 13 + r)) & 1]
        return [[c] for c in missing if (pool >> c) & 1]
    lo, hi = cards[0], cards[-1]
    suit_base = (lo // 13) * 13
    down = []
    c = lo - 1
    while c >= suit_base and (pool >> c) & 1:
        down.append(c)
        c -= 1
    up = []
    c = hi + 1
    while c < suit_base + 13 and (pool >> c) & 1:
        up.append(c)
        c += 1
    return [d for d in (down, up) if d]


def layoff_cards(pool: int, melds: Sequence[int]) -> int:
    """Card-set mask of every card of ``pool`` that could be laid off on ``melds`` if laid alone
    or as part of a chain from ``pool`` (R5.4).  Used to compare knock arrangements (R5.2)."""
    out = 0
    for meld in melds:
        for chain in meld_extensions(meld, pool):
            for c in chain:
                out |= 1 << c
    return out


def defender_layout(defender: int, knocker_melds: Sequence[int], *, allow_layoffs: bool = True) -> DefenderLayout:
    """The defender's melds and layoffs, chosen together to leave the least deadwood (R5.5).

    ``defender`` is his card-set mask (10 cards); ``knocker_melds`` the knocker's melds as
    masks.  With ``allow_layoffs=False`` (the knocker went gin, R5.4, R6.1) he only melds.
    Exact: every combination of layoff chains (a prefix of each direction of each knocker meld)
    is tried with the best melds of the remaining cards.
    """
    options: list[list[tuple[int, list[Layoff]]]] = []
    if allow_layoffs:
        for meld in knocker_melds:
            dirs = meld_extensions(meld, defender)
            is_set = len({c % 13 for c in cards_of(meld)}) == 1
            if is_set:
                # a set of three takes at most one fourth card
                opts: list[tuple[int, list[Layoff]]] = [(0, [])] + [(1 << d[0], [Layoff(d[0], meld)]) for d in dirs]
                options.append(opts)
                continue
            per_dir: list[list[tuple[int, list[Layoff]]]] = []
            for chain in dirs:
                choices: list[tuple[int, list[Layoff]]] = [(0, [])]
                used = 0
                chain_lays: list[Layoff] = []
                for c in chain:
                    chain_lays = chain_lays + [Layoff(c, meld | used)]
                    used |= 1 << c
                    choices.append((used, chain_lays))
                per_dir.append(choices)
            if not per_dir:
                continue
            if len(per_dir) == 1:
                options.append(per_dir[0])
            else:
                combined = []
                for (m1, l1), (m2, l2) in product(per_dir[0], per_dir[1]):
                    # the second direction's "onto" includes the first direction's cards
                    l2fixed = [Layoff(x.card, x.onto | m1) for x in l2]
                    combined.append((m1 | m2, l1 + l2fixed))
                options.append(combined)
    best: tuple[int, int, list[Layoff]] | None = None
    for combo in product(*options) if options else [()]:
        used = 0
        lays: list[Layoff] = []
        ok = True
        for m, combo_lays in combo:
            if used & m:
                ok = False
                break
            used |= m
            lays.extend(combo_lays)
        if not ok:
            continue
        d = deadwood(defender & ~used)
        key = (d, len(lays))
        if best is None or key < (best[0], len(best[2])):
            best = (d, used, lays)
    assert best is not None
    d, used, lays = best
    arr = best_arrangement(defender & ~used)
    return DefenderLayout(arr.melds, tuple(lays), arr.deadwood, arr.deadwood_value)


def knock_arrangement(hand: int, unseen: int | None = None) -> Arrangement:
    """The arrangement the interface proposes to a knocker (R5.2): least deadwood and, among
    those, the one on which the fewest of the ``unseen`` cards (mask of cards the knocker
    cannot see; default every card not in ``hand``) could be laid off."""
    arrs = min_deadwood_arrangements(hand)
    if len(arrs) == 1:
        return arrs[0]
    pool = ((1 << 52) - 1) & ~hand if unseen is None else unseen
    return min(arrs, key=lambda a: layoff_cards(pool, a.melds).bit_count())


def _minimal_melds() -> list[int]:
    """Every set of three or four and every run of three in the deck, as card-set masks."""
    out = []
    for r in range(13):
        four = sum(1 << (s * 13 + r) for s in range(4))
        out.append(four)
        out.extend(four & ~(1 << (s * 13 + r)) for s in range(4))
    for s in range(4):
        out.extend(0b111 << (s * 13 + lo) for lo in range(11))
    return out


#: For each card (int 0..51): the masks of the sets (R2.1) and three-card runs (R2.2) that hold
#: it.  A card belongs to some meld with a hand exactly when one of these lies in hand + card,
#: since any longer run holding the card holds a run of three with it.
MELDS_BY_CARD: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for m in _minimal_melds() if (m >> c) & 1) for c in range(52)
)


def melds_with(card: int, hand: int) -> bool:
    """Whether ``card`` (an int) would belong to some meld made with cards of ``hand`` (a
    card-set mask): a set (R2.1) or a run (R2.2, ace low)."""
    full = hand | (1 << card)
    for m in MELDS_BY_CARD[card]:
        if m & full == m:
            return True
    return False
