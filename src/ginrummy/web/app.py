"""The ASGI app of the web table (Starlette): pages, the JSON API and the game WebSocket.

Routes:

* ``GET /`` lobby; ``GET /table/{id}?seat=TOKEN`` the table page; ``GET /rules``,
  ``GET /tips``, ``GET /scorekeeper`` help pages; ``/static/...`` the front end files;
  ``GET /favicon.ico`` redirects to ``/static/favicon.svg``.
* ``GET /api/options``: presets (R13), rule fields (R14) and computer levels.
* ``POST /api/tables``: open a table; answers the host's seat link and the other seats' one-time
  invite links.
* ``POST /api/tables/{id}/claim``: claim a seat with its invite code; answers a new seat token.
* ``GET /api/tables/{id}/record?seat=TOKEN``: the public game record
  (``ginrummy.record.dumps(match, public=True)``) at any point of the match, as a download.
* ``GET /fair``: the fair-deal page (the scheme in plain words; checks a record in the browser).
* ``POST /api/sheet``: the scorekeeper (``ScoreSheet`` of ``gin sheet``).
* ``GET /api/i18n`` and ``GET /api/i18n.js``: the browser catalog of the request's language
  (:func:`ginrummy.web.texts.web_catalog`) as JSON, or as a script setting
  ``window.GIN_I18N`` (loaded by every page before its own scripts).
* ``WS /ws/table/{id}?seat=TOKEN&lang=el``: the game protocol (``docs/protocol.md``).

Everything read from the network goes through :mod:`ginrummy.web.protocol.inbound` (one schema, sizes
and depths bounded); bodies are capped while they are read (:mod:`ginrummy.web.security`);
each connection has a bounded outbound queue, so a client that stops reading is dropped
(close code 4408) instead of slowing its table.

Every page, API error and WebSocket error is in the language of the request
(:func:`~ginrummy.web.texts.request_lang`: ``?lang=``, else the ``gin_lang`` cookie set by the
page's language switcher, else ``Accept-Language``; English by default).

Create it with :func:`create_app`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import GinRummyError, IllegalActionError, NotYourTurnError
from ..i18n import translate_error
from ..match import commitment
from ..record import dumps
from ..analysis.review import DEFAULT_BUDGET_MS
from ..rules import BOUNDS, CHOICES, FIELD_RULES, PRESETS, RuleSet
from ..scoring import ScoreSheet, parse_results
from .texts import W_, WebTranslator, request_lang, translate_html, web_catalog, web_translator
from .protocol.inbound import (MAX_BODY_BYTES, MAX_MESSAGE_BYTES, ActionMsg, ChatMsg, ClaimBody, ClientSeedMsg,
                       CreateTableBody, HintMsg, LobbyChatMsg, MessageError, NextDealMsg, PingMsg, RematchMsg,
                       ReviewMsg, SetLangMsg, SheetBody, SitBody, SuggestMsg, SyncMsg, error_message, hint_message, parse_body,
                       parse_inbound, parse_lobby)
from .db.notify import Follower
from .ops import Metrics, ops_routes
from .room.review_service import ReviewError, ReviewService
from .room.lobby import ChatLimiter
from .community.accounts import CsrfGuard, RateLimiter
from .http.player_routes import current_account, player_routes, replay_text
from .http.replay_review_routes import ReplayReviews, replay_review_routes
from .community.members import Players
from .community.ratings import rateable
from .protocol.replay_frames import MAX_RECORD_BYTES
from .security import BodyLimit, install_log_redaction, read_body
from .protocol.state import StateMessage
from .protocol.state import dumps as wire_text
from .db.store import Store, default_database_url
from .room.tables import SPECTATOR, SeatSpec, TableError, TableManager, player_levels

__all__ = ["create_app", "link_base", "STATIC_DIR"]

log = logging.getLogger("ginrummy.web")

STATIC_DIR = Path(str(resources.files("ginrummy.web") / "static"))

OUTBOUND_QUEUE = 64
"""Messages that may wait for one connection; a client that lets more pile up is dropped."""

SLOW_CLOSE_SECONDS = 30.0
"""How long a dropped slow reader has to read what its socket already holds before the close
frame 4408 behind it is given up (nothing can reach a client that never reads again)."""

MAX_FRAME_BYTES = 64 * 1024
"""WebSocket messages up to this size are read and answered (``too_large`` above
:data:`~ginrummy.web.protocol.inbound.MAX_MESSAGE_BYTES`, 2 KiB); larger ones are closed by the protocol
layer with code 1009 before they are held whole (``gin serve`` passes this as uvicorn's
``ws_max_size``).  It was 4 MiB: 200 connections each sending one such frame held 1.7 GB."""


_PAGES: dict[tuple[str, str, float, float], str] = {}

HEAD_INCLUDE = re.compile(r"<!--#include head\.inc\b[^>]*-->\n?")
"""The mark in a page's ``<head>`` that :func:`render_page` replaces with ``static/head.inc``, the
head every page shares (charset, viewport, icon, style sheet, the catalog and common.js)."""


def render_page(name: str, lang: str) -> str:
    """The page ``static/<name>`` in ``lang``: the shared head (``static/head.inc``) put in place
    of its :data:`HEAD_INCLUDE` mark, its ``data-i18n`` texts translated
    (:func:`~ginrummy.web.texts.translate_html`) and its catalog script pinned to the language
    (``/api/i18n.js?lang=...``).  Cached per file version and language."""
    path, head = STATIC_DIR / name, STATIC_DIR / "head.inc"
    key = (name, lang, path.stat().st_mtime, head.stat().st_mtime)
    if key not in _PAGES:
        shared = head.read_text(encoding="utf-8")
        source = HEAD_INCLUDE.sub(lambda _: shared, path.read_text(encoding="utf-8"), count=1)
        text = translate_html(source, web_translator(lang))
        _PAGES[key] = text.replace('src="/api/i18n.js"', f'src="/api/i18n.js?lang={lang}"')
    return _PAGES[key]


def _same_origin(conn: Any) -> bool:
    """Whether a request or WebSocket ``conn`` comes from this server's own pages: no
    ``Origin`` header (not a browser's cross-site request), or one whose host is the request's
    ``Host``."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    host = conn.headers.get("host", "")
    return bool(host) and origin.split("://", 1)[-1].rstrip("/").lower() == host.lower()


async def favicon(request: Request) -> Response:
    """``GET /favicon.ico``: browsers ask for it whatever the page's ``<link rel="icon">``
    says; a permanent redirect to ``/static/favicon.svg`` (the icon every page names) instead
    of a 404 in their logs."""
    return RedirectResponse("/static/favicon.svg", status_code=301, headers={"Cache-Control": "max-age=86400"})


def _page(name: str) -> Any:
    async def endpoint(request: Request) -> Response:
        lang = request_lang(request)
        return HTMLResponse(render_page(name, lang), headers={
            "Cache-Control": "no-cache", "Content-Language": lang, "Vary": "Accept-Language, Cookie"})
    return endpoint


def _too_large(limit: int) -> Any:
    return W_("request body too large; the limit is {limit} bytes", limit=limit)


_SOCKET_WORDING = {"message is not valid UTF-8 text", "message is not valid JSON; send one JSON object such as {example}"}
"""The ``bad_json`` messages of :func:`~ginrummy.web.protocol.inbound.read_json` worded for a WebSocket
message; a request body says "request body is not valid JSON" instead (the others, nesting and a
key given twice, name what is wrong and stand as they are)."""


async def _body(request: Request, model: Any) -> Any:
    """The request's JSON body validated as ``model`` (:func:`~ginrummy.web.protocol.inbound.parse_body`),
    read with a cap.  Raises :class:`MessageError` (``unsupported_media_type``, answered 415,
    unless the request says ``Content-Type: application/json``: a cross-site form can send a
    JSON-looking ``text/plain`` body, never that type without the server's leave; ``too_large``
    or ``bad_message``/``bad_json``; ``bad_json`` too when the client hangs up before its body
    ends: no one hears the answer)."""
    if request.headers.get("content-type", "").split(";", 1)[0].strip().lower() != "application/json":
        raise MessageError("unsupported_media_type",
                           W_("send this request's body as JSON, with the header Content-Type: application/json"))
    try:
        raw = await read_body(request.stream(), MAX_BODY_BYTES)
    except ClientDisconnect:
        raise MessageError("bad_json", W_("request body is not valid JSON")) from None
    if raw is None:
        raise MessageError("too_large", _too_large(MAX_BODY_BYTES))
    try:
        return parse_body(raw, model)
    except MessageError as exc:
        if exc.code == "bad_json" and exc.key in _SOCKET_WORDING:  # said of a WebSocket message
            raise MessageError("bad_json", W_("request body is not valid JSON")) from None
        raise


_STATUS_CODES = {400: "bad_request", 403: "forbidden", 404: "not_found", 405: "method_not_allowed", 409: "conflict",
                 413: "too_large", 415: "unsupported_media_type", 429: "rate_limited", 503: "server_busy"}
"""The ``code`` of an error answer that carries none of its own, by HTTP status."""


async def _tell(send: Any, msg: dict[str, Any]) -> None:
    """Send ``msg`` on a connection that may have closed meanwhile (then nothing is sent)."""
    with contextlib.suppress(ConnectionError, RuntimeError):
        await send(msg)


def _bad(message: Any, tr: WebTranslator, status: int = 400, code: str | None = None) -> JSONResponse:
    """``{"error": message, "code"}`` with ``message`` (an error, a :class:`~ginrummy.errors.Msg`
    or text) in ``tr``'s language; a :class:`MessageError` ``too_large`` answers 413,
    ``unsupported_media_type`` 415."""
    if isinstance(message, MessageError) and message.code in ("too_large", "unsupported_media_type"):
        status = 413 if message.code == "too_large" else 415
    body: dict[str, Any] = {"error": translate_error(message, tr)}
    # every error names its kind: the message's own code, else one by the status
    body["code"] = code or getattr(message, "code", None) or _STATUS_CODES.get(status, "bad_request")
    return JSONResponse(body, status_code=status, headers={"Content-Language": tr.lang})


def link_base(conn: Any, public_url: str | None) -> str:
    """The start of every link the server sends to ``conn`` (a request or a WebSocket):
    ``public_url`` (``gin serve --public-url``) when set, else the scheme and host ``conn``
    came in on (``http``/``https``, never ``ws``), without a trailing slash.  Only the
    receiver's own request is read: ``gin serve`` checks its ``Host`` against the allowed
    hosts before any of this runs (``--allowed-host``, :func:`create_app`)."""
    if public_url:
        return public_url.rstrip("/")
    return str(conn.base_url).replace("ws://", "http://", 1).replace("wss://", "https://", 1).rstrip("/")


def create_app(database_url: str | None = None, bot_delay: float | None = None,
               review_budget_ms: float = DEFAULT_BUDGET_MS, tables_per_minute: int = 0,
               workers: int | None = None, warm_workers: bool = False,
               public_url: str | None = None, allowed_hosts: Sequence[str] | None = None,
               metrics: bool = False, metrics_allow: Sequence[str] = ()) -> Starlette:
    """The ASGI app.

    Args:
        database_url: a SQLAlchemy URL (``sqlite:///file``, ``postgresql://...``); default a
            SQLite file in the user's data folder.
        bot_delay: seconds computer players wait before moving; ``None`` a natural 0.7-1.2 s.
        review_budget_ms: the budget per decision of the expert's review
            (:func:`ginrummy.review.samples_for`; ``gin serve --review-budget-ms``).
        tables_per_minute: the most tables one client address may open in any 60 seconds
            (``POST /api/tables``; more are answered 429 ``rate_limited`` with ``Retry-After``);
            0, the default here, for no limit (``gin serve`` sets 60).
        workers: the worker processes of the computer's moves and hints (web/room/thinking.py;
            ``gin serve --workers``); ``None``: one less than the cores, at least one.
        warm_workers: start them with the app (``gin serve``) instead of at the first move.
        public_url: the address people reach the server at (``https://gin.example.org``): every
            link (seat links, invites, rematches) starts with it; ``None``: each link is made
            from its receiver's own request (:func:`link_base`).
        allowed_hosts: the ``Host`` names the server answers (Starlette's
            ``TrustedHostMiddleware``; others get 400 before anything runs, WebSockets too);
            ``None`` for any (tests and embedding; ``gin serve`` always passes its list).
        metrics: serve Prometheus metrics at ``/metrics`` (``gin serve --metrics``), to loopback
            clients and ``metrics_allow`` (addresses or networks) only (web/ops.py).

    Every stored table is loaded at start-up and its pending computer moves resume.
    """
    store = Store(database_url or default_database_url())
    manager = TableManager(store, bot_delay=bot_delay, workers=workers)
    follower = Follower(manager) if store.is_postgresql else None  # several servers on one PostgreSQL
    players = Players(store.engine, manager)  # accounts, seats, ratings (docs/accounts.md)
    reviews = ReviewService(review_budget_ms)  # the expert's reviews, in a worker process (review_web.py)
    replay_reviews = ReplayReviews(reviews)  # the replay viewer's reviews, kept for reuse (replay_review.py)
    # a bound on the tables one address opens: each costs memory, a stored row, and (two
    # computer seats) moves made by this server
    opened = RateLimiter(tables_per_minute, 60.0) if tables_per_minute > 0 else None
    link_bases: dict[Any, str] = {}  # each game connection's send -> the start of its links
    ops_metrics = Metrics(manager, reviews) if metrics else None  # the operator's view (web/ops.py)
    if ops_metrics is not None:
        manager.committer.on_commit = ops_metrics.committed

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        manager.load_all()
        players.restore()
        if warm_workers:
            manager.thinking.start()
        manager.start()
        if follower is not None:
            follower.start()
        try:
            yield
        finally:
            if follower is not None:
                await follower.stop()
            reviews.close()
            await manager.stop()
            store.close()

    async def options(request: Request) -> Response:
        fields = {k: v for k, v in RuleSet().to_dict().items() if k != "name"}
        return JSONResponse({
            "presets": {name: r.to_dict() for name, r in PRESETS.items()},
            "fields": fields, "field_rules": FIELD_RULES, "levels": player_levels(),
            "choices": {k: list(v) for k, v in CHOICES.items()},
            "bounds": {k: list(v) for k, v in BOUNDS.items()},
        })

    async def catalog(request: Request) -> Response:
        lang = request_lang(request)
        return JSONResponse(web_catalog(lang), headers={
            "Cache-Control": "no-cache", "Content-Language": lang, "Vary": "Accept-Language, Cookie"})

    async def catalog_script(request: Request) -> Response:
        lang = request_lang(request)
        body = "window.GIN_I18N = " + json.dumps(web_catalog(lang), ensure_ascii=False) + ";\n"
        return Response(body, media_type="text/javascript; charset=utf-8", headers={
            "Cache-Control": "no-cache", "Content-Language": lang, "Vary": "Accept-Language, Cookie"})

    async def create_table(request: Request) -> Response:
        tr = web_translator(request_lang(request))
        address = request.client.host if request.client else "?"
        wait = opened.retry_after(address) if opened is not None else 0
        if wait:
            r = _bad(W_("too many tables opened from your address; try again in {seconds} seconds", seconds=wait),
                     tr, 429, "rate_limited")
            r.headers["Retry-After"] = str(wait)
            return r
        try:
            body = await _body(request, CreateTableBody)
            rules_in = dict(body.rules or {})
            rules_in.pop("name", None)
            if "players" in rules_in and rules_in["players"] != len(body.seats):
                # the seats decide how many play (R10): a rules.players that says otherwise is a mistake
                raise MessageError("bad_message", W_("rules.players is {players}, but the table has {seats} seats",
                                                     players=str(rules_in["players"])[:20], seats=len(body.seats)))
            rules = RuleSet.from_dict({"preset": body.preset, **rules_in})
            seats = [SeatSpec(kind=s.kind, name=s.name or "", level=s.level or "") for s in body.seats]
            options: dict[str, Any] = {}
            if body.public:
                options.update(public=True, spectator_chat=body.spectator_chat)
            if body.clock is not None:
                options["clock"] = {"move": body.clock.move, "bank": body.clock.bank}
            account = current_account(request, players)
            if body.rated and (account is None or len(seats) != 2 or seats[0].kind != "human"
                               or not rateable(rules.replace(players=2))):
                return _bad(W_("a rated table is a two-hand game to 100 or 250, or Hollywood, opened by a "
                               "signed-in person in the first seat"), tr, 400, "not_rateable")
            if account is not None and seats and seats[0].kind == "human":
                # a signed-in opener sits under his account's name, whatever he typed: a seat
                # that is an account's shows that account's name (and says it is signed in)
                seats[0] = SeatSpec(kind="human", name=account.name, level=seats[0].level)
            table, shown = await manager.create_async(rules, seats, lang=tr.lang, options=options or None,
                                                      allowed_names=[account.name] if account is not None else [])
            if account is not None and seats and seats[0].kind == "human":
                table.signed_in.add(0)
            if opened is not None:
                opened.hit(address)
            host = next((i for i in shown if shown[i][0] == "token"), None)
            players.table_opened(table, None if account is None or host is None else (host, account.id), body.rated)
        except (TableError, GinRummyError, MessageError) as exc:
            return _bad(exc, tr)
        base = link_base(request, public_url)
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
        return JSONResponse({"id": table.id, "commitment": commitment(table.row.seed), "seats": out,
                             "rated": body.rated}, status_code=201)

    def _seat_refused(request: Request, tr: WebTranslator) -> Response | None:
        """At a rated table a seat is taken only by a signed-in person who has no seat there yet."""
        if not players.is_rated(request.path_params["table_id"]):
            return None
        account = current_account(request, players)
        if account is None:
            return _bad(W_("sign in to take a seat at a rated table"), tr, 403, "sign_in")
        if account.id in players.accounts.seats(request.path_params["table_id"]).values():
            return _bad(W_("you sit at this table already"), tr, 409, "seated")
        return None

    def _seated(request: Request, table_id: str, player: int) -> None:
        account = current_account(request, players)
        if account is not None:
            players.accounts.sit(table_id, player, account.id)

    async def claim(request: Request) -> Response:
        """One-time invite: the seat's new token for whoever claims it first."""
        tr = web_translator(request_lang(request))
        try:
            body = await _body(request, ClaimBody)
            refused = _seat_refused(request, tr)
            if refused is not None:
                return refused
            account = current_account(request, players)
            table, player, token = manager.claim(request.path_params["table_id"], body.invite,
                                                 None if account is None else account.name)
            _seated(request, table.id, player)
        except TableError as exc:
            status = {"not_found": 404, "claimed": 409, "bad_invite": 403}.get(exc.code, 400)
            return _bad(exc, tr, status)
        except (GinRummyError, MessageError) as exc:
            return _bad(exc, tr)
        base = link_base(request, public_url)
        await manager.changed(table)
        return JSONResponse({"id": table.id, "seat": player, "name": table.names[player], "token": token,
                             "link": f"{base}/table/{table.id}?seat={token}"})

    async def sit(request: Request) -> Response:
        """A free seat of a public table, taken from the lobby with one click."""
        tr = web_translator(request_lang(request))
        try:
            body = await _body(request, SitBody)
            refused = _seat_refused(request, tr)
            if refused is not None:
                return refused
            account = current_account(request, players)
            table, token = await manager.sit(request.path_params["table_id"], body.seat, body.name,
                                             None if account is None else account.name)
            _seated(request, table.id, body.seat)
        except TableError as exc:
            return _bad(exc, tr, {"not_found": 404, "claimed": 409, "not_allowed": 403}.get(exc.code, 400))
        except (GinRummyError, MessageError) as exc:
            return _bad(exc, tr)
        base = link_base(request, public_url)
        return JSONResponse({"id": table.id, "seat": body.seat, "name": table.names[body.seat], "token": token,
                             "link": f"{base}/table/{table.id}?seat={token}"})

    async def lobby_list(request: Request) -> Response:
        return JSONResponse({"tables": manager.lobby(), "chat": manager.lobby_chat})

    async def lobby_socket(ws: WebSocket) -> None:
        """The lobby, live: ``{"type": "lobby", "tables": [...]}`` on every change, and the
        lobby chat (``{"type": "chat", "name", "text"}`` in; out ``{"type": "chat", "from", "account":
        true, "text"}`` for a person signed in (his session cookie: he posts under his account's
        name, whatever ``name`` says), ``{"type": "chat", "from", "guest": true, "text"}`` for a
        guest, under his ``name`` unless it is a computer seat's or an account's
        (:meth:`~ginrummy.web.room.lobby.RoomMixin.say_in_lobby`)).  The cookie counts only on a
        connection from this server's own pages (``Origin`` absent or this host): another site's
        page that opens the socket in a signed-in browser chats as a guest."""
        await ws.accept()
        tr = web_translator(request_lang(ws))
        limiter = ChatLimiter()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(OUTBOUND_QUEUE)

        async def send(msg: dict[str, Any]) -> None:
            try:
                queue.put_nowait(msg)
            except asyncio.QueueFull:
                raise ConnectionError("too slow") from None

        async def writer() -> None:
            with contextlib.suppress(Exception):
                while True:
                    await ws.send_json(await queue.get())

        task = asyncio.get_running_loop().create_task(writer())
        manager.watch_lobby(send)
        try:
            await send({"type": "lobby", "tables": manager.lobby()})
            for entry in manager.lobby_chat:
                await send(entry)
            while True:
                raw = await ws.receive()
                if raw.get("type") == "websocket.disconnect":
                    break
                text = raw.get("text")
                if text is None:
                    data = raw.get("bytes") or b""
                    text = data if len(data) > MAX_MESSAGE_BYTES else data.decode("utf-8", "replace")
                try:
                    msg = parse_lobby(text)
                    if isinstance(msg, LobbyChatMsg):
                        account = current_account(ws, players) if _same_origin(ws) else None  # type: ignore[arg-type]
                        await manager.say_in_lobby(msg.name, msg.text, limiter,
                                                   account=None if account is None else account.name)
                    else:
                        await send({"type": "pong", **({"reply_to": msg.id} if msg.id is not None else {})})
                except MessageError as exc:
                    await send(error_message(exc.code, translate_error(exc, tr), reply_to=exc.reply_to))
                except TableError as exc:
                    await send(error_message(exc.code, translate_error(exc, tr)))
                await asyncio.sleep(0)  # the writer sends the answer now (see game_socket)
        except ConnectionError:  # its queue is full: a client that stops reading, closed 4408
            manager.unwatch_lobby(send)
            task.cancel()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=4408, reason="too slow: messages were not read"),
                                       SLOW_CLOSE_SECONDS)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            manager.unwatch_lobby(send)
            task.cancel()

    async def record(request: Request) -> Response:
        tr = web_translator(request_lang(request))
        try:
            table = manager.load(request.path_params["table_id"])
            table.player_of(request.query_params.get("seat"))
        except TableError as exc:
            return _bad(exc, tr, 404 if exc.code == "not_found" else 403)
        if table.match is None:
            return _bad(W_("the record can be downloaded once the first deal is dealt"), tr, 409)
        # public: a deal whose cards the rules still hide is sealed (docs/record-format.md)
        text = dumps(table.match, date=table.row.created[:10], public=True)
        return Response(text, media_type="text/plain; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="gin-{table.id}.gin"', "Cache-Control": "no-store"})

    async def sheet(request: Request) -> Response:
        """Scorekeeper: ``{"preset", "rules", "names": [a, b], "results": ["Ann:25", "draw"]}``."""
        tr = web_translator(request_lang(request))
        try:
            body = await _body(request, SheetBody)
            names = [n.strip() for n in body.names]
            if len({n.casefold() for n in names}) != len(names):  # as gin sheet --players says it
                raise MessageError("bad_message", W_("names: the names must differ (ignoring case)"))
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
        except (TableError, GinRummyError, MessageError) as exc:
            return _bad(exc, tr)

    async def game_socket(ws: WebSocket) -> None:
        await ws.accept()
        conn: dict[str, Any] = {"tr": web_translator(request_lang(ws))}  # the seat's language; set_lang changes it
        conn["address"] = ws.client.host if ws.client else None  # the thinking pool's fair-queue key
        try:
            table = manager.load(ws.path_params["table_id"])
            if ws.query_params.get("watch") and not ws.query_params.get("seat"):
                if not table.public:
                    raise TableError("not_allowed", W_("only a public table can be watched"))
                player = SPECTATOR
            else:
                player = table.player_of(ws.query_params.get("seat"))
        except TableError as exc:
            await ws.send_json(error_message(exc.code, translate_error(exc, conn["tr"])))
            await ws.close(code=4404 if exc.code == "not_found" else 4403)
            return

        # one writer per connection, behind a bounded queue: a client that stops reading
        # fills its own queue and is dropped; it never makes the table wait
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(OUTBOUND_QUEUE)
        closing = asyncio.Event()

        async def writer() -> None:
            try:
                while True:
                    msg = await queue.get()
                    if msg is None:
                        break
                    # a state's unchanging parts are encoded once (web/protocol/state.py)
                    await ws.send_text(msg.to_text() if type(msg) is StateMessage else wire_text(msg))
            except Exception:  # the socket is gone: the reader loop ends too
                pass
            finally:
                closing.set()

        async def send(msg: dict[str, Any]) -> None:
            if closing.is_set():
                raise ConnectionError("connection closed")
            if ops_metrics is not None:
                ops_metrics.sent(msg)
            try:
                queue.put_nowait(msg)
            except asyncio.QueueFull:
                closing.set()
                log.warning("table %s: a connection stopped reading; dropped", table.id)
                conn["drop"] = asyncio.get_running_loop().create_task(_drop_slow(ws, task))
                raise ConnectionError("too slow") from None

        conn["send"] = send
        conn["limiter"] = ChatLimiter()
        if player == SPECTATOR:
            table.spectators_seen += 1
            conn["watcher"] = table.spectators_seen  # "spectator 2" in the chat
        link_bases[send] = link_base(ws, public_url)  # this connection's own links (a rematch's)
        task = asyncio.get_running_loop().create_task(writer())
        if player != SPECTATOR and conn["address"]:
            table.owner = conn["address"]  # the thinking pool's fair-queue key (web/room/thinking.py)
        manager.watch(table, player, send)
        try:
            if player == SPECTATOR:  # he gets the state; the others a count (RoomMixin.spectator_came)
                await manager.spectator_came(table, send)
            else:
                await manager.changed(table)  # everyone sees the player connected
            await manager.catch_up(table.id)  # and then any step another server stored meanwhile
            while not closing.is_set():
                raw = await ws.receive()
                if raw.get("type") == "websocket.disconnect":
                    break
                text = raw.get("text")
                if text is None:
                    data = raw.get("bytes") or b""
                    text = data if len(data) > MAX_MESSAGE_BYTES else data.decode("utf-8", "replace")
                table = manager.tables.get(table.id, table)
                try:
                    await _handle(table, player, text, conn)
                except ConnectionError:
                    break
                except Exception:  # a fault of ours must not drop the connection without a word
                    log.exception("table %s: message handling failed", table.id)
                    await send(error_message("internal", conn["tr"].t("the server could not handle this message; "
                                                                      "nothing changed")))
                # let the writer send the answer now: messages that arrive together are read
                # without a pause, and their answers must not fill the queue of a client that reads
                if queue.qsize():
                    await asyncio.sleep(0)
        except (WebSocketDisconnect, ConnectionError, RuntimeError):
            pass
        finally:
            reviews.forget(id(conn))
            link_bases.pop(send, None)
            manager.unwatch(table, player, send)
            if player == SPECTATOR:  # the others learn the count soon, not a fresh state (before
                manager.spectators_changed(manager.tables.get(table.id, table))  # any await)
            if "drop" in conn:  # the close frame 4408 first: returning now would close without it
                await asyncio.wait([conn["drop"]])
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(None)
            if closing.is_set():
                task.cancel()
            # asyncio.wait, not wait_for: a cancelled writer must not raise out of the handler
            await asyncio.wait([task], timeout=5)
            try:
                if player != SPECTATOR:
                    await manager.changed(manager.tables.get(table.id, table))
            except Exception:  # pragma: no cover
                pass

    async def _drop_slow(ws: WebSocket, writer: asyncio.Task[None]) -> None:
        """Close a connection that stopped reading with code 4408: its writer (waiting for the
        socket to drain) is cancelled, so the close frame is the next thing written once the
        client reads what its socket already holds (at most :data:`SLOW_CLOSE_SECONDS`)."""
        writer.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(code=4408, reason="too slow: messages were not read"), SLOW_CLOSE_SECONDS)

    async def _handle(table: Any, player: int, raw: str | bytes, conn: dict[str, Any]) -> None:
        tr: WebTranslator = conn["tr"]
        send = conn["send"]
        try:
            msg = parse_inbound(raw)
        except MessageError as exc:
            await send(error_message(exc.code, translate_error(exc, tr), reply_to=exc.reply_to))
            return
        mid = {"reply_to": msg.id} if msg.id is not None else {}
        if player == SPECTATOR and not isinstance(msg, (SetLangMsg, SyncMsg, PingMsg, ChatMsg)):
            await send(error_message("not_allowed", translate_error(W_("a spectator only watches (and chats when the "
                                                                          "players allow it)"), tr), reply_to=msg.id))
            return
        if isinstance(msg, SetLangMsg):
            conn["tr"] = web_translator(msg.lang)
            await send({"type": "lang", "lang": msg.lang, **mid})
            return
        try:
            if isinstance(msg, ActionMsg):
                started = time.perf_counter()
                seq = await manager.act(table, player, msg.action)
                if mid:
                    await manager.flushed(table)  # the ack follows the state that shows the move
                    await send({"type": "ack", "seq": seq, **mid})
                    if ops_metrics is not None:
                        ops_metrics.move_acked(started)
            elif isinstance(msg, NextDealMsg):
                await manager.next_deal(table, player)
                if mid:
                    await send({"type": "ack", "seq": manager.tables[table.id].seq, **mid})
            elif isinstance(msg, ClientSeedMsg):
                await manager.client_seed(table, player, msg.deal, msg.seed)
                if mid:
                    await send({"type": "ack", "seq": manager.tables[table.id].seq, **mid})
            elif isinstance(msg, SuggestMsg):
                await manager.suggest(table, player, msg.text)
            elif isinstance(msg, ChatMsg):
                await manager.say(manager.tables.get(table.id, table), player, msg.text, conn["limiter"],
                                  watcher=conn.get("watcher"))
            elif isinstance(msg, RematchMsg):
                await manager.ask_rematch(manager.tables.get(table.id, table), player, link_bases.get)
            elif isinstance(msg, HintMsg):
                def hint_queued(ahead: int) -> None:
                    if ahead > 0:  # it waits for a worker: say how many jobs go first
                        asyncio.get_running_loop().create_task(_tell(send, {"type": "hint_queued", "ahead": ahead, **mid}))

                seq, action, reason = await manager.hint(table, player, owner=conn["address"], on_queued=hint_queued)
                level = manager.tables.get(table.id, table).hint_level
                await send(hint_message(action.text, translate_error(reason, tr), level, seq, reply_to=msg.id))
            elif isinstance(msg, ReviewMsg):
                t = manager.tables.get(table.id, table)
                await reviews.start(id(conn), t.match, t.over, player, list(t.names), msg.deal, send,
                                    lambda: conn["tr"], msg.id)
            elif isinstance(msg, SyncMsg):
                await manager.catch_up(table.id)
                await send({**manager.tables.get(table.id, table).state_for(player), **mid})
            elif isinstance(msg, PingMsg):
                await send({"type": "pong", **mid})
        except NotYourTurnError as exc:
            await send(error_message("not_your_turn", translate_error(exc, tr), reply_to=msg.id))
        except IllegalActionError as exc:
            await send(error_message("illegal", translate_error(exc, tr), reply_to=msg.id, legal=exc.legal or None))
        except (TableError, ReviewError) as exc:
            await send(error_message(exc.code, translate_error(exc, tr), reply_to=msg.id))
            if exc.code == "conflict":
                await send(manager.tables[table.id].state_for(player))
        except GinRummyError as exc:
            await send(error_message("illegal", translate_error(exc, tr), reply_to=msg.id))

    async def not_found(request: Request, exc: Exception) -> Response:
        tr = web_translator(request_lang(request))
        if request.url.path.startswith("/api/"):
            return _bad(W_("not found"), tr, 404)
        return Response(tr.t("Not found. Go to the lobby: /"), status_code=404, media_type="text/plain; charset=utf-8")

    async def wrong_method(request: Request, exc: Exception) -> Response:
        """A method a path does not take (``GET /api/tables``): under ``/api/`` the JSON error
        of every other answer, naming the methods it takes (``Allow``)."""
        allowed = (getattr(exc, "headers", None) or {}).get("Allow", "")
        if not request.url.path.startswith("/api/"):
            return Response("Method Not Allowed", status_code=405, headers={"Allow": allowed} if allowed else None)
        tr = web_translator(request_lang(request))
        r = _bad(W_("method {method} is not allowed here; allowed: {allowed}", method=request.method[:10],
                    allowed=allowed or "-"), tr, 405)
        if allowed:
            r.headers["Allow"] = allowed
        return r

    routes = [
        Route("/", _page("lobby.html")),
        Route("/table/{table_id}", _page("table.html")),
        Route("/rules", _page("rules.html")),
        Route("/tips", _page("tips.html")),
        Route("/scorekeeper", _page("scorekeeper.html")),
        Route("/fair", _page("fair.html")),
        Route("/favicon.ico", favicon),
        Route("/api/options", options),
        Route("/api/i18n", catalog),
        Route("/api/i18n.js", catalog_script),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}/claim", claim, methods=["POST"]),
        Route("/api/tables/{table_id}/sit", sit, methods=["POST"]),
        Route("/api/lobby", lobby_list),
        Route("/api/tables/{table_id}/record", record),
        Route("/api/sheet", sheet, methods=["POST"]),
        WebSocketRoute("/ws/table/{table_id}", game_socket),
        WebSocketRoute("/ws/lobby", lobby_socket),
        *player_routes(players, manager, _body, _bad, _page),
        *replay_review_routes(replay_reviews, lambda request, rid: replay_text(players, manager, request, rid),
                              _bad, review_budget_ms),
        *ops_routes(store, ops_metrics, metrics_allow, not_found),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    def too_large(scope: Any, limit: int) -> str:
        return translate_error(_too_large(limit), web_translator(request_lang(Request(scope))))

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={404: not_found, 405: wrong_method},
                    middleware=[Middleware(BodyLimit, limit=MAX_BODY_BYTES, message=too_large,
                                           larger={"/api/replays": MAX_RECORD_BYTES,
                                                   "/api/reviews": MAX_RECORD_BYTES}),
                                Middleware(CsrfGuard)]
                    + ([] if allowed_hosts is None else [Middleware(TrustedHostMiddleware,
                                                                    allowed_hosts=list(allowed_hosts),
                                                                    www_redirect=False)]))
    app.state.manager = manager
    app.state.players = players
    app.state.store = store
    app.state.follower = follower
    app.state.reviews = reviews
    app.state.replay_reviews = replay_reviews
    app.state.metrics = ops_metrics
    install_log_redaction()
    return app
