"""The friend challenge on the same deals (issue 33; ``docs/compete.md``, "The friend challenge
in the room"): a private duplicate match between two people, each playing the same deals
against the same computer level, seats swapped (:mod:`ginrummy.compete.daily`, ``challenge_*``).

A challenge is sent to an account by name, or as a link that the first signed-in person to
accept it takes.  Its seed is ``challenge_seed(the daily key, id)`` (the key of
:class:`~ginrummy.web.contests.daily.DailyRoom`), stored at once with its commitment, which is
shown from the start; the seed is shown once the challenge is over (every game played, declined,
cancelled, or :data:`DUEL_DAYS` after it was sent).  The challenger plays deal k as player 0,
the other person as player 1 (the computer holds the challenger's cards at his table): both
tables are opened by :func:`~ginrummy.web.contests.daily.open_deal`, the daily deal's own.

What is shown before the end: to the two people only (anyone else gets ``not_found``; a link
challenge not yet accepted shows its invitation to whoever opens the link); of the other
person's game of a deal, whether he has played it, and his result and replay only once both
have played that deal.  A game finished after the challenge ended does not count (the seed is
public by then).

Tables (``0005_duels``): ``gin_duels`` (``id`` the key; ``from_id``, ``to_id`` (``NULL`` for a
link until accepted), ``deals``, ``level``, ``seed`` hex, ``commitment``, ``status`` one of
``open``, ``playing``, ``declined``, ``canceled``; ``created``, ``accepted``, ``expires``) and
``gin_duel_games`` (``duel_id, number, swapped`` the key, so a second try is refused by the
database; ``account_id``, ``table_id`` unique, ``score`` (:func:`~ginrummy.compete.daily.result_of`
of the game, player 0's points minus player 1's) and ``finished`` once over).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Column, Index, Integer, MetaData, String, Table, and_, insert, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from ...compete.daily import (
    challenge_score,
    challenge_seat,
    challenge_seed,
    deal_seed_of_day,
    result_of,
)
from ...match import commitment
from ..community.accounts import Account, accounts_t, typed_name_key
from ..db.store import Store
from ..errors import ErrorCode, WebError
from ..room.names import is_computer_name
from ..texts import W_
from .daily import DailyRoom, open_deal

__all__ = ["DuelRoom", "DUEL_DAYS", "MAX_OPEN_DUELS", "duels_t", "duel_games_t"]

DUEL_DAYS = 7
"""Days a challenge lasts from when it is sent: then it is over, played or not."""

MAX_OPEN_DUELS = 5
"""The challenges not over one account may be in at once (sent, or accepted)."""

metadata = MetaData()  # made by the migration 0005_duels, never by create_all

duels_t = Table(
    "gin_duels",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("from_id", Integer, nullable=False),
    Column("to_id", Integer, nullable=True),
    Column("deals", Integer, nullable=False),
    Column("level", String(20), nullable=False),
    Column("seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("status", String(12), nullable=False),
    Column("created", String(40), nullable=False),
    Column("accepted", String(40), nullable=True),
    Column("expires", String(40), nullable=False),
    Index("gin_duels_from", "from_id"),
    Index("gin_duels_to", "to_id"),
)

duel_games_t = Table(
    "gin_duel_games",
    metadata,
    Column("duel_id", String(16), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("swapped", Integer, primary_key=True, autoincrement=False),
    Column("account_id", Integer, nullable=False),
    Column("table_id", String(40), nullable=False, unique=True),
    Column("score", Integer, nullable=True),
    Column("started", String(40), nullable=False),
    Column("finished", String(40), nullable=True),
)


def _no_such(duel_id: str) -> WebError:
    return WebError(ErrorCode.NOT_FOUND, W_("no challenge {id} that you may see", id=str(duel_id)[:20]))


def _side(game: Any, result: int | None, shown: bool) -> dict[str, Any]:
    """One person's game of a deal as :meth:`DuelRoom.view` shows it: ``{"started", "played",
    "score", "replay"}``; ``score`` and ``replay`` only when ``shown`` and it counts."""
    shown = shown and result is not None and game is not None
    return {
        "started": game is not None,
        "played": result is not None,
        "score": result if shown else None,
        "replay": f"/replay/{game['table_id']}" if shown else None,
    }


class DuelRoom:
    """Friend challenges over the daily deal's room ``daily`` (its store, tables and key).
    ``now``: the clock (an aware UTC datetime; by default the daily room's)."""

    def __init__(self, daily: DailyRoom, now: Callable[[], datetime] | None = None) -> None:
        self.daily = daily
        self.engine: Engine = daily.engine
        self.now = now or (lambda: self.daily.now())  # the daily room's clock, even one set later

    # -- reading -----------------------------------------------------------------------------

    def _row(self, duel_id: str) -> Any:
        if not isinstance(duel_id, str) or len(duel_id) != 16 or not duel_id.isalnum():
            raise _no_such(duel_id)
        with self.engine.connect() as conn:
            row = conn.execute(select(duels_t).where(duels_t.c.id == duel_id)).mappings().first()
        if row is None:
            raise _no_such(duel_id)
        return row

    def _games(self, row: Any) -> dict[tuple[int, bool], Any]:
        """The stored games of challenge ``row``, keyed ``(number, swapped)``; a result is read
        from the game the first time it is asked for after it is over (and stored)."""
        with self.engine.connect() as conn:
            games = conn.execute(select(duel_games_t).where(duel_games_t.c.duel_id == row["id"])).mappings().all()
        out = {}
        for stored in games:
            g = dict(stored)
            if g["score"] is None:
                score, finished = self.daily.result(g["table_id"])
                if score is not None:
                    g["score"], g["finished"] = score, finished
                    with self.engine.begin() as conn:
                        conn.execute(
                            update(duel_games_t)
                            .where(and_(duel_games_t.c.table_id == g["table_id"], duel_games_t.c.score.is_(None)))
                            .values(score=score, finished=finished)
                        )
            out[(g["number"], bool(g["swapped"]))] = g
        return out

    def _counted(self, row: Any, games: dict[tuple[int, bool], Any]) -> dict[tuple[int, bool], int]:
        """The results that count: games over before the challenge ended."""
        return {k: g["score"] for k, g in games.items() if g["score"] is not None and g["finished"] < row["expires"]}

    def _over(self, row: Any, counted: dict[tuple[int, bool], int]) -> bool:
        """Whether challenge ``row`` is over: declined, cancelled, expired or every game played."""
        return (
            row["status"] in ("declined", "canceled")
            or self.now().isoformat() >= row["expires"]
            or len(counted) == 2 * row["deals"]
        )

    def _names(self, *ids: int | None) -> dict[int, str]:
        wanted = sorted({i for i in ids if i is not None})
        with self.engine.connect() as conn:
            rows = conn.execute(select(accounts_t.c.id, accounts_t.c.name).where(accounts_t.c.id.in_(wanted))).all()
        return {int(r.id): r.name or "?" for r in rows}

    def view(self, duel_id: str, account: Account | None) -> dict[str, Any]:
        """What ``account`` (``None``: signed out) may see of challenge ``duel_id``: ``{"id",
        "from", "to", "you" ("from", "to" or ``None``), "deals", "level", "status", "over",
        "created", "expires", "commitment", "seed" (hex once over, else ``None``), "games":
        [{"number", "from", "to", "difference"}], "total", "winner", "complete"}``; each side of a
        deal ``{"played", "score", "replay"}`` (the person's points minus the computer's; score
        and replay of the other person's game only once both played the deal, or it is over).
        Raises :class:`WebError` ``not_found`` for an unknown id, or one the account may not see
        (not one of the two, before the end; a link not accepted is seen by the signed-in);
        ``not_signed_in`` signed out before the end."""
        row = self._row(duel_id)
        games = self._games(row)
        counted = self._counted(row, games)
        over = self._over(row, counted)
        aid = None if account is None else account.id
        you = "from" if aid == row["from_id"] else "to" if aid is not None and aid == row["to_id"] else None
        link_open = row["status"] == "open" and row["to_id"] is None and aid is not None
        if account is None and not over:
            raise WebError(ErrorCode.NOT_SIGNED_IN, W_("sign in to play friend challenges"))
        if you is None and not over and not link_open:
            raise _no_such(duel_id)
        names = self._names(row["from_id"], row["to_id"])
        a, b = names.get(row["from_id"], "?"), names.get(row["to_id"] or -1)
        score = challenge_score(a, b or "?", row["deals"], counted, closed=over)
        out: list[dict[str, Any]] = []
        for k in range(1, row["deals"] + 1):
            both = over or ((k, False) in counted and (k, True) in counted)

            out.append(
                {
                    "number": k,
                    "from": _side(games.get((k, False)), score.a_results[k - 1], you == "from" or both),
                    "to": _side(games.get((k, True)), score.b_results[k - 1], you == "to" or both),
                    "difference": score.per_deal[k - 1] if both else None,
                }
            )
        shown_total = sum(g["difference"] for g in out if g["difference"] is not None)
        return {
            "id": row["id"],
            "from": a,
            "to": b,
            "you": you,
            "deals": row["deals"],
            "level": row["level"],
            "status": "over" if over and row["status"] in ("open", "playing") else row["status"],
            "over": over,
            "created": row["created"],
            "expires": row["expires"],
            "commitment": row["commitment"],
            "seed": row["seed"] if over else None,
            "games": out,
            "total": shown_total,
            "winner": score.winner if over else None,
            "complete": score.complete,
        }

    def mine(self, account: Account) -> list[dict[str, Any]]:
        """``account``'s challenges, newest first: each :meth:`view` (at most 50)."""
        with self.engine.connect() as conn:
            ids = conn.execute(
                select(duels_t.c.id)
                .where(or_(duels_t.c.from_id == account.id, duels_t.c.to_id == account.id))
                .order_by(duels_t.c.created.desc())
                .limit(50)
            ).all()
        return [self.view(r.id, account) for r in ids]

    # -- sending and answering ---------------------------------------------------------------

    def _open_count(self, account_id: int) -> int:
        """The challenges not over ``account_id`` is in."""
        with self.engine.connect() as conn:
            rows = (
                conn.execute(
                    select(duels_t).where(
                        and_(
                            or_(duels_t.c.from_id == account_id, duels_t.c.to_id == account_id),
                            duels_t.c.status.in_(("open", "playing")),
                            duels_t.c.expires > self.now().isoformat(),
                        )
                    )
                )
                .mappings()
                .all()
            )
        return sum(1 for r in rows if not self._over(r, self._counted(r, self._games(r))))

    def _limit(self, account: Account) -> None:
        if self._open_count(account.id) >= MAX_OPEN_DUELS:
            raise WebError(
                ErrorCode.CONFLICT,
                W_(
                    "you are in {count} challenges not over already: finish one first (at most {count})",
                    count=MAX_OPEN_DUELS,
                ),
            )

    def _person(self, account: Account) -> None:
        if account.kind != "human":
            raise WebError(ErrorCode.NOT_ALLOWED, W_("only a person's account plays friend challenges"))

    def _opponent(self, account: Account, name: str) -> int:
        """The id of the person called ``name``; raises :class:`WebError` for oneself, an
        unknown name, a bot or a computer."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts_t.c.id, accounts_t.c.kind).where(
                    and_(accounts_t.c.name_key == typed_name_key(name), accounts_t.c.deleted == 0)
                )
            ).first()
        if row is None and not is_computer_name(name):
            raise WebError(ErrorCode.NOT_FOUND, W_("no player is called {name}", name=name[:80]))
        if row is not None and int(row.id) == account.id:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("you cannot challenge yourself: send the challenge to a friend"))
        if row is None or row.kind != "human":  # a bot account, a computer level
            raise WebError(
                ErrorCode.NOT_ALLOWED,
                W_("{name} is not a person's account: a friend challenge is between two people", name=name[:80]),
            )
        return int(row.id)

    def send(self, account: Account, to: str | None, deals: int, level: str) -> dict[str, Any]:
        """Send a challenge of ``deals`` deals (1..8) against ``level`` to the person called
        ``to`` (``None``: a link, taken by the first who accepts it); answers its :meth:`view`.
        Raises :class:`WebError`: ``not_found`` for an unknown name, ``not_allowed`` for oneself,
        a bot or computer account, ``conflict`` past :data:`MAX_OPEN_DUELS`."""
        self._person(account)
        to_id = None if to is None else self._opponent(account, to)
        self._limit(account)
        duel_id = secrets.token_hex(8)
        seed = challenge_seed(self.daily._secret(), duel_id)
        now = self.now()
        with self.engine.begin() as conn:
            conn.execute(
                insert(duels_t).values(
                    id=duel_id,
                    from_id=account.id,
                    to_id=to_id,
                    deals=deals,
                    level=level,
                    seed=seed.hex(),
                    commitment=commitment(seed),
                    status="open",
                    created=now.isoformat(),
                    expires=(now + timedelta(days=DUEL_DAYS)).isoformat(),
                )
            )
        return self.view(duel_id, account)

    def answer(self, account: Account, duel_id: str, what: str) -> dict[str, Any]:
        """``what``: ``accept`` (the person it was sent to, or anyone but its sender for a
        link), ``decline`` (the person it was sent to) or ``cancel`` (its sender) a challenge
        not yet accepted; answers its :meth:`view`.  Raises :class:`WebError`: ``not_found``
        (:meth:`view`), ``not_allowed`` for the wrong person or a challenge over,
        ``conflict`` for one answered already or past :data:`MAX_OPEN_DUELS`."""
        self._person(account)
        shown = self.view(duel_id, account)
        row = self._row(duel_id)
        if shown["over"]:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("this challenge is over"))
        if row["status"] != "open":
            raise WebError(ErrorCode.CONFLICT, W_("this challenge was accepted already"))
        mine = row["from_id"] == account.id
        if what == "cancel" and not mine or what != "cancel" and mine:
            raise WebError(
                ErrorCode.NOT_ALLOWED,
                W_("you sent this challenge: you may only cancel it")
                if mine
                else W_("only the person who sent a challenge may cancel it"),
            )
        if what == "decline" and row["to_id"] is None:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("a challenge link is declined by not accepting it"))
        if what == "accept":
            self._limit(account)
        status = {"accept": "playing", "decline": "declined", "cancel": "canceled"}[what]
        values: dict[str, Any] = {"status": status}
        if what == "accept":
            values.update(to_id=account.id, accepted=self.now().isoformat())
        with self.engine.begin() as conn:
            done = conn.execute(
                update(duels_t)
                .where(
                    and_(
                        duels_t.c.id == duel_id,
                        duels_t.c.status == "open",
                        or_(duels_t.c.to_id.is_(None), duels_t.c.to_id == account.id, duels_t.c.from_id == account.id),
                    )
                )
                .values(**values)
            ).rowcount
        if not done:  # another tab or person answered first
            raise WebError(ErrorCode.CONFLICT, W_("this challenge was accepted already"))
        return self.view(duel_id, account)

    # -- playing -----------------------------------------------------------------------------

    async def start(self, account: Account, duel_id: str, number: int, lang: str = "en") -> tuple[Any, str, int]:
        """Open ``account``'s table of deal ``number`` of challenge ``duel_id``: ``(table, seat
        token, seat)``.  Raises :class:`WebError`: ``not_found`` (:meth:`view`), ``bad_message``
        for a deal the challenge has not, ``not_allowed`` before accepting or after the end,
        ``conflict`` for a deal played already (one try a deal)."""
        shown = await asyncio.to_thread(self.view, duel_id, account)
        row = await asyncio.to_thread(self._row, duel_id)
        if shown["you"] is None:
            raise _no_such(duel_id)
        if shown["over"]:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("this challenge is over"))
        if number > row["deals"]:
            raise WebError(
                ErrorCode.BAD_MESSAGE,
                W_("no deal {number}: this challenge has {deals}", number=number, deals=row["deals"]),
            )
        swapped = shown["you"] == "to"
        if swapped and row["status"] != "playing":
            raise WebError(ErrorCode.NOT_ALLOWED, W_("accept the challenge first"))
        side = shown["games"][number - 1]["to" if swapped else "from"]
        conflict = WebError(
            ErrorCode.CONFLICT,
            W_("you have played deal {number} of this challenge already: one try a deal", number=number),
        )
        if side["started"]:
            raise conflict
        seat = challenge_seat(swapped)
        seed = deal_seed_of_day(bytes.fromhex(row["seed"]), number)
        table, token = await open_deal(
            self.daily.manager, account, seed, seat, row["level"], f"duel/{duel_id}/{number}", lang
        )
        try:
            await asyncio.to_thread(self._enter, duel_id, number, swapped, account.id, table.id)
        except IntegrityError:  # the same person's other tab, at the same moment
            raise conflict from None
        table.signed_in.add(seat)
        return table, token, seat

    def _enter(self, duel_id: str, number: int, swapped: bool, account_id: int, table_id: str) -> None:
        """Insert a game; raises ``IntegrityError`` when it exists (the primary key)."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(duel_games_t).values(
                    duel_id=duel_id,
                    number=number,
                    swapped=int(swapped),
                    account_id=account_id,
                    table_id=table_id,
                    started=Store.now(),
                )
            )

    # -- after -------------------------------------------------------------------------------

    def secret(self, table_ids: list[str]) -> set[str]:
        """Those of ``table_ids`` that are games of a challenge not over yet (one query for the
        games, then each challenge once): their results are kept off the player pages until
        then (who won a deal tells something of its cards)."""
        if not table_ids:
            return set()
        with self.engine.connect() as conn:
            games = conn.execute(
                select(duel_games_t.c.table_id, duel_games_t.c.duel_id).where(duel_games_t.c.table_id.in_(table_ids))
            ).all()
        open_duels = set()
        for duel_id in {g.duel_id for g in games}:
            row = self._row(duel_id)
            if not self._over(row, self._counted(row, self._games(row))):
                open_duels.add(duel_id)
        return {g.table_id for g in games if g.duel_id in open_duels}

    def may_replay(self, table_id: str, account_id: int | None) -> bool:
        """Whether a challenge game may be replayed by ``account_id``: once the challenge is
        over, by anyone; before, by one of the two once both have played that deal."""
        with self.engine.connect() as conn:
            g = conn.execute(
                select(duel_games_t.c.duel_id, duel_games_t.c.number).where(duel_games_t.c.table_id == table_id)
            ).first()
        if g is None:
            return False
        row = self._row(g.duel_id)
        counted = self._counted(row, self._games(row))
        if self._over(row, counted):
            return (g.number, False) in counted or (g.number, True) in counted
        if account_id not in (row["from_id"], row["to_id"]):
            return False
        return (g.number, False) in counted and (g.number, True) in counted

    def records(self, duel_id: str, account: Account | None) -> list[dict[str, Any]]:
        """Once the challenge is over, every game that counts: ``{"number", "player", "seat",
        "score", "table"}``.  Raises :class:`WebError` ``not_found`` (:meth:`view`) or
        ``not_allowed`` before the end (the games would tell the cards of deals to play)."""
        shown = self.view(duel_id, account)
        if not shown["over"]:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("the games of a challenge are shown once it is over"))
        row = self._row(duel_id)
        games = self._games(row)
        counted = self._counted(row, games)
        return [
            {
                "number": k,
                "player": shown["to"] if swapped else shown["from"],
                "seat": challenge_seat(swapped),
                "score": counted[(k, swapped)],
                "table": games[(k, swapped)]["table_id"],
            }
            for k, swapped in sorted(counted)
        ]

    def recompute(self, duel_id: str) -> dict[tuple[int, bool], int]:
        """Every finished result of the challenge read again from the stored games (not from
        ``score``, nor the tables in memory): ``{(number, swapped): result_of}``."""
        out = {}
        for key, g in self._games(self._row(duel_id)).items():
            t = self.daily.stored(g["table_id"])
            if t is not None and t.match is not None and t.match.finished:
                out[key] = result_of(t.match)
        return out
