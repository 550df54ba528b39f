"""The puzzle room of the web (issue 32; ``docs/puzzles.md``, ``docs/protocol.md`` "Puzzles"):
the shipped puzzle set served one puzzle at a time, the answer checked here, and the puzzle
ratings of accounts and of puzzles (OpenSkill, the ladder's model:
:func:`ginrummy.analysis.puzzles.rate_attempt`).

A puzzle leaves the server in two forms: :meth:`PuzzleRoom.public` (the position as the player
saw it and the legal moves: never the best move, the losses, the margin nor the rules, which
would give the answer away) and, after an answer, :meth:`PuzzleRoom.answer`'s explanation.

Tables (``schema.py``, migration ``0003_puzzles``):

``gin_puzzle_people``
    ``account_id`` (key), ``mu``, ``sigma``, ``attempts``, ``solved``: an account's puzzle
    rating (a row from its first rated attempt).
``gin_puzzle_attempts``
    ``(account_id, puzzle_id)`` key, ``solved`` (0/1), ``created``: an account's first answer to
    a puzzle, the one that is rated (a puzzle answered again is not rated again).
``gin_puzzle_ratings``
    ``puzzle_id`` (key), ``mu``, ``sigma``, ``attempts``, ``solved``: a puzzle's rating.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import cache
from importlib import resources
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ...actions import parse_action
from ...analysis.puzzles import INITIAL_RATING, THEMES, Puzzle, display_rating, loads_puzzles, rate_attempt
from ..errors import WebError
from ..texts import W_
from .schema import metadata, puzzle_attempts_t, puzzle_people_t, puzzle_ratings_t

__all__ = ["PuzzleRoom", "PuzzleRating", "shipped_set", "daily_index"]


@cache
def _shipped() -> tuple[Puzzle, ...]:
    text = resources.files("ginrummy.analysis").joinpath("puzzles.jsonl").read_text(encoding="utf-8")
    return tuple(loads_puzzles(text))


def shipped_set() -> list[Puzzle]:
    """The puzzle set shipped with the package (``ginrummy/analysis/puzzles.jsonl``), in file
    order; read once a process (every app of a process shares the puzzles, which are not changed)."""
    return list(_shipped())


def daily_index(day: date, count: int) -> int:
    """The index of ``day``'s puzzle in a set of ``count`` (> 0): the first 8 bytes of the SHA-256
    of ``"gin-daily-puzzle/YYYY-MM-DD"`` modulo ``count``; the same for everyone that day."""
    digest = hashlib.sha256(f"gin-daily-puzzle/{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % count


@dataclass
class PuzzleRating:
    """A rating of the puzzle room: OpenSkill ``mu``, ``sigma``; ``attempts`` rated, ``solved``."""

    mu: float = INITIAL_RATING[0]
    sigma: float = INITIAL_RATING[1]
    attempts: int = 0
    solved: int = 0

    @property
    def display(self) -> int:
        """The number shown (:func:`~ginrummy.analysis.puzzles.display_rating`)."""
        return display_rating(self.mu, self.sigma)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class PuzzleRoom:
    """The puzzles served by one app, on the store's ``engine``.

    ``puzzles`` (default: :func:`shipped_set`) are held in memory with every puzzle's rating
    (read at start, kept current by this server's answers), so choosing the next puzzle reads the
    database once (the account's tried puzzles)."""

    def __init__(self, engine: Engine, puzzles: list[Puzzle] | None = None) -> None:
        self.engine = engine
        self.puzzles = shipped_set() if puzzles is None else puzzles
        self.by_id = {p.id: i for i, p in enumerate(self.puzzles)}
        self._lock = threading.Lock()
        metadata.create_all(engine)  # nothing when migrated (0003_puzzles made them)
        with engine.connect() as conn:
            rows = conn.execute(select(puzzle_ratings_t)).all()
        self.ratings = {r.puzzle_id: PuzzleRating(r.mu, r.sigma, r.attempts, r.solved) for r in rows}

    # -- what is sent -----------------------------------------------------------------------

    def get(self, puzzle_id: str) -> Puzzle | None:
        """The puzzle ``puzzle_id``, or ``None``."""
        i = self.by_id.get(puzzle_id)
        return None if i is None else self.puzzles[i]

    def rating_of(self, puzzle_id: str) -> PuzzleRating:
        """A puzzle's rating (a new one's is the initial rating)."""
        return self.ratings.get(puzzle_id) or PuzzleRating()

    def public(self, p: Puzzle) -> dict[str, Any]:
        """The position of ``p`` as its player saw it, for the page: ``id``, ``theme``, ``phase``,
        ``hand``, ``discard_pile`` (top last), ``upcard``, ``taken`` (the card just taken, or
        ``None``), ``stock_size``, ``opponent_count``, ``opponent_seen`` (cards the opponent was
        seen taking), ``knock_limit``, ``legal_actions`` (in the engine's order), ``score``
        (``{"you", "opponent", "target"}``: points before this deal, R13 game target), ``rating``
        and ``attempts`` (the puzzle's).  Never the best move nor anything that tells it."""
        v = p.view
        totals = [0, 0]
        for w, pts in p.results:
            if w is not None:
                totals[w] += pts
        r = self.rating_of(p.id)
        return {
            "id": p.id,
            "theme": p.theme,
            "phase": v["phase"],
            "hand": list(v["hand"]),
            "discard_pile": list(v["discard_pile"]),
            "upcard": v["upcard"],
            "taken": v["taken"],
            "stock_size": v["stock_size"],
            "opponent_count": v["opponent_count"],
            "opponent_seen": list(v["opponent_seen"]),
            "knock_limit": v["knock_limit"],
            "legal_actions": list(v["legal_actions"]),
            "score": {"you": totals[p.player], "opponent": totals[p.opponent], "target": v["rules"].get("target")},
            "rating": r.display,
            "attempts": r.attempts,
        }

    def themes(self) -> list[dict[str, Any]]:
        """``[{"theme", "count"}]`` in :data:`~ginrummy.analysis.puzzles.THEMES` order, themes with puzzles only."""
        out = []
        for t in THEMES:
            n = sum(p.theme == t for p in self.puzzles)
            if n:
                out.append({"theme": t, "count": n})
        return out

    def daily(self, day: date) -> Puzzle:
        """``day``'s puzzle (:func:`daily_index`)."""
        return self.puzzles[daily_index(day, len(self.puzzles))]

    # -- choosing ---------------------------------------------------------------------------

    def person(self, account_id: int) -> PuzzleRating:
        """An account's puzzle rating (the initial one before its first rated attempt)."""
        with self.engine.connect() as conn:
            r = conn.execute(select(puzzle_people_t).where(puzzle_people_t.c.account_id == account_id)).first()
        return PuzzleRating() if r is None else PuzzleRating(r.mu, r.sigma, r.attempts, r.solved)

    def next_for(self, account_id: int | None, theme: str | None, after: str | None) -> Puzzle | None:
        """The next puzzle: of ``theme`` (any when ``None``), never ``after`` (the one just shown).
        A guest gets the one after ``after`` in the set's order (from the start, wrapping); an
        account the puzzle it has not answered whose rating is closest to its own (ties: set
        order), ``None`` when it has answered them all."""
        pool = [i for i, p in enumerate(self.puzzles) if (theme is None or p.theme == theme) and p.id != after]
        if not pool:
            return None
        if account_id is None:
            start = self.by_id.get(after or "", -1)
            later = [i for i in pool if i > start]
            return self.puzzles[(later or pool)[0]]
        with self.engine.connect() as conn:
            tried = set(
                conn.execute(
                    select(puzzle_attempts_t.c.puzzle_id).where(puzzle_attempts_t.c.account_id == account_id)
                ).scalars()
            )
            row = conn.execute(
                select(puzzle_people_t.c.mu, puzzle_people_t.c.sigma).where(puzzle_people_t.c.account_id == account_id)
            ).first()
        mine = display_rating(*(INITIAL_RATING if row is None else (row.mu, row.sigma)))
        best: tuple[int, int] | None = None
        for i in pool:
            pid = self.puzzles[i].id
            if pid in tried:
                continue
            d = abs(self.rating_of(pid).display - mine)
            if best is None or d < best[0]:
                best = (d, i)
        return None if best is None else self.puzzles[best[1]]

    # -- answering --------------------------------------------------------------------------

    def answer(self, p: Puzzle, move: str, account_id: int | None) -> dict[str, Any]:
        """The answer ``move`` (an action text) to ``p``, checked: ``{"id", "move", "correct",
        "best", "loss" (of ``move``, points of win chance; 0 for the best), "losses" (every
        other legal move's, smallest first), "margin", "theme", "rules" (rule numbers),
        "rated", "rating" ({"before", "after", "attempts", "solved"} or ``None`` for a guest),
        "puzzle_rating"}``.  An account's first answer to a puzzle is rated (both ratings move);
        a later one is not.  Raises :class:`~ginrummy.web.errors.WebError` ``bad_move`` naming
        the legal moves when ``move`` is not one."""
        loss = p.answer_loss(move)
        if loss is None:
            raise WebError(
                "bad_move",
                W_(
                    "{move} is not a legal move in this puzzle; legal moves: {moves}",
                    move=move[:40],
                    moves=", ".join(p.view["legal_actions"]),
                ),
            )
        correct = loss == 0.0
        rated, mine = False, None
        if account_id is not None:
            rated, mine = self._rate(p, account_id, correct)
        return {
            "id": p.id,
            "move": parse_action(move).text,
            "correct": correct,
            "best": p.best,
            "loss": loss,
            "losses": dict(sorted(p.losses.items(), key=lambda kv: (kv[1], kv[0]))),
            "margin": p.margin,
            "theme": p.theme,
            "rules": list(p.rules),
            "rated": rated,
            "rating": mine,
            "puzzle_rating": self.rating_of(p.id).display,
        }

    def _rate(self, p: Puzzle, account_id: int, correct: bool) -> tuple[bool, dict[str, Any]]:
        try:
            return self._rate_once(p, account_id, correct)
        except IntegrityError:  # the same account's answer rated meanwhile by another server
            me = self.person(account_id)
            return False, {"before": me.display, "after": me.display, "attempts": me.attempts, "solved": me.solved}

    def _rate_once(self, p: Puzzle, account_id: int, correct: bool) -> tuple[bool, dict[str, Any]]:
        # the rows are read FOR UPDATE (PostgreSQL: two servers rating one puzzle take turns;
        # SQLite locks the database for the write anyway) and the attempt's key makes the
        # first answer the only rated one
        with self._lock, self.engine.begin() as conn:
            me = _row(conn, puzzle_people_t, puzzle_people_t.c.account_id, account_id)
            before = me.display
            seen = conn.execute(
                select(puzzle_attempts_t.c.solved).where(
                    puzzle_attempts_t.c.account_id == account_id, puzzle_attempts_t.c.puzzle_id == p.id
                )
            ).first()
            if seen is not None:
                return False, {"before": before, "after": before, "attempts": me.attempts, "solved": me.solved}
            it = _row(conn, puzzle_ratings_t, puzzle_ratings_t.c.puzzle_id, p.id)
            (me.mu, me.sigma), (it.mu, it.sigma) = rate_attempt((me.mu, me.sigma), (it.mu, it.sigma), correct)
            me.attempts += 1
            me.solved += int(correct)
            it.attempts += 1
            it.solved += int(correct)
            conn.execute(
                insert(puzzle_attempts_t).values(
                    account_id=account_id, puzzle_id=p.id, solved=int(correct), created=_now()
                )
            )
            _put(conn, puzzle_people_t, puzzle_people_t.c.account_id, account_id, me)
            _put(conn, puzzle_ratings_t, puzzle_ratings_t.c.puzzle_id, p.id, it)
        self.ratings[p.id] = it
        return True, {"before": before, "after": me.display, "attempts": me.attempts, "solved": me.solved}


def _row(conn: Connection, table: Any, key: Any, value: Any) -> PuzzleRating:
    q = select(table.c.mu, table.c.sigma, table.c.attempts, table.c.solved).where(key == value).with_for_update()
    r = conn.execute(q).first()
    return PuzzleRating() if r is None else PuzzleRating(r.mu, r.sigma, r.attempts, r.solved)


def _put(conn: Connection, table: Any, key: Any, value: Any, r: PuzzleRating) -> None:
    values = {"mu": r.mu, "sigma": r.sigma, "attempts": r.attempts, "solved": r.solved}
    if conn.execute(update(table).where(key == value).values(**values)).rowcount == 0:
        conn.execute(insert(table).values({key.name: value, **values}))
