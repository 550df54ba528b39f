"""Outbound messages built in one place: the ``error`` and ``hint`` messages of the game
protocol (``docs/protocol.md``), and the legal actions as an error message lists them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from ...actions import Action
from ...analysis.performance import CALIBRATION_SAMPLES
from ...cards import card_str

__all__ = ["error_message", "hint_message", "legal_words", "score_message", "score_progress_message", "ScoreMsg"]


class ScoreMsg(TypedDict):
    """The outbound ``score`` message (issue 32; ``docs/protocol.md``, "The score"): the
    performance of every player of the table for deal ``deal`` (``None``: the whole match), in
    seat order; each entry is ``{"name", **Performance.to_dict()}``
    (:class:`ginrummy.analysis.performance.Performance`)."""

    type: str
    deal: int | None
    full_samples: int
    players: list[dict[str, Any]]


def score_message(deal: int | None, players: list[dict[str, Any]]) -> ScoreMsg:
    """``{"type": "score", "deal": N or null, "full_samples": 50, "players": [{"name",
    "decisions", "loss_per_decision", "score", "inaccuracies", "mistakes", "blunders", "rating",
    "samples"}]}``: ``score`` 0..100 (higher is better), ``loss_per_decision`` in percentage
    points of the chance to win, ``rating`` ``{"rating", "low", "high"}`` or ``null`` (no
    decision), ``samples`` the fewest sampled deals a decision it was reviewed on; fewer than
    ``full_samples`` (the calibration's, :data:`~ginrummy.analysis.performance.CALIBRATION_SAMPLES`)
    when the server was busy, with a wider interval."""
    return {"type": "score", "deal": deal, "full_samples": CALIBRATION_SAMPLES, "players": players}


def score_progress_message(deal: int | None, done: int, total: int | None) -> dict[str, Any]:
    """``{"type": "score_progress", "deal", "done", "total"}``: the table's background review
    of deal ``deal`` (``None``: the match) has valued ``done`` of ``total`` decisions
    (``total`` ``None`` until counted)."""
    return {"type": "score_progress", "deal": deal, "done": done, "total": total}


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


def legal_words(legal: Sequence[Action]) -> str:
    """The legal actions in their protocol text, short: each action without a card by its
    text, the cards of each card action grouped (``draw stock | take discard``, ``discard
    2C/7H/KD | knock 7H | gin 7H``), in the order of ``legal``'s first action of each kind.
    The words are the protocol's (as :data:`ginrummy.actions.ACTION_HELP`), not translated."""
    parts: dict[str, list[str]] = {}
    for a in legal:
        if a.card is None:
            parts.setdefault(a.text, [])
        else:
            parts.setdefault(a.text.partition(" ")[0], []).append(card_str(a.card))
    return " | ".join(k if not cards else f"{k} {'/'.join(cards)}" for k, cards in parts.items())
