"""Outbound messages built in one place: the ``error`` and ``hint`` messages of the game
protocol (``docs/protocol.md``)."""

from __future__ import annotations

from typing import Any

__all__ = ["error_message", "hint_message"]


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
    a seat that is not the adviser, a client seed for a deal that is not next), ``conflict``
    (another server wrote first; state resent), the review's ``not_over``, ``bad_deal``, ``busy``
    and ``server_busy`` (``ginrummy.web.room.review_service``), ``too_slow`` (this connection did not read its
    messages; it is closed with code 4408).
    """
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if legal is not None:
        out["legal"] = legal
    if reply_to is not None:
        out["reply_to"] = reply_to
    return out
