"""The bot API (issue 35, docs/bot-api.md): HTTP routes a bot account's program calls with
``Authorization: Bearer TOKEN`` (an API token, :mod:`ginrummy.web.community.bots`).

* ``GET /api/bot/account``: the bot's name, kind, rating (any scope).
* ``GET /api/bot/events?since=N``: its events after ``N`` (``play``; polling, see docs/bot-api.md
  for why): ``{"events": [...], "last": M}``.
* ``GET /api/bot/challenges``: the open challenges to it (``play``).
* ``POST /api/bot/seek`` ``{"preset", "rated"}``: a public table in the lobby with the bot seated
  (``play``): ``201`` and the seat (``table``, ``seat``, ``token``, ``link``).
* ``POST /api/bot/challenge`` ``{"to"|"level", "preset", "rated"}`` (``challenge``): a computer
  level's table at once (``201``, the seat), or a challenge to an account (``201 {"challenge"}``).
* ``POST /api/bot/challenge/{id}/accept`` (``play``): the table and the bot's seat (``201``);
  ``.../decline``: ``200``.
* ``POST /api/bot/tables/{id}/chat`` ``{"text"}`` (``chat``): a line at the bot's table.

The game itself is played over the table's WebSocket with the seat token handed over here,
exactly as a browser plays it (docs/protocol.md).  Errors: ``401 bad_api_token`` (with
``WWW-Authenticate: Bearer``), ``403 missing_scope``, ``429 rate_limited`` (per token:
:data:`REQUESTS_PER_MINUTE` requests a minute, :data:`TABLES_PER_WINDOW` tables or challenges
in :data:`TABLES_WINDOW` seconds).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from sqlalchemy import and_, select
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...errors import GinRummyError
from ...rules import PRESETS
from ..community.accounts import Account, typed_name_key
from ..community.bots import Bots, BotToken
from ..community.challenges import Challenges, Events
from ..community.ratings import rateable
from ..community.schema import accounts_t
from ..errors import ErrorCode, WebError
from ..limits import ChatLimiter, RateLimiter
from ..protocol.bot_bodies import BotChatBody, ChallengeBody, SeekBody
from ..room.tables import SeatSpec, player_levels
from ..texts import W_, request_lang, web_translator
from .common import error_response, link_base, read_json_body
from .context import AppContext

__all__ = ["BotService", "bot_api_routes", "REQUESTS_PER_MINUTE", "TABLES_PER_WINDOW", "TABLES_WINDOW"]

REQUESTS_PER_MINUTE = 300
TABLES_PER_WINDOW = 30
TABLES_WINDOW = 600.0


def bearer(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, else ``None``."""
    value = request.headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


class BotService:
    """What the bot API's routes share: ``ctx`` (the app's), the :class:`Bots`, the
    :class:`Events` and :class:`Challenges`, the per-token limits, and whether two bots may
    play a rated match (``bots_rated_together``, ``gin serve --bots-rated-together``)."""

    def __init__(self, ctx: AppContext, bots_rated_together: bool = False) -> None:
        self.ctx = ctx
        self.bots = Bots(ctx.players.accounts)
        self.events = Events()
        self.challenges = Challenges(self.events)
        self.requests = RateLimiter(REQUESTS_PER_MINUTE, 60.0)
        self.tables = RateLimiter(TABLES_PER_WINDOW, TABLES_WINDOW)
        self.chat_limiters: dict[int, ChatLimiter] = {}
        self.bots_rated_together = bots_rated_together

    def authorize(self, request: Request, scope: str | None) -> BotToken:
        """The token of ``request``, checked: raises :class:`WebError` ``bad_api_token`` (no,
        wrong or revoked token), ``rate_limited``, ``missing_scope`` (``scope`` not granted)."""
        token = self.bots.authenticate(bearer(request))
        if token is None:
            raise WebError(
                ErrorCode.BAD_API_TOKEN, W_("this request needs a valid API token: Authorization: Bearer TOKEN")
            )
        wait = self.requests.retry_after(f"t:{token.id}")
        if wait:
            raise WebError(
                ErrorCode.RATE_LIMITED,
                W_("too many requests; try again in {seconds} seconds", seconds=wait),
                retry_after=wait,
            )
        self.requests.hit(f"t:{token.id}")
        if scope is not None and scope not in token.scopes:
            raise WebError(ErrorCode.MISSING_SCOPE, W_("this API token lacks the scope {scope}", scope=scope))
        return token

    def opening(self, token_id: int) -> None:
        """Count a table or challenge a token opens; raises ``rate_limited`` past the bound."""
        wait = self.tables.retry_after(f"o:{token_id}")
        if wait:
            raise WebError(
                ErrorCode.RATE_LIMITED,
                W_("too many tables opened; try again in {seconds} seconds", seconds=wait),
                retry_after=wait,
            )
        self.tables.hit(f"o:{token_id}")

    def rules_of(self, preset: str, rated: bool) -> Any:
        """The rule set of ``preset`` (R13); raises ``bad_message`` for an unknown one and
        ``not_rateable`` for a rated table whose rules the ladder does not rate."""
        if preset not in PRESETS:
            raise WebError(ErrorCode.BAD_MESSAGE, W_("preset: one of {allowed}", allowed=", ".join(sorted(PRESETS))))
        rules = PRESETS[preset].replace(players=2)
        if rated and not rateable(rules):
            raise WebError("not_rateable", W_("a rated table is a two-hand game to 100 or 250, or Hollywood"))
        return rules

    def seat(self, request: Request, table: Any, player: int, token: str) -> dict[str, Any]:
        """A seat as the API hands it over: ``table``, ``seat``, ``name``, ``token``, ``link``."""
        base = link_base(request, self.ctx.public_url)
        return {
            "table": table.id,
            "seat": player,
            "name": table.names[player],
            "token": token,
            "link": f"{base}/table/{table.id}?seat={token}",
        }

    async def open_game(
        self, request: Request, first: Account, second: Account | str, rated: bool, preset: str, public: bool = False
    ) -> tuple[Any, dict[int, str]]:
        """Open a two-hand table: ``first`` (an account) at seat 0, ``second`` (an account, a
        computer level, or ``""`` for a free seat of a public table) at seat 1; rated as asked.
        Returns ``(table, {player: seat token})`` of the accounts' seats."""
        rules = self.rules_of(preset, rated)
        if isinstance(second, Account):
            other = SeatSpec(kind="human", name=second.name)
        elif second:
            other = SeatSpec(kind="bot", level=second)
        else:
            other = SeatSpec(kind="human")
        names = [first.name] + ([second.name] if isinstance(second, Account) else [])
        manager, players = self.ctx.manager, self.ctx.players
        table, shown = await manager.create_async(
            rules,
            [SeatSpec(kind="human", name=first.name), other],
            lang=request_lang(request),
            options={"public": True, "spectator_chat": False} if public else None,
            allowed_names=names,
        )
        table.signed_in.add(0)
        table.bot_seats.update(p for p, a in enumerate([first, second]) if isinstance(a, Account) and a.kind == "bot")
        players.table_opened(table, (0, first.id), rated)
        tokens = {0: shown[0][1]}
        if isinstance(second, Account):
            table, player, tokens[1] = manager.claim(table.id, shown[1][1], second.name)
            players.accounts.sit(table.id, player, second.id)
            await manager.changed(table)
        return table, tokens

    def game_started(
        self, request: Request, account: Account, table: Any, player: int, token: str, cid: Any
    ) -> dict[str, Any]:
        """Tell ``account`` its seat of a new game (a ``game_start`` event); the seat returned."""
        seat = self.seat(request, table, player, token)
        self.events.add(account.id, {"type": "game_start", "id": cid, **seat})
        return seat

    def bot_pair_refused(self, a: str, b: str, rated: bool) -> bool:
        """Whether a rated match of kinds ``a`` and ``b`` is refused (two bots, not allowed here)."""
        return rated and a == "bot" and b == "bot" and not self.bots_rated_together

    def account_named(self, name: str) -> Account:
        """The live account named ``name`` (a person or a bot); raises ``not_found``."""
        with self.ctx.store.engine.connect() as conn:
            row = conn.execute(
                select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.kind).where(
                    and_(accounts_t.c.name_key == typed_name_key(name), accounts_t.c.deleted == 0)
                )
            ).first()
        if row is None or row.kind not in ("human", "bot"):
            raise WebError(ErrorCode.NOT_FOUND, W_("no account named {name}", name=name[:40]))
        return Account(int(row.id), str(row.name), str(row.kind))


def _answer(request: Request, exc: GinRummyError) -> Response:
    r = error_response(exc, web_translator(request_lang(request)))
    if isinstance(exc, WebError):
        if exc.code == ErrorCode.BAD_API_TOKEN:
            r.headers["WWW-Authenticate"] = "Bearer"
        if exc.retry_after:
            r.headers["Retry-After"] = str(exc.retry_after)
    r.headers["Cache-Control"] = "no-store"
    return r


async def account(svc: BotService, request: Request) -> Response:
    """``GET /api/bot/account``."""
    try:
        t = svc.authorize(request, None)
    except GinRummyError as exc:
        return _answer(request, exc)
    return JSONResponse({**svc.ctx.players.me(t.account.id), "scopes": sorted(t.scopes)})


async def events(svc: BotService, request: Request) -> Response:
    """``GET /api/bot/events?since=N``."""
    try:
        t = svc.authorize(request, "play")
        raw = request.query_params.get("since", "0")
        if not raw.isdigit() or len(raw) > 12:
            raise WebError(ErrorCode.BAD_MESSAGE, W_("since: a whole number of 0 or more"))
    except GinRummyError as exc:
        return _answer(request, exc)
    got, last = svc.events.since(t.account.id, int(raw))
    return JSONResponse({"events": got, "last": last}, headers={"Cache-Control": "no-store"})


async def challenges(svc: BotService, request: Request) -> Response:
    """``GET /api/bot/challenges``."""
    try:
        t = svc.authorize(request, "play")
    except GinRummyError as exc:
        return _answer(request, exc)
    return JSONResponse({"challenges": svc.challenges.to(t.account.id)})


async def seek(svc: BotService, request: Request) -> Response:
    """``POST /api/bot/seek``."""
    try:
        t = svc.authorize(request, "play")
        body = await read_json_body(request, SeekBody)
        svc.opening(t.id)
        table, tokens = await svc.open_game(request, t.account, "", body.rated, body.preset, public=True)
    except GinRummyError as exc:
        return _answer(request, exc)
    return JSONResponse(svc.game_started(request, t.account, table, 0, tokens[0], None), status_code=201)


async def challenge(svc: BotService, request: Request) -> Response:
    """``POST /api/bot/challenge``."""
    try:
        t = svc.authorize(request, "challenge")
        body = await read_json_body(request, ChallengeBody)
        if (body.to is None) == (body.level is None):
            raise WebError(ErrorCode.BAD_MESSAGE, W_("give one of to (an account's name) or level (a computer level)"))
        if body.level is not None:
            if body.level not in player_levels():
                raise WebError(ErrorCode.BAD_MESSAGE, W_("level: one of {allowed}", allowed=", ".join(player_levels())))
            svc.opening(t.id)
            table, tokens = await svc.open_game(request, t.account, body.level, body.rated, body.preset)
            return JSONResponse(svc.game_started(request, t.account, table, 0, tokens[0], None), status_code=201)
        other = svc.account_named(body.to or "")
        svc.rules_of(body.preset, body.rated)
        if svc.bot_pair_refused("bot", other.kind, body.rated):
            raise WebError(ErrorCode.NOT_ALLOWED, W_("this server does not rate matches between two bots"))
        svc.opening(t.id)
        c = svc.challenges.make(
            (t.account.id, t.account.name, "bot"), (other.id, other.name, other.kind), body.rated, body.preset
        )
    except GinRummyError as exc:
        return _answer(request, exc)
    return JSONResponse({"challenge": c.public()}, status_code=201)


async def accept_challenge(svc: BotService, request: Request, me: Account) -> Response:
    """Accept the challenge of the path's ``id`` sent to ``me``: open the table (the
    challenger at seat 0), tell both their seats; answers ``me``'s seat (``201``)."""
    c = svc.challenges.take(request.path_params["challenge_id"], me.id)
    by = Account(c.by, c.by_name, c.by_kind)
    table, tokens = await svc.open_game(request, by, me, c.rated, c.preset)
    svc.game_started(request, by, table, 0, tokens[0], c.id)
    return JSONResponse(svc.game_started(request, me, table, 1, tokens[1], c.id), status_code=201)


async def accept(svc: BotService, request: Request) -> Response:
    """``POST /api/bot/challenge/{id}/accept``."""
    try:
        t = svc.authorize(request, "play")
        return await accept_challenge(svc, request, t.account)
    except GinRummyError as exc:
        return _answer(request, exc)


async def decline(svc: BotService, request: Request) -> Response:
    """``POST /api/bot/challenge/{id}/decline``."""
    try:
        t = svc.authorize(request, "play")
        svc.challenges.decline(request.path_params["challenge_id"], t.account.id)
    except GinRummyError as exc:
        return _answer(request, exc)
    return JSONResponse({"declined": request.path_params["challenge_id"]})


async def chat(svc: BotService, request: Request) -> Response:
    """``POST /api/bot/tables/{id}/chat``: the line is said at the bot's seat (as a browser's
    chat message is, with the same per-connection limit)."""
    try:
        t = svc.authorize(request, "chat")
        body = await read_json_body(request, BotChatBody)
        table_id = request.path_params["table_id"]
        seats = svc.ctx.players.accounts.seats(table_id)
        mine = [p for p, a in seats.items() if a == t.account.id]
        if not mine:
            raise WebError(ErrorCode.NOT_FOUND, W_("the bot has no seat at table {id}", id=table_id[:40]))
        table = svc.ctx.manager.load(table_id)
        limiter = svc.chat_limiters.setdefault(t.id, ChatLimiter())
        await svc.ctx.manager.say(table, mine[0], " ".join(body.text.split()), limiter)
    except GinRummyError as exc:
        return _answer(request, exc)
    return JSONResponse({"said": True})


async def resign(svc: BotService, request: Request) -> Response:
    """``POST /api/bot/tables/{id}/resign`` (scope ``play``): the bot resigns the match at its
    seat there, as a person's ``{"type": "resign"}`` does (docs/protocol.md, "Leaving and
    resigning"): it loses the match, rated at a rated table.  ``404 not_found`` where the bot
    has no seat; ``403 not_allowed`` before the first deal, once the match is over, or at a
    three-hand table (nothing changes)."""
    try:
        t = svc.authorize(request, "play")
        table_id = request.path_params["table_id"]
        mine = [p for p, a in svc.ctx.players.accounts.seats(table_id).items() if a == t.account.id]
        if not mine:
            raise WebError(ErrorCode.NOT_FOUND, W_("the bot has no seat at table {id}", id=table_id[:40]))
        await svc.ctx.manager.resign(svc.ctx.manager.load(table_id), mine[0])
    except GinRummyError as exc:
        return _answer(request, exc)
    return JSONResponse({"resigned": True})


def bot_api_routes(svc: BotService) -> list[Route]:
    """The bot API's routes (module docstring)."""
    return [
        Route("/api/bot/account", partial(account, svc)),
        Route("/api/bot/events", partial(events, svc)),
        Route("/api/bot/challenges", partial(challenges, svc)),
        Route("/api/bot/seek", partial(seek, svc), methods=["POST"]),
        Route("/api/bot/challenge", partial(challenge, svc), methods=["POST"]),
        Route("/api/bot/challenge/{challenge_id}/accept", partial(accept, svc), methods=["POST"]),
        Route("/api/bot/challenge/{challenge_id}/decline", partial(decline, svc), methods=["POST"]),
        Route("/api/bot/tables/{table_id}/chat", partial(chat, svc), methods=["POST"]),
        Route("/api/bot/tables/{table_id}/resign", partial(resign, svc), methods=["POST"]),
    ]
