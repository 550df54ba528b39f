"""HTTP endpoints of accounts, the leaderboard, player pages and replays (``docs/accounts.md``).

* ``POST /api/account`` ``{"name", "password"}``: sign up (and in): ``201 {"name"}``, or
  ``400 {"error", "code": "bad_name" | "bad_password" | ...}``, ``409 {"code": "name_taken"}``.
* ``DELETE /api/account`` ``{"password"}``: delete the signed-in account (its matches stay,
  under "deleted player").
* ``POST /api/session`` ``{"name", "password"}``: sign in (``200 {"name"}``; ``401``
  ``wrong_password``; ``429`` ``rate_limited`` with ``Retry-After``).
* ``DELETE /api/session``: sign out (the session row is deleted; the cookie is cleared).
* ``GET /api/me``: ``{"signed_in": false}`` or ``{"signed_in": true, "name", "kind", "rating",
  "provisional", "matches"}``.
* ``GET /api/leaderboard?limit=&offset=`` and ``GET /api/players/NAME``
  (:meth:`~ginrummy.web.community.members.Players.leaderboard`, :meth:`~ginrummy.web.community.members.Players.player`).
* ``GET /api/replays/ID``: the replay of a recorded finished (or forfeited) match (public, or
  one you played), with ``"forfeit"``: the name of who forfeited on time, or ``null``;
  ``POST /api/replays``: the replay of an uploaded record (text body, at most
  :data:`~ginrummy.web.protocol.replay_frames.MAX_RECORD_BYTES`).
* Pages: ``/account``, ``/leaderboard``, ``/players/NAME``, ``/replay`` (upload) and
  ``/replay/ID``.

Every state-changing request also passes :class:`~ginrummy.web.community.accounts.CsrfGuard`.
Password hashing runs off the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...errors import GinRummyError
from ...i18n import translate_error
from ...record import dumps
from ..community.accounts import SESSION_COOKIE, Account, AccountError, RateLimiter, cleared_session_cookie, session_cookie
from ..texts import W_, request_lang, web_translator
from ..protocol.inbound import AccountBody, DeleteAccountBody, MessageError
from ..community.members import Players
from ..protocol.replay_frames import MAX_RECORD_BYTES, replay_frames
from ..security import read_body
from ..room.tables import TableError, TableManager

__all__ = ["player_routes", "current_account", "replay_text", "uploaded_record"]

_STATUS = {"bad_name": 400, "bad_password": 400, "name_taken": 409, "wrong_password": 401, "rate_limited": 429,
           "not_signed_in": 401}


def current_account(request: Request, players: Players) -> Account | None:
    """The signed-in account of ``request`` (its session cookie), or ``None``."""
    return players.accounts.account_of(request.cookies.get(SESSION_COOKIE))


def _client(request: Request) -> str:
    return request.client.host if request.client else ""


async def replay_table(players: Players, manager: TableManager, request: Request, result_id: str) -> Any:
    """The table of the recorded match ``result_id`` (over: finished by the rules or forfeited
    on time) when ``request`` may replay it (a public match, or one its signed-in account
    played), else ``None``."""
    account = current_account(request, players)
    if not players.result_public(result_id, None if account is None else account.id):
        return None
    try:
        table = manager.load(result_id)
    except TableError:
        return None
    if table.match is None or not table.over:  # pragma: no cover - recorded means over
        return None
    return table


def replay_record(table: Any) -> str:
    """The public record (text) of ``table``, a table :func:`replay_table` returned."""
    return dumps(table.match, date=table.row.created[:10], public=True)


async def replay_text(players: Players, manager: TableManager, request: Request, result_id: str) -> str | None:
    """The public record (text) of the recorded match ``result_id`` when ``request`` may replay
    it, else ``None``.  The replay (``GET /api/replays/ID``) and its review
    (:mod:`ginrummy.web.http.replay_review_routes`) both show only this text."""
    table = await replay_table(players, manager, request, result_id)
    return None if table is None else replay_record(table)


async def uploaded_record(request: Request, tr: Any, bad: Callable[..., Response]) -> str | Response:
    """The record text of an upload's body (at most :data:`MAX_RECORD_BYTES`, UTF-8), or the
    error answer (413 ``too_large``, 400 ``bad_record``) made with ``bad``.  The replay upload
    and the review of an uploaded record both read their body so."""
    raw = await read_body(request.stream(), MAX_RECORD_BYTES)
    if raw is None:
        return bad(W_("request body too large; the limit is {limit} bytes", limit=MAX_RECORD_BYTES), tr, 413,
                   "too_large")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return bad(W_("a record is UTF-8 text"), tr, 400, "bad_record")


SIGNUPS_PER_ADDRESS = 5
SIGNUP_WINDOW = 600.0
"""At most :data:`SIGNUPS_PER_ADDRESS` sign-ups (``POST /api/account``, each an argon2 hash of
64 MiB) from one client address in any :data:`SIGNUP_WINDOW` seconds; more are answered 429
``rate_limited`` with ``Retry-After`` before anything is hashed (16 clients made 160 accounts in
25 s before, issue 27)."""


def player_routes(players: Players, manager: TableManager, body: Callable[..., Any], bad: Callable[..., Response],
                  page: Callable[[str], Any]) -> list[Route]:
    """The routes of this module; ``body``/``bad``/``page`` are the app's body reader, error
    answer and page renderer."""

    def account_error(exc: AccountError, tr: Any) -> Response:
        r = bad(exc.message, tr, _STATUS.get(exc.code, 400), exc.code)
        if exc.retry_after:
            r.headers["Retry-After"] = str(exc.retry_after)
        return r

    def signed_in(request: Request, account: Account, status: int = 200) -> Response:
        token = players.accounts.open_session(account)
        r = JSONResponse({"name": account.name}, status_code=status)
        r.headers["Set-Cookie"] = session_cookie(token, request.url.scheme == "https")
        r.headers["Cache-Control"] = "no-store"
        return r

    signups = RateLimiter(SIGNUPS_PER_ADDRESS, SIGNUP_WINDOW)

    async def sign_up(request: Request) -> Response:
        tr = web_translator(request_lang(request))
        address = _client(request)
        wait = signups.retry_after(address)
        if wait:
            r = bad(W_("too many accounts made from your address; try again in {seconds} seconds", seconds=wait),
                    tr, 429, "rate_limited")
            r.headers["Retry-After"] = str(wait)
            return r
        try:
            b = await body(request, AccountBody)
            account = await asyncio.to_thread(players.accounts.sign_up, b.name, b.password)
        except MessageError as exc:
            return bad(exc, tr)
        except AccountError as exc:
            if exc.hashed:  # a name taken while its password was hashed: it cost a hash, it counts
                signups.hit(address)
            return account_error(exc, tr)
        signups.hit(address)
        return signed_in(request, account, 201)

    async def delete_account(request: Request) -> Response:
        tr = web_translator(request_lang(request))
        account = current_account(request, players)
        if account is None:
            return bad(W_("sign in first"), tr, 401, "not_signed_in")
        try:
            b = await body(request, DeleteAccountBody)
            await asyncio.to_thread(players.accounts.delete, account, b.password)
        except MessageError as exc:
            return bad(exc, tr)
        except AccountError as exc:
            return account_error(exc, tr)
        r = JSONResponse({"deleted": True})
        r.headers["Set-Cookie"] = cleared_session_cookie(request.url.scheme == "https")
        return r

    async def sign_in(request: Request) -> Response:
        tr = web_translator(request_lang(request))
        try:
            b = await body(request, AccountBody)
            account = await asyncio.to_thread(players.accounts.verify, b.name, b.password, _client(request))
        except MessageError as exc:
            return bad(exc, tr)
        except AccountError as exc:
            return account_error(exc, tr)
        return signed_in(request, account)

    async def sign_out(request: Request) -> Response:
        players.accounts.close_session(request.cookies.get(SESSION_COOKIE))
        r = JSONResponse({"signed_in": False})
        r.headers["Set-Cookie"] = cleared_session_cookie(request.url.scheme == "https")
        return r

    async def me(request: Request) -> Response:
        account = current_account(request, players)
        out = {"signed_in": False} if account is None else players.me(account.id)
        return JSONResponse(out, headers={"Cache-Control": "no-store"})

    def _int(request: Request, key: str, default: int, hi: int) -> int:
        raw = request.query_params.get(key, "")
        if not raw:
            return default
        if not raw.isdigit() or len(raw) > 9 or int(raw) > hi:
            raise ValueError(key)
        return int(raw)

    async def leaderboard(request: Request) -> Response:
        tr = web_translator(request_lang(request))
        try:
            limit = _int(request, "limit", 50, 200)
            offset = _int(request, "offset", 0, 10**8)
        except ValueError as exc:
            return bad(W_("{field} must be a whole number from 0 to {hi}", field=str(exc),
                          hi=200 if str(exc) == "limit" else 10**8), tr)
        return JSONResponse(players.leaderboard(limit, offset))

    async def player(request: Request) -> Response:
        tr = web_translator(request_lang(request))
        name = request.path_params["name"]
        out = players.player(name) if 0 < len(name) <= 80 else None
        if out is None:
            return bad(W_("no player is called {name}", name=name[:80]), tr, 404, "not_found")
        return JSONResponse(out)

    async def replay_of(request: Request) -> Response:
        tr = web_translator(request_lang(request))
        rid = request.path_params["result_id"]
        table = await replay_table(players, manager, request, rid)
        if table is None:
            return bad(W_("no finished match {id} that you may replay", id=rid[:60]), tr, 404, "not_found")
        text = replay_record(table)
        out = await asyncio.to_thread(replay_frames, text)
        forfeit = table.forfeit
        if forfeit is not None:  # over on time: the deal in play stays sealed, the other player won
            out = {**out, "finished": True, "winner": table.names[1 - forfeit]}
        return JSONResponse({"id": rid, **out, "forfeit": None if forfeit is None else table.names[forfeit]})

    async def replay_upload(request: Request) -> Response:
        tr = web_translator(request_lang(request))
        text = await uploaded_record(request, tr, bad)
        if isinstance(text, Response):
            return text
        try:
            out = await asyncio.to_thread(replay_frames, text)
        except (GinRummyError, ValueError) as exc:
            return JSONResponse({"error": translate_error(exc, tr), "code": "bad_record"}, status_code=400)
        return JSONResponse(out)

    return [
        Route("/account", page("account.html")),
        Route("/leaderboard", page("leaderboard.html")),
        Route("/players/{name}", page("player.html")),
        Route("/replay", page("replay.html")),
        Route("/replay/{result_id}", page("replay.html")),
        Route("/api/account", sign_up, methods=["POST"]),
        Route("/api/account", delete_account, methods=["DELETE"]),
        Route("/api/session", sign_in, methods=["POST"]),
        Route("/api/session", sign_out, methods=["DELETE"]),
        Route("/api/me", me),
        Route("/api/leaderboard", leaderboard),
        Route("/api/players/{name}", player),
        Route("/api/replays/{result_id}", replay_of),
        Route("/api/replays", replay_upload, methods=["POST"]),
    ]
