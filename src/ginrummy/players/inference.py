"""What a seat can infer about the opponent's hand from its :class:`PlayerView` alone.

:func:`read_view` gathers the public facts of a deal as card-set masks (cards are ints 0..51,
sets are bit masks, see :mod:`ginrummy.cards`): the seat's hand, the dead cards (the discard
pile), the cards the opponent is known to hold (taken from the pile, R4.1), the cards he took,
passed (declined as upcard or top discard, R4.2) and discarded, and the unknown cards (the
opponent's hidden cards and the stock).

Two uses:

* :func:`card_weights` gives a fast per-card estimate of the chance that an unknown card is in
  the opponent's hand (used by the ``club`` player to judge discards).
* :func:`sample_hands` draws opponent hands by Bayesian importance resampling: hidden cards are
  drawn uniformly from the unknown cards, each hand is weighted by the likelihood of the
  opponent's takes, passes and discards under a simple model of play (he takes a card that melds
  with his hand, passes one that does not, and throws cards that meld with nothing), and hands
  are resampled in proportion to that weight (used by the ``expert`` player).  With
  ``history=True`` the weight is :func:`history_weight` instead: each of his acts weighed against
  the hand he held when he made it (measured in ``benchmarks/opponent_samples.py``; no player
  uses it).

Nothing here reads hidden cards: only the view.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import CARD_VALUES, FULL_DECK, cards_of
from ..melds import MELDS_BY_CARD, RUN_DW, best_discard_deadwood, deadwood, melds_with
from ..views import PlayerView

__all__ = [
    "meld_pairs",
    "MELD_PAIRS",
    "danger",
    "Knowledge",
    "read_view",
    "melds_with",
    "meld_partners",
    "card_weights",
    "sample_hands",
    "hand_likelihood",
    "hand_weight",
    "last_discard",
    "MELDS_BY_CARD",
]


#: For each card: the mask of cards that can share a meld with it (same rank; same suit within 2).
_PARTNERS: tuple[int, ...] = tuple(
    sum(1 << (s * 13 + c % 13) for s in range(4) if s != c // 13)
    | sum(1 << (c // 13 * 13 + r) for r in range(max(0, c % 13 - 2), min(13, c % 13 + 3)) if r != c % 13)
    for c in range(52)
)


def meld_pairs(c: int) -> list[tuple[int, int]]:
    """The pairs of cards that make a three-card meld with ``c`` (R2.1, R2.2): the three pairs of
    the other suits' cards of its rank, then the run pairs of its suit (up to three)."""
    r, s = c % 13, c // 13
    same = [t * 13 + r for t in range(4) if t != s]
    out = [(same[0], same[1]), (same[0], same[2]), (same[1], same[2])]
    base = s * 13
    for a, b in ((r - 2, r - 1), (r - 1, r + 1), (r + 1, r + 2)):
        if 0 <= a and b < 13:
            out.append((base + a, base + b))
    return out


#: ``MELD_PAIRS[c]``: :func:`meld_pairs` of card ``c``, for every card 0..51.
MELD_PAIRS = tuple(tuple(meld_pairs(c)) for c in range(52))


def danger(c: int, w: Sequence[float]) -> float:
    """The chance (0..1) that the opponent can meld card ``c`` with two cards of his hand,
    given ``w[x]``, the chance he holds card ``x`` (0 for dead cards and our own), treating
    cards as independent."""
    miss = 1.0
    for a, b in MELD_PAIRS[c]:
        p = w[a] * w[b]
        if p:
            miss *= 1.0 - p
    return 1.0 - miss


def meld_partners(card: int) -> int:
    """Mask of the cards that can be in one meld with ``card``: the other three of its rank and
    the cards of its suit up to two ranks away (R2.1, R2.2)."""
    return _PARTNERS[card]


@dataclass(frozen=True)
class Knowledge:
    """The public facts of a deal seen from one seat (all cards as ints, sets as masks).

    Attributes:
        seat: the seat (0 or 1).
        hand: the seat's cards.
        pile: the discard pile, bottom to top.
        dead: every card in the discard pile.
        known_opp: cards the opponent holds that were seen (taken from the pile, R4.1).
        unknown: cards neither in the hand, the pile nor known in the opponent's hand (his hidden
            cards and the stock).
        opp_hidden: how many of the opponent's cards are hidden.
        stock_size: cards left in the stock.
        opp_took: every card the opponent took from the pile (still held or not).
        opp_passed: cards the opponent declined (upcard passed or top discard left, R4.2).
        opp_discarded: cards the opponent discarded.
        my_discarded: cards this seat discarded.
        opp_events: the opponent's informative acts in order: ``(kind, card)`` with kind
            ``"take"``, ``"pass"`` or ``"discard"``.
        my_turns: how many times this seat has discarded (its turns completed).
        opp_draws: how many cards the opponent drew from the stock.
        knock_limit: the deal's knock limit in points (R5.1), ``None`` when only gin ends it.
        opp_turns: the opponent's decisions in order, for :func:`history_weight`: ``("offer",
            card, took)`` at the upcard offer (R4.2), ``("draw", top, took)`` at a draw (``took``:
            he took ``top`` from the pile, R4.1; else he drew from the stock; ``top`` is -1 when
            the pile was empty or the stock draw was forced, R4.2), ``("discard", card, knocked)``.
        reshuffled: the stock was reshuffled from the pile (R7.3): the opponent's turns before it
            are not followed by :func:`history_weight`.
    """

    seat: int
    hand: int
    pile: tuple[int, ...]
    dead: int
    known_opp: int
    unknown: int
    opp_hidden: int
    stock_size: int
    opp_took: int
    opp_passed: int
    opp_discarded: int
    my_discarded: int
    opp_events: tuple[tuple[str, int], ...]
    my_turns: int
    opp_draws: int = 0
    knock_limit: int | None = None
    opp_turns: tuple[tuple[str, int, bool], ...] = ()
    reshuffled: bool = False


def read_view(view: PlayerView) -> Knowledge:
    """The :class:`Knowledge` of ``view``'s seat, from the view alone (its history, pile, hand)."""
    seat = view.seat
    opp = 1 - seat
    pile: list[int] = [view.upcard]
    took = passed = thrown = mine = 0
    events: list[tuple[str, int]] = []
    my_turns = 0
    draws = 0
    turns: list[tuple[str, int, bool]] = []
    passes = 0  # passes of the upcard offer so far (two: the next draw is forced, R4.2)
    reshuffled = False
    for e in view.history:
        k = e.kind
        if k in ("take_upcard", "take_discard"):
            if pile:
                pile.pop()
            if e.seat == opp and e.card is not None:
                took |= 1 << e.card
                events.append(("take", e.card))
                turns.append(("offer" if k == "take_upcard" else "draw", e.card, True))
        elif k == "pass" or k == "draw_stock":
            if e.seat == opp and k == "draw_stock":
                draws += 1
            if e.seat == opp and pile:
                passed |= 1 << pile[-1]
                events.append(("pass", pile[-1]))
            if e.seat == opp:
                if k == "pass":
                    turns.append(("offer", pile[-1] if pile else -1, False))
                else:
                    turns.append(("draw", pile[-1] if pile and passes < 2 else -1, False))
            if k == "pass":
                passes += 1
            else:
                passes = 0
        elif k in ("discard", "knock", "gin"):
            passes = 0
            if e.card is not None:
                pile.append(e.card)
                if e.seat == opp:
                    thrown |= 1 << e.card
                    events.append(("discard", e.card))
                    turns.append(("discard", e.card, k != "discard"))
                elif e.seat == seat:
                    mine |= 1 << e.card
                    my_turns += 1
        elif k == "reshuffle":
            pile = pile[-1:]
            reshuffled = True
            turns = []
    vpile = tuple(view.pile)
    dead = 0
    for c in vpile:
        dead |= 1 << c
    known = view.opponent_seen & ~view.hand & ~dead
    unknown = FULL_DECK & ~view.hand & ~dead & ~known
    hidden = max(0, min(view.opponent_count - known.bit_count(), unknown.bit_count()))
    return Knowledge(
        seat,
        view.hand,
        vpile,
        dead,
        known,
        unknown,
        hidden,
        view.stock_size,
        took,
        passed,
        thrown,
        mine,
        tuple(events),
        my_turns,
        draws,
        view.knock_limit,
        tuple(turns),
        reshuffled,
    )


# -- per-card estimate (club) ---------------------------------------------------------------


def card_weights(k: Knowledge) -> list[float]:
    """For each card 0..51: an estimate of the chance that the opponent holds it.

    Known cards get 1.0, cards in the hand or the pile 0.0.  Each unknown card starts at weight
    1; each card the opponent passed or discarded halves the weight of its meld partners (he
    did not want it, so he likely holds nothing that goes with it), each card he took and still
    holds doubles them.  The unknown weights are then scaled so that they sum to the number of
    his hidden cards (each capped at 0.95).
    """
    w = [0.0] * 52
    unknown = cards_of(k.unknown)
    for c in unknown:
        w[c] = 1.0
    for kind, c in k.opp_events:
        part = _PARTNERS[c] & k.unknown
        if kind == "take":
            if not (k.known_opp >> c) & 1:
                continue
            factor = 2.0
        else:
            factor = 0.5
        for x in cards_of(part):
            w[x] *= factor
    total = sum(w[c] for c in unknown)
    if total > 0 and k.opp_hidden:
        scale = k.opp_hidden / total
        for c in unknown:
            w[c] = min(0.95, w[c] * scale)
    else:
        for c in unknown:
            w[c] = 0.0
    for c in cards_of(k.known_opp):
        w[c] = 1.0
    return w


# -- Bayesian sampling of hands (expert) ------------------------------------------------------

#: Likelihood factors of the model of the opponent's play (see :func:`hand_likelihood`).
PASS_MELDING = 0.2
DISCARD_MELDING = 0.35
TAKE_NOT_MELDING = 0.3


def hand_likelihood(k: Knowledge, opp_hand: int) -> float:
    """The likelihood (relative, 0 < L <= 1) of the opponent's acts if his hand now is
    ``opp_hand`` (a mask of all his cards, known ones included).

    Model: a card he passed that would meld with his hand has factor ``PASS_MELDING``; a card he
    discarded that would meld with his present hand ``DISCARD_MELDING``; a card he took and still
    holds that melds with nothing else of his ``TAKE_NOT_MELDING``; everything else 1.
    """
    like = 1.0
    for kind, c in k.opp_events:
        bit = 1 << c
        if kind == "take":
            if opp_hand & bit and not melds_with(c, opp_hand & ~bit):
                like *= TAKE_NOT_MELDING
        elif kind == "pass":
            if not opp_hand & bit and melds_with(c, opp_hand):
                like *= PASS_MELDING
        else:
            if not opp_hand & bit and melds_with(c, opp_hand):
                like *= DISCARD_MELDING
    return like


#: Most cards of the proposal's "seen" pool dropped again (see :func:`sample_hands`).
MAX_IMPROVE = 6
#: Proposal pool surplus: ``IMPROVE_BASE + IMPROVE_RATE * opp_draws`` cards (calibrated so the
#: sampled hands' mean deadwood follows the true hands' in baseline self-play).
IMPROVE_BASE = 1.5
IMPROVE_RATE = 0.5
#: Likelihood factor of a hand from which his last discard was not a least-deadwood discard.
LAST_DISCARD_WORSE = 0.3
#: Likelihood factor of a hand with which he could have knocked or gone gin after his last
#: discard (R5.1, R6.1) but did not: most players knock at once; some play on for gin.
NOT_KNOCKED = 0.15


def _drop_worst(hand: int, pool: int, m: int) -> int:
    """Drop ``m`` cards of ``pool`` (a subset of ``hand``) from ``hand``, each time the one whose
    removal leaves the least deadwood (ties: the higher card)."""
    t = RUN_DW
    for _ in range(m):
        s0 = hand & 8191
        s1 = (hand >> 13) & 8191
        s2 = (hand >> 26) & 8191
        s3 = hand >> 39
        trips = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
        best_c = -1
        best_key = (1 << 30, 0)
        if not trips:
            sl = (s0, s1, s2, s3)
            base = t[s0] + t[s1] + t[s2] + t[s3]
            x = pool
            while x:
                low = x & -x
                x ^= low
                c = low.bit_length() - 1
                suit = c // 13
                sm = sl[suit]
                key = (base - t[sm] + t[sm ^ (1 << (c - 13 * suit))], -CARD_VALUES[c])
                if key <= best_key:
                    best_key, best_c = key, c
        else:
            x = pool
            while x:
                low = x & -x
                x ^= low
                c = low.bit_length() - 1
                key = (deadwood(hand ^ low), -CARD_VALUES[c])
                if key <= best_key:
                    best_key, best_c = key, c
        hand &= ~(1 << best_c)
        pool &= ~(1 << best_c)
    return hand


def last_discard(k: Knowledge) -> int:
    """The opponent's last discard (a card int), or -1 if he has not discarded."""
    for kind, c in reversed(k.opp_events):
        if kind == "discard":
            return c
    return -1


def hand_weight(k: Knowledge, opp_hand: int, last: int | None = None, events: bool = True) -> float:
    """The posterior weight (relative, 0 < w <= 1) of the opponent's hand ``opp_hand`` (a mask
    of all his cards): :func:`hand_likelihood` of his takes, passes and discards, times
    ``LAST_DISCARD_WORSE`` when his last discard ``last`` (default :func:`last_discard`) was not a
    least-deadwood discard (R2.4) from ``opp_hand`` plus that card, times ``NOT_KNOCKED`` when
    ``opp_hand`` could have knocked or gone gin after that discard (deadwood 0 or at most the
    knock limit, R5.1, R6.1) and he played on.  With ``events=False`` the takes, passes and
    discards are left out (a proposal that already accounts for them, :func:`sample_hands`)."""
    if last is None:
        last = last_discard(k)
    w = hand_likelihood(k, opp_hand) if events and k.opp_events else 1.0
    if last >= 0:
        dw = deadwood(opp_hand)
        if dw > best_discard_deadwood(opp_hand | (1 << last)):
            w *= LAST_DISCARD_WORSE
        if dw == 0 or (k.knock_limit is not None and dw <= k.knock_limit):
            w *= NOT_KNOCKED
    return w


#: The model of play that :func:`history_weight` follows the opponent's deal with: the chance
#: that he takes a card that melds with his hand (R2), one that lowers his deadwood by at least
#: ``TAKE_GAIN_MIN`` points without melding, and any other card.
TAKE_MELDING_P = 0.85
TAKE_GAIN_P = 0.3
TAKE_GAIN_MIN = 5
TAKE_OTHER_P = 0.05
#: Factor of a discard that leaves ``gap`` points more deadwood than his best discard would:
#: ``DISCARD_WORSE_P * exp(-gap / DISCARD_GAP_SCALE)`` (1 for a best discard, R2.4).
DISCARD_WORSE_P = 0.3
DISCARD_GAP_SCALE = 6.0
#: Factor of a turn after which he could have gone gin (R6.1) and played on.
NOT_GIN = 0.05


def _take_chance(hand: int, card: int) -> float:
    """The model's chance that a player with the 10 cards ``hand`` takes ``card``."""
    if melds_with(card, hand):
        return TAKE_MELDING_P
    if best_discard_deadwood(hand | (1 << card)) <= deadwood(hand) - TAKE_GAIN_MIN:
        return TAKE_GAIN_P
    return TAKE_OTHER_P


def _discard_factor(after: int, card: int, knocked: bool, limit: int | None) -> float:
    """The model's weight of a discard of ``card`` that left the 10 cards ``after``: ``gap``
    points more deadwood than his best discard costs ``DISCARD_WORSE_P * exp(-gap /
    DISCARD_GAP_SCALE)`` (R2.4); playing on (``knocked`` false) when he could have gone gin
    ``NOT_GIN``, when he could have knocked ``NOT_KNOCKED`` (R5.1, R6.1)."""
    dw = deadwood(after)
    gap = dw - best_discard_deadwood(after | (1 << card))
    f = DISCARD_WORSE_P * math.exp(-gap / DISCARD_GAP_SCALE) if gap > 0 else 1.0
    if not knocked:
        if dw == 0:
            f *= NOT_GIN
        elif limit is not None and dw <= limit:
            f *= NOT_KNOCKED
    return f


def history_weight(k: Knowledge, opp_hand: int, rng: random.Random, guided: bool = False) -> float:
    """The likelihood (relative, 0 < w <= 1) of the opponent's whole deal so far if his hand
    now is ``opp_hand`` (a mask of his 10 cards, known ones included), each of his decisions
    weighed against the hand he held when he made it.

    His turns (:attr:`Knowledge.opp_turns`) are walked back from now: a discard puts its card back
    in his hand; a take (R4.1) removes the card taken; a stock draw removes one of his cards not
    taken from the pile, drawn from ``rng``: uniformly (each such card is equally likely to be the
    one drawn last, before his play is weighed), or with ``guided`` in proportion to the weight of
    the pass and of the discard before it that each choice gives, the weight then multiplied by
    the mean of those weights (importance sampling of the card drawn).  The model of play: he
    takes a card that melds with his hand with chance ``TAKE_MELDING_P``, one that lowers his
    deadwood by ``TAKE_GAIN_MIN`` with ``TAKE_GAIN_P``, another with ``TAKE_OTHER_P`` (a pass
    weighs one minus that chance, R4.2); a discard weighs :func:`_discard_factor`."""
    h = opp_hand
    w = 1.0
    took = k.opp_took
    limit = k.knock_limit
    turns = k.opp_turns
    skip = False  # the discard's factor was weighed with the stock draw after it (guided)
    for i in range(len(turns) - 1, -1, -1):
        kind, c, flag = turns[i]
        if kind == "discard":
            if not skip:
                w *= _discard_factor(h, c, flag, limit)
            skip = False
            h |= 1 << c
        elif flag:  # he took c from the pile (R4.1)
            h &= ~(1 << c)
            w *= _take_chance(h, c)
        else:
            if kind == "draw":  # one of his cards not taken from the pile came from the stock
                elig = cards_of(h & ~took)
                n = len(elig)
                if n == 0:
                    return 0.0
                if guided:
                    prev = turns[i - 1] if i > 0 and turns[i - 1][0] == "discard" else None
                    opts: list[float] = []
                    for x in elig:
                        hx = h & ~(1 << x)
                        g = 1.0 - _take_chance(hx, c) if c >= 0 else 1.0
                        if prev is not None:
                            g *= _discard_factor(hx, prev[1], prev[2], limit)
                        opts.append(g)
                    total = sum(opts)
                    if not total > 0:
                        return 0.0
                    u = rng.random() * total
                    j = 0
                    while j < n - 1 and u > opts[j]:
                        u -= opts[j]
                        j += 1
                    h &= ~(1 << elig[j])
                    w *= total / n  # the pass (and the discard before it) weighed in the choice
                    skip = prev is not None
                    continue
                h &= ~(1 << elig[rng.randrange(n)])
            if c >= 0:  # he passed c (the upcard, or the top discard for the stock, R4.2)
                w *= 1.0 - _take_chance(h, c)
    return w


def sample_hands(
    k: Knowledge,
    rng: random.Random,
    n: int,
    oversample: int = 3,
    weights: list[float] | None = None,
    history: bool = False,
    improve: bool = True,
    guided: bool = False,
) -> list[int]:
    """``n`` opponent hands (masks of all his cards, known ones included), drawn from an
    approximate posterior given everything seen.

    Proposal: his hand is not a random one: he has seen ``opp_draws`` stock cards and kept the
    best.  So each proposal draws ``hidden + m`` unknown cards (``m = min(opp_draws,
    MAX_IMPROVE)``) and drops the ``m`` whose removal leaves the least deadwood (R2.4).
    Weight: :func:`hand_weight` (his takes, passes and discards, whether his last discard was a
    least-deadwood one, and that he did not knock).  ``n * oversample`` proposals are resampled
    (systematic resampling) by weight.  Deterministic given ``rng``.  Raises ``ValueError`` if ``n < 1``.

    With ``weights`` (for each card 0..51 the chance he holds it, from a model that already reads
    his takes, passes and discards: :func:`ginrummy.players.opponent_model.holding_weights`), the
    proposal draws his hidden cards by successive sampling without replacement with the odds
    ``w / (1 - w)`` as weights (keys ``u ** ((1 - w) / w)``), so that each card's chance to be
    drawn is close to ``w``, with no surplus cards dropped, and the weight leaves his acts out
    (``events=False``): only the last discard and the knock he did not make are weighed.

    With ``history=True`` the weight is :func:`history_weight` (his whole deal, ``guided`` as
    there); ``improve=False`` draws his hidden cards uniformly, without the surplus cards.
    """
    if n < 1:
        raise ValueError(f"n must be >= 1, not {n!r}")
    pool = cards_of(k.unknown)
    h = k.opp_hidden
    extra = max(0, min(int(IMPROVE_BASE + IMPROVE_RATE * k.opp_draws), MAX_IMPROVE, len(pool) - h)) if improve else 0
    last = last_discard(k)
    cands: list[int] = []
    inv = None
    if weights is not None:
        # successive sampling with the odds w / (1 - w) as weights: inclusion chances close to w;
        # no surplus cards to drop (the model's chances already say what he kept)
        inv = [(1.0 - min(0.999, max(1e-4, weights[c]))) / min(0.999, max(1e-4, weights[c])) for c in pool]
        extra = 0
    draw = h + extra
    out_w: list[float] = []
    for _ in range(n * max(1, oversample)):
        picked = 0
        if inv is None:
            for c in rng.sample(pool, draw):
                picked |= 1 << c
        else:
            rnd = rng.random
            keys = sorted(((rnd() ** e, c) for c, e in zip(pool, inv)), reverse=True)
            for _, c in keys[:draw]:
                picked |= 1 << c
        m = k.known_opp | picked
        if extra:
            m = _drop_worst(m, picked, extra)
        cands.append(m)
        out_w.append(history_weight(k, m, rng, guided) if history else hand_weight(k, m, last, events=inv is None))
    weights = out_w
    total = sum(weights)
    if not total > 0:  # no proposal fits what he did: take them as they are
        weights = [1.0] * len(cands)
        total = float(len(cands))
    step = total / n
    u = rng.random() * step
    out: list[int] = []
    acc = 0.0
    i = 0
    for j in range(n):
        target = u + j * step
        while i < len(cands) - 1 and acc + weights[i] < target:
            acc += weights[i]
            i += 1
        out.append(cands[i])
    return out
