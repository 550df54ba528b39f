"""The errors of the ginrummy package.

Every error raised on bad input derives from :class:`GinRummyError`, and also from
``ValueError`` where the input was a bad value, so callers may catch either.  The message
always says what was wrong and, where it can, what is allowed.  Raising never changes state:
the engine is functional (``apply`` returns a new state), so a rejected action leaves the
caller's state exactly as it was.
"""

from __future__ import annotations

__all__ = [
    "GinRummyError",
    "CardParseError",
    "RuleSetError",
    "IllegalActionError",
    "NotYourTurnError",
    "RecordError",
]


class GinRummyError(Exception):
    """Base class of every error raised by ginrummy on bad input."""


class CardParseError(GinRummyError, ValueError):
    """A card or a list of cards could not be read (R1.4), or a card was repeated.

    Raised by :func:`ginrummy.cards.parse_card` and :func:`ginrummy.cards.parse_cards`.
    """


class RuleSetError(GinRummyError, ValueError):
    """A rule set field, preset name or ``KEY=VALUE`` override is unknown or out of range (R13, R14)."""


class IllegalActionError(GinRummyError, ValueError):
    """An action is not legal in the current state of the deal.

    Attributes:
        action: the rejected action, as its text form (for example ``"discard 7H"``).
        legal: the text forms of the actions that are legal now.
    """

    def __init__(self, message: str, action: str = "", legal: list[str] | None = None) -> None:
        super().__init__(message)
        self.action = action
        self.legal = list(legal or [])


class NotYourTurnError(IllegalActionError):
    """A seat acted when another seat is to act (or when the deal is over)."""

    def __init__(self, message: str, action: str = "", legal: list[str] | None = None,
                 seat: int | None = None, to_act: int | None = None) -> None:
        super().__init__(message, action, legal)
        self.seat = seat
        self.to_act = to_act


class RecordError(GinRummyError, ValueError):
    """A game record or deal script is malformed, or does not replay to what it claims."""
