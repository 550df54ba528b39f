"""Puzzles mined from played games (issue 32): decisions where one move is clearly best.

A decision of a record (:mod:`ginrummy.analysis.review`'s decision: a seat with two or more legal
moves) becomes a puzzle when the expert's valuation, from that seat's
:class:`~ginrummy.views.PlayerView` alone, finds one move that beats **every** legal move by a
margin:

1. a quick look (:data:`SCREEN_SAMPLES` sampled deals) at every legal move keeps the decisions
   whose best move leads the second by at least half the margin;
2. the mining check values every legal move on ``samples`` sampled deals (common random
   numbers): the best must beat each other move by at least :data:`MIN_MARGIN` plus
   :data:`~ginrummy.analysis.review.NOISE_Z` standard errors of the paired difference;
3. the re-check values them again on ``4 * samples`` deals drawn from another seed: the same move
   must be best, each lead less :data:`RECHECK_Z` standard errors at least the stated margin.

The stated ``margin`` is the largest of :data:`MARGIN_STEPS` that both checks clear; ``losses``
are the re-check's losses of the other moves (percentage points of the chance to win, as the
review's values).  Values are the review's (:func:`~ginrummy.analysis.review.outcome_value`: the
chance to win the game or match from the score, ``scoring="deal"`` the deal).

A puzzle keeps only what the player saw: the view as JSON (:func:`view_to_json`, the web's
``PlayerView.to_json`` with the rules and three more fields), and the public score sheet.
:func:`view_from_json` rebuilds the exact :class:`PlayerView`, so a puzzle can be re-checked from
the file alone (:func:`recheck`).  The format (JSON lines) is in ``docs/puzzles.md``.

Puzzle ratings (:func:`rate_attempt`) are OpenSkill ratings (Plackett-Luce, the ladder's model):
each attempt is a match between the person and the puzzle.  Everything here is pure: no I/O,
clock or global random; the caller keeps the files.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, parse_action
from ..cards import card_str, parse_card
from ..deal import Event
from ..errors import N_, Msg, RecordError
from ..match import Match
from ..players.expert import ExpertPlayer
from ..record import GameRecord, deal_states, replay
from ..rules import RuleSet
from ..scoring import ScoreSheet
from ..views import PlayerView, view_of
from .review import NOISE_Z, _as_record, outcome_value

__all__ = [
    "FORMAT",
    "THEMES",
    "MIN_MARGIN",
    "MARGIN_STEPS",
    "SCREEN_SAMPLES",
    "RECHECK_FACTOR",
    "RECHECK_Z",
    "Puzzle",
    "view_to_json",
    "view_from_json",
    "value_moves",
    "mine_record",
    "recheck",
    "recheck_gaps",
    "restated",
    "verify_puzzle",
    "theme_of",
    "rules_of",
    "dumps_puzzles",
    "loads_puzzles",
    "rate_attempt",
    "display_rating",
    "INITIAL_RATING",
    "theme_name",
]

#: The value of the ``format`` key of every puzzle line.
FORMAT = "ginrummy-puzzle/1"
#: The themes, in the order shown: take the upcard or not (R4.2), take the discard or draw from
#: the stock (R4.1), the wall (R7.2), knock now or play on (R5.1), go gin (R6.1, R6.5), a
#: dangerous discard (a card the opponent's pick-ups call for, R4.1), which discard (R4.1).
THEMES = ("upcard", "draw", "wall", "knock", "gin", "danger", "discard")
#: The smallest margin a puzzle states, in percentage points of the chance to win.
MIN_MARGIN = 3.0
#: The stated margins: a puzzle states the largest that its mining check and its re-check clear.
MARGIN_STEPS = (3.0, 5.0, 10.0, 20.0, 40.0)
#: Sampled deals of the quick look at every legal move.
SCREEN_SAMPLES = 16
#: The re-check values the moves on this many times the mining check's sampled deals.
RECHECK_FACTOR = 4
#: Standard errors of its paired lead that the re-check takes off each move's lead before it
#: compares it with the margin (the mining check takes off NOISE_Z = 2): a fresh check of the
#: same size differs from the re-check by about sqrt(2) standard errors, so a lead whose lower
#: bound sits at the margin falls under it in Phi(-Z / sqrt(2)) of fresh checks: 8% at 2, 1.7%
#: at 3, 0.2% at 4, 0.02% at 5 (``gin puzzles verify``: 1 of 615 at 4, 0 of 506 at 5 with four
#: sets of fresh seeds; benchmarks/RESULTS.md).
RECHECK_Z = 5.0
#: OpenSkill ``(mu, sigma)`` of a new person or puzzle (the ladder's: 25, 25/3).
INITIAL_RATING = (25.0, 25.0 / 3.0)

_RULE_NUMBERS = {
    "upcard": ("R4.2",),
    "draw": ("R4.1", "R4.3"),
    "wall": ("R7.2", "R5.1"),
    "knock": ("R5.1", "R6.2", "R6.3", "R4.4"),
    "gin": ("R6.1", "R6.5", "R5.1"),
    "danger": ("R4.1", "R5.4", "R6.2"),
    "discard": ("R4.1", "R2"),
}


def theme_name(theme: str) -> Msg:
    """A theme's name as a translatable message (``upcard`` -> "take the upcard or not")."""
    return {
        "upcard": N_("take the upcard or not"),
        "draw": N_("take the discard or draw from the stock"),
        "wall": N_("the wall"),
        "knock": N_("knock now or play on"),
        "gin": N_("go for gin"),
        "danger": N_("dangerous discards"),
        "discard": N_("which discard"),
    }[theme]


# -- the view as JSON, and back ---------------------------------------------------------------


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """``view`` as JSON: :meth:`PlayerView.to_json` with ``agent=True`` (cards as text, the legal
    actions, the history as this seat saw it, the rules, the match context) plus ``stock_only``,
    ``must_knock`` and ``reshuffles``.  Only what the seat sees."""
    out = view.to_json(agent=True)
    out.pop("legal_codes", None)
    out.update(stock_only=view.stock_only, must_knock=view.must_knock, reshuffles=view.reshuffles)
    return out


def _event(text: str) -> Event:
    return Event.from_text(text)


def view_from_json(data: dict[str, Any]) -> PlayerView:
    """The :class:`PlayerView` of :func:`view_to_json`'s dict (equal to the view it was made
    from).  Raises ``ValueError`` (``KeyError``/``TypeError`` wrapped) for a dict that is not one."""
    try:
        rules = RuleSet.from_dict(data["rules"])

        def mask(cards: Iterable[str]) -> int:
            m = 0
            for c in cards:
                m |= 1 << parse_card(c)
            return m

        return PlayerView(
            seat=int(data["seat"]),
            rules=rules,
            phase=str(data["phase"]),
            to_act=data["to_act"],
            dealer=int(data["dealer"]),
            hand=mask(data["hand"]),
            pile=tuple(parse_card(c) for c in data["discard_pile"]),
            stock_size=int(data["stock_size"]),
            opponent_count=int(data["opponent_count"]),
            opponent_seen=mask(data["opponent_seen"]),
            upcard=parse_card(data["upcard"]),
            knock_limit=data["knock_limit"],
            multiplier=int(data["multiplier"]),
            taken=None if data["taken"] is None else parse_card(data["taken"]),
            stock_only=bool(data["stock_only"]),
            must_knock=bool(data["must_knock"]),
            legal=tuple(parse_action(a) for a in data["legal_actions"]),
            history=tuple(_event(t) for t in data["history"]),
            result=None,
            reshuffles=int(data["reshuffles"]),
            scores=dict(data.get("scores") or {}),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not a puzzle view: {exc!r}") from exc


# -- valuing every move -------------------------------------------------------------------------


def _sheet(rules: RuleSet, results: Sequence[Sequence[Any]]) -> ScoreSheet:
    sheet = ScoreSheet(rules, 2)
    for w, p in results:
        sheet = sheet.add(None if w is None else int(w), int(p))
    return sheet


def value_moves(
    view: PlayerView, sheet: ScoreSheet, me: int, opponent: int, samples: int, rng: random.Random
) -> tuple[list[Action], list[list[float]]]:
    """Every legal move of ``view`` and its values (one per sampled deal, common random numbers),
    in percentage points of the chance to win for player ``me`` against ``opponent`` with the
    match's ``sheet`` before the deal (:func:`~ginrummy.analysis.review.outcome_value`).  The
    sampled deals come from ``rng`` (the expert's sampling, the view alone)."""
    expert = ExpertPlayer(rng, budget_ms=None, opponent_model="rules")
    actions = list(view.legal)
    cache: dict[tuple[int | None, int], float] = {}

    def value(winner: int | None, pts: int) -> float:
        key = (winner, pts)
        if key not in cache:
            who = None if winner is None else (me if winner == 0 else opponent)
            cache[key] = outcome_value(sheet, me, opponent, who, pts)
        return cache[key]

    outs = expert.outcomes(view, actions, samples)
    return actions, [[value(w, p) for w, p in o] for o in outs]


def _gaps(values: list[list[float]], best: int) -> list[tuple[float, float]]:
    """Per move: (mean gap best - move, NOISE_Z standard errors of the paired gap)."""
    out = []
    for vs in values:
        d = [b - x for b, x in zip(values[best], vs)]
        n = len(d)
        mu = sum(d) / n
        var = sum((x - mu) ** 2 for x in d) / max(1, n - 1)
        out.append((mu, NOISE_Z * math.sqrt(var / n)))
    return out


def _best(values: list[list[float]]) -> int:
    means = [sum(v) / len(v) for v in values]
    return max(range(len(values)), key=lambda i: means[i])


def theme_of(view: PlayerView, best: Action, others: Sequence[Action]) -> str:
    """The theme (:data:`THEMES`) of a puzzle whose best move is ``best`` in ``view``."""
    if view.phase in ("upcard_offer", "wall"):
        return "upcard" if view.phase == "upcard_offer" else "wall"
    if view.phase == "draw":
        return "draw"
    if best.kind in ("gin", "big_gin"):
        return "gin"
    if best.kind == "knock" or any(a.kind == "knock" for a in view.legal):
        return "knock"
    seen = view.opponent_seen
    for a in others:  # a worse discard that feeds the opponent's melds
        if a.kind == "discard" and a.card is not None and _connects(a.card, seen):
            return "danger"
    return "discard"


def _connects(card: int, seen: int) -> bool:
    rank, suit = card % 13, card // 13
    for c in range(52):
        if (seen >> c) & 1 and (c % 13 == rank or (c // 13 == suit and abs(c % 13 - rank) <= 2)):
            return True
    return False


def rules_of(theme: str) -> tuple[str, ...]:
    """The rule numbers (docs/rules.md) that matter for a puzzle of ``theme``."""
    return _RULE_NUMBERS[theme]


# -- the puzzle --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (a line of a puzzle file, ``docs/puzzles.md``).

    Attributes:
        id: 12 hex digits, from the view and the score (the same position has the same id).
        view: the position as the player saw it (:func:`view_to_json`).
        results: the match's deals before this one, ``[winner player index or None, points]``
            (public: the score sheet).
        player, opponent: the player indexes of the match (the values are ``player``'s).
        best: the best move (action text, ``discard 7H``).
        losses: every other legal move's loss against ``best`` at the re-check (percentage
            points of the chance to win); a file keeps the keys sorted by text.
        margin: ``best`` beats every other move by at least this, at the mining check and the
            re-check (one of :data:`MARGIN_STEPS`).
        theme: one of :data:`THEMES`; rules: the rule numbers that matter.
        samples, seed: the mining check's sampled deals and seed (the re-check: ``RECHECK_FACTOR
            * samples`` deals from ``recheck_seed``).
        source: where it came from (``{"record": name, "deal": n, "index": i}``).
    """

    id: str
    view: dict[str, Any]
    results: tuple[tuple[int | None, int], ...]
    player: int
    opponent: int
    best: str
    losses: dict[str, float]
    margin: float
    theme: str
    rules: tuple[str, ...]
    samples: int
    seed: str
    recheck_seed: str
    source: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The puzzle's JSON object (``docs/puzzles.md``)."""
        return {
            "format": FORMAT,
            "id": self.id,
            "theme": self.theme,
            "rules": list(self.rules),
            "best": self.best,
            "margin": self.margin,
            "losses": self.losses,
            "player": self.player,
            "opponent": self.opponent,
            "results": [list(r) for r in self.results],
            "view": self.view,
            "samples": self.samples,
            "seed": self.seed,
            "recheck_seed": self.recheck_seed,
            "source": self.source,
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Puzzle:
        """A puzzle from its JSON object.  Raises ``ValueError`` naming what is wrong."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a puzzle: the format must be {FORMAT!r}")
        try:
            theme = str(data["theme"])
            if theme not in THEMES:
                raise ValueError(f"unknown theme {theme!r}; themes: {', '.join(THEMES)}")
            view_from_json(data["view"])
            return Puzzle(
                str(data["id"]),
                dict(data["view"]),
                tuple((r[0], int(r[1])) for r in data["results"]),
                int(data["player"]),
                int(data["opponent"]),
                str(data["best"]),
                {str(k): float(v) for k, v in data["losses"].items()},
                float(data["margin"]),
                theme,
                tuple(str(r) for r in data["rules"]),
                int(data["samples"]),
                str(data["seed"]),
                str(data["recheck_seed"]),
                dict(data.get("source") or {}),
            )
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"not a puzzle: missing or bad {exc}") from exc

    def player_view(self) -> PlayerView:
        """The position as a :class:`PlayerView` (:func:`view_from_json`)."""
        return view_from_json(self.view)

    def answer_loss(self, move: str) -> float | None:
        """The loss of ``move`` (an action text): 0 for the best move, its re-check loss for
        another legal move, ``None`` for a text that is not a legal move here."""
        try:
            a = parse_action(move)
        except ValueError:
            return None
        if a.text == self.best:
            return 0.0
        return self.losses.get(a.text)


def dumps_puzzles(puzzles: Iterable[Puzzle]) -> str:
    """Puzzles as JSON lines (one object a line, keys sorted, no spaces), each ending in ``\\n``."""
    return "".join(
        json.dumps(p.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n" for p in puzzles
    )


def loads_puzzles(text: str) -> list[Puzzle]:
    """The puzzles of JSON-lines ``text`` (blank lines skipped).  Raises ``ValueError`` naming
    the line of the first bad one."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(Puzzle.from_dict(json.loads(line)))
        except ValueError as exc:
            raise ValueError(f"line {n}: {exc}") from exc
    return out


# -- mining ------------------------------------------------------------------------------------


def _step(gap: float) -> float | None:
    ok = [m for m in MARGIN_STEPS if gap >= m]
    return ok[-1] if ok else None


def recheck_gaps(
    puzzle: Puzzle, *, samples: int | None = None, seed: str | None = None
) -> dict[str, tuple[float, float]] | None:
    """Value the puzzle's every legal move again from its file alone, on ``samples`` sampled deals
    (default ``RECHECK_FACTOR * puzzle.samples``) drawn from ``seed`` (default its
    ``recheck_seed``): per other move, ``(gap, noise)``: the mean lead of ``best`` over it and
    :data:`~ginrummy.analysis.review.NOISE_Z` standard errors of that paired lead (percentage
    points of win chance).  ``None`` when ``best`` is not a legal move of the view."""
    view = puzzle.player_view()
    sheet = _sheet(view.rules, puzzle.results)
    n = RECHECK_FACTOR * puzzle.samples if samples is None else samples
    actions, values = value_moves(
        view, sheet, puzzle.player, puzzle.opponent, n, random.Random(puzzle.recheck_seed if seed is None else seed)
    )
    texts = [a.text for a in actions]
    if puzzle.best not in texts:
        return None
    b = texts.index(puzzle.best)
    return {t: gn for t, gn in zip(texts, _gaps(values, b)) if t != puzzle.best}


def recheck(puzzle: Puzzle, *, samples: int | None = None, seed: str | None = None) -> tuple[bool, dict[str, float]]:
    """:func:`recheck_gaps` as ``(ok, losses)``: ``ok`` when ``best`` is still the best move and
    beats every other by at least ``margin`` on average; ``losses`` per other move (the mean
    leads, rounded to 0.01)."""
    gaps = recheck_gaps(puzzle, samples=samples, seed=seed)
    if gaps is None:
        return False, {}
    losses = {t: round(g, 2) for t, (g, _) in gaps.items()}
    return all(g >= puzzle.margin for g in losses.values()), losses


def restated(puzzle: Puzzle) -> Puzzle | None:
    """``puzzle`` with its ``margin`` cleared by the re-check's lower bounds: the largest step of
    :data:`MARGIN_STEPS` not above the stated margin nor above any other move's re-check lead
    less :data:`RECHECK_Z` standard errors, or ``None`` when no step is (it is no puzzle by
    that test).  The re-check is
    :func:`recheck_gaps` with the puzzle's own seed, so this is exact from the file alone."""
    gaps = recheck_gaps(puzzle)
    if not gaps:
        return None
    margin = _step(min(puzzle.margin, min(g - n * RECHECK_Z / NOISE_Z for g, n in gaps.values())))
    if margin is None:
        return None
    return Puzzle(**{**puzzle.__dict__, "margin": margin})


def verify_puzzle(puzzle: Puzzle, factor: int = RECHECK_FACTOR, salt: str = "1") -> dict[str, Any]:
    """``gin puzzles verify``'s check of one puzzle: :func:`recheck` on ``factor * puzzle.samples``
    sampled deals drawn from the seed ``"verify/{salt}/{id}"`` (neither the mining check's nor the
    re-check's).  Returns ``{"id", "ok", "gap", "margin", "theme"}``: ``gap`` is the smallest lead
    of the best move over another move (percentage points of win chance; ``None`` when the best
    move is no longer legal in the rebuilt view), ``ok`` when it is at least the stated
    ``margin``.  Raises ``ValueError`` for ``factor`` < 1."""
    if type(factor) is not int or factor < 1:
        raise ValueError(f"factor must be an int >= 1, not {factor!r}")
    ok, losses = recheck(puzzle, samples=factor * puzzle.samples, seed=f"verify/{salt}/{puzzle.id}")
    gap = min(losses.values()) if losses else None
    return {"id": puzzle.id, "ok": ok and gap is not None, "gap": gap, "margin": puzzle.margin, "theme": puzzle.theme}


def _position_id(view_json: dict[str, Any], results: Sequence[Sequence[Any]], player: int) -> str:
    key = json.dumps([view_json, [list(r) for r in results], player], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(key.encode()).hexdigest()[:12]


def mine_record(
    record: GameRecord | Match | str,
    *,
    name: str = "",
    samples: int = 50,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> list[Puzzle]:
    """The puzzles of ``record`` (text, :class:`GameRecord` or :class:`Match`; two-hand): every
    decision of every player whose best move clears the screen, the mining check on ``samples``
    sampled deals and the re-check on ``RECHECK_FACTOR * samples`` (module docstring).  ``name``
    names the record in each puzzle's ``source`` and in its seeds: the same record, name,
    samples and seed give the same puzzles.  Raises :class:`~ginrummy.errors.RecordError` for a
    record that does not parse or replay or is not two-hand, ``ValueError`` for ``samples`` < 16."""
    if type(samples) is not int or samples < SCREEN_SAMPLES:
        raise ValueError(f"samples must be an int >= {SCREEN_SAMPLES}, not {samples!r}")
    rec = _as_record(record)
    if len(rec.names) != 2:
        raise RecordError("puzzles are mined from two-hand records only")
    match = replay(rec)
    results = match.sheet.results
    points = []
    for d in rec.deals:
        if d.sealed:
            continue
        before = tuple((r[0], r[1]) for r in results[: d.number - 1])
        for index, state, seat, _action in deal_states(rec.rules, d)[0]:
            if len(state.legal_actions()) > 1:
                points.append((d, before, index, state, seat))
    out: list[Puzzle] = []
    if progress is not None:
        progress(0, len(points))
    for done, (d, before, index, state, seat) in enumerate(points, 1):
        p = _mine_one(rec, name, d.number, d.seat_players, before, index, state, seat, samples, seed)
        if p is not None:
            out.append(p)
        if progress is not None:
            progress(done, len(points))
    return out


def _mine_one(
    rec: GameRecord,
    name: str,
    deal: int,
    seat_players: tuple[int, ...],
    before: tuple[tuple[int | None, int], ...],
    index: int,
    state: Any,
    seat: int,
    samples: int,
    seed: int,
) -> Puzzle | None:
    me, opp = seat_players[seat], seat_players[1 - seat]
    sheet = _sheet(rec.rules, before)
    view = view_of(
        state, seat, scores={"names": list(rec.names), "totals": list(sheet.totals), "seat_players": list(seat_players)}
    )
    tag = f"{name}/{deal}/{index}"
    # 1. the quick look, at the expert's candidates only (a subset of the legal moves: a decision
    # whose best candidate does not lead the other candidates cannot lead every legal move)
    rng = random.Random(f"screen/{seed}/{tag}")
    cands = ExpertPlayer(rng, budget_ms=None, opponent_model="rules").candidates(view, view.legal)
    if len(cands) > 1:
        screen = PlayerView(**{**view.__dict__, "legal": tuple(cands)})
        _, values = value_moves(screen, sheet, me, opp, SCREEN_SAMPLES, rng)
        b = _best(values)
        if min(g for i, (g, _) in enumerate(_gaps(values, b)) if i != b) < MIN_MARGIN / 2:
            return None
    # 2. the mining check
    mseed = f"mine/{seed}/{tag}"
    actions, values = value_moves(view, sheet, me, opp, samples, random.Random(mseed))
    b = _best(values)
    lows = [g - noise for i, (g, noise) in enumerate(_gaps(values, b)) if i != b]
    first = _step(min(lows))
    if first is None:
        return None
    view_json = view_to_json(view)
    view_json["scores"] = {}  # names are not part of the position; the results carry the score
    rseed = f"recheck/{seed}/{tag}"
    puzzle = Puzzle(
        _position_id(view_json, before, me),
        view_json,
        before,
        me,
        opp,
        actions[b].text,
        {},
        first,
        "discard",
        (),
        samples,
        mseed,
        rseed,
        {"record": name, "deal": deal, "index": index},
    )
    # 3. the re-check, from the puzzle alone: each lead less RECHECK_Z standard errors
    gaps = recheck_gaps(puzzle)
    if not gaps:
        return None
    margin = _step(min(min(g - n * RECHECK_Z / NOISE_Z for g, n in gaps.values()), first + 0.0))
    if margin is None:
        return None
    losses = {t: round(g, 2) for t, (g, _) in gaps.items()}
    others = [parse_action(t) for t in losses]
    theme = theme_of(view, actions[b], others)
    losses = dict(sorted(losses.items(), key=lambda kv: (kv[1], kv[0])))
    return Puzzle(
        puzzle.id,
        view_json,
        before,
        me,
        opp,
        actions[b].text,
        losses,
        margin,
        theme,
        rules_of(theme),
        samples,
        mseed,
        rseed,
        puzzle.source,
    )


# -- ratings -------------------------------------------------------------------------------------


def display_rating(mu: float, sigma: float) -> int:
    """The one number shown for a rating, as the ladder shows it: ``round(1000 + 40 * (mu - 3 sigma))``."""
    return round(1000 + 40 * (mu - 3.0 * sigma))


def rate_attempt(
    person: tuple[float, float], puzzle: tuple[float, float], solved: bool
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The new OpenSkill ratings ``(person, puzzle)`` after an attempt: a match of two one-player
    teams that the person wins when he ``solved`` it (the best move) and the puzzle wins
    otherwise.  Ratings are ``(mu, sigma)``; the model is the ladder's (Plackett-Luce, defaults)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.create_rating([person[0], person[1]])], [model.create_rating([puzzle[0], puzzle[1]])]]
    new = model.rate(teams, ranks=[0, 1] if solved else [1, 0])
    return (float(new[0][0].mu), float(new[0][0].sigma)), (float(new[1][0].mu), float(new[1][0].sigma))


def card_text(card: int) -> str:
    """A card as text (``7H``), for the terminal."""
    return card_str(card)
