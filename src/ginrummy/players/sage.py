"""The ``sage`` player: the expert's search with a learned default move (expert iteration).

The expert (:mod:`ginrummy.players.expert`) keeps the ``club`` player's move unless another
candidate beats it by ``override_z`` standard errors of its sampled deals (its step 5): with
a few hundred sampled deals a decision most decisions end on the club move.  The sage keeps
the search and changes the default: a small network, trained on the search's own estimates
(the value of every candidate on many sampled deals, in many positions of expert games),
scores each candidate move from features of the view, and where the network decides its
best-scored move is the default that the search must clearly beat.  The network pools the
search's noisy estimates over many positions: the first step of expert iteration (Anthony,
Tian and Barber, "Thinking Fast and Slow with Deep Learning and Tree Search", NeurIPS 2017),
with the search's values as targets rather than its choices.  Measured
(``benchmarks/RESULTS.md``, "The sage"), the network's gain over the club player's rules is
all in the knock (R5.1), so by default it decides only whether to knock.

* :func:`move_features`: for each candidate move a fixed list of :data:`FEATURES` (numbers from
  the view alone: deadwood before and after, the card's value, the chance the opponent melds
  it, the next draw's expected saving, the stage of the deal, the game score, whether it is the
  ``club`` player's move).
* :func:`move_scores`: the network (one hidden layer of ``tanh`` units, pure Python), one
  score a move; scores compare moves of one decision only (they are trained centred).
* :class:`SagePlayer`: the ``sage`` level (150 ms a decision, as the expert);
  :class:`FastSagePlayer`, the ``sage-fast`` level: no search, about 0.3 ms a decision.

The ``club`` player inside is the expert's (the hand-made opponent model,
``opponent_model="rules"``; the ``club`` level uses the learned one: on 300 duplicate pairs of
games the two are even, 50.2%).  The weights are ``sage_model.json`` next to this module,
rebuilt exactly by ``scripts/train_sage.py`` from its seed and its data games.  Deterministic
given the view: no randomness, no clock, only the view's knowledge.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from ..actions import Action
from ..cards import CARD_VALUES
from ..errors import N_
from ..melds import deadwood
from ..views import PlayerView
from .base import register
from .club import draw_deadwoods, expected_draw_gain, score_context, stock_chances
from .expert import DEFAULT, ExpertPlayer, _Default, action_words
from .inference import Knowledge, danger, melds_with, read_view

__all__ = [
    "FEATURES",
    "MODEL_FILE",
    "NETWORK_ROLES",
    "SEARCHED",
    "FastSagePlayer",
    "SagePlayer",
    "load_model",
    "move_features",
    "move_scores",
]

#: The shipped weights (package data).
MODEL_FILE = "sage_model.json"

#: The features of a candidate move, in order (:func:`move_features`).
FEATURES = (
    "stock",  # cards left in the stock / 31
    "turns",  # our completed turns / 15
    "known",  # the opponent's cards seen (taken from the pile) / 10
    "mine",  # our game score / 100 (0 without a game score)
    "theirs",  # the opponent's game score / 100
    "limit",  # the deal's knock limit / 10 (R5.1)
    "is_discard",
    "is_knock",
    "is_take",  # take the upcard or the top discard (R4.1, R4.2)
    "is_stock",  # draw from the stock, or pass the upcard
    "is_club",  # the club player's move
    "dw",  # our deadwood after the move (a take: after its best discard) / 30
    "dw_regret",  # that deadwood less the least any discard leaves / 10
    "value",  # the card thrown (or taken) / 10
    "danger",  # chance the opponent melds the card thrown
    "danger_value",  # danger x value / 10
    "saving",  # expected deadwood saved by the next stock draw after the move / 10
    "links",  # our cards that share a possible meld with the card / 3
    "dead_rank",  # the card's rank seen in the discard pile / 3
    "dead_near",  # its suit's neighbours (one rank away) in the discard pile / 2
    "passed",  # the opponent passed or discarded this card's rank or neighbour / 3
    "melds",  # a take: the card makes a meld with our hand
    "stock_dw",  # a take: expected deadwood after a stock draw instead / 30
    "bias",
)


_RANK_MATES = tuple(sum(1 << (t * 13 + c % 13) for t in range(4) if t != c // 13) for c in range(52))
_NEAR = tuple(sum(1 << (c // 13 * 13 + r) for r in (c % 13 - 1, c % 13 + 1) if 0 <= r < 13) for c in range(52))
_NEAR2 = tuple(sum(1 << (c // 13 * 13 + r) for r in (c % 13 - 2, c % 13 + 2) if 0 <= r < 13) for c in range(52))


def move_features(
    view: PlayerView, k: Knowledge, w: Sequence[float], moves: Sequence[Action], club: Action
) -> list[list[float]]:
    """One row of :data:`FEATURES` (floats, in that order) for each of ``moves`` (legal in
    ``view``; draws, discards and knocks, not gin), from the view's knowledge ``k`` and ``w[c]``,
    the chance the opponent holds card ``c`` (the ``club`` player's weights).  ``club`` is the
    ``club`` player's move.  Reads nothing hidden.

    >>> import random
    >>> from ginrummy.deal import new_deal
    >>> from ginrummy.players.club import ClubPlayer
    >>> from ginrummy.rules import preset
    >>> from ginrummy.views import view_of
    >>> d = new_deal(preset("eaai"), 0, random.Random(3).sample(range(52), 52))
    >>> v = view_of(d, d.to_act)
    >>> club = ClubPlayer(random.Random(0), "rules")
    >>> k = read_view(v)
    >>> rows = move_features(v, k, club.weights(k), v.legal, club.choose(v, v.legal))
    >>> len(rows) == len(v.legal) and all(len(r) == len(FEATURES) for r in rows)
    True
    """
    ctx = score_context(view)
    mine, theirs = (ctx[0] / 100, ctx[1] / 100) if ctx is not None else (0.0, 0.0)
    state = [
        k.stock_size / 31,
        min(k.my_turns, 15) / 15,
        (10 - k.opp_hidden) / 10,
        mine,
        theirs,
        (view.knock_limit or 0) / 10,
    ]
    hand = k.hand
    cards, sw = stock_chances(k, w)
    seen_opp = k.opp_passed | k.opp_discarded
    rows: list[list[float]] = []
    throws = [a.card for a in moves if a.kind in ("discard", "knock") and a.card is not None]
    best = min((deadwood(hand & ~(1 << c)) for c in throws), default=0)
    for a in moves:
        kind = a.kind
        card = a.card if kind in ("discard", "knock") else view.top_discard
        f = state + [0.0] * (len(FEATURES) - len(state))
        f[-1] = 1.0
        f[10] = 1.0 if a == club else 0.0
        if kind in ("discard", "knock") and card is not None:
            f[6 if kind == "discard" else 7] = 1.0
            h = hand & ~(1 << card)
            dw = deadwood(h)
            f[11] = dw / 30
            f[12] = (dw - best) / 10
            dan = danger(card, w)
            f[14] = dan
            f[15] = dan * CARD_VALUES[card] / 10
            f[16] = expected_draw_gain(h, dw, cards, sw) / 10
            f[17] = ((_RANK_MATES[card] | _NEAR[card] | _NEAR2[card]) & h).bit_count() / 3
        elif kind in ("take_upcard", "take_discard") and card is not None:
            f[8] = 1.0
            take_dw, stock_dw = draw_deadwoods(view, k, card, (cards, sw))
            f[11] = take_dw / 30
            f[17] = ((_RANK_MATES[card] | _NEAR[card] | _NEAR2[card]) & hand).bit_count() / 3
            f[21] = 1.0 if melds_with(card, hand) else 0.0
            f[22] = stock_dw / 30
        else:
            f[9] = 1.0
            f[11] = deadwood(hand) / 30 if hand.bit_count() == 10 else 0.0
        if card is not None:
            f[13] = CARD_VALUES[card] / 10
            f[18] = (_RANK_MATES[card] & k.dead).bit_count() / 3
            f[19] = (_NEAR[card] & k.dead).bit_count() / 2
            f[20] = ((_RANK_MATES[card] | _NEAR[card]) & seen_opp).bit_count() / 3
        rows.append(f)
    return rows


@lru_cache(maxsize=1)
def load_model() -> dict[str, Any]:
    """The shipped network: ``{"features": [...], "mean": [...], "scale": [...], "w1": [[...]]
    (hidden x features), "b1": [...], "w2": [...], "b2": float, ...}``.  Raises ``ValueError``
    when its feature list is not :data:`FEATURES` (a model trained for other features)."""
    text = resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8")
    model: dict[str, Any] = json.loads(text)
    if tuple(model["features"]) != FEATURES:
        raise ValueError(f"{MODEL_FILE} was trained on other features: {model['features']}")
    return model


def move_scores(rows: Sequence[Sequence[float]], model: dict[str, Any] | None = None) -> list[float]:
    """The network's score of each row of :func:`move_features` (higher is better; compare the
    moves of one decision only).  ``model`` defaults to :func:`load_model`."""
    m = model if model is not None else load_model()
    mean, scale, w1, b1, w2, b2 = m["mean"], m["scale"], m["w1"], m["b1"], m["w2"], m["b2"]
    out = []
    for r in rows:
        x = [(v - mu) / s for v, mu, s in zip(r, mean, scale)]
        total = b2
        for wrow, b, v in zip(w1, b1, w2):
            total += v * math.tanh(b + sum(a * xi for a, xi in zip(wrow, x)))
        out.append(total)
    return out


#: What the network decides (:class:`SagePlayer`'s ``network``): ``"knock"`` whether to knock,
#: ``"all"`` every decision's default, ``"moves"`` the draws and discards only, ``"whether"``
#: only whether to knock (the card from the club player's rules).
NETWORK_ROLES = ("knock", "all", "moves", "whether")
#: Which decisions the search may change (:class:`SagePlayer`'s ``search``).
SEARCHED = ("all", "none", "knock", "draw+knock", "moves")


@register("sage")
class SagePlayer(ExpertPlayer):
    """The ``sage`` level: :class:`~ginrummy.players.expert.ExpertPlayer` whose default move
    (the one another candidate must beat by ``override_z`` standard errors of the search) comes
    from the learned scores of :func:`move_scores` where the network decides, the ``club``
    player's move elsewhere.  The network was trained on games to 100 (R11.1): in a view with no
    game score (one deal is the game, Hollywood, a view without scores) the sage is the expert.

    Args:
        rng, budget_ms and the other keyword arguments: as :class:`ExpertPlayer` (the default
            budget is the expert's, 150 ms a decision).
        network: what the network decides (:data:`NETWORK_ROLES`): ``"knock"`` (default) whether
            to knock when a knock is legal (R5.1): its best-scored move among the best knock and
            the discards, the ``club`` player's draws and discards otherwise; ``"all"`` every
            default move (among the expert's candidates and the ``club`` move); ``"moves"`` the
            draws and discards, the ``club`` player deciding whether to knock; ``"whether"``
            whether to knock and nothing else (the card to knock or discard with is the ``club``
            player's).  Measured in
            ``benchmarks/RESULTS.md`` ("The sage"): the network's knock decisions are where its
            gain over the ``club`` player lies; its draws and discards lose to the club's.
        search: which decisions the expert's search may change (:data:`SEARCHED`): ``"all"``
            (default), ``"none"`` (the default move alone, no sampled deals: about 0.3 ms a
            decision, the ``club`` player with the network's decisions),
            ``"knock"`` (only decisions where a knock is legal, R5.1), ``"draw+knock"`` (those
            and the draws, R4.1, R4.2) or ``"moves"`` (every decision but those where a knock is
            legal: the network's knock decision stands).  ``True`` and ``False`` mean ``"all"``
            and ``"none"``.

    Raises ``ValueError`` for an unknown ``network`` or ``search`` and as :class:`ExpertPlayer` does."""

    name = "sage"
    lobby = False

    def __init__(
        self,
        rng: random.Random,
        budget_ms: float | None | _Default = DEFAULT,
        search: bool | str = "all",
        network: str = "knock",
        **kwargs: Any,
    ) -> None:
        if network not in NETWORK_ROLES:
            raise ValueError(f"network must be one of {', '.join(NETWORK_ROLES)}, not {network!r}")
        if search is True or search is False:
            search = "all" if search else "none"
        if search not in SEARCHED:
            raise ValueError(f"search must be one of {', '.join(SEARCHED)}, not {search!r}")
        super().__init__(rng, budget_ms, **kwargs)
        self.search = search
        self.network = network

    def _club_hint(self, view: PlayerView, legal: Sequence[Action]) -> tuple[Action, str]:
        """The ``club`` player's move and reason for ``view``, kept for the decision: the default,
        the candidates and the hint all ask for it (the club player draws nothing from its
        ``rng``, so asking once gives the same move)."""
        key = (view, tuple(legal))
        cached = getattr(self, "_club_cached", None)
        if cached is None or cached[0][0] is not view or cached[0][1] != key[1]:
            cached = self._club_cached = (key, self._club.hint(view, legal))
        return cached[1]

    def _candidates(self, view: PlayerView, k: Knowledge, legal: list[Action]) -> list[Action]:
        """The expert's candidates and the ``club`` player's move (first when it is not one of
        them), as the training data had them."""
        moves = super()._candidates(view, k, legal)
        club = self._club_hint(view, legal)[0]
        return moves if club in moves else [club, *moves]

    def _default(self, view: PlayerView, k: Knowledge, legal: list[Action]) -> Action:
        club = self._club_hint(view, legal)[0]
        if score_context(view) is None:
            # trained on games to a target (R11.1): a single deal, Hollywood or a view without
            # the score keeps the club player's default, as the expert does
            return club
        moves = [a for a in self._candidates(view, k, legal) if a.kind not in ("gin", "big_gin")]
        knocks = any(a.kind == "knock" for a in moves)
        if self.network in ("knock", "whether") and not knocks:
            return club  # no knock to weigh: the club player's draw or discard
        if self.network == "moves" and knocks:
            if club.kind == "knock":
                return club  # the club player's knock decision stands (R5.1)
            moves = [a for a in moves if a.kind != "knock"]
        if len(moves) <= 1:
            return moves[0] if moves else club
        w = self._club.weights(k)
        scores = move_scores(move_features(view, k, w, moves, club))
        best = moves[max(range(len(moves)), key=lambda i: (scores[i], moves[i] == club, -i))]
        if self.network == "whether" and (best.kind == "knock") != (club.kind == "knock"):
            # the network says whether to knock; the club player says which card
            if best.kind == "knock":
                return best
            return self._club._discard(view, k, w, [a for a in legal if a.kind == "discard"])[0]
        if self.network == "whether":
            return club
        return best

    def _searched(self, view: PlayerView, legal: Sequence[Action]) -> bool:
        """Whether the search may change this decision (``search``)."""
        if self.search == "moves":
            return not any(a.kind == "knock" for a in legal)
        return self.search == "all" or (
            self.search != "none"
            and (
                any(a.kind == "knock" for a in legal)
                or (self.search == "draw+knock" and view.phase in ("upcard_offer", "draw", "wall"))
            )
        )

    def hint(self, view: PlayerView, legal: Sequence[Action]) -> tuple[Action, str]:
        """The sage's move and why (a :class:`~ginrummy.errors.Msg`): the expert's reason when
        the search decides, the ``club`` player's when its move stands, else that the learned
        knock decision (R5.1) chose it over the club player's move."""
        legal = list(legal)
        if len(legal) == 1 or any(a.kind in ("gin", "big_gin") for a in legal) or self._searched(view, legal):
            return super().hint(view, legal)
        a = self._default(view, read_view(view), legal)
        club, why = self._club_hint(view, legal)
        if a == club:
            return club, why
        return a, N_(
            "{move}: the learned knock decision (R5.1); the club player's rules would {other}",
            move=action_words(a),
            other=action_words(club),
        )

    def _analyse(
        self, view: PlayerView, legal: Sequence[Action]
    ) -> tuple[list[tuple[Action, float, int]], dict[Action, list[float]]]:
        legal = list(legal)
        if self._searched(view, legal):
            return super()._analyse(view, legal)
        a = self._default(view, read_view(view), legal)
        return [(a, 0.0, 0)], {a: []}


@register("sage-fast")
class FastSagePlayer(SagePlayer):
    """The ``sage-fast`` level: the sage without its search (``search="none"``): the ``club``
    player's draws and discards with the network's knock decisions (R5.1), about 0.3 ms a
    decision and no clock, so the same seed gives the same game on any machine.  Same arguments
    and errors as :class:`SagePlayer`.  Not offered in the web lobby (``lobby = False``)."""

    name = "sage-fast"

    def __init__(self, rng: random.Random, budget_ms: float | None | _Default = None, **kwargs: Any) -> None:
        kwargs.setdefault("search", "none")
        super().__init__(rng, budget_ms, **kwargs)
