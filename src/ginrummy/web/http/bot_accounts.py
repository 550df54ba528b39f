"""The signed-in person's side of the bot API (issue 35, docs/bot-api.md, docs/accounts.md),
cookie-authenticated (so every change passes :class:`~ginrummy.web.security.CsrfGuard`):

* ``POST /api/bots`` ``{"name", "password"}``: turn that fresh account into a bot account the
  signed-in person owns (``201 {"name"}``; for good).
* ``GET /api/bots``: his bot accounts and their tokens (never a secret).
* ``POST /api/bots/{name}/tokens`` ``{"name", "scopes"}``: a new token (``201``, its ``token``
  shown this once); ``DELETE /api/bots/{name}/tokens/{id}``: revoke it.
* ``POST /api/challenges`` ``{"to", "preset", "rated"}``: challenge a bot (its player page's
  button); ``GET /api/events?since=N``: the person's events (``game_start`` once a bot accepts);
  ``GET /api/challenges``, ``POST /api/challenges/{id}/accept`` / ``decline``: a bot's challenges
  to the person (no page shows them yet: a program or the console).
"""

from __future__ import annotations

from functools import partial

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...errors import GinRummyError
from ..community.accounts import Account
from ..errors import ErrorCode, WebError
from ..protocol.bot_bodies import ChallengeBody, MakeBotBody, TokenBody
from ..texts import W_, request_lang, web_translator
from .bot_api import BotService, accept_challenge
from .common import error_response, read_json_body
from .player_routes import current_account

__all__ = ["bot_account_routes"]


def _person(svc: BotService, request: Request) -> Account:
    account = current_account(request, svc.ctx.players)
    if account is None or account.kind != "human":
        raise WebError(ErrorCode.NOT_SIGNED_IN, W_("sign in first"))
    return account


def _error(request: Request, exc: GinRummyError) -> Response:
    r = error_response(exc, web_translator(request_lang(request)))
    if isinstance(exc, WebError) and exc.retry_after:
        r.headers["Retry-After"] = str(exc.retry_after)
    return r


async def make_bot(svc: BotService, request: Request) -> Response:
    """``POST /api/bots``."""
    try:
        owner = _person(svc, request)
        body = await read_json_body(request, MakeBotBody)
        address = request.client.host if request.client else ""
        bot = svc.bots.make_bot(owner, body.name, body.password, address)
    except GinRummyError as exc:
        return _error(request, exc)
    return JSONResponse({"name": bot.name, "kind": "bot"}, status_code=201)


async def list_bots(svc: BotService, request: Request) -> Response:
    """``GET /api/bots``."""
    try:
        owner = _person(svc, request)
    except GinRummyError as exc:
        return _error(request, exc)
    return JSONResponse({"bots": svc.bots.owned(owner)}, headers={"Cache-Control": "no-store"})


async def mint(svc: BotService, request: Request) -> Response:
    """``POST /api/bots/{name}/tokens``."""
    try:
        owner = _person(svc, request)
        body = await read_json_body(request, TokenBody)
        listing, secret = svc.bots.mint(owner, request.path_params["name"], body.name, list(body.scopes))
    except GinRummyError as exc:
        return _error(request, exc)
    return JSONResponse({**listing, "token": secret}, status_code=201, headers={"Cache-Control": "no-store"})


async def revoke(svc: BotService, request: Request) -> Response:
    """``DELETE /api/bots/{name}/tokens/{id}``."""
    try:
        owner = _person(svc, request)
        raw = request.path_params["token_id"]
        if not raw.isdigit() or len(raw) > 12:
            raise WebError(ErrorCode.NOT_FOUND, W_("no such token"))
        svc.bots.revoke(owner, request.path_params["name"], int(raw))
    except GinRummyError as exc:
        return _error(request, exc)
    return JSONResponse({"revoked": int(raw)})


async def challenge_bot(svc: BotService, request: Request) -> Response:
    """``POST /api/challenges``: a person challenges a bot account."""
    try:
        me = _person(svc, request)
        body = await read_json_body(request, ChallengeBody)
        if body.to is None or body.level is not None:
            raise WebError(ErrorCode.BAD_MESSAGE, W_("to: the name of the bot account to challenge"))
        bot = svc.account_named(body.to)
        if bot.kind != "bot":
            raise WebError(ErrorCode.NOT_ALLOWED, W_("{name} is not a bot account", name=bot.name))
        svc.rules_of(body.preset, body.rated)
        c = svc.challenges.make((me.id, me.name, "human"), (bot.id, bot.name, "bot"), body.rated, body.preset)
    except GinRummyError as exc:
        return _error(request, exc)
    return JSONResponse({"challenge": c.public()}, status_code=201)


async def my_events(svc: BotService, request: Request) -> Response:
    """``GET /api/events?since=N``: the signed-in person's events."""
    try:
        me = _person(svc, request)
        raw = request.query_params.get("since", "0")
        if not raw.isdigit() or len(raw) > 12:
            raise WebError(ErrorCode.BAD_MESSAGE, W_("since: a whole number of 0 or more"))
    except GinRummyError as exc:
        return _error(request, exc)
    got, last = svc.events.since(me.id, int(raw))
    return JSONResponse({"events": got, "last": last}, headers={"Cache-Control": "no-store"})


async def person_accept(svc: BotService, request: Request) -> Response:
    """``POST /api/challenges/{id}/accept``: a person accepts a bot's challenge: his seat (``201``)."""
    try:
        return await accept_challenge(svc, request, _person(svc, request))
    except GinRummyError as exc:
        return _error(request, exc)


async def person_decline(svc: BotService, request: Request) -> Response:
    """``POST /api/challenges/{id}/decline``."""
    try:
        svc.challenges.decline(request.path_params["challenge_id"], _person(svc, request).id)
    except GinRummyError as exc:
        return _error(request, exc)
    return JSONResponse({"declined": request.path_params["challenge_id"]})


async def person_challenges(svc: BotService, request: Request) -> Response:
    """``GET /api/challenges``: the open challenges to the signed-in person."""
    try:
        me = _person(svc, request)
    except GinRummyError as exc:
        return _error(request, exc)
    return JSONResponse({"challenges": svc.challenges.to(me.id)}, headers={"Cache-Control": "no-store"})


def bot_account_routes(svc: BotService) -> list[Route]:
    """The routes of the module docstring."""
    return [
        Route("/api/bots", partial(make_bot, svc), methods=["POST"]),
        Route("/api/bots", partial(list_bots, svc), methods=["GET"]),
        Route("/api/bots/{name}/tokens", partial(mint, svc), methods=["POST"]),
        Route("/api/bots/{name}/tokens/{token_id}", partial(revoke, svc), methods=["DELETE"]),
        Route("/api/challenges", partial(challenge_bot, svc), methods=["POST"]),
        Route("/api/challenges", partial(person_challenges, svc), methods=["GET"]),
        Route("/api/challenges/{challenge_id}/accept", partial(person_accept, svc), methods=["POST"]),
        Route("/api/challenges/{challenge_id}/decline", partial(person_decline, svc), methods=["POST"]),
        Route("/api/events", partial(my_events, svc), methods=["GET"]),
    ]
