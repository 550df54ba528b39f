"""The app context: everything the route handlers and the sockets of one app share, passed to
them explicitly (``handler(ctx, request)``) instead of captured by closures."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..community.accounts import RateLimiter
from ..community.members import Players
from ..community.puzzles import PuzzleRoom
from ..contests.daily import DailyRoom
from ..contests.duels import DuelRoom
from ..contests.tournaments import Tournaments
from ..contests.turns import Turns
from ..db.store import Store
from ..learning.table_scores import TableScores
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
        tournaments: the room's tournaments (docs/compete.md).
        reviews: the expert's reviews at the table, in a worker process.
        replay_reviews: the replay viewer's reviews, kept for reuse.
        follower: the listener of other servers' steps (PostgreSQL only), else ``None``.
        metrics: the operator's metrics (``gin serve --metrics``), else ``None``.
        opened: the bound on tables one address opens a minute, else ``None``.
        public_url: ``gin serve --public-url`` (the start of every link), else ``None``.
        review_budget_ms: the default budget per decision of a review.
        signups: the bound on sign-ups from one address (``POST /api/account``).
        puzzles: the puzzle room (``/api/puzzles``); puzzle_limit: its bound per address.
        daily: the daily deal (web/contests/daily.py).
        duels: the friend challenges on the same deals (web/contests/duels.py).
        link_bases: each game connection's ``send`` -> the start of its links (a rematch's).
        scores: the tables' performance scores, reviewed in the background (issue 32), else ``None``.
        turns: the turn-based tables' "your turn" lists (web/contests/turns.py); made from
            ``manager`` when not given.
    """

    store: Store
    manager: TableManager
    players: Players
    tournaments: Tournaments
    reviews: ReviewService
    replay_reviews: ReplayReviews
    follower: Follower | None
    metrics: Metrics | None
    opened: RateLimiter | None
    public_url: str | None
    review_budget_ms: float
    signups: RateLimiter
    puzzles: PuzzleRoom
    puzzle_limit: RateLimiter
    daily: DailyRoom | None = None
    duels: DuelRoom | None = None
    link_bases: dict[Any, str] = field(default_factory=dict)
    scores: TableScores | None = None
    turns: Turns = None  # type: ignore[assignment]  # set in __post_init__

    def __post_init__(self) -> None:
        if self.turns is None:
            self.turns = Turns(self.manager)
