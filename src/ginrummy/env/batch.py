"""A batched deal engine: ``N`` two-hand deals of standard gin as NumPy arrays, one array
operation a move for the whole batch (``docs/env.md``, "Vector environment"; issue 36).

It is an accelerator checked against the scalar engine (:class:`~ginrummy.deal.DealState`,
driven by :class:`~ginrummy.env.core.GameCore`), never a second source of the rules: the tests
(``tests/test_env_batch.py``) replay every batched move through the scalar engine and assert
equal masks, observations, rewards and ends on every step.  It covers exactly what
:func:`batch_rules_ok` accepts: the two-hand ``layout="engine"`` rules of the standard variant
with ``stock_end="draw_at_two"`` (R7.1), no big gin (R6.5), ``discard_taken_card`` off
(R4.3), no repeated-move or pile-take limits (R7.4, R7.5); one deal an episode.

State of deal ``i`` (row ``i`` of each array):

- ``hands[i, s]`` / ``seen[i, s]`` / ``discarded[i, s]``: ``uint64`` card-set masks (bit
  ``c`` for card ``c = suit * 13 + rank``, R1) of seat ``s``'s hand, of the cards seat ``s``
  took from the pile and still holds, and of the cards seat ``s`` discarded this deal (its
  knock or gin discard included);
- ``pile[i, :pile_n[i]]`` the discard pile, bottom to top (``int8``), ``pile_bits[i]`` its
  mask and ``order[i, c]`` card ``c``'s ``pile_order`` value ((k + 1) / 52 for the card k-th
  from the bottom, else 0; R4);
- ``stock[i]`` the 31 stock cards, top first, and ``drawn[i]`` how many were drawn (R3.2);
- ``phase[i]`` (0 upcard offer, 1 draw, 2 discard, 4 over: the index in
  :data:`~ginrummy.deal.PHASES`), ``to_act[i]`` (the seat, -1 once over), ``dealer[i]``,
  ``taken[i]`` (the card taken from the pile this turn, -1 for none, R4.3), ``stock_only[i]``
  (R4.2), ``passes[i]`` (upcard passes, R4.2), ``knock_limit[i]`` (R5.1);
- once a deal is over: ``winner[i]`` (the seat that scored, -1 for a draw) and ``points[i]``
  (R6, from the scalar :func:`~ginrummy.showdown.showdown`, called once per finished deal).

The legal mask of a discard turn needs each discard's deadwood (R2.4, R5.1).  A hand holding
no rank three times has exactly the runs-only deadwood of its four suits (a table of 8,192
suit patterns, as the scalar engine's ``RUN_DW``), so each discard's deadwood is two table
reads; a hand with such a rank is first bounded from below (:func:`lower_bound`: the value of
the cards that lie in no possible meld of the hand, less its dearest such card), and only the
few hands whose bound allows a knock go to the scalar engine's exact
:func:`~ginrummy.melds.deadwood_after_discards` (cached by hand).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..cards import CARD_VALUES
from ..melds import RUN_DW, deadwood_after_discards
from ..rules import RuleSet
from ..showdown import showdown
from .observation import OBS_SIZE, SCALAR_BASE

__all__ = ["BatchDeals", "batch_rules_ok", "lower_bound", "OFFER", "DRAW", "DISCARD", "OVER", "NUM_CODES", "pick"]

OFFER, DRAW, DISCARD, OVER = 0, 1, 2, 4
NUM_CODES = 161
_U = np.uint64
_SUIT = _U(8191)
_ONE = _U(1)
_BIT = np.array([1 << c for c in range(52)], dtype=np.uint64)
_VALUES = np.array(CARD_VALUES, dtype=np.int16)
_RANK_VALUES = [min(r + 1, 10) for r in range(13)]
#: runs-only deadwood of each 13-bit suit pattern (the scalar engine's ``RUN_DW``), and of the
#: pattern less each rank: ``_AFTER[m, r] = RUN_DW[m & ~(1 << r)]``
_RUN_DW = np.array(RUN_DW, dtype=np.int16)
_AFTER = _RUN_DW[np.arange(8192)[:, None] & ~(1 << np.arange(13))[None, :]]
#: value of a suit pattern's cards, and of its dearest card (0 for none)
_VAL13 = np.array([sum(_RANK_VALUES[r] for r in range(13) if m >> r & 1) for m in range(8192)], dtype=np.int16)
_MAX13 = np.array(
    [max([_RANK_VALUES[r] for r in range(13) if m >> r & 1], default=0) for m in range(8192)], dtype=np.int16
)
#: the bits of the ranks 0..10 of each suit (where a run of three may start)
_RUN_START = _U(sum(((1 << 11) - 1) << (13 * s) for s in range(4)))
_ORDER = (np.arange(1, 53) / 52).astype(np.float32)
_CACHE_MAX = 1 << 18


def batch_rules_ok(rules: RuleSet) -> str | None:
    """``None`` when :class:`BatchDeals` plays ``rules`` exactly, else what differs (a text
    naming the field and the value it needs)."""
    need = {
        "players": 2,
        "variant": "standard",
        "layout": "engine",
        "stock_end": "draw_at_two",
        "big_gin_bonus": None,
        "discard_taken_card": False,
        "repeated_move_ends": False,
        "max_pile_takes": 0,
        "tie": "undercut",
    }
    for k, v in need.items():
        if getattr(rules, k) != v:
            return f"{k}={v!r} (not {getattr(rules, k)!r})"
    return None


def _suits(h: np.ndarray) -> tuple[np.ndarray, ...]:
    return (h & _SUIT, (h >> _U(13)) & _SUIT, (h >> _U(26)) & _SUIT, h >> _U(39))


def _triples(s: tuple[np.ndarray, ...]) -> np.ndarray:
    """The 13-bit mask of the ranks held three or four times (from the four suit patterns)."""
    s0, s1, s2, s3 = s
    return (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)


def lower_bound(hands: np.ndarray) -> np.ndarray:
    """A lower bound (``int``, shape ``(M,)``) of the least deadwood (R2.4) an 11-card hand can
    keep after one discard (R5.1), for ``hands`` (``uint64``, shape ``(M,)``).

    A card in no run of three of its suit within the hand and held with fewer than two others
    of its rank lies in no meld of the hand nor of the hand less any card, so it is deadwood
    after any discard but its own: the bound is the value of those cards less the dearest."""
    s = _suits(hands)
    t = _triples(s)
    sets = t | (t << _U(13)) | (t << _U(26)) | (t << _U(39))
    starts = hands & (hands >> _ONE) & (hands >> _U(2)) & _RUN_START
    meld = sets | starts | (starts << _ONE) | (starts << _U(2))
    free = _suits(hands & ~meld)
    f = [x.astype(np.intp) for x in free]
    total = _VAL13[f[0]] + _VAL13[f[1]] + _VAL13[f[2]] + _VAL13[f[3]]
    dearest = np.maximum.reduce([_MAX13[x] for x in f])
    return total - dearest


def _bits52(h: np.ndarray) -> np.ndarray:
    """``uint8`` array (M, 52): bit ``c`` of each mask of ``h`` (``uint64``, shape ``(M,)``)."""
    return np.unpackbits(np.ascontiguousarray(h).view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")[:, :52]


class BatchDeals:
    """``n`` deals of two-hand standard gin (see the module docstring), stepped together.

    Args:
        n: the number of deals (rows).
        rules: a :class:`RuleSet` that :func:`batch_rules_ok` accepts (checked by the caller).
        bound: the lower bound of the deadwood kept after the best discard (default
            :func:`lower_bound`); the tests pass a wrong one to show that the equality tests
            would see it.
    """

    def __init__(self, n: int, rules: RuleSet, bound: Callable[[np.ndarray], np.ndarray] = lower_bound) -> None:
        self.n = n
        self.rules = rules
        self.bound = bound
        #: the score scale of the total scalars (``target``, R11.1)
        self.scale = rules.target * (3 if rules.scoring == "hollywood" else 1)
        self.hands = np.zeros((n, 2), dtype=np.uint64)
        self.seen = np.zeros((n, 2), dtype=np.uint64)
        self.discarded = np.zeros((n, 2), dtype=np.uint64)
        self.pile = np.zeros((n, 52), dtype=np.int8)
        self.pile_n = np.zeros(n, dtype=np.int64)
        self.pile_bits = np.zeros(n, dtype=np.uint64)
        self.order = np.zeros((n, 52), dtype=np.float32)
        self.stock = np.zeros((n, 31), dtype=np.int8)
        self.drawn = np.zeros(n, dtype=np.int64)
        self.phase = np.full(n, OVER, dtype=np.int8)
        self.to_act = np.full(n, -1, dtype=np.int8)
        self.dealer = np.zeros(n, dtype=np.int8)
        self.taken = np.full(n, -1, dtype=np.int8)
        self.stock_only = np.zeros(n, dtype=np.bool_)
        self.passes = np.zeros(n, dtype=np.int8)
        self.knock_limit = np.zeros(n, dtype=np.int16)
        self.multiplier = np.ones(n, dtype=np.int16)
        self.winner = np.full(n, -1, dtype=np.int8)
        self.points = np.zeros(n, dtype=np.int64)
        #: (hand, taken, knock limit) -> (knock mask, gin mask) of the hands decided by the scalar engine
        self.cache: dict[tuple[int, int, int], tuple[int, int]] = {}
        #: how many discard turns went to the scalar engine (its cache included), for benchmarks
        self.fallbacks = 0

    # -- deals -----------------------------------------------------------------------------

    def deal(self, i: int, deck: Sequence[int], dealer: int) -> None:
        """Start deal ``i`` from ``deck`` (52 card ints in :func:`~ginrummy.deal.new_deal` order:
        ``deck[0:10]`` the non-dealer's hand, ``deck[10:20]`` the dealer's, ``deck[20]`` the
        upcard, the rest the stock, top first; R3.2) with seat ``dealer`` dealing."""
        nd = dl = 0
        for c in deck[0:10]:
            nd |= 1 << c
        for c in deck[10:20]:
            dl |= 1 << c
        self.hands[i] = (nd, dl) if dealer == 1 else (dl, nd)
        self.seen[i] = 0
        self.discarded[i] = 0
        up = deck[20]
        self.pile[i, 0] = up
        self.pile_n[i] = 1
        self.pile_bits[i] = 1 << up
        self.order[i] = 0.0
        self.order[i, up] = _ORDER[0]
        self.stock[i] = deck[21:]
        self.drawn[i] = 0
        self.phase[i] = OFFER
        self.to_act[i] = 1 - dealer
        self.dealer[i] = dealer
        self.taken[i] = -1
        self.stock_only[i] = False
        self.passes[i] = 0
        limit = self.rules.deal_knock_limit(up)
        self.knock_limit[i] = -1 if limit is None else limit
        self.multiplier[i] = self.rules.deal_multiplier(up)
        self.winner[i] = -1
        self.points[i] = 0

    # -- legal codes -----------------------------------------------------------------------

    def masks(self, rows: np.ndarray) -> np.ndarray:
        """``int8`` array ``(len(rows), 161)``: the legal codes (:mod:`ginrummy.actions`) of the
        seat to act in each deal of ``rows`` (an ``intp`` array), exactly the scalar engine's
        (``GameCore.mask_to_act``); all 0 for a deal that is over.  Offer: take upcard, pass
        (R4.2); draw: the stock, and the pile unless it is the first draw after both passed
        (R4.2); discard: each card of the hand but the one just taken from the pile (R4.3), a
        knock with each discard leaving deadwood 1..knock limit (R5.1), gin with each leaving
        0 (R6.1)."""
        out = np.zeros((len(rows), NUM_CODES), dtype=np.int8)
        phase = self.phase[rows]
        offer = phase == OFFER
        out[offer, 2] = 1
        out[offer, 3] = 1
        draw = phase == DRAW
        out[draw, 0] = 1
        out[draw, 1] = (~self.stock_only[rows[draw]] & (self.pile_n[rows[draw]] > 0)).astype(np.int8)
        k = np.flatnonzero(phase == DISCARD)
        if len(k):
            r = rows[k]
            hand = self.hands[r, self.to_act[r]]
            taken = self.taken[r]
            free = hand & ~np.where(taken >= 0, _ONE << taken.astype(np.uint64), _U(0))
            out[k, 5:57] = _bits52(free)
            self._knocks(out, k, self.knock_limit[r], hand, taken, free)
        return out

    def _knocks(
        self, out: np.ndarray, k: np.ndarray, limit: np.ndarray, hand: np.ndarray, taken: np.ndarray, free: np.ndarray
    ) -> None:
        """Write the knock (57..108) and gin (109..160) codes of rows ``k`` of ``out`` (hands
        ``hand``, knock limits ``limit``, -1 for none; cards that may be discarded ``free``;
        R5.1, R6.1)."""
        s = _suits(hand)
        trip = _triples(s) != 0
        runs = np.flatnonzero(~trip)
        if len(runs):  # exact: runs-only deadwood, two table reads a discard
            si = [x[runs].astype(np.intp) for x in s]
            base = _RUN_DW[si[0]] + _RUN_DW[si[1]] + _RUN_DW[si[2]] + _RUN_DW[si[3]]
            d = np.stack([base[:, None] - _RUN_DW[x][:, None] + _AFTER[x] for x in si], axis=1).reshape(-1, 52)
            ok = _bits52(free[runs]).astype(bool)
            lim = limit[runs][:, None]
            out[k[runs], 57:109] = ok & (d > 0) & (d <= lim)
            out[k[runs], 109:161] = ok & (d == 0)
        sets = np.flatnonzero(trip)
        if len(sets):
            lb = self.bound(hand[sets])
            for j in sets[lb <= limit[sets]].tolist():
                self._exact(out, int(k[j]), int(hand[j]), int(taken[j]), int(limit[j]))

    def _exact(self, out: np.ndarray, row: int, hand: int, taken: int, limit: int) -> None:
        """Row ``row`` of ``out``: the knocks and gins of ``hand`` by the scalar engine (cached)."""
        self.fallbacks += 1
        key = (hand, taken, limit)
        got = self.cache.get(key)
        if got is None:
            cards = [c for c in range(52) if hand >> c & 1 and c != taken]
            knocks = gins = 0
            for c, d in deadwood_after_discards(hand, cards).items():
                if d == 0:
                    gins |= 1 << c
                elif d <= limit:
                    knocks |= 1 << c
            if len(self.cache) >= _CACHE_MAX:
                self.cache.clear()
            got = self.cache[key] = (knocks, gins)
        knocks, gins = got
        if knocks:
            out[row, 57:109] = _bits52(np.array([knocks], dtype=np.uint64))[0]
        if gins:
            out[row, 109:161] = _bits52(np.array([gins], dtype=np.uint64))[0]

    # -- moves ---------------------------------------------------------------------------

    def apply(self, rows: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """Apply ``codes[j]`` (legal: see :meth:`masks`; not checked here) for the seat to act in
        deal ``rows[j]`` (distinct rows); return the rows whose deal it ended (``intp``): a knock
        or gin (R5, R6: :attr:`winner` and :attr:`points` set by the scalar showdown) or a
        discard leaving two cards in the stock (R7.1, a draw)."""
        seat = self.to_act[rows].astype(np.intp)
        m = codes == 0
        if m.any():
            self._draw(rows[m], seat[m])
        m = (codes == 1) | (codes == 2)
        if m.any():
            self._take(rows[m], seat[m])
        m = codes == 3
        if m.any():
            self._pass(rows[m])
        m = codes >= 5
        if not m.any():
            return rows[:0]
        r, s, c = rows[m], seat[m], codes[m]
        self._discard(r, s, (c - 5) % 52)
        plain = c < 57
        rp, sp = r[plain], s[plain]
        over = self.drawn[rp] >= 29  # two cards left in the stock (R7.1)
        self._end(rp[over])
        go = rp[~over]
        self.phase[go] = DRAW
        self.to_act[go] = 1 - sp[~over]
        knocks = r[~plain]
        self._end(knocks)
        for row, knocker in zip(knocks.tolist(), s[~plain].tolist(), strict=True):
            self._showdown(row, knocker)
        return np.concatenate((rp[over], knocks))

    def _draw(self, r: np.ndarray, s: np.ndarray) -> None:
        """The stock's top card to the hand (R4.1)."""
        c = self.stock[r, self.drawn[r]]
        self.drawn[r] += 1
        self.hands[r, s] |= _BIT[c]
        self.taken[r] = -1
        self.stock_only[r] = False
        self.phase[r] = DISCARD

    def _take(self, r: np.ndarray, s: np.ndarray) -> None:
        """The pile's top card to the hand, seen by both (R4.1, R4.2); it may not be discarded
        this turn (R4.3)."""
        n = self.pile_n[r] - 1
        c = self.pile[r, n]
        b = _BIT[c]
        self.pile_n[r] = n
        self.pile_bits[r] &= ~b
        self.order[r, c] = 0.0
        self.hands[r, s] |= b
        self.seen[r, s] |= b
        self.taken[r] = c
        self.phase[r] = DISCARD

    def _pass(self, r: np.ndarray) -> None:
        """A pass of the upcard: the dealer is offered it, or after both passes the non-dealer
        draws from the stock (R4.2)."""
        first = self.passes[r] == 0
        r1, r2 = r[first], r[~first]
        self.passes[r1] = 1
        self.to_act[r1] = self.dealer[r1]
        self.passes[r2] = 2
        self.to_act[r2] = 1 - self.dealer[r2]
        self.phase[r2] = DRAW
        self.stock_only[r2] = True

    def _discard(self, r: np.ndarray, s: np.ndarray, c: np.ndarray) -> None:
        """Card ``c`` from the hand onto the pile (R4.1; a knock's or gin's discard too, R5.2)."""
        b = _BIT[c]
        n = self.pile_n[r]
        self.hands[r, s] &= ~b
        self.pile[r, n] = c
        self.order[r, c] = _ORDER[n]
        self.pile_n[r] = n + 1
        self.pile_bits[r] |= b
        self.seen[r, 0] &= ~b
        self.seen[r, 1] &= ~b
        self.discarded[r, s] |= b
        self.taken[r] = -1

    def _end(self, r: np.ndarray) -> None:
        self.phase[r] = OVER
        self.to_act[r] = -1
        self.winner[r] = -1
        self.points[r] = 0

    def _showdown(self, row: int, knocker: int) -> None:
        """Score the knock or gin of seat ``knocker`` in deal ``row`` by the scalar engine's
        :func:`~ginrummy.showdown.showdown` (R5.2-R5.5, R6), as the deal engine does."""
        hand = int(self.hands[row, knocker])
        limit = int(self.knock_limit[row])
        sd = showdown(
            self.rules,
            hand,
            int(self.hands[row, 1 - knocker]),
            knock_limit=None if limit < 0 else limit,
            multiplier=int(self.multiplier[row]),
            unseen=((1 << 52) - 1) & ~hand & ~int(self.pile_bits[row]),
        )
        self.winner[row] = knocker if sd.winner == "knocker" else 1 - knocker
        self.points[row] = sd.points

    # -- observations ----------------------------------------------------------------------

    def observe(self, seat: int, rows: np.ndarray, out: np.ndarray, totals: np.ndarray | None = None) -> None:
        """Write seat ``seat``'s observation of each deal of ``rows`` into the rows of ``out``
        (``float32``, shape ``(len(rows), 433)``): what :func:`~ginrummy.env.observation.encode_view`
        gives for the seat's view (the eight card planes, then the 17 scalars).  ``totals``
        (``int``, shape ``(len(rows), 2)``): the seat's and the opponent's match totals (R11;
        default 0, as during a first deal)."""
        m = len(rows)
        other = 1 - seat
        n = self.pile_n[rows]
        top = np.where(n > 0, _BIT[self.pile[rows, np.maximum(n - 1, 0)]], _U(0))
        taken = self.taken[rows]
        mine = self.to_act[rows] == seat
        planes = np.zeros((m, 8), dtype=np.uint64)
        planes[:, 0] = self.hands[rows, seat]
        planes[:, 1] = self.seen[rows, other]
        pile = self.pile_bits[rows]
        planes[:, 2] = pile
        planes[:, 3] = top
        planes[:, 5] = pile & ~top
        planes[:, 6] = self.discarded[rows, other]
        planes[:, 7] = np.where(mine & (taken >= 0), _BIT[np.maximum(taken, 0)], _U(0))
        bits = np.unpackbits(planes.view(np.uint8).reshape(m, 8, 8), axis=2, bitorder="little")
        out[:, :SCALAR_BASE] = bits[:, :, :52].reshape(m, SCALAR_BASE)
        out[:, 208:260] = self.order[rows]
        limit = self.knock_limit[rows]
        sc = np.zeros((m, OBS_SIZE - SCALAR_BASE), dtype=np.float64)
        sc[:, 0] = (31 - self.drawn[rows]) / 31
        sc[np.arange(m), 1 + self.phase[rows]] = 1.0
        sc[:, 6] = mine
        sc[:, 7] = self.dealer[rows] == seat
        sc[:, 8] = np.where(limit < 0, 0.0, limit / 10)
        sc[:, 9] = limit < 0
        sc[:, 10] = self.multiplier[rows] == 2
        sc[:, 11] = self.stock_only[rows]
        sc[:, 13] = np.bitwise_count(self.hands[rows, other]) / 11
        if totals is not None:
            sc[:, 14:16] = np.minimum(np.maximum(totals, 0) / self.scale, 1.0)
        out[:, SCALAR_BASE:OBS_SIZE] = sc


def pick(masks: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The ``k[j]``-th legal code (counting from 0, ascending) of each row of ``masks``
    (``int8``, shape ``(M, 161)``): a choice from the engine's list of legal actions, which is
    in code order (discards, knocks, gins, each by card)."""
    return np.argmax(np.cumsum(masks, axis=1, dtype=np.int16) > k[:, None], axis=1)
