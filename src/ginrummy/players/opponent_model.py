"""The learned opponent model: for every unseen card, the chance that the opponent holds it,
and for a card we may discard, the chance that he can meld it, from the :class:`PlayerView`
alone (through :class:`~ginrummy.players.inference.Knowledge`).

Two logistic regressions, trained by ``scripts/train_opponent_model.py`` (seeded: it rebuilds
the shipped weights exactly) on the decisions of many self-play and mixed-level games:

* :func:`holding_weights` (the *holding model*): for each unknown card ``c`` the features of
  :func:`card_features` (what the opponent did with ``c``'s meld partners: took and kept,
  passed, discarded; which of them we hold or are dead; his last discard; how long the deal
  has run; how many melds with ``c`` are still live; the card's value), then a shift of all
  the cards' log-odds so that the chances sum to the number of his hidden cards.  Cards seen in
  his hand (taken from the pile, R4.1) are 1, our cards and the discard pile 0.
* :func:`meld_chance` (the *meld model*): the chance that the opponent holds two cards making a
  meld with a card (R2.1, R2.2) or that it extends a meld of his, a calibration of the
  independent-cards estimate :func:`ginrummy.players.inference.danger` of the holding weights.

The weights are the small JSON file ``opponent_model.json`` next to this module, read once on
first use (:func:`load`).  Pure Python at run time (no numpy); deterministic: no randomness,
no clock.  Nothing here reads a hidden card: only the view's knowledge.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources
from typing import Any

from ..cards import CARD_VALUES, cards_of
from .inference import MELD_PAIRS, MELDS_BY_CARD, Knowledge, danger, last_discard

__all__ = [
    "FEATURES",
    "MELD_FEATURES",
    "card_features",
    "holding_weights",
    "meld_features",
    "meld_chance",
    "load",
    "MODEL_FILE",
]

#: The shipped weights (package data).
MODEL_FILE = "opponent_model.json"


def _rel_masks(c: int) -> tuple[int, int, int]:
    """(same rank, same suit one rank away, same suit two ranks away) of card ``c``, as masks."""
    r, s = c % 13, c // 13
    rank = sum(1 << (t * 13 + r) for t in range(4) if t != s)
    d1 = sum(1 << (s * 13 + x) for x in (r - 1, r + 1) if 0 <= x < 13)
    d2 = sum(1 << (s * 13 + x) for x in (r - 2, r + 2) if 0 <= x < 13)
    return rank, d1, d2


_REL = tuple(_rel_masks(c) for c in range(52))
#: The three-card melds of each card (R2.1, R2.2), as masks.
_MELD3 = tuple(tuple(m for m in MELDS_BY_CARD[c] if m.bit_count() == 3) for c in range(52))

_SETS = ("opp_kept", "opp_took_gone", "opp_passed", "opp_discarded", "my_discarded", "my_hand")
#: Names of the holding model's features, in order.
FEATURES: tuple[str, ...] = (
    ("bias", "prior_logit")
    + tuple(f"{s}_{rel}" for s in _SETS for rel in ("rank", "suit1", "suit2"))
    + (
        "value",
        "ace",
        "face",
        "opp_draws",
        "stock",
        "last_rank",
        "last_suit",
        "live_melds",
        "melds_kept",
        "early_discard_rank",
        "early_discard_suit",
    )
)
#: Names of the meld model's features, in order.
MELD_FEATURES: tuple[str, ...] = ("bias", "danger_logit", "danger", "live_pairs", "value")


def _logit(p: float) -> float:
    p = min(1 - 1e-6, max(1e-6, p))
    return math.log(p / (1 - p))


def card_features(k: Knowledge) -> list[tuple[int, list[float]]]:
    """``(card, features)`` for every unknown card of ``k`` (ascending), the features named by
    :data:`FEATURES`: counts of the card's meld partners (same rank; same suit one or two ranks
    away) in each of the sets seen (kept by the opponent, taken then thrown by him, passed,
    discarded by him, discarded by us, in our hand), the card's value / 10, ace, face card, the
    opponent's stock draws / 10, stock size / 31, whether it shares rank or suit (within two
    ranks) with his last discard, the live three-card melds with it / 6, whether it melds with
    cards he is known to hold, and the partners he discarded in his first three discards."""
    unknown = cards_of(k.unknown)
    if not unknown:
        return []
    prior = _logit(k.opp_hidden / len(unknown)) if k.opp_hidden else _logit(0.0)
    gone = k.opp_took & ~k.known_opp
    sets = (k.known_opp, gone, k.opp_passed, k.opp_discarded, k.my_discarded, k.hand)
    blocked = k.dead | k.hand
    last = last_discard(k)
    early = 0
    n = 0
    for kind, x in k.opp_events:
        if kind == "discard":
            early |= 1 << x
            n += 1
            if n == 3:
                break
    draws = k.opp_draws / 10
    stock = k.stock_size / 31
    out = []
    for c in unknown:
        rel = _REL[c]
        f = [1.0, prior]
        for s in sets:
            f.extend(float((s & m).bit_count()) for m in rel)
        r = c % 13
        f.append(CARD_VALUES[c] / 10)
        f.append(1.0 if r == 0 else 0.0)
        f.append(1.0 if r >= 10 else 0.0)
        f.append(draws)
        f.append(stock)
        if last >= 0:
            f.append(1.0 if last % 13 == r else 0.0)
            f.append(1.0 if last // 13 == c // 13 and abs(last % 13 - r) <= 2 else 0.0)
        else:
            f.extend((0.0, 0.0))
        live = 0
        kept = 0.0
        for m in _MELD3[c]:
            rest = m & ~(1 << c)
            if not rest & blocked:
                live += 1
                if rest & k.known_opp:
                    kept = 1.0
        f.append(live / 6)
        f.append(kept)
        f.append(float((early & rel[0]).bit_count()))
        f.append(float((early & (rel[1] | rel[2])).bit_count()))
        out.append((c, f))
    return out


@lru_cache(maxsize=1)
def load() -> dict[str, Any]:
    """The shipped model: ``{"holding": [weights], "meld": [weights], "features": [...],
    "meld_features": [...], ...}``, read from :data:`MODEL_FILE` once.  Raises ``RuntimeError``
    when the file's features are not those of this code (a stale model)."""
    text = resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8")
    model = json.loads(text)
    if tuple(model["features"]) != FEATURES or tuple(model["meld_features"]) != MELD_FEATURES:
        raise RuntimeError(
            f"{MODEL_FILE} was trained with other features; rebuild it with scripts/train_opponent_model.py"
        )
    return model


def _dot(w: list[float], f: list[float]) -> float:
    return sum(a * b for a, b in zip(w, f))


def holding_weights(k: Knowledge, model: dict[str, Any] | None = None) -> list[float]:
    """For each card 0..51 the chance (0..1) that the opponent holds it (the holding model): 1
    for cards seen in his hand, 0 for our cards and the pile; the unknown cards' chances sum to
    his hidden cards (``k.opp_hidden``), each below 1.  Same shape as
    :func:`ginrummy.players.inference.card_weights`."""
    m = model or load()
    wts = m["holding"]
    w = [0.0] * 52
    feats = card_features(k)
    h = k.opp_hidden
    if feats and h:
        z = [_dot(wts, f) for _, f in feats]
        w_un = normalise(z, h)
        for (c, _), p in zip(feats, w_un):
            w[c] = p
    for c in cards_of(k.known_opp):
        w[c] = 1.0
    return w


def normalise(z: list[float], total: float) -> list[float]:
    """``sigmoid(z_i + b)`` with the shift ``b`` that makes them sum to ``total`` (0 < total <
    len(z); Newton's method on ``b``, 30 steps at most)."""
    if total >= len(z):
        return [1.0] * len(z)
    b = 0.0
    p = z
    for _ in range(30):
        p = [1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x + b)))) for x in z]
        s = sum(p)
        d = sum(q * (1 - q) for q in p)
        if abs(s - total) < 1e-6 or d <= 0:
            break
        b -= (s - total) / d
    return p


def meld_features(c: int, danger_indep: float, w: list[float]) -> list[float]:
    """The meld model's features (:data:`MELD_FEATURES`) of card ``c`` given its
    independent-cards danger and the holding weights ``w``: bias, logit and value of the danger,
    the pairs of partner cards he may hold (both with a chance above 0) / 6, the card's value / 10."""
    live = sum(1 for a, b in MELD_PAIRS[c] if w[a] > 0 and w[b] > 0)
    return [1.0, _logit(danger_indep), danger_indep, live / 6, CARD_VALUES[c] / 10]


def meld_chance(c: int, w: list[float], model: dict[str, Any] | None = None) -> float:
    """The chance (0..1) that the opponent can meld card ``c`` (the meld model), given the
    holding weights ``w`` of :func:`holding_weights`."""
    m = model or load()
    d = danger(c, w)
    if d <= 0.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, _dot(m["meld"], meld_features(c, d, w))))))
