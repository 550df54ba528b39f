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

Create it with :func:`create_app`; it only wires: the routes are in :mod:`ginrummy.web.http`, the sockets
in :mod:`ginrummy.web.ws`, the services they share in :class:`~ginrummy.web.http.context.AppContext`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from functools import partial
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from ..analysis.review import DEFAULT_BUDGET_MS
from ..i18n import translate_error
from ..players.base import load_levels
from .community.accounts import CsrfGuard, RateLimiter
from .community.members import Players
from .community.table_scores import TableScores
from .db.store import Store, default_database_url
from .http.common import (
    HEAD_INCLUDE,
    STATIC_DIR,
    favicon,
    link_base,
    not_found,
    page,
    render_page,
    too_large,
    wrong_method,
)
from .http.context import AppContext
from .http.player_routes import SIGNUP_WINDOW, SIGNUPS_PER_ADDRESS, player_routes, replay_text, review_client
from .http.replay_review_routes import ReplayReviews, replay_review_routes
from .http.tables import table_routes
from .ops import Metrics, ops_routes
from .protocol.inbound import MAX_BODY_BYTES
from .protocol.replay_frames import MAX_RECORD_BYTES
from .room.follower import Follower
from .room.review_service import ReviewService
from .room.tables import TableManager
from .security import BodyLimit, install_log_redaction
from .texts import request_lang, web_translator
from .uploads import UploadGate
from .ws.game import game_socket
from .ws.lobby import lobby_socket

__all__ = ["create_app", "link_base", "render_page", "STATIC_DIR", "HEAD_INCLUDE", "MAX_FRAME_BYTES"]

MAX_FRAME_BYTES = 64 * 1024
"""WebSocket messages up to this size are read and answered (``too_large`` above
:data:`~ginrummy.web.protocol.inbound.MAX_MESSAGE_BYTES`, 2 KiB); larger ones are closed by the protocol
layer with code 1009 before they are held whole (``gin serve`` passes this as uvicorn's
``ws_max_size``).  It was 4 MiB: 200 connections each sending one such frame held 1.7 GB."""


def _lifespan(ctx: AppContext, warm_workers: bool) -> Any:
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # every computer level (the entry points too: OpenSpiel, RLCard) is imported before the
        # server answers, not on the event loop by the first request that lists them (seconds)
        load_levels()
        ctx.manager.load_all()
        ctx.players.restore()
        if warm_workers:
            ctx.manager.thinking.start()
        ctx.manager.start()
        if ctx.follower is not None:
            ctx.follower.start()
        try:
            yield
        finally:
            if ctx.follower is not None:
                await ctx.follower.stop()
            ctx.reviews.close()
            await ctx.manager.stop()
            ctx.store.close()

    return lifespan


def _routes(ctx: AppContext, metrics_allow: Sequence[str]) -> list[BaseRoute]:
    players, manager = ctx.players, ctx.manager
    return [
        Route("/", page("lobby.html")),
        Route("/rules", page("rules.html")),
        Route("/tips", page("tips.html")),
        Route("/scorekeeper", page("scorekeeper.html")),
        Route("/fair", page("fair.html")),
        Route("/favicon.ico", favicon),
        *table_routes(ctx),
        WebSocketRoute("/ws/table/{table_id}", partial(game_socket, ctx)),
        WebSocketRoute("/ws/lobby", partial(lobby_socket, ctx)),
        *player_routes(ctx),
        *replay_review_routes(
            ctx.replay_reviews,
            lambda request, rid: replay_text(players, manager, request, rid),
            ctx.review_budget_ms,
            lambda request: review_client(players, request),
        ),
        *ops_routes(ctx.store, ctx.metrics, metrics_allow, not_found),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
    ]


def _too_large_text(scope: Any, limit: int) -> str:
    return translate_error(too_large(limit), web_translator(request_lang(Request(scope))))


def create_app(
    database_url: str | None = None,
    bot_delay: float | None = None,
    review_budget_ms: float = DEFAULT_BUDGET_MS,
    tables_per_minute: int = 0,
    workers: int | None = None,
    warm_workers: bool = False,
    public_url: str | None = None,
    allowed_hosts: Sequence[str] | None = None,
    metrics: bool = False,
    metrics_allow: Sequence[str] = (),
    table_scores: bool = True,
) -> Starlette:
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
        table_scores: review each deal that ends at a table in the background and send its
            players' scores (``docs/protocol.md``, "The score"); ``False`` for tests whose
            transcripts must not carry these timed messages.

    Every stored table is loaded at start-up and its pending computer moves resume.
    """
    store = Store(database_url or default_database_url())
    manager = TableManager(store, bot_delay=bot_delay, workers=workers)
    reviews = ReviewService(review_budget_ms)  # the expert's reviews, in a worker process
    ctx = AppContext(
        store=store,
        manager=manager,
        players=Players(store.engine, manager),  # accounts, seats, ratings (docs/accounts.md)
        reviews=reviews,
        replay_reviews=ReplayReviews(reviews),  # the replay viewer's reviews, kept for reuse
        follower=Follower(manager) if store.is_postgresql else None,  # several servers on one PostgreSQL
        metrics=Metrics(manager, reviews) if metrics else None,  # the operator's view (web/ops.py)
        # a bound on the tables one address opens: each costs memory, a stored row, and (two
        # computer seats) moves made by this server
        opened=RateLimiter(tables_per_minute, 60.0) if tables_per_minute > 0 else None,
        public_url=public_url,
        review_budget_ms=review_budget_ms,
        signups=RateLimiter(SIGNUPS_PER_ADDRESS, SIGNUP_WINDOW),
    )
    if table_scores:  # the score after each deal, reviewed in the background (issue 32)
        ctx.scores = TableScores(manager, reviews, store.engine)
    if ctx.metrics is not None:
        manager.committer.on_commit = ctx.metrics.committed
    hosts = (
        []
        if allowed_hosts is None
        else [Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts), www_redirect=False)]
    )
    app = Starlette(
        routes=_routes(ctx, metrics_allow),
        lifespan=_lifespan(ctx, warm_workers),
        exception_handlers={404: not_found, 405: wrong_method},
        middleware=[
            Middleware(
                BodyLimit,
                limit=MAX_BODY_BYTES,
                message=_too_large_text,
                larger={"/api/replays": MAX_RECORD_BYTES, "/api/reviews": MAX_RECORD_BYTES},
            ),
            Middleware(CsrfGuard),
            # uploads: a few at once, read in chunks within a time (web/uploads.py)
            Middleware(
                UploadGate,
                limit=MAX_RECORD_BYTES,
                message=lambda scope, msg: translate_error(msg, web_translator(request_lang(Request(scope)))),
            ),
        ]
        + hosts,
    )
    app.state.ctx = ctx
    app.state.manager = manager
    app.state.players = ctx.players
    app.state.store = store
    app.state.follower = ctx.follower
    app.state.reviews = reviews
    app.state.replay_reviews = ctx.replay_reviews
    app.state.metrics = ctx.metrics
    install_log_redaction()
    return app
