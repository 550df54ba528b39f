"""What the two research environments share: options, the match they drive, rewards,
observations and action masks (``docs/env.md``).

:class:`GameCore` runs one episode on a :class:`~ginrummy.match.Match`: one deal, a game to the
target or a Hollywood match (``scope``), with every action given as an integer code of
:mod:`ginrummy.actions` (0..160; 0..397 under ``layout="players"``, whose layout decisions, R5.6,
have codes 161..397).  It gives each player the observation of
:mod:`ginrummy.env.observation` from his own view, the mask of his legal codes, and rewards by
the rule named in ``reward``.  The engine decides every rule; nothing here changes a score.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .. import actions as A
from ..actions import NUM_CODES, NUM_LAYOUT_CODES, Action, layout_action
from ..cards import card_str, parse_cards
from ..deal import DISCARD, DISCARD_ACTIONS, GIN_ACTIONS, KNOCK_ACTIONS, LAYOUT_PHASES, PHASES, DealState, new_deal
from ..errors import CardParseError, IllegalActionError, RuleSetError
from ..match import Match
from ..rules import RuleSet, make_rules, preset
from ..views import PlayerView
from .observation import SeatEncoder, encode_view, obs_size, score_scale

__all__ = [
    "SCOPES",
    "REWARDS",
    "ILLEGAL",
    "CODE_ACTIONS",
    "make_env_rules",
    "GameCore",
    "seed_bytes",
    "deal_options",
    "parse_deck",
    "num_codes",
    "code_of",
]

SCOPES = ("deal", "game", "match")
REWARDS = ("points", "win", "scaled")
ILLEGAL = ("raise", "penalty", "end")
#: the keys ``reset(options=...)`` accepts
OPTION_KEYS = ("deck", "dealer")

#: The engine's own action object for each code 0..160 (the deal engine accepts these fastest).
CODE_ACTIONS: tuple[Action, ...] = (
    (A.DRAW_STOCK, A.TAKE_DISCARD, A.TAKE_UPCARD, A.PASS, A.BIG_GIN) + DISCARD_ACTIONS + KNOCK_ACTIONS + GIN_ACTIONS
)
assert all(a.code == i for i, a in enumerate(CODE_ACTIONS))
#: The engine's action object for each code 0..397 (161..397: the layout decisions, R5.6).
LAYOUT_CODE_ACTIONS: tuple[Action, ...] = CODE_ACTIONS + tuple(
    layout_action(c) for c in range(NUM_CODES, NUM_LAYOUT_CODES)
)
_CODE_OF_ID = {id(a): i for i, a in enumerate(CODE_ACTIONS)}


def num_codes(rules: RuleSet) -> int:
    """The size of the action space under ``rules``: :data:`~ginrummy.actions.NUM_LAYOUT_CODES`
    (398) when ``rules.layout == "players"`` (the layout decisions, R5.6, have codes
    161..397), else :data:`~ginrummy.actions.NUM_CODES` (161)."""
    return NUM_LAYOUT_CODES if rules.layout == "players" else NUM_CODES


def code_of(a: Action) -> int:
    """The code of action ``a`` (:attr:`Action.code`), found by identity for the engine's own
    action objects (:data:`CODE_ACTIONS`, the objects its legal actions are made of)."""
    code = _CODE_OF_ID.get(id(a))
    return a.code if code is None else code


_code_of = code_of


def make_env_rules(rules: str | RuleSet | Mapping[str, Any] = "standard", scope: str = "deal") -> RuleSet:
    """The rule set an environment plays: ``rules`` (a preset name of R13, a :class:`RuleSet`, or a
    dict of fields with an optional ``"preset"`` key) with the scoring that ``scope`` asks for.

    ``scope="deal"`` keeps the rules as they are (the episode is the first deal);
    ``"game"`` sets ``scoring="game"`` (a game to ``target``, R11); ``"match"`` sets
    ``scoring="hollywood"`` (R12, two players only).  ``layout="players"`` (R5.6) makes the
    layout decisions the players' (codes 161..397: :func:`num_codes`).  Raises
    :class:`RuleSetError` for an unknown preset, field, value or scope.
    """
    if scope not in SCOPES:
        raise RuleSetError(f"scope={scope!r} is not allowed; allowed: {', '.join(map(repr, SCOPES))}")
    if isinstance(rules, RuleSet):
        rs = rules
    elif isinstance(rules, str):
        rs = preset(rules)
    elif isinstance(rules, Mapping):
        data = dict(rules)
        rs = make_rules(data.pop("preset", "standard"), data)
    else:
        raise RuleSetError(
            f"rules must be a preset name, a RuleSet or a dict of rule fields, not {type(rules).__name__}"
        )
    if scope == "game" and rs.scoring != "game":
        rs = rs.replace(scoring="game")
    elif scope == "match" and rs.scoring != "hollywood":
        rs = rs.replace(scoring="hollywood")  # raises for three players (R10.6)
    return rs


def parse_deck(deck: Any) -> list[int]:
    """The 52 card ints of ``deck``: a sequence of 52 card ints (0..51, ``suit * 13 + rank``,
    R1), a sequence of 52 card texts (``"7H"``), or one text of 52 cards separated by spaces or
    commas, each card once, in :func:`ginrummy.deal.new_deal` order (``deck[0:10]`` the
    non-dealer's hand, ``deck[10:20]`` the dealer's, ``deck[20]`` the upcard, the rest the
    stock, top first; R3.2).  Raises ``ValueError`` naming what is wrong."""
    if isinstance(deck, str) or (isinstance(deck, (list, tuple)) and deck and all(isinstance(c, str) for c in deck)):
        try:
            cards = parse_cards(deck)
        except CardParseError as exc:
            raise ValueError(f"options['deck']: {exc}") from None
    elif isinstance(deck, (list, tuple, np.ndarray)):
        cards = []
        for c in deck:
            if isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, np.integer)) or not 0 <= c < 52:
                raise ValueError(f"options['deck']: {c!r} is not a card int 0..51 (suit * 13 + rank, R1)")
            cards.append(int(c))
    else:
        raise ValueError(
            f"options['deck'] is 52 card ints, 52 card texts or one text of 52 cards, not {type(deck).__name__}"
        )
    if len(cards) != 52:
        raise ValueError(f"options['deck'] has {len(cards)} cards; a deck is the 52 cards, each once")
    if len(set(cards)) != 52:
        twice = sorted({c for c in cards if cards.count(c) > 1})
        raise ValueError(
            f"options['deck'] gives {' '.join(card_str(c) for c in twice)} more than once; "
            "a deck is the 52 cards, each once"
        )
    return cards


def deal_options(options: Mapping[str, Any] | None, players: int) -> tuple[list[int] | None, int | None]:
    """``(deck, dealer)`` of ``reset(options=...)``: ``{"deck": ..., "dealer": 0 or 1}``, both
    optional (see :func:`parse_deck`; ``dealer`` is the player who deals the first deal, R3.1,
    two-hand only: in three-hand gin the box deals, R10.3).  ``None`` for what is not given.
    Other keys are left alone (PettingZoo's ``api_test`` and wrappers pass their own), except
    a key that looks like a misspelling of ours (it holds ``deck`` or ``deal``).  Raises
    ``ValueError`` for such a key or a bad value, naming what is allowed."""
    if options is None:
        return None, None
    if not isinstance(options, Mapping):
        raise ValueError(
            f"options is a dict with keys {', '.join(map(repr, OPTION_KEYS))}, not {type(options).__name__}"
        )
    unknown = [
        k
        for k in options
        if k not in OPTION_KEYS and isinstance(k, str) and ("deck" in k.lower() or "deal" in k.lower())
    ]
    if unknown:
        raise ValueError(
            f"options {', '.join(map(repr, unknown))} not known; allowed: {', '.join(map(repr, OPTION_KEYS))}"
        )
    deck = options.get("deck")
    dealer = options.get("dealer")
    if dealer is not None:
        if players != 2:
            raise ValueError("options['dealer'] is for two-hand gin; in three-hand gin the box deals (R10.3)")
        if isinstance(dealer, (bool, np.bool_)) or not isinstance(dealer, (int, np.integer)) or dealer not in (0, 1):
            raise ValueError(f"options['dealer'] is player 0 or 1, not {dealer!r}")
        dealer = int(dealer)
    return (None if deck is None else parse_deck(deck)), dealer


#: the default step limit of an episode (``max_cycles``): far above any deal or game, it stops
#: a random Hollywood match or an agent stuck on illegal codes under ``illegal="penalty"``
MAX_CYCLES = 100_000


def check_max_cycles(max_cycles: Any) -> int | None:
    """``max_cycles`` checked: an int >= 1, or ``None`` (no limit).  Raises
    :class:`RuleSetError` naming what is allowed."""
    if max_cycles is None:
        return None
    if isinstance(max_cycles, bool) or not isinstance(max_cycles, (int, np.integer)) or max_cycles < 1:
        raise RuleSetError(f"max_cycles must be an int >= 1 or None (no limit), not {max_cycles!r}")
    return int(max_cycles)


def seed_bytes(seed: int) -> bytes:
    """The match seed (bytes) of an integer episode seed: ``b"ginrummy-env/" + str(seed)``."""
    return b"ginrummy-env/" + str(int(seed)).encode()


class GameCore:
    """One episode of gin driven by action codes.

    Args:
        rules: see :func:`make_env_rules`.
        scope: ``"deal"``, ``"game"`` or ``"match"``.
        reward: ``"points"``, ``"win"`` or ``"scaled"`` (see :meth:`step`).
        illegal: ``"raise"``, ``"penalty"`` or ``"end"`` (see :meth:`step`).
        illegal_penalty: the reward taken from a player whose code is illegal under
            ``"penalty"`` or ``"end"``.
        max_cycles: the most steps (actions given to :meth:`step`, illegal ones included) an
            episode may last; the step that reaches it ends the episode truncated
            (:attr:`truncated`).  ``None``: no limit.  Default :data:`MAX_CYCLES` (100,000).

    Raises :class:`RuleSetError` (a ``ValueError``) for a bad option.
    """

    def __init__(
        self,
        rules: str | RuleSet | Mapping[str, Any] = "standard",
        scope: str = "deal",
        reward: str = "points",
        illegal: str = "raise",
        illegal_penalty: float = 1.0,
        max_cycles: int | None = MAX_CYCLES,
    ) -> None:
        self.rules = make_env_rules(rules, scope)
        if reward not in REWARDS:
            raise RuleSetError(f"reward={reward!r} is not allowed; allowed: {', '.join(map(repr, REWARDS))}")
        if illegal not in ILLEGAL:
            raise RuleSetError(f"illegal={illegal!r} is not allowed; allowed: {', '.join(map(repr, ILLEGAL))}")
        if isinstance(illegal_penalty, bool) or not isinstance(illegal_penalty, (int, float)) or illegal_penalty < 0:
            raise RuleSetError(f"illegal_penalty must be a number >= 0, not {illegal_penalty!r}")
        self.max_cycles = check_max_cycles(max_cycles)
        self.scope = scope
        self.reward = reward
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.n = self.rules.players
        #: the number of action codes: 161, or 398 under ``layout="players"`` (R5.6)
        self.num_codes = num_codes(self.rules)
        #: the length of an observation: 433, or 593 under ``layout="players"`` (R5.6)
        self.obs_size = obs_size(self.rules)
        self.code_actions = LAYOUT_CODE_ACTIONS if self.num_codes == NUM_LAYOUT_CODES else CODE_ACTIONS
        self._zero_mask = np.zeros(self.num_codes, dtype=np.int8)
        self._tail = bytes(self.num_codes - 57)
        self._masks: dict[str, dict[int, np.ndarray]] = (
            _MASKS if self.num_codes == NUM_CODES else {p: {} for p in (*PHASES, *LAYOUT_PHASES)}
        )
        #: what :meth:`step` returns while a deal goes on (one shared tuple: do not change it)
        self.no_rewards: tuple[float, ...] = (0.0,) * self.n
        self.scale = score_scale(self.rules)
        #: one observation encoder per deal seat, kept from deal to deal (each follows any state)
        self.encoders = (SeatEncoder(0, self.scale, self.obs_size), SeatEncoder(1, self.scale, self.obs_size))
        #: the masks of the offer, the draw and the wall as bytes (:meth:`mask_bytes`), by phase and length
        self._mask_bytes: dict[str, dict[int, bytes | bytearray]] = {p: {} for p in (*PHASES, *LAYOUT_PHASES)}
        self.match: Match | None = None
        #: the player to act, ``None`` when the episode is over (:attr:`to_act`)
        self.player: int | None = None
        self.done = True
        #: whether the episode ended by the step limit (``max_cycles``) rather than by the rules
        self.truncated = False
        self.steps_left = 0
        #: actions applied since the core was made, every episode (a count for benchmarks)
        self.moves = 0

    # -- episode ---------------------------------------------------------------------------

    def reset(self, seed: bytes, deck: Sequence[int] | None = None, dealer: int | None = None) -> None:
        """Start a new episode from the match seed ``seed`` (bytes): the same seed gives the same
        deals (the deck orders, first dealer and three-hand roles all come from it).

        ``deck`` (52 card ints, checked: see :func:`deal_options`) is the first deal's deck
        instead of the seed's; its reshuffles (R7.3) and every later deal still come from the
        seed.  ``dealer`` (player 0 or 1, two-hand) deals the first deal instead of the seed's
        choice (R3.1).  Raises ``ValueError`` for a bad deck or dealer (nothing changes)."""
        names = [f"player_{i}" for i in range(self.n)]
        m = Match.new(self.rules, names, seed, first_dealer=dealer)
        if deck is not None:
            first = m.deal
            m.deal = new_deal(self.rules, first.dealer, deck, seed=first.seed)
        self.match = m
        self.done = False
        self.truncated = False
        self.steps_left = -1 if self.max_cycles is None else self.max_cycles
        self._new_deal()

    def _new_deal(self) -> None:
        m = self.match
        assert m is not None and m.deal.to_act is not None  # a deal just begun, by reset() or next_deal()
        self.odisc = [0, 0]  # by deal seat: cards that seat discarded this deal
        self.totals = m.sheet.totals
        self.actions = m.record.actions  # the deal record's action list (step appends to it)
        sp = self.seat_players = m.seat_players
        # the deal seat each player observes from: the player sitting out sees the captain's (R10.2)
        self.obs_seat = [sp.index(p) if p in sp else 1 for p in range(self.n)]
        self._obs_bases()
        self.player = sp[m.deal.to_act]

    def _obs_bases(self) -> None:
        """Per player, what an observation needs besides the deal state and the opponent's
        discards: ``(encoder, seat of the opponent, (own total, opponent's total))``; the totals
        change only when a deal ends."""
        sp = self.seat_players
        t = self.totals
        self.obs_base = [(self.encoders[s], 1 - s, (t[sp[s]], t[sp[1 - s]])) for s in self.obs_seat]

    @property
    def to_act(self) -> int | None:
        """The player to act, ``None`` once the episode is over."""
        return None if self.done else self.player

    def step(self, code: int) -> Sequence[float]:
        """Apply the action of code ``code`` for the player to act; return each player's reward.

        Rewards (per player, zero-sum): ``"points"``: in scope ``"deal"`` the deal's points
        (R6, with the R9.3 double) to its winner and their negative to the loser; in scopes
        ``"game"``/``"match"`` each player's change of match total (deal points, and the
        game, shutout and box bonuses of R11.3/R12 when they are written) minus the mean change of
        the others.  ``"scaled"``: the points reward divided by the score scale (``target``, 3 x
        ``target`` for Hollywood).  ``"win"``: at the end of the episode 1 to the winner of the
        deal or match and -1/(n-1) to each other player, 0 to all for a drawn deal; 0 before.

        Raises ``ValueError`` when the episode is over or ``code`` is not an int in 0..160
        (0..397 under ``layout="players"``);
        :class:`IllegalActionError` for an illegal code under ``illegal="raise"`` (nothing
        changes).  Under ``"penalty"`` an illegal code changes nothing, the player to act stays
        the same, and he gets ``-illegal_penalty``; under ``"end"`` he gets ``-illegal_penalty``,
        the others 0, and the episode is over (PettingZoo's classic environments).  The step
        that uses up ``max_cycles`` ends the episode with :attr:`truncated` set (its rewards are
        those of the step itself).
        """
        if self.done:
            raise ValueError("the episode is over: call reset()")
        if type(code) is not int:
            if isinstance(code, (np.integer,)):
                code = int(code)
            else:
                raise ValueError(f"an action is an int code 0..{self.num_codes - 1}, not {code!r}")
        if not 0 <= code < self.num_codes:
            raise ValueError(f"action code {code} is out of range 0..{self.num_codes - 1}")
        m = self.match
        assert m is not None  # not done: reset() made it
        deal = m.deal
        seat = deal.to_act
        player = self.player
        assert seat is not None and player is not None  # not done: the deal goes on
        action = self.code_actions[code]
        try:
            # Speed: the deal state is immutable, so apply the action to it first; while the deal
            # goes on, record it as Match.apply does (the new state and the action); an action
            # that ends the deal goes to Match.advance, the end of Match.apply, which records
            # it and scores the deal on the sheet.
            new, _ = deal.apply(seat, action)
        except IllegalActionError as exc:
            if self.illegal != "raise":
                out = [0.0] * self.n
                out[player] = -self.illegal_penalty
                if self.illegal == "end":
                    self._over()
                else:
                    self._count_step()
                return out
            legal = [_code_of(a) for a in deal.legal_actions()]
            raise IllegalActionError(
                f"action code {code} ({action.text}) is not legal for player_{player} now: {exc}; legal codes: {legal}",
                action.text,
                [self.code_actions[c].text for c in legal],
            ) from None
        self.moves += 1
        if 5 <= code < NUM_CODES:
            self.odisc[seat] |= 1 << ((code - 5) % 52)
        if new.result is None:
            assert new.to_act is not None  # the deal goes on
            m.deal = new
            self.actions.append((seat, action))
            self.player = self.seat_players[new.to_act]
            if self.steps_left > 0:
                self.steps_left -= 1
                if not self.steps_left:
                    self._over(truncated=True)
            return self.no_rewards
        m.advance(seat, action, new)
        out = self._end_of_deal(new)
        if not self.done:
            self._count_step()
        return out

    def _count_step(self) -> None:
        if self.steps_left > 0:
            self.steps_left -= 1
            if not self.steps_left:
                self._over(truncated=True)

    def _over(self, truncated: bool = False) -> None:
        """End the episode before the rules do (an illegal code under ``"end"``, or the step limit)."""
        self.done = True
        self.truncated = truncated
        self.player = None
        self._obs_bases()

    def _end_of_deal(self, deal: DealState) -> list[float]:
        m = self.match
        assert m is not None and deal.result is not None  # called by step() when the deal ended
        n = self.n
        result = deal.result
        old = self.totals
        totals = m.sheet.totals
        over = self.scope == "deal" or m.finished
        rewards = [0.0] * n
        if self.reward == "win":
            if over:
                if self.scope == "deal":
                    winner = None if result.winner is None else m.seat_players[result.winner]
                else:
                    winner = m.winner
                if winner is not None:
                    rewards = [-1.0 / (n - 1)] * n
                    rewards[winner] = 1.0
        else:
            if self.scope == "deal":
                delta = [0] * n
                if result.winner is not None:
                    delta[m.seat_players[result.winner]] = result.points
            else:
                delta = [totals[i] - old[i] for i in range(n)]
            total = sum(delta)
            rewards = [d - (total - d) / (n - 1) for d in delta]
            if self.reward == "scaled":
                rewards = [r / self.scale for r in rewards]
        self.totals = totals
        if over:
            self.done = True
            self.player = None
            self._obs_bases()
        else:
            m.next_deal()
            self._new_deal()
        return [float(r) for r in rewards]

    # -- what a player sees ----------------------------------------------------------------

    def view(self, player: int) -> PlayerView:
        """``player``'s :class:`PlayerView` now (the match's own view, match context included).
        Raises ``ValueError`` before the first :meth:`reset`."""
        if self.match is None:
            raise ValueError("no episode yet: call reset()")
        return self.match.view(player)

    def observe(self, player: int) -> np.ndarray:
        """``player``'s observation now: ``encode_view(self.view(player))``, built incrementally.
        The player sitting out a three-hand deal sees the captain's (R10.2)."""
        encoder, other, totals = self.obs_base[player]
        assert self.match is not None  # obs_base is made with the match, by reset()
        return encoder.observe(self.match.deal, self.odisc[other], totals)

    def observe_later(self, player: int) -> tuple:
        """What :meth:`observe` needs to give ``player``'s observation of now at any later time
        (the deal state is immutable): ``(encoder, state, odisc, totals)``."""
        encoder, other, totals = self.obs_base[player]
        assert self.match is not None  # obs_base is made with the match, by reset()
        return encoder, self.match.deal, self.odisc[other], totals

    def observe_slow(self, player: int) -> np.ndarray:
        """The same observation by the definition, :func:`encode_view` of the player's view."""
        return encode_view(self.view(player))

    def mask(self, player: int) -> np.ndarray:
        """``int8`` array of 161 (398 under ``layout="players"``): 1 for each code legal for
        ``player`` now (all 0 if he is not to act).  A new array each call (the caller may keep
        or change it)."""
        if self.player != player or self.done:
            return self._zero_mask.copy()
        return self.mask_to_act()

    def mask_to_act(self) -> np.ndarray:
        """The mask of the player to act (the episode must not be over): :meth:`mask` without
        its checks.

        Speed: when the player may only discard (most turns after a draw), the engine says
        which cards (:meth:`~ginrummy.deal.DealState.discards_only`, without building the list
        of legal actions) and the mask is joined from per-suit byte tables; the offer, the draw
        and the wall have a few fixed lists (a cached mask, copied); otherwise each code of the
        engine's legal actions is set.
        """
        assert self.match is not None  # the episode goes on: reset() made it
        deal = self.match.deal
        if not deal.legal_actions_known and deal.phase == DISCARD:
            bits = deal.discards_only()
            if bits is not None:
                t = _BITS13
                return _frombuffer(
                    _join(
                        (
                            _HEAD,
                            t[bits & 8191],
                            t[(bits >> 13) & 8191],
                            t[(bits >> 26) & 8191],
                            t[bits >> 39],
                            self._tail,
                        )
                    ),
                    _I8,
                )
        legal = deal.legal_actions_shared()  # the engine's own list, without the copy
        n = len(legal)
        if deal.phase != DISCARD:  # the offer, the draw and the wall have a few fixed lists
            if deal.phase in LAYOUT_PHASES:  # the layout decisions (R5.6): each code set
                out = bytearray(self.num_codes)
                for a in legal:
                    out[a.code] = 1
                return _frombuffer(out, _I8)
            by_length = self._masks[deal.phase]
            cached = by_length.get(n)
            if cached is None:
                cached = by_length[n] = _mask_of([_CODE_OF_ID[id(a)] for a in legal], self.num_codes)
            return cached.copy()
        out = bytearray(self.num_codes)
        ids = _CODE_OF_ID
        for a in legal:
            out[ids[id(a)]] = 1
        return _frombuffer(out, _I8)

    def mask_bytes(self) -> bytes | bytearray:
        """The mask of the player to act as :attr:`num_codes` bytes of 0 or 1 (the episode must
        not be over), for writing into a batch (:class:`~ginrummy.env.GinRummyVector`): what
        :meth:`mask_to_act` holds, by the same quick paths, without making an array.  Shared
        bytes on the offer, the draw and the wall: do not change them."""
        assert self.match is not None  # the episode goes on: reset() made it
        deal = self.match.deal
        phase = deal.phase
        if phase == DISCARD:
            if not deal.legal_actions_known:
                bits = deal.discards_only()
                if bits is not None:
                    t = _BITS13
                    return _join(
                        (
                            _HEAD,
                            t[bits & 8191],
                            t[(bits >> 13) & 8191],
                            t[(bits >> 26) & 8191],
                            t[bits >> 39],
                            self._tail,
                        )
                    )
        elif phase not in LAYOUT_PHASES:  # the offer, the draw and the wall have a few fixed lists
            legal = deal.legal_actions_shared()
            by_length = self._mask_bytes[phase]
            cached = by_length.get(len(legal))
            if cached is None:
                cached = by_length[len(legal)] = self._mask_of_legal(legal)
            return cached
        return self._mask_of_legal(deal.legal_actions_shared())

    def _mask_of_legal(self, legal: Sequence[Action]) -> bytearray:
        out = bytearray(self.num_codes)
        ids = _CODE_OF_ID
        for a in legal:
            c = ids.get(id(a))
            out[a.code if c is None else c] = 1
        return out

    def legal_codes(self, player: int) -> list[int]:
        """The codes legal for ``player`` now, ascending (empty if he is not to act)."""
        if self.done or self.match is None or self.match.player_to_act() != player:
            return []
        return sorted(_code_of(a) for a in self.match.deal.legal_actions())


_ZERO_MASK = np.zeros(NUM_CODES, dtype=np.int8)
_MASKS: dict[str, dict[int, np.ndarray]] = {p: {} for p in PHASES}  # phase -> number of legal actions -> mask
_I8 = np.dtype(np.int8)
_frombuffer = np.frombuffer
_join = bytearray().join
_HEAD = bytes(5)  # codes 0..4 (no discard among them)
_TAIL = bytes(NUM_CODES - 57)  # knocks and gins


def _bits13() -> list[bytes]:
    """For each 13-bit mask m (one suit of a hand): 13 bytes, byte r = bit r of m."""
    out = [bytes(13)]
    for r in range(13):
        out += [b[:r] + b"\x01" + b[r + 1 :] for b in out]
    return out


_BITS13 = _bits13()


def _mask_of(codes, size: int = NUM_CODES) -> np.ndarray:
    out = np.zeros(size, dtype=np.int8)
    out[list(codes)] = 1
    return out


def derive_seed(seed: bytes, label: str) -> int:
    """A 64-bit integer seed derived from ``seed`` and ``label`` (for opponents' generators)."""
    return int.from_bytes(hashlib.sha256(seed + b"/" + label.encode()).digest()[:8], "big")
