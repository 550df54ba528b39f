"""A planted blunder for the replay viewer's review tests (issue 15): a deal between two seeded
novices where, at move 38, Bob draws from the stock although the top discard gives him gin
(R6.1), the record written as a deal script (``docs/record-format.md``)."""

from __future__ import annotations

from ginrummy.actions import Action
from ginrummy.deal import deck_from_seed, new_deal
from ginrummy.melds import best_discard_deadwood
from ginrummy.players import make_player
from ginrummy.record import dumps_deal
from ginrummy.rules import preset
from ginrummy.views import view_of

PLANTED_INDEX = 38
"""The planted decision's action number in the deal (1-based, every action counted)."""


def _gin_card(st, v) -> bool:
    return (
        st.phase == "draw"
        and Action("take_discard") in v.legal
        and best_discard_deadwood(st.hands[st.to_act] | 1 << st.pile[-1]) == 0
    )


def planted_record(scoring: str = "standard") -> str:
    """The record's text: deck ``plant119``, dealer seat 1, novices 1 and 2, the first draw where
    the top discard gives gin played ``draw stock`` (action :data:`PLANTED_INDEX`)."""
    rules = preset(scoring)
    deck = deck_from_seed(b"plant119")
    st = new_deal(rules, 1, deck)
    players = [make_player("novice", 1), make_player("novice", 2)]
    actions, planted = [], None
    while not st.is_over:
        seat = st.to_act
        v = view_of(st, seat)
        a = players[seat].choose(v, v.legal)
        if planted is None and _gin_card(st, v):
            a, planted = Action("draw_stock"), len(actions) + 1
        actions.append((seat, a))
        st, _ = st.apply(seat, a)
    assert planted == PLANTED_INDEX
    return dumps_deal(rules, 1, deck, actions, names=("Ann", "Bob"))
