"""The app context: everything the route handlers and the sockets of one app share, passed to
them explicitly (``handler(ctx, request)``) instead of captured by closures."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..community.accounts import RateLimiter
from ..community.members import Players
from ..community.table_scores import TableScores
from ..db.store import Store
from ..ops import Metrics
from ..room.follower import Follower
from ..room.review_service import ReviewService
from ..room.tables import TableManager
from .replay_review_routes import ReplayReviews

__all__ = ["AppContext"]


@dataclass
class AppContext:
    """One app's services and settings (made by :func:`~ginrummy.web.app.create_app`).

    Attributes:
        store: the database.
        manager: the tables.
        players: accounts, seats at rated tables, ratings (docs/accounts.md).
        reviews: the expert's reviews at the table, in a worker process.
        replay_reviews: the replay viewer's reviews, kept for reuse.
        follower: the listener of other servers' steps (PostgreSQL only), else ``None``.
        metrics: the operator's metrics (``gin serve --metrics``), else ``None``.
        opened: the bound on tables one address opens a minute, else ``None``.
        public_url: ``gin serve --public-url`` (the start of every link), else ``None``.
        review_budget_ms: the default budget per decision of a review.
        signups: the bound on sign-ups from one address (``POST /api/account``).
        link_bases: each game connection's ``send`` -> the start of its links (a rematch's).
        scores: the tables' performance scores, reviewed in the background (issue 32), else ``None``.
    """

    store: Store
    manager: TableManager
    players: Players
    reviews: ReviewService
    replay_reviews: ReplayReviews
    follower: Follower | None
    metrics: Metrics | None
    opened: RateLimiter | None
    public_url: str | None
    review_budget_ms: float
    signups: RateLimiter
    link_bases: dict[Any, str] = field(default_factory=dict)
    scores: TableScores | None = None
