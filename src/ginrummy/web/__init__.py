"""The web table: an ASGI app (Starlette) serving the page and the game protocol.

Modules: :mod:`.app` (routes, :func:`create_app`), :mod:`.tables` (tables, seats, tokens,
computer moves), :mod:`.store` (SQLAlchemy), :mod:`.messages` (the typed protocol messages),
``static/`` (the front end: plain HTML, CSS and JavaScript, no build step).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["create_app"]


def create_app(database_url: str | None = None, bot_delay: float | None = None) -> Starlette:
    """See :func:`ginrummy.web.app.create_app`."""
    from .app import create_app as _create

    return _create(database_url, bot_delay=bot_delay)
