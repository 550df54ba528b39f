"""The fixed-size observation of the research environments (``docs/env.md``).

An observation is a ``float32`` vector of :data:`OBS_SIZE` = 433 values in ``[0, 1]``, made
from one seat's :class:`~ginrummy.views.PlayerView` only (never a hidden card).  Cards are our
card ints (``suit * 13 + rank``, suits ``C D H S``, ace low, R1).

Eight card planes of 52 values each, plane ``p`` at ``[52 * p, 52 * p + 52)``, value 1 for a
card in the set:

====  ======================  ==============================================================
 p    name                    the cards
====  ======================  ==============================================================
 0    ``hand``                the seat's own hand
 1    ``opponent_known``      cards the opponent took from the discard pile and still holds
 2    ``pile``                the discard pile (R4)
 3    ``top``                 the top of the discard pile (the card that may be taken)
 4    ``pile_order``          (k + 1) / 52 for the card k-th from the bottom of the pile, else 0
 5    ``dead``                pile cards under the top (they cannot be taken again)
 6    ``opponent_discarded``  cards the opponent discarded this deal (knock discard included)
 7    ``taken``               the card this seat took from the pile this turn (R4.3)
====  ======================  ==============================================================

Then 17 scalars from index 416 (:data:`SCALARS`): the stock size / 31; the phase one-hot
(``upcard_offer``, ``draw``, ``discard``, ``wall``, ``over``); this seat is to act; this
seat deals; the deal's knock limit / 10 (0 when only gin ends the deal); only gin ends the
deal (Straight gin, Oklahoma ace: R8, R9.2); the Oklahoma spade double (R9.3); the first draw
must be from the stock (R4.2); a card taken at the wall must be knocked with (R7.2); the
opponent's card count / 11; the seat's and the opponent's match totals / the score scale
(``target``, or 3 x ``target`` under Hollywood scoring, R11, R12), clipped to 1; the stock was
rebuilt (R7.3).

Under ``layout="players"`` (R5.6, the layout decisions are the players': the knocker lays his
melds, the defender lays off and lays his melds) the observation is longer,
:data:`OBS_SIZE_LAYOUT` = 593 values: the 433 above (whose five phase values are all 0 in the
layout phases), then three more card planes from index 433 (:data:`LAYOUT_PLANES`):
``my_melds`` (the cards of the melds this seat has laid), ``opponent_melds`` (those the
opponent has laid), ``laid_off`` (the cards the defender has laid off on the knocker's melds),
then four scalars from index 589 (:data:`LAYOUT_SCALARS`): the phase one-hot of ``layout`` (the
knocker lays his melds) and ``layoff`` (the defender lays off, then lays his melds); this seat
knocked; the defender has finished laying off.  Everything there is public.  Under
``layout="engine"`` (the default) the observation is the 433 values, unchanged.

:func:`encode_view` is the definition.  :class:`SeatEncoder` gives the same vector
incrementally (it changes only the cards that moved since it last looked), which the
environments use on their hot path; the tests check that both agree on every step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..deal import LAYOFF, LAYOUT, PHASES, DealState
from ..views import PlayerView

__all__ = [
    "PLANES",
    "SCALARS",
    "OBS_SIZE",
    "SCALAR_BASE",
    "encode_view",
    "plane",
    "SeatEncoder",
    "score_scale",
    "LAYOUT_PLANES",
    "LAYOUT_SCALARS",
    "OBS_SIZE_LAYOUT",
    "obs_size",
]

PLANES = ("hand", "opponent_known", "pile", "top", "pile_order", "dead", "opponent_discarded", "taken")
SCALARS = (
    "stock_size",
    *(f"phase_{p}" for p in PHASES),
    "my_turn",
    "i_deal",
    "knock_limit",
    "gin_only",
    "spade_double",
    "stock_only",
    "must_knock",
    "opponent_count",
    "my_total",
    "opponent_total",
    "reshuffled",
)
SCALAR_BASE = 52 * len(PLANES)
OBS_SIZE = SCALAR_BASE + len(SCALARS)
_HAND, _KNOWN, _PILE, _TOP, _ORDER, _DEAD, _ODISC, _TAKEN = (52 * i for i in range(len(PLANES)))
_PHASE_INDEX: dict[str, int] = {p: i for i, p in enumerate(PHASES)}
_PHASE0 = SCALAR_BASE + 1
LAYOUT_PLANES = ("my_melds", "opponent_melds", "laid_off")
LAYOUT_SCALARS = ("phase_layout", "phase_layoff", "i_knocked", "layoffs_done")
_MY_MELDS, _OPP_MELDS, _LAID_OFF = (OBS_SIZE + 52 * i for i in range(len(LAYOUT_PLANES)))
LAYOUT_SCALAR_BASE = OBS_SIZE + 52 * len(LAYOUT_PLANES)
OBS_SIZE_LAYOUT = LAYOUT_SCALAR_BASE + len(LAYOUT_SCALARS)
_I_KNOCKED, _LAYOFFS_DONE = LAYOUT_SCALAR_BASE + 2, LAYOUT_SCALAR_BASE + 3
#: the index of each phase's one-hot value (the layout phases' in the layout extension)
_PHASE_POS: dict[str, int] = {
    **{p: _PHASE0 + i for i, p in enumerate(PHASES)},
    LAYOUT: LAYOUT_SCALAR_BASE,
    LAYOFF: LAYOUT_SCALAR_BASE + 1,
}
_MY_TURN, _STOCK_ONLY, _MUST_KNOCK, _OPP_COUNT = (
    SCALAR_BASE + SCALARS.index(n) for n in ("my_turn", "stock_only", "must_knock", "opponent_count")
)
_DISCARD_KINDS = frozenset(("discard", "knock", "gin"))


def plane(name: str) -> slice:
    """The slice of card plane ``name`` (one of :data:`PLANES`, or of :data:`LAYOUT_PLANES` in
    the longer observation of ``layout="players"``) in an observation.

    Raises ``KeyError`` naming the planes for an unknown name."""
    names = PLANES + LAYOUT_PLANES
    if name not in names:
        raise KeyError(f"no plane {name!r}; planes: {', '.join(names)}")
    if name in LAYOUT_PLANES:  # after the 17 scalars of the 433
        i = LAYOUT_PLANES.index(name)
        return slice(OBS_SIZE + 52 * i, OBS_SIZE + 52 * i + 52)
    i = PLANES.index(name)
    return slice(52 * i, 52 * i + 52)


def obs_size(rules) -> int:
    """The length of an observation under ``rules``: :data:`OBS_SIZE_LAYOUT` (593) when
    ``rules.layout == "players"`` (R5.6), else :data:`OBS_SIZE` (433)."""
    return OBS_SIZE_LAYOUT if rules.layout == "players" else OBS_SIZE


def _melds_mask(melds: Sequence[int]) -> int:
    m = 0
    for x in melds:
        m |= x
    return m


def _layoffs_mask(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def score_scale(rules) -> int:
    """The score scale of the total scalars: ``target``, times 3 for Hollywood (R11.1, R12)."""
    return rules.target * (3 if rules.scoring == "hollywood" else 1)


def _totals(view: PlayerView) -> tuple[int, int]:
    """(the seat's total, the opponent's total) from the view's match context, (0, 0) without it."""
    sc = view.scores
    totals = sc.get("totals")
    seats = sc.get("seat_players")
    if not totals or not seats:
        return 0, 0
    return totals[seats[view.seat]], totals[seats[1 - view.seat]]


def _scalars(
    phase: str,
    my_turn: bool,
    i_deal: bool,
    stock_size: int,
    knock_limit: int | None,
    multiplier: int,
    stock_only: bool,
    must_knock: bool,
    opponent_count: int,
    totals: tuple[int, int],
    scale: int,
    reshuffles: int,
) -> list[float]:
    out = [
        stock_size / 31,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        float(my_turn),
        float(i_deal),
        0.0 if knock_limit is None else knock_limit / 10,
        float(knock_limit is None),
        float(multiplier == 2),
        float(stock_only),
        float(must_knock),
        opponent_count / 11,
        min(max(totals[0], 0) / scale, 1.0),
        min(max(totals[1], 0) / scale, 1.0),
        float(reshuffles > 0),
    ]
    i = _PHASE_INDEX.get(phase)
    if i is not None:  # the layout phases have their one-hot in the layout extension
        out[1 + i] = 1.0
    return out


def _opponent_discards(history: Sequence, seat: int) -> int:
    m = 0
    for e in history:
        if e.seat is not None and e.seat != seat and e.kind in _DISCARD_KINDS and e.card is not None:
            m |= 1 << e.card
    return m


def encode_view(view: PlayerView) -> np.ndarray:
    """The observation (``float32``, shape ``(OBS_SIZE,)``) of ``view`` (see the module docstring).

    Reads only the view: its cards, pile, history (for the opponent's discards), flags and
    ``scores`` (``totals`` and ``seat_players``, as :meth:`Match.view` gives them; without them
    the totals are 0).  Under ``layout="players"`` the vector is :data:`OBS_SIZE_LAYOUT` long
    (the layout extension, from the view's ``knocker``, ``laid``, ``layoffs`` and
    ``layoffs_done``)."""
    size = obs_size(view.rules)
    obs = np.zeros(size, dtype=np.float32)
    for base, mask in (
        (_HAND, view.hand),
        (_KNOWN, view.opponent_seen),
        (_ODISC, _opponent_discards(view.history, view.seat)),
    ):
        for c in range(52):
            if (mask >> c) & 1:
                obs[base + c] = 1.0
    pile = view.pile
    for k, c in enumerate(pile):
        obs[_PILE + c] = 1.0
        obs[_ORDER + c] = (k + 1) / 52
        if k < len(pile) - 1:
            obs[_DEAD + c] = 1.0
    if pile:
        obs[_TOP + pile[-1]] = 1.0
    if view.taken is not None:
        obs[_TAKEN + view.taken] = 1.0
    if size == OBS_SIZE_LAYOUT:
        for base, mask in (
            (_MY_MELDS, _melds_mask(view.laid[view.seat])),
            (_OPP_MELDS, _melds_mask(view.laid[1 - view.seat])),
            (_LAID_OFF, _layoffs_mask(view.layoffs)),
        ):
            for c in range(52):
                if (mask >> c) & 1:
                    obs[base + c] = 1.0
        if view.phase in (LAYOUT, LAYOFF):
            obs[_PHASE_POS[view.phase]] = 1.0
        obs[_I_KNOCKED] = float(view.knocker == view.seat)
        obs[_LAYOFFS_DONE] = float(view.layoffs_done)
    obs[SCALAR_BASE:OBS_SIZE] = _scalars(
        view.phase,
        view.my_turn,
        view.dealer == view.seat,
        view.stock_size,
        view.knock_limit,
        view.multiplier,
        view.stock_only,
        view.must_knock,
        view.opponent_count,
        _totals(view),
        score_scale(view.rules),
        view.reshuffles,
    )
    return obs


def _flip(obs: Any, base: int, old: int, new: int) -> None:
    """Set ``obs[base + c]`` to bit ``c`` of ``new`` for each card ``c`` where ``old`` differs
    (``obs``: an array or a memoryview of one)."""
    d = old ^ new
    while d:
        low = d & -d
        obs[base + low.bit_length() - 1] = 1.0 if new & low else 0.0
        d ^= low


#: (k + 1) / 52, the ``pile_order`` value of the card k-th from the bottom of the pile
_ORDER_VALUES = tuple((k + 1) / 52 for k in range(52))
#: the events that change no card plane (the draw, take and discard events are applied; the others
#: resync from the state)
_QUIET_KINDS = frozenset(("pass", "end", "big_gin"))


class SeatEncoder:
    """The observation of one deal seat, kept up to date incrementally, in a reused buffer.

    :meth:`observe` returns what :func:`encode_view` gives for the seat's view of ``state``
    (with the given totals and the seat's opponent discards).  When ``state`` is a later state
    of the same line of play as the one it last encoded (:meth:`DealState.log_position`), it
    applies the events between them to its buffer (a draw, a take or a discard each change a
    few values); otherwise (an earlier state, another deal, a reshuffle, the layout moves of
    R5.6) it compares the state with what it holds and changes only the cards that differ.
    The scalars are rewritten only when their inputs change.  It reads only what the seat's
    view holds (a stock card drawn by the opponent is never read).
    """

    __slots__ = (
        "seat",
        "scale",
        "obs",
        "mv",
        "hand",
        "known",
        "pile",
        "odisc",
        "taken",
        "events",
        "nlog",
        "stock",
        "phase",
        "mine",
        "stock_only",
        "must_knock",
        "opp",
        "totals",
        "layout",
        "lay",
    )
    #: the buffer seen as a memoryview of ``float32`` ("f"): one value written through it costs
    #: less than through numpy (typed ``Any``: typeshed's memoryview takes ints only)
    mv: Any
    hand: int
    known: int
    pile: list[int]
    odisc: int
    taken: int | None
    events: list | None
    nlog: int
    stock: int | None
    phase: int | None
    mine: bool | None
    stock_only: bool | None
    must_knock: bool | None
    opp: int | None
    totals: tuple[int, int] | None
    lay: tuple | None

    def __init__(self, seat: int, scale: int, size: int = OBS_SIZE, out: np.ndarray | None = None) -> None:
        """``size``: :data:`OBS_SIZE`, or :data:`OBS_SIZE_LAYOUT` under ``layout="players"``
        (see :func:`obs_size`).  ``out``: a C-contiguous ``float32`` array of ``size`` values
        to keep the observation in (a row of a batch, say), zeroed here; by default its own."""
        self.seat = seat
        self.scale = scale
        self.layout = size == OBS_SIZE_LAYOUT
        if out is None:
            out = np.zeros(size, dtype=np.float32)
        elif out.shape != (size,) or out.dtype != np.float32 or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous float32 array of shape ({size},)")
        self.obs = out
        self.mv = memoryview(out)  # type: ignore[arg-type]  # an ndarray is a buffer
        self.reset()

    def reset(self) -> None:
        """Forget everything (a new deal)."""
        self.obs[:] = 0.0
        self.hand = self.known = self.odisc = 0
        self.pile = []
        self.taken: int | None = None
        self.events: list | None = None
        self.nlog = 0
        self.stock = self.phase = self.mine = self.stock_only = self.must_knock = self.opp = None
        self.totals = self.lay = None

    def observe(self, state: DealState, odisc: int, totals: tuple[int, int]) -> np.ndarray:
        """The seat's observation now (a new array).  ``odisc``: mask of the opponent's discards
        this deal; ``totals``: (the seat's, the opponent's) match totals."""
        return self.observe_view(state, odisc, totals).copy()

    def observe_view(self, state: DealState, odisc: int, totals: tuple[int, int]) -> np.ndarray:
        """As :meth:`observe`, but the encoder's own array (it changes at the next call: copy
        it, or write it into a batch, before then)."""
        events, n = state.log_position()
        start = self.nlog
        if events is not self.events or n < start or totals != self.totals:
            return self._sync(state, odisc, totals)
        mv = self.mv
        seat = self.seat
        if n != start:  # apply the events since the last look (one line of code a value: the hot path)
            hand = self.hand
            known = self.known
            pile = self.pile
            for i in range(start, n):
                e: Any = events[i]  # an Event (Any: its card, int | None, is set for the kinds below)
                k = e.kind
                if k == "discard" or k == "knock" or k == "gin":  # the card goes on the pile (R4.3, R5.1)
                    c = e.card
                    if pile:
                        t = pile[-1]
                        mv[_TOP + t] = 0.0
                        mv[_DEAD + t] = 1.0
                    pile.append(c)
                    mv[_PILE + c] = mv[_TOP + c] = 1.0
                    mv[_ORDER + c] = _ORDER_VALUES[len(pile) - 1]
                    if e.seat == seat:
                        hand &= ~(1 << c)
                        mv[_HAND + c] = 0.0
                    elif (known >> c) & 1:
                        known &= ~(1 << c)
                        mv[_KNOWN + c] = 0.0
                elif k == "draw_stock":
                    if e.seat == seat:  # the opponent's card is hidden from this seat: not read
                        c = e.card
                        hand |= 1 << c
                        mv[_HAND + c] = 1.0
                elif k == "take_discard" or k == "take_upcard":
                    c = e.card
                    pile.pop()
                    mv[_PILE + c] = mv[_ORDER + c] = mv[_TOP + c] = 0.0
                    if pile:
                        t = pile[-1]
                        mv[_TOP + t] = 1.0
                        mv[_DEAD + t] = 0.0
                    if e.seat == seat:
                        hand |= 1 << c
                        mv[_HAND + c] = 1.0
                    else:
                        known |= 1 << c
                        mv[_KNOWN + c] = 1.0
                elif k not in _QUIET_KINDS:  # a reshuffle or a layout move: resync from here
                    self.hand = hand
                    self.known = known
                    self.nlog = i
                    return self._sync(state, odisc, totals)
            self.hand = hand
            self.known = known
            self.nlog = n
        if odisc != self.odisc:
            _flip(mv, _ODISC, self.odisc, odisc)
            self.odisc = odisc
        mine = state.to_act == seat
        taken = state.taken if mine else None
        if taken != self.taken:
            if self.taken is not None:
                mv[_TAKEN + self.taken] = 0.0
            if taken is not None:
                mv[_TAKEN + taken] = 1.0
            self.taken = taken
        # the scalars that change within a deal, one by one (same log: the same deal, no reshuffle)
        stock = len(state.stock) - state.drawn
        if stock != self.stock:
            mv[SCALAR_BASE] = stock / 31
            self.stock = stock
        phase = _PHASE_POS[state.phase]
        if phase != self.phase:
            mv[self.phase] = 0.0  # set by _sync, the first call of a log
            mv[phase] = 1.0
            self.phase = phase
        if mine != self.mine:
            mv[_MY_TURN] = 1.0 if mine else 0.0
            self.mine = mine
        if state.stock_only != self.stock_only:
            self.stock_only = state.stock_only
            mv[_STOCK_ONLY] = 1.0 if state.stock_only else 0.0
        if state.must_knock != self.must_knock:
            self.must_knock = state.must_knock
            mv[_MUST_KNOCK] = 1.0 if state.must_knock else 0.0
        opp = state.hands[1 - seat].bit_count()
        if opp != self.opp:
            mv[_OPP_COUNT] = opp / 11
            self.opp = opp
        if self.layout:
            lay = (state.laid, state.layoffs, state.knocker, state.layoffs_done)
            if lay != self.lay:
                self._layout(lay)
        return self.obs

    def _sync(self, state: DealState, odisc: int, totals: tuple[int, int]) -> np.ndarray:
        """Bring the buffer to ``state`` by comparing it with what the encoder holds (any state:
        earlier, later, another deal); then the events of later states of its line apply."""
        obs = self.obs
        mv = self.mv
        seat = self.seat
        hand = state.hands[seat]
        if hand != self.hand:
            _flip(mv, _HAND, self.hand, hand)
            self.hand = hand
        known = state.seen[1 - seat]
        if known != self.known:
            _flip(mv, _KNOWN, self.known, known)
            self.known = known
        if odisc != self.odisc:
            _flip(mv, _ODISC, self.odisc, odisc)
            self.odisc = odisc
        mine = state.to_act == seat
        taken = state.taken if mine else None
        if taken != self.taken:
            if self.taken is not None:
                mv[_TAKEN + self.taken] = 0.0
            if taken is not None:
                mv[_TAKEN + taken] = 1.0
            self.taken = taken
        if list(state.pile) != self.pile:
            self._pile(tuple(self.pile), state.pile)
        stock = len(state.stock) - state.drawn
        phase = _PHASE_POS[state.phase]
        opp = state.hands[1 - seat].bit_count()
        if self.phase is not None:
            mv[self.phase] = 0.0
        sc = _scalars(
            state.phase,
            mine,
            state.dealer == seat,
            stock,
            state.knock_limit,
            state.multiplier,
            state.stock_only,
            state.must_knock,
            opp,
            totals,
            self.scale,
            state.reshuffles,
        )
        obs[SCALAR_BASE:OBS_SIZE] = sc
        mv[phase] = 1.0  # a layout phase's one-hot lies outside the scalars just written
        self.stock, self.phase, self.mine, self.opp = stock, phase, mine, opp
        self.stock_only, self.must_knock = state.stock_only, state.must_knock
        self.totals = totals
        if self.layout:
            lay = (state.laid, state.layoffs, state.knocker, state.layoffs_done)
            if lay != self.lay:
                self._layout(lay)
        self.events, self.nlog = state.log_position()
        return obs

    def _layout(self, lay: tuple) -> None:
        """Write the layout extension (``layout="players"``, R5.6) from ``(laid, layoffs,
        knocker, layoffs_done)`` of the deal state."""
        mv = self.mv
        seat = self.seat
        laid, layoffs, knocker, done = lay
        old = self.lay or (((), ()), (), None, False)
        for base, o, n in (
            (_MY_MELDS, _melds_mask(old[0][seat]), _melds_mask(laid[seat])),
            (_OPP_MELDS, _melds_mask(old[0][1 - seat]), _melds_mask(laid[1 - seat])),
            (_LAID_OFF, _layoffs_mask(old[1]), _layoffs_mask(layoffs)),
        ):
            if o != n:
                _flip(mv, base, o, n)
        mv[_I_KNOCKED] = float(knocker == seat)
        mv[_LAYOFFS_DONE] = float(done)
        self.lay = lay

    def _pile(self, old: tuple[int, ...], pile: tuple[int, ...]) -> None:
        mv = self.mv
        n_old = len(old)
        n = len(pile)
        if n == n_old + 1 and pile[:-1] == old:  # a discard: the common case
            k = n_old
        elif n == n_old - 1 and old[:-1] == pile:  # a take
            k = n
        else:  # a reshuffle (R7.3) or a new deal: find the common bottom
            k = min(n_old, n)
            while k and old[:k] != pile[:k]:
                k -= 1
        for c in old[k:]:
            mv[_PILE + c] = mv[_ORDER + c] = mv[_DEAD + c] = 0.0
        for i in range(k, len(pile)):
            c = pile[i]
            mv[_PILE + c] = 1.0
            mv[_ORDER + c] = _ORDER_VALUES[i]
            mv[_DEAD + c] = 1.0
        if old and old[-1] in pile:
            mv[_TOP + old[-1]] = 0.0
            mv[_DEAD + old[-1]] = 1.0
        elif old:
            mv[_TOP + old[-1]] = 0.0
        if pile:
            mv[_TOP + pile[-1]] = 1.0
            mv[_DEAD + pile[-1]] = 0.0
        self.pile = list(pile)
