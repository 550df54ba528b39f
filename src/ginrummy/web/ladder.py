"""The computer levels on the ladder: they play each other and their ratings are written.

:func:`run_ladder` plays ``games`` whole matches between pairs of computer levels (every
unordered pair in turn) with :func:`ginrummy.simulate.play_game`, the loop of ``gin simulate``,
and records each finished match with :func:`ginrummy.web.ratings.record_match` (rated, one
OpenSkill update a match, in game order, each committed on its own) on the web server's
database.  A server started on that database then shows calibrated computer players, and
people's results against them move both (``docs/accounts.md``).
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from ..rules import RuleSet
from ..simulate import GameOutcome, play_game
from .accounts import Accounts, accounts_t
from .ratings import display_rating, is_provisional, rateable, record_match

__all__ = ["run_ladder", "LadderEntry", "pairings"]


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


def run_ladder(engine: Engine, rules: RuleSet, levels: Sequence[str], games: int, seed: int = 0, *,
               on_game: Callable[[GameOutcome], None] | None = None) -> list[LadderEntry]:
    """Play ``games`` matches (an int >= 0) between pairs of ``levels`` (at least two distinct
    levels) under two-hand ``rules`` rateable by :func:`~ginrummy.web.ratings.rateable` (a game
    to 100/250 or Hollywood), rate each one, and return the levels' ladder entries, best first.

    Raises ``ValueError`` for fewer than two distinct levels, a negative ``games`` or rules
    that are not rateable; :class:`~ginrummy.errors.GinRummyError` for an unknown level.
    """
    levels = list(dict.fromkeys(levels))
    if len(levels) < 2:
        raise ValueError("the ladder needs at least two distinct computer levels")
    if type(games) is not int or games < 0:
        raise ValueError(f"games must be an int >= 0, not {games!r}")
    rules = rules.replace(players=2) if rules.players != 2 else rules
    if not rateable(rules):
        raise ValueError("ladder matches are rated: use a game to 100 or 250, or Hollywood")
    accounts = Accounts(engine)
    ids = {lv: accounts.computer(lv) for lv in levels}
    pairs = pairings(levels)
    run = secrets.token_hex(4)
    for i in range(games):
        a, b = pairs[i % len(pairs)]
        game = play_game(rules, [a, b], i, seed)
        by_player = [ids[game.levels[p]] for p in range(2)]
        with engine.begin() as conn:
            record_match(conn, f"ladder-{run}-{i + 1}", game.match, by_player, rated=True, source="ladder")
        if on_game is not None:
            on_game(game)
    with engine.connect() as conn:
        rows = conn.execute(select(accounts_t).where(accounts_t.c.id.in_(list(ids.values())))
                            .order_by(accounts_t.c.ordinal.desc())).all()
    return [LadderEntry(r.name, display_rating(r.mu, r.sigma), r.mu, r.sigma, int(r.matches), is_provisional(r.sigma))
            for r in rows]
