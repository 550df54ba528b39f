"""The reading queries of the leaderboard and the player pages (:mod:`ginrummy.web.community.members`),
built once over the accounts and recorded results tables."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, bindparam, case, func, select

from .accounts import accounts_t
from .ratings import result_players_t

__all__ = ["statements"]


def statements(recent_limit: int) -> tuple[Any, Any, Any, Any, Any]:
    """The reading queries of the leaderboard and the player pages, built once (only their
    parameters change from call to call): ``(board, account, sums, recent, history)``, the
    recent matches limited to ``recent_limit``."""
    a, rp = accounts_t, result_players_t
    # the page's ids from the covering index (gin_accounts_board), then their rows
    page = (
        select(a.c.id, a.c.ordinal)
        .where(and_(a.c.deleted == 0, a.c.matches > 0))
        .order_by(a.c.ordinal.desc(), a.c.id.desc())
        .limit(bindparam("limit"))
        .offset(bindparam("offset"))
        .subquery()
    )
    board = (
        select(a.c.name, a.c.kind, a.c.mu, a.c.sigma, a.c.matches)
        .join(page, page.c.id == a.c.id)
        .order_by(page.c.ordinal.desc(), page.c.id.desc())
    )
    account = select(a).where(and_(a.c.name_key == bindparam("key"), a.c.deleted == 0))
    mine = rp.c.account_id == bindparam("account")
    sums = select(
        func.count(),
        func.sum(case((rp.c.outcome == "win", 1), else_=0)),
        func.sum(rp.c.deals),
        func.sum(rp.c.deals_won),
        func.sum(rp.c.knocks),
        func.sum(rp.c.gins),
        func.sum(rp.c.undercuts_made),
        func.sum(rp.c.undercuts_suffered),
        func.sum(rp.c.points),
        func.sum(rp.c.knock_deadwood),
    ).where(mine)
    opp = accounts_t.alias("opp")
    recent = (
        select(
            rp.c.result_id,
            rp.c.outcome,
            rp.c.finished,
            rp.c.opponent_name,
            opp.c.name.label("opp_name"),
            opp.c.kind.label("opp_kind"),
            opp.c.deleted.label("opp_deleted"),
            rp.c.opponent_id,
        )
        .select_from(rp.outerjoin(opp, opp.c.id == rp.c.opponent_id))
        .where(mine)
        .order_by(rp.c.finished.desc(), rp.c.result_id.desc())
        .limit(recent_limit)
    )
    history = (
        select(rp.c.finished, rp.c.mu_after, rp.c.sigma_after)
        .where(and_(mine, rp.c.mu_after.is_not(None)))
        .order_by(rp.c.finished, rp.c.result_id)
    )
    return board, account, sums, recent, history
