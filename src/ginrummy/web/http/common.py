"""What every HTTP route shares: the pages (``static/`` with the shared head, translated), the
JSON body reader, the error answer and the start of the links the server sends.

The error answer (:func:`error_response`) is the one place that turns an error into
``{"error", "code"}`` with an HTTP status (:data:`STATUS_CODES` for an error without a code).
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from ...i18n import translate_error
from ..errors import ErrorCode, WebError
from ..protocol.bodies import EmptyBody
from ..protocol.inbound import MAX_BODY_BYTES, parse_body
from ..protocol.replay_frames import MAX_RECORD_BYTES
from ..security import read_body
from ..texts import W_, WebTranslator, request_lang, translate_html, web_translator

__all__ = [
    "STATIC_DIR",
    "HEAD_INCLUDE",
    "STATUS_CODES",
    "render_page",
    "page",
    "favicon",
    "same_origin",
    "too_large",
    "read_json_body",
    "error_response",
    "link_base",
    "not_found",
    "wrong_method",
    "uploaded_record",
]

STATIC_DIR = Path(str(resources.files("ginrummy.web") / "static"))
"""The front end's files, served at ``/static/...``."""

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


def same_origin(conn: Any) -> bool:
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


def page(name: str) -> Any:
    """The endpoint of the page ``static/<name>`` (:func:`render_page`) in the request's language."""

    async def endpoint(request: Request) -> Response:
        lang = request_lang(request)
        return HTMLResponse(
            render_page(name, lang),
            headers={"Cache-Control": "no-cache", "Content-Language": lang, "Vary": "Accept-Language, Cookie"},
        )

    return endpoint


def too_large(limit: int) -> Any:
    """The message of a body above ``limit`` bytes (a :class:`~ginrummy.errors.Msg`)."""
    return W_("request body too large; the limit is {limit} bytes", limit=limit)


_SOCKET_WORDING = {
    "message is not valid UTF-8 text",
    "message is not valid JSON; send one JSON object such as {example}",
}
"""The ``bad_json`` messages of :func:`~ginrummy.web.protocol.inbound.read_json` worded for a WebSocket
message; a request body says "request body is not valid JSON" instead (the others, nesting and a
key given twice, name what is wrong and stand as they are)."""


def _need_json_type(request: Request) -> None:
    """Raises :class:`WebError` ``unsupported_media_type`` (415) unless the request says
    ``Content-Type: application/json``: a cross-site form can send a JSON-looking
    ``text/plain`` body, never that type without the server's leave."""
    if request.headers.get("content-type", "").split(";", 1)[0].strip().lower() != "application/json":
        raise WebError(
            ErrorCode.UNSUPPORTED_MEDIA_TYPE,
            W_("send this request's body as JSON, with the header Content-Type: application/json"),
        )


async def _raw_body(request: Request) -> bytes:
    """The request's body, read with a cap: :class:`WebError` ``too_large`` beyond it, and
    ``bad_json`` when the client hangs up before its body ends (no one hears the answer)."""
    try:
        raw = await read_body(request.stream(), MAX_BODY_BYTES)
    except ClientDisconnect:
        raise WebError(ErrorCode.BAD_JSON, W_("request body is not valid JSON")) from None
    if raw is None:
        raise WebError(ErrorCode.TOO_LARGE, too_large(MAX_BODY_BYTES))
    return raw


def _parse_request_body(raw: bytes, model: Any) -> Any:
    """:func:`~ginrummy.web.protocol.inbound.parse_body`, its WebSocket wording of bad JSON
    said of a request body."""
    try:
        return parse_body(raw, model)
    except WebError as exc:
        if exc.code == "bad_json" and exc.key in _SOCKET_WORDING:  # said of a WebSocket message
            raise WebError(ErrorCode.BAD_JSON, W_("request body is not valid JSON")) from None
        raise


async def read_json_body(request: Request, model: Any) -> Any:
    """The request's JSON body validated as ``model`` (:func:`~ginrummy.web.protocol.inbound.parse_body`),
    read with a cap.  Raises :class:`WebError` (``unsupported_media_type``, answered 415,
    unless the request says ``Content-Type: application/json``: a cross-site form can send a
    JSON-looking ``text/plain`` body, never that type without the server's leave; ``too_large``
    or ``bad_message``/``bad_json``; ``bad_json`` too when the client hangs up before its body
    ends: no one hears the answer)."""
    _need_json_type(request)
    return _parse_request_body(await _raw_body(request), model)


async def read_no_body(request: Request) -> None:
    """Check that a request that takes no body sent none, or ``{}`` as JSON: anything else is
    refused before the request changes anything (:class:`WebError` ``too_large``,
    ``unsupported_media_type``, ``bad_json`` or ``bad_message`` naming the field, as
    :func:`read_json_body`)."""
    raw = await _raw_body(request)
    if raw.strip():
        _need_json_type(request)
        _parse_request_body(raw, EmptyBody)


STATUS_CODES = {
    400: "bad_request",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
    503: "server_busy",
}
"""The ``code`` of an error answer that carries none of its own, by HTTP status."""


_OWN_STATUS = (ErrorCode.TOO_LARGE, ErrorCode.UNSUPPORTED_MEDIA_TYPE)
"""Codes answered with their own status whatever the route says (413, 415)."""


def error_response(message: Any, tr: WebTranslator, status: int | None = None, code: str | None = None) -> JSONResponse:
    """``{"error": message, "code"}`` with ``message`` (an error, a :class:`~ginrummy.errors.Msg`
    or text) in ``tr``'s language.  The status: ``status`` when given, else a
    :class:`~ginrummy.web.errors.WebError`'s own (:data:`~ginrummy.web.errors.HTTP_STATUS`), else
    400; a ``too_large`` error answers 413 and ``unsupported_media_type`` 415 in any case."""
    if isinstance(message, WebError) and (status is None or message.code in _OWN_STATUS):
        status = message.status
    status = 400 if status is None else status
    body: dict[str, Any] = {"error": translate_error(message, tr)}
    # every error names its kind: the message's own code, else one by the status
    body["code"] = code or getattr(message, "code", None) or STATUS_CODES.get(status, "bad_request")
    return JSONResponse(body, status_code=status, headers={"Content-Language": tr.lang})


def link_base(conn: Any, public_url: str | None) -> str:
    """The start of every link the server sends to ``conn`` (a request or a WebSocket):
    ``public_url`` (``gin serve --public-url``) when set, else the scheme and host ``conn``
    came in on (``http``/``https``, never ``ws``), without a trailing slash.  Only the
    receiver's own request is read: ``gin serve`` checks its ``Host`` against the allowed
    hosts before any of this runs (``--allowed-host``, :func:`~ginrummy.web.app.create_app`)."""
    if public_url:
        return public_url.rstrip("/")
    return str(conn.base_url).replace("ws://", "http://", 1).replace("wss://", "https://", 1).rstrip("/")


async def not_found(request: Request, exc: Exception) -> Response:
    """A path nothing serves: under ``/api/`` the JSON error ``404 not_found``; else plain text."""
    tr = web_translator(request_lang(request))
    if request.url.path.startswith("/api/"):
        return error_response(W_("not found"), tr, 404)
    return Response(tr.t("Not found. Go to the lobby: /"), status_code=404, media_type="text/plain; charset=utf-8")


async def wrong_method(request: Request, exc: Exception) -> Response:
    """A method a path does not take (``GET /api/tables``): under ``/api/`` the JSON error
    of every other answer, naming the methods it takes (``Allow``)."""
    allowed = (getattr(exc, "headers", None) or {}).get("Allow", "")
    if not request.url.path.startswith("/api/"):
        return Response("Method Not Allowed", status_code=405, headers={"Allow": allowed} if allowed else None)
    tr = web_translator(request_lang(request))
    r = error_response(
        W_(
            "method {method} is not allowed here; allowed: {allowed}",
            method=request.method[:10],
            allowed=allowed or "-",
        ),
        tr,
        405,
    )
    if allowed:
        r.headers["Allow"] = allowed
    return r


async def uploaded_record(request: Request, tr: WebTranslator) -> str | Response:
    """The record text of an upload's body (at most :data:`MAX_RECORD_BYTES`, UTF-8), or the
    error answer (413 ``too_large``, 400 ``bad_record``; :func:`error_response`).  The replay upload
    and the review of an uploaded record both read their body so."""
    raw = await read_body(request.stream(), MAX_RECORD_BYTES)
    if raw is None:
        return error_response(
            W_("request body too large; the limit is {limit} bytes", limit=MAX_RECORD_BYTES), tr, 413, "too_large"
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return error_response(W_("a record is UTF-8 text"), tr, 400, "bad_record")
