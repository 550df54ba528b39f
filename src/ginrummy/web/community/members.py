"""The players' side of the web server: who sits at a table, rated tables, the ladder, the
leaderboard and player statistics.

:class:`Players` joins :class:`~ginrummy.web.community.accounts.Accounts` and
:mod:`~ginrummy.web.community.ratings` to the :class:`~ginrummy.web.room.tables.TableManager`:

* a table opened with ``"rated": true`` (two seats, a game to 100/250 or Hollywood, every human
  seat a signed-in person) is kept in ``gin_rated_tables``;
* the manager's ``on_finish`` hook returns, for the step that ends a match (by the rules, or
  by a forfeit on time: the clock's third timeout in a row), a function that
  :func:`~ginrummy.web.community.ratings.record_match` runs in the step's own transaction; matches with
  at least one signed-in person are recorded (for statistics and replays), rated tables also
  move the ratings;
* :meth:`Players.leaderboard` and :meth:`Players.player` answer the JSON of
  ``GET /api/leaderboard`` and ``GET /api/players/NAME`` (``docs/accounts.md``).
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Column, Integer, String, Table, and_, insert, select
from sqlalchemy.engine import Connection, Engine

from ...actions import Action
from ..db.store import StepKind
from ..levels import seat_level
from ..room.tables import Table as GameTable
from ..room.tables import TableManager
from ..texts import W_
from .accounts import Accounts, accounts_t, metadata, seat_accounts_t, typed_name_key
from .fairplay import DEFAULT_PAIR_ALLOWANCE, FairPlay, completion, iso_time, refused_until
from .performance import score_history
from .queries import statements
from .ratings import (
    display_rating,
    is_provisional,
    rateable,
    rating_change,
    record_match,
    reference_ratings,
    result_players_t,
    results_t,
)

__all__ = ["Players", "rated_tables_t", "RECENT"]

log = logging.getLogger("ginrummy.web")

RECENT = 20
"""How many recent matches a player page lists."""

rated_tables_t = Table(
    "gin_rated_tables",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("rated", Integer, nullable=False),
)


_BOARD, _ACCOUNT, _SUMS, _RECENT, _HISTORY = statements(RECENT)


class Players:
    """Accounts, seats and ratings over ``engine`` (the table store's), hooked into ``manager``
    (``manager.on_finish``, ``manager.on_end``).  ``accounts``: an :class:`Accounts` (made here
    by default); ``pair_allowance``: rated matches of one pair of accounts that move the
    ratings in a day (:mod:`ginrummy.web.community.fairplay`); ``now``: the clock (seconds
    since the epoch) of the fair-play windows."""

    def __init__(
        self,
        engine: Engine,
        manager: TableManager | None = None,
        accounts: Accounts | None = None,
        pair_allowance: int = DEFAULT_PAIR_ALLOWANCE,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.engine = engine
        self.accounts = accounts or Accounts(engine)
        metadata.create_all(engine)
        self.manager = manager
        self.now = now
        self.fair = FairPlay(engine, pair_allowance, lambda: self.now())  # issue 31 (fairplay.py)
        #: the daily deal (:class:`~ginrummy.web.contests.daily.DailyRoom`), set by the app:
        #: its games are replayed by its own rule (:meth:`DailyRoom.may_replay`)
        self.daily: Any = None
        #: the friend challenges (:class:`~ginrummy.web.contests.duels.DuelRoom`), set by the
        #: app: their games are replayed by their own rule (:meth:`DuelRoom.may_replay`)
        self.duels: Any = None
        if manager is not None:
            # the server's computer levels start from the reference ladder's ratings (issue 34:
            # from 1,000, a first loss to novice moved the ratings -73 / +138)
            self.accounts.computer_start = reference_ratings()
            manager.on_finish = self.on_finish
            manager.on_end = self.on_end
            manager.on_rematch = self.rematched
            manager.account_name_taken = self.accounts.name_in_use
            guard = manager.room.guard
            guard.kept_from = self.accounts.moderation.kept_from
            guard.hidden_for = self.accounts.moderation.hidden_for
            manager.room.rematch_refused = self.rematch_refused

    def rematch_refused(self, table: GameTable) -> Any:
        """Why ``table``'s rematch may not open (two of its accounts blocked one another, or
        one of them is suspended), else ``None``."""
        seated = set(self.accounts.seats(table.id).values())
        mod = self.accounts.moderation
        if any(mod.blocked_among(a, seated) for a in seated):
            return W_("no rematch: one of the players blocked the other")
        return None

    # -- tables -------------------------------------------------------------------------------

    def table_opened(self, table: GameTable, host: tuple[int, int] | None, rated: bool) -> None:
        """Note a new table: ``host`` ``(player, account_id)`` of a signed-in host, and whether
        it is rated (its states then say so: ``"rating"``)."""
        table_id = table.id
        if rated:
            table.rating = {"rated": True, "counts": True, "changes": []}
        if host is None and not rated:
            return  # a guest's table: nothing to write
        with self.engine.begin() as conn:
            if host is not None:
                conn.execute(insert(seat_accounts_t).values(table_id=table_id, player=host[0], account_id=host[1]))
            if rated:
                conn.execute(insert(rated_tables_t).values(table_id=table_id, rated=1))

    def rematched(self, old: GameTable, new: GameTable) -> None:
        """The ``TableManager.on_rematch`` hook: the rematch ``new`` of ``old`` has the same
        accounts at the same seats (the same player indexes; a deleted account is left out),
        and is rated when ``old`` was, its rules rateable, every person's seat still has an
        account (the computer seats keep their levels) and no one is refused rated play."""
        seated = self.accounts.seats(old.id)
        with self.engine.begin() as conn:
            live = (
                {
                    r.id
                    for r in conn.execute(
                        select(accounts_t.c.id).where(
                            and_(accounts_t.c.id.in_(list(seated.values())), accounts_t.c.deleted == 0)
                        )
                    )
                }
                if seated
                else set()
            )
            kept = {p: a for p, a in seated.items() if a in live}
            for p, a in sorted(kept.items()):
                conn.execute(insert(seat_accounts_t).values(table_id=new.id, player=p, account_id=a))
            rated = (
                conn.execute(select(rated_tables_t.c.table_id).where(rated_tables_t.c.table_id == old.id)).first()
                is not None
                and old.match is not None
                and rateable(old.match.rules)
                and len(new.names) == 2
                and all(p in kept for p in new.humans)
                and not any(refused_until(conn, a, self.now()) for a in kept.values())  # forfeited too often
            )
            if rated:
                conn.execute(insert(rated_tables_t).values(table_id=new.id, rated=1))
        if rated:
            new.rating = {"rated": True, "counts": True, "changes": []}
        new.signed_in = set(kept)
        new.bot_seats = {p for p in kept if p in old.bot_seats}

    def is_rated(self, table_id: str, conn: Connection | None = None) -> bool:
        """Whether a table was opened as rated (read on ``conn`` when given: inside the
        caller's transaction)."""
        query = select(rated_tables_t.c.table_id).where(rated_tables_t.c.table_id == table_id)
        if conn is not None:
            return conn.execute(query).first() is not None
        with self.engine.connect() as c:
            return c.execute(query).first() is not None

    def seat_accounts(
        self, table: GameTable, seated: dict[int, int] | None = None, conn: Connection | None = None
    ) -> list[int | None]:
        """The account id at each player index of ``table``: a signed-in person's, a computer
        level's, or ``None`` for a guest.  ``seated``: the table's signed-in seats when the
        caller has read them; ``conn``: read (and make a computer level's account) there."""
        if seated is None:
            seated = self.accounts.seats(table.id, conn)
        out: list[int | None] = []
        for p in range(len(table.names)):
            if table.is_bot(p):
                out.append(self.accounts.computer(seat_level(table.seat_kind(p)), conn))
            else:
                out.append(seated.get(p))
        return out

    def on_finish(
        self, table: GameTable, player: int, action: Action, kind: str = "action"
    ) -> Callable[[Connection], None] | None:
        """The ``TableManager.on_finish`` hook: for the step that ends a two-hand match, the
        function that records it, when a signed-in person sits at the table (and rates it, at
        a rated table), inside the step's transaction; else ``None``.  ``kind`` is the step's
        kind: a ``"timeout"`` step (the clock moved for ``player``) that is his third in a row
        ends the match by a forfeit (:meth:`~ginrummy.web.room.clock.Clock.forfeits`), which is
        recorded and rated like any finished match, the other player winning it.

        Only the engine runs here, on the event loop (the action is tried on the current deal,
        or the trial of :meth:`~ginrummy.web.room.tables.Table.check_action` is read; nothing
        changes).  Who sits at the table, whether it is rated, and the copy of the
        match with the last action applied are read and made by the returned function, in the
        writer's thread within the step's transaction: a match ending at a table of guests
        costs the event loop no database query (another server may have seated an account
        meanwhile, so nothing of it is kept in memory)."""
        m = table.match
        if m is None or len(table.names) != 2:
            return None
        if kind != "timeout" and action.kind not in ("knock", "gin", "big_gin"):
            return None  # only a knock or a gin scores a deal (R5, R6), only a timeout forfeits
        seat = m.seat_of(player)
        if seat is None:
            return None
        trial = table.trial  # Table.check_action has just applied it on a copy: use that
        if trial is not None and trial[0] is m.deal and trial[1] is action:
            new = trial[2]
        else:
            new, _events = m.deal.apply(seat, action)
        finished = False
        if new.result is not None:
            winner = None if new.result.winner is None else m.seat_players[new.result.winner]
            finished = m.sheet.add(winner, new.result.points).finished
        forfeit = None
        if table.clock is not None and table.clock.forfeits(
            player, timed_out=kind == StepKind.TIMEOUT, match_over=finished
        ):
            forfeit = player
        if not finished and forfeit is None:
            return None

        def done() -> Any:
            out = copy.deepcopy(m)
            out.apply(player, action)
            return out

        return self._recorder(table, done, forfeit, None if forfeit is None else "time")

    def on_end(self, table: GameTable, player: int, how: str) -> Callable[[Connection], None] | None:
        """The ``TableManager.on_end`` hook: the function that records ``table``'s two-hand
        match, lost by ``player`` who resigned (``how`` ``"resigned"``) or left (``"left"``),
        in the transaction of the step that ends it (rated at a rated table), as a forfeit on
        time is (:meth:`on_finish`); ``None`` for a match that is not two-hand or not started."""
        m = table.match
        if m is None or len(table.names) != 2:
            return None
        return self._recorder(table, lambda: copy.deepcopy(m), player, how)

    def _recorder(
        self, table: GameTable, done: Callable[[], Any], forfeit: int | None, ended: str | None
    ) -> Callable[[Connection], None]:
        """The function of the step's transaction that records ``table``'s match ``done()``
        (a signed-in person there) and moves the ratings of a rated one (:meth:`_counts`)."""

        def also(conn: Connection) -> None:
            # the table's lock is held until this transaction commits: the match does not change
            seated = self.accounts.seats(table.id, conn)
            if not seated:
                return
            match = done()
            rated = self.is_rated(table.id, conn) and rateable(match.rules)
            accounts = self.seat_accounts(table, seated, conn)
            if rated and any(a is None for a in accounts):
                rated = False
            counts = rated and self._counts(conn, table, accounts)
            change = record_match(
                conn,
                table.id,
                match,
                accounts,
                rated=counts,
                source="table",
                public=rated,
                forfeit=forfeit,
                ended=ended,
            )
            if rated:
                table.rating = self._rating_state(table, change, counts)

        return also

    def pair_counts(self, table: GameTable) -> bool:
        """Whether ``table``'s rated match would move the ratings if it ended now."""
        with self.engine.connect() as conn:
            return self._counts(conn, table, self.seat_accounts(table, conn=conn)[:2])

    def _counts(self, conn: Connection, table: GameTable, accounts: list[int | None]) -> bool:
        return self.fair.counts(conn, accounts, table.is_bot(0) or table.is_bot(1))

    def _rating_state(self, table: GameTable, change: dict[int, dict[str, Any]], counts: bool = True) -> dict[str, Any]:
        changes = [{"name": table.names[p], **change[p]} for p in sorted(change)]
        return {"rated": True, "counts": counts, "changes": changes}

    def restore(self) -> None:
        """After the manager loaded its tables: every rated table says so in its state, with
        the rating change once its match is recorded; a match over (finished, or forfeited on
        time) with a signed-in person that is not recorded yet (a table finished before this
        server knew accounts, or forfeited before forfeits were rated) is recorded now, once."""
        if self.manager is None:
            return
        with self.engine.connect() as conn:
            rated = {r.table_id for r in conn.execute(select(rated_tables_t.c.table_id))}
            seats: dict[str, set[int]] = {}
            bots: dict[str, set[int]] = {}  # the seats of bot accounts: marked BOT (docs/bot-api.md)
            for r in conn.execute(
                select(seat_accounts_t.c.table_id, seat_accounts_t.c.player, accounts_t.c.kind).join(
                    accounts_t, accounts_t.c.id == seat_accounts_t.c.account_id, isouter=True
                )
            ):
                seats.setdefault(r.table_id, set()).add(int(r.player))
                if r.kind == "bot":
                    bots.setdefault(r.table_id, set()).add(int(r.player))
            seated = set(seats)
        for table in list(self.manager.tables.values()):
            table.signed_in = set(seats.get(table.id, ()))
            table.bot_seats = set(bots.get(table.id, ()))
            m = table.match
            if table.id in rated:
                table.rating = {"rated": True, "counts": True, "changes": []}
            if m is None or not table.over or table.id not in seated or len(table.names) != 2:
                continue
            with self.engine.begin() as conn:
                change = rating_change(conn, table.id)
                known = conn.execute(select(results_t.c.id).where(results_t.c.id == table.id)).first()
                if known is None:
                    accounts = self.seat_accounts(table)
                    ok = table.id in rated and rateable(m.rules) and None not in accounts
                    change = record_match(
                        conn,
                        table.id,
                        m,
                        accounts,
                        rated=ok,
                        source="table",
                        public=ok,
                        forfeit=table.forfeit,
                        ended=table.how_ended,
                    )
            if change:
                table.rating = self._rating_state(table, change)
            elif table.id in rated:  # recorded unrated: the pair's daily allowance was used up
                table.rating = self._rating_state(table, {}, counts=False)

    # -- reading ------------------------------------------------------------------------------

    def leaderboard(self, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        """``[{"name", "kind", "rating", "mu", "sigma", "matches", "provisional"}]`` of the
        accounts (people and computer levels, deleted ones left out) that played a rated
        match, best first (by ``mu - 3 sigma``; of two equal, the newer account first)."""
        with self.engine.connect() as conn:
            rows = conn.execute(_BOARD, {"limit": limit, "offset": offset}).all()
        return [
            {
                "name": r.name,
                "kind": r.kind,
                "rating": display_rating(r.mu, r.sigma),
                "mu": round(r.mu, 4),
                "sigma": round(r.sigma, 4),
                "matches": int(r.matches),
                "provisional": is_provisional(r.sigma),
            }
            for r in rows
        ]

    def player(self, name: str) -> dict[str, Any] | None:
        """The player page's JSON (``GET /api/players/NAME``), or ``None`` for no such
        (or a deleted) player.  ``history`` is the rating after each rated match, oldest
        first: ``[{"date", "rating"}]``; ``performance`` his latest match scores, oldest first
        (:func:`~ginrummy.web.community.performance.score_history`)."""
        with self.engine.connect() as conn:
            acc = conn.execute(_ACCOUNT, {"key": typed_name_key(name)}).first()
            if acc is None:
                return None
            sums = conn.execute(_SUMS, {"account": acc.id}).one()
            recent = conn.execute(_RECENT, {"account": acc.id}).all()
            history = conn.execute(_HISTORY, {"account": acc.id}).all()
            done = completion(conn, acc.id)
            scores = score_history(conn, acc.id)
        matches, wins, deals, deals_won, knocks, gins, um, us, points, kd = (int(x or 0) for x in sums)
        out_recent = []
        hidden = self._secret([r.result_id for r in recent])  # daily deals' and challenges' games in play
        for r in recent:
            if r.result_id in hidden:
                continue
            if r.opponent_id is None:
                opponent, kind = r.opponent_name, "guest"
            elif r.opp_deleted:
                opponent, kind = None, "deleted"
            else:
                opponent, kind = r.opp_name, r.opp_kind
            out_recent.append(
                {
                    "id": r.result_id,
                    "opponent": opponent,
                    "opponent_kind": kind,
                    "result": r.outcome,
                    "date": r.finished,
                }
            )
        return {
            "name": acc.name,
            "kind": acc.kind,
            "rating": display_rating(acc.mu, acc.sigma),
            "provisional": is_provisional(acc.sigma),
            "mu": round(acc.mu, 4),
            "sigma": round(acc.sigma, 4),
            "rated_matches": int(acc.matches),
            "matches": matches,
            "wins": wins,
            "deals": deals,
            "deals_won": deals_won,
            "knocks": knocks,
            "gins": gins,
            "undercuts_made": um,
            "undercuts_suffered": us,
            "points_per_deal": round(points / deals, 3) if deals else 0.0,
            "mean_knock_deadwood": round(kd / knocks, 3) if knocks else None,
            "completion": done,
            "recent": out_recent,
            "history": [{"date": h.finished, "rating": display_rating(h.mu_after, h.sigma_after)} for h in history],
            "performance": scores,
        }

    def _secret(self, result_ids: list[str]) -> set[str]:
        """Those of ``result_ids`` whose results are kept off the player pages: games of a
        daily deal whose day is not over, or of a friend challenge not over (the same deals are
        still to be played by others)."""
        return set().union(*(room.secret(result_ids) for room in (self.daily, self.duels) if room is not None))

    def me(self, account_id: int) -> dict[str, Any]:
        """``GET /api/me`` of a signed-in account: name, kind, rating, provisional, matches,
        ``completion`` (:func:`~ginrummy.web.community.fairplay.completion`), ``rated_refused_until``
        (ISO time, UTC, while refused rated play after forfeits, else ``null``) and ``can_chat``
        (in the lobby: once a match is finished)."""
        with self.engine.connect() as conn:
            acc = conn.execute(select(accounts_t).where(accounts_t.c.id == account_id)).one()
            done = completion(conn, account_id)
            until = refused_until(conn, account_id, self.now())
        return {
            "signed_in": True,
            "name": acc.name,
            "kind": acc.kind,
            "rating": display_rating(acc.mu, acc.sigma),
            "provisional": is_provisional(acc.sigma),
            "matches": int(acc.matches),
            "completion": done,
            "rated_refused_until": None if until is None else iso_time(until),
            "can_chat": done["matches"] > 0,
            "moderator": acc.role == "moderator",
            "notices": self.accounts.moderation.notices(account_id),
        }

    def result_public(self, result_id: str, account_id: int | None) -> bool:
        """Whether match ``result_id`` may be replayed by ``account_id`` (``None``: anyone):
        a recorded public match, or one the account played."""
        with self.engine.connect() as conn:
            r = conn.execute(select(results_t.c.public).where(results_t.c.id == result_id)).first()
            if r is None:
                return False
            if r.public:
                return True
            if account_id is None:
                return False
            return (
                conn.execute(
                    select(result_players_t.c.player).where(
                        and_(result_players_t.c.result_id == result_id, result_players_t.c.account_id == account_id)
                    )
                ).first()
                is not None
            )
