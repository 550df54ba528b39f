"""The scripted person of the benchmarks that play at a ``gin serve`` over its websocket
(tournament_tick.py, bystander.py, abuse.py): what he sends for a table state, and the wait for
the answer to a message (docs/protocol.md)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from load import pick


def next_message(state: dict[str, Any], rng: random.Random, tag: str = "s") -> dict[str, Any] | None:
    """What the scripted person sends for the table ``state`` (a ``state`` message): his client
    seed (``tag`` and 64 random bits) when the deal waits for it, a move on his turn (gin, knock,
    pass or draw from the stock when he may, else a random discard: :func:`load.pick`), the next
    deal when he may start it; ``None``: nothing to send until the next state."""
    pending = (state.get("fair") or {}).get("pending")
    if pending is not None and pending["yours"] is None:
        return {"type": "client_seed", "deal": pending["deal"], "seed": f"{tag}{rng.getrandbits(64):x}"}
    if state.get("your_turn"):
        return {"type": "action", "action": pick(state["view"]["legal_actions"], rng)}
    if state.get("can_next_deal"):
        return {"type": "next_deal"}
    return None


async def answer_to(
    ws: Any, reply_to: Any, kinds: tuple[str, ...], going: Callable[[], bool] = lambda: True
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Read ``ws`` until the message of one of ``kinds`` that answers ``reply_to`` (or while
    ``going()``): ``(that message or None, the last state message read meanwhile or None)``."""
    state = None
    while going():
        reply = json.loads(await ws.recv())
        if reply.get("reply_to") == reply_to and reply.get("type") in kinds:
            return reply, state
        if reply.get("type") == "state":
            state = reply
    return None, state
