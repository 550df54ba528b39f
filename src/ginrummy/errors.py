"""The errors of the ginrummy package.

Every error raised on bad input derives from :class:`GinRummyError`, and also from
``ValueError`` where the input was a bad value, so callers may catch either.  The message
always says what was wrong and, where it can, what is allowed.  Raising never changes state:
the engine is functional (``apply`` returns a new state), so a rejected action leaves the
caller's state exactly as it was.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "Msg",
    "N_",
    "GinRummyError",
    "CardParseError",
    "RuleSetError",
    "IllegalActionError",
    "NotYourTurnError",
    "RecordError",
]


class Msg(str):
    """An English message that remembers how it was made, so it can be said in another language.

    ``Msg(key, params)`` is the string ``key.format(**params)``; ``key`` (the English template,
    with ``{name}`` placeholders) is the stable message key looked up in the translation
    catalogs (see :mod:`ginrummy.i18n`), ``params`` the values put into it.  A parameter may
    itself be a :class:`Msg` or a :class:`GinRummyError` (a message inside a message); the
    translation layer translates those too.  The engine stays English and free of any
    translation machinery: it only records the key and the parameters.
    """

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, params: dict[str, Any] | None = None) -> Msg:
        params = dict(params or {})
        obj = super().__new__(cls, key.format(**params))
        obj.key = key
        obj.params = params
        return obj

    def __getnewargs__(self) -> tuple[str, dict[str, Any]]:  # type: ignore[override]
        return (self.key, self.params)


def N_(key: str, /, **params: Any) -> Msg:
    """The message ``key`` with ``params`` filled in, as a :class:`Msg` (marked for extraction
    into the translation catalogs under the keyword ``N_``)."""
    return Msg(key, params)


class GinRummyError(Exception):
    """Base class of every error raised by ginrummy on bad input.

    ``str(exc)`` is the English message.  When the message was made with :func:`N_`,
    ``exc.key`` is its stable key (the English template) and ``exc.params`` its parameters, so
    :func:`ginrummy.i18n.translate_error` can say it in the player's language; otherwise
    ``key`` is ``None`` and ``params`` empty.  ``key``/``params`` may also be given as keywords.
    """

    def __init__(self, *args: Any, key: str | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(*args)
        first = args[0] if args else None
        if key is None and isinstance(first, Msg):
            key, params = first.key, first.params
        self.key: str | None = key
        self.params: dict[str, Any] = dict(params or {})


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

    def __init__(
        self,
        message: str,
        action: str = "",
        legal: list[str] | None = None,
        *,
        key: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, key=key, params=params)
        self.action = action
        self.legal = list(legal or [])


class NotYourTurnError(IllegalActionError):
    """A seat acted when another seat is to act (or when the deal is over)."""

    def __init__(
        self,
        message: str,
        action: str = "",
        legal: list[str] | None = None,
        seat: int | None = None,
        to_act: int | None = None,
        *,
        key: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, action, legal, key=key, params=params)
        self.seat = seat
        self.to_act = to_act


class RecordError(GinRummyError, ValueError):
    """A game record or deal script is malformed, or does not replay to what it claims."""
