"""What keeps the web table's secrets and memory safe whatever a client sends.

* :class:`BodyLimit` and :func:`read_body`: a request body above a limit is refused *while it is
  read*: at once by its ``Content-Length`` (the middleware), and by counting the bytes of a
  chunked body (``read_body``), so the server never holds more than the limit of any one body
  (answer ``413`` with a JSON error).
* :class:`RedactSecrets`: a logging filter that masks seat tokens and invite codes in URLs
  (``?seat=...``, ``?invite=...``) and the password of database URLs, for uvicorn's access and
  error logs and ours.
* :func:`mask_url`: a database URL with its password replaced by ``***``, to show anywhere.
* :data:`SECURITY_HEADERS`: sent with every HTTP answer: no referrer (a table URL holds a seat
  token), no framing, no MIME sniffing, and a content security policy that runs only the
  server's own scripts (so nothing a person types can run as a script).
* :class:`CsrfGuard`: the CSRF check of every state-changing request (the ``gin_csrf`` cookie
  and header), and the session and CSRF cookie names.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .texts import request_lang, web_translator

__all__ = [
    "CsrfGuard",
    "cross_site",
    "SESSION_COOKIE",
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "SESSION_DAYS",
    "BodyLimit",
    "RedactSecrets",
    "mask_url",
    "redact",
    "read_body",
    "SECURITY_HEADERS",
    "install_log_redaction",
]

SESSION_COOKIE = "gin_session"
CSRF_COOKIE = "gin_csrf"
CSRF_HEADER = "x-csrf-token"
SESSION_DAYS = 30
"""A session ends this many days after sign-in (or at sign-out, or when the account is deleted)."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SECURITY_HEADERS: dict[str, str] = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'self'"
    ),
}

_URL_PASSWORD = re.compile(r"(?P<head>[a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s]*:)(?P<pw>[^@\s]*)(?P<at>@)")
_QUERY_SECRET = re.compile(r"(?P<key>[?&](?:seat|invite|token)=)[^&\s\"']*")
_BEARER = re.compile(r"(?P<key>\bBearer\s+)[^\s\"',]+", re.IGNORECASE)
_API_TOKEN = re.compile(r"\bgin_[A-Za-z0-9_-]{20,}")


def mask_url(url: str) -> str:
    """``url`` with the password of its user part replaced by ``***``
    (``postgresql://gin:***@127.0.0.1/gin``); other text is unchanged."""
    return _URL_PASSWORD.sub(lambda m: m.group("head") + "***" + m.group("at"), str(url))


def redact(text: str) -> str:
    """``text`` with database passwords, the values of ``seat``, ``invite`` and ``token``
    query parameters, an ``Authorization: Bearer`` value and any API token (``gin_...``,
    docs/bot-api.md) replaced by ``***``."""
    text = _QUERY_SECRET.sub(lambda m: m.group("key") + "***", mask_url(text))
    return _API_TOKEN.sub("gin_***", _BEARER.sub(lambda m: m.group("key") + "***", text))


class RedactSecrets(logging.Filter):
    """A logging filter that applies :func:`redact` to a record's message and arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
        return True


def install_log_redaction() -> None:
    """Add :class:`RedactSecrets` to uvicorn's loggers and ours (and to their handlers, so
    records from child loggers are masked too).  Idempotent."""
    for name in ("uvicorn", "uvicorn.access", "uvicorn.error", "ginrummy", "ginrummy.web"):
        logger = logging.getLogger(name)
        for target in [logger, *logger.handlers]:
            if not any(isinstance(f, RedactSecrets) for f in target.filters):
                target.addFilter(RedactSecrets())


async def read_body(receive_stream: Any, limit: int) -> bytes | None:
    """Read a request body from ``receive_stream`` (Starlette's ``request.stream()``), at most
    ``limit`` bytes: ``None`` as soon as it passes the limit (the rest is never read)."""
    chunks: list[bytes] = []
    seen = 0
    async for chunk in receive_stream:
        seen += len(chunk)
        if seen > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


class BodyLimit:
    """ASGI middleware for every HTTP request: a declared ``Content-Length`` above ``limit``
    bytes is answered ``413`` before any of the body is read (``message(scope, limit)`` makes
    the JSON error text, in the request's language); every answer gets
    :data:`SECURITY_HEADERS`.  A body without a length (chunked) is capped as it is read by
    :func:`read_body`, so memory stays flat whatever is sent."""

    def __init__(
        self, app: ASGIApp, limit: int, message: Callable[[Scope, int], str], larger: dict[str, int] | None = None
    ) -> None:
        self.app = app
        self.limit = limit
        self.message = message
        self.larger = dict(larger or {})
        """Paths whose bodies may be larger (an uploaded record): ``{path: limit}``."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope.get("path", ""), self.limit)
        for key, value in scope.get("headers", ()):
            if key == b"content-length":
                text = value.decode("latin-1").strip()
                if not text.isdigit() or len(text) > 12 or int(text) > limit:
                    body = json.dumps(
                        {"error": self.message(scope, limit), "code": "too_large"}, ensure_ascii=False
                    ).encode()
                    await send(
                        {
                            "type": "http.response.start",
                            "status": 413,
                            "headers": [
                                (b"content-type", b"application/json"),
                                (b"connection", b"close"),
                                (b"content-length", str(len(body)).encode()),
                            ]
                            + _HEADERS,
                        }
                    )
                    await send({"type": "http.response.body", "body": body})
                    return

        async def send_with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                msg = dict(msg)
                msg["headers"] = list(msg.get("headers", [])) + _HEADERS
            await send(msg)

        await self.app(scope, receive, send_with_headers)


_HEADERS = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]


# -- CSRF ---------------------------------------------------------------------------------------


_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{20,100}$")


def _cookies(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in scope.get("headers", ()):
        if key == b"cookie":
            for part in value.decode("latin-1").split(";"):
                k, _, v = part.strip().partition("=")
                if k and k not in out:
                    out[k] = v
    return out


class CsrfGuard:
    """ASGI middleware: every ``POST``/``PUT``/``PATCH``/``DELETE`` from a browser (a request
    that carries our ``gin_csrf`` or ``gin_session`` cookie) must carry the header
    ``X-CSRF-Token`` equal to the ``gin_csrf`` cookie (compared in constant time), else it is
    answered ``403 {"error", "code": "csrf"}`` (in the request's language) before anything
    runs.  A request with none of our cookies carries no session, but it could still sign a
    browser in (a cross-site form posting to ``/api/session`` sets the session cookie it
    answers with), so it must not come from another site: its ``Sec-Fetch-Site``, when sent,
    is ``same-origin`` or ``none``, and its ``Origin``, when sent, is this request's own host
    (:func:`cross_site`); else the same ``403 csrf``.  A program (curl, a script) sends neither
    header and passes.  Any answer to a request without a well-formed ``gin_csrf`` cookie sets
    a new one (SameSite=Strict, readable by the page's script, which sends it back:
    ``common.js``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or _bot_api_call(scope):
            await self.app(scope, receive, send)
            return
        cookies = _cookies(scope)
        cookie = cookies.get(CSRF_COOKIE, "")
        has = bool(_TOKEN_RE.match(cookie))
        # A request with none of our cookies is a program's (a script, a benchmark, curl): it can
        # act for no one, since a session rides on its cookie, so there is nothing to forge.  A
        # browser that has been here carries gin_csrf, and a signed-in one gin_session: those
        # are checked.  (A cross-site request gets neither: SameSite keeps them at home.)
        browser = CSRF_COOKIE in cookies or SESSION_COOKIE in cookies
        if scope.get("method", "GET") in _UNSAFE:
            header = ""
            for key, value in scope.get("headers", ()):
                if key == CSRF_HEADER.encode():
                    header = value.decode("latin-1")
            if (
                cross_site(scope)
                if not browser
                else not (has and secrets.compare_digest(header.encode(), cookie.encode()))
            ):
                from starlette.requests import Request

                tr = web_translator(request_lang(Request(scope)))
                body = json.dumps(
                    {
                        "error": tr.t(
                            "this request's CSRF token is missing or does not match this browser's; load the page again and retry"
                        ),
                        "code": "csrf",
                    },
                    ensure_ascii=False,
                ).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 403,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                        ]
                        + ([] if has else [_set_csrf(scope)]),
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        if has:
            await self.app(scope, receive, send)
            return

        async def send_with_cookie(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                msg = dict(msg)
                msg["headers"] = list(msg.get("headers", [])) + [_set_csrf(scope)]
            await send(msg)

        await self.app(scope, receive, send_with_cookie)


def _bot_api_call(scope: Scope) -> bool:
    """Whether ``scope`` is a call of the bot API (``/api/bot/...``) with an ``Authorization``
    header: such a route reads no cookie, only the API token (docs/bot-api.md), so there is no
    session to forge; and another site's page cannot send that header without a CORS preflight,
    which this server never grants."""
    return scope.get("path", "").startswith("/api/bot/") and any(
        k == b"authorization" for k, _ in scope.get("headers", ())
    )


def cross_site(scope: Scope) -> bool:
    """Whether the request of ``scope`` says it comes from another site's page: a
    ``Sec-Fetch-Site`` other than ``same-origin`` or ``none``, or an ``Origin`` whose host and
    port are not the request's ``Host`` (``Origin: null`` too).  A request with neither header
    (not a browser's) is not."""
    headers = {
        k: v.decode("latin-1") for k, v in scope.get("headers", ()) if k in (b"sec-fetch-site", b"origin", b"host")
    }
    site = headers.get(b"sec-fetch-site")
    if site is not None and site.strip().lower() not in ("same-origin", "none"):
        return True
    origin = headers.get(b"origin")
    if origin is None:
        return False
    host = headers.get(b"host", "").strip().lower()
    scheme, sep, rest = origin.strip().lower().partition("://")
    return not (sep and scheme in ("http", "https") and host and rest.rstrip("/") == host)


def _secure(scope: Scope) -> str:
    return "; Secure" if scope.get("scheme") == "https" else ""


def _set_csrf(scope: Scope) -> tuple[bytes, bytes]:
    value = f"{CSRF_COOKIE}={secrets.token_urlsafe(24)}; Path=/; SameSite=Strict{_secure(scope)}"
    return (b"set-cookie", value.encode())
