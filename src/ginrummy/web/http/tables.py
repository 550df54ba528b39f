"""HTTP routes of the tables and the tools around them: options, the browser catalog, opening a
table, claiming and taking seats, the lobby list, a table's record and the scorekeeper
(``docs/protocol.md``).  Each handler takes the app context first (``handler(ctx, request)``)."""

from __future__ import annotations

import asyncio
import json
from functools import partial
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ...errors import GinRummyError
from ...match import commitment
from ...rules import BOUNDS, CHOICES, FIELD_RULES, PRESETS, RuleSet
from ...scoring import ScoreSheet, parse_results
from ..community.fairplay import FORFEITS_LIMIT, iso_time
from ..community.ratings import rateable
from ..errors import ErrorCode, WebError
from ..protocol.bodies import RATED_CLOCK
from ..protocol.chat_guard import LOBBY
from ..protocol.inbound import ClaimBody, CreateTableBody, SheetBody, SitBody
from ..protocol.replay_frames import public_record
from ..protocol.state import daily_sealed
from ..room.tables import SeatSpec, player_levels
from ..texts import W_, WebTranslator, request_lang, web_catalog, web_translator
from .common import error_response, link_base, read_json_body, render_page
from .context import AppContext
from .player_routes import current_account

__all__ = ["table_routes"]


async def options(ctx: AppContext, request: Request) -> Response:
    """``GET /api/options``: presets (R13), rule fields (R14) and computer levels."""
    fields = {k: v for k, v in RuleSet().to_dict().items() if k != "name"}
    return JSONResponse(
        {
            "presets": {name: r.to_dict() for name, r in PRESETS.items()},
            "fields": fields,
            "field_rules": FIELD_RULES,
            "levels": player_levels(),
            "choices": {k: list(v) for k, v in CHOICES.items()},
            "bounds": {k: list(v) for k, v in BOUNDS.items()},
        }
    )


async def catalog(ctx: AppContext, request: Request) -> Response:
    """``GET /api/i18n``: the browser catalog of the request's language, as JSON."""
    lang = request_lang(request)
    return JSONResponse(
        web_catalog(lang),
        headers={"Cache-Control": "no-cache", "Content-Language": lang, "Vary": "Accept-Language, Cookie"},
    )


async def catalog_script(ctx: AppContext, request: Request) -> Response:
    """``GET /api/i18n.js``: the same catalog as a script setting ``window.GIN_I18N``."""
    lang = request_lang(request)
    body = "window.GIN_I18N = " + json.dumps(web_catalog(lang), ensure_ascii=False) + ";\n"
    return Response(
        body,
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache", "Content-Language": lang, "Vary": "Accept-Language, Cookie"},
    )


def _rules_of(body: CreateTableBody) -> RuleSet:
    rules_in = dict(body.rules or {})
    rules_in.pop("name", None)
    if "players" in rules_in and rules_in["players"] != len(body.seats):
        # the seats decide how many play (R10): a rules.players that says otherwise is a mistake
        raise WebError(
            ErrorCode.BAD_MESSAGE,
            W_(
                "rules.players is {players}, but the table has {seats} seats",
                players=str(rules_in["players"])[:20],
                seats=len(body.seats),
            ),
        )
    return RuleSet.from_dict({"preset": body.preset, **rules_in})


def _clock_option(body: CreateTableBody) -> dict[str, int]:
    """The stored clock of ``body.clock``: ``{"move", "bank"}`` (seconds), or ``{"days"}`` for a
    turn-based table (two seats only).  Raises :class:`WebError` (``bad_message``) for a clock
    with both ``move`` and ``days`` or neither, ``bad_request`` for days at three seats."""
    c = body.clock
    assert c is not None
    if (c.move is None) == (c.days is None) or (c.days is not None and "bank" in c.model_fields_set):
        raise WebError(
            ErrorCode.BAD_MESSAGE,
            W_(
                "clock: give move (5 to 600 seconds a move) and bank (0 to 3600 seconds), or days "
                "(1, 2 or 3 days a move: a turn-based table) alone"
            ),
        )
    if c.days is not None:
        if len(body.seats) != 2:
            raise WebError(ErrorCode.BAD_REQUEST, W_("a turn-based table has two seats"))
        return {"days": c.days}
    assert c.move is not None
    return {"move": c.move, "bank": c.bank}


def _seat_links(table: Any, shown: dict[int, tuple[str, str]], base: str) -> list[dict[str, Any]]:
    out = []
    for i, name in enumerate(table.names):
        entry: dict[str, Any] = {"name": name, "kind": "human" if not table.is_bot(i) else "computer"}
        if i in shown:
            what, secret = shown[i]
            if what == "token":
                entry["link"] = f"{base}/table/{table.id}?seat={secret}"
                entry["token"] = secret
            else:
                entry["invite"] = f"{base}/table/{table.id}?invite={secret}"
        out.append(entry)
    return out


async def create_table(ctx: AppContext, request: Request) -> Response:
    """``POST /api/tables``: open a table; answers the host's seat link and the other seats'
    one-time invite links (``201``), or an error (``400``, ``429 rate_limited``)."""
    tr = web_translator(request_lang(request))
    address = request.client.host if request.client else "?"
    wait = ctx.opened.retry_after(address) if ctx.opened is not None else 0
    if wait:
        r = error_response(
            W_("too many tables opened from your address; try again in {seconds} seconds", seconds=wait),
            tr,
            429,
            "rate_limited",
        )
        r.headers["Retry-After"] = str(wait)
        return r
    players, manager = ctx.players, ctx.manager
    try:
        body = await read_json_body(request, CreateTableBody)
        rules = _rules_of(body)
        seats = [SeatSpec(kind=s.kind, name=s.name or "", level=s.level or "") for s in body.seats]
        options: dict[str, Any] = {}
        if body.public:
            options.update(public=True, spectator_chat=body.spectator_chat)
        if body.clock is not None:
            options["clock"] = _clock_option(body)
        elif body.rated and "clock" in body.model_fields_set:
            raise WebError(
                ErrorCode.BAD_MESSAGE,
                W_(
                    "a rated table always has a clock: leave clock out for {move} seconds a move and a "
                    "bank of {bank} seconds, or give move (5 to 600) and bank (0 to 3600)",
                    **RATED_CLOCK,
                ),
            )
        elif body.rated:
            options["clock"] = dict(RATED_CLOCK)
        account = current_account(request, players)
        if body.rated and (
            account is None or len(seats) != 2 or seats[0].kind != "human" or not rateable(rules.replace(players=2))
        ):
            return error_response(
                W_(
                    "a rated table is a two-hand game to 100 or 250, or Hollywood, opened by a "
                    "signed-in person in the first seat"
                ),
                tr,
                400,
                "not_rateable",
            )
        if body.rated and account is not None and (refused := rated_refusal(ctx, account.id, tr)) is not None:
            return refused
        barred = (
            None
            if account is None or not body.rated
            else players.accounts.moderation.refusal(account.id, ("rated_bar",))
        )
        if barred is not None:
            return error_response(barred, tr)
        if account is not None and seats and seats[0].kind == "human":
            # a signed-in opener sits under his account's name, whatever he typed: a seat
            # that is an account's shows that account's name (and says it is signed in)
            seats[0] = SeatSpec(kind="human", name=account.name, level=seats[0].level)
        table, shown = await manager.create_async(
            rules,
            seats,
            lang=tr.lang,
            options=options or None,
            allowed_names=[account.name] if account is not None else [],
        )
        if account is not None and seats and seats[0].kind == "human":
            table.signed_in.add(0)
        if ctx.opened is not None:
            ctx.opened.hit(address)
        host = next((i for i in shown if shown[i][0] == "token"), None)
        players.table_opened(table, None if account is None or host is None else (host, account.id), body.rated)
    except GinRummyError as exc:
        return error_response(exc, tr)
    out = _seat_links(table, shown, link_base(request, ctx.public_url))
    return JSONResponse(
        {"id": table.id, "commitment": commitment(table.row.seed), "seats": out, "rated": body.rated}, status_code=201
    )


def rated_refusal(ctx: AppContext, account_id: int, tr: WebTranslator) -> Response | None:
    """The ``403 rated_refused`` answer to a person refused rated play after too many forfeits
    (:mod:`ginrummy.web.community.fairplay`), with ``until``: when he may play rated again (ISO
    8601, UTC; the page shows it in the browser's own time zone); else ``None``."""
    until = ctx.players.fair.refused_until(account_id)
    if until is None:
        return None
    when = iso_time(until)
    r = error_response(
        W_(
            "you forfeited {count} rated matches in the last 24 hours: you may play rated matches again from {until} (UTC)",
            count=FORFEITS_LIMIT,
            until=when[:16].replace("T", " "),
        ),
        tr,
        403,
        ErrorCode.RATED_REFUSED,
    )
    return JSONResponse({**json.loads(bytes(r.body)), "until": when}, status_code=403, headers=dict(r.headers))


def _seat_refused(ctx: AppContext, request: Request, tr: WebTranslator) -> Response | None:
    """A signed-in person who has a seat at the table takes no other (at any table); at a rated
    table a seat is taken only by a signed-in person who is not refused rated play (:func:`rated_refusal`) nor barred from it; at any table, not
    by a person who blocked one of the accounts seated there or whom one of them blocked (read
    from the database now)."""
    table_id = request.path_params["table_id"]
    account = current_account(request, ctx.players)
    mod = ctx.players.accounts.moderation
    seated = set(ctx.players.accounts.seats(table_id).values())
    if account is not None and account.id in seated:  # one person, one seat (at any table)
        return error_response(W_("you sit at this table already"), tr, 409, "seated")
    if account is not None and mod.blocked_among(account.id, seated):
        return error_response(
            W_("you cannot sit at this table: you and a player there blocked one another"), tr, 403, "blocked"
        )
    if not ctx.players.is_rated(table_id):
        return None
    if account is not None:
        barred = mod.refusal(account.id, ("rated_bar",))
        if barred is not None:
            return error_response(barred, tr)
    if account is None:
        return error_response(W_("sign in to take a seat at a rated table"), tr, 403, "sign_in")
    return rated_refusal(ctx, account.id, tr)


async def _pair_note(ctx: AppContext, table: Any) -> dict[str, Any]:
    """At a rated table whose two seats are taken: ``{"counts_for_rating": bool}``, whether its
    match moves the ratings (the pair's daily allowance), also set in its states; else ``{}``."""
    if table.rating is None or len(table.signed_in) < 2:
        return {}
    counts = await asyncio.to_thread(ctx.players.pair_counts, table)
    table.rating = {**table.rating, "counts": counts}
    return {"counts_for_rating": counts}


def _seated(ctx: AppContext, request: Request, table_id: str, player: int) -> None:
    account = current_account(request, ctx.players)
    if account is not None:
        ctx.players.accounts.sit(table_id, player, account.id)


async def claim(ctx: AppContext, request: Request) -> Response:
    """``POST /api/tables/{id}/claim``: one-time invite: the seat's new token for whoever claims it first."""
    tr = web_translator(request_lang(request))
    try:
        body = await read_json_body(request, ClaimBody)
        refused = _seat_refused(ctx, request, tr)
        if refused is not None:
            return refused
        account = current_account(request, ctx.players)
        table, player, token = ctx.manager.claim(
            request.path_params["table_id"], body.invite, None if account is None else account.name
        )
        _seated(ctx, request, table.id, player)
    except GinRummyError as exc:  # a WebError answers its own status (not_found 404, claimed 409, bad_invite 403)
        return error_response(exc, tr)
    base = link_base(request, ctx.public_url)
    note = await _pair_note(ctx, table)
    await ctx.manager.changed(table)
    return JSONResponse(
        {
            "id": table.id,
            "seat": player,
            "name": table.names[player],
            "token": token,
            "link": f"{base}/table/{table.id}?seat={token}",
            **note,
        }
    )


async def sit(ctx: AppContext, request: Request) -> Response:
    """``POST /api/tables/{id}/sit``: a free seat of a public table, taken from the lobby with one click."""
    tr = web_translator(request_lang(request))
    try:
        body = await read_json_body(request, SitBody)
        refused = _seat_refused(ctx, request, tr)
        if refused is not None:
            return refused
        account = current_account(request, ctx.players)
        table, token = await ctx.manager.sit(
            request.path_params["table_id"], body.seat, body.name, None if account is None else account.name
        )
        _seated(ctx, request, table.id, body.seat)
    except GinRummyError as exc:  # a WebError answers its own status (not_found 404, claimed 409, not_allowed 403)
        return error_response(exc, tr)
    base = link_base(request, ctx.public_url)
    note = await _pair_note(ctx, table)
    if note:
        await ctx.manager.changed(table)
    return JSONResponse(
        {
            "id": table.id,
            "seat": body.seat,
            "name": table.names[body.seat],
            "token": token,
            "link": f"{base}/table/{table.id}?seat={token}",
            **note,
        }
    )


async def lobby_list(ctx: AppContext, request: Request) -> Response:
    """``GET /api/lobby``: the open public tables and the lobby chat."""
    account = current_account(request, ctx.players)
    chat = ctx.manager.room.guard.shown(LOBBY, ctx.manager.lobby_chat, None if account is None else account.id)
    return JSONResponse({"tables": ctx.manager.lobby(), "chat": chat})


async def table_page(ctx: AppContext, request: Request) -> Response:
    """``GET /table/{id}``: the table page, or, when no table has that id (a mistyped or cut link,
    a table cleared from the room), a 404 page that says so and leads to the lobby, rather than
    a table page asking for a seat link.  Only the table's existence is looked up: the page
    holds no state of the table, and the id is never echoed."""
    lang = request_lang(request)
    headers = {"Cache-Control": "no-cache", "Content-Language": lang, "Vary": "Accept-Language, Cookie"}
    try:
        ctx.manager.load(request.path_params["table_id"])
    except WebError as exc:
        if exc.code != "not_found":
            raise
        return HTMLResponse(render_page("no-table.html", lang), status_code=404, headers=headers)
    return HTMLResponse(render_page("table.html", lang), headers=headers)


async def record(ctx: AppContext, request: Request) -> Response:
    """``GET /api/tables/{id}/record?seat=TOKEN``: the public game record, as a download."""
    tr = web_translator(request_lang(request))
    try:
        table = ctx.manager.load(request.path_params["table_id"])
        table.player_of(request.query_params.get("seat"))
    except WebError as exc:  # not_found 404, bad_token 403
        return error_response(exc, tr)
    if table.match is None:
        return error_response(W_("the record can be downloaded once the first deal is dealt"), tr, 409)
    if daily_sealed(table):  # its deck would help the next account to play the day's deal
        return error_response(
            W_("the record of a daily deal can be downloaded once its day is over (at midnight UTC)"),
            tr,
            403,
            code="not_allowed",
        )
    # public: a deal whose cards the rules still hide is sealed, a forfeited match is over
    # (its forfeit line and match seed; docs/record-format.md)
    if table.over:  # a finished match no longer changes: its record is written off the event loop
        text = await asyncio.to_thread(public_record, table)
    else:  # a live match changes on the loop: its record is written there, between steps
        text = public_record(table)
    return Response(
        text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="gin-{table.id}.gin"', "Cache-Control": "no-store"},
    )


async def sheet(ctx: AppContext, request: Request) -> Response:
    """``POST /api/sheet``: the scorekeeper: ``{"preset", "rules", "names": [a, b], "results": ["Ann:25", "draw"]}``."""
    tr = web_translator(request_lang(request))
    try:
        body = await read_json_body(request, SheetBody)
        names = [n.strip() for n in body.names]
        if len({n.casefold() for n in names}) != len(names):  # as gin sheet --players says it
            raise WebError(ErrorCode.BAD_MESSAGE, W_("names: the names must differ (ignoring case)"))
        rules = RuleSet.from_dict({"preset": body.preset, **dict(body.rules or {}), "players": len(names)})
        parsed = parse_results(list(body.results), names)
        s = ScoreSheet(rules, len(names))
        for sent, (w, p) in zip(body.results, parsed):
            try:
                s = s.add(w, p)
            except GinRummyError as exc:
                if "text" in exc.params:  # the sheet names the winner by index: say the result as sent
                    exc.params["text"] = sent
                raise
        return JSONResponse(s.to_dict(names))
    except GinRummyError as exc:
        return error_response(exc, tr)


def table_routes(ctx: AppContext) -> list[Route]:
    """The routes of this module, each handler bound to ``ctx``."""
    return [
        Route("/table/{table_id}", partial(table_page, ctx)),
        Route("/api/options", partial(options, ctx)),
        Route("/api/i18n", partial(catalog, ctx)),
        Route("/api/i18n.js", partial(catalog_script, ctx)),
        Route("/api/tables", partial(create_table, ctx), methods=["POST"]),
        Route("/api/tables/{table_id}/claim", partial(claim, ctx), methods=["POST"]),
        Route("/api/tables/{table_id}/sit", partial(sit, ctx), methods=["POST"]),
        Route("/api/lobby", partial(lobby_list, ctx)),
        Route("/api/tables/{table_id}/record", partial(record, ctx)),
        Route("/api/sheet", partial(sheet, ctx), methods=["POST"]),
    ]
