"""Tests of :class:`ginrummy.views.PlayerView`: a seat sees its own cards, the discard pile,
counts, the cards the opponent was seen taking from the pile, and the public history; never the
opponent's hand nor the order of the stock (DESIGN principle 3; R3.2 the stock is face down,
R4.1 a draw from the stock is seen only by the drawer)."""

from __future__ import annotations

import json

import pytest

from ginrummy.actions import Action
from ginrummy.cards import card_str, cards_of
from ginrummy.views import view_of
from helpers import act, c, deal, m

ND = "AS 2S 3S 4H 4D 4C 7C 8C 9C KD"
DEALER_A = "5S 7S 9S TH QH 2D 6D 8D JS KH"
DEALER_B = "5S 7S 9S TH QH 3D 6H 8H JH KH"  # differs in 2D 6D 8D JS -> 3D 6H 8H JH


def _play(dealer: str, stock: str):
    """Both pass; seat 0 draws QC and discards it; seat 1 draws (hidden) and discards KH."""
    s = act(deal(ND, dealer, "5H", stock), "pass", "pass", "draw stock", "discard QC", "draw stock",
            "discard KH")
    return s


def test_views_equal_when_only_hidden_cards_differ():
    """Two deals that differ only in the dealer's hand and the stock below its top card, played
    with the same public actions, give seat 0 exactly the same view at every step."""
    a = deal(ND, DEALER_A, "5H", "QC 5D TC")
    b = deal(ND, DEALER_B, "5H", "QC AD 6C")
    script = ["pass", "pass", "draw stock", "discard QC", "draw stock", "discard KH"]
    assert view_of(a, 0) == view_of(b, 0)
    for text in script:
        a = act(a, text)
        b = act(b, text)
        assert view_of(a, 0) == view_of(b, 0), text
        assert view_of(a, 0).to_json() == view_of(b, 0).to_json(), text
    # but seat 1 sees its own (different) cards
    assert view_of(a, 1) != view_of(b, 1)


def test_view_never_contains_opponent_hand_or_stock():
    """The JSON of a seat's view names no card of the opponent's hand nor of the stock (only
    the discard pile, own hand, and cards seen taken)."""
    s = _play(DEALER_A, "QC 5D TC")
    v = view_of(s, 0)
    text = json.dumps(v.to_json())
    hidden = cards_of(s.hands[1]) + list(s.stock[s.drawn:])
    for x in hidden:
        assert f'"{card_str(x)}"' not in text and f" {card_str(x)}\"" not in text, card_str(x)
    assert v.hand == s.hands[0] and v.opponent_count == 10 and v.stock_size == 29
    assert not hasattr(v, "stock") and not hasattr(v, "hands")


def test_history_hides_opponent_draws():
    """R4.1: a card drawn from the stock is seen only by the drawer: in seat 0's history the
    dealer's draw has no card; in seat 1's it has 5D.  Seat 0 sees his own draw QC."""
    s = _play(DEALER_A, "QC 5D TC")
    h0 = view_of(s, 0).history
    h1 = view_of(s, 1).history
    draws0 = [e for e in h0 if e.kind == "draw_stock"]
    draws1 = [e for e in h1 if e.kind == "draw_stock"]
    assert [(e.seat, e.card) for e in draws0] == [(0, c("QC")), (1, None)]
    assert [(e.seat, e.card) for e in draws1] == [(0, None), (1, c("5D"))]
    assert "1 draw stock" in view_of(s, 0).to_json()["history"]
    # discards are public
    assert [(e.seat, e.card) for e in h0 if e.kind == "discard"] == [(0, c("QC")), (1, c("KH"))]


def test_opponent_seen_until_discarded():
    """A card the opponent took from the discard pile is shown in ``opponent_seen`` until he
    discards it.  Seat 0 takes the upcard 5H and discards KD; the dealer takes KD: seat 0 sees
    KD in the dealer's hand, seat 1 sees 5H in seat 0's.  The dealer must keep KD this turn
    (R4.3) and discards it on his next turn: then it is no longer shown."""
    s = act(deal(ND, DEALER_A, "5H", "QC 5D TC"), "take upcard")
    assert view_of(s, 1).opponent_seen == m("5H")
    s = act(s, "discard KD", "take discard")
    assert view_of(s, 0).opponent_seen == m("KD")
    s = act(s, "discard 2D", "draw stock", "discard QC")
    assert view_of(s, 0).opponent_seen == m("KD")
    s = act(s, "draw stock", "discard KD")
    assert view_of(s, 0).opponent_seen == 0
    assert view_of(s, 1).opponent_seen == m("5H")
    assert view_of(s, 0).to_json()["opponent_seen"] == []


def test_legal_and_taken_only_for_the_seat_to_act():
    """Only the seat to act sees its legal actions; the other gets none."""
    s = act(deal(ND, DEALER_A, "5H"), "take upcard")
    v0, v1 = view_of(s, 0), view_of(s, 1)
    assert v0.my_turn and not v1.my_turn
    assert len(v0.legal) == 11 and v1.legal == ()
    assert v0.taken == c("5H") and v1.taken is None


def test_result_is_public_when_over():
    """Once the deal is over both seats see the result (the layouts are laid out, R5.2, R5.3)."""
    s = act(deal(ND, DEALER_A, "5H"), "take upcard", "knock KD")
    v0, v1 = view_of(s, 0), view_of(s, 1)
    assert v0.result == v1.result == s.result
    assert v0.legal == () and v0.to_json()["result"]["points"] == 72


def test_view_bad_seat():
    """A seat other than 0 or 1 raises ValueError."""
    with pytest.raises(ValueError):
        view_of(deal(ND, DEALER_A, "5H"), 2)


def test_view_after_reshuffle_hides_new_stock_order():
    """R7.3: after a reshuffle the new stock order is hidden: the view has the count only and
    a reshuffle event without cards."""
    from helpers import STANDARD

    rules = STANDARD.replace(stock_end="reshuffle")
    s = act(deal(ND, DEALER_A, "5H", rules=rules), "pass", "pass")
    for _ in range(31):
        s = act(s, "draw stock")
        s, _ = s.apply(s.to_act, Action("discard", s.log[-1].card))
    v = view_of(s, 0)
    assert v.reshuffles == 1 and v.stock_size == 31
    assert [e for e in v.history if e.kind == "reshuffle"][0].card is None
