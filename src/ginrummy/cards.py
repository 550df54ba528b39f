"""Cards and card sets (R1).

A **card** is an ``int`` from 0 to 51: ``suit * 13 + rank``, with suits in the order clubs,
diamonds, hearts, spades (``C D H S`` = 0..3) and ranks ace low (``A`` = 0 .. ``K`` = 12),
R1.1-R1.2.  A **card set** (a hand, a meld, the stock as a set) is an ``int`` bit mask with bit
``card`` set for each card in it, so the 13 cards of one suit are the 13-bit slice
``(mask >> (13 * suit)) & 0x1FFF``.  Plain ints keep the hot paths fast; this module converts
them to and from the text notation of R1.4 (``AS``, ``TD``, ``KH``; ``10`` accepted for ``T``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import IntEnum

from .errors import N_, CardParseError

__all__ = [
    "Suit",
    "Rank",
    "RANK_CHARS",
    "CARD_STRS",
    "SUIT_CHARS",
    "FULL_DECK",
    "SUIT_MASK",
    "card",
    "rank_of",
    "suit_of",
    "value_of",
    "CARD_VALUES",
    "card_str",
    "cards_str",
    "parse_card",
    "parse_cards",
    "mask_of",
    "cards_of",
    "mask_value",
    "popcount",
    "sort_cards",
]

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"
FULL_DECK = (1 << 52) - 1
SUIT_MASK = 0x1FFF


class Suit(IntEnum):
    """The four suits (R1.1), in the order used by the card encoding."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3


class Rank(IntEnum):
    """The thirteen ranks, ace low (R1.2): ``ACE`` = 0 .. ``KING`` = 12."""

    ACE = 0
    TWO = 1
    THREE = 2
    FOUR = 3
    FIVE = 4
    SIX = 5
    SEVEN = 6
    EIGHT = 7
    NINE = 8
    TEN = 9
    JACK = 10
    QUEEN = 11
    KING = 12


def card(rank: int, suit: int) -> int:
    """The card (int 0..51) of ``rank`` (0..12, ace 0) and ``suit`` (0..3, ``C D H S``)."""
    return suit * 13 + rank


def rank_of(c: int) -> int:
    """The rank of card ``c``: 0 (ace) .. 12 (king)."""
    return c % 13


def suit_of(c: int) -> int:
    """The suit of card ``c``: 0..3 for ``C D H S``."""
    return c // 13


#: Deadwood value of each card (R1.3): ace 1, two to ten face value, J Q K 10.
CARD_VALUES: tuple[int, ...] = tuple(min(rank_of(c) + 1, 10) for c in range(52))


def value_of(c: int) -> int:
    """Deadwood value of card ``c`` in points (R1.3): ace 1, 2-10 face value, J Q K 10."""
    return CARD_VALUES[c]


#: ``CARD_STRS[c]``: the text form of card ``c`` (R1.4), as :func:`card_str` gives it, without
#: its check (for loops over engine cards, which are ints 0..51 already).
CARD_STRS: tuple[str, ...] = tuple(RANK_CHARS[c % 13] + SUIT_CHARS[c // 13] for c in range(52))
_CARD_STRS = CARD_STRS  # the old private name (web/ used it); to go once nothing imports it


def card_str(c: int) -> str:
    """The text form of card ``c`` (R1.4), upper case: ``"AS"``, ``"TD"``, ``"KH"``.

    >>> card_str(0), card_str(32), card_str(51)
    ('AC', '7H', 'KS')
    """
    if not isinstance(c, int) or not 0 <= c < 52:
        raise CardParseError(N_("not a card: {card!r} (cards are ints 0..51)", card=c))
    return _CARD_STRS[c]


def cards_str(cards: Iterable[int] | int, sep: str = " ") -> str:
    """The text form of several cards, separated by ``sep``; a mask is written in card order.

    >>> cards_str([39, 40, 41]), cards_str(mask_of([41, 39, 40]), sep=",")
    ('AS 2S 3S', 'AS,2S,3S')
    """
    if isinstance(cards, int):
        cards = cards_of(cards)
    return sep.join(_CARD_STRS[c] for c in cards)


_CARD_RE = re.compile(r"^(10|[A2-9TJQK])([CDHS])$", re.IGNORECASE)


def parse_card(text: str) -> int:
    """Read one card in the notation of R1.4 and return it as an int 0..51.

    Accepts ``A 2 3 4 5 6 7 8 9 T J Q K`` (or ``10``) followed by ``C D H S``, in any case,
    with surrounding white space.  Raises :class:`CardParseError` naming the text and the
    allowed form when it is not a card.

    >>> parse_card("7h"), parse_card("TD")
    (32, 22)
    """
    if not isinstance(text, str):
        raise CardParseError(N_("not a card: {text!r} (write a card as rank then suit, e.g. AS, TD, 10H)", text=text))
    m = _CARD_RE.match(text.strip())
    if not m:
        raise CardParseError(
            N_(
                "not a card: {text!r} (write rank A 2-9 T/10 J Q K then suit C D H S, e.g. AS, TD, 10H)",
                text=text.strip(),
            )
        )
    rank_text = m.group(1).upper()
    rank = 9 if rank_text == "10" else RANK_CHARS.index(rank_text)
    return card(rank, SUIT_CHARS.index(m.group(2).upper()))


def parse_cards(text: str | Iterable[str], *, allow_repeats: bool = False) -> list[int]:
    """Read several cards, separated by spaces and/or commas, keeping their order.

    ``text`` is one string (``"AS 2S,3S"``) or an iterable of strings, each of which may itself
    hold several cards.  Raises :class:`CardParseError` for a malformed card, or for a card
    given twice unless ``allow_repeats``.

    >>> parse_cards("AS 2S 3S")
    [39, 40, 41]
    """
    parts: list[str] = []
    if isinstance(text, str):
        parts = [p for p in re.split(r"[\s,]+", text) if p]
    else:
        for item in text:
            if not isinstance(item, str):
                raise CardParseError(N_("not a card: {text!r}", text=item))
            parts.extend(p for p in re.split(r"[\s,]+", item) if p)
    cards = [parse_card(p) for p in parts]
    if not allow_repeats:
        seen: set[int] = set()
        for c in cards:
            if c in seen:
                raise CardParseError(N_("card {card} is given twice", card=_CARD_STRS[c]))
            seen.add(c)
    return cards


def mask_of(cards: Iterable[int]) -> int:
    """The card-set bit mask of an iterable of cards (ints 0..51).

    >>> bin(mask_of([0, 2]))
    '0b101'
    """
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_SUIT_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(suit * 13 + r for r in range(13) if (m >> r) & 1) for m in range(8192)) for suit in range(4)
)


def cards_of(mask: int) -> list[int]:
    """The cards (ints, ascending) of a card-set bit mask.

    >>> cards_of(0b101)
    [0, 2]
    """
    return [
        *_SUIT_CARDS[0][mask & 0x1FFF],
        *_SUIT_CARDS[1][(mask >> 13) & 0x1FFF],
        *_SUIT_CARDS[2][(mask >> 26) & 0x1FFF],
        *_SUIT_CARDS[3][(mask >> 39) & 0x1FFF],
    ]


def mask_value(mask: int) -> int:
    """The total deadwood value (points, R1.3) of the cards in ``mask``.

    >>> mask_value(mask_of(parse_cards("KH QH 5C")))
    25
    """
    total = 0
    while mask:
        low = mask & -mask
        total += CARD_VALUES[low.bit_length() - 1]
        mask ^= low
    return total


def popcount(mask: int) -> int:
    """The number of cards in a card-set mask."""
    return mask.bit_count()


def sort_cards(cards: Iterable[int], by: str = "suit") -> list[int]:
    """Cards sorted for display: ``by="suit"`` (suit, then rank) or ``by="rank"`` (rank, then suit)."""
    if by == "rank":
        return sorted(cards, key=lambda c: (c % 13, c // 13))
    return sorted(cards)
