"""The actions of a deal, with their text forms and integer codes.

Text forms (used by the terminal table, deal scripts, records and the web protocol):
``take upcard``, ``pass``, ``draw stock``, ``take discard``, ``discard 7H``, ``knock 7H``,
``gin 7H``, ``big gin``.  A knock may name its arrangement (R5.2):
``knock 7H melds AS 2S 3S / 4H 4D 4C``; without it the engine lays out the proposed one.

Integer codes (for agents): 0 draw stock, 1 take discard, 2 take upcard, 3 pass, 4 big gin,
5 + card: discard, 57 + card: knock (proposed arrangement), 109 + card: gin; 161 codes in all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from .cards import card_str, mask_of, parse_cards
from .errors import N_, CardParseError, IllegalActionError

__all__ = [
    "Action",
    "TAKE_UPCARD",
    "PASS",
    "DRAW_STOCK",
    "TAKE_DISCARD",
    "BIG_GIN",
    "discard",
    "knock",
    "gin",
    "parse_action",
    "NUM_CODES",
    "KINDS",
    "ActionKind",
    "meld",
    "layoff",
    "meld_id",
    "meld_mask",
    "layout_action",
    "MELD_CODE_BASE",
    "LAYOFF_CODE_BASE",
    "NUM_LAYOUT_CODES",
    "NUM_MELD_IDS",
]


class ActionKind(StrEnum):
    """The kind of an :class:`Action` (R4-R6).  A ``str``: each member equals, hashes and is
    written (text, JSON, records, ``repr``) as its value.

    >>> ActionKind.TAKE_UPCARD == "take_upcard", f"{ActionKind.BIG_GIN}", len(ActionKind)
    (True, 'big_gin', 10)
    """

    TAKE_UPCARD = "take_upcard"  #: take the upcard when it is offered (R4.2)
    PASS = "pass"  #: refuse the upcard (R4.2), or the discard at the wall (R7.2)
    DRAW_STOCK = "draw_stock"  #: draw the top card of the stock (R4.1)
    TAKE_DISCARD = "take_discard"  #: take the top card of the discard pile (R4.1, R7.2)
    DISCARD = "discard"  #: discard a card (R4.1)
    KNOCK = "knock"  #: discard a card face down and knock (R5.1)
    GIN = "gin"  #: knock with no deadwood (R6.1)
    BIG_GIN = "big_gin"  #: eleven cards in melds, no discard (R6.5)
    MELD = "meld"  #: lay one meld on the table, under ``layout="players"`` (R5.6)
    LAYOFF = "layoff"  #: lay one card off on the knocker's melds, under ``layout="players"`` (R5.6)

    def __repr__(self) -> str:
        # the plain string's repr, as before the enum, so reprs (and digests of them) are unchanged
        return repr(self.value)


#: The action kinds of a deal whose layout the engine makes, in this order (a tuple of :class:`ActionKind`).
KINDS: tuple[ActionKind, ...] = tuple(k for k in ActionKind if k not in ("meld", "layoff"))
#: The kinds of the layout decisions (R5.6, ``layout="players"`` only).
LAYOUT_KINDS: tuple[ActionKind, ...] = (ActionKind.MELD, ActionKind.LAYOFF)
_CARD_KINDS = (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN)
NUM_CODES = 161
#: The codes of the layout decisions (R5.6, ``layout="players"``): 161 + meld id (:func:`meld_id`,
#: 185 melds) lays that meld, 346 + card lays the card off; the end of a layout is ``pass`` (3).
MELD_CODE_BASE = 161
NUM_MELD_IDS = 185
LAYOFF_CODE_BASE = MELD_CODE_BASE + NUM_MELD_IDS
NUM_LAYOUT_CODES = LAYOFF_CODE_BASE + 52


def meld_id(mask: int) -> int:
    """The id (0..184) of a meld that may be laid in one move (R5.6): a set of three or four
    (rank * 5 + the missing suit, or rank * 5 + 4 for four), or a run of 3, 4 or 5 cards
    (65 + suit * 11 + low rank; 109 + suit * 10 + low rank; 149 + suit * 9 + low rank), ranks
    0..12 (ace low) and suits C D H S = 0..3 (OpenSpiel's numbering, in our suit order).
    Raises ``ValueError`` for anything else (a longer run is laid as two melds)."""
    cards = [c for c in range(52) if (mask >> c) & 1]
    n = len(cards)
    ranks = {c % 13 for c in cards}
    suits = {c // 13 for c in cards}
    if n in (3, 4) and len(ranks) == 1:
        r = cards[0] % 13
        return r * 5 + (4 if n == 4 else ({0, 1, 2, 3} - suits).pop())
    if 3 <= n <= 5 and len(suits) == 1 and max(ranks) - min(ranks) == n - 1:
        s, lo = cards[0] // 13, min(ranks)
        return (65, 109, 149)[n - 3] + s * (14 - n) + lo
    raise ValueError(f"not a meld of one move (a set of 3-4 or a run of 3-5 cards): {mask:#x}")


def meld_mask(i: int) -> int:
    """The card-set mask of meld id ``i`` (0..184), the inverse of :func:`meld_id`.
    Raises ``ValueError`` for another id."""
    if type(i) is not int or not 0 <= i < NUM_MELD_IDS:
        raise ValueError(f"not a meld id: {i!r} (ids are 0..{NUM_MELD_IDS - 1})")
    if i < 65:
        r, x = divmod(i, 5)
        return sum(1 << (s * 13 + r) for s in range(4) if s != x)
    for base, n in ((65, 3), (109, 4), (149, 5)):
        if i < base + 4 * (14 - n):
            s, lo = divmod(i - base, 14 - n)
            return sum(1 << (s * 13 + r) for r in range(lo, lo + n))
    raise AssertionError(i)  # pragma: no cover


@dataclass(frozen=True, slots=True)
class Action:
    """One action of a deal.

    Attributes:
        kind: one of :data:`KINDS` (an :class:`ActionKind`).
        card: the card int discarded (``discard``, ``knock``, ``gin``), else ``None``.
        melds: for ``knock``/``gin`` only, an optional arrangement chosen by the knocker: a tuple
            of card-set masks (R5.2); ``None`` lets the engine lay out the proposed arrangement.
    """

    kind: ActionKind
    card: int | None = None
    melds: tuple[int, ...] | None = None

    def __str__(self) -> str:
        return self.text

    @property
    def text(self) -> str:
        """The text form, e.g. ``"discard 7H"`` (see the module docstring)."""
        base = self.kind.replace("_", " ")
        if self.kind == ActionKind.MELD and self.melds:
            return f"meld {' '.join(card_str(c) for c in _cards(self.melds[0]))}"
        if self.card is not None:
            base = f"{base} {card_str(self.card)}"
        if self.melds:
            groups = " / ".join(" ".join(card_str(c) for c in _cards(m)) for m in self.melds)
            base = f"{base} melds {groups}"
        return base

    @property
    def code(self) -> int:
        """The integer code (0..160) of the action; an explicit arrangement is not encoded.
        A layout decision (R5.6) has a code of :data:`NUM_LAYOUT_CODES`: 161 + :func:`meld_id`
        for a meld, 346 + card for a layoff."""
        if self.kind == ActionKind.MELD:
            assert self.melds is not None and len(self.melds) == 1
            return MELD_CODE_BASE + meld_id(self.melds[0])
        if self.kind == ActionKind.LAYOFF:
            assert self.card is not None
            return LAYOFF_CODE_BASE + self.card
        if self.kind in _CARD_KINDS:
            assert self.card is not None
            return {"discard": 5, "knock": 57, "gin": 109}[self.kind] + self.card
        return {"draw_stock": 0, "take_discard": 1, "take_upcard": 2, "pass": 3, "big_gin": 4}[self.kind]

    @staticmethod
    def from_code(code: int) -> Action:
        """The action of an integer code (0..160).  Raises :class:`IllegalActionError` otherwise.

        >>> Action.from_code(3).text, Action.from_code(37).text
        ('pass', 'discard 7H')
        """
        if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < NUM_CODES:
            raise IllegalActionError(
                N_("not an action code: {code!r} (codes are 0..{last})", code=code, last=NUM_CODES - 1)
            )
        if code < 5:
            return _SIMPLE[("draw_stock", "take_discard", "take_upcard", "pass", "big_gin")[code]]
        if code < 57:
            return Action(ActionKind.DISCARD, code - 5)
        if code < 109:
            return Action(ActionKind.KNOCK, code - 57)
        return Action(ActionKind.GIN, code - 109)


def layout_action(code: int) -> Action:
    """The action of any code 0..397: :meth:`Action.from_code` below 161, else a meld or a
    layoff of the layout decisions (R5.6).  Raises :class:`IllegalActionError` otherwise."""
    if type(code) is int and MELD_CODE_BASE <= code < NUM_LAYOUT_CODES:
        if code < LAYOFF_CODE_BASE:
            return meld(meld_mask(code - MELD_CODE_BASE))
        return layoff(code - LAYOFF_CODE_BASE)
    if type(code) is int and 0 <= code < NUM_CODES:
        return Action.from_code(code)
    raise IllegalActionError(
        N_("not an action code: {code!r} (codes are 0..{last})", code=code, last=NUM_LAYOUT_CODES - 1)
    )


def meld(mask: int) -> Action:
    """The action that lays the meld ``mask`` (a card-set mask) on the table (R5.6)."""
    return Action(ActionKind.MELD, None, (mask,))


def layoff(c: int) -> Action:
    """The action that lays card ``c`` off on the knocker's melds (R5.6)."""
    return Action(ActionKind.LAYOFF, c)


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


TAKE_UPCARD = Action(ActionKind.TAKE_UPCARD)
PASS = Action(ActionKind.PASS)
DRAW_STOCK = Action(ActionKind.DRAW_STOCK)
TAKE_DISCARD = Action(ActionKind.TAKE_DISCARD)
BIG_GIN = Action(ActionKind.BIG_GIN)
_SIMPLE: dict[str, Action] = {a.kind: a for a in (TAKE_UPCARD, PASS, DRAW_STOCK, TAKE_DISCARD, BIG_GIN)}


def discard(c: int) -> Action:
    """The action that discards card ``c`` (int 0..51), R4.1."""
    return Action(ActionKind.DISCARD, c)


def knock(c: int, melds: tuple[int, ...] | None = None) -> Action:
    """The action that knocks, discarding ``c`` face down (R5.1, R5.2), optionally with melds."""
    return Action(ActionKind.KNOCK, c, melds)


def gin(c: int) -> Action:
    """The action that goes gin, discarding ``c`` (R2.5, R6.1)."""
    return Action(ActionKind.GIN, c)


_ALIASES = {
    "take upcard": "take_upcard",
    "take up": "take_upcard",
    "upcard": "take_upcard",
    "u": "take_upcard",
    "pass": "pass",
    "p": "pass",
    "draw stock": "draw_stock",
    "draw": "draw_stock",
    "stock": "draw_stock",
    "s": "draw_stock",
    "d": "draw_stock",
    "take discard": "take_discard",
    "take": "take_discard",
    "pile": "take_discard",
    "t": "take_discard",
    "big gin": "big_gin",
    "biggin": "big_gin",
}
_CARD_WORDS = {
    "discard": ActionKind.DISCARD,
    "x": ActionKind.DISCARD,
    "knock": ActionKind.KNOCK,
    "k": ActionKind.KNOCK,
    "gin": ActionKind.GIN,
    "g": ActionKind.GIN,
}

ACTION_HELP = "take upcard | pass | draw stock | take discard | discard CARD | knock CARD | gin CARD | big gin"


def parse_action(text: str) -> Action:
    """Read an action from its text form (case-insensitive; see the module docstring).

    Short forms are accepted: ``s``/``draw`` (draw stock), ``t``/``take`` (take discard),
    ``u`` (take upcard), ``p`` (pass), ``x 7H`` (discard), ``k 7H`` (knock), ``g 7H`` (gin).
    Raises :class:`IllegalActionError` naming the text and the allowed forms when it is not an
    action (a malformed card included).

    >>> parse_action("discard 7h"), parse_action("x 7h").code
    (Action(kind='discard', card=32, melds=None), 37)
    """
    if not isinstance(text, str):
        raise IllegalActionError(N_("not an action: {text!r}; actions: {actions}", text=text, actions=ACTION_HELP))
    # Speed: the same few hundred texts come again and again (a web table reads every move
    # from its text); an Action is immutable, so the one read before is returned
    known = _PARSED.get(text)
    if known is not None:
        return known
    action = _parse_action(text)
    if len(text) <= 40:
        if len(_PARSED) >= 4096:
            _PARSED.clear()
        _PARSED[text] = action
    return action


_PARSED: dict[str, Action] = {}
"""Texts read lately and their actions (at most 4,096; a knock that names its melds is longer
than 40 characters and is read each time)."""


def _parse_action(text: str) -> Action:
    clean = re.sub(r"\s+", " ", text.strip().replace("_", " "))  # as typed: its cards are echoed in errors
    norm = clean.lower()
    if norm in _ALIASES:
        return _SIMPLE[_ALIASES[norm]]
    word, _, rest = norm.partition(" ")
    if word in ("meld", "layoff") and rest:  # the layout decisions (R5.6)
        try:
            cards = parse_cards(clean.partition(" ")[2])
        except CardParseError as exc:
            raise IllegalActionError(
                N_(
                    "bad action {text!r}: {error}; actions: {actions}",
                    text=text.strip(),
                    error=exc,
                    actions=ACTION_HELP,
                )
            ) from None
        if word == "meld":
            return meld(mask_of(cards))
        if len(cards) == 1:
            return layoff(cards[0])
    if word in _CARD_WORDS and not rest:
        raise IllegalActionError(
            N_("bad action {text!r}: name exactly one card; actions: {actions}", text=text.strip(), actions=ACTION_HELP)
        )
    if word in _CARD_WORDS:
        kind = _CARD_WORDS[word]
        typed = clean.partition(" ")[2]  # the cards as typed; the words are read in any case
        m = re.search(r" melds ", typed, flags=re.IGNORECASE)
        card_text, meld_text = (typed[: m.start()], typed[m.end() :]) if m else (typed, "")
        try:
            cards = parse_cards(card_text)
        except CardParseError as exc:
            raise IllegalActionError(
                N_(
                    "bad action {text!r}: {error}; actions: {actions}",
                    text=text.strip(),
                    error=exc,
                    actions=ACTION_HELP,
                )
            ) from None
        if len(cards) != 1:
            raise IllegalActionError(
                N_(
                    "bad action {text!r}: name exactly one card; actions: {actions}",
                    text=text.strip(),
                    actions=ACTION_HELP,
                )
            )
        c = cards[0]
        melds = None
        if meld_text:
            if kind != "knock":
                raise IllegalActionError(N_("bad action {text!r}: only a knock names its melds", text=text.strip()))
            try:
                melds = tuple(mask_of(parse_cards(g)) for g in meld_text.split("/") if g.strip())
            except CardParseError as exc:
                raise IllegalActionError(N_("bad action {text!r}: {error}", text=text.strip(), error=exc)) from None
        return Action(kind, c, melds)
    raise IllegalActionError(N_("not an action: {text!r}; actions: {actions}", text=text.strip(), actions=ACTION_HELP))
