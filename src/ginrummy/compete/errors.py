"""The error of the compete package: bad input from a person (a closed registration, a result
for a pairing that does not exist, ...), said in his language through its :class:`Msg`."""

from __future__ import annotations

from ..errors import GinRummyError

__all__ = ["CompeteError"]


class CompeteError(GinRummyError, ValueError):
    """A request that the rules of a competition refuse (a daily deal, a tournament, a
    turn-based table).  Raised before anything changes: the state is as it was.  Its message
    is an :class:`~ginrummy.errors.Msg` (``key``/``params``) naming what was wrong and what
    is allowed."""
