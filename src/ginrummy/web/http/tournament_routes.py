"""HTTP routes of the tournaments (docs/protocol.md, "Tournaments"; docs/compete.md): the pages
``/tournaments`` and ``/tournaments/ID`` and the API under ``/api/tournaments``.  Every body
goes through a bounded schema (:class:`~ginrummy.web.protocol.bodies.CreateTournamentBody`);
the POSTs pass the CSRF guard (web/security.py) and need a signed-in person."""

from __future__ import annotations

from functools import partial

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...compete.tournament import TournamentSettings
from ...errors import GinRummyError
from ..community.accounts import Account
from ..errors import ErrorCode, WebError
from ..protocol.bodies import CreateTournamentBody
from ..texts import W_, request_lang, web_translator
from .common import error_response, link_base, page, read_json_body, read_no_body
from .context import AppContext
from .player_routes import current_account

__all__ = ["tournament_routes"]


def _signed_in(ctx: AppContext, request: Request) -> Account:
    account = current_account(request, ctx.players)
    if account is None:
        raise WebError(ErrorCode.NOT_SIGNED_IN, W_("sign in to take part in a tournament"))
    return account


def _settings(body: CreateTournamentBody) -> TournamentSettings:
    try:
        return TournamentSettings.model_validate(body.model_dump())
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(x) for x in err.get("loc", ())) or "body"
        raise WebError(
            ErrorCode.BAD_MESSAGE,
            W_(
                "{field} is not valid; allowed: kind swiss or arena, start an ISO 8601 time "
                "(2026-12-24T18:00Z), scoring game, hollywood or deal",
                field=field[:40],
            ),
        ) from None


async def listing(ctx: AppContext, request: Request) -> Response:
    """``GET /api/tournaments``: ``{"upcoming", "running", "finished"}``."""
    return JSONResponse(ctx.tournaments.listing(), headers={"Cache-Control": "no-cache"})


async def create(ctx: AppContext, request: Request) -> Response:
    """``POST /api/tournaments``: a new tournament (Swiss or arena); ``201 {"id"}``."""
    tr = web_translator(request_lang(request))
    try:
        account = _signed_in(ctx, request)
        body = await read_json_body(request, CreateTournamentBody)
        tid = ctx.tournaments.create(account, _settings(body))
    except GinRummyError as exc:
        return error_response(exc, tr)
    return JSONResponse({"id": tid}, status_code=201)


async def show(ctx: AppContext, request: Request) -> Response:
    """``GET /api/tournaments/ID``: entrants, standings, pairings (with their tables), the final
    table; ``me``: whether the signed-in person is entered, and his table in play."""
    tr = web_translator(request_lang(request))
    tid = request.path_params["tid"]
    try:
        view = ctx.tournaments.view(tid)
    except GinRummyError as exc:
        return error_response(exc, tr)
    account = current_account(request, ctx.players)
    view["me"] = None if account is None else ctx.tournaments.me(tid, account)
    return JSONResponse(view, headers={"Cache-Control": "no-cache"})


async def _step(ctx: AppContext, request: Request, what: str) -> Response:
    tr = web_translator(request_lang(request))
    tid = request.path_params["tid"]
    try:
        account = _signed_in(ctx, request)
        await read_no_body(request)
        if what == "join":
            ctx.tournaments.join(tid, account)
        elif what == "withdraw":
            ctx.tournaments.withdraw(tid, account)
            await ctx.tournaments.advance(tid)  # his game in play is forfeited now
        else:
            await ctx.tournaments.advance(tid)  # a round just paired: its tables opened first
            table_id, token = ctx.tournaments.seat(tid, account)
            base = link_base(request, ctx.public_url)
            return JSONResponse({"table": table_id, "link": f"{base}/table/{table_id}?seat={token}"})
    except GinRummyError as exc:
        return error_response(exc, tr)
    return JSONResponse({"ok": True})


def tournament_routes(ctx: AppContext) -> list[Route]:
    """The routes of the tournaments."""
    return [
        Route("/tournaments", page("tournaments.html")),
        Route("/tournaments/{tid}", page("tournament.html")),
        Route("/api/tournaments", partial(listing, ctx)),
        Route("/api/tournaments", partial(create, ctx), methods=["POST"]),
        Route("/api/tournaments/{tid}", partial(show, ctx)),
        Route("/api/tournaments/{tid}/join", partial(_step, ctx, what="join"), methods=["POST"]),
        Route("/api/tournaments/{tid}/withdraw", partial(_step, ctx, what="withdraw"), methods=["POST"]),
        Route("/api/tournaments/{tid}/seat", partial(_step, ctx, what="seat"), methods=["POST"]),
    ]
