"""The lobby socket ``WS /ws/lobby``: the lobby, live, and the lobby chat (``docs/protocol.md``,
"The card room")."""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocket, WebSocketDisconnect

from ...i18n import translate_error
from ..errors import ErrorCode, WebError
from ..http.common import same_origin
from ..http.context import AppContext
from ..http.player_routes import current_account
from ..protocol.chat_guard import LOBBY
from ..protocol.inbound import LobbyChatMsg, error_message, parse_lobby
from ..texts import W_, request_lang, web_translator
from .connection import Connection, json_text

__all__ = ["lobby_socket"]


async def _chat_or_ping(ctx: AppContext, ws: WebSocket, conn: Connection, text: str | bytes) -> None:
    """Handle one lobby message; its errors are answered."""
    try:
        msg = parse_lobby(text)
        if isinstance(msg, LobbyChatMsg):
            account = current_account(ws, ctx.players) if same_origin(ws) else None  # type: ignore[arg-type]
            if account is not None:  # a moderator's lobby mute, read now (on any process)
                refused = ctx.players.accounts.moderation.refusal(account.id, ("lobby_mute",))
                if refused is not None:
                    raise refused
            if account is not None and not await asyncio.to_thread(ctx.players.fair.may_chat_in_lobby, account.id):
                raise WebError(
                    ErrorCode.NOT_ALLOWED,
                    W_("a new account may chat in the lobby once it has finished a match: play one first"),
                    msg.id,
                )
            await ctx.manager.say_in_lobby(
                msg.name,
                msg.text,
                conn.limiter,
                account=None if account is None else account.name,
                account_id=None if account is None else account.id,
            )
        else:
            await conn.send({"type": "pong", **({"reply_to": msg.id} if msg.id is not None else {})})
    except WebError as exc:  # a bad message (with its id, if it had one) or a refused line
        await conn.send(error_message(exc.code, translate_error(exc, conn.tr), reply_to=exc.reply_to))


async def lobby_socket(ctx: AppContext, ws: WebSocket) -> None:
    """The lobby, live: ``{"type": "lobby", "tables": [...]}`` on every change, and the
    lobby chat (``{"type": "chat", "name", "text"}`` in; out ``{"type": "chat", "from", "account":
    true, "text"}`` for a person signed in (his session cookie: he posts under his account's
    name, whatever ``name`` says), ``{"type": "chat", "from", "guest": true, "text"}`` for a
    guest, under his ``name`` unless it is a computer seat's or an account's
    (:meth:`~ginrummy.web.room.lobby.Room.say_in_lobby`)).  The cookie counts only on a
    connection from this server's own pages (``Origin`` absent or this host): another site's
    page that opens the socket in a signed-in browser chats as a guest.  A new account (no
    finished match yet) may not chat here: its line is answered ``not_allowed``."""
    await ws.accept()
    conn = Connection(ws, web_translator(request_lang(ws)), json_text, drop_slow=False, label="lobby")
    send = conn.send
    manager = ctx.manager
    conn.start()
    manager.watch_lobby(send)
    guard = manager.room.guard
    account = current_account(ws, ctx.players) if same_origin(ws) else None  # type: ignore[arg-type]
    if account is not None:
        guard.viewers[send] = account.id
    try:
        await send({"type": "lobby", "tables": manager.lobby()})
        for entry in guard.shown(LOBBY, manager.lobby_chat, None if account is None else account.id):
            await send(entry)
        while True:
            text = await conn.receive()
            if text is None:
                break
            await _chat_or_ping(ctx, ws, conn, text)
            await asyncio.sleep(0)  # the writer sends the answer now (see the game socket)
    except ConnectionError:  # its queue is full: a client that stops reading, closed 4408
        manager.unwatch_lobby(send)
        await conn.close_slow()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        manager.unwatch_lobby(send)
        guard.viewers.pop(send, None)
        conn.cancel()
