"""The tournament page's socket ``WS /ws/tournament/ID``: the tournament's view, pushed at each
change (docs/protocol.md, "Tournaments"; :mod:`ginrummy.web.contests.feed`)."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from ...i18n import translate_error
from ..contests.feed import message
from ..errors import ErrorCode, WebError
from ..http.common import same_origin
from ..http.context import AppContext
from ..http.player_routes import current_account
from ..protocol.inbound import error_message
from ..texts import W_, request_lang, web_translator
from .connection import Connection, json_text

__all__ = ["tournament_socket", "FULL_CLOSE_CODE"]

FULL_CLOSE_CODE = 4429
"""The close code of a socket refused because a bound of the feed is reached: the page polls."""


def _text(msg: Any) -> str:
    return msg if isinstance(msg, str) else json_text(msg)


async def tournament_socket(ctx: AppContext, ws: WebSocket) -> None:
    """Send ``{"type": "tournament", "view": {...}}`` (the JSON of ``GET /api/tournaments/ID``,
    ``me`` included for the person signed in on this server's own page) at once and after each
    change of the tournament; what the client sends is ignored.  An unknown tournament is
    answered ``not_found`` and closed with 4404; one watcher too many (the bounds of
    :mod:`~ginrummy.web.contests.feed`) is answered ``busy`` and closed with 4429."""
    await ws.accept()
    tr = web_translator(request_lang(ws))
    tid = str(ws.path_params.get("tid", ""))[:40]
    account = current_account(ws, ctx.players) if same_origin(ws) else None  # type: ignore[arg-type]
    feed = ctx.tournaments.feed
    try:
        view, me_of = await asyncio.to_thread(ctx.tournaments.snapshot, tid)
    except WebError as exc:
        await ws.send_text(json_text(error_message(exc.code, translate_error(exc, tr))))
        await ws.close(code=4404)
        return
    conn = Connection(ws, tr, _text, drop_slow=True, label=f"tournament {tid}")
    if not feed.watch(tid, conn.send, None if account is None else account.id):
        busy = WebError(ErrorCode.BUSY, W_("too many pages watch this tournament live; this one refreshes itself"))
        await ws.send_text(json_text(error_message(busy.code, translate_error(busy, tr))))
        await ws.close(code=FULL_CLOSE_CODE)
        return
    conn.start()
    try:
        await conn.send(message(view, None if account is None else me_of(account.id)))
        while await conn.receive() is not None and not conn.closing.is_set():
            pass  # nothing is read: a ping keeps proxies from closing an idle socket
    except (ConnectionError, WebSocketDisconnect, RuntimeError):
        pass
    finally:
        feed.unwatch(tid, conn.send)
        await conn.finish()
