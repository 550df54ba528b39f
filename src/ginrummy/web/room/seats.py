"""Seats of the web table, independent of any table: who may sit (a person or a computer
level, :class:`SeatSpec`), the secrets that open a seat (tokens and invite codes, stored only as
SHA-256 hashes and compared as bytes in constant time), the spectator's index, the table errors,
and what a computer level would advise (:func:`advise`).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass
from typing import Any

from ...actions import Action
from ...errors import Msg
from ...players import make_player
from ...views import PlayerView
from ..levels import player_levels
from ..protocol.state import SPECTATOR

__all__ = [
    "SPECTATOR",
    "MAX_NAME_CHARS",
    "SeatSpec",
    "player_levels",
    "advise",
    "secret_hash",
    "same_secret",
]

"""The player index of a spectator's connection (a public table's watcher, who has no seat)."""

MAX_NAME_CHARS = 24


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
