"""The computer levels as the web table offers them (the order of its menus and catalogs).
At the bottom of web/: the texts, the seats and the options page all read it."""

from __future__ import annotations

from enum import StrEnum

from ..players.base import PLAYER_LEVELS, load_levels

__all__ = ["player_levels", "SeatKind", "bot_kind", "seat_level", "is_bot_kind"]

_LEVEL_ORDER = ("random", "novice", "club", "expert", "master", "ismcts")


def player_levels() -> list[str]:
    """The computer player levels a table may seat, weakest first: random, novice, club, expert,
    master, ismcts (not shown stronger than the expert: ``benchmarks/RESULTS.md``), then any
    others in the order they were registered (the same order whatever module was imported
    first).  A level whose factory says ``lobby = False`` (the research levels
    ``expert-fixed``, ``master-fixed`` and ``rlcard-rule``: no time budget bounds their decisions)
    is left out, though :func:`~ginrummy.players.make_player` knows it."""
    load_levels()
    known = [x for x in _LEVEL_ORDER if x in PLAYER_LEVELS]
    return known + [x for x in PLAYER_LEVELS if x not in known and getattr(PLAYER_LEVELS[x], "lobby", True)]


class SeatKind(StrEnum):
    """The kind of a seat asked for (``POST /api/tables``, a rematch): equal to and written as
    its string (``"human"``, ``"bot"``)."""

    HUMAN = "human"
    BOT = "bot"


_BOT = "bot:"


def bot_kind(level: str) -> str:
    """The stored kind of a computer seat of ``level``: ``"bot:<level>"`` (``"bot:novice"``)."""
    return f"{_BOT}{level}"


def is_bot_kind(kind: str) -> bool:
    """Whether a stored seat kind (``"human"`` or ``"bot:<level>"``) is a computer's."""
    return kind.startswith(_BOT)


def seat_level(kind: str) -> str:
    """The computer level of a stored seat kind ``"bot:<level>"`` (``"bot:novice"`` ->
    ``"novice"``); raises ``ValueError`` for any other kind (a person's seat has no level)."""
    if not kind.startswith(_BOT):
        raise ValueError(f"not a computer seat kind: {kind!r}; a computer seat's kind is 'bot:<level>'")
    return kind[len(_BOT) :]
