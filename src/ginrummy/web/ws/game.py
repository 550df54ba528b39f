"""The game socket ``WS /ws/table/{id}?seat=TOKEN&lang=el`` (``docs/protocol.md``): a seat's or a
spectator's connection to one table.  Inbound messages are parsed by
:func:`~ginrummy.web.protocol.inbound.parse_inbound` and dispatched by their type
(:data:`HANDLERS`); the errors they raise are answered as ``{"type": "error", ...}``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from ...errors import GinRummyError, IllegalActionError, NotYourTurnError
from ...i18n import translate_error
from ..errors import ErrorCode, WebError
from ..http.common import link_base, same_origin
from ..http.context import AppContext
from ..http.player_routes import current_account, review_client
from ..protocol.inbound import (
    ActionMsg,
    ChatMsg,
    ClaimMsg,
    ClientSeedMsg,
    HintMsg,
    NextDealMsg,
    PingMsg,
    RematchMsg,
    ResignMsg,
    ReviewMsg,
    SetLangMsg,
    SuggestMsg,
    SyncMsg,
    error_message,
    hint_message,
    parse_inbound,
)
from ..protocol.state import StateMessage
from ..protocol.state import dumps as wire_text
from ..room.tables import SPECTATOR, Table
from ..texts import W_, request_lang, web_translator
from .connection import Connection

__all__ = ["game_socket", "HANDLERS", "Seat"]

log = logging.getLogger("ginrummy.web")


def _encode(msg: Any) -> str:
    # a state's unchanging parts are encoded once (web/protocol/state.py)
    return msg.to_text() if type(msg) is StateMessage else wire_text(msg)


class Seat:
    """A game connection at its table: the app context, the connection, and who it is
    (``player``: a seat number, or :data:`SPECTATOR`)."""

    def __init__(self, ctx: AppContext, conn: Connection, table: Table, player: int) -> None:
        self.ctx = ctx
        self.conn = conn
        self.table_id = table.id
        self.player = player
        self.send = conn.send  # one bound method: the key of this connection's watch and links

    def table(self, fallback: Table) -> Table:
        """The table as the manager holds it now (``fallback`` when it is no longer held)."""
        return self.ctx.manager.current(fallback)


Handler = Callable[[Seat, Table, Any, dict[str, Any]], Awaitable[None]]


async def _tell(send: Any, msg: dict[str, Any]) -> None:
    """Send ``msg`` on a connection that may have closed meanwhile (then nothing is sent)."""
    with contextlib.suppress(ConnectionError, RuntimeError):
        await send(msg)


async def on_action(s: Seat, table: Table, msg: ActionMsg, mid: dict[str, Any]) -> None:
    started = time.perf_counter()
    seq = await s.ctx.manager.act(table, s.player, msg.action)
    if mid:
        await s.ctx.manager.flushed(table)  # the ack follows the state that shows the move
        await s.send({"type": "ack", "seq": seq, **mid})
        if s.ctx.metrics is not None:
            s.ctx.metrics.move_acked(started)


async def on_next_deal(s: Seat, table: Table, msg: NextDealMsg, mid: dict[str, Any]) -> None:
    await s.ctx.manager.next_deal(table, s.player)
    if mid:
        await s.send({"type": "ack", "seq": s.ctx.manager.tables[table.id].seq, **mid})


async def on_client_seed(s: Seat, table: Table, msg: ClientSeedMsg, mid: dict[str, Any]) -> None:
    await s.ctx.manager.client_seed(table, s.player, msg.deal, msg.seed)
    if mid:
        await s.send({"type": "ack", "seq": s.ctx.manager.tables[table.id].seq, **mid})


async def on_suggest(s: Seat, table: Table, msg: SuggestMsg, mid: dict[str, Any]) -> None:
    await s.ctx.manager.suggest(table, s.player, msg.text)


async def on_chat(s: Seat, table: Table, msg: ChatMsg, mid: dict[str, Any]) -> None:
    account = s.ctx.manager.room.guard.viewers.get(s.send)
    if account is not None:  # suspended meanwhile, on any process: his open connection is silent too
        refused = s.ctx.players.accounts.moderation.refusal(account, ("suspend", "close"))
        if refused is not None:
            raise refused
    await s.ctx.manager.say(s.table(table), s.player, msg.text, s.conn.limiter, watcher=s.conn.watcher, account=account)


async def on_rematch(s: Seat, table: Table, msg: RematchMsg, mid: dict[str, Any]) -> None:
    await s.ctx.manager.ask_rematch(s.table(table), s.player, s.ctx.link_bases.get)


async def on_resign(s: Seat, table: Table, msg: ResignMsg, mid: dict[str, Any]) -> None:
    await s.ctx.manager.resign(s.table(table), s.player)
    if mid:
        await s.send({"type": "ack", "seq": s.table(table).seq, **mid})


async def on_claim(s: Seat, table: Table, msg: ClaimMsg, mid: dict[str, Any]) -> None:
    await s.ctx.manager.claim_win(s.table(table), s.player)
    if mid:
        await s.send({"type": "ack", "seq": s.table(table).seq, **mid})


async def on_hint(s: Seat, table: Table, msg: HintMsg, mid: dict[str, Any]) -> None:
    send = s.send

    def hint_queued(ahead: int) -> None:
        if ahead > 0:  # it waits for a worker: say how many jobs go first
            asyncio.get_running_loop().create_task(_tell(send, {"type": "hint_queued", "ahead": ahead, **mid}))

    seq, action, reason = await s.ctx.manager.hint(table, s.player, owner=s.conn.address, on_queued=hint_queued)
    level = s.table(table).hint_level
    await send(hint_message(action.text, translate_error(reason, s.conn.tr), level, seq, reply_to=msg.id))


async def on_review(s: Seat, table: Table, msg: ReviewMsg, mid: dict[str, Any]) -> None:
    t = s.table(table)
    conn = s.conn
    await s.ctx.reviews.start(
        id(conn),
        t.match,
        t.over,
        s.player,
        list(t.names),
        msg.deal,
        s.send,
        lambda: conn.tr,
        msg.id,
        client=review_client(s.ctx.players, conn.ws),  # whose review budget (web/review_budget.py)
    )


async def on_sync(s: Seat, table: Table, msg: SyncMsg, mid: dict[str, Any]) -> None:
    await s.ctx.manager.catch_up(table.id)
    await s.send({**s.table(table).state_for(s.player), **mid})


async def on_ping(s: Seat, table: Table, msg: PingMsg, mid: dict[str, Any]) -> None:
    await s.send({"type": "pong", **mid})


HANDLERS: dict[type, Handler] = {
    ActionMsg: on_action,
    NextDealMsg: on_next_deal,
    ClientSeedMsg: on_client_seed,
    SuggestMsg: on_suggest,
    ChatMsg: on_chat,
    RematchMsg: on_rematch,
    ResignMsg: on_resign,
    ClaimMsg: on_claim,
    HintMsg: on_hint,
    ReviewMsg: on_review,
    SyncMsg: on_sync,
    PingMsg: on_ping,
}
"""The handler of each inbound message type (``set_lang`` is answered before these)."""

SPECTATOR_MAY = (SetLangMsg, SyncMsg, PingMsg, ChatMsg)
"""What a spectator may send; anything else is answered ``not_allowed``."""


async def handle(s: Seat, table: Table, raw: str | bytes) -> None:
    """Parse one inbound message and run its handler; errors are answered, none is raised
    but ``ConnectionError`` (the connection is gone)."""
    tr = s.conn.tr
    send = s.send
    try:
        msg = parse_inbound(raw)
    except WebError as exc:
        await send(error_message(exc.code, translate_error(exc, tr), reply_to=exc.reply_to))
        return
    mid = {"reply_to": msg.id} if msg.id is not None else {}
    if s.player == SPECTATOR and not isinstance(msg, SPECTATOR_MAY):
        await send(
            error_message(
                "not_allowed",
                translate_error(W_("a spectator only watches (and chats when the players allow it)"), tr),
                reply_to=msg.id,
            )
        )
        return
    if isinstance(msg, SetLangMsg):
        s.conn.tr = web_translator(msg.lang)
        await send({"type": "lang", "lang": msg.lang, **mid})
        return
    try:
        await HANDLERS[type(msg)](s, table, msg, mid)
    except NotYourTurnError as exc:
        await send(error_message("not_your_turn", translate_error(exc, tr), reply_to=msg.id))
    except IllegalActionError as exc:
        await send(error_message("illegal", translate_error(exc, tr), reply_to=msg.id, legal=exc.legal or None))
    except WebError as exc:
        await send(error_message(exc.code, translate_error(exc, tr), reply_to=msg.id))
        if exc.code == "conflict":
            await send(s.ctx.manager.tables[table.id].state_for(s.player))
    except GinRummyError as exc:
        await send(error_message("illegal", translate_error(exc, tr), reply_to=msg.id))


async def _open(ctx: AppContext, ws: WebSocket, conn: Connection) -> tuple[Table, int] | None:
    """The table and the seat (or :data:`SPECTATOR`) the socket asks for; ``None`` when refused
    (then the socket is answered and closed: 4404 no such table, 4403 not allowed)."""
    try:
        table = ctx.manager.load(ws.path_params["table_id"])
        if ws.query_params.get("watch") and not ws.query_params.get("seat"):
            if not table.public:
                raise WebError(ErrorCode.NOT_ALLOWED, W_("only a public table can be watched"))
            return table, SPECTATOR
        return table, table.player_of(ws.query_params.get("seat"))
    except WebError as exc:
        await ws.send_json(error_message(exc.code, translate_error(exc, conn.tr)))
        await ws.close(code=4404 if exc.code == "not_found" else 4403)
        return None


def _note_viewer(ctx: AppContext, ws: WebSocket, table: Table, player: int, send: Any) -> None:
    """Note whose connection this is (for blocks and mutes): a seat's account (its seat token
    says who it is), else, for a spectator, the person signed in on it (a same-origin
    connection's session cookie)."""
    aid = None if player == SPECTATOR else ctx.players.accounts.seats(table.id).get(player)
    if player == SPECTATOR and same_origin(ws):
        account = current_account(ws, ctx.players)  # type: ignore[arg-type]
        aid = None if account is None else account.id
    if aid is not None:
        ctx.manager.room.guard.viewers[send] = aid


async def _read(s: Seat, table: Table) -> None:
    """The reader loop: each message handled in turn until the client leaves or is dropped."""
    conn = s.conn
    while not conn.closing.is_set():
        text = await conn.receive()
        if text is None:
            break
        table = s.table(table)
        try:
            await handle(s, table, text)
        except ConnectionError:
            break
        except Exception:  # a fault of ours must not drop the connection without a word
            log.exception("table %s: message handling failed", table.id)
            await s.send(
                error_message("internal", conn.tr.t("the server could not handle this message; nothing changed"))
            )
        await conn.yield_to_writer()


async def game_socket(ctx: AppContext, ws: WebSocket) -> None:
    """``WS /ws/table/{id}``: see the module docstring."""
    await ws.accept()
    label = f"table {ws.path_params['table_id']}"
    on_send = ctx.metrics.sent if ctx.metrics is not None else None
    conn = Connection(ws, web_translator(request_lang(ws)), _encode, drop_slow=True, label=label, on_send=on_send)
    opened = await _open(ctx, ws, conn)
    if opened is None:
        return
    table, player = opened
    s = Seat(ctx, conn, table, player)
    manager, send = ctx.manager, s.send
    if player == SPECTATOR:
        table.spectators_seen += 1
        conn.watcher = table.spectators_seen  # "spectator 2" in the chat
    ctx.link_bases[send] = link_base(ws, ctx.public_url)  # this connection's own links (a rematch's)
    _note_viewer(ctx, ws, table, player, send)
    conn.start()
    if player != SPECTATOR and conn.address:
        table.owner = conn.address  # the thinking pool's fair-queue key (web/room/thinking.py)
    manager.watch(table, player, send)
    try:
        if player == SPECTATOR:  # he gets the state; the others a count (Room.spectator_came)
            await manager.spectator_came(table, send)
        else:
            await manager.changed(table)  # everyone sees the player connected
        await manager.catch_up(table.id)  # and then any step another server stored meanwhile
        for msg in ctx.scores.known(table.id) if ctx.scores is not None else ():
            await send(msg)  # the scores of the deals reviewed before he came (issue 32)
        await _read(s, table)
    except (WebSocketDisconnect, ConnectionError, RuntimeError):
        pass
    finally:
        ctx.reviews.forget(id(conn))
        ctx.link_bases.pop(send, None)
        manager.room.guard.viewers.pop(send, None)
        manager.unwatch(table, player, send)
        if player == SPECTATOR:  # the others learn the count soon, not a fresh state (before
            manager.spectators_changed(s.table(table))  # any await)
        await conn.finish()
        if player != SPECTATOR:
            try:
                await manager.changed(s.table(table))
            except Exception:  # the table is told at its next change; a fault here is ours: log it
                log.exception("table %s: telling the others a player left failed", table.id)
