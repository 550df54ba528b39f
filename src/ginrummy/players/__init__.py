"""Computer players.  Each sees only a :class:`~ginrummy.views.PlayerView` and the legal
actions (DESIGN principle 3).  :func:`make_player` builds one by level name."""

from __future__ import annotations

import random

from .base import Player, PLAYER_LEVELS, make_player, register

__all__ = ["Player", "PLAYER_LEVELS", "make_player", "register", "random"]
