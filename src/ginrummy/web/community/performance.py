"""The performance scores kept per account (issue 32): ``gin_performance``, one row per player
of a recorded match (``gin_result_players``) whose score the table's background review made
(:mod:`ginrummy.web.table_scores`), and the trend the player page draws (``GET
/api/players/NAME``, ``"performance"``; ``docs/accounts.md``).

The score is :func:`ginrummy.analysis.performance.performance` of the whole match: ``score``
(0..100, higher is better), ``loss_per_decision`` (percentage points of the chance to win),
the mark counts and "played like a player rated about ``rating`` (``low`` to ``high``)".
Made by the migration ``0003_performance`` (and ``metadata.create_all`` for a new store).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, Float, Index, Integer, String, Table, and_, bindparam, insert, select
from sqlalchemy.engine import Connection, Engine

from .ratings import result_players_t
from .schema import metadata

__all__ = ["performance_t", "store_scores", "score_history", "HISTORY"]

HISTORY = 50
"""How many of a player's latest match scores his page draws."""

performance_t = Table(
    "gin_performance",
    metadata,
    Column("result_id", String(60), primary_key=True),
    Column("player", Integer, primary_key=True, autoincrement=False),
    Column("account_id", Integer, nullable=False),
    Column("finished", String(40), nullable=False),
    Column("decisions", Integer, nullable=False),
    Column("loss_per_decision", Float, nullable=False),
    Column("score", Float, nullable=False),
    Column("inaccuracies", Integer, nullable=False),
    Column("mistakes", Integer, nullable=False),
    Column("blunders", Integer, nullable=False),
    Column("rating", Integer, nullable=True),
    Column("rating_low", Integer, nullable=True),
    Column("rating_high", Integer, nullable=True),
    Index("gin_performance_account", "account_id", "finished"),
)

_LATEST = (
    select(performance_t)
    .where(performance_t.c.account_id == bindparam("account"))
    .order_by(performance_t.c.finished.desc(), performance_t.c.result_id.desc())
    .limit(HISTORY)
)


def store_scores(engine: Engine, result_id: str, scores: list[dict[str, Any]]) -> int:
    """Keep the match score of each player of the recorded match ``result_id`` who has an
    account (a signed-in person or a computer level): ``scores[p]`` is player ``p``'s
    :meth:`~ginrummy.analysis.performance.Performance.to_dict`.  A match that is not recorded
    (only guests) keeps nothing; a score kept already is kept once.  Returns the rows written.
    Blocking: call it off the event loop."""
    rp = result_players_t
    written = 0
    with engine.begin() as conn:
        rows = conn.execute(
            select(rp.c.player, rp.c.account_id, rp.c.finished).where(
                and_(rp.c.result_id == result_id, rp.c.account_id.is_not(None))
            )
        ).all()
        for r in rows:
            p = int(r.player)
            if not 0 <= p < len(scores) or _kept(conn, result_id, p):
                continue
            s = scores[p]
            rating = s.get("rating") or {}
            conn.execute(
                insert(performance_t).values(
                    result_id=result_id,
                    player=p,
                    account_id=int(r.account_id),
                    finished=r.finished,
                    decisions=int(s["decisions"]),
                    loss_per_decision=float(s["loss_per_decision"]),
                    score=float(s["score"]),
                    inaccuracies=int(s["inaccuracies"]),
                    mistakes=int(s["mistakes"]),
                    blunders=int(s["blunders"]),
                    rating=rating.get("rating"),
                    rating_low=rating.get("low"),
                    rating_high=rating.get("high"),
                )
            )
            written += 1
    return written


def _kept(conn: Connection, result_id: str, player: int) -> bool:
    t = performance_t
    q = select(t.c.player).where(and_(t.c.result_id == result_id, t.c.player == player))
    return conn.execute(q).first() is not None


def score_history(conn: Connection, account_id: int) -> list[dict[str, Any]]:
    """The account's latest :data:`HISTORY` match scores, oldest first: ``[{"id", "date",
    "score", "loss_per_decision", "decisions", "inaccuracies", "mistakes", "blunders",
    "rating"}]`` (``rating``: ``{"rating", "low", "high"}`` or ``None``)."""
    rows = conn.execute(_LATEST, {"account": account_id}).all()
    return [
        {
            "id": r.result_id,
            "date": r.finished,
            "score": round(float(r.score), 1),
            "loss_per_decision": round(float(r.loss_per_decision), 3),
            "decisions": int(r.decisions),
            "inaccuracies": int(r.inaccuracies),
            "mistakes": int(r.mistakes),
            "blunders": int(r.blunders),
            "rating": None
            if r.rating is None
            else {"rating": int(r.rating), "low": int(r.rating_low), "high": int(r.rating_high)},
        }
        for r in reversed(rows)
    ]
