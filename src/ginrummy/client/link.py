"""Seat links (docs/protocol.md, "HTTP"): where the table's WebSocket is, and the HTTP calls a
seat makes (claiming an invite, downloading the record).  Standard library only."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

__all__ = ["SeatLink", "parse_link", "claim_invite", "download_record", "LinkError"]

_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
_HTTP_TIMEOUT = 20


class LinkError(ValueError):
    """A link that is no seat link, or a claim the server refused (names what is allowed)."""


@dataclass(frozen=True)
class SeatLink:
    """One seat of one table.  ``base`` is ``http(s)://host[:port]``; ``token`` the seat token
    (``None`` while only an ``invite`` code is known).  The token never appears in ``repr``."""

    base: str
    table: str
    token: str | None = None
    invite: str | None = None

    def __repr__(self) -> str:
        return f"SeatLink(base={self.base!r}, table={self.table!r}, token={'***' if self.token else None})"

    @property
    def origin(self) -> str:
        """The ``Origin`` a browser on the table page sends: the page's scheme and host."""
        return self.base

    def ws_url(self, lang: str | None = None) -> str:
        """``ws(s)://host/ws/table/ID?seat=TOKEN[&lang=..]``."""
        if not self.token:
            raise LinkError("this link has no seat token yet: claim its invite first")
        scheme = "wss" if self.base.startswith("https:") else "ws"
        q = {"seat": self.token} | ({"lang": lang} if lang else {})
        return f"{scheme}://{self.base.split('://', 1)[1]}/ws/table/{self.table}?{urllib.parse.urlencode(q)}"


def parse_link(url: str) -> SeatLink:
    """The :class:`SeatLink` of a table link: ``http(s)://HOST/table/ID?seat=TOKEN`` (the page's
    address), ``http(s)://HOST/table/ID?invite=CODE`` (an invite, claimed by
    :func:`claim_invite`), or ``ws(s)://HOST/ws/table/ID?seat=TOKEN``.  Raises
    :class:`LinkError` naming the forms allowed."""
    allowed = "allowed: http(s)://HOST/table/ID?seat=TOKEN, http(s)://HOST/table/ID?invite=CODE or ws(s)://HOST/ws/table/ID?seat=TOKEN"
    u = urllib.parse.urlsplit(url.strip())
    scheme = {"http": "http", "https": "https", "ws": "http", "wss": "https"}.get(u.scheme.lower())
    if scheme is None or not u.netloc:
        raise LinkError(f"not a seat link (scheme {u.scheme or 'missing'}); {allowed}")
    parts = [p for p in u.path.split("/") if p]
    if parts[:1] == ["ws"]:
        parts = parts[1:]
    if len(parts) != 2 or parts[0] != "table" or not _ID_RE.fullmatch(parts[1]):
        raise LinkError(f"not a seat link (path {u.path!r}); {allowed}")
    q = urllib.parse.parse_qs(u.query)
    seat = (q.get("seat") or [""])[0] or None
    invite = (q.get("invite") or [""])[0] or None
    if not seat and not invite:
        raise LinkError(f"the link has neither ?seat= nor ?invite=; {allowed}")
    return SeatLink(f"{scheme}://{u.netloc}", parts[1], seat, None if seat else invite)


def _error_of(exc: urllib.error.HTTPError) -> str:
    try:
        body = json.loads(exc.read() or b"{}")
        return f"{exc.code} {body.get('code', '')}: {body.get('error', '')}".strip()
    except ValueError:
        return str(exc.code)


def claim_invite(link: SeatLink) -> SeatLink:
    """Claim the invited seat of ``link`` (``POST /api/tables/ID/claim``, docs/protocol.md,
    "Claiming an invite"): the same link with its new seat token.  A link that has a token is
    returned as it is.  Raises :class:`LinkError` with the server's answer (``409 claimed``,
    ``403 bad_invite``, ``404``)."""
    if link.token:
        return link
    req = urllib.request.Request(
        f"{link.base}/api/tables/{link.table}/claim",
        method="POST",
        data=json.dumps({"invite": link.invite}).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=_HTTP_TIMEOUT) as r:
            answer = json.loads(r.read())
    except urllib.error.HTTPError as exc:
        raise LinkError(f"the invite was refused: {_error_of(exc)}") from None
    return SeatLink(link.base, link.table, str(answer["token"]), None)


def download_record(link: SeatLink) -> str:
    """The table's public record (``GET /api/tables/ID/record?seat=TOKEN``, docs/record-format.md).
    Raises :class:`LinkError` with the server's answer (409 before the first deal)."""
    q = urllib.parse.urlencode({"seat": link.token or ""})
    try:
        with urllib.request.urlopen(f"{link.base}/api/tables/{link.table}/record?{q}", timeout=_HTTP_TIMEOUT) as r:
            return str(r.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        raise LinkError(f"the record was refused: {_error_of(exc)}") from None
