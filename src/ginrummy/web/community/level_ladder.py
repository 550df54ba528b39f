"""The computer levels on the ladder: they play each other and their ratings are written.

:func:`run_ladder` plays ``games`` whole matches between pairs of computer levels (every
unordered pair in turn) with :func:`ginrummy.simulate.play_game`, the loop of ``gin simulate``,
and records each finished match with :func:`ginrummy.web.community.ratings.record_match` (rated, one
OpenSkill update a match, in game order, each committed on its own) on the web server's
database.  A server started on that database then shows calibrated computer players, and
people's results against them move both (``docs/accounts.md``).

The matches are played by the shard runner of ``gin simulate`` (:mod:`ginrummy.shards`,
:class:`LadderTask`): in this process, in ``workers`` local processes or on Ray.  Match ``i``
depends only on the seed and ``i``, and the ratings are updated in match order whatever order
the shards finish in, so every split writes the same ratings and results as one process.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import inspect, select
from sqlalchemy.engine import Engine

from ...analysis.shards import iter_shards
from ...analysis.simulate import GameOutcome, play_game
from ...players import make_player
from ...rules import RuleSet
from .accounts import Accounts, accounts_t
from .ratings import display_rating, is_provisional, rateable, record_match, results_t

__all__ = ["run_ladder", "LadderEntry", "LadderTask", "pairings", "ladder_key", "ladder_played"]


@dataclass(frozen=True)
class LadderEntry:
    """A computer level's rating after the ladder: ``level``, ``rating`` (display number),
    ``mu``, ``sigma``, ``matches`` (rated matches), ``provisional``."""

    level: str
    rating: int
    mu: float
    sigma: float
    matches: int
    provisional: bool

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def pairings(levels: Sequence[str]) -> list[tuple[str, str]]:
    """Every unordered pair of distinct ``levels``, in a fixed order (game ``i`` plays pair
    ``i % len(pairings)``)."""
    return list(itertools.combinations(levels, 2))


@dataclass(frozen=True)
class LadderTask:
    """The ladder's matches as a task of :mod:`ginrummy.shards` (picklable): match ``index``
    is :func:`~ginrummy.simulate.play_game` of pair ``pairs[index % len(pairs)]`` (level
    names) under two-hand ``rules``, seeded with the ladder's seed and ``index`` alone."""

    rules: RuleSet
    pairs: tuple[tuple[str, str], ...]
    start: int = 0
    """The number of matches of this ladder played before: shard index ``i`` is match
    ``start + i``."""

    def play(self, index: int, seed: int) -> GameOutcome:
        """Play ladder match ``start + index`` (``index`` an int >= 0) with ``seed``; the
        finished match as a :class:`~ginrummy.simulate.GameOutcome` (its ``index`` the match's
        number from 0)."""
        index += self.start
        a, b = self.pairs[index % len(self.pairs)]
        return play_game(self.rules, [a, b], index, seed)


def ladder_key(rules: RuleSet, levels: Sequence[str], seed: int) -> str:
    """A ladder's name in its recorded results (``ladder-KEY-N`` for its match ``N``, from 1):
    12 hex digits of the SHA-256 of the rules (as two-hand rules, as the ladder plays them), the
    levels in order and the seed, which together decide every match."""
    rules = rules.replace(players=2) if rules.players != 2 else rules
    text = json.dumps([rules.to_dict(), list(dict.fromkeys(levels)), seed], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def ladder_played(engine: Engine, rules: RuleSet, levels: Sequence[str], seed: int) -> int:
    """How many matches of this ladder (:func:`ladder_key`) the database has recorded: a new
    run plays the matches after them, so a second run with the same seed adds new matches
    instead of counting the same ones again."""
    prefix = f"ladder-{ladder_key(rules, levels, seed)}-"
    if not inspect(engine).has_table(results_t.name):  # a new database: nothing played yet
        return 0
    with engine.connect() as conn:
        ids = conn.execute(select(results_t.c.id).where(results_t.c.id.startswith(prefix, autoescape=True))).scalars()
        return max((int(i[len(prefix) :]) for i in ids if i[len(prefix) :].isdigit()), default=0)


def run_ladder(
    engine: Engine,
    rules: RuleSet,
    levels: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    on_game: Callable[[GameOutcome], None] | None = None,
    workers: int = 1,
    ray_address: str | None = None,
    shard_size: int | None = None,
) -> list[LadderEntry]:
    """Play ``games`` matches (an int >= 0) between pairs of ``levels`` (at least two distinct
    levels) under two-hand ``rules`` rateable by :func:`~ginrummy.web.community.ratings.rateable` (a game
    to 100/250 or Hollywood), rate each one, and return the levels' ladder entries, best first.

    ``workers`` and ``ray_address`` say where the matches are played
    (:func:`ginrummy.shards.iter_shards`: this process, ``workers`` local processes, or Ray);
    ``shard_size`` games per shard (default: :func:`ginrummy.shards.plan_shards`).  Results
    are rated in match order, each as soon as every earlier match is rated, so the ratings and
    the recorded results are the same for every split.  ``on_game`` is called with each match
    in match order, after it is rated.

    The matches are those after the ones of the same ladder (the same rules, levels and seed,
    :func:`ladder_key`) that the database has recorded already (:func:`ladder_played`): a run
    after one of 60 matches plays matches 61 to 60 + ``games``, so running the ladder again
    rates new matches, never the same ones twice.

    Raises ``ValueError`` for fewer than two distinct levels, a negative ``games`` or rules
    that are not rateable; :class:`~ginrummy.shards.ShardError` (a ``ValueError``) for bad
    ``workers``/``ray_address`` or Ray asked for but not installed;
    :class:`~ginrummy.errors.GinRummyError` for an unknown level.
    """
    levels = list(dict.fromkeys(levels))
    if len(levels) < 2:
        raise ValueError("the ladder needs at least two distinct computer levels")
    if type(games) is not int or games < 0:
        raise ValueError(f"games must be an int >= 0, not {games!r}")
    rules = rules.replace(players=2) if rules.players != 2 else rules
    if not rateable(rules):
        raise ValueError("ladder matches are rated: use a game to 100 or 250, or Hollywood")
    for lv in levels:
        make_player(lv)  # an unknown level is refused before anything is written
    accounts = Accounts(engine)
    ids = {lv: accounts.computer(lv) for lv in levels}
    key = ladder_key(rules, levels, seed)
    task = LadderTask(rules, tuple(pairings(levels)), ladder_played(engine, rules, levels, seed))
    waiting: dict[int, GameOutcome] = {}  # finished out of order, until the matches before them are rated
    nxt = 0
    for index, game in iter_shards(task, games, seed, workers=workers, ray_address=ray_address, shard_size=shard_size):
        waiting[index] = game
        while nxt in waiting:
            game = waiting.pop(nxt)
            by_player = [ids[game.levels[p]] for p in range(2)]
            with engine.begin() as conn:
                record_match(conn, f"ladder-{key}-{game.index + 1}", game.match, by_player, rated=True, source="ladder")
            if on_game is not None:
                on_game(game)
            nxt += 1
    with engine.connect() as conn:
        rows = conn.execute(
            select(accounts_t).where(accounts_t.c.id.in_(list(ids.values()))).order_by(accounts_t.c.ordinal.desc())
        ).all()
    return [
        LadderEntry(r.name, display_rating(r.mu, r.sigma), r.mu, r.sigma, int(r.matches), is_provisional(r.sigma))
        for r in rows
    ]
