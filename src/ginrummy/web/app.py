"""The ASGI app of the web table (Starlette): pages, the JSON API and the game WebSocket.

Routes:

* ``GET /`` lobby; ``GET /table/{id}?seat=TOKEN`` the table page; ``GET /rules``,
  ``GET /tips``, ``GET /scorekeeper`` help pages; ``/static/...`` the front end files.
* ``GET /api/options``: presets (R13), rule fields (R14) and computer levels.
* ``POST /api/tables``: open a table; answers the seats' links.
* ``GET /api/tables/{id}/record?seat=TOKEN``: the game record (``ginrummy.record.dumps``) of a
  finished match, as a download.
* ``POST /api/sheet``: the scorekeeper (``ScoreSheet`` of ``gin sheet``).
* ``GET /api/i18n`` and ``GET /api/i18n.js``: the browser catalog of the request's language
  (:func:`ginrummy.web.i18n_web.web_catalog`) as JSON, or as a script setting
  ``window.GIN_I18N`` (loaded by every page before its own scripts).
* ``WS /ws/table/{id}?seat=TOKEN&lang=el``: the game protocol (``docs/protocol.md``).

Every page, API error and WebSocket error is in the language of the request
(:func:`~ginrummy.web.i18n_web.request_lang`: ``?lang=``, else the ``gin_lang`` cookie set by the
page's language switcher, else ``Accept-Language``; English by default).

Create it with :func:`create_app`.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import GinRummyError, IllegalActionError, NotYourTurnError
from ..i18n import translate_error
from ..rules import CHOICES, FIELD_RULES, PRESETS, RuleSet
from ..scoring import ScoreSheet, parse_results
from .i18n_web import W_, WebTranslator, request_lang, translate_html, web_catalog, web_translator
from .messages import (MAX_MESSAGE_BYTES, ActionMsg, HintMsg, MessageError, NextDealMsg, PingMsg, SetLangMsg,
                       SuggestMsg, SyncMsg, error_message, hint_message, parse_inbound)
from .notify import Follower
from .store import Store, default_database_url
from .tables import SeatSpec, TableError, TableManager, player_levels

__all__ = ["create_app", "STATIC_DIR"]

log = logging.getLogger("ginrummy.web")

STATIC_DIR = Path(str(resources.files("ginrummy.web") / "static"))

MAX_BODY_BYTES = 8192


_PAGES: dict[tuple[str, str, float], str] = {}


def render_page(name: str, lang: str) -> str:
    """The page ``static/<name>`` in ``lang``: its ``data-i18n`` texts translated
    (:func:`~ginrummy.web.i18n_web.translate_html`) and its catalog script pinned to the language
    (``/api/i18n.js?lang=...``).  Cached per file version and language."""
    path = STATIC_DIR / name
    key = (name, lang, path.stat().st_mtime)
    if key not in _PAGES:
        text = translate_html(path.read_text(encoding="utf-8"), web_translator(lang))
        _PAGES[key] = text.replace('src="/api/i18n.js"', f'src="/api/i18n.js?lang={lang}"')
    return _PAGES[key]


def _page(name: str) -> Any:
    async def endpoint(request: Request) -> Response:
        lang = request_lang(request)
        return HTMLResponse(render_page(name, lang), headers={
            "Cache-Control": "no-cache", "Content-Language": lang, "Vary": "Accept-Language, Cookie"})
    return endpoint


async def _json_body(request: Request) -> Any:
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise TableError("bad_request", W_("request body too large; the limit is {limit} bytes", limit=MAX_BODY_BYTES))
    try:
        return json.loads(body or b"null")
    except ValueError:
        raise TableError("bad_request", W_("request body is not valid JSON")) from None


def _bad(message: Any, tr: WebTranslator, status: int = 400) -> JSONResponse:
    """``{"error": message}`` with ``message`` (an error, a :class:`~ginrummy.errors.Msg` or text)
    in ``tr``'s language."""
    return JSONResponse({"error": translate_error(message, tr)}, status_code=status,
                        headers={"Content-Language": tr.lang})


def create_app(database_url: str | None = None, bot_delay: float | None = None) -> Starlette:
    """The ASGI app.

    Args:
        database_url: a SQLAlchemy URL (``sqlite:///file``, ``postgresql://...``); default a
            SQLite file in the user's data folder.
        bot_delay: seconds computer players wait before moving; ``None`` a natural 0.7-1.2 s.

    Every stored table is loaded at start-up and its pending computer moves resume.
    """
    store = Store(database_url or default_database_url())
    manager = TableManager(store, bot_delay=bot_delay)
    follower = Follower(manager) if store.is_postgresql else None  # several servers on one PostgreSQL

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        manager.load_all()
        manager.start()
        if follower is not None:
            follower.start()
        try:
            yield
        finally:
            if follower is not None:
                await follower.stop()
            await manager.stop()
            store.close()

    async def options(request: Request) -> Response:
        fields = {k: v for k, v in RuleSet().to_dict().items() if k != "name"}
        return JSONResponse({
            "presets": {name: r.to_dict() for name, r in PRESETS.items()},
            "fields": fields, "field_rules": FIELD_RULES, "levels": player_levels(),
            "choices": {k: list(v) for k, v in CHOICES.items()},
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
        try:
            data = await _json_body(request)
            if not isinstance(data, dict):
                return _bad(W_('send {example}', example='{"preset": ..., "rules": {...}, "seats": [...]}'), tr)
            rules_in = data.get("rules") or {}
            if not isinstance(rules_in, dict):
                return _bad(W_("rules must be an object of RuleSet fields (R14)"), tr)
            rules_in = dict(rules_in)
            rules_in.pop("name", None)
            rules = RuleSet.from_dict({"preset": data.get("preset", "standard"), **rules_in})
            seats_in = data.get("seats")
            if not isinstance(seats_in, list) or not all(isinstance(s, dict) for s in seats_in):
                return _bad(W_("seats must be a list of 2 or 3 objects like {example}",
                               example='{"kind": "human", "name": "Ann"}'), tr)
            seats = [SeatSpec(kind=str(s.get("kind", "")), name=str(s.get("name", "") or ""),
                              level=str(s.get("level", "") or "")) for s in seats_in]
            table = manager.create(rules, seats, lang=tr.lang)
        except (TableError, GinRummyError) as exc:
            return _bad(exc, tr)
        base = str(request.base_url).rstrip("/")
        out = []
        for i, name in enumerate(table.names):
            entry: dict[str, Any] = {"name": name, "kind": "human" if not table.is_bot(i) else "computer"}
            if not table.is_bot(i):
                entry["link"] = f"{base}/table/{table.id}?seat={table.row.tokens[i]}"
                entry["token"] = table.row.tokens[i]
            out.append(entry)
        return JSONResponse({"id": table.id, "seats": out}, status_code=201)

    async def record(request: Request) -> Response:
        tr = web_translator(request_lang(request))
        try:
            table = manager.load(request.path_params["table_id"])
            table.player_of(request.query_params.get("seat"))
        except TableError as exc:
            return _bad(exc, tr, 404 if exc.code == "not_found" else 403)
        if not table.match.finished:
            return _bad(W_("the record can be downloaded once the match is finished "
                           "(before that it would reveal the current deck)"), tr, 409)
        from ..record import dumps

        text = dumps(table.match, date=table.row.created[:10])
        return Response(text, media_type="text/plain; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="gin-{table.id}.gin"'})

    async def sheet(request: Request) -> Response:
        """Scorekeeper: ``{"preset", "rules", "names": [a, b], "results": ["Ann:25", "draw"]}``."""
        tr = web_translator(request_lang(request))
        try:
            data = await _json_body(request)
            if not isinstance(data, dict):
                return _bad(W_('send {example}', example='{"names": [...], "results": [...], "preset": ..., "rules": {...}}'), tr)
            names = data.get("names")
            results = data.get("results", [])
            if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
                return _bad(W_("names must be a list of 2 (or 3) non-empty names"), tr)
            if not isinstance(results, list) or len(results) > 500:
                return _bad(W_("results must be a list (at most 500) of NAME:POINTS or draw"), tr)
            rules_in = data.get("rules") or {}
            if not isinstance(rules_in, dict):
                return _bad(W_("rules must be an object of RuleSet fields (R14)"), tr)
            names = [n.strip() for n in names]
            rules = RuleSet.from_dict({"preset": data.get("preset", "standard"), **rules_in, "players": len(names)})
            parsed = parse_results([str(r) for r in results], names)
            s = ScoreSheet(rules, len(names))
            for w, p in parsed:
                s = s.add(w, p)
            return JSONResponse(s.to_dict(names))
        except (TableError, GinRummyError) as exc:
            return _bad(exc, tr)

    async def game_socket(ws: WebSocket) -> None:
        await ws.accept()
        conn = {"tr": web_translator(request_lang(ws))}  # the seat's language; set_lang changes it
        try:
            table = manager.load(ws.path_params["table_id"])
            player = table.player_of(ws.query_params.get("seat"))
        except TableError as exc:
            await ws.send_json(error_message(exc.code, translate_error(exc, conn["tr"])))
            await ws.close(code=4404 if exc.code == "not_found" else 4403)
            return

        async def send(msg: dict[str, Any]) -> None:
            await ws.send_json(msg)

        manager.watch(table, player, send)
        try:
            await manager.changed(table)  # everyone sees the new connection
            await manager.catch_up(table.id)  # and then any step another server stored meanwhile
            while True:
                raw = await ws.receive()
                if raw.get("type") == "websocket.disconnect":
                    break
                text = raw.get("text")
                if text is None:
                    data = raw.get("bytes") or b""
                    text = data if len(data) > MAX_MESSAGE_BYTES else data.decode("utf-8", "replace")
                table = manager.tables.get(table.id, table)
                await _handle(ws, table, player, text, conn)
        except WebSocketDisconnect:
            pass
        finally:
            manager.unwatch(table, player, send)
            try:
                await manager.changed(manager.tables.get(table.id, table))
            except Exception:  # pragma: no cover
                pass

    async def _handle(ws: WebSocket, table: Any, player: int, raw: str | bytes, conn: dict[str, Any]) -> None:
        tr: WebTranslator = conn["tr"]
        try:
            msg = parse_inbound(raw)
        except MessageError as exc:
            await ws.send_json(error_message(exc.code, translate_error(exc, tr), reply_to=exc.reply_to))
            return
        if isinstance(msg, SetLangMsg):
            conn["tr"] = web_translator(msg.lang)
            await ws.send_json({"type": "lang", "lang": msg.lang, **({"reply_to": msg.id} if msg.id is not None else {})})
            return
        try:
            if isinstance(msg, ActionMsg):
                await manager.act(table, player, msg.action)
                if msg.id is not None:
                    await ws.send_json({"type": "ack", "reply_to": msg.id, "seq": manager.tables[table.id].seq})
            elif isinstance(msg, NextDealMsg):
                await manager.next_deal(table, player)
                if msg.id is not None:
                    await ws.send_json({"type": "ack", "reply_to": msg.id, "seq": manager.tables[table.id].seq})
            elif isinstance(msg, SuggestMsg):
                await manager.suggest(table, player, msg.text)
            elif isinstance(msg, HintMsg):
                seq, action, reason = await manager.hint(table, player)
                level = manager.tables.get(table.id, table).hint_level
                await ws.send_json(hint_message(action.text, translate_error(reason, tr), level, seq, reply_to=msg.id))
            elif isinstance(msg, SyncMsg):
                await manager.catch_up(table.id)
                state = manager.tables.get(table.id, table).state_for(player)
                if msg.id is not None:
                    state["reply_to"] = msg.id
                await ws.send_json(state)
            elif isinstance(msg, PingMsg):
                await ws.send_json({"type": "pong", **({"reply_to": msg.id} if msg.id is not None else {})})
        except NotYourTurnError as exc:
            await ws.send_json(error_message("not_your_turn", translate_error(exc, tr), reply_to=msg.id))
        except IllegalActionError as exc:
            await ws.send_json(error_message("illegal", translate_error(exc, tr), reply_to=msg.id, legal=exc.legal or None))
        except TableError as exc:
            await ws.send_json(error_message(exc.code, translate_error(exc, tr), reply_to=msg.id))
            if exc.code == "conflict":
                await ws.send_json(manager.tables[table.id].state_for(player))
        except GinRummyError as exc:
            await ws.send_json(error_message("illegal", translate_error(exc, tr), reply_to=msg.id))

    async def not_found(request: Request, exc: Exception) -> Response:
        tr = web_translator(request_lang(request))
        if request.url.path.startswith("/api/"):
            return _bad(W_("not found"), tr, 404)
        return Response(tr.t("Not found. Go to the lobby: /"), status_code=404, media_type="text/plain; charset=utf-8")

    routes = [
        Route("/", _page("lobby.html")),
        Route("/table/{table_id}", _page("table.html")),
        Route("/rules", _page("rules.html")),
        Route("/tips", _page("tips.html")),
        Route("/scorekeeper", _page("scorekeeper.html")),
        Route("/api/options", options),
        Route("/api/i18n", catalog),
        Route("/api/i18n.js", catalog_script),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}/record", record),
        Route("/api/sheet", sheet, methods=["POST"]),
        WebSocketRoute("/ws/table/{table_id}", game_socket),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={404: not_found})
    app.state.manager = manager
    app.state.store = store
    app.state.follower = follower
    return app
