"""Ratings on one ladder for people and computer levels, and the results of finished matches.

A rating is an OpenSkill (Weng-Lin) Plackett-Luce rating ``(mu, sigma)`` from the ``openskill``
package, starting at ``mu = 25``, ``sigma = 25/3``.  It is shown as one number,
:func:`display_rating` = ``round(1000 + 40 * (mu - 3 * sigma))`` (so a new player shows 1000),
and is **provisional** while ``sigma`` is above :data:`PROVISIONAL_SIGMA` (about the first ten
matches).

Tables (on the table store's engine, beside :mod:`ginrummy.web.community.accounts`):

``gin_results``
    one row per finished match that is recorded: ``id`` (the table id, or ``ladder-...``: the
    key, so a match is recorded once whatever happens), ``finished`` (ISO time, UTC),
    ``rated`` (0/1), ``source`` (``"table"`` or ``"ladder"``), ``public`` (0/1: its record may
    be replayed by anyone with the link).
``gin_result_players``
    one row per player of a recorded match: ``(result_id, player)`` key, ``account_id``
    (``NULL`` for a guest), ``opponent_id`` and ``opponent_name`` (the name at the table),
    ``finished``, ``outcome`` (``"win"``, ``"loss"``, ``"draw"``), the deal statistics
    (``deals``, ``deals_won``, ``knocks``, ``gins``, ``undercuts_made``,
    ``undercuts_suffered``, ``points``, ``knock_deadwood``: the sum of the knocker's deadwood
    over his knocks), for a rated match the rating before and after (``mu_before``,
    ``sigma_before``, ``mu_after``, ``sigma_after``), and how the match ended, ``ended``:
    ``"rules"``, ``"resigned"``, ``"left"`` (forfeited by leaving) or ``"time"`` (lost on
    time); the loser of a match not ended by the rules is the one who resigned or forfeited.

:func:`record_match` writes both and moves the ratings of a rated match, given an open
connection: the table manager calls it inside the transaction that stores the match's last
step, so a match is rated exactly once, also across a crash (R11.1, R12.5 decide who won).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Column, Float, Index, Integer, String, Table, and_, bindparam, insert, select, update
from sqlalchemy.engine import Connection

from ...match import Match
from ...rules import RuleSet
from .schema import accounts_t, metadata

__all__ = [
    "MODEL",
    "INITIAL",
    "PROVISIONAL_SIGMA",
    "REFERENCE_LADDER",
    "reference_ratings",
    "display_rating",
    "is_provisional",
    "ordinal",
    "MatchStats",
    "match_stats",
    "record_match",
    "results_t",
    "result_players_t",
    "rateable",
    "recompute_ratings",
]

MODEL = PlackettLuce()
"""The OpenSkill model (Weng-Lin, Plackett-Luce) with its default ``mu = 25``, ``sigma = 25/3``."""

PROVISIONAL_SIGMA = 6.5
"""A rating whose ``sigma`` is above this is provisional (marked ``?``)."""


def ordinal(mu: float, sigma: float) -> float:
    """The conservative estimate ``mu - 3 sigma`` that ladders sort by."""
    return mu - 3.0 * sigma


def display_rating(mu: float, sigma: float) -> int:
    """The one number shown for a rating: ``round(1000 + 40 * (mu - 3 sigma))``."""
    return round(1000 + 40 * ordinal(mu, sigma))


def is_provisional(sigma: float) -> bool:
    """Whether a rating with this ``sigma`` is still provisional (:data:`PROVISIONAL_SIGMA`)."""
    return sigma > PROVISIONAL_SIGMA


_R0 = MODEL.rating()
INITIAL = (float(_R0.mu), float(_R0.sigma), ordinal(float(_R0.mu), float(_R0.sigma)))
"""``(mu, sigma, ordinal)`` of a new account."""

results_t = Table(
    "gin_results",
    metadata,
    Column("id", String(60), primary_key=True),
    Column("finished", String(40), nullable=False),
    Column("rated", Integer, nullable=False),
    Column("source", String(10), nullable=False),
    Column("public", Integer, nullable=False),
)

result_players_t = Table(
    "gin_result_players",
    metadata,
    Column("result_id", String(60), primary_key=True),
    Column("player", Integer, primary_key=True, autoincrement=False),
    Column("account_id", Integer, nullable=True),
    Column("opponent_id", Integer, nullable=True),
    Column("opponent_name", String(80), nullable=False),
    Column("finished", String(40), nullable=False),
    Column("outcome", String(5), nullable=False),
    Column("deals", Integer, nullable=False),
    Column("deals_won", Integer, nullable=False),
    Column("knocks", Integer, nullable=False),
    Column("gins", Integer, nullable=False),
    Column("undercuts_made", Integer, nullable=False),
    Column("undercuts_suffered", Integer, nullable=False),
    Column("points", Integer, nullable=False),
    Column("knock_deadwood", Integer, nullable=False),
    Column("mu_before", Float, nullable=True),
    Column("sigma_before", Float, nullable=True),
    Column("mu_after", Float, nullable=True),
    Column("sigma_after", Float, nullable=True),
    Column("ended", String(10), nullable=True),
    Index("gin_result_players_account", "account_id", "finished"),
)


@dataclass(frozen=True)
class MatchStats:
    """One player's deal statistics in one match (two-hand): ``deals`` played (drawn deals
    included, R7), ``deals_won``, ``knocks`` (he knocked: won or undercut, R6.2/R6.3; gin not
    counted), ``gins`` (gin or big gin, R6.1/R6.5), ``undercuts_made`` (as defender, R6.3),
    ``undercuts_suffered`` (as knocker), ``points`` (deal points scored, bonuses of R11.3 not
    included), ``knock_deadwood`` (sum of his deadwood over his knocks)."""

    deals: int = 0
    deals_won: int = 0
    knocks: int = 0
    gins: int = 0
    undercuts_made: int = 0
    undercuts_suffered: int = 0
    points: int = 0
    knock_deadwood: int = 0


def match_stats(match: Match) -> list[MatchStats]:
    """Per player index of a two-hand ``match`` (finished or not), the :class:`MatchStats` of
    its deals that are over."""
    out = []
    for p in range(len(match.names)):
        s = dict(MatchStats().__dict__)
        for d in match.deals:
            r = d.result
            if r is None:
                continue
            s["deals"] += 1
            if p not in d.seat_players:
                continue
            seat = d.seat_players.index(p)
            if r.winner == seat:
                s["deals_won"] += 1
                s["points"] += r.points
            if r.knocker == seat and r.outcome in ("knock", "undercut"):
                s["knocks"] += 1
                if r.showdown is not None:
                    s["knock_deadwood"] += r.showdown.knocker.deadwood_value
                if r.outcome == "undercut":
                    s["undercuts_suffered"] += 1
            if r.knocker == seat and r.outcome in ("gin", "big_gin"):
                s["gins"] += 1
            if r.outcome == "undercut" and r.knocker is not None and r.knocker != seat:
                s["undercuts_made"] += 1
        out.append(MatchStats(**s))
    return out


def rateable(rules: RuleSet) -> bool:
    """Whether a match under ``rules`` may be rated: two-hand, a game to 100 or 250 (R11.1)
    or Hollywood (R12)."""
    return rules.players == 2 and (
        rules.scoring == "hollywood" or (rules.scoring == "game" and rules.target in (100, 250))
    )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _check_record(match: Match, accounts: Sequence[int | None], rated: bool, forfeit: int | None) -> None:
    """Raises the ``ValueError`` of :func:`record_match` for what it does not take."""
    if len(match.names) != 2:
        raise ValueError("record_match takes a two-hand match")
    if forfeit is not None and forfeit not in (0, 1):
        raise ValueError(f"forfeit is a player index, 0 or 1, not {forfeit!r}")
    if not match.finished and forfeit is None:
        raise ValueError("record_match takes a finished or forfeited match")
    if rated and any(a is None for a in accounts):
        raise ValueError("a rated match needs an account at both seats")


def record_match(
    conn: Connection,
    result_id: str,
    match: Match,
    accounts: Sequence[int | None],
    *,
    rated: bool,
    source: str = "table",
    public: bool = False,
    finished: str | None = None,
    forfeit: int | None = None,
    ended: str | None = None,
) -> dict[int, dict[str, Any]]:
    """Record the finished two-hand ``match`` as ``result_id`` on ``conn`` (inside the
    caller's transaction) and, when ``rated``, move both players' ratings with one OpenSkill
    update (ranks from the match winner; a match without a winner is a tie).

    ``accounts[p]`` is the account id at player index ``p`` (``None`` for a guest; a rated
    match needs both).  ``forfeit``: the player index (0 or 1) who forfeited the match on
    time (:mod:`ginrummy.web.room.clock`); the match is then over though not finished by the
    rules, the other player wins it, and the statistics count the deals that are over.
    ``ended``: how the match ended (``"resigned"`` or ``"left"`` with ``forfeit``); by
    default ``"rules"``, or ``"time"`` with ``forfeit``.
    Returns ``{player: {"before": n, "after": n, "change": n, "provisional": bool}}`` for a
    rated match (display numbers), else ``{}``.  Raises ``sqlalchemy.exc.IntegrityError`` if
    ``result_id`` is recorded already (the transaction then fails as a whole) and
    ``ValueError`` for a match that is neither finished nor forfeited, not two-hand, a
    ``forfeit`` that is not 0 or 1, or a rated match with a guest.
    """
    _check_record(match, accounts, rated, forfeit)
    when = finished or _now()
    how = ended or ("rules" if forfeit is None else "time")
    winner = match.winner if forfeit is None else 1 - forfeit
    stats = match_stats(match)
    conn.execute(
        insert(results_t).values(id=result_id, finished=when, rated=int(rated), source=source, public=int(public))
    )
    before: list[tuple[float, float] | None] = [None, None]
    after: list[tuple[float, float] | None] = [None, None]
    if rated:
        rows = {
            r.id: r
            for r in conn.execute(
                select(accounts_t.c.id, accounts_t.c.mu, accounts_t.c.sigma).where(
                    accounts_t.c.id.in_([a for a in accounts if a is not None])
                )
            )
        }
        for p, a in enumerate(accounts):
            before[p] = (float(rows[a].mu), float(rows[a].sigma))
        ranks: list[float] = [0, 0] if winner is None else [0 if p == winner else 1 for p in range(2)]
        teams = [[MODEL.create_rating([mu, sigma])] for mu, sigma in before]  # type: ignore[misc]
        new = MODEL.rate(teams, ranks=ranks)
        for p, a in enumerate(accounts):
            mu, sigma = float(new[p][0].mu), float(new[p][0].sigma)
            after[p] = (mu, sigma)
            conn.execute(
                update(accounts_t)
                .where(accounts_t.c.id == a)
                .values(mu=mu, sigma=sigma, ordinal=ordinal(mu, sigma), matches=accounts_t.c.matches + 1)
            )
    for p in range(2):
        o = 1 - p
        outcome = "draw" if winner is None else ("win" if winner == p else "loss")
        b, f = before[p], after[p]
        conn.execute(
            insert(result_players_t).values(
                result_id=result_id,
                player=p,
                account_id=accounts[p],
                opponent_id=accounts[o],
                opponent_name=match.names[o],
                finished=when,
                outcome=outcome,
                **stats[p].__dict__,
                mu_before=None if b is None else b[0],
                sigma_before=None if b is None else b[1],
                mu_after=None if f is None else f[0],
                sigma_after=None if f is None else f[1],
                ended=how,
            )
        )
    out: dict[int, dict[str, Any]] = {}
    if rated:
        for p in range(2):
            b, f = before[p], after[p]
            assert b is not None and f is not None
            out[p] = {
                "before": display_rating(*b),
                "after": display_rating(*f),
                "change": display_rating(*f) - display_rating(*b),
                "provisional": is_provisional(f[1]),
            }
    return out


def rating_change(conn: Connection, result_id: str) -> dict[int, dict[str, Any]]:
    """The rating change of a recorded rated match, as :func:`record_match` returns it
    (``{}`` for an unrated or unknown match)."""
    rows = conn.execute(select(result_players_t).where(result_players_t.c.result_id == result_id)).all()
    out: dict[int, dict[str, Any]] = {}
    for r in rows:
        if r.mu_before is None or r.mu_after is None:
            continue
        b, f = display_rating(r.mu_before, r.sigma_before), display_rating(r.mu_after, r.sigma_after)
        out[int(r.player)] = {"before": b, "after": f, "change": f - b, "provisional": is_provisional(r.sigma_after)}
    return out


REFERENCE_LADDER = "reference_ladder.json"
"""The reference ladder shipped beside this module: ``{"command", "games", "seed", "levels":
{level: {"mu", "sigma", "rating"}}}``, written by ``scripts/build_reference_ladder.py`` from
``gin ladder --games 60 --seed 1 --json`` on a new database (``docs/accounts.md``)."""


def reference_ratings() -> dict[str, tuple[float, float]]:
    """The reference ladder's ``level -> (mu, sigma)`` (:data:`REFERENCE_LADDER`): what a new
    web server's computer levels start from (:attr:`~ginrummy.web.community.accounts.Accounts.computer_start`), so that a first
    rated match against ``novice`` moves the ratings as against a known opponent, not a new
    one.  Empty when the file is missing (a source tree without it)."""
    from importlib.resources import files

    try:
        data = json.loads(files(__package__).joinpath(REFERENCE_LADDER).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {level: (float(v["mu"]), float(v["sigma"])) for level, v in data["levels"].items()}


def recompute_ratings(conn: Connection) -> int:
    """Every rating computed again from the recorded rated matches (``gin_results.rated = 1``)
    on ``conn`` (inside the caller's transaction), oldest first (by ``finished``, then id): each
    account starts at :data:`INITIAL`, each match is one OpenSkill update as in
    :func:`record_match`, and each match's ``mu/sigma_before/after`` are written again (``NULL``
    for a match no longer rated: a voided one).  Deterministic: the same rows give the same
    ratings.  Returns the number of rated matches replayed."""
    mu0, sigma0, ord0 = INITIAL
    conn.execute(update(accounts_t).values(mu=mu0, sigma=sigma0, ordinal=ord0, matches=0))
    conn.execute(
        update(result_players_t)
        .where(result_players_t.c.result_id.in_(select(results_t.c.id).where(results_t.c.rated == 0)))
        .values(mu_before=None, sigma_before=None, mu_after=None, sigma_after=None)
    )
    rows = conn.execute(
        select(result_players_t)
        .join(results_t, results_t.c.id == result_players_t.c.result_id)
        .where(results_t.c.rated == 1)
        .order_by(results_t.c.finished, results_t.c.id, result_players_t.c.player)
    ).all()
    by_match: dict[str, list[Any]] = {}
    for r in rows:
        by_match.setdefault(r.result_id, []).append(r)
    state: dict[int, tuple[float, float, int]] = {}
    changes: list[dict[str, Any]] = []
    for rid, ps in by_match.items():
        if len(ps) != 2 or any(p.account_id is None for p in ps):  # pragma: no cover - rated needs both
            continue
        before = [state.get(int(p.account_id), (mu0, sigma0, 0)) for p in ps]
        ranks: list[float] = [0 if p.outcome in ("win", "draw") else 1 for p in ps]
        new = MODEL.rate([[MODEL.create_rating([b[0], b[1]])] for b in before], ranks=ranks)
        for i, p in enumerate(ps):
            mu, sigma = float(new[i][0].mu), float(new[i][0].sigma)
            state[int(p.account_id)] = (mu, sigma, before[i][2] + 1)
            changes.append({"rid": rid, "p": p.player, "mb": before[i][0], "sb": before[i][1], "ma": mu, "sa": sigma})
    rp = result_players_t
    if changes:  # one statement, many rows (executemany): 40,000 rows in one go, not one by one
        conn.execute(
            update(rp)
            .where(and_(rp.c.result_id == bindparam("rid"), rp.c.player == bindparam("p")))
            .values(
                mu_before=bindparam("mb"),
                sigma_before=bindparam("sb"),
                mu_after=bindparam("ma"),
                sigma_after=bindparam("sa"),
            ),
            changes,
        )
    if state:
        conn.execute(
            update(accounts_t)
            .where(accounts_t.c.id == bindparam("aid"))
            .values(mu=bindparam("m"), sigma=bindparam("s"), ordinal=bindparam("o"), matches=bindparam("n")),
            [{"aid": a, "m": mu, "s": sigma, "o": ordinal(mu, sigma), "n": n} for a, (mu, sigma, n) in state.items()],
        )
    return len(by_match)
