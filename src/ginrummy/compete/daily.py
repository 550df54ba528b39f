"""The daily duplicate deals: one secret seed a day, the same deals for everyone, scored by
matchpoints against the field (``docs/compete.md``).

**Seeds.**  The day's seed is ``HMAC-SHA256(secret, "ginrummy/daily/" || day)`` (``day`` the
UTC date written ``YYYY-MM-DD``): the server's ``secret`` never leaves it, and revealing one
day's seed says nothing of another day's.  Its commitment ``SHA-256(day seed)`` is published
in advance, and the seed itself once the day is over (:func:`reveal_at`).  Deal ``k`` of the
day (1..:data:`DAILY_DEALS`) is a match under :data:`DAILY_RULES` (the ``single`` preset, R13:
one scored deal ends it) with match seed ``SHA-256(day seed || "/daily/" || k)`` and no client
seeds, so its cards depend on nothing else: every entrant is player 0, the computer player 1,
and both get the same cards, dealer (R3.1) and stock as everyone else on that deal.  Its
record (``docs/record-format.md``) is an ordinary finished match: ``gin verify`` checks it
from its own ``seed`` line, and :func:`check_record` also checks that seed against the
revealed day seed.

**Scoring.**  An entrant's result on a deal is his points minus the computer's (the record's
last ``score`` line, R6).  Each result is compared with every other result on the same deal
against the same computer level: 2 matchpoints for each result it beats, 1 for each equal,
as a percentage of the most it could get (:func:`matchpoints`).  The daily score is the mean
percentage over the day's deals (a deal not played counts 0); the monthly score is the sum of
the daily scores.  Tables rank with ties shared ("1224", :func:`rank`).

Pure: no I/O, no clock (days and times are passed in), no global random.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from fractions import Fraction
from typing import Any

from ..errors import N_, RecordError
from ..match import Match, commitment
from ..record import loads, verify
from ..rules import RuleSet, preset
from .errors import CompeteError

__all__ = [
    "DAILY_DEALS",
    "DAILY_RULES",
    "DAILY_LEVELS",
    "daily_seed",
    "deal_seed_of_day",
    "DailySet",
    "daily_set",
    "daily_match",
    "reveal_at",
    "may_reveal",
    "check_record",
    "Entry",
    "result_of",
    "matchpoints",
    "rank",
    "TableRow",
    "daily_table",
    "monthly_table",
    "how_others_played",
    "challenge_seed",
    "challenge_games",
    "challenge_seat",
    "challenge_match",
    "challenge_result",
    "ChallengeScore",
    "challenge_score",
]

DAILY_DEALS = 8
"""Deals in a day's set (as many as a short bridge daily: about twenty minutes of play)."""

DAILY_RULES: RuleSet = preset("single")
"""The rules of every daily deal: the ``single`` preset (R13), one scored deal ends the match."""

DAILY_LEVELS = ("novice", "club", "expert")
"""The computer levels a person may choose to play the day's deals against; each level has
its own field (results are compared only with those against the same level)."""


def _day(day: date) -> date:
    if isinstance(day, datetime) or not isinstance(day, date):
        raise TypeError(f"a day is a datetime.date, not {day!r}")
    return day


def daily_seed(secret: bytes, day: date) -> bytes:
    """The secret seed (32 bytes) of ``day``: HMAC-SHA256 of ``"ginrummy/daily/YYYY-MM-DD"``
    keyed with the server's ``secret`` (non-empty bytes).  Raises ``ValueError`` for an empty
    secret, ``TypeError`` for a day that is not a ``date``."""
    if not isinstance(secret, (bytes, bytearray)) or not secret:
        raise ValueError("the daily secret is non-empty bytes")
    return hmac.new(bytes(secret), b"ginrummy/daily/" + _day(day).isoformat().encode(), hashlib.sha256).digest()


def _number(number: int, deals: int) -> int:
    if type(number) is not int or not 1 <= number <= deals:
        raise CompeteError(N_("no deal {number}: the deals are numbered 1 to {deals}", number=number, deals=deals))
    return number


def deal_seed_of_day(seed: bytes, number: int) -> bytes:
    """The match seed of deal ``number`` (1..:data:`DAILY_DEALS`) of the day seeded ``seed``:
    SHA-256(seed || "/daily/" || number), the number in ASCII decimal.  Raises
    :class:`CompeteError` for a number out of range."""
    return hashlib.sha256(bytes(seed) + b"/daily/" + str(_number(number, DAILY_DEALS)).encode()).digest()


@dataclass(frozen=True)
class DailySet:
    """What is published about a day before it starts.

    Attributes:
        day: the UTC date.
        commitment: SHA-256 of the day seed, hex.
        deal_commitments: for each deal 1..N, SHA-256 of its match seed, hex: the
            ``seed-commitment`` line every record of that deal carries.
        rules: the rule set's name (``single``).
        levels: the computer levels to choose from.
    """

    day: date
    commitment: str
    deal_commitments: tuple[str, ...]
    rules: str = DAILY_RULES.name
    levels: tuple[str, ...] = DAILY_LEVELS

    def to_json(self) -> dict[str, Any]:
        """``{"day": "YYYY-MM-DD", "commitment", "deal_commitments": [...], "rules", "levels"}``."""
        return {
            "day": self.day.isoformat(),
            "commitment": self.commitment,
            "deal_commitments": list(self.deal_commitments),
            "rules": self.rules,
            "levels": list(self.levels),
        }


def daily_set(secret: bytes, day: date) -> DailySet:
    """The :class:`DailySet` of ``day`` (what may be shown before and during the day)."""
    seed = daily_seed(secret, day)
    return DailySet(
        day, commitment(seed), tuple(commitment(deal_seed_of_day(seed, k)) for k in range(1, DAILY_DEALS + 1))
    )


def daily_match(seed: bytes, number: int, person: str, level: str) -> Match:
    """A new match of deal ``number`` of the day seeded ``seed``: ``person`` is player 0,
    the computer level ``level`` (one of :data:`DAILY_LEVELS`) player 1, under
    :data:`DAILY_RULES`, without client seeds (the cards are the day's).  Raises
    :class:`CompeteError` for a deal number or level out of range."""
    if level not in DAILY_LEVELS:
        raise CompeteError(
            N_("no daily level {level!r}; levels: {levels}", level=level, levels=", ".join(DAILY_LEVELS))
        )
    return Match.new(DAILY_RULES, [person, level], deal_seed_of_day(seed, number))


def reveal_at(day: date) -> datetime:
    """When the seed of ``day`` may be revealed: the next midnight, UTC (an aware datetime)."""
    return datetime.combine(_day(day) + timedelta(days=1), time(0), tzinfo=UTC)


def may_reveal(day: date, now: datetime) -> bool:
    """Whether ``day``'s seed may be shown at ``now`` (an aware datetime): the day is over.
    Raises ``ValueError`` for a naive ``now``."""
    if now.tzinfo is None:
        raise ValueError("now must be an aware datetime (UTC)")
    return now >= reveal_at(day)


def check_record(text: str, seed: bytes, number: int) -> list[str]:
    """The problems of ``text`` as the record of daily deal ``number`` of the day whose
    revealed seed is ``seed``: ``[]`` when ``gin verify`` passes it complete, its rules are
    :data:`DAILY_RULES`, its match seed is the one the day seed gives deal ``number`` (so its
    cards are everyone's) and it has no client seeds.  Never raises on a bad record."""
    report = verify(text)
    if not report.ok:
        return [f"gin verify: {report.error}"]
    problems = [] if report.complete else [f"incomplete: {report.incomplete}"]
    rec = loads(text)
    want = deal_seed_of_day(seed, number)
    if rec.seed_commitment != commitment(want):
        problems.append(f"seed-commitment is not that of daily deal {number}")
    if rec.seed is not None and rec.seed != want:
        problems.append(f"the match seed is not that of daily deal {number}")
    if rec.rules.to_json() != DAILY_RULES.replace(players=len(rec.names)).to_json():
        problems.append("the rules are not the daily rules (preset single)")
    if any(d.client_seeds is not None for d in rec.deals):
        problems.append("a daily deal has no client seeds")
    return problems


@dataclass(frozen=True)
class Entry:
    """One person's finished daily deal.

    Attributes:
        player: the account name.
        day: the UTC date of the set.
        number: the deal number (1..N).
        level: the computer level played against.
        score: his points minus the computer's (R6), the deal's result.
        record: the stored game's id (for "how others played it").
        finished: when it ended (ISO 8601 text, for ordering only).
    """

    player: str
    day: date
    number: int
    level: str
    score: int
    record: str = ""
    finished: str = ""


def result_of(match_or_record: Match | str) -> int:
    """Player 0's points minus player 1's in a finished daily match (or its record text): the
    totals of the score sheet (R6, R11.3).  Raises :class:`CompeteError` for a match not
    finished and ``RecordError`` for a bad record."""
    if isinstance(match_or_record, Match):
        if not match_or_record.finished:
            raise CompeteError(N_("the deal is not over yet"))
        totals = match_or_record.sheet.totals
        return int(totals[0]) - int(totals[1])
    rec = loads(match_or_record)
    if rec.finished is None or not rec.deals or rec.deals[-1].score is None:
        raise CompeteError(N_("the deal is not over yet"))
    score = rec.deals[-1].score
    if score is None or len(score) != 2:  # pragma: no cover - a finished two-hand record has one
        raise RecordError("no two-hand score line")
    return int(score[0]) - int(score[1])


def matchpoints(entries: Iterable[Entry]) -> dict[tuple[str, date, int, str], Fraction]:
    """The matchpoint percentage (0..100, exact) of every entry, keyed ``(player, day,
    number, level)``: each result is compared with the others on the same deal and level, 2
    for each it beats and 1 for each it equals, out of ``2 (n - 1)``; alone on a deal, 50.
    Raises :class:`CompeteError` if a person has two results on one deal and level."""
    groups: dict[tuple[date, int, str], list[Entry]] = {}
    seen: set[tuple[str, date, int, str]] = set()
    for e in entries:
        key = (e.player, e.day, e.number, e.level)
        if key in seen:
            raise CompeteError(N_("{player} has already played daily deal {number}", player=e.player, number=e.number))
        seen.add(key)
        groups.setdefault((e.day, e.number, e.level), []).append(e)
    out: dict[tuple[str, date, int, str], Fraction] = {}
    for group in groups.values():
        n = len(group)
        for e in group:
            if n == 1:
                out[(e.player, e.day, e.number, e.level)] = Fraction(50)
                continue
            mp = sum(2 if e.score > o.score else 1 if e.score == o.score else 0 for o in group) - 1
            out[(e.player, e.day, e.number, e.level)] = Fraction(100 * mp, 2 * (n - 1))
    return out


def rank(scores: Sequence[tuple[str, Any]]) -> list[tuple[int, str, Any]]:
    """``(rank, name, key)`` for ``(name, key)`` pairs, best (highest key) first, equal keys
    sharing the rank of the first of them and the next rank skipping ("1224"); equal keys are
    listed by name."""
    ordered = sorted(scores, key=lambda s: s[0])
    ordered.sort(key=lambda s: s[1], reverse=True)
    out: list[tuple[int, str, Any]] = []
    for i, (name, key) in enumerate(ordered):
        r = out[-1][0] if out and out[-1][2] == key else i + 1
        out.append((r, name, key))
    return out


@dataclass(frozen=True)
class TableRow:
    """A row of a daily or monthly table: ``rank`` (shared by ties), ``player``, ``score``
    (a percentage, exact) and ``deals`` (deals played)."""

    rank: int
    player: str
    score: Fraction
    deals: int

    def to_json(self) -> dict[str, Any]:
        """``{"rank", "player", "score": percentage rounded to 2 decimals, "deals"}``."""
        return {"rank": self.rank, "player": self.player, "score": round(float(self.score), 2), "deals": self.deals}


def _table(totals: dict[str, Fraction], deals: dict[str, int]) -> list[TableRow]:
    return [TableRow(r, p, s, deals[p]) for r, p, s in rank(list(totals.items()))]


def daily_table(entries: Iterable[Entry], day: date, level: str) -> list[TableRow]:
    """The table of ``day`` against ``level``: each person's score is the sum of his deal
    percentages over :data:`DAILY_DEALS` (a deal not played counts 0), best first."""
    mine = [e for e in entries if e.day == day and e.level == level]
    mp = matchpoints(mine)
    totals: dict[str, Fraction] = {}
    deals: dict[str, int] = {}
    for (player, _, _, _), pct in mp.items():
        totals[player] = totals.get(player, Fraction(0)) + pct / DAILY_DEALS
        deals[player] = deals.get(player, 0) + 1
    return _table(totals, deals)


def monthly_table(entries: Iterable[Entry], year: int, month: int, level: str) -> list[TableRow]:
    """The table of a calendar month against ``level``: each person's score is the sum of his
    daily scores (:func:`daily_table`) over the days of the month, best first."""
    mine = [e for e in entries if e.day.year == year and e.day.month == month and e.level == level]
    totals: dict[str, Fraction] = {}
    deals: dict[str, int] = {}
    for day in sorted({e.day for e in mine}):
        for row in daily_table(mine, day, level):
            totals[row.player] = totals.get(row.player, Fraction(0)) + row.score
            deals[row.player] = deals.get(row.player, 0) + row.deals
    return _table(totals, deals)


def how_others_played(entries: Iterable[Entry], day: date, number: int, level: str) -> tuple[Entry, Entry] | None:
    """``(best, median)``: the entries whose records a person is shown after he played deal
    ``number`` of ``day`` against ``level``.  Results are sorted best first (ties: earlier
    ``finished``, then name); the best is the first, the median the one at index
    ``(n - 1) // 2`` (the better of the two middle ones).  ``None`` when nobody played it."""
    group = sorted(
        (e for e in entries if e.day == day and e.number == number and e.level == level),
        key=lambda e: (-e.score, e.finished, e.player),
    )
    if not group:
        return None
    return group[0], group[(len(group) - 1) // 2]


# -- the friend challenge ---------------------------------------------------------------------


def challenge_seed(secret: bytes, challenge_id: str) -> bytes:
    """The secret seed of a friend challenge: HMAC-SHA256(secret, "ginrummy/challenge/" || id)."""
    if not isinstance(secret, (bytes, bytearray)) or not secret:
        raise ValueError("the challenge secret is non-empty bytes")
    return hmac.new(bytes(secret), b"ginrummy/challenge/" + challenge_id.encode(), hashlib.sha256).digest()


def challenge_games(deals: int) -> list[tuple[int, bool]]:
    """The games of a challenge of ``deals`` deals (1..:data:`DAILY_DEALS`), in deal order:
    ``(deal number, swapped)``, each deal twice: the challenger's game (``False``: he is
    player 0, the computer player 1) and the other person's (``True``: the computer is player
    0 with the challenger's cards, the person player 1 with the computer's cards of the
    challenger's game).  Raises :class:`CompeteError` for a count out of range."""
    if type(deals) is not int or not 1 <= deals <= DAILY_DEALS:
        raise CompeteError(N_("a challenge has 1 to {most} deals, not {deals}", most=DAILY_DEALS, deals=deals))
    return [(k, s) for k in range(1, deals + 1) for s in (False, True)]


def challenge_seat(swapped: bool) -> int:
    """The person's player index in a challenge game: 0 in the challenger's (``swapped``
    false), 1 in the other person's (he holds what the computer held at the challenger's table)."""
    return 1 if swapped else 0


def challenge_match(seed: bytes, number: int, swapped: bool, person: str, level: str) -> Match:
    """The match of deal ``number`` of the challenge seeded ``seed`` played by ``person``
    against the computer ``level``: ``person`` is player 0 and the computer player 1, or the
    other way round when ``swapped``.  Both games of a deal have the same match seed
    (:func:`deal_seed_of_day`), so the same hands by player index, the same first dealer
    (R3.1) and the same stock: each person holds the cards the computer held against the other.
    Rules :data:`DAILY_RULES`, no client seeds.  Raises :class:`CompeteError` for a deal number
    out of range."""
    names = [level, person] if swapped else [person, level]
    return Match.new(DAILY_RULES, names, deal_seed_of_day(seed, number))


def challenge_result(result: int, swapped: bool) -> int:
    """The person's points minus the computer's in a challenge game whose :func:`result_of`
    (player 0's points minus player 1's) is ``result``: the negative in a swapped game."""
    return -result if swapped else result


@dataclass(frozen=True)
class ChallengeScore:
    """A challenge's result between ``a`` (the challenger) and ``b``.

    Attributes:
        a_results, b_results: per deal (index k-1), the person's points minus the computer's
            (:func:`challenge_result`), ``None`` until he has played it.
        per_deal: per deal, a's result minus b's, ``None`` until both have played it.
        total: the sum of ``per_deal`` over deals both have played (positive: a is ahead).
        complete: every game is played.
        winner: the name ahead on ``total`` once complete (``None`` for a tie or before).
    """

    a_results: tuple[int | None, ...]
    b_results: tuple[int | None, ...]
    per_deal: tuple[int | None, ...]
    total: int
    complete: bool
    winner: str | None


def challenge_score(
    a: str, b: str, deals: int, results: dict[tuple[int, bool], int], closed: bool = False
) -> ChallengeScore:
    """Score a challenge of ``deals`` deals: ``results[(k, swapped)]`` is :func:`result_of`
    (player 0's points minus player 1's) of that game; ``a`` played the games not swapped.
    ``closed``: the challenge ended before every game was played (it expired): the winner is
    the one ahead on the deals both played.  Raises :class:`CompeteError` for a count out of
    range."""
    games = challenge_games(deals)
    mine = {key: challenge_result(r, key[1]) for key, r in results.items()}
    ar = tuple(mine.get((k, False)) for k in range(1, deals + 1))
    br = tuple(mine.get((k, True)) for k in range(1, deals + 1))
    per = tuple(None if x is None or y is None else x - y for x, y in zip(ar, br))
    total = sum(p for p in per if p is not None)
    complete = all(key in results for key in games)
    winner = (a if total > 0 else b if total < 0 else None) if complete or closed else None
    return ChallengeScore(ar, br, per, total, complete, winner)
