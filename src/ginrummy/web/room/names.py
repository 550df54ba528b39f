"""Names of people and seats, compared as people read them: the uniqueness key of a name
(:func:`name_key`, :func:`typed_name_key`), its look-alike skeletons (:func:`name_skeletons`),
invisible characters (:func:`strip_invisible`) and the names nobody may take
(:func:`is_reserved_name`) and the names that read as a computer's (:func:`is_computer_name`).  Used by the tables, the lobby and the accounts."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from ...i18n import LANGUAGES, level_in_text
from ..levels import player_levels
from ..texts import web_translator

__all__ = [
    "name_key",
    "typed_name_key",
    "strip_invisible",
    "name_skeleton",
    "name_skeletons",
    "is_reserved_name",
    "RESERVED_NAMES",
    "IGNORABLE",
    "computer_seat_name",
    "is_computer_name",
]


def name_key(name: str) -> str:
    """The uniqueness key of a name: NFKC-normalised and case-folded (``"Ann"`` and ``"ANN"``
    are one name)."""
    return unicodedata.normalize("NFKC", name).casefold()


def typed_name_key(name: str) -> str:
    """The :func:`name_key` of a name as someone typed it: its whitespace runs folded to one
    space and its ends trimmed first, as :func:`~ginrummy.web.community.accounts.check_name` stores names, so that ``"  ann
    LEE "`` and ``"Ann Lee"`` are one name.  Used to find an account by name
    (:meth:`~ginrummy.web.community.accounts.Accounts.verify` and its sign-in limit, :meth:`~ginrummy.web.community.accounts.Accounts.name_in_use`, the player
    page).  Names that only look alike are told by :func:`name_skeletons`."""
    return name_key(" ".join(name.split()))


IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\U0001bca0-\U0001bca3\U000e0000-\U000e0fff]"
)
"""Unicode's default-ignorable code points (drawn as nothing: the zero-width joiner, variation
selectors, the Hangul fillers...) and the bidirectional marks."""


def strip_invisible(name: str) -> str:
    """``name`` without the characters that are drawn as nothing: every format character
    (category ``Cf``: the zero-width joiner and non-joiner, the bidirectional controls) and the
    other default-ignorable code points (variation selectors, Hangul fillers).  A name is
    read by people, so two names that look the same must be one (``"Computer (nov\u200dice)"``
    is ``"Computer (novice)"``)."""
    return "".join(c for c in IGNORABLE.sub("", name) if unicodedata.category(c) != "Cf")


_LOOKALIKES = str.maketrans(
    {
        # Cyrillic letters drawn as Latin ones (Unicode TR39's confusables, the Latin targets only)
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "ë",
        "о": "o",
        "р": "p",
        "с": "c",
        "у": "y",
        "х": "x",
        "і": "i",
        "ї": "ï",
        "ј": "j",
        "ѕ": "s",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        "һ": "h",
        "ӏ": "l",
        "ь": "b",
        "к": "k",
        "м": "m",
        "н": "h",
        "т": "t",
        "г": "r",
        "п": "n",
        "ш": "w",
        "ɡ": "g",
        "А": "A",
        "В": "B",
        "Е": "E",
        "К": "K",
        "М": "M",
        "Н": "H",
        "О": "O",
        "Р": "P",
        "С": "C",
        "Т": "T",
        "Х": "X",
        "Ѕ": "S",
        "І": "l",
        "Ј": "J",
        "Ү": "Y",
        "Ԛ": "Q",
        "Ԝ": "W",
        "Ӏ": "l",
        "Ь": "b",
        "З": "3",
        # Greek letters drawn as Latin ones
        "α": "a",
        "ο": "o",
        "ρ": "p",
        "ν": "v",
        "ι": "i",
        "κ": "k",
        "υ": "u",
        "χ": "x",
        "γ": "y",
        "τ": "t",
        "Α": "A",
        "Β": "B",
        "Ε": "E",
        "Ζ": "Z",
        "Η": "H",
        "Ι": "l",
        "Κ": "K",
        "Μ": "M",
        "Ν": "N",
        "Ο": "O",
        "Ρ": "P",
        "Τ": "T",
        "Υ": "Y",
        "Χ": "X",
        "ϲ": "c",
        "Ϲ": "C",
        "ϳ": "j",
        # Latin and digits that pass for one another (TR39 maps them to one skeleton too)
        "0": "o",
        "1": "l",
        "|": "l",
        "ı": "i",
        "ɩ": "i",
        "ſ": "f",
    }
)
_CAPITAL_I = str.maketrans({"I": "l", "Ι": "l", "І": "l", "Ӏ": "l"})
"""A capital I (Latin, Greek, Cyrillic) is drawn as a small l: :func:`name_skeletons` reads
a name once with it so."""


def name_skeleton(name: str) -> str:
    """The look of a name, to tell names that pass for one another (after Unicode TR39's
    skeleton): invisible characters left out (:func:`strip_invisible`), NFKC, the Cyrillic and
    Greek letters that look like Latin ones (and ``0``/``O``, ``1``/``l``/``I``) made the Latin
    one, case-folded, whitespace runs one space.  ``"Cоmputer (nоvice)"`` (Cyrillic о),
    ``"Ѕystem"`` and ``"аlice"`` have the skeletons of ``"Computer (novice)"``, ``"System"`` and
    ``"alice"``.  Not TR39's full table: the Latin look-alikes of Cyrillic and Greek, which
    cover names typed on the keyboards people use here."""
    text = unicodedata.normalize("NFKC", strip_invisible(name)).translate(_LOOKALIKES)
    return " ".join(unicodedata.normalize("NFKC", text).casefold().translate(_LOOKALIKES).split())


def name_skeletons(name: str) -> frozenset[str]:
    """The skeletons two names that pass for one another share one of: :func:`name_skeleton`
    (any case), and the same with every capital I read as a small l first, as typed and in
    capitals (``"AIice"`` passes for ``"Alice"``, ``"ALlCE"`` for ``"alice"`` written ``"ALICE"``;
    ``"ALICE"`` is ``"alice"`` by the first)."""
    return frozenset(
        (
            name_skeleton(name),
            name_skeleton(name.translate(_CAPITAL_I)),
            name_skeleton(name.upper().translate(_CAPITAL_I)),
        )
    )


RESERVED_NAMES = ("System",)
"""Names no guest may chat under and no person may take as a seat name (compared by
:func:`typed_name_key`: ``"SYSTEM"`` and ``"Ｓｙｓｔｅｍ"`` too): a line or a seat under them
would pass for the server's own (:func:`is_reserved_name`)."""


_RESERVED_KEYS = frozenset(k for n in RESERVED_NAMES for k in name_skeletons(n))


def is_reserved_name(name: Any) -> bool:
    """Whether ``name`` is one of :data:`RESERVED_NAMES`, or passes for one: in any case or
    width, with any spacing, look-alike letters or invisible characters (:func:`name_skeleton`).  The lobby chat refuses it to a guest
    (:meth:`ginrummy.web.room.lobby.Room.say_in_lobby`), and a table refuses it as a person's
    seat name at creation and at a sit, as it refuses a computer seat's."""
    return isinstance(name, str) and not name_skeletons(name).isdisjoint(_RESERVED_KEYS)


def computer_seat_name(level: str, tr: Any) -> str:
    """The name the server gives a computer seat of ``level`` in ``tr``'s language (a
    :func:`~ginrummy.web.texts.web_translator`): ``Computer (novice)``."""
    return tr.t("Computer ({level})", level=level_in_text(level, tr))


@lru_cache(maxsize=1)
def _computer_names() -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    """The names the server gives computer seats ("Computer (novice)"), of every level in every
    language, and the computer levels' own names ("novice"), as
    :func:`~ginrummy.web.room.names.name_skeleton` skeletons; and the ``(before, after)``
    skeletons, spaces left out, of "Computer ({level})" in every language, around any level."""
    out = {k for level in player_levels() for k in name_skeletons(level)}
    frames = set()
    for lang in LANGUAGES:
        tr = web_translator(lang)
        for level in player_levels():
            out.update(name_skeletons(computer_seat_name(level, tr)))
        before, _, after = tr.t("Computer ({level})", level="\x00").partition("\x00")
        frames.add((name_skeleton(before).replace(" ", ""), name_skeleton(after).replace(" ", "")))
    return frozenset(out), tuple(sorted(frames))


def is_computer_name(name: str) -> bool:
    """Whether a person's ``name`` reads as a computer's: a computer seat's ("Computer
    (expert)") or a computer level's ("expert"), or any "Computer (...)" (``Computer
    (grandmaster)``), in any language, and with a number after it as a repeated name gets;
    compared by :func:`~ginrummy.web.room.names.name_skeleton`, so in any case or width, with
    look-alike letters (``Cоmputer (nоvice)``, Cyrillic о) and invisible characters
    (``Computer (nov\u200dice)``).  A person may not take it, or the table would show a
    computer where a person sits."""
    names, frames = _computer_names()
    for key in name_skeletons(name):
        base, _, tail = key.rpartition(" ")
        if key in names or (tail.isdigit() and base in names):
            return True
    key = name_skeleton(name)
    flat = key.replace(" ", "")
    return any(
        before
        and flat.startswith(before)
        and flat.rstrip("0123456789").endswith(after)
        and len(flat) > len(before) + len(after)
        for before, after in frames
    )
