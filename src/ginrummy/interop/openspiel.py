"""Our computer players inside OpenSpiel's own ``gin_rummy`` game (a check by an engine
nobody here wrote).

A :class:`SeatObserver` reads only what OpenSpiel shows one seat: the seat's observation
tensor (its hand, the upcard, the dead cards, the stock size, the knock card, the melds laid)
and observation string (the phase and the order of the discard pile), read after every move of
the game.  From the changes between successive observations it rebuilds the public history
(passes, takes, stock draws, discards) and the cards the opponent was seen taking, and builds
the :class:`~ginrummy.views.PlayerView` our players decide from.  It never reads the state
itself (hands, stock) beyond the seat's observation.

OpenSpiel's encoding (``open_spiel/games/gin_rummy``): card = suit * 13 + rank with suits in the
order s, c, d, h (ours: C, D, H, S, see :mod:`ginrummy.cards`); actions 0..51 discard that card
(or, after a knock, the knocker's discard; or, for the defender, a layoff), 52 draw the upcard,
53 draw from the stock, 54 pass, 55 knock, 56 + id lay meld ``id``.  Player 0 acts first, so
seat 1 is the dealer (R3.3).  Its rules are tournament rules: the card just taken may be
discarded (R4.3 option), the deal ends at the wall with a last chance to knock (R7.2, our
``stock_end="wall"``), knock card 10, gin and undercut bonuses 25.  The knocker lays out his melds
one by one (we lay out our proposed arrangement, R5.2); the defender lays off and then melds (we
use our exact best layout, R5.5).  Differences from our rules: a tie in deadwood after a knock
scores nothing there (an undercut in R6.3), and OpenSpiel ends a deal when a card is taken and
thrown back twice in a row or after 50 upcard draws.

Use :func:`play_deals` for a match of deals against ``pyspiel.make_simple_gin_rummy_bot``; each
deal is seeded from the run's seed and its number (:func:`deal_rngs`, :func:`play_indexed_deal`), so a
run can be split into shards (``benchmarks/strength.py --workers N``).
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..actions import DRAW_STOCK, PASS, TAKE_DISCARD, TAKE_UPCARD, Action, discard, gin, knock
from ..deal import Event
from ..melds import deadwood, defender_layout, knock_arrangement
from ..players.base import Player
from ..rules import RuleSet
from ..views import PlayerView

__all__ = [
    "OPENSPIEL_RULES",
    "OPENSPIEL_ENGINE_LAYOUT",
    "os_to_card",
    "card_to_os",
    "meld_table",
    "SeatObserver",
    "DealStats",
    "play_deal",
    "play_deals",
    "play_indexed_deal",
    "deal_rngs",
]

DRAW_UPCARD_ACTION = 52
DRAW_STOCK_ACTION = 53
PASS_ACTION = 54
KNOCK_ACTION = 55
MELD_BASE = 56
NUM_MELDS = 185

#: Our rule set of OpenSpiel's game: standard gin, taken card may be discarded (R4.3), the wall
#: (R7.2), each deal a game of its own (``scoring="deal"``: OpenSpiel plays single deals).
#: OpenSpiel's own rules, exactly (:mod:`ginrummy.interop.openspiel_exact`): a tie after a knock
#: scores nothing (R6.3), the forced pass at the wall (R7.2), two repeated moves in a row end the
#: deal (R7.4), the 50th take of a discard ends it (R7.5), the layout and layoffs are decisions (R5.6).
OPENSPIEL_RULES = RuleSet(
    name="openspiel",
    discard_taken_card=True,
    stock_end="wall",
    game_bonus=0,
    box_bonus=0,
    scoring="deal",
    tie="nothing",
    wall_forced_pass=True,
    repeated_move_ends=True,
    max_pile_takes=50,
    layout="players",
)
#: The same rules with the engine's own layout (R5.2-R5.5): the rules our players think with
#: when they play inside OpenSpiel's game (:class:`SeatObserver`), where the bridge lays out.
OPENSPIEL_ENGINE_LAYOUT = OPENSPIEL_RULES.replace(layout="engine", name="openspiel")

_OS_SUIT_TO_OURS = (3, 0, 1, 2)  # s c d h -> S C D H (our C D H S = 0 1 2 3)
_OURS_SUIT_TO_OS = (1, 2, 3, 0)
_OS_PHASES = {"Deal", "FirstUpcard", "Draw", "Discard", "Knock", "Layoff", "Wall", "GameOver"}


def os_to_card(c: int) -> int:
    """Our card int (0..51) of OpenSpiel card ``c`` (suit order s, c, d, h)."""
    return _OS_SUIT_TO_OURS[c // 13] * 13 + c % 13


def card_to_os(c: int) -> int:
    """OpenSpiel's card int of our card ``c``."""
    return _OURS_SUIT_TO_OS[c // 13] * 13 + c % 13


_MELDS: list[int] = []


def meld_table(state: Any = None) -> list[int]:
    """For each OpenSpiel meld id 0..184: the meld as our card-set mask, read from OpenSpiel's
    own action strings (``"Player: 0 Action: AcAdAh"``)."""
    if not _MELDS:
        import pyspiel

        st = state if state is not None else pyspiel.load_game("gin_rummy").new_initial_state()
        ranks, suits = "A23456789TJQK", "scdh"
        for i in range(NUM_MELDS):
            text = st.action_to_string(0, MELD_BASE + i).rsplit(" ", 1)[-1]
            mask = 0
            for r, s in re.findall(r"([A2-9TJQK])([scdh])", text):
                mask |= 1 << os_to_card(suits.index(s) * 13 + ranks.index(r))
            _MELDS.append(mask)
    return _MELDS


def _mask_from(values: Sequence[float], base: int) -> int:
    m = 0
    for i in range(52):
        if values[base + i] > 0.5:
            m |= 1 << os_to_card(i)
    return m


@dataclass(frozen=True)
class _Snap:
    """What one observation shows (cards in our encoding)."""

    hand: int
    cur: int  # -1: nobody (chance or over)
    upcard: int | None
    dead: int
    pile_text: tuple[int, ...]
    stock: int
    knock_card: int
    phase: str
    melds: tuple[tuple[int, ...], tuple[int, ...]]


def _snap(state: Any, seat: int) -> _Snap:
    t = state.observation_tensor(seat)
    text = state.observation_string(seat)
    hand = _mask_from(t, 2 + 52 * seat)
    cur = 0 if t[106] > 0.5 else (1 if t[107] > 0.5 else -1)
    knock_card = int(sum(1 for i in range(108, 118) if t[i] > 0.5))
    up = [i for i in range(52) if t[118 + i] > 0.5]
    dead = _mask_from(t, 170)
    stock = int(sum(1 for i in range(222, 274) if t[i] > 0.5))
    melds = tuple(tuple(i for i in range(NUM_MELDS) if t[274 + p * NUM_MELDS + i] > 0.5) for p in range(2))
    m = re.search(r"Phase: (\w+)", text)
    phase = m.group(1) if m and m.group(1) in _OS_PHASES else "Deal"
    pm = re.search(r"Discard pile: ([^\n]*)", text)
    pile: list[int] = []
    if pm:
        ranks, suits = "A23456789TJQK", "scdh"
        for r, s in re.findall(r"([A2-9TJQK])([scdh])", pm.group(1)):
            pile.append(os_to_card(suits.index(s) * 13 + ranks.index(r)))
    return _Snap(
        hand, cur, os_to_card(up[0]) if up else None, dead, tuple(pile), stock, knock_card, phase, (melds[0], melds[1])
    )


class SeatObserver:
    """What one OpenSpiel seat has seen, rebuilt from its observations only.

    Call :meth:`observe` after every move of the game (chance moves included); call
    :meth:`view` when the seat is to act.
    """

    def __init__(self, seat: int, rules: RuleSet = OPENSPIEL_ENGINE_LAYOUT) -> None:
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, not {seat!r}")
        self.seat = seat
        self.rules = rules
        self.prev: _Snap | None = None
        self.events: list[Event] = []
        self.first_upcard: int | None = None
        self.known_opp = 0
        self.passes = 0
        self.taken: int | None = None

    def observe(self, state: Any) -> None:
        """Read the seat's observation now and record what changed since the last one."""
        n = _snap(state, self.seat)
        p = self.prev
        self.prev = n
        if n.phase == "Deal" and self.first_upcard is None:
            return
        if self.first_upcard is None:
            self.first_upcard = n.upcard
            return
        if p is None:
            return
        me, opp = self.seat, 1 - self.seat
        actor = p.cur
        if p.phase == "Deal":  # a stock card was dealt to the player who drew
            drawer = n.cur
            if drawer == me:
                got = n.hand & ~p.hand
                self.events.append(Event("draw_stock", me, got.bit_length() - 1 if got else None, True))
            else:
                self.events.append(Event("draw_stock", opp, None, True))
            self.taken = None
            return
        if (
            p.phase in ("FirstUpcard", "Draw", "Wall")
            and p.upcard is not None
            and n.upcard is None
            and not (n.dead >> p.upcard) & 1
        ):
            kind = "take_upcard" if p.phase == "FirstUpcard" else "take_discard"
            self.events.append(Event(kind, actor, p.upcard))
            if actor == opp:
                self.known_opp |= 1 << p.upcard
            else:
                self.taken = p.upcard
            return
        if p.phase == "FirstUpcard" and n.phase == "FirstUpcard" and n.upcard == p.upcard:
            self.events.append(Event("pass", actor))
            self.passes += 1
            return
        if p.phase in ("Discard",) and n.upcard is not None and n.upcard != p.upcard:
            self.events.append(Event("discard", actor, n.upcard))
            self.known_opp &= ~(1 << n.upcard)
            self.taken = None
            return
        if p.phase == "Knock" and actor == me:
            return

    def view(self, state: Any) -> tuple[PlayerView, dict[Action, list[int]]]:
        """The seat's :class:`PlayerView` now, and for each legal action of the view the
        OpenSpiel actions it stands for (a knock is completed by :func:`play_deal`).

        Raises ``ValueError`` when the seat is not to act in a phase our players decide
        (upcard offer, draw, discard, wall, or the discard after a knock at the wall).
        """
        n = self.prev if self.prev is not None else _snap(state, self.seat)
        if n.cur != self.seat:
            raise ValueError("the seat is not to act")
        os_legal = set(state.legal_actions(self.seat))
        hand = n.hand
        limit = n.knock_card
        mapping: dict[Action, list[int]] = {}
        stock_only = False
        must_knock = False
        if n.phase == "FirstUpcard":
            if DRAW_STOCK_ACTION in os_legal:
                phase, stock_only = "draw", True
                mapping[DRAW_STOCK] = [DRAW_STOCK_ACTION]
            else:
                phase = "upcard_offer"
                mapping[TAKE_UPCARD] = [DRAW_UPCARD_ACTION]
                mapping[PASS] = [PASS_ACTION]
        elif n.phase == "Draw":
            phase = "draw"
            mapping[DRAW_STOCK] = [DRAW_STOCK_ACTION]
            if DRAW_UPCARD_ACTION in os_legal:
                mapping[TAKE_DISCARD] = [DRAW_UPCARD_ACTION]
        elif n.phase == "Wall":
            phase = "wall"
            if KNOCK_ACTION in os_legal:
                mapping[TAKE_DISCARD] = [KNOCK_ACTION]
            mapping[PASS] = [PASS_ACTION]
        elif n.phase in ("Discard", "Knock") and hand.bit_count() == 11:
            phase = "discard"
            must_knock = n.phase == "Knock"
            can_knock = must_knock or KNOCK_ACTION in os_legal
            prefix = [] if must_knock else [KNOCK_ACTION]
            x = hand
            while x:
                low = x & -x
                x ^= low
                c = low.bit_length() - 1
                if not must_knock:
                    mapping[discard(c)] = [card_to_os(c)]
                if can_knock:
                    d = deadwood(hand ^ low)
                    if d == 0:
                        mapping[gin(c)] = prefix + [card_to_os(c)]
                    elif d <= limit:
                        mapping[knock(c)] = prefix + [card_to_os(c)]
        else:
            raise ValueError(f"no decision for our players in OpenSpiel phase {n.phase}")
        pile = list(n.pile_text)
        if n.upcard is not None:
            pile.append(n.upcard)
        legal = tuple(mapping)
        view = PlayerView(
            seat=self.seat,
            rules=self.rules,
            phase=phase,
            to_act=self.seat,
            dealer=1,
            hand=hand,
            pile=tuple(pile),
            stock_size=n.stock,
            opponent_count=10,
            opponent_seen=self.known_opp,
            upcard=self.first_upcard if self.first_upcard is not None else (pile[0] if pile else 0),
            knock_limit=limit,
            multiplier=1,
            taken=self.taken if phase == "discard" else None,
            stock_only=stock_only,
            must_knock=must_knock,
            legal=legal,
            history=tuple(self.events),
            result=None,
        )
        return view, mapping


def _knocker_layout_actions(state: Any, seat: int) -> list[int]:
    """The meld actions laying out our proposed arrangement (R5.2) of the seat's hand."""
    n = _snap(state, seat)
    table = meld_table(state)
    ids = {m: i for i, m in enumerate(table)}
    arr = knock_arrangement(n.hand)
    return [MELD_BASE + ids[m] for m in arr.melds if m in ids]


def _apply(state: Any, action: int, observers: Sequence[SeatObserver]) -> None:
    state.apply_action(action)
    for ob in observers:
        ob.observe(state)


def _finish_own_layout(state: Any, seat: int, observers: Sequence[SeatObserver]) -> None:
    """Lay out the seat's melds after its knock discard, then pass (R5.2)."""
    for a in _knocker_layout_actions(state, seat):
        if state.is_terminal() or state.current_player() != seat:
            return
        if a in state.legal_actions():
            _apply(state, a, observers)
    while not state.is_terminal() and state.current_player() == seat:
        legal = state.legal_actions()
        _apply(state, PASS_ACTION if PASS_ACTION in legal else legal[0], observers)
        if _snap(state, seat).phase != "Knock":
            return


def _defend(state: Any, seat: int, observers: Sequence[SeatObserver]) -> None:
    """The defender's layoffs then melds (R5.3-R5.5): our exact best layout."""
    n = _snap(state, seat)
    table = meld_table(state)
    knocker_melds = [table[i] for i in n.melds[1 - seat]]
    layout = defender_layout(n.hand, knocker_melds, allow_layoffs=not state.finished_layoffs())
    for lay in layout.layoffs:
        a = card_to_os(lay.card)
        if state.current_player() == seat and not state.finished_layoffs() and a in state.legal_actions():
            _apply(state, a, observers)
    if state.current_player() == seat and not state.finished_layoffs():
        _apply(state, PASS_ACTION, observers)
    ids = {m: i for i, m in enumerate(table)}
    for m in layout.melds:
        a = MELD_BASE + ids.get(m, -MELD_BASE - 1)
        if not state.is_terminal() and state.current_player() == seat and a in state.legal_actions():
            _apply(state, a, observers)
    while not state.is_terminal() and state.current_player() == seat:
        _apply(state, PASS_ACTION, observers)


def play_deal(game: Any, player: Player, seat: int, bot: Any, rng: random.Random) -> tuple[float, float]:
    """Play one OpenSpiel deal: our ``player`` at ``seat`` (0 acts first), ``bot`` (a pyspiel
    bot) at the other seat; chance moves from ``rng``.  Returns OpenSpiel's returns
    ``(ours, the bot's)`` in points.

    Raises :class:`~ginrummy.errors.IllegalActionError` if our player returns an action not
    among the view's legal actions.
    """
    from ..errors import IllegalActionError

    state = game.new_initial_state()
    ob = SeatObserver(seat)
    observers = [ob]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            _apply(state, rng.choice([a for a, _ in outcomes]), observers)
            continue
        p = state.current_player()
        if p != seat:
            _apply(state, bot.step(state), observers)
            continue
        phase = ob.prev.phase if ob.prev is not None else ""
        if phase == "Layoff":
            _defend(state, seat, observers)
            continue
        if phase == "Knock" and _snap(state, seat).hand.bit_count() != 11:
            _finish_own_layout(state, seat, observers)
            continue
        view, mapping = ob.view(state)
        action = player.choose(view, view.legal)
        if action not in mapping:
            raise IllegalActionError(f"{action} is not legal here; legal: {', '.join(a.text for a in view.legal)}")
        for a in mapping[action]:
            _apply(state, a, observers)
        if action.kind in ("knock", "gin"):
            _finish_own_layout(state, seat, observers)
    r = state.returns()
    return float(r[seat]), float(r[1 - seat])


@dataclass(frozen=True)
class DealStats:
    """Result of :func:`play_deals`.

    Attributes:
        level: our player's level.
        deals: deals played.
        won, lost, drawn: deals our player won (positive return), lost, and with no score.
        points: our total return in points (the bot's is its negative).
    """

    level: str
    deals: int
    won: int
    lost: int
    drawn: int
    points: float

    @property
    def win_rate(self) -> float:
        """Deals won / deals played."""
        return self.won / self.deals if self.deals else 0.0

    @property
    def points_per_deal(self) -> float:
        """Our mean return a deal (points)."""
        return self.points / self.deals if self.deals else 0.0


def deal_rngs(seed: int, index: int) -> tuple[random.Random, random.Random]:
    """The two generators of deal ``index`` (0-based) of a run seeded with ``seed`` (an int):
    ``(chance, player)``, seeded from SHA-256 of ``"ginrummy/openspiel/<seed>/<index>"`` (its
    first and second 8 bytes).  A deal depends on nothing else, so a run split into shards plays
    the same deals as one process."""
    digest = hashlib.sha256(f"ginrummy/openspiel/{seed}/{index}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big")), random.Random(int.from_bytes(digest[8:16], "big"))


@lru_cache(maxsize=1)
def _game() -> Any:
    import pyspiel

    meld_table()
    return pyspiel.load_game("gin_rummy")


def play_indexed_deal(
    level: str, seed: int, index: int, make: Callable[[random.Random], Player] | None = None
) -> tuple[float, float]:
    """Play deal ``index`` of a run seeded with ``seed``: our player (``make(rng)``, or
    ``make_player(level, rng)``, with the player generator of :func:`deal_rngs`) at seat
    ``index % 2`` against OpenSpiel's simple bot, chance from the chance generator.  Returns
    ``(ours, theirs)`` as :func:`play_deal`.  Raises ``ValueError`` for an unknown level."""
    import pyspiel

    from ..players import make_player

    game = _game()
    chance, rng = deal_rngs(seed, index)
    player = make(rng) if make is not None else make_player(level, rng)
    seat = index % 2
    bot = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - seat)
    return play_deal(game, player, seat, bot, chance)


def play_deals(
    level: str, deals: int, seed: int = 0, player: Player | None = None, on_deal: Any = None, start: int = 0
) -> DealStats:
    """Play OpenSpiel deals ``start .. start + deals - 1`` of our ``level`` against OpenSpiel's
    simple bot with :func:`play_indexed_deal` (ours is seat ``i % 2`` in deal ``i``; each deal
    seeded from ``seed`` and ``i`` alone).

    ``player`` overrides the player made for each deal (one player then plays every deal, so
    its own random choices depend on the deals before).  ``on_deal(i, ours, theirs)`` is called
    after each deal.  Raises ``ValueError`` for ``deals < 0`` or ``start < 0``.
    """
    if type(deals) is not int or deals < 0:
        raise ValueError(f"deals must be an int >= 0, not {deals!r}")
    if type(start) is not int or start < 0:
        raise ValueError(f"start must be an int >= 0, not {start!r}")
    won = lost = drawn = 0
    points = 0.0
    for i in range(start, start + deals):
        ours, theirs = play_indexed_deal(level, seed, i, None if player is None else (lambda _rng: player))
        points += ours
        if ours > 0:
            won += 1
        elif ours < 0:
            lost += 1
        else:
            drawn += 1
        if on_deal is not None:
            on_deal(i, ours, theirs)
    return DealStats(level, deals, won, lost, drawn, points)
