"""Computer players.  Each sees only a :class:`~ginrummy.views.PlayerView` and the legal
actions (DESIGN principle 3).  :func:`make_player` builds one by level name."""

from __future__ import annotations

import random

from .base import PLAYER_LEVELS, Player, make_player, register

# The levels of this package register themselves on import (in this order: the order of
# PLAYER_LEVELS); the levels above it are entry points (base.load_levels).
from . import simple, club, expert, ismcts, sage  # noqa: E402, F401  isort: skip

__all__ = ["Player", "PLAYER_LEVELS", "make_player", "register", "random"]
