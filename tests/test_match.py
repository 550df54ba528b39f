"""Tests of :class:`ginrummy.match.Match`: the first dealer (R3.1), the dealer of the next deal
(R11.2), three-hand roles (R10), the score sheet fed with each deal's winner and points (R6.4,
R11.1, R11.3, R12), seeds and commitments, and errors that change nothing.

Deals are played by two deterministic policies written here: ``greedy`` (gin, else knock with
the least deadwood, else pass / draw from the stock / discard the card that leaves the least
deadwood) ends most deals quickly with a winner; ``stall`` never knocks (pass, draw from the
stock, discard the card drawn) and so plays every deal to a draw (R7.1).
"""

from __future__ import annotations

import hashlib

import pytest

from ginrummy.actions import Action, parse_action
from ginrummy.cards import mask_of, rank_of
from ginrummy.deal import deck_from_seed
from ginrummy.errors import IllegalActionError, NotYourTurnError, RuleSetError
from ginrummy.match import Match, commitment, deal_seed, draw_roles
from ginrummy.melds import deadwood
from ginrummy.rules import PRESETS
from ginrummy.scoring import ScoreSheet

NAMES2 = ["Ann", "Bob"]
NAMES3 = ["Ann", "Bob", "Cy"]


def greedy(state) -> Action:
    legal = state.legal_actions()
    for kind in ("big_gin", "gin"):
        for a in legal:
            if a.kind == kind:
                return a
    knocks = [a for a in legal if a.kind == "knock"]
    hand = state.hands[state.to_act]
    if knocks:
        return min(knocks, key=lambda a: (deadwood(hand & ~(1 << a.card)), a.card))
    if state.phase == "upcard_offer" or state.phase == "wall":
        return parse_action("pass")
    if state.phase == "draw":
        return parse_action("draw stock")
    discards = [a for a in legal if a.kind == "discard"]
    return min(discards, key=lambda a: (deadwood(hand & ~(1 << a.card)), -a.card))


def stall(state) -> Action:
    if state.phase in ("upcard_offer", "wall"):
        return parse_action("pass")
    if state.phase == "draw":
        return parse_action("draw stock")
    return Action("discard", state.log[-1].card)


def play_deal(match: Match, policy=greedy) -> None:
    while not match.deal.is_over:
        match.apply(match.player_to_act(), policy(match.deal))


def expected_results(match: Match) -> list[tuple[int | None, int]]:
    out = []
    for rec in match.deals:
        if rec.result is None:
            continue
        r = rec.result
        out.append((None, 0) if r.winner is None else (rec.seat_players[r.winner], r.points))
    return out


# -- R3.1 and seeds -------------------------------------------------------------------------------


def test_r3_1_first_dealer_random_from_seed():
    """R3.1: the first dealer is chosen at random (from the match seed): the same seed gives
    the same dealer, and over 20 seeds both seats deal first."""
    dealers = [Match.new(PRESETS["standard"], NAMES2, f"seed-{i}".encode()).deal.dealer for i in range(20)]
    assert set(dealers) == {0, 1}
    again = [Match.new(PRESETS["standard"], NAMES2, f"seed-{i}".encode()).deal.dealer for i in range(20)]
    assert dealers == again


def test_seeds_and_commitments():
    """Deal k is shuffled from SHA-256(seed || "/deal/k"); its commitment is SHA-256 of that
    deal seed in hex; the hands are dealt from that deck (R3.2)."""
    seed = b"match-seed"
    mt = Match.new(PRESETS["standard"], NAMES2, seed)
    rec = mt.record
    assert rec.number == 1
    assert rec.seed == hashlib.sha256(seed + b"/deal/1").digest() == deal_seed(seed, 1)
    assert rec.commitment == hashlib.sha256(rec.seed).hexdigest() == commitment(rec.seed)
    deck = deck_from_seed(rec.seed)
    d = mt.deal
    assert d.hands[d.non_dealer] == mask_of(deck[0:10])
    assert d.hands[d.dealer] == mask_of(deck[10:20])
    assert d.upcard == deck[20] and d.stock_size == 31
    play_deal(mt)
    mt.next_deal()
    assert mt.record.number == 2 and mt.record.seed == deal_seed(seed, 2)
    assert mt.deal.upcard == deck_from_seed(deal_seed(seed, 2))[20]


def test_same_seed_same_match_other_seed_other_deals():
    """A match replays exactly from its seed; another seed gives other deals."""
    def run(seed):
        mt = Match.new(PRESETS["standard"], NAMES2, seed)
        for _ in range(4):
            play_deal(mt)
            if mt.finished:
                break
            mt.next_deal()
        return [(r.dealer, r.seed, [a.text for _, a in r.actions], r.result) for r in mt.deals]

    assert run(b"one") == run(b"one")
    assert run(b"one")[0][1] != run(b"two")[0][1]


def test_bad_match_arguments():
    """A match has 2 or 3 players and a non-empty bytes seed."""
    with pytest.raises(RuleSetError):
        Match.new(PRESETS["standard"], ["A"], b"s")
    with pytest.raises(RuleSetError):
        Match.new(PRESETS["standard"], ["A", "B", "C", "D"], b"s")
    with pytest.raises(ValueError):
        Match.new(PRESETS["standard"], NAMES2, b"")
    with pytest.raises(RuleSetError):
        Match.new(PRESETS["hollywood"], NAMES3, b"s")  # R10.6


# -- R11.2: who deals next ----------------------------------------------------------------------------


def test_r11_2_winner_deals_next_and_same_dealer_after_draw():
    """R11.2: after a scored deal its winner deals the next one (and the other plays first);
    after a drawn deal the same dealer deals again."""
    mt = Match.new(PRESETS["standard"], NAMES2, b"r11.2")
    checked_scored = checked_draw = 0
    for k in range(10):
        policy = stall if k % 3 == 2 else greedy
        play_deal(mt, policy)
        if mt.finished:
            break
        prev = mt.deal
        mt.next_deal()
        if prev.result.winner is None:
            assert mt.deal.dealer == prev.dealer
            checked_draw += 1
        else:
            assert mt.deal.dealer == prev.result.winner
            checked_scored += 1
        assert mt.deal.to_act == 1 - mt.deal.dealer  # R3.3
    assert checked_draw >= 2 and checked_scored >= 3


def test_r11_2_alternate_option():
    """R11.2 option ``next_dealer="alternate"`` (EAAI): the deal passes to the other player
    after every scored deal, whoever won; after a draw the same dealer deals again."""
    mt = Match.new(PRESETS["eaai"], NAMES2, b"alternate")
    for k in range(8):
        policy = stall if k % 4 == 3 else greedy
        play_deal(mt, policy)
        if mt.finished:
            break
        prev = mt.deal
        mt.next_deal()
        if prev.result.winner is None:
            assert mt.deal.dealer == prev.dealer
        else:
            assert mt.deal.dealer == 1 - prev.dealer


def test_r7_1_drawn_deal_scores_nothing_and_is_recorded():
    """R7.1, R6.4: a drawn deal adds (None, 0) to the sheet; totals do not move."""
    mt = Match.new(PRESETS["standard"], NAMES2, b"draw")
    play_deal(mt, stall)
    assert mt.record.result.outcome == "draw"
    assert mt.sheet.results == ((None, 0),)
    assert mt.sheet.totals == (0, 0) and not mt.finished


# -- R11.1, R11.3, R12: the sheet ------------------------------------------------------------------------


def test_r11_3_game_to_the_end_sheet_fed_correctly():
    """R11.1 ``game``: deals until a player reaches 100; R11.3 bonuses via the sheet.  The sheet
    holds exactly each deal's (winner player, points); the winner's total is his points plus
    the game bonus (100, or 200 for a shutout) plus 25 per deal won."""
    mt = Match.new(PRESETS["standard"], NAMES2, b"a game")
    while True:
        play_deal(mt)
        if mt.finished:
            break
        mt.next_deal()
    results = expected_results(mt)
    assert list(mt.sheet.results) == results
    assert mt.sheet == ScoreSheet(mt.rules, 2, tuple(results))
    points = [sum(p for w, p in results if w == i) for i in range(2)]
    wins = [sum(1 for w, _ in results if w == i) for i in range(2)]
    winner = mt.winner
    assert points[winner] >= 100 and points[1 - winner] < 100
    game_bonus = 200 if points[1 - winner] == 0 else 100
    assert mt.sheet.totals[winner] == points[winner] + game_bonus + 25 * wins[winner]
    assert mt.sheet.totals[1 - winner] == points[1 - winner] + 25 * wins[1 - winner]
    with pytest.raises(NotYourTurnError):
        mt.apply(0, parse_action("pass"))
    with pytest.raises(IllegalActionError):
        mt.next_deal()


def test_r11_1_deal_scoring_one_scored_deal():
    """R11.1 ``deal``: one deal is the whole game; a drawn deal does not end it (R7.1)."""
    mt = Match.new(PRESETS["single"].replace(stock_end="draw_at_two"), NAMES2, b"single")
    play_deal(mt, stall)
    assert not mt.finished
    mt.next_deal()
    play_deal(mt, greedy)
    r = mt.deal.result
    assert r.winner is not None and mt.finished
    assert mt.winner == mt.seat_players[r.winner]
    assert mt.sheet.totals[mt.winner] == r.points  # the single preset has no bonuses


def test_r12_hollywood_match_sheet():
    """R12 via a match: a Hollywood match (R12.1: three games on one sheet) is played until all
    three games are finished (R12.5); the sheet is fed every deal in order and names the winner
    of two games."""
    mt = Match.new(PRESETS["hollywood"], NAMES2, b"hollywood")
    for _ in range(200):
        play_deal(mt)
        if mt.finished:
            break
        mt.next_deal()
    assert mt.finished
    results = expected_results(mt)
    assert mt.sheet == ScoreSheet(mt.rules, 2, tuple(results))
    games = mt.sheet.games
    assert len(games) == 3 and all(g.finished for g in games)
    assert sum(1 for g in games if g.winner == mt.winner) >= 2
    # R12.2: game 1 got every win, so its points are all points scored
    for i in range(2):
        assert games[0].points[i] <= sum(p for w, p in results if w == i)


@pytest.mark.parametrize("variant", ["oklahoma", "straight"])
def test_r12_6_hollywood_with_variants(variant):
    """R12.6: Hollywood scoring combines with Straight and Oklahoma gin: each deal follows the
    variant (Oklahoma: the upcard's value is the knock limit; Straight: no knock) and its result
    goes to the three-game sheet."""
    rules = PRESETS[variant].replace(scoring="hollywood")
    mt = Match.new(rules, NAMES2, b"r12.6-" + variant.encode())
    for _ in range(4):
        d = mt.deal
        expected = None if variant == "straight" else d.rules.deal_knock_limit(d.upcard)
        assert d.knock_limit == expected
        play_deal(mt)
        if mt.finished:
            break
        mt.next_deal()
    assert len(mt.sheet.games) == 3
    assert mt.sheet == ScoreSheet(rules, 2, tuple(expected_results(mt)))


# -- R10: three-hand gin ----------------------------------------------------------------------------------


def test_r10_1_role_draw():
    """R10.1: each player draws a card; highest rank (king high, ace low) is in the box, middle
    captain, lowest sits out; a tie draws again.  Checked over 60 seeds, at least one of which
    needed a second round."""
    redraws = 0
    for i in range(60):
        roles, draws = draw_roles(f"roles-{i}".encode())
        *ties, last = draws
        for t in ties:
            assert len({rank_of(x) for x in t}) < 3
        ranks = [rank_of(x) for x in last]
        assert len(set(ranks)) == 3
        box, captain, out = roles
        assert ranks[box] > ranks[captain] > ranks[out]
        assert sorted(roles) == [0, 1, 2]
        redraws += bool(ties)
    assert redraws >= 1


def test_r10_three_hand_match():
    """R10.2-R10.6 over a three-hand game: the box deals every deal (seat 0, R10.3), the captain
    is the non-dealer; after a box win the box stays and the other two swap; after a box loss
    the box sits out, the captain goes into the box and the player who sat out is captain;
    after a draw the roles stay (R10.4).  Points go to the deal winner only (R10.5); no game or
    box bonuses (R10.6)."""
    mt = Match.new(PRESETS["standard"], NAMES3, b"three-2")
    assert mt.rules.players == 3
    assert mt.roles == draw_roles(b"three-2")[0]
    seen_box_win = seen_box_loss = seen_draw = 0
    for k in range(60):
        box, captain, out = mt.roles
        assert mt.seat_players == (box, captain)
        assert mt.deal.dealer == 0 and mt.deal.to_act == 1
        assert (mt.role_of(box), mt.role_of(captain), mt.role_of(out)) == ("box", "captain", "out")
        # the player sitting out cannot act, and sees the captain's hand without legal actions
        with pytest.raises(NotYourTurnError):
            mt.apply(out, parse_action("pass"))
        v = mt.view(out)
        assert v.hand == mt.deal.hands[1] and v.legal == ()
        play_deal(mt, stall if k % 5 == 4 else greedy)
        if mt.finished:
            break
        r = mt.deal.result
        mt.next_deal()
        if r.winner is None:
            assert mt.roles == (box, captain, out)
            seen_draw += 1
        elif r.winner == 0:
            assert mt.roles == (box, out, captain)
            seen_box_win += 1
        else:
            assert mt.roles == (captain, out, box)
            seen_box_loss += 1
    assert mt.finished
    assert seen_box_win and seen_box_loss and seen_draw
    results = expected_results(mt)
    assert mt.sheet == ScoreSheet(mt.rules, 3, tuple(results))
    points = [sum(p for w, p in results if w == i) for i in range(3)]
    assert mt.sheet.totals == tuple(points)  # R10.6: no bonuses
    assert points[mt.winner] >= 100


# -- errors ---------------------------------------------------------------------------------------------------


def test_match_errors_change_nothing():
    """A player out of turn gets NotYourTurnError, an illegal action IllegalActionError (with
    the legal ones); the deal, its record and the sheet are unchanged.  ``next_deal`` while the
    deal is on raises IllegalActionError."""
    mt = Match.new(PRESETS["standard"], NAMES2, b"errors")
    to_act = mt.player_to_act()
    other = 1 - to_act
    before = (mt.deal, list(mt.record.actions), mt.sheet, len(mt.deals))
    with pytest.raises(NotYourTurnError):
        mt.apply(other, parse_action("pass"))
    with pytest.raises(IllegalActionError) as err:
        mt.apply(to_act, parse_action("draw stock"))
    assert set(err.value.legal) == {"take upcard", "pass"}
    with pytest.raises(NotYourTurnError):
        mt.apply(7, parse_action("pass"))
    for bad in ("Ann", None, -1):  # bad input never crashes with a TypeError
        with pytest.raises(NotYourTurnError):
            mt.apply(bad, parse_action("pass"))
        with pytest.raises(ValueError):
            mt.view(bad)
    with pytest.raises(IllegalActionError):
        mt.next_deal()
    assert (mt.deal, list(mt.record.actions), mt.sheet, len(mt.deals)) == before
    with pytest.raises(ValueError):
        mt.view(2)


def test_advance_after_the_deal_engine_equals_apply():
    """Match.advance(seat, action, deal.apply(seat, action)[0]) records and scores exactly as
    Match.apply does (R6, R11): same records, results, sheet and next dealer over a game."""
    rules = PRESETS["standard"].replace(scoring="game", target=60)
    a = Match.new(rules, NAMES2, b"advance")
    b = Match.new(rules, NAMES2, b"advance")
    while not a.finished:
        if a.deal.is_over:
            a.next_deal()
            b.next_deal()
        action = greedy(a.deal)
        a.apply(a.player_to_act(), action)
        seat = b.deal.to_act
        b.advance(seat, action, b.deal.apply(seat, action)[0])
    assert b.finished and len(b.deals) == len(a.deals) > 1
    assert [r.actions for r in b.deals] == [r.actions for r in a.deals]
    assert [r.result for r in b.deals] == [r.result for r in a.deals]
    assert b.sheet.totals == a.sheet.totals and b.winner == a.winner and b.sheet.finished


def test_view_of_a_later_state_of_the_deal_is_the_view_after_applying() -> None:
    """``Match.view(player, deal)``: the view of a state tried but not applied (the web table's
    look-ahead at the computer's answer) equals the view after applying it; nothing changes."""
    m = Match.new(PRESETS["standard"], ["Ann", "Bob"], b"\x07" * 32)
    p = m.player_to_act()
    seat = m.seat_of(p)
    action = m.deal.legal_actions()[0]
    before = m.view(p)
    new, _ = m.deal.apply(seat, action)
    other = m.seat_players[new.to_act]
    ahead = m.view(other, new)
    assert m.view(p) == before  # nothing applied
    m.apply(p, action)
    assert ahead == m.view(other)
    assert ahead.legal == m.view(other).legal and ahead.legal


def test_play_out_plays_to_the_end_or_for_so_many_actions_and_refuses_bad_arguments():
    import random

    from ginrummy.errors import IllegalActionError
    from ginrummy.players import make_player

    rules = PRESETS["eaai"].replace(target=25)
    m = Match.new(rules, ["a", "b"], b"play-out")
    players = [make_player("novice", random.Random(1)), make_player("club", random.Random(2))]
    for bad, text in [([players[0]], "one chooser a player: 2, not 1"), (players * 2, "2, not 4"), ([], "2, not 0")]:
        with pytest.raises(ValueError, match=text):
            m.play_out(bad)
    for bad_max in (-1, "3", 2.0, True):
        with pytest.raises(ValueError, match="max_actions must be None or an int >= 0"):
            m.play_out(players, max_actions=bad_max)
    assert m.deals[0].actions == []  # nothing was played
    assert m.play_out(players, max_actions=3) == 3 and len(m.deals[0].actions) == 3
    assert m.play_out(players, max_actions=0) == 0
    rest = m.play_out(players)
    assert m.finished and rest > 0 and m.play_out(players) == 0
    # the same seed and players' seeds give the same match, played in one go
    m2 = Match.new(rules, ["a", "b"], b"play-out")
    n2 = m2.play_out([make_player("novice", random.Random(1)), make_player("club", random.Random(2))])
    assert n2 == 3 + rest and [d.actions for d in m2.deals] == [d.actions for d in m.deals]

    class Illegal:
        def choose(self, view, legal):
            return Action("knock", 0)

    m3 = Match.new(rules, ["a", "b"], b"play-out")
    with pytest.raises(IllegalActionError):
        m3.play_out([Illegal(), Illegal()])
    assert m3.deals[0].actions == []
