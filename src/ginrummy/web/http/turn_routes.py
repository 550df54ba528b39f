"""HTTP routes of the turn-based tables (``docs/protocol.md``, "Turn-based tables"): the "your
turn" list of the signed-in person and his seat link back to one of them
(:mod:`ginrummy.web.contests.turns`).  Each handler takes the app context first."""

from __future__ import annotations

import asyncio
from functools import partial

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...errors import GinRummyError
from ..errors import ErrorCode, WebError
from ..texts import W_, request_lang, web_translator
from .common import error_response, link_base, read_no_body
from .context import AppContext
from .player_routes import current_account

__all__ = ["turn_routes"]


async def turns(ctx: AppContext, request: Request) -> Response:
    """``GET /api/turns``: ``{"signed_in": bool, "turns": [entry]}``, the turn-based tables
    that wait for the signed-in person (:meth:`~ginrummy.web.contests.turns.Turns.of`; ``[]``
    for a person not signed in)."""
    account = current_account(request, ctx.players)
    if account is None:
        return JSONResponse({"signed_in": False, "turns": []}, headers={"Cache-Control": "no-store"})
    seats = await asyncio.to_thread(ctx.turns.seats_of, account.id)
    out = ctx.turns.of(account.id, ctx.manager.now(), seats)  # on the loop: it may load a table
    return JSONResponse({"signed_in": True, "turns": out}, headers={"Cache-Control": "no-store"})


async def seat(ctx: AppContext, request: Request) -> Response:
    """``POST /api/turns/{id}/seat``: a new seat link of the signed-in person's seat at the
    turn-based table ``id``: ``{"table", "seat", "token", "link"}`` (the token replaces the
    seat's earlier one); ``401 not_signed_in``, ``404 not_found`` when he has no seat there."""
    tr = web_translator(request_lang(request))
    try:
        account = current_account(request, ctx.players)
        if account is None:
            raise WebError(ErrorCode.NOT_SIGNED_IN, W_("sign in to open your turn-based tables"))
        await read_no_body(request)
        table, token = ctx.turns.seat(request.path_params["table_id"], account.id)
    except GinRummyError as exc:
        return error_response(exc, tr)
    base = link_base(request, ctx.public_url)
    player = table.player_of(token)
    return JSONResponse(
        {"table": table.id, "seat": player, "token": token, "link": f"{base}/table/{table.id}?seat={token}"},
        headers={"Cache-Control": "no-store"},
    )


def turn_routes(ctx: AppContext) -> list[Route]:
    """The routes of this module, each handler bound to ``ctx``."""
    return [
        Route("/api/turns", partial(turns, ctx)),
        Route("/api/turns/{table_id}/seat", partial(seat, ctx), methods=["POST"]),
    ]
