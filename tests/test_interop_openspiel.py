"""Tests of the OpenSpiel bridge: card and meld encodings, the seat observer (it reads only its
seat's observation), and whole deals of our players inside OpenSpiel's gin_rummy."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from ginrummy.actions import PASS, TAKE_UPCARD, Action  # noqa: E402
from ginrummy.cards import mask_of, parse_card, parse_cards  # noqa: E402
from ginrummy.interop.openspiel import (  # noqa: E402
    SeatObserver,
    card_to_os,
    meld_table,
    os_to_card,
    play_deal,
    play_deals,
    play_indexed_deal,
)
from ginrummy.melds import is_meld  # noqa: E402
from ginrummy.players import make_player  # noqa: E402

GAME = pyspiel.load_game("gin_rummy")
OS_RANKS, OS_SUITS = "A23456789TJQK", "scdh"


def os_card(text: str) -> int:
    """OpenSpiel's int of a card written as ours (e.g. "AS")."""
    return card_to_os(parse_card(text))


def test_card_encoding():
    # OpenSpiel: suit * 13 + rank, suits s c d h; ours: suits C D H S
    assert os_to_card(0) == parse_card("AS")
    assert os_to_card(13) == parse_card("AC")
    assert os_to_card(26 + 9) == parse_card("TD")
    assert os_to_card(51) == parse_card("KH")
    assert sorted(os_to_card(c) for c in range(52)) == list(range(52))
    assert all(os_to_card(card_to_os(c)) == c for c in range(52))
    st = GAME.new_initial_state()
    for c in (0, 17, 35, 51):
        text = st.action_to_string(0, c).rsplit(" ", 1)[-1]
        assert os_to_card(c) == parse_card(text[0] + text[1].upper())


def test_meld_table():
    table = meld_table()
    assert len(table) == 185
    assert all(is_meld(m) for m in table)
    assert len(set(table)) == 185
    assert table[0] == mask_of(parse_cards("AC AD AH"))


def _deal_state(p0: str, p1: str, upcard: str, stock: str):
    """An OpenSpiel state after the deal: p0 gets the first ten chance cards, p1 the next ten,
    then the upcard; ``stock`` lists the next stock cards (they are dealt as drawn)."""
    st = GAME.new_initial_state()
    for t in parse_cards(p0) + parse_cards(p1) + [parse_card(upcard)]:
        st.apply_action(card_to_os(t))
    return st, [card_to_os(x) for x in parse_cards(stock)]



def test_observer_builds_the_view_from_observations():
    p0 = "AC 2C 3C 5D 6D 9H TH JS QS KS"
    st, stock = _deal_state(p0, "7C 7D 4S 6S 8S 9C 9D 2H 3H KC", "7H", "5S 8D QD")
    ob = SeatObserver(0)
    ob.observe(st)
    view, mapping = ob.view(st)
    assert view.phase == "upcard_offer" and view.hand == mask_of(parse_cards(p0))
    assert view.top_discard == parse_card("7H") and view.stock_size == 31
    assert set(view.legal) == {TAKE_UPCARD, PASS}
    assert mapping[TAKE_UPCARD] == [52] and mapping[PASS] == [54]
    # seat 0 passes; seat 1 takes 7H (7C 7D 7H) and discards KC
    for a in (54, 52, os_card("KC")):
        st.apply_action(a)
        ob.observe(st)
    assert ob.known_opp == mask_of([parse_card("7H")])
    view, mapping = ob.view(st)
    assert view.phase == "draw" and view.top_discard == parse_card("KC")
    assert [e.kind for e in view.history] == ["pass", "take_upcard", "discard"]
    assert view.opponent_seen == mask_of([parse_card("7H")])
    # seat 0 draws 5S from the stock and may discard it at once (tournament rules, R4.3)
    st.apply_action(53)
    ob.observe(st)
    st.apply_action(stock[0])
    ob.observe(st)
    view, mapping = ob.view(st)
    assert view.phase == "discard" and (view.hand >> parse_card("5S")) & 1
    assert view.history[-1].kind == "draw_stock" and view.history[-1].card == parse_card("5S")
    assert Action("discard", parse_card("5S")) in view.legal


def test_observer_sees_only_its_seat():
    # two deals that differ only in seat 1's hand and the stock give seat 0 the same view
    a, _ = _deal_state("AC 2C 3C 5D 6D 9H TH JS QS KS", "7C 7D 4S 6S 8S 9C 9D 2H 3H KC", "7H", "")
    b, _ = _deal_state("AC 2C 3C 5D 6D 9H TH JS QS KS", "8C 8D 4D 6C 8H 9S 4H 2D 3D KD", "7H", "")
    views = []
    for st in (a, b):
        ob = SeatObserver(0)
        ob.observe(st)
        views.append(ob.view(st)[0])
    assert views[0] == views[1]
    assert make_player("club", 3).choose(views[0], views[0].legal) == make_player("club", 3).choose(views[1], views[1].legal)


@pytest.mark.parametrize("level", ["novice", "club"])
def test_whole_deals_against_the_simple_bot(level):
    stats = play_deals(level, 6, seed=4)
    assert stats.deals == 6 and stats.won + stats.lost + stats.drawn == 6


def test_expert_plays_inside_openspiel():
    from ginrummy.players.expert import ExpertPlayer

    rng = random.Random(2)
    for seat in (0, 1):
        bot = pyspiel.make_simple_gin_rummy_bot(GAME.get_parameters(), 1 - seat)
        ours, theirs = play_deal(GAME, ExpertPlayer(random.Random(seat), budget_ms=None, samples=8), seat, bot, rng)
        assert ours == -theirs


def test_deals_are_seeded_by_number_so_shards_match():
    # each deal depends on (seed, index) alone: deals 2..4 played on their own are deals 2..4 of a run
    whole: list[tuple[int, float, float]] = []
    part: list[tuple[int, float, float]] = []
    play_deals("novice", 5, seed=7, on_deal=lambda i, a, b: whole.append((i, a, b)))
    stats = play_deals("novice", 3, seed=7, start=2, on_deal=lambda i, a, b: part.append((i, a, b)))
    assert part == whole[2:] and stats.deals == 3
    assert [play_indexed_deal("novice", 7, i) for i in range(5)] == [(a, b) for _, a, b in whole]
    with pytest.raises(ValueError, match="start"):
        play_deals("novice", 1, start=-1)
