"""A pyspiel game over this engine, for every variant: ``python_ginrummy`` (docs/env.md).

``pyspiel.load_game("python_ginrummy", {"preset": "openspiel"})`` (after :func:`register`, which
importing this module does when pyspiel is installed) plays one deal under a rule set: the
parameter ``preset`` names it (the presets of R13, or ``"openspiel"``, our exact copy of
OpenSpiel's rules, :data:`~ginrummy.interop.openspiel.OPENSPIEL_RULES`, the default) and
``overrides`` changes fields, as JSON (``'{"knock_limit": 5}'``) or ``key=value`` items joined by
commas (R14).  So OpenSpiel's algorithms (CFR, MCTS, exploitability, ``random_sim_test``) run on
Straight, Oklahoma, big gin or any other variant.

Players are OpenSpiel's 0 and 1; player 0 plays first (seat 1 deals, R3.3).  Actions are our
codes (:mod:`ginrummy.actions`): 0..160, and 161..397 for the layout decisions (R5.6) when
``layout="players"``.  Chance deals the 21 first cards one by one (player 0's ten, player 1's
ten, the upcard; card ids 0..51 are ours, R1.4), then each stock card as it is drawn, uniformly
from the cards left in the stock.  Returns are the deal's points (R6, R9.3), the winner's
positive.  One deal is the game (``scoring`` is not used); three-hand gin (R10) is not offered.
Observations (OpenSpiel's ``observation_tensor``, ``observation_string``, ``make_observation``;
:meth:`GinRummyGame.make_py_observer`): the tensor is the research environments' observation
(:func:`ginrummy.env.observation.encode_view` of the player's :class:`~ginrummy.views.PlayerView`,
the same encoder, not a copy): 433 ``float32`` values, or 593 under ``layout="players"`` (the
``openspiel`` preset), laid out in ``docs/env.md``; its ``dict`` names the card planes (each
shaped ``(4, 13)``: suit ``C D H S`` by rank ace..king) and the scalars.  While chance is still
dealing the 21 first cards, only the ``hand`` plane is set (the player's cards dealt so far);
once the deal is over the totals scalars hold the deal's points, as in the env's one-deal episode.
It is made from the player's view alone, so it never holds a card the player cannot see.
The string is the player's own view too: hand, discard pile, stock size, phase, the melds laid
and the cards laid off.  With ``perfect_recall=True`` (``information_state_string``) the
observer gives a string only, the player's whole history as it saw it (its own cards in the
order dealt, the upcard, every move, its own stock draws, the opponent's as ``?``); there is no
information state tensor (a perfect-recall tensor would have to hold the whole history).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from ..actions import NUM_LAYOUT_CODES, layout_action
from ..cards import card_str, cards_str
from ..deal import DRAW, OVER, DealState, new_deal
from ..env.observation import LAYOUT_PLANES, LAYOUT_SCALARS, PLANES, SCALARS, encode_view, obs_size
from ..rules import RuleSet, make_rules, parse_overrides
from ..scoring import max_deal_score
from ..views import view_of
from .openspiel import OPENSPIEL_RULES

__all__ = ["GinRummyGame", "GinRummyState", "register", "rules_of", "SHORT_NAME"]

SHORT_NAME = "python_ginrummy"
#: The longest game reported to OpenSpiel: 21 dealt cards and at most this many moves.  Our
#: deals end by the stock (R7) except when both keep taking discards; the OpenSpiel rules
#: stop that at 50 takes (R7.5), and other rule sets are cut short by OpenSpiel's own callers.
MAX_GAME_LENGTH = 1000

_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Gin Rummy (ginrummy engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"preset": "openspiel", "overrides": ""},
)


def rules_of(params: dict[str, Any]) -> RuleSet:
    """The rule set of the game parameters ``preset`` and ``overrides`` (see the module).
    Raises :class:`~ginrummy.errors.RuleSetError` for an unknown preset or a bad override, and
    for three players (R10 is not offered)."""
    name = str(params.get("preset", "openspiel"))
    text = str(params.get("overrides", "")).strip()
    changes: dict[str, Any]
    if text.startswith("{"):
        changes = json.loads(text)
    else:
        changes = parse_overrides([t for t in text.split(",") if t.strip()]) if text else {}
    base = OPENSPIEL_RULES if name.lower() == "openspiel" else make_rules(name)
    rules = base.replace(**changes) if changes else base
    if rules.players != 2:
        from ..errors import RuleSetError

        raise RuleSetError("python_ginrummy plays two-hand deals (players=2); three-hand gin (R10) is not offered")
    return rules


class GinRummyGame(pyspiel.Game):
    """One deal of gin under a rule set (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rules = rules_of(params)
        top = float(max_deal_score(self.rules))
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_LAYOUT_CODES,
            max_chance_outcomes=52,
            num_players=2,
            min_utility=-top,
            max_utility=top,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(
            _TYPE,
            info,
            {"preset": str(params.get("preset", "openspiel")), "overrides": str(params.get("overrides", ""))},
        )

    def new_initial_state(self) -> GinRummyState:
        """The state before the first card is dealt."""
        return GinRummyState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer | _InfoStateObserver | None:
        """An observer of the players' own views (pyspiel's PyObserver interface).

        ``iig_obs_type``: a ``pyspiel.IIGObservationType``; ``None`` or ``perfect_recall=False``
        gives the observation (the env's tensor, ``dict`` and the view as a string, see the
        module), ``perfect_recall=True`` the information state (a string only).  The player's
        own view is the one offered: ``public_info=True`` with ``private_info`` the single
        player's; for another kind (public information only, private cards only, every player's
        cards) the answer is ``None``, OpenSpiel's "not supported" (``make_observation``'s
        convention, which its API tests rely on).  Raises ``ValueError`` for observation
        parameters (none are taken)."""
        if params:
            raise ValueError(f"python_ginrummy takes no observation parameters; got {dict(params)!r}")
        if iig_obs_type is not None:
            single = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
            if not (iig_obs_type.public_info and single):
                return None
            if iig_obs_type.perfect_recall:
                return _InfoStateObserver()
        return _Observer(self.rules)


class GinRummyState(pyspiel.State):
    """A deal in progress: the cards dealt so far, then our :class:`DealState`."""

    def __init__(self, game: GinRummyGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.dealt: list[int] = []
        self.deal: DealState | None = None
        self.drawing = False  # a stock draw waits for chance to deal its card
        #: every action so far as ``(who, action, chance)``: for a chance card, who sees it (0 or 1
        #: that player only, -1 both: the upcard); for a move, the player (every move is public)
        self.seen: list[tuple[int, int, bool]] = []

    def current_player(self) -> int:
        """The player to act, chance, or terminal."""
        d = self.deal
        if d is None or self.drawing:
            return pyspiel.PlayerId.CHANCE
        if d.phase == OVER:
            return pyspiel.PlayerId.TERMINAL
        assert d.to_act is not None
        return d.to_act

    def _legal_actions(self, player: int) -> list[int]:
        assert self.deal is not None
        return sorted(a.code for a in self.deal.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet (the stock's, for a draw), each equally likely."""
        if self.deal is None:
            left = sorted(set(range(52)) - set(self.dealt))
        else:
            left = sorted(self.deal.stock[self.deal.drawn :])
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        who = self.current_player()
        if who == pyspiel.PlayerId.CHANCE:  # who sees the card: -1 both, 0 or 1 that player only
            if self.deal is None:
                n = len(self.dealt)
                who = -1 if n == 20 else n // 10
            else:
                assert self.deal.to_act is not None
                who = self.deal.to_act
            self.seen.append((who, action, True))
        else:
            self.seen.append((who, action, False))
        if self.deal is None:
            self.dealt.append(action)
            if len(self.dealt) == 21:
                rest = [c for c in range(52) if c not in set(self.dealt)]
                self.deal = new_deal(self.rules, 1, self.dealt + rest)
            return
        d = self.deal
        if self.drawing:
            d = d.with_next_stock_card(action)
            assert d.to_act is not None
            self.deal, _ = d.apply(d.to_act, layout_action(0))
            self.drawing = False
            return
        if action == 0 and d.phase == DRAW:
            self.drawing = True
            return
        assert d.to_act is not None
        self.deal, _ = d.apply(d.to_act, layout_action(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {card_str(action)}"
        return layout_action(action).text

    def is_terminal(self) -> bool:
        """Whether the deal is over."""
        return self.deal is not None and self.deal.phase == OVER

    def returns(self) -> list[float]:
        """The deal's points: the winner's positive, the loser's negative; 0 and 0 otherwise."""
        d = self.deal
        if d is None or d.result is None or d.result.winner is None:
            return [0.0, 0.0]
        out = [0.0, 0.0]
        out[d.result.winner] = float(d.result.points)
        out[1 - d.result.winner] = -float(d.result.points)
        return out

    def __str__(self) -> str:
        if self.deal is None:
            return f"dealt {cards_str(sum(1 << c for c in self.dealt))}" if self.dealt else "dealing"
        d = self.deal
        return (
            f"phase {d.phase} to_act {d.to_act} hands {cards_str(d.hands[0])} | {cards_str(d.hands[1])} "
            f"pile {' '.join(card_str(c) for c in d.pile)} stock {d.stock_size}"
        )


#: the shape of a card plane in the observer's ``dict``: suit (C D H S) by rank (ace..king), R1
_PLANE_SHAPE: tuple[int, ...] = (4, 13)


def _pieces(size: int) -> list[tuple[str, int, tuple[int, ...]]]:
    """(name, size, shape) of each part of an observation of ``size`` values, in order."""
    out: list[tuple[str, int, tuple[int, ...]]] = [(name, 52, _PLANE_SHAPE) for name in PLANES]
    out.append(("scalars", len(SCALARS), (len(SCALARS),)))
    if size > 52 * len(PLANES) + len(SCALARS):
        out += [(name, 52, _PLANE_SHAPE) for name in LAYOUT_PLANES]
        out.append(("layout_scalars", len(LAYOUT_SCALARS), (len(LAYOUT_SCALARS),)))
    return out


class _Observer:
    """A player's own view: the research environments' observation as ``tensor`` (and its parts
    as ``dict``, views of the same memory) and as a string (pyspiel's PyObserver interface)."""

    def __init__(self, rules: RuleSet) -> None:
        size = obs_size(rules)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, n, shape in _pieces(size):
            self.dict[name] = self.tensor[at : at + n].reshape(shape)
            at += n
        assert at == size

    def set_from(self, state: GinRummyState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor`` (in place): the env's
        :func:`~ginrummy.env.observation.encode_view` of the player's view; before the deal is
        dealt, the player's cards dealt so far in the ``hand`` plane and nothing else.  Once the
        deal is over the two totals scalars hold its points (the winner's), as the score sheet of
        the env's one-deal episode does (a game is one deal here)."""
        d = state.deal
        if d is None:
            self.tensor.fill(0.0)
            for c in state.dealt[player * 10 : (player + 1) * 10]:
                self.tensor[c] = 1.0
            return
        scores = None
        res = d.result
        if res is not None and res.winner is not None:  # the deal's points on the sheet, as the env's
            totals = [0, 0]
            totals[res.winner] = res.points
            scores = {"totals": totals, "seat_players": [0, 1]}
        self.tensor[:] = encode_view(view_of(d, player, scores=scores))

    def string_from(self, state: GinRummyState, player: int) -> str:
        """The player's hand, the discard pile, the stock size, the phase and what is laid."""
        d = state.deal
        if d is None:
            mine = state.dealt[player * 10 : (player + 1) * 10]
            return f"hand {cards_str(sum(1 << c for c in mine))}"
        laid = " / ".join(cards_str(m) for seat in (0, 1) for m in d.laid[seat])
        return (
            f"phase {d.phase} to_act {d.to_act} hand {cards_str(d.hands[player])} "
            f"pile {' '.join(card_str(c) for c in d.pile)} stock {d.stock_size} "
            f"laid {laid} layoffs {' '.join(card_str(c) for c in d.layoffs)}"
        )


class _InfoStateObserver:
    """A player's information state (perfect recall) as a string; no tensor."""

    def __init__(self) -> None:
        self.tensor = None
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: GinRummyState, player: int) -> None:
        """Nothing to set: the information state is a string only."""

    def string_from(self, state: GinRummyState, player: int) -> str:
        """``player``'s whole history as it saw it, one item a move, oldest first: ``deal 7C``
        (a card dealt to it, or the upcard), ``deal ?`` (one dealt to the opponent), ``pN code``
        (a move by player N, our action code), ``draw 7C`` (its own stock draw) or ``draw ?``
        (the opponent's)."""
        out = [f"p{player}"]
        for i, (who, action, chance) in enumerate(state.seen):
            if not chance:
                out.append(f"p{who} {action}")
                continue
            word = "deal" if i < 21 else "draw"  # the first 21 actions deal the hands and the upcard
            out.append(f"{word} {card_str(action) if who in (-1, player) else '?'}")
        return ", ".join(out)


def register() -> None:
    """Register ``python_ginrummy`` with pyspiel (once; importing this module does it)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_TYPE, GinRummyGame)


register()
