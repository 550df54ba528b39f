"""HTTP routes of the friend challenge on the same deals (``docs/compete.md``,
``docs/protocol.md``, "Friend challenges"):

* ``GET /duels``, ``GET /duels/{id}``: the page (the list and a new challenge; one challenge).
* ``GET /api/duels``: ``{"signed_in", "duels": [views], "levels", "most"}``.
* ``POST /api/duels`` ``{"to": "Bob" | null, "deals": 4, "level": "club"}``: send a challenge
  (``201``: its view, with ``link``).
* ``GET /api/duels/{id}``: the challenge as the person asking may see it (``404`` to others
  before the end).
* ``POST /api/duels/{id}/accept`` | ``decline`` | ``cancel``: answer it (its view).
* ``POST /api/duels/{id}/{number}``: play deal ``number`` (``201``: ``{"id", "link", "token",
  "number", "seat"}``), once.
* ``GET /api/duels/{id}/records``: once it is over, the seed, the commitment and every game
  that counts with its public record (for ``gin daily verify``).

Bodies go through :class:`~ginrummy.web.protocol.bodies.DuelBody`, deal numbers through
:func:`~ginrummy.web.protocol.bodies.parse_daily_path`; POSTs pass the CSRF check
(:class:`~ginrummy.web.security.CsrfGuard`) and need a signed-in person.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...compete.daily import DAILY_LEVELS
from ...errors import GinRummyError
from ..contests.duels import MAX_OPEN_DUELS, DuelRoom
from ..protocol.bodies import DuelBody, parse_daily_path
from ..texts import W_, request_lang, web_translator
from .common import error_response, link_base, page, read_json_body, read_no_body
from .context import AppContext
from .daily_routes import public_record
from .player_routes import current_account, signed_in_account

__all__ = ["duel_routes"]

_NO_STORE = {"Cache-Control": "no-store"}


def _room(ctx: AppContext) -> DuelRoom:
    assert ctx.duels is not None
    return ctx.duels


def _signed_in(ctx: AppContext, request: Request) -> Any:
    return signed_in_account(request, ctx.players, W_("sign in to play friend challenges"))


def _with_link(request: Request, ctx: AppContext, view: dict[str, Any]) -> dict[str, Any]:
    view["link"] = f"{link_base(request, ctx.public_url)}/duels/{view['id']}"
    return view


async def listing(ctx: AppContext, request: Request) -> Response:
    """``GET /api/duels``: the signed-in person's challenges (none signed out)."""
    tr = web_translator(request_lang(request))
    account = current_account(request, ctx.players)
    try:
        mine = [] if account is None else await asyncio.to_thread(_room(ctx).mine, account)
    except GinRummyError as exc:
        return error_response(exc, tr)
    out = {
        "signed_in": account is not None,
        "duels": [_with_link(request, ctx, v) for v in mine],
        "levels": list(DAILY_LEVELS),
        "most": MAX_OPEN_DUELS,
    }
    return JSONResponse(out, headers=_NO_STORE)


async def send(ctx: AppContext, request: Request) -> Response:
    """``POST /api/duels``: ``201`` the new challenge's view."""
    tr = web_translator(request_lang(request))
    try:
        account = _signed_in(ctx, request)
        body = await read_json_body(request, DuelBody)
        to = None if body.to is None else body.to.strip()
        view = await asyncio.to_thread(_room(ctx).send, account, to, body.deals, body.level)
    except GinRummyError as exc:
        return error_response(exc, tr)
    return JSONResponse(_with_link(request, ctx, view), status_code=201)


async def one(ctx: AppContext, request: Request) -> Response:
    """``GET /api/duels/{id}``: the challenge's view."""
    tr = web_translator(request_lang(request))
    try:
        account = current_account(request, ctx.players)
        view = await asyncio.to_thread(_room(ctx).view, request.path_params["duel_id"], account)
    except GinRummyError as exc:
        return error_response(exc, tr)
    return JSONResponse(_with_link(request, ctx, view), headers=_NO_STORE)


async def answer(ctx: AppContext, what: str, request: Request) -> Response:
    """``POST /api/duels/{id}/accept|decline|cancel``: the challenge's view after it."""
    tr = web_translator(request_lang(request))
    try:
        account = _signed_in(ctx, request)
        await read_no_body(request)
        view = await asyncio.to_thread(_room(ctx).answer, account, request.path_params["duel_id"], what)
    except GinRummyError as exc:
        return error_response(exc, tr)
    return JSONResponse(_with_link(request, ctx, view))


async def play(ctx: AppContext, request: Request) -> Response:
    """``POST /api/duels/{id}/{number}``: open the person's table of that deal (``201``)."""
    tr = web_translator(request_lang(request))
    try:
        account = _signed_in(ctx, request)
        await read_no_body(request)
        number = parse_daily_path("2000-01-01", request.path_params["number"]).number
        table, token, seat = await _room(ctx).start(account, request.path_params["duel_id"], number, lang=tr.lang)
        ctx.players.table_opened(table, (seat, account.id), False)
    except GinRummyError as exc:
        return error_response(exc, tr)
    base = link_base(request, ctx.public_url)
    return JSONResponse(
        {
            "id": table.id,
            "number": number,
            "seat": seat,
            "token": token,
            "link": f"{base}/table/{table.id}?seat={token}",
        },
        status_code=201,
    )


async def records(ctx: AppContext, request: Request) -> Response:
    """``GET /api/duels/{id}/records``: ``{"duel", "seed", "commitment", "records": [{number,
    player, seat, score, record}]}`` once the challenge is over (403 before)."""
    tr = web_translator(request_lang(request))
    try:
        account = current_account(request, ctx.players)
        room, duel_id = _room(ctx), request.path_params["duel_id"]
        games = await asyncio.to_thread(room.records, duel_id, account)
        view = await asyncio.to_thread(room.view, duel_id, account)
        for g in games:
            g["record"] = await asyncio.to_thread(public_record, ctx, g.pop("table"))
    except GinRummyError as exc:
        return error_response(exc, tr)
    out = {"duel": view["id"], "seed": view["seed"], "commitment": view["commitment"], "records": games}
    return JSONResponse(out, headers=_NO_STORE)


def duel_routes(ctx: AppContext) -> list[Route]:
    """The routes of this module, each handler bound to ``ctx``."""
    return [
        Route("/duels", page("duels.html")),
        Route("/duels/{duel_id}", page("duels.html")),
        Route("/api/duels", partial(listing, ctx)),
        Route("/api/duels", partial(send, ctx), methods=["POST"]),
        Route("/api/duels/{duel_id}", partial(one, ctx)),
        Route("/api/duels/{duel_id}/records", partial(records, ctx)),
        *(
            Route(f"/api/duels/{{duel_id}}/{what}", partial(answer, ctx, what), methods=["POST"])
            for what in ("accept", "decline", "cancel")
        ),
        Route("/api/duels/{duel_id}/{number}", partial(play, ctx), methods=["POST"]),
    ]
