"""The :class:`Player` protocol and the registry of computer player levels."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from typing import Protocol, runtime_checkable

from ..actions import Action
from ..errors import GinRummyError
from ..views import PlayerView

__all__ = ["Player", "PLAYER_LEVELS", "LEVELS_GROUP", "make_player", "register", "load_levels", "UnknownPlayerError"]


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


#: The entry-point group of the levels that live above the players (``pyproject.toml``,
#: ``[project.entry-points."ginrummy.players"]``): name = ``"module:factory"``.
LEVELS_GROUP = "ginrummy.players"

_LOADED: list[bool] = []


def load_levels() -> None:
    """Register the levels that live above this package, once (later calls return at once).

    The levels of this package (``random``, ``novice``, ``club``, ``expert``, ``master``)
    register themselves when :mod:`ginrummy.players` is imported, which Python does before any
    of its modules.  The others are entry points of group :data:`LEVELS_GROUP` (such as
    ``openspiel-simple``, :mod:`ginrummy.interop.openspiel_simple`): each is loaded (importing
    its module registers it with :func:`register`; a factory that did not is registered under
    the entry point's name), and skipped when its module cannot be imported (an optional
    dependency such as ``open-spiel`` is missing).  So the registry is filled from above and
    this package imports none of the modules above it.
    """
    if _LOADED:
        return
    _LOADED.append(True)
    for ep in entry_points(group=LEVELS_GROUP):
        if ep.name in PLAYER_LEVELS:
            continue
        try:
            factory = ep.load()
        except ImportError:  # an optional dependency of the level is missing
            continue
        PLAYER_LEVELS.setdefault(ep.name, factory)
