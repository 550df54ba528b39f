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
* ``GET /puzzles`` and ``/api/puzzles/...``: the puzzle room (:mod:`ginrummy.web.http.puzzle_routes`).
* ``GET /fair``: the fair-deal page (the scheme in plain words; checks a record in the browser).
* ``POST /api/sheet``: the scorekeeper (``ScoreSheet`` of ``gin sheet``).
* ``GET /api/i18n`` and ``GET /api/i18n.js``: the browser catalog of the request's language
  (:func:`ginrummy.web.texts.web_catalog`) as JSON, or as a script setting
  ``window.GIN_I18N`` (loaded by every page before its own scripts).
* ``GET /daily`` and ``/api/daily/...``: the daily deal (:mod:`ginrummy.web.http.daily_routes`).
* ``GET /api/turns`` and ``POST /api/turns/{id}/seat``: the turn-based tables' "your turn" list
  (:mod:`ginrummy.web.http.turn_routes`).
* ``GET /duels`` and ``/api/duels/...``: friend challenges (:mod:`ginrummy.web.http.duel_routes`).
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
from collections.abc import AsyncIterator, Callable, Sequence
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
from .community.accounts import Accounts, CsrfGuard, RateLimiter
from .community.fairplay import DEFAULT_PAIR_ALLOWANCE
from .community.members import Players
from .community.puzzles import PuzzleRoom
from .contests.daily import DailyRoom
from .contests.duels import DuelRoom
from .contests.tournaments import Tournaments
from .db.store import Store, default_database_url
from .http.bot_accounts import bot_account_routes
from .http.bot_api import BotService, bot_api_routes
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
from .http.daily_routes import daily_routes
from .http.duel_routes import duel_routes
from .http.moderation_routes import moderation_routes
from .http.player_routes import SIGNUP_WINDOW, SIGNUPS_PER_ADDRESS, player_routes, replay_text, review_client
from .http.puzzle_routes import new_limiter, puzzle_routes
from .http.replay_review_routes import ReplayReviews, replay_review_routes
from .http.tables import table_routes
from .http.tournament_routes import tournament_routes
from .http.turn_routes import turn_routes
from .learning.table_scores import TableScores
from .ops import Metrics, ops_routes
from .protocol.inbound import MAX_BODY_BYTES
from .protocol.replay_frames import MAX_RECORD_BYTES
from .room.autoplay import DEFAULT_LEAVE_GRACE
from .room.follower import Follower
from .room.review_service import ReviewService
from .room.tables import TableManager
from .security import BodyLimit, install_log_redaction
from .texts import request_lang, web_translator
from .uploads import UploadGate
from .ws.game import game_socket
from .ws.lobby import lobby_socket
from .ws.tournament import tournament_socket

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
        ctx.tournaments.start()  # pairs, opens tables, resumes what a restart left (issue 33)
        if ctx.follower is not None:
            ctx.follower.start()
        try:
            yield
        finally:
            if ctx.follower is not None:
                await ctx.follower.stop()
            ctx.reviews.close()
            await ctx.tournaments.stop()
            await ctx.manager.stop()
            ctx.store.close()

    return lifespan


def _routes(ctx: AppContext, metrics_allow: Sequence[str], bots: BotService) -> list[BaseRoute]:
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
        WebSocketRoute("/ws/tournament/{tid}", partial(tournament_socket, ctx)),
        *player_routes(ctx),
        *puzzle_routes(ctx),
        *moderation_routes(ctx),
        *daily_routes(ctx),
        *duel_routes(ctx),
        *tournament_routes(ctx),
        *turn_routes(ctx),
        *bot_api_routes(bots),  # the bot API (docs/bot-api.md)
        *bot_account_routes(bots),
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


def _middleware(allowed_hosts: Sequence[str] | None) -> list[Middleware]:
    """The app's middleware, outermost first: the body limit, the CSRF guard, the upload gate
    and, with ``allowed_hosts``, the ``Host`` check (see :func:`create_app`)."""
    hosts = (
        []
        if allowed_hosts is None
        else [Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts), www_redirect=False)]
    )
    return [
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
    ] + hosts


def create_app(
    database_url: str | None = None,
    bot_delay: float | None = None,
    review_budget_ms: float = DEFAULT_BUDGET_MS,
    tables_per_minute: int = 0,
    leave_grace: float = DEFAULT_LEAVE_GRACE,
    pair_allowance: int = DEFAULT_PAIR_ALLOWANCE,
    workers: int | None = None,
    warm_workers: bool = False,
    public_url: str | None = None,
    allowed_hosts: Sequence[str] | None = None,
    metrics: bool = False,
    metrics_allow: Sequence[str] = (),
    address_key: bytes | None = None,
    bots_rated_together: bool = False,
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
        leave_grace, pair_allowance: ``gin serve --leave-grace``, ``--pair-allowance`` (docs/accounts.md).
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
        address_key: the secret key of the sign-in addresses' hashes (farming flags,
            docs/accounts.md; ``gin serve`` reads ``GIN_ADDRESS_KEY``); ``None``: a random key
            made once and kept in the database.
        bots_rated_together: whether two bot accounts may play a rated match (docs/bot-api.md;
            ``gin serve --bots-rated-together``).
        table_scores: review each deal that ends at a table in the background and send its
            players' scores (``docs/protocol.md``, "The score"); ``False`` for tests whose
            transcripts must not carry these timed messages.

    Every stored table is loaded at start-up and its pending computer moves resume.
    """
    store = Store(database_url or default_database_url())
    manager = TableManager(store, bot_delay=bot_delay, workers=workers)
    manager.leave_grace = leave_grace
    reviews = ReviewService(review_budget_ms)  # the expert's reviews, in a worker process
    players = Players(
        store.engine, manager, Accounts(store.engine, address_key=address_key), pair_allowance=pair_allowance
    )  # accounts, seats, ratings (docs/accounts.md)
    ctx = AppContext(
        store=store,
        manager=manager,
        players=players,
        tournaments=Tournaments(manager, players),  # Swiss tournaments (docs/compete.md)
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
        puzzles=PuzzleRoom(store.engine),  # the shipped puzzle set and its ratings (docs/puzzles.md)
        puzzle_limit=new_limiter(),
        daily=DailyRoom(store.engine, manager),  # the daily deal (docs/compete.md)
    )
    daily = ctx.daily
    assert daily is not None
    ctx.duels = DuelRoom(daily)  # friend challenges on the same deals (docs/compete.md)
    ctx.players.daily = ctx.daily  # a daily game's replay is shown by its own rule
    ctx.players.duels = ctx.duels  # and a challenge game's by its own
    if table_scores:  # the score after each deal, reviewed in the background (issue 32)
        ctx.scores = TableScores(manager, reviews, store.engine)
    _on_changed(manager, ctx.tournaments.table_changed)  # a tournament's table over: its step now
    if ctx.metrics is not None:
        manager.committer.on_commit = ctx.metrics.committed
    bots = BotService(ctx, bots_rated_together)
    app = Starlette(
        routes=_routes(ctx, metrics_allow, bots),
        lifespan=_lifespan(ctx, warm_workers),
        exception_handlers={404: not_found, 405: wrong_method},
        middleware=_middleware(allowed_hosts),
    )
    _expose(app, ctx, bots)
    install_log_redaction()
    return app


def _on_changed(manager: TableManager, also: Callable[[Any], None]) -> None:
    """Call ``also`` after each change of a table, after what ``manager.on_changed`` calls."""
    first = manager.on_changed

    def changed(table: Any) -> None:
        if first is not None:
            first(table)
        also(table)

    manager.on_changed = changed


def _expose(app: Starlette, ctx: AppContext, bots: Any) -> None:
    """The services on ``app.state`` by name, for tests, benchmarks and embedders
    (``app.state.manager``, ``.players``, ``.store``...): the handlers use ``ctx``."""
    app.state.ctx = ctx
    app.state.bots = bots
    for name in ("manager", "players", "store", "follower", "reviews", "replay_reviews", "metrics", "daily", "duels"):
        setattr(app.state, name, getattr(ctx, name))
