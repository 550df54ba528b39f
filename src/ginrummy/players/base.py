"""The :class:`Player` protocol and the registry of computer player levels."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from typing import Protocol, runtime_checkable

from ..actions import Action
from ..errors import N_, GinRummyError, Msg
from ..melds import best_discard_deadwood_except, deadwood
from ..views import PlayerView

__all__ = [
    "Player",
    "PILE_RUN_LIMIT",
    "PLAYER_LEVELS",
    "LEVELS_GROUP",
    "make_player",
    "pile_run",
    "register",
    "load_levels",
    "stock_draw_due",
    "STOCK_DRAW_REASON",
    "UnknownPlayerError",
]


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


#: Draws from the discard pile in a row (either seat, R4.1) after which the computer players
#: draw from the stock.  Nobody must knock (R4.4) and, without ``max_pile_takes`` (R7.5), two
#: players who each take the card the other throws can pass the same cards back and forth for
#: ever while the stock stays as it is; drawing from the stock after this many takes shortens
#: the stock, so every deal between computer players ends.  Twelve takes in a row (six each)
#: are far from play (``benchmarks/RESULTS.md``, "The sage: a deal that never ended").
PILE_RUN_LIMIT = 12


def pile_run(view: PlayerView) -> int:
    """The draws in a row that took the discard pile's top card or the upcard (``take_discard``,
    ``take_upcard``, R4.1, R4.2), either seat's, since the deal's last draw from the stock or
    reshuffle (R7.3): a count of events of ``view.history``, 0 or more.

    >>> from ginrummy.deal import new_deal
    >>> from ginrummy.rules import preset
    >>> from ginrummy.views import view_of
    >>> d = new_deal(preset("eaai"), 0, list(range(52)))
    >>> pile_run(view_of(d, 1))
    0
    >>> d, _ = d.apply(1, next(a for a in view_of(d, 1).legal if a.kind == "take_upcard"))
    >>> pile_run(view_of(d, 1))
    1
    """
    n = 0
    for e in reversed(view.history):
        if e.kind in ("take_discard", "take_upcard"):
            n += 1
        elif e.kind in ("draw_stock", "reshuffle"):
            break
    return n


#: Why a computer player draws from the stock after :data:`PILE_RUN_LIMIT` takes of the
#: discard pile in a row (R4.4): the reason :func:`stock_draw_due` gives.
STOCK_DRAW_REASON = N_(
    "{n} draws in a row have taken the discard pile: draw from the stock, so that the deal can come "
    "to an end (nobody must knock, R4.4)",
    n=PILE_RUN_LIMIT,
)


def stock_draw_due(view: PlayerView, legal: Sequence[Action]) -> tuple[Action, Msg] | None:
    """``(the stock draw of legal, STOCK_DRAW_REASON)`` (``draw_stock``, R4.1) when
    :data:`PILE_RUN_LIMIT` draws in a row have taken the discard pile (:func:`pile_run`) and
    taking its top card would not let this player go gin (R6.1) or big gin (R6.5), else
    ``None``: the computer players then draw from the stock, so that a deal between them cannot
    go on for ever (R4.4)."""
    if view.phase != "draw" or pile_run(view) < PILE_RUN_LIMIT:
        return None
    stock = next((a for a in legal if a.kind == "draw_stock"), None)
    if stock is None:
        return None
    top = view.top_discard
    if top is not None:
        h = view.hand | (1 << top)
        if view.rules.big_gin_bonus is not None and deadwood(h) == 0:
            return None
        if best_discard_deadwood_except(h, None if view.rules.discard_taken_card else top) == 0:
            return None  # the take goes gin, which ends the deal
    return stock, STOCK_DRAW_REASON


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
