"""HTTP routes of the daily deal (``docs/compete.md``, ``docs/protocol.md``, "The daily deal"):

* ``GET /daily``: the page.
* ``GET /api/daily``: today's and tomorrow's published sets (commitments; no seed), the
  signed-in person's entries of today.
* ``GET /api/daily/{day}``: a day's set, and its seed once the day is over (UTC).
* ``POST /api/daily/{day}/{number}`` ``{"level": "club"}``: play deal ``number`` of today
  (signed in; once a deal; one level a day): answers the seat link of its table (``201``).
* ``GET /api/daily/{day}/table?level=club``, ``GET /api/daily/month/{YYYY-MM}/table?level=club``:
  the daily and monthly tables by matchpoints.
* ``GET /api/daily/{day}/{number}/others``: the best and median results of the deal, with their
  replays, for a person who has finished it.
* ``GET /api/daily/{day}/records``: every finished game of a day that is over (for ``gin daily
  verify``), each with its public record.

Paths and queries go through :func:`~ginrummy.web.protocol.bodies.parse_daily_path`, the body
through :class:`~ginrummy.web.protocol.bodies.DailyBody`; POSTs pass the CSRF check
(:class:`~ginrummy.web.security.CsrfGuard`).
"""

from __future__ import annotations

import asyncio
import re
from datetime import date
from functools import partial
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...errors import GinRummyError
from ..contests.daily import DailyRoom
from ..errors import ErrorCode, WebError
from ..protocol.bodies import DailyBody, parse_daily_path
from ..protocol.replay_frames import public_record as table_record
from ..texts import W_, request_lang, web_translator
from .common import error_response, link_base, page, read_json_body
from .context import AppContext
from .player_routes import current_account, signed_in_account

__all__ = ["daily_routes", "public_record"]

_MONTH = re.compile(r"^(20[0-9]{2})-(0[1-9]|1[0-2])$")


def _room(ctx: AppContext) -> DailyRoom:
    assert ctx.daily is not None
    return ctx.daily


def _signed_in(ctx: AppContext, request: Request) -> Any:
    return signed_in_account(request, ctx.players, W_("sign in to play the daily deals"))


def _day(request: Request, number: bool = False, level: bool = False) -> Any:
    return parse_daily_path(
        request.path_params.get("day", ""),
        request.path_params.get("number") if number else None,
        request.query_params.get("level", "club") if level else None,
    )


async def overview(ctx: AppContext, request: Request) -> Response:
    """``GET /api/daily``: ``{"today": set, "tomorrow": set, "mine": [entries], "deals": N}``."""
    tr = web_translator(request_lang(request))
    room = _room(ctx)
    try:
        today = room.today()
        out: dict[str, Any] = {
            "today": await asyncio.to_thread(room.published, today),
            "tomorrow": await asyncio.to_thread(room.published, date.fromordinal(today.toordinal() + 1)),
        }
        account = current_account(request, ctx.players)
        out["mine"] = [] if account is None else await asyncio.to_thread(room.mine, account, today)
        out["signed_in"] = account is not None
    except GinRummyError as exc:
        return error_response(exc, tr)
    return JSONResponse(out, headers={"Cache-Control": "no-store"})


async def day_set(ctx: AppContext, request: Request) -> Response:
    """``GET /api/daily/{day}``: the day's published set; its ``seed`` once the day is over."""
    tr = web_translator(request_lang(request))
    try:
        path = _day(request)
        out = await asyncio.to_thread(_room(ctx).published, date.fromisoformat(path.day))
    except GinRummyError as exc:
        return error_response(exc, tr)
    return JSONResponse(out, headers={"Cache-Control": "no-store"})


async def play(ctx: AppContext, request: Request) -> Response:
    """``POST /api/daily/{day}/{number}``: open the person's table of that deal (``201``:
    ``{"id", "link", "token", "number", "level"}``); 401 signed out, 403 another day, 409 a
    second try or another level than the day's."""
    tr = web_translator(request_lang(request))
    try:
        account = _signed_in(ctx, request)
        path = _day(request, number=True)
        body = await read_json_body(request, DailyBody)
        table, token = await _room(ctx).start(
            account, date.fromisoformat(path.day), path.number, body.level, lang=tr.lang
        )
        ctx.players.table_opened(table, (0, account.id), False)
    except GinRummyError as exc:
        return error_response(exc, tr)
    base = link_base(request, ctx.public_url)
    return JSONResponse(
        {
            "id": table.id,
            "number": path.number,
            "level": body.level,
            "token": token,
            "link": f"{base}/table/{table.id}?seat={token}",
        },
        status_code=201,
    )


async def day_table(ctx: AppContext, request: Request) -> Response:
    """``GET /api/daily/{day}/table?level=``: ``{"day", "level", "rows": [{rank, player, score, deals}]}``."""
    tr = web_translator(request_lang(request))
    try:
        path = _day(request, level=True)
        rows = await asyncio.to_thread(_room(ctx).table, date.fromisoformat(path.day), path.level)
    except GinRummyError as exc:
        return error_response(exc, tr)
    return JSONResponse({"day": path.day, "level": path.level, "rows": rows}, headers={"Cache-Control": "no-store"})


async def month_table(ctx: AppContext, request: Request) -> Response:
    """``GET /api/daily/month/{month}/table?level=``: ``{"month", "level", "rows"}``."""
    tr = web_translator(request_lang(request))
    try:
        m = _MONTH.match(request.path_params.get("month", ""))
        if m is None:
            raise WebError(
                ErrorCode.BAD_MESSAGE,
                W_("{field}: {problem}", field="month", problem=W_("is not a month; allowed: YYYY-MM")),
            )
        level = parse_daily_path("2000-01-01", None, request.query_params.get("level", "club")).level
        rows = await asyncio.to_thread(_room(ctx).month_table, int(m[1]), int(m[2]), level)
    except GinRummyError as exc:
        return error_response(exc, tr)
    return JSONResponse({"month": m[0], "level": level, "rows": rows}, headers={"Cache-Control": "no-store"})


async def others(ctx: AppContext, request: Request) -> Response:
    """``GET /api/daily/{day}/{number}/others``: ``{"level", "entrants", "best", "median"}``,
    each ``{"player", "score", "replay", "record"}`` (the public record: the moves; ``replay``
    and ``record`` ``null`` until the day is over)."""
    tr = web_translator(request_lang(request))
    try:
        account = _signed_in(ctx, request)
        path = _day(request, number=True)
        out = await asyncio.to_thread(_room(ctx).others, account, date.fromisoformat(path.day), path.number)
        for key in ("best", "median"):  # the record once the day is over (DailyRoom.others)
            table = out[key].pop("table")
            out[key]["record"] = None if table is None else await asyncio.to_thread(public_record, ctx, table)
    except GinRummyError as exc:
        return error_response(exc, tr)
    return JSONResponse(out, headers={"Cache-Control": "no-store"})


def public_record(ctx: AppContext, table_id: str) -> str:
    """The public record of a finished daily game (run in a worker thread)."""
    table = _room(ctx).game(table_id)
    assert table is not None and table.match is not None
    return table_record(table)


async def records(ctx: AppContext, request: Request) -> Response:
    """``GET /api/daily/{day}/records``: ``{"day", "seed", "commitment", "records": [{number,
    level, player, score, record}]}`` once the day is over (403 before)."""
    tr = web_translator(request_lang(request))
    try:
        path = _day(request)
        day = date.fromisoformat(path.day)
        room = _room(ctx)
        shown = await asyncio.to_thread(room.published, day)
        games = await asyncio.to_thread(room.records, day)
        for g in games:
            g["record"] = await asyncio.to_thread(public_record, ctx, g.pop("table"))
    except GinRummyError as exc:
        return error_response(exc, tr)
    return JSONResponse(
        {"day": path.day, "seed": shown["seed"], "commitment": shown["commitment"], "records": games},
        headers={"Cache-Control": "no-store"},
    )


def daily_routes(ctx: AppContext) -> list[Route]:
    """The routes of this module, each handler bound to ``ctx``."""
    return [
        Route("/daily", page("daily.html")),
        Route("/api/daily", partial(overview, ctx)),
        Route("/api/daily/month/{month}/table", partial(month_table, ctx)),
        Route("/api/daily/{day}", partial(day_set, ctx)),
        Route("/api/daily/{day}/table", partial(day_table, ctx)),
        Route("/api/daily/{day}/records", partial(records, ctx)),
        Route("/api/daily/{day}/{number}", partial(play, ctx), methods=["POST"]),
        Route("/api/daily/{day}/{number}/others", partial(others, ctx)),
    ]
