"""Seats of the web table, independent of any table: who may sit (a person or a computer
level, :class:`SeatSpec`), the secrets that open a seat (tokens and invite codes, stored only as
SHA-256 hashes and compared as bytes in constant time), the spectator's index, the table errors,
what a computer level would advise (:func:`advise`), and what the server keeps beside a
running table (:class:`TableRuntime`, read through :class:`~ginrummy.web.room.table.Table`).
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ...actions import Action
from ...errors import Msg
from ...players import make_player
from ...players.base import PLAYER_LEVELS
from ...views import PlayerView
from ..levels import player_levels
from ..protocol.state import SPECTATOR
from ..texts import W_

__all__ = [
    "TableRuntime",
    "Watcher",
    "SPECTATOR",
    "MAX_NAME_CHARS",
    "SeatSpec",
    "player_levels",
    "level_refusal",
    "advise",
    "secret_hash",
    "same_secret",
]

"""The player index of a spectator's connection (a public table's watcher, who has no seat)."""

MAX_NAME_CHARS = 24


def level_refusal(level: str, levels: list[str], seat: int | None = None) -> Msg:
    """Why a computer ``level`` not in ``levels`` (the web table's, :func:`player_levels`) is
    refused, with the levels offered: a level that exists but is not offered here (a research
    level, README: ``sage``, ``expert-fixed``) says so, any other is unknown; ``seat`` (counted
    from 1) prefixes the seat that asked for it."""
    args = {"level": level, "levels": ", ".join(levels)}
    if seat is None:
        if level in PLAYER_LEVELS:
            return W_("the computer level {level!r} is not offered at the web table; levels: {levels}", **args)
        return W_("unknown computer level {level!r}; levels: {levels}", **args)
    if level in PLAYER_LEVELS:
        return W_(
            "seat {seat}: the computer level {level!r} is not offered at the web table; levels: {levels}",
            seat=str(seat),
            **args,
        )
    return W_("seat {seat}: unknown computer level {level!r}; levels: {levels}", seat=str(seat), **args)


def secret_hash(secret: str) -> str:
    """SHA-256 of a seat token or invite code (its UTF-8 bytes; any text, non-ASCII too), hex."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def same_secret(a: str, b: str) -> bool:
    """Whether two secrets (or hashes) are equal, compared as UTF-8 bytes in constant time."""
    return secrets.compare_digest(a.encode("utf-8", "surrogatepass"), b.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True)
class SeatSpec:
    """A seat asked for at table creation: ``kind`` ``"human"`` or ``"bot"``; ``level`` for a
    bot; ``name`` shown at the table (defaulted if empty)."""

    kind: str
    name: str = ""
    level: str = ""


def advise(level: str, rng: random.Random, view: PlayerView) -> tuple[Action, Msg]:
    """What a player of ``level`` (a name of :data:`~ginrummy.players.PLAYER_LEVELS`) would do
    in ``view`` (a :class:`~ginrummy.views.PlayerView` whose seat is to act) and why:
    ``(action, reason)``, the action one of ``view.legal`` and the reason a
    :class:`~ginrummy.errors.Msg` to say in the asker's language.  The player sees only the
    view (DESIGN principle 3) and draws from ``rng``; a player with a time budget
    (``budget_ms``, the expert) is made without it, so the same position always gets the same
    hint.  A level without a ``hint`` method is answered by the novice.

    Raises :class:`~ginrummy.errors.GinRummyError` for an unknown level.
    """
    p: Any = make_player(level, rng)
    if getattr(p, "budget_ms", None) is not None:
        p = type(p)(rng, budget_ms=None)  # no clock: deterministic given rng
    if not callable(getattr(p, "hint", None)):
        p = make_player("novice", rng)
    return p.hint(view, view.legal)


Watcher = Callable[[dict[str, Any]], Awaitable[None]]
"""A connection's ``send``: queues one message for it (raises ``ConnectionError`` once it is gone)."""


@dataclass
class TableRuntime:
    """What the server keeps beside a table while it runs, never stored: its connections,
    tasks, timers and caches (a restart starts them afresh).  :class:`Table` reads and writes
    them under the same names (``table.watchers`` is ``table.runtime.watchers``).

    Attributes:
        watchers: ``(player, send)`` of the open connections.
        hints: the hint of the current step, ``{(seq, player): (action, reason)}`` (one entry).
    """

    watchers: list[tuple[int, Watcher]] = field(default_factory=list)
    hints: dict[tuple[int, int], tuple[Action, str]] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    clock_timer: asyncio.TimerHandle | None = None
    last_write: float = 0.0
    # the state entries of deals that are over (they never change): {index: (deal, entry)}
    over_deals: dict[int, tuple[Any, dict[str, Any]]] = field(default_factory=dict, repr=False)
    # the parts of this table's state messages built once per change (web/protocol/state.py)
    state_cache: dict[str, tuple[Any, Any, str]] = field(default_factory=dict, repr=False)
    trial: tuple[Any, Action, Any, Any] | None = field(default=None, repr=False)
    """The last action verified by :meth:`Table.check_action`: ``(deal, action, new deal, events)``."""
    unsent: bool = False
    """A person's step whose state waits for the computer's immediate answer (bot delay 0)."""
    held: int = 0
    """How many steps the state has waited for so far (at most :data:`~ginrummy.web.room.tables.HELD_STEPS`)."""
    flushed: asyncio.Event | None = field(default=None, repr=False)
    """Set when the state that waited (:attr:`unsent`) is sent; see
    :meth:`~ginrummy.web.room.tables.TableManager.flushed`."""
    spectators_seen: int = 0
    """How many spectator connections this process has opened to the table: the next one's
    number in the chat ("spectator 3"), so that players can tell them apart and mute one."""
    owner: str | None = None
    """The address of the last person who connected to a seat: the key of the table's
    computer moves in the thinking pool's fair queue (:mod:`ginrummy.web.room.thinking`)."""
    hint_job: tuple[tuple[int, int], asyncio.Future[Any]] | None = field(default=None, repr=False)
    """The hint being worked out, ``((seq, player), future)``: a second ask shares it."""
    away: dict[int, float] = field(default_factory=dict)
    """The people of a rated match in play with no connection to this process: ``{player: since}``
    (seconds since the epoch); each forfeits by leaving at ``since`` plus the grace period
    (:mod:`ginrummy.web.room.autoplay`, ``docs/protocol.md``, "Leaving and resigning")."""
    leave_timer: asyncio.TimerHandle | None = None
    leave_due: tuple[int, float] | None = None
    """``(player, deadline)`` of the person away whose countdown runs, as the states show it."""
    now: Callable[[], float] = field(default=time.time, repr=False)
    """The clock of the states' ``clock.left`` and ``leaving`` (seconds since the epoch): the
    manager's own (``TableManager.now``, faked in tests), set when it keeps the table."""
