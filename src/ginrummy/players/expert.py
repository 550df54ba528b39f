"""The ``expert`` player: Bayesian inference of the opponent's hand and determinized Monte
Carlo over the rest of the deal, choosing by the chance of winning the game.

For each decision (from the :class:`PlayerView` alone):

1. The candidate moves: take or leave the upcard or top discard (R4.1, R4.2, R7.2); or, after
   the draw, the best knock (R5.1) and the most promising discards (ranked by deadwood and
   by the danger of feeding the opponent, as the ``club`` player judges them).  Gin and big gin
   are taken at once (R6.1, R6.5).
2. Samples: opponent hands drawn from the posterior given his takes, passes and discards
   (:func:`ginrummy.players.inference.sample_hands`, with the hand-made likelihood factors by
   default, or the learned model's weights with ``opponent_model="learned"``), each with a random order of the remaining
   unknown cards as the stock.  Every candidate is played on the same samples (common random
   numbers), so the comparison is paired.
3. Each candidate is played out to the end of the deal with a fast policy of
   :mod:`ginrummy.players.rollout` for both sides (a knock is scored exactly against the sampled
   hand, R5, R6): by default the classic one (take only a card that makes a meld, knock at the
   first chance), or the careful one (``playout="careful"``: knock within a knock point that
   falls as the stock shrinks, as the ``club`` player does; avoid a discard that melds with the
   other hand; take a low card that saves much deadwood), which lost to the classic one on
   duplicate deals (``benchmarks/RESULTS.md``).  When one
   deal is the whole game (R11.1) both sides of a playout knock at the first chance.
4. The outcome is valued as the chance of winning the game from the new score (a table of a
   simple model of the rest of the game, :func:`game_win_table`), so near the target a small sure
   win beats a larger risky one; under single-deal scoring as the chance of winning the deal
   (deal points break near-ties); otherwise (Hollywood scoring, or no score in the view) as the
   deal points won or lost.
5. The ``club`` player's move is the default: another candidate is chosen only if it beats it
   by ``override_z`` standard errors of the paired difference, so few samples never make the
   expert weaker than the club player's rules.
6. It samples in batches until the time budget (``budget_ms``, default 150 ms) or the sample
   count (``samples``) is spent, drops candidates that are clearly behind, and stops early when
   one candidate is clearly best (paired difference above ``z`` standard errors).

With ``budget_ms=None`` the player never reads the clock and is deterministic given its ``rng``.

For the review of played records (:mod:`ginrummy.analysis.review`), :meth:`ExpertPlayer.candidates` gives
the moves weighed and :meth:`ExpertPlayer.outcomes` plays any legal moves on the same sampled
deals (no pruning, no clock); neither changes how the expert plays.
"""

from __future__ import annotations

import enum
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache

from ..actions import Action
from ..cards import CARD_VALUES, card_str, cards_of
from ..errors import N_, Msg
from ..melds import deadwood
from ..rules import MAX_TARGET
from ..views import PlayerView
from .base import register, stock_draw_due
from .club import DANGER_WEIGHT, ClubPlayer, score_context
from .inference import Knowledge, read_view, sample_hands
from .rollout import POLICIES, Policy, Table, knock_points, knocks_now, playout, policy_discard, take_by_policy

__all__ = [
    "FINE_POINTS",
    "ExpertPlayer",
    "GameTable",
    "MasterPlayer",
    "FixedExpertPlayer",
    "FixedMasterPlayer",
    "FIXED_SAMPLES",
    "DEFAULT",
    "action_words",
    "game_win_table",
]

#: Points distribution of a won deal in the model of :func:`game_win_table`: (points, chance).
_DEAL_POINTS = (
    (4, 0.12),
    (8, 0.14),
    (12, 0.14),
    (16, 0.11),
    (21, 0.09),
    (27, 0.08),
    (32, 0.09),
    (38, 0.08),
    (45, 0.08),
    (56, 0.07),
)


#: Up to this many points still needed the game model is exact, one point a cell; a longer
#: game (to at most ``MAX_TARGET``) is read on a grid of ``ceil(target / FINE_POINTS)`` points a
#: cell, its deal scores rounded up to that grid, so no table has more than 251 x 251 cells.
FINE_POINTS = 250


class GameTable:
    """The read-only table of :func:`game_win_table`: ``v[a, b]`` is the chance that a player
    with ``a`` points beats one with ``b`` to :attr:`target` (``0 <= a, b <= target``).

    Raises ``IndexError`` for a score outside ``0..target``; it has no item assignment.

    >>> v = game_win_table(100)
    >>> v.shape, v[100, 0], v[0, 100], v[50, 50]
    ((101, 101), 1.0, 0.0, 0.5)
    """

    __slots__ = ("target", "step", "_w")

    def __init__(self, target: int) -> None:
        self.target = target
        #: points a cell: 1 up to ``FINE_POINTS``, coarser past it
        self.step = max(1, -(-target // FINE_POINTS))
        self._w = _to_go(-(-target // self.step), self.step)

    @property
    def shape(self) -> tuple[int, int]:
        """``(target + 1, target + 1)``, as the table is indexed."""
        return (self.target + 1, self.target + 1)

    def __getitem__(self, key: tuple[int, int]) -> float:
        a, b = key
        t = self.target
        if not (0 <= a <= t and 0 <= b <= t):
            raise IndexError(f"game_win_table({t}): scores ({a}, {b}) are outside 0..{t}")
        s = self.step
        return self._w[-(-(t - a) // s)][-(-(t - b) // s)]


@lru_cache(maxsize=8)
def game_win_table(target: int) -> GameTable:
    """``V[a, b]``: the chance that a player with ``a`` points beats one with ``b`` to
    ``target`` (R11.1), if each deal is won by either side with equal chance and a won deal
    scores points drawn from a fixed distribution (``_DEAL_POINTS``).  Indexes ``0..target``
    (a score at or past the target is the target).

    Returns a read-only :class:`GameTable` of shape ``(target + 1, target + 1)``; ``V[t, b]``
    is 1 for every ``b`` (the player at the target has won), ``V[a, t]`` 0 for ``a < t``.  The
    chance depends only on the points each player still needs (:func:`_to_go`), so tables of
    different targets share one computation.  Exact for a target up to ``FINE_POINTS`` (250);
    past it the points are counted on a coarser grid (see :data:`FINE_POINTS`), so every table
    is at most 251 x 251 cells of pure Python (about 0.2 s at 250, ``benchmarks/RESULTS.md``).

    Raises ``ValueError`` for a target that is not a whole number in ``0..MAX_TARGET`` (1,000,
    the bound of the rule ``target``, R14).

    >>> round(game_win_table(250)[200, 150], 3) > 0.5
    True
    """
    if type(target) is not int or not 0 <= target <= MAX_TARGET:
        raise ValueError(f"game_win_table: target must be a whole number in 0..{MAX_TARGET} (R14), not {target!r}")
    return GameTable(target)


@lru_cache(maxsize=8)
def _to_go(n: int, step: int) -> tuple[tuple[float, ...], ...]:
    """``W[i][j]``: the chance of the game model of :func:`game_win_table` that a player who
    still needs ``i`` cells of ``step`` points beats one who needs ``j`` (``0..n`` each;
    ``W[0][j] = 1``, ``W[i][0] = 0`` for ``i > 0``), a deal of ``x`` points counting
    ``ceil(x / step)`` cells.

    Row by row: cell ``(i, j)`` needs ``W[i - x][j]`` (an earlier row) and ``W[i][j - x]`` (an
    earlier cell of its row).  The sums are taken in the order of the former cell-by-cell
    loop, so at ``step`` 1 every value is the same float to the last bit.
    """
    pts = tuple((-(-x // step), p) for x, p in _DEAL_POINTS)
    w: list[list[float]] = [[1.0] * (n + 1)]
    for i in range(1, n + 1):
        cols = [w[max(0, i - x)] for x, _ in pts]
        row = [0.0] * (n + 1)
        for j in range(1, n + 1):
            win = sum(p * col[j] for col, (_, p) in zip(cols, pts))
            lose = sum(p * row[max(0, j - x)] for x, p in pts)
            row[j] = 0.5 * win + 0.5 * lose
        w.append(row)
    return tuple(tuple(r) for r in w)


def _thrown(a: Action) -> int:
    """The card a ``discard``, ``knock`` or ``gin`` action throws (R4.1, R5.1); those kinds always
    carry one (:class:`~ginrummy.actions.Action`)."""
    assert a.card is not None, a
    return a.card


def _best_knock(hand: int, knocks: list[Action]) -> Action:
    """Of ``knocks`` (knock actions from the card mask ``hand`` of 11 cards), the one that leaves
    the least deadwood, then throws the highest card, then the highest card int (R5.1)."""
    return min(knocks, key=lambda a: (deadwood(hand & ~(1 << _thrown(a))), -CARD_VALUES[_thrown(a)], -_thrown(a)))


def action_words(a: Action) -> Msg:
    """A move in plain words, as a :class:`~ginrummy.errors.Msg` (``take the upcard``,
    ``discard 7H``, ``knock, discarding 7H``); its card in the R1.4 text form."""
    card = card_str(a.card) if a.card is not None else ""
    return {
        "take_upcard": N_("take the upcard"),
        "pass": N_("pass"),
        "draw_stock": N_("draw from the stock"),
        "take_discard": N_("take the discard"),
        "discard": N_("discard {card}", card=card),
        "knock": N_("knock, discarding {card}", card=card),
        "gin": N_("go gin, discarding {card}", card=card),
        "big_gin": N_("big gin"),
    }.get(a.kind, Msg(a.text, {}))


def _paired_se(a: list[float], b: list[float]) -> float:
    """The standard error of the mean paired difference of ``a`` and ``b`` (their common
    samples); 0 with fewer than two."""
    n = min(len(a), len(b))
    if n < 2:
        return 0.0
    diffs = [x - y for x, y in zip(a[:n], b[:n])]
    mu = sum(diffs) / n
    return math.sqrt(sum((d - mu) ** 2 for d in diffs) / (n - 1) / n)


class _Default(enum.Enum):
    """The default of an :class:`ExpertPlayer` option whose value is the level's own (a class
    attribute), so that a subclass changes a default by one class attribute."""

    DEFAULT = "the level's own"

    def __repr__(self) -> str:
        return "DEFAULT"


#: ``budget_ms`` and ``max_discards``'s default: the level's own (``ExpertPlayer.default_budget_ms``,
#: ``ExpertPlayer.default_max_discards`` and the subclasses' own).
DEFAULT = _Default.DEFAULT


@register("expert")
class ExpertPlayer:
    """Determinized Monte Carlo with Bayesian opponent modelling (see the module docstring).

    Args:
        rng: the source of all random choices.
        budget_ms: time budget per decision in milliseconds (``None``: no clock, use
            ``samples`` only); by default the level's ``default_budget_ms`` (150 for the expert).
        samples: the most sampled deals per decision (by default the level's
            ``clocked_samples`` with a time budget, 400 for the expert, and its
            ``unclocked_samples`` without, 64).
        min_samples: samples before stopping early or dropping a candidate.
        max_discards: how many discards (best by deadwood and danger) are examined; by default
            the level's ``default_max_discards`` (5 for the expert).
        z: standard errors of the paired difference that make a choice "clear" (stop early).
        override_z: standard errors by which a candidate must beat the ``club`` player's choice
            (the default) to be chosen instead of it.
        clock: the clock read for the budget (seconds), ``time.perf_counter`` by default.
        opponent_model: ``"rules"`` (default: the hand-made likelihood factors of
            :mod:`ginrummy.players.inference` weigh the discards' danger and draw the sampled
            hands) or ``"learned"`` (the learned opponent model,
            :mod:`ginrummy.players.opponent_model`).  On the same duplicate deals the hand-made
            model did better against ``novice`` and ``club`` (``benchmarks/RESULTS.md``,
            "Strength"), so it is the default since issue 17's third stop; the ``club`` level
            keeps the learned one.
        playout: how both sides play the rest of a sampled deal (:data:`~ginrummy.players.rollout.POLICIES`):
            ``"classic"`` (default: take only a card that makes a meld, knock at the first
            chance) or ``"careful"`` (knock by the stage of the deal, avoid discards that meld
            with the other hand, take a low card that saves much deadwood), or the variants
            measured in ``benchmarks/RESULTS.md``.
        eager_knock: when a knock is legal (R5.1), the default move (step 5) is the best knock
            rather than the ``club`` player's move (which may hold a knockable hand for a lower
            knock): playing on must then be clearly better.

    Raises ``ValueError`` for a bad ``budget_ms``, ``samples``, ``opponent_model`` or ``playout``.
    """

    name = "expert"
    #: the level's defaults (a subclass, e.g. :class:`MasterPlayer`, sets its own here)
    default_budget_ms: float | None = 150.0
    default_max_discards = 5
    clocked_samples = 400
    unclocked_samples = 64

    def __init__(
        self,
        rng: random.Random,
        budget_ms: float | None | _Default = DEFAULT,
        samples: int | None = None,
        min_samples: int = 24,
        max_discards: int | _Default = DEFAULT,
        z: float = 2.5,
        override_z: float = 1.5,
        clock: Callable[[], float] = time.perf_counter,
        opponent_model: str = "rules",
        playout: str = "classic",
        eager_knock: bool = False,
    ) -> None:
        if budget_ms is DEFAULT:
            budget_ms = self.default_budget_ms
        if max_discards is DEFAULT:
            max_discards = self.default_max_discards
        if playout not in POLICIES:
            raise ValueError(f"playout must be one of {', '.join(POLICIES)}, not {playout!r}")
        if budget_ms is not None and not budget_ms > 0:
            raise ValueError(f"budget_ms must be > 0 or None, not {budget_ms!r}")
        if samples is not None and (type(samples) is not int or samples < 1):
            raise ValueError(f"samples must be an int >= 1 or None, not {samples!r}")
        self.rng = rng
        self.budget_ms = budget_ms
        self.samples = (
            samples
            if samples is not None
            else (self.clocked_samples if budget_ms is not None else self.unclocked_samples)
        )
        self.min_samples = min_samples
        self.max_discards = max_discards
        self.z = z
        self.override_z = override_z
        self.clock = clock
        self._club = ClubPlayer(rng, opponent_model)  # raises ValueError for an unknown model
        self.opponent_model = opponent_model
        self.playout = playout
        self.eager_knock = eager_knock
        self._pol = POLICIES[playout]
        # R11.1: when one deal is the whole game both sides knock as soon as they may (as the
        # club player does), so the playouts do too
        self._pol_deal = replace(self._pol, staged_knock=False)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The expert move for ``view``: one of ``legal``."""
        return self.hint(view, legal)[0]

    def hint(self, view: PlayerView, legal: Sequence[Action]) -> tuple[Action, str]:
        """The expert move and why, the reason a :class:`~ginrummy.errors.Msg` (English text
        that :func:`ginrummy.i18n.translate_error` says in another language).

        The reason never contradicts the move: the move's estimate comes first, and when another
        move's estimate is higher (the ``club`` player's move is kept unless another is clearly
        better, module docstring, step 5) the reason says that the difference is within the
        sampling error and gives that error (``override_z`` standard errors of the paired
        difference).  Moves are in words (``take the upcard``, ``discard 7H``), estimates as a
        chance in percent or as points a deal."""
        legal = list(legal)
        if len(legal) == 1:
            return legal[0], N_("the only legal move")
        for a in legal:
            if a.kind == "big_gin":
                return a, N_("all eleven cards are melded: big gin (R6.5)")
        for a in legal:
            if a.kind == "gin":
                return a, N_("discarding {card} leaves gin (R6.1)", card=card_str(a.card))  # type: ignore[arg-type]
        due = stock_draw_due(view, legal)
        if due is not None:
            return due
        ranked, samples = self._analyse(view, legal)
        best = ranked[0]
        percent = self._ctx(view) is not None or view.rules.scoring == "deal"
        unit = (
            N_("chance to win the game")
            if self._ctx(view) is not None
            else N_("chance to win the deal")
            if view.rules.scoring == "deal"
            else N_("points a deal")
        )
        shown = ranked[:3]
        # a knock that was not chosen is always shown: why not knock is what a player asks first
        shown += [r for r in ranked[3:] if r[0].kind == "knock"][:1]
        estimates: Msg = self._fmt(*shown[0][:2], view)
        for a, u, _ in shown[1:]:
            estimates = N_("{first}, {second}", first=estimates, second=self._fmt(a, u, view))
        higher = [r for r in ranked[1:] if self._figure(r[1], percent) > self._figure(best[1], percent)]
        # the nearest rival: the highest other estimate (above the chosen one's when the club
        # player's move is kept, module docstring, step 5)
        top = max(ranked[1:], key=lambda r: r[1]) if len(ranked) > 1 else None
        if top is not None:
            margin = self.override_z * _paired_se(samples.get(top[0], []), samples.get(best[0], []))
            shown_error = max(1, round(100 * margin)) if percent else max(0.1, round(margin, 1))
            gap = abs(self._figure(top[1], percent) - self._figure(best[1], percent))
            if higher or (margin > 0 and gap <= shown_error):
                # a close call is said in plain words first ("about equal"), then the numbers,
                # the advised move's first (issue 34)
                error = N_("{percent}%", percent=shown_error) if percent else N_("{points} points", points=shown_error)
                plain = (
                    N_(
                        "{move} or {other}: about equal; {move} is the usual play",
                        move=action_words(best[0]),
                        other=action_words(top[0]),
                    )
                    if higher
                    else N_(
                        "{move} or {other}: about equal; {move} did a little better",
                        move=action_words(best[0]),
                        other=action_words(top[0]),
                    )
                )
                return best[0], N_(
                    "{plain}. Over {n} sampled deals, {unit}: {estimates}; differences within the sampling "
                    "error of about {error}",
                    plain=plain,
                    n=best[2],
                    unit=unit,
                    estimates=estimates,
                    error=error,
                )
        return best[0], N_(
            "the best estimate over {n} sampled deals; {unit}: {estimates}", n=best[2], unit=unit, estimates=estimates
        )

    @staticmethod
    def _figure(u: float, percent: bool) -> float:
        """An estimate as the hint writes it: a whole percent, or points to one decimal."""
        return round(100 * min(1.0, max(0.0, u))) if percent else round(u, 1) + 0.0

    def _fmt(self, a: Action, u: float, view: PlayerView) -> Msg:
        """``"discard 7H 45%"`` (a chance) or ``"discard 7H +1.5"`` (points a deal), as a Msg."""
        words = action_words(a)
        if self._ctx(view) is not None or view.rules.scoring == "deal":
            return N_("{action} {percent}%", action=words, percent=self._figure(u, True))
        points = self._figure(u, False)
        if points >= 0:
            return N_("{action} +{points}", action=words, points=points)
        return N_("{action} {points}", action=words, points=points)

    @staticmethod
    def _ctx(view: PlayerView) -> tuple[int, int, int] | None:
        return score_context(view)

    # -- candidates --------------------------------------------------------------------------

    def _default(self, view: PlayerView, k: Knowledge, legal: list[Action]) -> Action:
        """The default move (step 5): the ``club`` player's, or with ``eager_knock`` the best
        knock when one is legal."""
        default = self._club.choose(view, legal)
        if self.eager_knock and default.kind == "discard":
            knocks = [a for a in legal if a.kind == "knock"]
            if knocks:  # the knock the candidates hold (_candidates)
                default = _best_knock(k.hand, knocks)
        return default

    def _candidates(self, view: PlayerView, k: Knowledge, legal: list[Action]) -> list[Action]:
        if view.phase != "discard":
            return legal
        hand = k.hand
        out: list[Action] = []
        knocks = [a for a in legal if a.kind == "knock"]
        if knocks:
            out.append(_best_knock(hand, knocks))
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            w = self._club.weights(k)
            meld = self._club.meld_chance
            scored = sorted(
                discards,
                key=lambda a: (
                    deadwood(hand & ~(1 << _thrown(a)))
                    + DANGER_WEIGHT * meld(_thrown(a), w) * (0.5 + CARD_VALUES[_thrown(a)] / 20),
                    -CARD_VALUES[_thrown(a)],
                    -_thrown(a),
                ),
            )
            out.extend(scored[: self.max_discards])
        return out or legal

    # -- evaluation --------------------------------------------------------------------------

    def analyse(self, view: PlayerView, legal: Sequence[Action]) -> list[tuple[Action, float, int]]:
        """The candidate moves with their estimated value and the number of sampled deals,
        best first (the club player's move first unless another is clearly better).  Values: the
        chance of winning the game (0..1) when the view has a game score; under single-deal
        scoring the chance of winning the deal (plus points / 1000); else the mean deal points
        won (negative: lost)."""
        return self._analyse(view, legal)[0]

    def _analyse(
        self, view: PlayerView, legal: Sequence[Action]
    ) -> tuple[list[tuple[Action, float, int]], dict[Action, list[float]]]:
        """:meth:`analyse`, and each candidate's value on every sampled deal (paired: the same
        deals in the same order)."""
        legal = list(legal)
        k = read_view(view)
        default = self._default(view, k, legal)
        cands = self._candidates(view, k, legal)
        if default not in cands:
            cands.insert(0, default)
        if len(cands) == 1:
            return [(cands[0], 0.0, 0)], {cands[0]: []}
        tab = Table.of(view.rules, view.knock_limit, view.multiplier)
        util = self._utility(view)
        start = self.clock() if self.budget_ms is not None else 0.0
        alive = list(range(len(cands)))
        results: list[list[float]] = [[] for _ in cands]
        pool = cards_of(k.unknown)
        n = 0
        batch = 8
        hw = self._club.weights(k) if self.opponent_model == "learned" else None
        while n < self.samples:
            hands = self._sample_hands(k, batch, hw)
            for opp in hands:
                rest = [c for c in pool if not (opp >> c) & 1]
                self.rng.shuffle(rest)
                stock = rest[: view.stock_size]
                for i in alive:
                    winner, pts = self._play(view, k, tab, cands[i], opp, stock)
                    results[i].append(util(winner, pts))
                n += 1
            if n >= self.min_samples:
                alive = self._prune(alive, results, n)
                if len(alive) == 1:
                    break
            if self.budget_ms is not None and (self.clock() - start) * 1000.0 >= self.budget_ms:
                break
        means = [(sum(r) / len(r) if r else -math.inf) for r in results]
        order = sorted(range(len(cands)), key=lambda i: (i not in alive, -means[i], i))
        if default in cands:
            d = cands.index(default)
            if order[0] != d and not self._clearly_better(results[order[0]], results[d]):
                order.remove(d)
                order.insert(0, d)
        return [(cands[i], means[i], len(results[i])) for i in order], {cands[i]: results[i] for i in order}

    # -- the review's API (ginrummy.analysis.review) ------------------------------------------------------

    def candidates(self, view: PlayerView, legal: Sequence[Action]) -> list[Action]:
        """The moves the expert weighs for ``view`` (a subset of ``legal``, no duplicates): big
        gin and gin when legal (R6.5, R6.1), the ``club`` player's move, then the candidates of
        :meth:`analyse` (every draw option; after the draw the best knock and the
        ``max_discards`` most promising discards).  Used by :mod:`ginrummy.analysis.review`; it does not
        change how the expert plays.  Draws from ``rng`` only through the club player's
        tie-breaks."""
        legal = list(legal)
        if len(legal) <= 1:
            return legal
        out = [a for a in legal if a.kind in ("big_gin", "gin")]
        k = read_view(view)
        for a in [self._club.choose(view, legal), *self._candidates(view, k, legal)]:
            if a not in out:
                out.append(a)
        return out

    def outcomes(self, view: PlayerView, actions: Sequence[Action], samples: int) -> list[list[tuple[int | None, int]]]:
        """Play each of ``actions`` (legal in ``view``) on the same ``samples`` sampled deals and
        return, per action, one ``(winner, points)`` per sampled deal, in sample order: winner 0
        is the view's seat, 1 the opponent, ``None`` a drawn deal; points are deal points (R6,
        multiplied by R9.3).  The sampled deals are those of :meth:`analyse` (opponent hands from
        the posterior of :func:`~ginrummy.players.inference.sample_hands`, the rest of the unknown
        cards shuffled as the stock), drawn from ``rng``; every action sees the same deals
        (common random numbers), so differences between actions are paired.  No pruning and no
        clock: the same ``rng`` state gives the same outcomes.  Only the view is read.

        Raises ``ValueError`` when ``samples`` is not an int >= 1."""
        if type(samples) is not int or samples < 1:
            raise ValueError(f"samples must be an int >= 1, not {samples!r}")
        k = read_view(view)
        tab = Table.of(view.rules, view.knock_limit, view.multiplier)
        pool = cards_of(k.unknown)
        out: list[list[tuple[int | None, int]]] = [[] for _ in actions]
        n = 0
        hw = self._club.weights(k) if self.opponent_model == "learned" else None
        while n < samples:
            for opp in sample_hands(k, self.rng, min(8, samples - n), weights=hw):
                rest = [c for c in pool if not (opp >> c) & 1]
                self.rng.shuffle(rest)
                stock = rest[: view.stock_size]
                for i, a in enumerate(actions):
                    out[i].append(self._play(view, k, tab, a, opp, stock))
                n += 1
        return out

    def _clearly_better(self, a: list[float], b: list[float]) -> bool:
        """Whether the samples ``a`` beat ``b`` (paired, on their common samples) by more than
        ``override_z`` standard errors."""
        n = min(len(a), len(b))
        if n < 2:
            return False
        diffs = [x - y for x, y in zip(a[:n], b[:n])]
        mu = sum(diffs) / n
        var = sum((x - mu) ** 2 for x in diffs) / (n - 1)
        return mu > self.override_z * math.sqrt(var / n)

    def _prune(self, alive: list[int], results: list[list[float]], n: int) -> list[int]:
        """Keep the candidates not clearly behind the best (paired over the last ``n`` samples)."""
        means = {i: sum(results[i][-n:]) / n for i in alive}
        best = max(alive, key=lambda i: means[i])
        keep = [best]
        rb = results[best][-n:]
        for i in alive:
            if i == best:
                continue
            ri = results[i][-n:]
            diffs = [x - y for x, y in zip(rb, ri)]
            mu = sum(diffs) / n
            var = sum((d - mu) ** 2 for d in diffs) / max(1, n - 1)
            se = math.sqrt(var / n)
            if mu <= self.z * se or se == 0.0 and mu == 0.0:
                keep.append(i)
        return sorted(keep)

    def _utility(self, view: PlayerView) -> Callable[[int | None, int], float]:
        ctx = self._ctx(view)
        if ctx is not None:
            a, b, target = ctx
            v = game_win_table(target)
            a, b = min(a, target), min(b, target)
            here = float(v[a, b])

            def by_game(winner: int | None, pts: int) -> float:
                if winner is None:
                    return here
                if winner == 0:
                    return float(v[min(target, a + pts), b])
                return float(v[a, min(target, b + pts)])

            return by_game
        if view.rules.scoring == "deal":
            # the deal is the game: its chance of winning, deal points only to break near-ties
            return lambda winner, pts: 0.5 if winner is None else (1.0 + pts / 1000 if winner == 0 else -pts / 1000)
        return lambda winner, pts: 0.0 if winner is None else (float(pts) if winner == 0 else -float(pts))

    def _sample_hands(self, k: Knowledge, n: int, weights: list[float] | None) -> list[int]:
        """``n`` opponent hands (masks of all his cards) for the sampled deals of step 2
        (:func:`~ginrummy.players.inference.sample_hands` with ``weights``, drawn from
        :attr:`rng`).  The one seam a benchmark's ceiling player replaces (``@peek`` in
        ``benchmarks/strength.py``: told the real hand, never in the product)."""
        return sample_hands(k, self.rng, n, weights=weights)

    def _play(
        self, view: PlayerView, k: Knowledge, tab: Table, a: Action, opp: int, stock: list[int]
    ) -> tuple[int | None, int]:
        """Play candidate ``a`` on one sampled deal: (winner: 0 me, 1 the opponent, None a
        draw; points)."""
        hand = k.hand
        top = view.top_discard
        kind = a.kind
        pol = self._pol_deal if view.rules.scoring == "deal" else self._pol
        if kind == "big_gin":  # R6.5: all eleven cards melded (only reached through :meth:`outcomes`)
            return 0, ((tab.big_gin_bonus or 0) + deadwood(opp)) * tab.multiplier
        if kind == "knock" or kind == "gin":  # gin (R6.1) is a knock with no deadwood
            c = a.card
            assert c is not None
            h = hand & ~(1 << c)
            wins, pts = knock_points(tab, h, opp, deadwood(h))
            return (0 if wins else 1), pts
        if kind == "discard":
            c = a.card
            assert c is not None
            if len(stock) <= 2:
                return None, 0
            return playout(tab, [hand & ~(1 << c), opp], stock, 0, c, 1, pol=pol)
        if view.phase == "wall":
            if kind == "pass" or top is None:
                return None, 0
            h = hand | (1 << top)
            c, d = policy_discard(h, opp, pol, top if not tab.discard_taken_card else -1)
            h ^= 1 << c
            wins, pts = knock_points(tab, h, opp, d)
            return (0 if wins else 1), pts
        if kind in ("take_upcard", "take_discard"):
            assert top is not None
            return self._after_draw(
                tab, pol, hand | (1 << top), top if not tab.discard_taken_card else -1, opp, stock, 0
            )
        if kind == "draw_stock":
            if not stock:
                return None, 0
            return self._after_draw(tab, pol, hand | (1 << stock[0]), -1, opp, stock, 1)
        # pass at the upcard offer (R4.2)
        if view.to_act != view.dealer and top is not None:  # we are first: the dealer is offered it
            if take_by_policy(top, opp):
                h = opp | (1 << top)
                c, d = policy_discard(h, hand, pol, top if not tab.discard_taken_card else -1)
                h ^= 1 << c
                if knocks_now(tab, pol, d, len(stock), hand):
                    wins, pts = knock_points(tab, h, hand, d)
                    return (1 if wins else 0), pts
                return playout(tab, [hand, h], stock, 0, c, 0, pol=pol)
            return playout(tab, [hand, opp], stock, 0, top, 0, stock_only=True, pol=pol)
        return playout(tab, [hand, opp], stock, 0, top, 1, stock_only=True, pol=pol)

    @staticmethod
    def _after_draw(
        tab: Table, pol: Policy, h: int, forbid: int, opp: int, stock: list[int], pos: int
    ) -> tuple[int | None, int]:
        """Our discard by the playout policy ``pol`` after a draw into the 11 cards ``h``, then
        the rest."""
        if tab.big_gin_bonus is not None and deadwood(h) == 0:
            return 0, (tab.big_gin_bonus + deadwood(opp)) * tab.multiplier
        c, d = policy_discard(h, opp, pol, forbid)
        h ^= 1 << c
        if knocks_now(tab, pol, d, len(stock) - pos, opp):
            wins, pts = knock_points(tab, h, opp, d)
            return (0 if wins else 1), pts
        if len(stock) - pos <= 2:
            return None, 0
        return playout(tab, [h, opp], stock, pos, c, 1, pol=pol)


@register("master")
class MasterPlayer(ExpertPlayer):
    """The ``master`` level: the expert with a larger budget, 1 s a decision (``budget_ms``,
    default 1000) and up to 2,000 sampled deals, examining one more discard (``max_discards``
    6).  Everything else, including what it sees (the view alone), is the expert's.  Same
    arguments and errors as :class:`ExpertPlayer`."""

    name = "master"
    default_budget_ms: float | None = 1000.0
    default_max_discards = 6
    clocked_samples = 2000


#: The sampled deals a decision of the fixed-sample levels: the most the clocked levels sample
#: (400 for the expert, 2,000 for the master), so the fixed level plays as the clocked one
#: would on a machine fast enough never to stop at its budget.
FIXED_SAMPLES = {"expert-fixed": ExpertPlayer.clocked_samples, "master-fixed": MasterPlayer.clocked_samples}


@register("expert-fixed")
class FixedExpertPlayer(ExpertPlayer):
    """The ``expert-fixed`` level: the expert without a clock (``budget_ms=None``) and with a
    fixed number of sampled deals a decision (``samples``, default 400: the clocked expert's
    most, :data:`FIXED_SAMPLES`), still stopping early when one candidate is clearly best.  It
    never reads the clock, so its play depends on its ``rng`` alone: the same seed gives the same
    game on any machine, loaded or not (issue 36, item 4).  Same arguments and errors as
    :class:`ExpertPlayer`; passing a ``budget_ms`` makes it a clocked expert again.  Not offered
    in the web lobby (``lobby = False``): its decision time is not bounded by a budget."""

    name = "expert-fixed"
    lobby = False
    default_budget_ms = None
    unclocked_samples = FIXED_SAMPLES["expert-fixed"]


@register("master-fixed")
class FixedMasterPlayer(MasterPlayer):
    """The ``master-fixed`` level: the master without a clock and with a fixed number of
    sampled deals a decision (``samples``, default 2,000: the clocked master's most,
    :data:`FIXED_SAMPLES`), six candidate discards; deterministic given its ``rng`` as
    :class:`FixedExpertPlayer` is.  Same arguments and errors as :class:`MasterPlayer`.  Not
    offered in the web lobby (``lobby = False``)."""

    name = "master-fixed"
    lobby = False
    default_budget_ms = None
    unclocked_samples = FIXED_SAMPLES["master-fixed"]
