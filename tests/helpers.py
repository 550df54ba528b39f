"""Shared helpers of the rule tests: build a deal from text, play scripted actions.

A deal script names the cards that matter as text (R1.4) and lets the rest of the deck be
filled deterministically: :func:`build_deck` puts the non-dealer's ten cards at deck[0:10], the
dealer's at deck[10:20], the upcard at deck[20] and the given top of the stock at deck[21:],
then appends every other card in ascending card order (clubs A..K, diamonds, hearts, spades),
which is the layout :func:`ginrummy.deal.new_deal` reads (R3.2).
"""

from __future__ import annotations

from ginrummy.actions import Action, parse_action
from ginrummy.cards import mask_of, parse_card, parse_cards
from ginrummy.deal import DealState, new_deal
from ginrummy.rules import RuleSet

STANDARD = RuleSet(name="standard")


def c(text: str) -> int:
    """One card from text, e.g. ``c("TD")``."""
    return parse_card(text)


def m(text: str) -> int:
    """A card-set mask from text, e.g. ``m("AS 2S 3S")``."""
    return mask_of(parse_cards(text))


def build_deck(non_dealer: str, dealer: str, upcard: str, stock: str = "", rest: str = "") -> list[int]:
    """The 52-card deck of a scripted deal (R3.2).

    ``non_dealer`` and ``dealer`` are ten cards each, ``upcard`` one card, ``stock`` the first
    cards of the stock, top first.  ``rest`` optionally lists cards to place right after
    ``stock`` (for readability only; it is the same as appending them to ``stock``).  Every other
    card follows in ascending card order.  Raises ``ValueError`` if a hand is not ten cards or a
    card is repeated.
    """
    nd = parse_cards(non_dealer)
    dl = parse_cards(dealer)
    if len(nd) != 10 or len(dl) != 10:
        raise ValueError(f"hands must be 10 cards, got {len(nd)} and {len(dl)}")
    head = nd + dl + [parse_card(upcard)] + parse_cards(stock) + parse_cards(rest)
    if len(set(head)) != len(head):
        raise ValueError("a card is given twice in the deal script")
    used = set(head)
    return head + [x for x in range(52) if x not in used]


def deal(non_dealer: str, dealer: str, upcard: str, stock: str = "", *, rules: RuleSet = STANDARD,
         dealer_seat: int = 1) -> DealState:
    """A new deal from a script (see :func:`build_deck`); by default seat 1 deals, so seat 0
    is the non-dealer and acts first (R3.3)."""
    return new_deal(rules, dealer_seat, build_deck(non_dealer, dealer, upcard, stock))


def act(state: DealState, *texts: str | Action) -> DealState:
    """Apply actions in order, each by the seat to act; text forms are parsed."""
    for t in texts:
        a = parse_action(t) if isinstance(t, str) else t
        assert state.to_act is not None, f"deal is over before {a.text}"
        state, _ = state.apply(state.to_act, a)
    return state


def legal_texts(state: DealState) -> set[str]:
    """The text forms of the legal actions now."""
    return {a.text for a in state.legal_actions()}


def snapshot(state: DealState) -> tuple:
    """Everything that can change in a deal, for before/after comparisons."""
    return (state.hands, state.pile, state.stock, state.drawn, state.phase, state.to_act, state.taken,
            state.stock_only, state.must_knock, state.seen, state.result, state.turn, state.log,
            state.offer_passes, state.reshuffles)
