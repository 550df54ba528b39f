"""HTTP endpoints of the puzzle room (issue 32; ``docs/protocol.md``, "Puzzles";
:mod:`ginrummy.web.community.puzzles`).

* ``GET /puzzles`` the page (``?daily=1``: today's puzzle first; ``?id=ID``: that puzzle).
* ``GET /api/puzzles``: ``{"themes": [{"theme", "name", "count"}], "total", "daily": {"id",
  "date"}, "me": null | {"rating", "attempts", "solved"}}``.
* ``GET /api/puzzles/next?theme=&after=``: ``{"puzzle": PUBLIC}`` (404 ``no_puzzle`` when
  none is left).
* ``GET /api/puzzles/daily``: ``{"puzzle": PUBLIC, "date"}`` (UTC date).
* ``GET /api/puzzles/ID``: ``{"puzzle": PUBLIC}``.
* ``POST /api/puzzles/ID/answer`` ``{"move"}``: the explanation
  (:meth:`~ginrummy.web.community.puzzles.PuzzleRoom.answer`); the only answer that names the
  best move.  It passes :class:`~ginrummy.web.community.accounts.CsrfGuard` like every POST.

Every request of ``/api/puzzles`` from one address counts against :data:`PUZZLE_REQUESTS` a
:data:`PUZZLE_WINDOW` (more are answered 429 ``rate_limited`` with ``Retry-After``).
"""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime
from functools import partial
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...analysis.puzzles import theme_name
from ...i18n import translate_error
from ..community.accounts import RateLimiter
from ..community.puzzles import PuzzleRoom
from ..errors import WebError
from ..protocol.inbound import PuzzleAnswerBody, PuzzleQuery, parse_query
from ..texts import W_, WebTranslator, request_lang, web_translator
from .common import error_response, page, read_json_body
from .context import AppContext
from .player_routes import current_account

__all__ = ["puzzle_routes", "PUZZLE_REQUESTS", "PUZZLE_WINDOW"]

PUZZLE_REQUESTS = 300
PUZZLE_WINDOW = 60.0
"""At most :data:`PUZZLE_REQUESTS` puzzle API requests from one client address in any
:data:`PUZZLE_WINDOW` seconds (a person solving fast sends three a puzzle)."""

_ID = re.compile(r"^[0-9a-f]{12}$")
_NO_STORE = {"Cache-Control": "no-store"}


def _limited(ctx: AppContext, request: Request, tr: WebTranslator) -> Response | None:
    address = request.client.host if request.client else ""
    wait = ctx.puzzle_limit.retry_after(address)
    if wait:
        r = error_response(
            W_("too many puzzle requests from your address; try again in {seconds} seconds", seconds=wait),
            tr,
            429,
            "rate_limited",
        )
        r.headers["Retry-After"] = str(wait)
        return r
    ctx.puzzle_limit.hit(address)
    return None


def _account_id(ctx: AppContext, request: Request) -> int | None:
    account = current_account(request, ctx.players)
    return None if account is None else account.id


def _puzzle(ctx: AppContext, request: Request, tr: WebTranslator) -> Any:
    """The puzzle of the path's ``puzzle_id``, or a 404 answer."""
    pid = request.path_params["puzzle_id"]
    p = ctx.puzzles.get(pid) if _ID.match(pid) else None
    if p is None:
        return error_response(
            W_("no puzzle {id}; a puzzle id is 12 hex digits of the puzzle set", id=pid[:40]), tr, 404, "not_found"
        )
    return p


async def overview(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    if (r := _limited(ctx, request, tr)) is not None:
        return r
    room: PuzzleRoom = ctx.puzzles
    day = datetime.now(UTC).date()
    aid = _account_id(ctx, request)
    me = None
    if aid is not None:
        mine = await asyncio.to_thread(room.person, aid)
        me = {"rating": mine.display, "attempts": mine.attempts, "solved": mine.solved}
    themes = [{**th, "name": translate_error(theme_name(th["theme"]), tr)} for th in room.themes()]
    out = {"themes": themes, "total": len(room.puzzles), "daily": {"id": room.daily(day).id, "date": day.isoformat()}}
    return JSONResponse({**out, "me": me}, headers=_NO_STORE)


async def next_puzzle(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    if (r := _limited(ctx, request, tr)) is not None:
        return r
    try:
        q = parse_query(list(request.query_params.multi_items()), PuzzleQuery)
    except WebError as exc:
        return error_response(exc, tr)
    p = await asyncio.to_thread(ctx.puzzles.next_for, _account_id(ctx, request), q.theme, q.after)
    if p is None:
        return error_response(W_("no puzzle left of this theme; choose another theme"), tr, 404, "no_puzzle")
    return JSONResponse({"puzzle": ctx.puzzles.public(p)}, headers=_NO_STORE)


async def daily_puzzle(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    if (r := _limited(ctx, request, tr)) is not None:
        return r
    day = datetime.now(UTC).date()
    return JSONResponse(
        {"puzzle": ctx.puzzles.public(ctx.puzzles.daily(day)), "date": day.isoformat()}, headers=_NO_STORE
    )


async def one_puzzle(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    if (r := _limited(ctx, request, tr)) is not None:
        return r
    p = _puzzle(ctx, request, tr)
    if isinstance(p, Response):
        return p
    return JSONResponse({"puzzle": ctx.puzzles.public(p)}, headers=_NO_STORE)


async def answer(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    if (r := _limited(ctx, request, tr)) is not None:
        return r
    p = _puzzle(ctx, request, tr)
    if isinstance(p, Response):
        return p
    try:
        b = await read_json_body(request, PuzzleAnswerBody)
        out = await asyncio.to_thread(ctx.puzzles.answer, p, b.move, _account_id(ctx, request))
    except WebError as exc:
        return error_response(exc, tr)
    return JSONResponse(out, headers=_NO_STORE)


def puzzle_routes(ctx: AppContext) -> list[Route]:
    """The routes of this module, each handler bound to ``ctx``."""
    return [
        Route("/puzzles", page("puzzles.html")),
        Route("/api/puzzles", partial(overview, ctx)),
        Route("/api/puzzles/next", partial(next_puzzle, ctx)),
        Route("/api/puzzles/daily", partial(daily_puzzle, ctx)),
        Route("/api/puzzles/{puzzle_id}", partial(one_puzzle, ctx)),
        Route("/api/puzzles/{puzzle_id}/answer", partial(answer, ctx), methods=["POST"]),
    ]


def new_limiter() -> RateLimiter:
    """The per-address bound of the puzzle API (:data:`PUZZLE_REQUESTS` a :data:`PUZZLE_WINDOW`)."""
    return RateLimiter(PUZZLE_REQUESTS, PUZZLE_WINDOW)
