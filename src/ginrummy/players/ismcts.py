"""The ``ismcts`` player: single-observer information-set Monte Carlo tree search (SO-ISMCTS,
Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2),
2012) with the expert's opponent model and playouts.

PIMC (the ``expert``) samples whole deals and plays each candidate out on them: every sampled
deal is searched as if its cards were known, and the candidates' values are averaged over the
deals (strategy fusion).  Here one tree is grown over the deciding player's information sets:

1. Each iteration draws a determinization: an opponent hand from the expert's sampler
   (:func:`ginrummy.players.inference.sample_hands`, the hand-made likelihood factors; up to
   ``hands`` of them a decision, then reused in turn) and the rest of the unknown cards
   shuffled anew as the stock.
2. It descends the tree from the root (this decision) by UCB1 with availability counts (an
   action of a node counts as tried only when it was legal in that iteration's deal): at our
   nodes maximizing our value, at the opponent's minimizing it.  The opponent's stock draws are
   hidden from us, so they are one edge; his discards and takes are seen, so each is an edge.
   Our own stock draw is a chance node whose outcomes (the card drawn) are widened
   progressively: a new card gets its own subtree only while the node has fewer than
   ``ceil(widen * visits ** 0.5)`` of them, else the iteration plays out from there.
3. Moves in the tree: at a draw, take the top discard (R4.1) or draw from the stock; after the
   draw the best knock (least deadwood, R5.1; gin when it leaves none, R6.1) and the
   ``tree_discards`` discards that leave the least deadwood (R2.4).  At the root the candidates
   are the expert's (:meth:`ExpertPlayer._candidates`, with the ``club`` move).
4. A new node is played out to the end of the deal with the expert's playout policy
   (:func:`ginrummy.players.rollout.playout`, the classic one) and valued as the expert values
   a deal (the chance of winning the game, R11.1; of the deal under single-deal scoring; else
   deal points / 100).
5. The move is the root child visited most (ties: the higher mean).

Phases other than the draw and the discard of a two-hand deal (the upcard offer, R4.2; the wall,
R7.2; the layout decisions, R5.6; three-hand deals, R10) are decided by the expert.

With ``budget_ms=None`` the player runs ``iterations`` iterations, reads no clock and is
deterministic given its ``rng``.  Pure Python: no NumPy.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from ..actions import Action
from ..cards import cards_of
from ..melds import deadwood
from ..views import PlayerView
from .base import register
from .expert import ExpertPlayer
from .inference import Knowledge, read_view, sample_hands
from .rollout import Table, _discard_rows, knock_points, knocks_now, playout, policy_discard

__all__ = ["ISMCTSPlayer"]

# tree moves: (kind, card); kinds
_TAKE, _DRAW, _DISCARD, _KNOCK = 0, 1, 2, 3


class _Node:
    """A node of the search tree: an information set of the deciding player after a sequence
    of moves he can see.  ``n`` visits, ``w`` summed value (ours), ``avail`` how often it was
    available when its parent chose, ``kids`` move -> node (a chance node: card -> node)."""

    __slots__ = ("n", "w", "avail", "kids")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.kids: dict[int | tuple[int, int], _Node] = {}


@register("ismcts")
class ISMCTSPlayer(ExpertPlayer):
    """Information-set MCTS with the expert's sampler and playouts (see the module docstring).

    Args:
        rng: the source of all random choices.
        budget_ms: time budget per decision in milliseconds (default 250; ``None``: no clock,
            run ``iterations`` iterations).
        iterations: the most iterations a decision (default 6,000 with a time budget, 400
            without).
        tree_discards: discards (least deadwood first) examined at a node below the root.
        c: the UCB1 exploration constant, in units of the spread of the values seen at the root.
        widen: progressive widening of our stock draws (module docstring, step 2).
        hands: how many opponent hands are sampled a decision (in batches of 8, as the expert
            does); later iterations reuse them in turn, each with a new shuffle of the stock
            (sampling a hand costs about as much as a playout).
        clock: the clock read for the budget (seconds), ``time.perf_counter`` by default.
        The other arguments are the expert's (:class:`ExpertPlayer`), used at the root's
        candidates and in the phases the expert decides.

    Raises ``ValueError`` for a bad ``budget_ms``, ``iterations``, ``tree_discards``, ``c`` or
    ``widen``, and as :class:`ExpertPlayer` does.
    """

    name = "ismcts"

    def __init__(
        self,
        rng: random.Random,
        budget_ms: float | None = 250.0,
        iterations: int | None = None,
        tree_discards: int = 3,
        c: float = 0.7,
        widen: float = 2.0,
        hands: int = 128,
        clock: Callable[[], float] = time.perf_counter,
        max_discards: int = 5,
        opponent_model: str = "rules",
        playout: str = "classic",
    ) -> None:
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise ValueError(f"iterations must be an int >= 1 or None, not {iterations!r}")
        if type(tree_discards) is not int or tree_discards < 1:
            raise ValueError(f"tree_discards must be an int >= 1, not {tree_discards!r}")
        if type(hands) is not int or hands < 8:
            raise ValueError(f"hands must be an int >= 8, not {hands!r}")
        if not c >= 0 or not widen > 0:
            raise ValueError(f"c must be >= 0 and widen > 0, not {c!r} and {widen!r}")
        super().__init__(
            rng,
            budget_ms=budget_ms,
            samples=None,
            max_discards=max_discards,
            clock=clock,
            opponent_model=opponent_model,
            playout=playout,
        )
        self.iterations = iterations if iterations is not None else (6000 if budget_ms is not None else 400)
        self.tree_discards = tree_discards
        self.c = c
        self.widen = widen
        self.hands = hands

    # -- the search ----------------------------------------------------------------------------

    def _analyse(
        self, view: PlayerView, legal: Sequence[Action]
    ) -> tuple[list[tuple[Action, float, int]], dict[Action, list[float]]]:
        """The root's candidates with their mean value and visits, most visited first (the
        expert's :meth:`~ExpertPlayer.analyse` shape; the second item maps each candidate to
        its mean value alone, ``[mean]``: the visits are not paired as the expert's samples are)."""
        legal = list(legal)
        if (
            view.rules.players != 2
            or view.phase not in ("draw", "discard")
            or view.must_knock
            or view.opponent_count != 10
            and view.phase == "draw"
        ):
            return super()._analyse(view, legal)
        k = read_view(view)
        default = self._club.choose(view, legal)
        cands = self._candidates(view, k, legal)
        if default not in cands:
            cands.insert(0, default)
        if len(cands) == 1:
            return [(cands[0], 0.0, 0)], {cands[0]: []}
        tab = Table.of(view.rules, view.knock_limit, view.multiplier)
        util = self._utility(view)
        scale = 1.0
        if view.rules.scoring != "deal" and self._ctx(view) is None:
            scale = 100.0  # deal points: searched in hundreds, reported in points
            base = util
            util = lambda winner, pts: base(winner, pts) / 100.0  # noqa: E731
        pol = self._pol_deal if view.rules.scoring == "deal" else self._pol
        moves = [self._move(a) for a in cands]
        root = _Node()
        kids = [_Node() for _ in cands]
        pool = cards_of(k.unknown)
        start = self.clock() if self.budget_ms is not None else 0.0
        it = 0
        hands: list[int] = []
        lo, hi = math.inf, -math.inf
        while it < self.iterations:
            if len(hands) < self.hands:  # sampled hands are reused, each with a new stock
                hands.extend(sample_hands(k, self.rng, 8))
                opp = hands[-1]
            else:
                opp = hands[it % self.hands]
            rest = [c for c in pool if not (opp >> c) & 1]
            self.rng.shuffle(rest)
            stock = rest[: view.stock_size]
            spread = (hi - lo) if hi > lo else 1.0
            u = self._iterate(view, k, tab, pol, util, root, kids, moves, opp, stock, self.c * spread)
            if u < lo:
                lo = u
            if u > hi:
                hi = u
            it += 1
            if self.budget_ms is not None and it % 16 == 0 and (self.clock() - start) * 1000.0 >= self.budget_ms:
                break
        order = sorted(
            range(len(cands)), key=lambda i: (-kids[i].n, -(kids[i].w / kids[i].n if kids[i].n else -1e9), i)
        )
        ranked = [(cands[i], scale * kids[i].w / kids[i].n if kids[i].n else 0.0, kids[i].n) for i in order]
        return ranked, {a: [u] for a, u, n in ranked if n}

    @staticmethod
    def _move(a: Action) -> tuple[int, int]:
        kind = a.kind
        if kind == "take_discard":
            return (_TAKE, -1)
        if kind == "draw_stock":
            return (_DRAW, -1)
        if kind in ("knock", "gin"):
            return (_KNOCK, a.card)  # type: ignore[return-value]
        if kind == "discard":
            return (_DISCARD, a.card)  # type: ignore[return-value]
        return (_KNOCK, -2)  # big gin: scored at once

    def _iterate(
        self,
        view: PlayerView,
        k: Knowledge,
        tab: Table,
        pol,
        util,
        root: _Node,
        root_kids: list[_Node],
        root_moves: list[tuple[int, int]],
        opp: int,
        stock: list[int],
        cexp: float,
    ) -> float:
        """One iteration on the determinization (``opp``, ``stock``): select, expand, play
        out, back up.  Returns the value (ours)."""
        hands = [k.hand, opp]
        n_stock = len(stock)
        pos = 0
        top = view.top_discard
        p = 0
        draw_phase = view.phase == "draw"
        stock_only = view.stock_only
        forbid = view.taken if (view.taken is not None and not tab.discard_taken_card) else -1
        best = self._select_root(root, root_kids, cexp)
        node = root_kids[best]
        path = [root, node]
        move = root_moves[best]
        expanded = node.n == 0
        result: tuple[int | None, int] | None = None
        while True:
            # apply ``move`` for side p
            kind, card = move
            h = hands[p]
            if draw_phase:
                if kind == _TAKE:
                    assert top is not None
                    h |= 1 << top
                    forbid = top if not tab.discard_taken_card else -1
                else:
                    if pos >= n_stock:
                        result = (None, 0)
                        break
                    card = stock[pos]
                    h |= 1 << card
                    pos += 1
                    forbid = -1
                stock_only = False
                hands[p] = h
                draw_phase = False
                if tab.big_gin_bonus is not None and deadwood(h) == 0:
                    result = (p, (tab.big_gin_bonus + deadwood(hands[1 - p])) * tab.multiplier)
                    break
                if kind == _DRAW and p == 0 and not expanded:
                    node, expanded = self._chance_kid(node, card, path)
            else:
                if kind == _KNOCK:
                    if card == -2:
                        result = (p, ((tab.big_gin_bonus or 0) + deadwood(hands[1 - p])) * tab.multiplier)
                        break
                    h ^= 1 << card
                    hands[p] = h
                    wins, pts = knock_points(tab, h, hands[1 - p], deadwood(h))
                    result = ((p if wins else 1 - p), pts)
                    break
                h ^= 1 << card
                hands[p] = h
                top = card
                if n_stock - pos <= 2:
                    result = (None, 0)
                    break
                p = 1 - p
                draw_phase = True
            if expanded:
                break
            # select the next move at ``node`` for side p
            if draw_phase:
                if top is None or stock_only:
                    opts = [(_DRAW, -1)]
                else:
                    opts = [(_TAKE, -1), (_DRAW, -1)]
            else:
                opts = self._discard_moves(hands[p], forbid, tab)
            node, move, expanded = self._select_kid(node, opts, p, cexp)
            path.append(node)
        if result is None:
            result = self._rollout(tab, pol, hands, stock, pos, top, p, draw_phase, stock_only, forbid)
        winner, pts = result
        u = util(None if winner is None else winner, pts)
        for nd in path:
            nd.n += 1
            nd.w += u
        return u

    @staticmethod
    def _select_root(root: _Node, root_kids: list[_Node], cexp: float) -> int:
        """The index in ``root_kids`` of the root candidate to try (every candidate is legal in
        every determinization): the first never tried, else the best by UCB1 (mean value, ours,
        plus ``cexp`` times the exploration term over ``root``'s visits)."""
        best = -1
        best_s = -math.inf
        log_n = math.log(root.n + 1)
        for i, ch in enumerate(root_kids):
            if ch.n == 0:
                return i
            s = ch.w / ch.n + cexp * math.sqrt(log_n / ch.n)
            if s > best_s:
                best_s = s
                best = i
        return best

    def _chance_kid(self, node: _Node, card: int, path: list[_Node]) -> tuple[_Node, bool]:
        """Our draw of ``card`` at ``node`` (seen by us: a chance node, widened progressively
        by ``widen``).  Returns ``(node, expanded)``: the kid of ``card`` (appended to
        ``path``; new: ``expanded``), or ``node`` itself and ``expanded`` when it may not
        widen (the iteration plays out from there)."""
        ch = node.kids.get(card)
        if ch is None:
            if len(node.kids) >= math.ceil(self.widen * math.sqrt(node.n + 1)):
                return node, True  # play out from here
            ch = node.kids[card] = _Node()
            path.append(ch)
            return ch, True
        path.append(ch)
        return ch, False

    @staticmethod
    def _select_kid(
        node: _Node, opts: list[tuple[int, int]], p: int, cexp: float
    ) -> tuple[_Node, tuple[int, int], bool]:
        """Side ``p``'s move at ``node`` among ``opts`` (the moves available in this
        determinization; each known kid's ``avail`` counts it): the first untried one (a new
        kid), else the best by UCB1 with availability counts (value signed for side ``p``).
        Returns ``(kid, move, expanded)``, ``expanded`` when the kid is new."""
        kids = node.kids
        best_m: tuple[int, int] | None = None
        best_s = -math.inf
        sign = 1.0 if p == 0 else -1.0
        fresh = None
        for m in opts:
            ch = kids.get(m)
            if ch is None:
                if fresh is None:
                    fresh = m
                continue
            ch.avail += 1
            if fresh is not None:
                continue
            s = sign * ch.w / ch.n + cexp * math.sqrt(math.log(ch.avail) / ch.n)
            if s > best_s:
                best_s = s
                best_m = m
        if fresh is not None:
            ch = kids[fresh] = _Node()
            ch.avail = 1
            return ch, fresh, True
        assert best_m is not None  # every kid was visited: its score is finite
        return kids[best_m], best_m, False

    def _discard_moves(self, h: int, forbid: int, tab: Table) -> list[tuple[int, int]]:
        """The moves of a tree node after the draw with the 11 cards ``h``: gin alone when a
        discard leaves no deadwood (R6.1); else the best knock if allowed (R5.1), then the
        ``tree_discards`` discards leaving the least deadwood (R2.4; ties: the higher card)."""
        rows = sorted(_discard_rows(h, forbid))
        d0, _, c0 = rows[0]
        if d0 == 0:
            return [(_KNOCK, c0)]
        out: list[tuple[int, int]] = []
        if tab.knock_limit is not None and d0 <= tab.knock_limit:
            out.append((_KNOCK, c0))
        out.extend((_DISCARD, c) for _, _, c in rows[: self.tree_discards])
        return out

    @staticmethod
    def _rollout(
        tab: Table,
        pol,
        hands: list[int],
        stock: list[int],
        pos: int,
        top: int | None,
        p: int,
        draw_phase: bool,
        stock_only: bool,
        forbid: int,
    ) -> tuple[int | None, int]:
        """The expert's playout from a tree leaf: side ``p`` to draw, or to discard its 11 cards."""
        if draw_phase:
            return playout(tab, hands, stock, pos, top, p, stock_only=stock_only, pol=pol)
        h = hands[p]
        c, d = policy_discard(h, hands[1 - p], pol, forbid)
        h ^= 1 << c
        hands[p] = h
        if knocks_now(tab, pol, d, len(stock) - pos, hands[1 - p]):
            wins, pts = knock_points(tab, h, hands[1 - p], d)
            return (p if wins else 1 - p), pts
        if len(stock) - pos <= 2:
            return None, 0
        return playout(tab, hands, stock, pos, c, 1 - p, pol=pol)
