"""HTTP endpoints of accounts, the leaderboard, player pages and replays (``docs/accounts.md``).

* ``POST /api/account`` ``{"name", "password"}``: sign up (and in): ``201 {"name"}``, or
  ``400 {"error", "code": "bad_name" | "bad_password" | ...}``, ``409 {"code": "name_taken"}``.
* ``DELETE /api/account`` ``{"password"}``: delete the signed-in account (its matches stay,
  under "deleted player").
* ``POST /api/session`` ``{"name", "password"}``: sign in (``200 {"name"}``; ``401``
  ``wrong_password``; ``429`` ``rate_limited`` with ``Retry-After``).
* ``DELETE /api/session``: sign out (the session row is deleted; the cookie is cleared).
* ``GET /api/me``: ``{"signed_in": false}`` or ``{"signed_in": true, "name", "kind", "rating",
  "provisional", "matches", "moderator", "notices"}`` (``notices``: what moderators did about
  the account and why, docs/accounts.md "Moderation").
* ``GET /api/leaderboard?limit=&offset=`` and ``GET /api/players/NAME``
  (:meth:`~ginrummy.web.community.members.Players.leaderboard`, :meth:`~ginrummy.web.community.members.Players.player`).
* ``GET /api/replays/ID``: the replay of a recorded finished (or forfeited) match (public, or
  one you played), with ``"forfeit"``: the name of who forfeited (``"ended"``: resigned, left,
  time), or ``null``;
  ``POST /api/replays``: the replay of an uploaded record (text body, at most
  :data:`~ginrummy.web.protocol.replay_frames.MAX_RECORD_BYTES`).
* Pages: ``/account``, ``/leaderboard``, ``/players/NAME``, ``/replay`` (upload) and
  ``/replay/ID``.

Every state-changing request also passes :class:`~ginrummy.web.community.accounts.CsrfGuard`.
Password hashing runs off the event loop.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...errors import GinRummyError
from ...i18n import translate_error
from ..community.accounts import SESSION_COOKIE, Account, cleared_session_cookie, session_cookie
from ..community.members import Players
from ..errors import ErrorCode, WebError
from ..protocol.inbound import AccountBody, DeleteAccountBody
from ..protocol.replay_frames import public_record, replay_frames
from ..review_budget import client_key
from ..room.tables import TableManager
from ..texts import W_, request_lang, web_translator
from .common import error_response, page, read_json_body, same_origin, uploaded_record
from .context import AppContext

__all__ = ["player_routes", "current_account", "replay_text", "review_client", "SIGNUPS_PER_ADDRESS", "SIGNUP_WINDOW"]


def current_account(request: Request, players: Players) -> Account | None:
    """The signed-in account of ``request`` (its session cookie), or ``None``."""
    return players.accounts.account_of(request.cookies.get(SESSION_COOKIE))


def signed_in_account(request: Request, players: Players, why: Any) -> Account:
    """The signed-in account of ``request``; raises :class:`WebError` ``not_signed_in`` with
    ``why`` (a message saying what signing in is for) when there is none."""
    account = current_account(request, players)
    if account is None:
        raise WebError(ErrorCode.NOT_SIGNED_IN, why)
    return account


def review_client(players: Players, conn: Any) -> str:
    """Whose review budget a request or WebSocket ``conn`` spends: its signed-in account (a
    same-origin connection's session cookie), else its address
    (:func:`~ginrummy.web.review_budget.client_key`)."""
    account = current_account(conn, players) if same_origin(conn) else None
    return client_key(conn.client.host if conn.client else None, None if account is None else account.id)


def _client(request: Request) -> str:
    return request.client.host if request.client else ""


async def replay_table(players: Players, manager: TableManager, request: Request, result_id: str) -> Any:
    """The table of the recorded match ``result_id`` (over: finished by the rules or forfeited
    on time) when ``request`` may replay it (a public match, or one its signed-in account
    played; a daily deal's game: see :meth:`~ginrummy.web.contests.daily.DailyRoom.may_replay`; a
    friend challenge's: :meth:`~ginrummy.web.contests.duels.DuelRoom.may_replay`),
    else ``None``."""
    account = current_account(request, players)
    account_id = None if account is None else account.id
    daily = None if players.daily is None else players.daily.may_replay(result_id, account_id)
    if daily is False:  # a daily game before the end of its day: not even its own player's
        return None
    duel = not daily and players.duels is not None and players.duels.may_replay(result_id, account_id)
    if not daily and not duel and not players.result_public(result_id, account_id):
        return None
    try:
        table = manager.load(result_id)
    except WebError:
        return None
    if table.match is None or not table.over:  # pragma: no cover - recorded means over
        return None
    return table


def replay_record(table: Any) -> str:
    """The public record (text) of ``table``, a table :func:`replay_table` returned."""
    return public_record(table)


async def replay_text(players: Players, manager: TableManager, request: Request, result_id: str) -> str | None:
    """The public record (text) of the recorded match ``result_id`` when ``request`` may replay
    it, else ``None``.  The replay (``GET /api/replays/ID``) and its review
    (:mod:`ginrummy.web.http.replay_review_routes`) both show only this text."""
    table = await replay_table(players, manager, request, result_id)
    # a finished match no longer changes: its record (100 KB for a long match) is written
    # off the event loop
    return None if table is None else await asyncio.to_thread(replay_record, table)


SIGNUPS_PER_ADDRESS = 5
SIGNUP_WINDOW = 600.0
"""At most :data:`SIGNUPS_PER_ADDRESS` sign-ups (``POST /api/account``, each an argon2 hash of
64 MiB) from one client address in any :data:`SIGNUP_WINDOW` seconds; more are answered 429
``rate_limited`` with ``Retry-After`` before anything is hashed (16 clients made 160 accounts in
25 s before, issue 27)."""


def account_error(exc: WebError, tr: Any) -> Response:
    r = error_response(exc.message, tr, exc.status, exc.code)
    if exc.retry_after:
        r.headers["Retry-After"] = str(exc.retry_after)
    return r


def signed_in(ctx: AppContext, request: Request, account: Account, status: int = 200) -> Response:
    token = ctx.players.accounts.open_session(account)
    ctx.players.accounts.moderation.signed_in(account.id, _client(request))  # a keyed hash of it
    r = JSONResponse({"name": account.name}, status_code=status)
    r.headers["Set-Cookie"] = session_cookie(token, request.url.scheme == "https")
    r.headers["Cache-Control"] = "no-store"
    return r


async def sign_up(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    address = _client(request)
    wait = ctx.signups.retry_after(address)
    if wait:
        r = error_response(
            W_("too many accounts made from your address; try again in {seconds} seconds", seconds=wait),
            tr,
            429,
            "rate_limited",
        )
        r.headers["Retry-After"] = str(wait)
        return r
    try:
        b = await read_json_body(request, AccountBody)
    except WebError as exc:
        return error_response(exc, tr)
    try:
        account = await asyncio.to_thread(ctx.players.accounts.sign_up, b.name, b.password)
    except WebError as exc:
        if exc.hashed:  # a name taken while its password was hashed: it cost a hash, it counts
            ctx.signups.hit(address)
        return account_error(exc, tr)
    ctx.signups.hit(address)
    return signed_in(ctx, request, account, 201)


async def delete_account(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    account = current_account(request, ctx.players)
    if account is None:
        return error_response(W_("sign in first"), tr, 401, "not_signed_in")
    try:
        b = await read_json_body(request, DeleteAccountBody)
    except WebError as exc:
        return error_response(exc, tr)
    try:
        await asyncio.to_thread(ctx.players.accounts.delete, account, b.password)
    except WebError as exc:
        return account_error(exc, tr)
    r = JSONResponse({"deleted": True})
    r.headers["Set-Cookie"] = cleared_session_cookie(request.url.scheme == "https")
    return r


async def sign_in(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    try:
        b = await read_json_body(request, AccountBody)
    except WebError as exc:
        return error_response(exc, tr)
    try:
        account = await asyncio.to_thread(ctx.players.accounts.verify, b.name, b.password, _client(request))
    except WebError as exc:
        return account_error(exc, tr)
    return signed_in(ctx, request, account)


async def sign_out(ctx: AppContext, request: Request) -> Response:
    ctx.players.accounts.close_session(request.cookies.get(SESSION_COOKIE))
    r = JSONResponse({"signed_in": False})
    r.headers["Set-Cookie"] = cleared_session_cookie(request.url.scheme == "https")
    return r


async def me(ctx: AppContext, request: Request) -> Response:
    account = current_account(request, ctx.players)
    out = {"signed_in": False} if account is None else ctx.players.me(account.id)
    return JSONResponse(out, headers={"Cache-Control": "no-store"})


def _int(request: Request, key: str, default: int, hi: int) -> int:
    raw = request.query_params.get(key, "")
    if not raw:
        return default
    if not raw.isdigit() or len(raw) > 9 or int(raw) > hi:
        raise ValueError(key)
    return int(raw)


async def leaderboard(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    try:
        limit = _int(request, "limit", 50, 200)
        offset = _int(request, "offset", 0, 10**8)
    except ValueError as exc:
        return error_response(
            W_(
                "{field} must be a whole number from 0 to {hi}",
                field=str(exc),
                hi=200 if str(exc) == "limit" else 10**8,
            ),
            tr,
        )
    return JSONResponse(ctx.players.leaderboard(limit, offset))


async def player(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    name = request.path_params["name"]
    out = ctx.players.player(name) if 0 < len(name) <= 80 else None
    if out is None:
        return error_response(W_("no player is called {name}", name=name[:80]), tr, 404, "not_found")
    return JSONResponse(out)


async def replay_of(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    rid = request.path_params["result_id"]
    table = await replay_table(ctx.players, ctx.manager, request, rid)
    if table is None:
        return error_response(W_("no finished match {id} that you may replay", id=rid[:60]), tr, 404, "not_found")
    text = await asyncio.to_thread(replay_record, table)  # a finished match: it no longer changes
    # a forfeited match's record says who forfeited and how (its forfeit line), and its winner
    out = await asyncio.to_thread(replay_frames, text)
    return JSONResponse({"id": rid, **out})


async def replay_upload(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    text = await uploaded_record(request, tr)
    if isinstance(text, Response):
        return text
    try:
        out = await asyncio.to_thread(replay_frames, text)
    except (GinRummyError, ValueError) as exc:
        return JSONResponse({"error": translate_error(exc, tr), "code": "bad_record"}, status_code=400)
    return JSONResponse(out)


def player_routes(ctx: AppContext) -> list[Route]:
    """The routes of this module, each handler bound to ``ctx``."""
    return [
        Route("/account", page("account.html")),
        Route("/leaderboard", page("leaderboard.html")),
        Route("/players/{name}", page("player.html")),
        Route("/replay", page("replay.html")),
        Route("/replay/{result_id}", page("replay.html")),
        Route("/api/account", partial(sign_up, ctx), methods=["POST"]),
        Route("/api/account", partial(delete_account, ctx), methods=["DELETE"]),
        Route("/api/session", partial(sign_in, ctx), methods=["POST"]),
        Route("/api/session", partial(sign_out, ctx), methods=["DELETE"]),
        Route("/api/me", partial(me, ctx)),
        Route("/api/leaderboard", partial(leaderboard, ctx)),
        Route("/api/players/{name}", partial(player, ctx)),
        Route("/api/replays/{result_id}", partial(replay_of, ctx)),
        Route("/api/replays", partial(replay_upload, ctx), methods=["POST"]),
    ]
