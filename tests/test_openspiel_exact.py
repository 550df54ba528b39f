"""The OpenSpiel mode (issue 36, item 1): rule options that play OpenSpiel's ``gin_rummy``
exactly (R5.6, R6.3, R7.2, R7.4, R7.5), the replay of OpenSpiel games through them, and the
pyspiel game ``python_ginrummy`` over the engine.  The full agreement run (10,000 random games,
2,000 of the simple bot) is ``benchmarks/openspiel_exact.py``; here a bounded sample."""

from __future__ import annotations

import random

import pytest

from ginrummy.actions import PASS, TAKE_DISCARD, TAKE_UPCARD, discard, gin, layout_action, meld, parse_action
from ginrummy.cards import mask_of
from ginrummy.deal import LAYOFF, LAYOUT, OVER, WALL, deck_from_seed, new_deal
from ginrummy.rules import RuleSet, preset

STD = preset("standard")


def test_repeated_move_ends_the_deal_only_with_the_option():
    """R7.4: the card just taken thrown back, twice in a row, ends the deal as a draw."""
    rules = STD.replace(discard_taken_card=True, repeated_move_ends=True)
    s = new_deal(rules, 1, list(range(52)))
    s, _ = s.apply(0, TAKE_UPCARD)
    s, _ = s.apply(0, discard(20))  # 8D back: one repeated move
    assert s.phase == "draw" and s.repeat is True
    s, _ = s.apply(1, TAKE_DISCARD)
    s, _ = s.apply(1, discard(20))
    assert s.phase == OVER and s.result.reason == "R7.4" and s.result.winner is None
    plain = new_deal(STD.replace(discard_taken_card=True), 1, list(range(52)))
    for seat, a in ((0, TAKE_UPCARD), (0, discard(20)), (1, TAKE_DISCARD), (1, discard(20))):
        plain, _ = plain.apply(seat, a)
    assert plain.phase == "draw" and plain.to_act == 0


def test_limit_of_discard_takes_ends_the_deal_before_the_take():
    """R7.5: the max_pile_takes-th take of a discard in a draw ends the deal; the upcard offer
    does not count."""
    rules = STD.replace(max_pile_takes=2)
    s = new_deal(rules, 1, list(range(52)))
    s, _ = s.apply(0, TAKE_UPCARD)  # the offer: not counted
    s, _ = s.apply(0, discard(0))
    s, _ = s.apply(1, TAKE_DISCARD)  # 1
    s, _ = s.apply(1, discard(10))
    assert s.pile_takes == 1 and s.phase == "draw"
    hand = s.hands[0]
    s, ev = s.apply(0, TAKE_DISCARD)  # 2: the deal ends, the card stays on the pile
    assert s.phase == OVER and s.result.reason == "R7.5" and s.hands[0] == hand and s.pile[-1] == 10
    assert [e.kind for e in ev] == ["end"]


def _to_the_wall(rules: RuleSet, seed: bytes):
    s = new_deal(rules, 1, deck_from_seed(seed))
    s, _ = s.apply(0, PASS)
    s, _ = s.apply(1, PASS)
    while s.phase not in (OVER, WALL):
        seat = s.to_act
        s, ev = s.apply(seat, layout_action(0))
        s, _ = s.apply(seat, discard(ev[0].card))
    return s


def test_forced_pass_at_the_wall():
    """R7.2 with wall_forced_pass: the wall is offered even when no knock is possible, and
    pass is then the only action; without it the deal ends at once."""
    rules = STD.replace(stock_end="wall", discard_taken_card=True)
    plain = _to_the_wall(rules, b"wall-1")
    assert plain.phase == OVER and plain.result.reason == "R7.2"
    s = _to_the_wall(rules.replace(wall_forced_pass=True), b"wall-1")
    assert s.phase == WALL and s.legal_actions() == [PASS]
    s, _ = s.apply(s.to_act, PASS)
    assert s.phase == OVER and s.result.reason == "R7.2"


def test_layout_as_decisions():
    """R5.6: after gin the knocker lays his melds one by one and passes; the defender (no
    layoffs on gin, R5.4) lays his melds and passes; the score counts what each kept out."""
    rules = STD.replace(discard_taken_card=True, layout="players")
    s = new_deal(rules, 1, list(range(52)))  # seat 0: AC..TC; seat 1: JC QC KC AD..7D; upcard 8D
    s, _ = s.apply(0, TAKE_UPCARD)
    s, _ = s.apply(0, gin(20))
    assert s.phase == LAYOUT and s.to_act == 0 and PASS not in s.legal_actions()
    assert meld(mask_of(range(0, 5))) in s.legal_actions() and meld(mask_of(range(0, 6))) not in s.legal_actions()
    s, _ = s.apply(0, parse_action("meld AC 2C 3C 4C 5C"))
    s, _ = s.apply(0, parse_action("meld 6C 7C 8C 9C TC"))
    assert s.legal_actions() == [PASS]
    s, _ = s.apply(0, PASS)
    assert s.phase == LAYOFF and s.to_act == 1 and s.layoffs_done
    s, _ = s.apply(1, parse_action("meld JC QC KC"))
    s, _ = s.apply(1, parse_action("meld AD 2D 3D 4D 5D"))
    s, _ = s.apply(1, PASS)
    assert s.phase == OVER and (s.result.outcome, s.result.winner, s.result.points) == ("gin", 0, 25 + 13)


def test_openspiel_rules_fields():
    from ginrummy.interop.openspiel import OPENSPIEL_RULES

    r = OPENSPIEL_RULES
    assert (r.tie, r.wall_forced_pass, r.repeated_move_ends, r.max_pile_takes, r.layout) == \
        ("nothing", True, True, 50, "players")
    assert "tie" not in STD.to_dict() and r.to_dict()["max_pile_takes"] == 50


def _pyspiel():
    """pyspiel, or a skip when open-spiel is not installed (the engine tests above need none)."""
    return pytest.importorskip("pyspiel")


def _os_game(game, seed: int):
    rng = random.Random(seed)
    st = game.new_initial_state()
    hist, ch, leg = [], [], []
    while not st.is_terminal():
        legal = None if st.is_chance_node() else st.legal_actions()
        a = rng.choice([x for x, _ in st.chance_outcomes()] if legal is None else legal)
        hist.append(a), ch.append(legal is None), leg.append(legal)
        st.apply_action(a)
    return hist, ch, leg, st.returns()


def test_random_openspiel_games_replay_exactly():
    """200 random OpenSpiel games: the same legal actions at every decision, the same returns."""
    from ginrummy.interop.openspiel_exact import replay

    game = _pyspiel().load_game("gin_rummy")
    bad = [(i, d) for i in range(200) for d in [replay(*_os_game(game, i))] if d]
    assert bad == []


def test_from_openspiel_takes_pyspiel_phase_enum():
    from ginrummy.interop.action_maps import from_openspiel, to_openspiel

    P = _pyspiel().gin_rummy.Phase
    assert from_openspiel([53], P.DRAW) == 0 and from_openspiel([54], P.FIRST_UPCARD) == 3
    assert to_openspiel(1, P.WALL) == (55,)
    with pytest.raises(ValueError, match="unknown phase"):
        from_openspiel([53], P.GAME_OVER)


@pytest.mark.parametrize("params", [{}, {"preset": "standard"}, {"preset": "oklahoma"}, {"preset": "straight"},
                                    {"preset": "single", "overrides": "big_gin_bonus=31"}])
def test_pyspiel_game_random_sim_test(params):
    pyspiel = _pyspiel()
    from ginrummy.interop import spiel_game

    game = pyspiel.load_game(spiel_game.SHORT_NAME, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    assert game.num_distinct_actions() == 398


def test_envs_offer_the_layout_decisions():
    from ginrummy.env.core import GameCore, make_env_rules
    from ginrummy.interop.openspiel import OPENSPIEL_ENGINE_LAYOUT, OPENSPIEL_RULES

    assert make_env_rules(OPENSPIEL_RULES).layout == "players"  # issue 36: no longer refused
    assert GameCore(OPENSPIEL_RULES).num_codes == 398
    assert make_env_rules(OPENSPIEL_ENGINE_LAYOUT).max_pile_takes == 50


def _tie_deck() -> list[int]:
    from ginrummy.cards import parse_cards

    nd = parse_cards("AC 2C 3C 4D 5D 6D 7H 8H 9H KS")  # seat 0, the non-dealer
    dl = parse_cards("TD JD QD KD 5S 6S 7S 8S AH AS")  # seat 1: deadwood AH AS, 2, nothing to lay off
    up = parse_cards("2S")
    used = set(nd + dl + up)
    return nd + dl + up + [c for c in range(52) if c not in used]


@pytest.mark.parametrize("layout", ["engine", "players"])
def test_a_tie_after_a_knock_scores_nothing_with_the_option(layout):
    """R6.3: K = D = 2 is an undercut by default (25 to the defender) and nothing with
    tie="nothing", whoever makes the layout (R5.2-R5.5 or R5.6)."""
    from ginrummy.cards import parse_cards

    def play(rules):
        s = new_deal(rules, 1, _tie_deck())
        s, _ = s.apply(0, TAKE_UPCARD)
        s, _ = s.apply(0, parse_action("knock KS"))
        if layout == "players":
            for m in ("AC 2C 3C", "4D 5D 6D", "7H 8H 9H"):
                s, _ = s.apply(0, parse_action("meld " + m))
            s, _ = s.apply(0, PASS)
            assert s.legal_actions() == [PASS]  # nothing to lay off
            s, _ = s.apply(1, PASS)
            for m in ("TD JD QD KD", "5S 6S 7S 8S"):
                s, _ = s.apply(1, meld(mask_of(parse_cards(m))))
            s, _ = s.apply(1, PASS)
        return s.result

    base = STD.replace(layout=layout)
    r = play(base)
    assert (r.outcome, r.winner, r.points) == ("undercut", 1, 25)
    r = play(base.replace(tie="nothing"))
    assert (r.outcome, r.winner, r.points, r.knocker, r.reason) == ("draw", None, 0, 0, "R6.3")
