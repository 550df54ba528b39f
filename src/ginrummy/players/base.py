"""The :class:`Player` protocol and the registry of computer player levels."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from ..actions import Action
from ..errors import GinRummyError
from ..views import PlayerView

__all__ = ["Player", "PLAYER_LEVELS", "make_player", "register", "load_levels"]


@runtime_checkable
class Player(Protocol):
    """A computer player (or a human adapter).

    ``choose`` receives only the seat's :class:`PlayerView` and the legal actions (non-empty)
    and returns one of them.  It must not keep or read anything else of the deal.
    """

    name: str

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The action to take: one of ``legal``."""
        ...


PLAYER_LEVELS: dict[str, Callable[[random.Random], Player]] = {}
"""Player level name -> factory taking a ``random.Random``."""


def register(name: str) -> Callable[[Callable[[random.Random], Player]], Callable[[random.Random], Player]]:
    """Class decorator: register a player factory under ``name``."""

    def deco(factory: Callable[[random.Random], Player]) -> Callable[[random.Random], Player]:
        PLAYER_LEVELS[name] = factory
        return factory

    return deco


def make_player(level: str, rng: random.Random | int | None = None) -> Player:
    """A computer player of ``level`` (``random``, ``novice``, and the other registered
    levels), drawing its random choices from ``rng`` (a ``random.Random`` or a seed; default
    seed 0, so play is reproducible).

    Raises :class:`GinRummyError` (also ``ValueError``) for an unknown level, naming the known ones.
    """
    load_levels()
    if not isinstance(rng, random.Random):
        rng = random.Random(0 if rng is None else rng)
    key = level.lower() if isinstance(level, str) else level
    if key not in PLAYER_LEVELS:
        raise UnknownPlayerError(f"unknown player {level!r}; players: {', '.join(PLAYER_LEVELS)}")
    return PLAYER_LEVELS[key](rng)


class UnknownPlayerError(GinRummyError, ValueError):
    """An unknown computer player level was asked for."""


_LOADED: list[bool] = []


def load_levels() -> None:
    """Import the player modules so that every level registers itself in :data:`PLAYER_LEVELS`
    (once: later calls return at once)."""
    if _LOADED:
        return
    from . import simple  # noqa: F401  (registers random and novice)

    try:
        from . import club  # noqa: F401
    except ImportError:  # pragma: no cover - optional levels
        pass
    try:
        from . import expert  # noqa: F401
    except ImportError:  # pragma: no cover
        pass
    try:
        from . import openspiel_simple  # noqa: F401  (openspiel-simple: only with open-spiel installed)
    except ImportError:  # pragma: no cover - open-spiel is optional
        pass
    _LOADED.append(True)
