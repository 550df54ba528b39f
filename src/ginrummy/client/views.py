"""A seat's ``state`` message (docs/protocol.md) turned back into the engine's
:class:`~ginrummy.views.PlayerView`, and the JSON a program gets (``to_json(agent=True)``).

Only what the message holds is used, so nothing the seat may not see can appear: the view is
rebuilt from ``state.view`` (the server's ``PlayerView.to_json()``), the rules from
``state.table.rules`` and the match context from ``state.sheet`` and ``state.deal``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..actions import parse_action
from ..cards import parse_card
from ..deal import Event
from ..rules import RuleSet
from ..views import PlayerView

__all__ = ["view_from_state", "agent_json", "event_from_text", "ViewError"]


class ViewError(ValueError):
    """A ``state`` message whose ``view`` cannot be read back (names the field)."""


def event_from_text(text: str) -> Event:
    """The :class:`~ginrummy.deal.Event` of one history entry (``Event.text``): ``"1 discard 7H"``,
    ``"0 draw stock"`` (the card hidden), ``"reshuffle"``.  A stock draw is private (R3.2).
    Raises :class:`ViewError` for an entry that names no event."""
    try:
        return Event.from_text(text)
    except ValueError as exc:
        raise ViewError(str(exc)) from None


def _mask(cards: Iterable[str]) -> int:
    m = 0
    for c in cards:
        m |= 1 << parse_card(c)
    return m


def _scores(state: dict[str, Any]) -> dict[str, Any]:
    """The match context of ``Match.view`` (names, totals, deal number, seat players) from the
    public parts of the state: ``table.names``, ``sheet.totals``, ``deal`` and ``deals``."""
    names = list(state["table"]["names"])
    totals = (state.get("sheet") or {}).get("totals") or {}
    out: dict[str, Any] = {"names": names, "totals": [int(totals.get(n, 0)) for n in names]}
    deal = state.get("deal") or {}
    if "number" in deal:
        out["deal_number"] = int(deal["number"])
        for d in state.get("deals") or []:
            if d.get("number") == deal["number"] and "seat_players" in d:
                out["seat_players"] = list(d["seat_players"])
    roles = state.get("roles")
    if roles:
        out["roles"] = {k: names.index(v) for k, v in roles.items() if v in names}
    return out


def view_from_state(state: dict[str, Any]) -> PlayerView | None:
    """The :class:`PlayerView` of a ``state`` message, or ``None`` before the first deal, for a
    spectator, or for the player sitting out of a three-hand deal (who may not act, R10.2).

    ``stock_only`` (R4.2) and ``must_knock`` (R7.2), which the web view does not send, are
    derived: the first draw after two passes of the upcard, and a discard turn with no legal
    discard.  ``result`` is left ``None`` (the JSON keeps it).  ``view.to_json()`` of the answer
    equals ``state["view"]``.  Raises :class:`ViewError` naming the field that cannot be read."""
    v = state.get("view")
    if not v or state.get("seat") is None or v.get("seat") is None:
        return None
    try:
        legal = tuple(parse_action(a) for a in v["legal_actions"])
        history = tuple(event_from_text(t) for t in v["history"])
        phase = str(v["phase"])
        last = history[-1].kind if history else None
        return PlayerView(
            seat=int(v["seat"]),
            rules=RuleSet.from_dict(state["table"]["rules"]),
            phase=phase,
            to_act=v["to_act"],
            dealer=int(v["dealer"]),
            hand=_mask(v["hand"]),
            pile=tuple(parse_card(c) for c in v["discard_pile"]),
            stock_size=int(v["stock_size"]),
            opponent_count=int(v["opponent_count"]),
            opponent_seen=_mask(v["opponent_seen"]),
            upcard=parse_card(v["upcard"]),
            knock_limit=v["knock_limit"],
            multiplier=int(v["multiplier"]),
            taken=None if v["taken"] is None else parse_card(v["taken"]),
            stock_only=phase == "draw" and last == "pass",
            must_knock=phase == "discard" and bool(legal) and not any(a.kind == "discard" for a in legal),
            legal=legal,
            history=history,
            result=None,
            reshuffles=sum(1 for e in history if e.kind == "reshuffle"),
            scores=_scores(state),
        )
    except ViewError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ViewError(f"the state's view cannot be read: {exc!r}") from exc


def agent_json(state: dict[str, Any], view: PlayerView) -> dict[str, Any]:
    """What a program is given (``gin bot --command``, docs/bot-api.md): ``view.to_json(agent=True)``
    with the server's own texts (``history`` and ``result`` exactly as sent), so it is the
    browser's view plus ``legal_codes``, ``scores`` and ``rules``."""
    out = view.to_json(state["view"]["history"], agent=True)
    out["result"] = state["view"].get("result")
    return out
