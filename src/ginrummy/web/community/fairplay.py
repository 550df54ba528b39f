"""Fair play on the ladder (issue 31, part 1; docs/accounts.md, "Fair play"), read from the
recorded matches (``gin_result_players``, :mod:`ginrummy.web.community.ratings`):

* the **completion rate** of an account: its matches finished by the rules, resigned by it,
  and forfeited by it (by leaving, or on time);
* the **refusal of rated play** for a while after :data:`FORFEITS_LIMIT` forfeits within
  :data:`FORFEIT_WINDOW` seconds: until the oldest of them is that old;
* the **daily pair allowance**: rated matches between the same two accounts move the ratings
  at most ``allowance`` times in :data:`PAIR_WINDOW` seconds; the rest are played unrated.

Every function takes an open connection and the time (``now``, seconds since the epoch):
nothing here reads the clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.engine import Connection, Engine

from .ratings import result_players_t

__all__ = [
    "FORFEITS_LIMIT",
    "FORFEIT_WINDOW",
    "PAIR_WINDOW",
    "DEFAULT_PAIR_ALLOWANCE",
    "FORFEITED",
    "completion",
    "refused_until",
    "pair_rated_count",
    "counts_for_rating",
    "has_finished_a_match",
    "iso_time",
    "FairPlay",
]

FORFEITS_LIMIT = 3
"""Forfeits within :data:`FORFEIT_WINDOW` after which an account is refused rated play."""

FORFEIT_WINDOW = 24 * 3600.0
"""Seconds over which forfeits are counted (and the refusal lasts from the oldest of them)."""

PAIR_WINDOW = 24 * 3600.0
"""Seconds over which the rated matches of one pair of accounts are counted."""

DEFAULT_PAIR_ALLOWANCE = 3
"""Rated matches between the same two accounts that move the ratings in :data:`PAIR_WINDOW`
(``gin serve --pair-allowance``)."""

FORFEITED = ("left", "time")
"""The ways a match ends that count as a forfeit of its loser (a resignation does not)."""


def iso_time(t: float) -> str:
    """``t`` (seconds since the epoch) as the recorded matches write times (ISO 8601, UTC, seconds)."""
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


def completion(conn: Connection, account_id: int) -> dict[str, Any]:
    """``{"matches", "by_rules", "resigned", "forfeited", "opponent_gave_up", "rate"}`` of
    ``account_id``'s recorded matches: how many in all, finished by the rules (those recorded
    before how a match ended was kept count here too), resigned by him, forfeited by him (by
    leaving or on time), won because the opponent resigned or forfeited (so the four add up to
    ``matches``), and ``rate``: the share he did not forfeit (0.0 to 1.0, 3 decimals; ``None``
    with no match)."""
    rp = result_players_t
    mine_lost = and_(rp.c.account_id == account_id, rp.c.outcome == "loss")
    row = conn.execute(
        select(
            func.count(),
            func.sum(case((or_(rp.c.ended == "rules", rp.c.ended.is_(None)), 1), else_=0)),
            func.sum(case((and_(mine_lost, rp.c.ended == "resigned"), 1), else_=0)),
            func.sum(case((and_(mine_lost, rp.c.ended.in_(FORFEITED)), 1), else_=0)),
            func.sum(case((and_(rp.c.outcome != "loss", rp.c.ended.in_(("resigned", *FORFEITED))), 1), else_=0)),
        ).where(rp.c.account_id == account_id)
    ).one()
    matches, by_rules, resigned, forfeited, gave_up = (int(x or 0) for x in row)
    return {
        "matches": matches,
        "by_rules": by_rules,
        "resigned": resigned,
        "forfeited": forfeited,
        "opponent_gave_up": gave_up,
        "rate": round((matches - forfeited) / matches, 3) if matches else None,
    }


def refused_until(conn: Connection, account_id: int, now: float) -> float | None:
    """When ``account_id`` may play rated again (seconds since the epoch), if he forfeited
    :data:`FORFEITS_LIMIT` or more matches in the last :data:`FORFEIT_WINDOW` seconds: the
    time the oldest of the last :data:`FORFEITS_LIMIT` is that old; else ``None``."""
    rp = result_players_t
    rows = conn.execute(
        select(rp.c.finished)
        .where(
            and_(
                rp.c.account_id == account_id,
                rp.c.outcome == "loss",
                rp.c.ended.in_(FORFEITED),
                rp.c.finished > iso_time(now - FORFEIT_WINDOW),
            )
        )
        .order_by(rp.c.finished.desc())
        .limit(FORFEITS_LIMIT)
    ).all()
    if len(rows) < FORFEITS_LIMIT:
        return None
    return datetime.fromisoformat(rows[-1].finished).timestamp() + FORFEIT_WINDOW


def pair_rated_count(conn: Connection, a: int, b: int, now: float) -> int:
    """How many rated matches accounts ``a`` and ``b`` played each other in the last
    :data:`PAIR_WINDOW` seconds (those that moved the ratings)."""
    rp = result_players_t
    return int(
        conn.execute(
            select(func.count()).where(
                and_(
                    rp.c.account_id == a,
                    rp.c.opponent_id == b,
                    rp.c.mu_after.is_not(None),
                    rp.c.finished > iso_time(now - PAIR_WINDOW),
                )
            )
        ).scalar()
        or 0
    )


def counts_for_rating(conn: Connection, a: int, b: int, allowance: int, now: float) -> bool:
    """Whether a rated match between ``a`` and ``b`` ending now moves the ratings: fewer than
    ``allowance`` of theirs did in the last :data:`PAIR_WINDOW` seconds."""
    return pair_rated_count(conn, a, b, now) < allowance


def has_finished_a_match(conn: Connection, account_id: int) -> bool:
    """Whether ``account_id`` has a recorded match (of any ending): a new account has none."""
    rp = result_players_t
    return conn.execute(select(rp.c.result_id).where(rp.c.account_id == account_id).limit(1)).first() is not None


class FairPlay:
    """The fair-play questions the tables and the lobby ask of ``engine``'s recorded matches,
    with ``allowance`` (``gin serve --pair-allowance``) and the clock ``now`` (seconds since
    the epoch): the functions above, each on a connection of its own where none is given."""

    def __init__(self, engine: Engine, allowance: int = DEFAULT_PAIR_ALLOWANCE, now: Callable[[], float] = time.time):
        self.engine, self.allowance, self.now = engine, allowance, now

    def counts(self, conn: Connection, accounts: list[int | None], computer: bool) -> bool:
        """Whether a rated match of ``accounts`` (two) moves the ratings now: always with a
        computer seat or a guest, else within the pair's daily allowance (:func:`counts_for_rating`)."""
        a, b = accounts
        if a is None or b is None or computer:
            return True
        return counts_for_rating(conn, a, b, self.allowance, self.now())

    def refused_until(self, account_id: int) -> float | None:
        """When ``account_id`` may play rated again after too many forfeits (:func:`refused_until`)."""
        with self.engine.connect() as conn:
            return refused_until(conn, account_id, self.now())

    def may_chat_in_lobby(self, account_id: int) -> bool:
        """Whether ``account_id`` may chat in the lobby: once he has finished a match."""
        with self.engine.connect() as conn:
            return has_finished_a_match(conn, account_id)
