"""HTTP endpoints of block, mute, report and the moderators' work (``docs/accounts.md``, "Block,
mute, report" and "Moderation").

* ``GET /api/relations``: ``{"blocked": [names], "muted": [names]}`` of the signed-in person;
  ``POST /api/relations`` ``{"name", "kind": "block" | "mute"}`` and ``DELETE /api/relations``
  (the same body) to undo.
* ``POST /api/reports`` ``{"reason", "text", "name"?, "table_id"?, "message"?}``: ``201 {"id"}``;
  the table's (or the lobby's) chat as the reporter sees it is kept with the report.
* ``GET /api/moderation/queue``, ``GET /api/moderation/audit``,
  ``GET /api/moderation/tables/{id}`` (a table's public record and chat: what a spectator
  sees, never a live deal's hidden cards), ``POST /api/moderation/actions``: moderators
  only; everyone else gets ``403 forbidden`` (signed in or not).
* The page ``/moderation``.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..community.accounts import Account
from ..errors import ErrorCode, WebError
from ..protocol.bodies import ModActionBody, RelationBody, ReportBody
from ..protocol.chat_guard import LOBBY
from ..protocol.replay_frames import public_record
from ..room.seats import SPECTATOR
from ..texts import W_, WebTranslator, request_lang, web_translator
from .common import error_response, page, read_json_body
from .context import AppContext
from .player_routes import current_account

__all__ = ["moderation_routes"]

NO_STORE = {"Cache-Control": "no-store"}


def _signed_in(ctx: AppContext, request: Request, tr: WebTranslator) -> Account | Response:
    account = current_account(request, ctx.players)
    if account is None:
        return error_response(W_("sign in first"), tr, 401, "not_signed_in")
    return account


def _moderator(ctx: AppContext, request: Request, tr: WebTranslator) -> Account | Response:
    """The signed-in moderator of ``request`` (his role read now), else a ``403 forbidden``."""
    account = current_account(request, ctx.players)
    if account is None or not ctx.players.accounts.moderation.is_moderator(account.id):
        return error_response(W_("only moderators may do this"), tr, 403, "forbidden")
    return account


async def relations(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    who = _signed_in(ctx, request, tr)
    if isinstance(who, Response):
        return who
    mod = ctx.players.accounts.moderation
    try:
        if request.method != "GET":
            b = await read_json_body(request, RelationBody)
            if request.method == "POST":
                mod.relate(who.id, b.name, b.kind)
            else:
                mod.unrelate(who.id, b.name, b.kind)
    except WebError as exc:
        return error_response(exc, tr)
    return JSONResponse(mod.relations(who.id), headers=NO_STORE)


def _chat_seen(ctx: AppContext, table_id: str | None, account: Account) -> list[dict[str, Any]] | None:
    """The chat of table ``table_id`` (``None``: the lobby) as ``account`` sees it, or ``None``
    when he may not see that table's chat (not seated there, and not a public table whose
    spectators chat)."""
    guard = ctx.manager.room.guard
    if table_id is None:
        return guard.shown(LOBBY, list(ctx.manager.lobby_chat), account.id)
    table = ctx.manager.load(table_id)
    seated = account.id in ctx.players.accounts.seats(table_id).values()
    if not seated and not (table.public and table.sees_chat(SPECTATOR)):
        return [] if table.public else None
    return guard.shown(table_id, list(table.chat), account.id)


async def report(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    who = _signed_in(ctx, request, tr)
    if isinstance(who, Response):
        return who
    try:
        b = await read_json_body(request, ReportBody)
        if b.table_id is None and b.name is None:
            return error_response(W_("say what you report: a table (table_id), a player (name) or both"), tr)
        chat = _chat_seen(ctx, b.table_id, who) if (b.table_id is not None or b.message is not None) else []
        if chat is None:
            raise WebError(ErrorCode.NOT_FOUND, W_("no table {id} that you may report", id=b.table_id))
        rid = ctx.players.accounts.moderation.report(
            who.id, reason=b.reason, text=b.text, subject=b.name, table_id=b.table_id, message=b.message, chat=chat
        )
    except WebError as exc:
        return error_response(exc, tr)
    return JSONResponse({"id": rid}, status_code=201)


async def queue(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    who = _moderator(ctx, request, tr)
    if isinstance(who, Response):
        return who
    return JSONResponse(await asyncio.to_thread(ctx.players.accounts.moderation.queue), headers=NO_STORE)


async def audit(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    who = _moderator(ctx, request, tr)
    if isinstance(who, Response):
        return who
    return JSONResponse(ctx.players.accounts.moderation.audit(200), headers=NO_STORE)


async def evidence(ctx: AppContext, request: Request) -> Response:
    """A table as a spectator sees it: its public record (a live deal's hidden cards sealed,
    docs/record-format.md) and its chat."""
    tr = web_translator(request_lang(request))
    who = _moderator(ctx, request, tr)
    if isinstance(who, Response):
        return who
    try:
        table = ctx.manager.load(request.path_params["table_id"])
    except WebError as exc:
        return error_response(exc, tr)
    text = None if table.match is None else public_record(table)
    return JSONResponse(
        {"id": table.id, "names": list(table.names), "over": table.over, "record": text, "chat": list(table.chat)},
        headers=NO_STORE,
    )


def _delete_message(ctx: AppContext, b: ModActionBody) -> int:
    """Remove the line ``b.message`` (from ``b.name``, if given) from the live chat of table
    ``b.table_id`` (or the lobby) on this process; returns how many lines went."""
    guard = ctx.manager.room.guard
    if b.table_id is None or b.message is None:
        return 0 if b.message is None else len(guard.drop(ctx.manager.lobby_chat, b.message, b.name))
    table = ctx.manager.tables.get(b.table_id)
    return 0 if table is None else len(guard.drop(table.chat, b.message, b.name))


async def act(ctx: AppContext, request: Request) -> Response:
    tr = web_translator(request_lang(request))
    who = _moderator(ctx, request, tr)
    if isinstance(who, Response):
        return who
    try:
        b = await read_json_body(request, ModActionBody)
        detail: dict[str, Any] = {}
        if b.action == "delete_message":
            detail = {"table_id": b.table_id, "message": b.message, "deleted": _delete_message(ctx, b)}
        if b.action == "void_series":
            detail = {"matches": list(b.matches)}
        entry = await asyncio.to_thread(
            partial(
                ctx.players.accounts.moderation.act,
                who.id,
                b.action,
                reason=b.reason,
                name=b.name,
                until=b.until,
                report_id=b.report_id,
                flag=b.flag,
                detail=detail,
            )
        )
    except WebError as exc:
        return error_response(exc, tr)
    if b.action == "delete_message" and b.table_id is not None and b.table_id in ctx.manager.tables:
        await ctx.manager.changed(ctx.manager.tables[b.table_id])  # the players' chat without it
    return JSONResponse(entry, status_code=201)


def moderation_routes(ctx: AppContext) -> list[Route]:
    """The routes of this module, each handler bound to ``ctx``."""
    return [
        Route("/moderation", page("moderation.html")),
        Route("/api/relations", partial(relations, ctx), methods=["GET", "POST", "DELETE"]),
        Route("/api/reports", partial(report, ctx), methods=["POST"]),
        Route("/api/moderation/queue", partial(queue, ctx)),
        Route("/api/moderation/audit", partial(audit, ctx)),
        Route("/api/moderation/tables/{table_id}", partial(evidence, ctx)),
        Route("/api/moderation/actions", partial(act, ctx), methods=["POST"]),
    ]
