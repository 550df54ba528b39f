"""Typed messages of the web table protocol (see ``docs/protocol.md``).

Inbound (client -> server), one JSON object per WebSocket text frame, at most
:data:`MAX_MESSAGE_BYTES` bytes:

* ``{"type": "action", "action": "discard 7H"}`` - a deal action in its text form
  (:func:`ginrummy.actions.parse_action`; short forms accepted).
* ``{"type": "next_deal"}`` - start the next deal once the deal is over.
* ``{"type": "suggest", "text": "keep the 7s"}`` - the adviser's suggestion to the captain
  (three-hand gin, R10.2), at most :data:`MAX_SUGGESTION_CHARS` characters.
* ``{"type": "hint"}`` - what would the table's hint player do here, and why?  Only from the
  player to act, or from the adviser while the captain is to act (three-hand, R10.2); answered
  by a ``hint`` message.
* ``{"type": "sync"}`` - ask for the current state again.
* ``{"type": "ping"}`` - answered by ``{"type": "pong"}``.
* ``{"type": "set_lang", "lang": "el"}`` - say this connection's error messages in that language
  (one of :data:`ginrummy.i18n.LANGUAGES`); answered by ``{"type": "lang", "lang": "el"}``.

Every inbound message may carry an ``"id"`` (a string or int up to 64 characters) that the
answer (``state``/``error``/``pong``/``hint``) echoes back as ``"reply_to"``.

Outbound (server -> client): ``state``, ``error``, ``suggestion``, ``pong``, ``ack``, ``lang``,
``hint`` (:func:`hint_message`).
:func:`parse_inbound` never raises anything but :class:`MessageError`, whose ``code`` is one of
``too_large``, ``bad_json``, ``bad_message``; its message carries a key and parameters
(:func:`ginrummy.web.i18n_web.W_`) so the server can say it in the seat's language.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Union

from ..errors import Msg
from ..i18n import LANGUAGES
from .i18n_web import W_

__all__ = [
    "MAX_MESSAGE_BYTES", "MAX_SUGGESTION_CHARS", "MessageError", "ActionMsg", "NextDealMsg",
    "SuggestMsg", "SyncMsg", "PingMsg", "SetLangMsg", "HintMsg", "Inbound", "parse_inbound", "error_message",
    "hint_message", "INBOUND_TYPES",
]

MAX_MESSAGE_BYTES = 2048
"""The largest inbound message accepted, in bytes of UTF-8."""

MAX_SUGGESTION_CHARS = 200
"""The longest suggestion text accepted, in characters."""

INBOUND_TYPES = ("action", "next_deal", "suggest", "hint", "sync", "ping", "set_lang")


class MessageError(ValueError):
    """An inbound message was rejected before it reached the game.

    Attributes:
        code: ``too_large``, ``bad_json`` or ``bad_message``.
        reply_to: the message's ``id`` if one could be read, else ``None``.
        key, params: the message's key (English template) and parameters when ``message`` is a
            :class:`~ginrummy.errors.Msg`, for :func:`ginrummy.i18n.translate_error`.
    """

    def __init__(self, code: str, message: str, reply_to: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.reply_to = reply_to
        self.key: str | None = message.key if isinstance(message, Msg) else None
        self.params: dict[str, Any] = dict(message.params) if isinstance(message, Msg) else {}


@dataclass(frozen=True)
class ActionMsg:
    """Play ``action`` (its text form, not yet parsed)."""

    action: str
    id: Any = None


@dataclass(frozen=True)
class NextDealMsg:
    """Start the next deal (R11.2, R10.4)."""

    id: Any = None


@dataclass(frozen=True)
class SuggestMsg:
    """The adviser's suggestion (R10.2)."""

    text: str
    id: Any = None


@dataclass(frozen=True)
class SyncMsg:
    """Send me the state again."""

    id: Any = None


@dataclass(frozen=True)
class PingMsg:
    """Keep-alive."""

    id: Any = None


@dataclass(frozen=True)
class SetLangMsg:
    """Say this connection's errors in ``lang`` (a code of :data:`ginrummy.i18n.LANGUAGES`)."""

    lang: str
    id: Any = None


@dataclass(frozen=True)
class HintMsg:
    """What would the table's hint player do here, and why?"""

    id: Any = None


Inbound = Union[ActionMsg, NextDealMsg, SuggestMsg, HintMsg, SyncMsg, PingMsg, SetLangMsg]

_ALLOWED_KEYS = {
    "action": {"type", "id", "action"},
    "next_deal": {"type", "id"},
    "suggest": {"type", "id", "text"},
    "hint": {"type", "id"},
    "sync": {"type", "id"},
    "ping": {"type", "id"},
    "set_lang": {"type", "id", "lang"},
}


def _read_id(data: dict[str, Any]) -> Any:
    mid = data.get("id")
    if mid is None:
        return None
    if isinstance(mid, bool) or not isinstance(mid, (str, int)) or len(str(mid)) > 64:
        raise MessageError("bad_message", W_("id must be a string or an integer of at most 64 characters"))
    return mid


def parse_inbound(raw: str | bytes) -> Inbound:
    """Read one inbound message (see the module docstring).

    Raises :class:`MessageError`: ``too_large`` above :data:`MAX_MESSAGE_BYTES` bytes,
    ``bad_json`` if it is not a JSON object, ``bad_message`` for an unknown ``type``, an unknown
    or missing field, or a field of the wrong type.
    """
    size = len(raw.encode("utf-8", "replace") if isinstance(raw, str) else raw)
    if size > MAX_MESSAGE_BYTES:
        raise MessageError("too_large", W_("message of {size} bytes is too large; the limit is {limit} bytes",
                                           size=size, limit=MAX_MESSAGE_BYTES))
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise MessageError("bad_json", W_("message is not valid JSON; send one JSON object such as {example}",
                                          example='{"type": "action", "action": "draw stock"}')) from None
    if not isinstance(data, dict):
        raise MessageError("bad_json", W_("message must be a JSON object such as {example}", example='{"type": "sync"}'))
    mid = _read_id(data)
    kind = data.get("type")
    if kind not in _ALLOWED_KEYS:
        raise MessageError("bad_message", W_("unknown message type {kind!r}; types: {types}",
                                             kind=kind, types=", ".join(INBOUND_TYPES)), mid)
    extra = set(data) - _ALLOWED_KEYS[kind]
    if extra:
        raise MessageError("bad_message", W_("unknown field(s) {extra} in a {kind} message; fields: {fields}",
                                             extra=", ".join(sorted(map(str, extra))), kind=kind,
                                             fields=", ".join(sorted(_ALLOWED_KEYS[kind]))), mid)
    if kind == "action":
        action = data.get("action")
        if not isinstance(action, str) or not action.strip():
            raise MessageError("bad_message", W_('an action message needs "action": a text such as "discard 7H"'), mid)
        return ActionMsg(action, mid)
    if kind == "suggest":
        text = data.get("text")
        if not isinstance(text, str) or not text.strip():
            raise MessageError("bad_message", W_('a suggest message needs "text": a non-empty string'), mid)
        text = " ".join(text.split())
        if len(text) > MAX_SUGGESTION_CHARS:
            raise MessageError("bad_message", W_("a suggestion has at most {limit} characters",
                                                 limit=MAX_SUGGESTION_CHARS), mid)
        return SuggestMsg(text, mid)
    if kind == "set_lang":
        lang = data.get("lang")
        if not isinstance(lang, str) or lang not in LANGUAGES:
            raise MessageError("bad_message", W_('a set_lang message needs "lang": one of {languages}',
                                                 languages=", ".join(LANGUAGES)), mid)
        return SetLangMsg(lang, mid)
    return {"next_deal": NextDealMsg, "hint": HintMsg, "sync": SyncMsg, "ping": PingMsg}[kind](mid)


def hint_message(action: str, reason: str, level: str, seq: int, *, reply_to: Any = None) -> dict[str, Any]:
    """The outbound ``hint`` message: ``{"type": "hint", "action": "discard 7H", "reason": "...",
    "level": "club", "seq": 12, "reply_to"?}`` - ``action`` in its text form (not translated),
    ``reason`` in the connection's language, ``level`` the hint player's level, ``seq`` the step
    the hint is about (a hint whose ``seq`` is not the state's is stale)."""
    out: dict[str, Any] = {"type": "hint", "action": action, "reason": reason, "level": level, "seq": seq}
    if reply_to is not None:
        out["reply_to"] = reply_to
    return out


def error_message(code: str, message: str, *, reply_to: Any = None, legal: list[str] | None = None) -> dict[str, Any]:
    """The outbound ``error`` message: ``{"type": "error", "code", "message", "legal"?, "reply_to"?}``.

    Codes: ``too_large``, ``bad_json``, ``bad_message`` (the message itself), ``illegal``
    (the engine refused the action), ``not_your_turn``, ``not_allowed`` (e.g. a suggestion from
    a seat that is not the adviser), ``conflict`` (another server wrote first; state resent).
    """
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if legal is not None:
        out["legal"] = legal
    if reply_to is not None:
        out["reply_to"] = reply_to
    return out
