"""The review of a played deal or match: what the expert would have done, move by move.

For every decision of a record (a seat to act with two or more legal moves), the review asks
the ``expert`` player (:class:`~ginrummy.players.expert.ExpertPlayer`) to value the move played
and the moves it weighs itself, from that seat's :class:`~ginrummy.views.PlayerView` at that
moment: never a hidden card.  All moves are played out on the same sampled deals (common random
numbers), so their difference is paired.  Then:

* ``value`` is the mean over the sampled deals of the **chance to win** the game (R11.1,
  ``scoring="game"``) or the Hollywood match (R12) from the score after the deal, or, when one
  deal is the whole game (``scoring="deal"``, the ``single`` preset), the chance to win that
  deal (a drawn deal counting half, as the computer players who play to win the deal count it),
  in percentage points (``"win_chance"``);
* ``best`` is the move with the highest value; ``loss = value_best - value_played`` (>= 0);
* ``noise`` is :data:`NOISE_Z` standard errors of the paired difference best - played over the
  sampled deals; a decision is marked only when its loss exceeds its noise, and then by the
  thresholds of :data:`THRESHOLDS` on the loss (``inaccuracy``, ``mistake``, ``blunder``).

The number of sampled deals is fixed by the budget (:func:`samples_for`): no clock is read, so
the same record, budget and seed give the same review, in any thread.  Each decision draws from
its own ``random.Random(f"{seed}/{deal}/{index}")``, so reviewing one player or one deal gives
the same values as reviewing the whole match.

A **hindsight** line per deal (:mod:`ginrummy.analysis.hindsight`), computed with every card shown, says
when each player could first have won the deal; it is kept apart from the fair review.

The JSON contract of :func:`review_match` and the CLI (``gin review``) is in ``docs/review.md``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action
from ..deal import DealState
from ..errors import N_, Msg, RecordError
from ..match import Match
from ..players.expert import ExpertPlayer, action_words, game_win_table
from ..record import GameRecord, RecordedDeal, deal_states, dumps, loads, replay
from ..rules import RuleSet
from ..scoring import ScoreSheet
from ..views import view_of
from .hindsight import Hindsight, hindsight
from .performance import performance

__all__ = [
    "DEFAULT_BUDGET_MS",
    "SAMPLES_PER_MS",
    "MIN_SAMPLES",
    "MAX_BUDGET_MS",
    "NOISE_Z",
    "THRESHOLDS",
    "Decision",
    "DealReview",
    "PlayerSummary",
    "Review",
    "samples_for",
    "build_review",
    "count_decisions",
    "review_match",
    "value_kind",
    "outcome_value",
]

#: The default budget per decision, in milliseconds (``--budget-ms``).
DEFAULT_BUDGET_MS = 100.0
#: Sampled deals per millisecond of budget: on the reference machine (``benchmarks/RESULTS.md``)
#: a decision with its usual four candidates plays about this many sampled deals a millisecond.
SAMPLES_PER_MS = 0.5
#: The fewest sampled deals a decision is given, whatever the budget.
MIN_SAMPLES = 16
#: The largest budget per decision accepted, in milliseconds (30,000 sampled deals).
MAX_BUDGET_MS = 60000.0
#: Standard errors of the paired difference that a loss must exceed to be marked.
NOISE_Z = 2.0
#: Loss thresholds per value kind: ``(inaccuracy, mistake, blunder)``, in percentage points of
#: win chance (``win_chance``) or in deal points (``points``).  A loss at or above a threshold
#: (and above the noise) gets that mark.
THRESHOLDS: dict[str, tuple[float, float, float]] = {"win_chance": (1.0, 3.0, 6.0)}
#: How many discards (best by deadwood and danger) the expert weighs beside the move played.
REVIEW_DISCARDS = 4

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called with ``(0, total)`` first, then after each decision."""


def samples_for(budget_ms: float) -> int:
    """The sampled deals per decision for a budget of ``budget_ms`` milliseconds:
    ``max(MIN_SAMPLES, round(budget_ms * SAMPLES_PER_MS))``.  Raises ``ValueError`` unless
    ``budget_ms`` is a number > 0 and at most :data:`MAX_BUDGET_MS`."""
    if (
        isinstance(budget_ms, bool)
        or not isinstance(budget_ms, (int, float))
        or not math.isfinite(budget_ms)
        or not 0 < budget_ms <= MAX_BUDGET_MS
    ):
        raise ValueError(f"budget_ms must be a number > 0 and at most {MAX_BUDGET_MS:g}, not {budget_ms!r}")
    return max(MIN_SAMPLES, round(budget_ms * SAMPLES_PER_MS))


def value_kind(rules: RuleSet) -> str:
    """``"win_chance"``: what a review's values are, whatever the scoring (R11.1, R12): the
    chance to win the game, the Hollywood match, or the deal when one deal is the whole game.
    (``"points"``, expected deal points, was the kind of one-deal reviews until 2026-12-01: it
    marked a knock that won the match as a mistake against playing on for more points.)"""
    return "win_chance"


def _at_least_two(p: Sequence[float]) -> float:
    a, b, c = p
    return a * b + a * c + b * c - 2 * a * b * c


def outcome_value(sheet: ScoreSheet, me: int, opponent: int, winner: int | None, points: int) -> float:
    """The value for player ``me`` of a deal won by player ``winner`` (``None``: drawn) with
    ``points``, the match's sheet before the deal being ``sheet``.

    * ``scoring="deal"`` (R11.1): one deal is the game: 100 if ``me`` wins it, 0 if the other
      player does, 50 for a drawn deal (R7), whatever the points.
    * ``scoring="game"``: the chance (percent) that ``me`` wins the game from the score after
      the deal, by the expert's model of the rest of a game (:func:`game_win_table`: each deal
      won by either player with equal chance); 100 or 0 when the deal ends the game.
    * ``scoring="hollywood"`` (R12): the chance (percent) of winning at least two of the three
      games, each open game's chance taken from the same table and the games treated as
      independent (a model: they share their deals); a finished game counts 100 or 0.

    ``opponent`` is the player ``me`` is measured against (in three-hand gin, R10, the other
    player of the deal)."""
    if sheet.rules.scoring == "deal":
        return 50.0 if winner is None else (100.0 if winner == me else 0.0)
    after = sheet if winner is None else sheet.add(winner, points)
    target = sheet.rules.target
    table = game_win_table(target)
    chances = []
    for g in after.games:
        if g.finished:
            chances.append(1.0 if g.winner == me else 0.0)
        else:
            chances.append(float(table[min(target, g.points[me]), min(target, g.points[opponent])]))
    p = chances[0] if len(chances) == 1 else _at_least_two(chances)
    return 100.0 * p


@dataclass(frozen=True)
class Decision:
    """One reviewed decision.

    Attributes:
        index: the action's number in the deal (1-based, every action counted).
        player: the deciding player's name; ``seat`` his deal seat.
        phase: ``upcard_offer``, ``draw``, ``wall`` or ``discard``.
        played, best: the move played and the best move found (text forms, ``discard 7H``).
        value_played, value_best: their values (percentage points of win chance).
        loss: ``value_best - value_played`` (>= 0); noise: ``NOISE_Z`` standard errors of it.
        mark: ``inaccuracy``, ``mistake``, ``blunder`` or ``None``.
        reason: why, as a :class:`~ginrummy.errors.Msg` (English text, translatable).
        samples: the sampled deals it was valued on.
    """

    index: int
    player: str
    seat: int
    phase: str
    played: str
    best: str
    value_played: float
    value_best: float
    loss: float
    noise: float
    mark: str | None
    reason: Msg
    samples: int

    def to_dict(self) -> dict[str, Any]:
        """The decision's JSON object (``docs/review.md``)."""
        return {
            "index": self.index,
            "player": self.player,
            "phase": self.phase,
            "played": self.played,
            "best": self.best,
            "value_played": round(self.value_played, 2),
            "value_best": round(self.value_best, 2),
            "loss": round(self.loss, 2),
            "mark": self.mark,
            "reason": str(self.reason),
        }


@dataclass(frozen=True)
class DealReview:
    """The review of one deal: its ``number``, its decisions in order and the hindsight line."""

    number: int
    decisions: tuple[Decision, ...]
    hindsight: Hindsight

    def to_dict(self) -> dict[str, Any]:
        """The deal's JSON object (``docs/review.md``)."""
        return {
            "number": self.number,
            "decisions": [d.to_dict() for d in self.decisions],
            "hindsight": self.hindsight.to_dict(),
        }


@dataclass(frozen=True)
class PlayerSummary:
    """One player's totals: decisions, marks, the mean loss and the accuracy (the percentage
    of decisions whose loss is within the noise)."""

    decisions: int
    inaccuracies: int
    mistakes: int
    blunders: int
    mean_loss: float
    accuracy: float

    def to_dict(self) -> dict[str, Any]:
        """The summary's JSON object."""
        return {
            "decisions": self.decisions,
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "mean_loss": round(self.mean_loss, 3),
            "accuracy": round(self.accuracy, 1),
        }

    @staticmethod
    def of(decisions: Sequence[Decision]) -> PlayerSummary:
        """The summary of ``decisions`` (all of one player)."""
        n = len(decisions)
        marks = [d.mark for d in decisions]
        return PlayerSummary(
            n,
            marks.count("inaccuracy"),
            marks.count("mistake"),
            marks.count("blunder"),
            sum(d.loss for d in decisions) / n if n else 0.0,
            100.0 * sum(1 for d in decisions if d.loss <= d.noise) / n if n else 100.0,
        )


@dataclass(frozen=True)
class Review:
    """A whole review: the ``players`` reviewed (names), the ``value`` kind, the deals and the
    per-player summary, with how it was made (``samples`` per decision, ``budget_ms``, ``seed``)."""

    players: tuple[str, ...]
    value: str
    deals: tuple[DealReview, ...]
    summary: dict[str, PlayerSummary]
    samples: int
    budget_ms: float
    seed: int
    thresholds: tuple[float, float, float] = field(default=(0.0, 0.0, 0.0))

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract of ``docs/review.md``: ``players``, ``value``, ``deals``, ``summary``,
        ``performance`` (:func:`ginrummy.analysis.performance.performance`) and ``method`` (how the values were estimated)."""
        return {
            "players": list(self.players),
            "value": self.value,
            "deals": [d.to_dict() for d in self.deals],
            "summary": {name: s.to_dict() for name, s in self.summary.items()},
            "performance": {name: p.to_dict() for name, p in performance(self).items()},
            "method": {
                "samples": self.samples,
                "budget_ms": self.budget_ms,
                "seed": self.seed,
                "noise_z": NOISE_Z,
                "thresholds": dict(zip(("inaccuracy", "mistake", "blunder"), self.thresholds)),
            },
        }


# -- walking the record ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Point:
    """A decision to value: the state before the action, who acted and what."""

    deal: int
    index: int
    state: DealState
    seat: int
    player: int
    action: Action
    sheet: ScoreSheet
    seat_players: tuple[int, int]


def _as_record(record: GameRecord | Match | str) -> GameRecord:
    if isinstance(record, GameRecord):
        return record
    if isinstance(record, Match):
        return loads(dumps(record))
    if isinstance(record, str):
        return loads(record)
    raise RecordError(f"a review needs a record (text), a GameRecord or a Match, not {type(record).__name__}")


def _resolve_player(rec: GameRecord, player: str | None) -> int | None:
    if player is None:
        return None
    folded = [n.casefold() for n in rec.names]
    key = str(player).strip().casefold()
    if key not in folded:
        raise RecordError(f"no player {player!r} in this record; players: {', '.join(rec.names)}")
    return folded.index(key)


def _points(rec: GameRecord, player: int | None, deal: int | None) -> tuple[list[_Point], list[RecordedDeal]]:
    match = replay(rec)  # checks the whole record first: a bad one raises RecordError naming its line
    results = match.sheet.results
    if deal is not None and (type(deal) is not int or not 1 <= deal <= len(rec.deals)):
        raise RecordError(f"no deal {deal!r} in this record; deals: 1..{len(rec.deals)}")
    if deal is not None and rec.deals[deal - 1].sealed:
        raise RecordError(f"deal {deal} is sealed: its cards are still secret, so it cannot be reviewed")
    points: list[_Point] = []
    # a sealed deal (a public record's drawn deal before the match is over) has no cards to replay
    deals = [d for d in rec.deals if (deal is None or d.number == deal) and not d.sealed]
    for d in deals:
        sheet = ScoreSheet(rec.rules, len(rec.names), results[: d.number - 1])
        for index, state, seat, action in deal_states(rec.rules, d)[0]:
            who = d.seat_players[seat]
            if (player is None or who == player) and len(state.legal_actions()) > 1:
                points.append(_Point(d.number, index, state, seat, who, action, sheet, d.seat_players))
    return points, deals


# -- valuing one decision ---------------------------------------------------------------------


def _strip(a: Action) -> Action:
    """A knock with the knocker's own arrangement is valued as the proposed one (R5.2)."""
    return Action(a.kind, a.card) if a.melds is not None else a


def _mark(loss: float, noise: float, thresholds: tuple[float, float, float]) -> str | None:
    if loss <= noise:
        return None
    for name, limit in zip(("blunder", "mistake", "inaccuracy"), reversed(thresholds)):
        if loss >= limit:
            return name
    return None


def _evaluate(pt: _Point, names: Sequence[str], rules: RuleSet, samples: int, seed: int, kind: str) -> Decision:
    scores = {"names": list(names), "totals": list(pt.sheet.totals), "seat_players": list(pt.seat_players)}
    view = view_of(pt.state, pt.seat, scores=scores)
    # the review keeps the hand-made opponent model (issue 17 measured the learned one in play
    # only): its marks, noise and speed are those documented in docs/review.md
    expert = ExpertPlayer(
        random.Random(f"{seed}/{pt.deal}/{pt.index}"),
        budget_ms=None,
        max_discards=REVIEW_DISCARDS,
        opponent_model="rules",
    )
    played = _strip(pt.action)
    actions = expert.candidates(view, view.legal)
    if played not in actions:
        actions.append(played)
    me, opp = pt.player, pt.seat_players[1 - pt.seat]
    cache: dict[tuple[int | None, int], float] = {}

    def value(winner: int | None, pts: int) -> float:
        key = (winner, pts)
        if key not in cache:
            who = None if winner is None else (me if winner == 0 else opp)
            cache[key] = outcome_value(pt.sheet, me, opp, who, pts)
        return cache[key]

    outs = expert.outcomes(view, actions, samples)
    values = [[value(w, p) for w, p in o] for o in outs]
    means = [sum(v) / len(v) for v in values]
    i_played = actions.index(played)
    i_best = max(range(len(actions)), key=lambda i: (means[i], i == i_played))
    loss = max(0.0, means[i_best] - means[i_played])
    diffs = [b - p for b, p in zip(values[i_best], values[i_played])]
    mu = sum(diffs) / samples
    var = sum((x - mu) ** 2 for x in diffs) / max(1, samples - 1)
    noise = NOISE_Z * math.sqrt(var / samples)
    thresholds = THRESHOLDS[kind]
    mark = _mark(loss, noise, thresholds)
    unit = N_("points of win chance")
    if i_best == i_played:
        reason = N_("{action} is the best move found", action=action_words(pt.action))
    elif mark is None and loss <= noise:
        reason = N_(
            "{action} is as good as {best} within the noise (±{noise} {unit})",
            action=action_words(pt.action),
            best=action_words(actions[i_best]),
            noise=round(noise, 1) + 0.0,
            unit=unit,
        )
    elif mark is None:
        reason = N_(
            "{best} is better by {loss} {unit}, below the inaccuracy threshold {limit}",
            best=action_words(actions[i_best]),
            loss=round(loss, 1) + 0.0,
            unit=unit,
            limit=thresholds[0],
        )
    else:
        reason = N_(
            "{best} is better by {loss} {unit} (noise ±{noise})",
            best=action_words(actions[i_best]),
            loss=round(loss, 1) + 0.0,
            unit=unit,
            noise=round(noise, 1) + 0.0,
        )
    return Decision(
        pt.index,
        names[pt.player],
        pt.seat,
        pt.state.phase,
        pt.action.text,
        actions[i_best].text,
        means[i_played],
        means[i_best],
        loss,
        noise,
        mark,
        reason,
        samples,
    )


# -- the API ----------------------------------------------------------------------------------


def count_decisions(record: GameRecord | Match | str, *, player: str | None = None, deal: int | None = None) -> int:
    """How many decisions :func:`build_review` with the same ``record``, ``player`` and ``deal``
    values (its ``total``), without valuing any: the cost of a review is known before it runs
    (``ginrummy.web.review_budget``).  A decision is a turn with more than one legal action.
    Raises as :func:`build_review` does (:class:`~ginrummy.errors.RecordError`)."""
    rec = _as_record(record)
    return len(_points(rec, _resolve_player(rec, player), deal)[0])


def build_review(
    record: GameRecord | Match | str,
    *,
    player: str | None = None,
    deal: int | None = None,
    budget_ms: float = DEFAULT_BUDGET_MS,
    seed: int = 0,
    progress: Progress | None = None,
) -> Review:
    """Review ``record`` (a record's text, a parsed :class:`GameRecord` or a :class:`Match`):
    every decision of every player, or of the one named ``player`` (a name of the record, any
    case), in every deal or in deal number ``deal`` (1-based).

    ``budget_ms`` sets the sampled deals per decision (:func:`samples_for`; no clock is read);
    ``seed`` (int) seeds every decision's sampling, so the same arguments give the same review.
    ``progress(done, total)`` is called as decisions are valued (from the calling thread).
    Pure: no I/O and no global state, so it may run in a worker thread.

    A sealed deal (a public record's deal whose cards are still secret) is left out: it has no
    cards to review.

    Raises :class:`~ginrummy.errors.RecordError` (a ``ValueError``) for a record that does not
    parse or replay (naming its line), an unknown player or deal, a sealed deal asked for;
    ``ValueError`` for a bad budget or seed.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an int, not {seed!r}")
    samples = samples_for(budget_ms)
    rec = _as_record(record)
    who = _resolve_player(rec, player)
    points, deals = _points(rec, who, deal)
    kind = value_kind(rec.rules)
    total = len(points)
    if progress is not None:
        progress(0, total)
    decisions: dict[int, list[Decision]] = {d.number: [] for d in deals}
    for done, pt in enumerate(points, 1):
        decisions[pt.deal].append(_evaluate(pt, rec.names, rec.rules, samples, seed, kind))
        if progress is not None:
            progress(done, total)
    reviewed = tuple(rec.names) if who is None else (rec.names[who],)
    out = []
    for d in deals:
        seats = [p for p in d.seat_players if who is None or p == who]
        out.append(
            DealReview(
                d.number,
                tuple(decisions[d.number]),
                hindsight(rec.rules, d, [(rec.names[p], d.seat_players.index(p)) for p in seats]),
            )
        )
    summary = {name: PlayerSummary.of([x for dr in out for x in dr.decisions if x.player == name]) for name in reviewed}
    return Review(reviewed, kind, tuple(out), summary, samples, float(budget_ms), seed, THRESHOLDS[kind])


def review_match(
    record: GameRecord | Match | str,
    *,
    player: str | None = None,
    deal: int | None = None,
    budget_ms: float = DEFAULT_BUDGET_MS,
    seed: int = 0,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """:func:`build_review` as its JSON-ready dict (the contract of ``docs/review.md``):
    ``{"players": [name], "value": "win_chance", "deals": [{"number", "decisions": [
    {"index", "player", "phase", "played", "best", "value_played", "value_best", "loss", "mark",
    "reason"}], "hindsight": {...}}], "summary": {name: {"decisions", "inaccuracies", "mistakes",
    "blunders", "mean_loss", "accuracy"}}, "method": {...}}``.  Same arguments and errors as
    :func:`build_review`; safe to call from a worker thread (the web table's use)."""
    return build_review(record, player=player, deal=deal, budget_ms=budget_ms, seed=seed, progress=progress).to_dict()
