"""Action maps to OpenSpiel's gin_rummy and RLCard's gin-rummy (ginrummy.interop.action_maps),
tested by replaying the same deals in both engines: every action of a deal of ours is mapped
and played in the other engine, whose legal actions, hands and (OpenSpiel) scores must agree."""

from __future__ import annotations

import random

import pytest

from ginrummy.actions import Action
from ginrummy.cards import mask_of, parse_card
from ginrummy.deal import DISCARD, WALL, new_deal
from ginrummy.interop.action_maps import (
    card_to_rlcard,
    from_openspiel,
    from_rlcard,
    rlcard_to_card,
    to_openspiel,
    to_rlcard,
)
from ginrummy.players.simple import NovicePlayer
from ginrummy.rules import PRESETS
from ginrummy.views import view_of


def test_card_encodings():
    # our AS is RLCard's 0 (suits S H D C), our KC its 51
    assert card_to_rlcard(parse_card("AS")) == 0 and card_to_rlcard(parse_card("KC")) == 51
    assert all(rlcard_to_card(card_to_rlcard(c)) == c for c in range(52))


def test_maps_by_hand():
    c = parse_card("7H")
    assert to_openspiel(0, "draw") == (53,) and to_openspiel(1, "draw") == (52,) and to_openspiel(1, "wall") == (55,)
    assert to_openspiel(2, "upcard_offer") == (52,) and to_openspiel(3, "FirstUpcard") == (54,)
    assert to_openspiel(5 + c) == (45,)  # OpenSpiel's 7h: suit h is its fourth
    assert to_openspiel(57 + c) == (55, 45) == to_openspiel(109 + c) and to_openspiel(57 + c, "knock") == (45,)
    with pytest.raises(ValueError, match="no big gin"):
        to_openspiel(4)
    with pytest.raises(ValueError, match="cannot be played in phase draw"):
        to_openspiel(3, "draw")
    assert from_openspiel([53], "Draw") == 0 and from_openspiel([52], "FirstUpcard") == 2
    assert from_openspiel([56 + 3], "Knock") is None  # a meld lay-down: the engine lays out itself
    hand = mask_of(parse_card(x) for x in "AS 2S 3S 4H 4D 4C 7C 8C 9C 2D 7H".split())
    assert from_openspiel([55, 45], "Discard", hand) == 57 + c  # 2 deadwood left: a knock
    assert to_rlcard(0) == 2 and to_rlcard(1) == 3 and to_rlcard(2) is None and to_rlcard(4) is None
    assert to_rlcard(5 + c) == 6 + 13 + 6 and to_rlcard(57 + c) == 58 + 19 and to_rlcard(109 + c) == 5
    assert from_rlcard(6 + 19) == 5 + c and from_rlcard(4) is None and from_rlcard(5, gin_card=c) == 109 + c
    with pytest.raises(ValueError, match="0..160"):
        to_rlcard(161)


def choose(view, rng: random.Random, novice: NovicePlayer) -> Action:
    """Mostly the novice (it knocks at once), sometimes a random legal action."""
    return rng.choice(view.legal) if rng.random() < 0.25 else novice.choose(view, view.legal)


# -- OpenSpiel ----------------------------------------------------------------------------------

def _os_replay(seed: int) -> tuple[str, int]:
    import pyspiel

    from ginrummy.interop.openspiel import OPENSPIEL_ENGINE_LAYOUT as OPENSPIEL_RULES
    from ginrummy.interop.openspiel import SeatObserver, _defend, _finish_own_layout, card_to_os

    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    s = new_deal(OPENSPIEL_RULES, 1, deck)  # OpenSpiel's player 0 acts first: seat 1 deals (R3.3)
    game = pyspiel.load_game("gin_rummy")
    st = game.new_initial_state()
    for c in deck[:21]:
        st.apply_action(card_to_os(c))
    players = [NovicePlayer(random.Random(seed * 2 + i)) for i in (0, 1)]
    observers = [SeatObserver(0), SeatObserver(1)]
    while s.to_act is not None:
        seat = s.to_act
        assert st.current_player() == seat
        os_phase = "Wall" if s.phase == WALL else ("FirstUpcard" if s.phase == "upcard_offer" or s.stock_only
                                                   else ("Draw" if s.phase == "draw" else "Discard"))
        if s.must_knock:
            os_phase = "Knock"
        legal = s.legal_actions()
        os_legal = set(st.legal_actions())
        # every legal action of ours is legal there, and each legal action there is one of ours
        mapped = {to_openspiel(a.code, os_phase)[0] for a in legal if a.kind != "big_gin"}
        assert mapped == os_legal, (seed, s.phase, [a.text for a in legal], sorted(os_legal))
        for x in os_legal:
            if x != 55 or os_phase == "Wall":
                back = from_openspiel([x], os_phase, s.hands[seat])
                assert back is not None and any(a.code == back for a in legal)
        action = choose(view_of(s, seat), rng, players[seat])
        s, events = s.apply(seat, action)
        for x in to_openspiel(action.code, os_phase):
            st.apply_action(x)
        while st.is_chance_node():  # a stock draw: deal the card our engine drew
            drawn = [e.card for e in events if e.kind == "draw_stock"]
            st.apply_action(card_to_os(drawn[0]))
        if s.to_act is not None:
            assert list(s.hands) == [_os_hand(st, p) for p in (0, 1)]
    result = s.result
    if result.knocker is not None:  # lay out in OpenSpiel as the bridge does, exactly (R5.2-R5.5)
        for ob in observers:
            ob.observe(st)
        while not st.is_terminal():
            p = st.current_player()
            if p == result.knocker:
                _finish_own_layout(st, p, observers)
            else:
                _defend(st, p, observers)
    else:
        while not st.is_terminal():
            assert st.legal_actions() == [54]  # only pass: the deal is drawn there too (R7.2)
            st.apply_action(54)
    returns = st.returns()
    if result.winner is None:
        assert returns == [0.0, 0.0]
        return "draw", 0
    ours = result.points if result.winner == 0 else -result.points
    if result.outcome == "undercut" and result.showdown is not None and ours != returns[0]:
        return "tie", 0  # a tie in deadwood: an undercut in R6.3, nothing in OpenSpiel
    assert returns[0] == ours, (seed, result.outcome, returns, ours)
    return result.outcome, ours


def _os_hand(st, player: int) -> int:
    from ginrummy.interop.openspiel import os_to_card

    t = st.observation_tensor(player)
    return mask_of(os_to_card(i) for i in range(52) if t[2 + 52 * player + i] > 0.5)


def test_openspiel_replays_our_deals():
    pytest.importorskip("pyspiel")
    outcomes = [_os_replay(seed) for seed in range(30)]
    kinds = {o for o, _ in outcomes}
    assert "knock" in kinds and len(outcomes) == 30
    assert sum(1 for o, _ in outcomes if o in ("knock", "gin", "undercut")) >= 15


# -- RLCard -------------------------------------------------------------------------------------

class _Deck:
    """Stands in for RLCard's numpy generator at the deal: the dealer is ours and the 'shuffle'
    lays the deck so that its pops deal our deck (RLCard deals from the end of its stock)."""

    def __init__(self, dealer: int, order: list) -> None:
        self.dealer = dealer
        self.order = order

    def choice(self, options):
        return self.dealer

    def shuffle(self, cards) -> None:
        cards[:] = self.order


def _rl_hand(player) -> int:
    from rlcard.games.gin_rummy.utils import utils

    return mask_of(rlcard_to_card(utils.get_card_id(c)) for c in player.hand)


def _rl_replay(seed: int) -> str:
    from rlcard.games.gin_rummy.game import GinRummyGame
    from rlcard.games.gin_rummy.judge import get_going_out_cards
    from rlcard.games.gin_rummy.utils import utils
    from rlcard.games.gin_rummy.utils.action_event import ActionEvent

    rules = PRESETS["standard"]
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    dealer = seed % 2
    s = new_deal(rules, dealer, deck)
    s, _ = s.apply(1 - dealer, Action("take_upcard"))  # RLCard deals the upcard to the non-dealer (R4.2)
    deal_order = deck[:10] + [deck[20]] + deck[10:20] + deck[21:]
    game = GinRummyGame()
    game.np_random = _Deck(dealer, [utils.get_card(card_to_rlcard(c)) for c in reversed(deal_order)])
    game.init_game()
    players = [NovicePlayer(random.Random(seed * 2 + i)) for i in (0, 1)]
    while s.to_act is not None:
        seat = s.to_act
        assert game.round.current_player_id == seat
        assert [_rl_hand(game.round.players[p]) for p in (0, 1)] == list(s.hands)
        legal = s.legal_actions()
        rl_legal = {a.action_id for a in game.judge.get_legal_actions()}
        if s.phase == DISCARD and any(a.kind == "gin" for a in legal):
            assert rl_legal == {5}  # RLCard forces the gin
        else:
            ours = {to_rlcard(a.code) for a in legal}
            extra = rl_legal - ours
            assert ours <= rl_legal, (seed, s.phase, [a.text for a in legal], sorted(rl_legal))
            # R4.3: the card just taken may not be discarded; RLCard allows it with the dealt upcard
            # (it sees no take) and offers a knock with it
            taken = None if s.taken is None else card_to_rlcard(s.taken)
            assert all(x in (6 + taken, 58 + taken) for x in extra) if extra else True, (seed, sorted(extra))
        action = choose(view_of(s, seat), rng, players[seat])
        rl_action = to_rlcard(action.code)
        if action.kind == "gin":
            hand = game.round.players[seat].hand
            gin_card = rlcard_to_card(utils.get_card_id(get_going_out_cards(hand, 10)[1][0]))
            assert any(a.code == from_rlcard(5, gin_card=gin_card) for a in legal)
        else:
            assert from_rlcard(rl_action) == action.code
        s, _ = s.apply(seat, action)
        game.step(ActionEvent.decode_action(rl_action))
    result = s.result
    if result.knocker is None:  # R7.1: RLCard's next player may only declare the dead hand (or pick up)
        assert 4 in {a.action_id for a in game.judge.get_legal_actions()}
        return "draw"
    return result.outcome


def test_rlcard_replays_our_deals():
    pytest.importorskip("rlcard")
    outcomes = [_rl_replay(seed) for seed in range(30)]
    assert "knock" in outcomes
    assert sum(1 for o in outcomes if o != "draw") >= 15
