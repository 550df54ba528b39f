"""Swiss and arena tournaments (ginrummy.compete.swiss, .arena, .tournament): pairings,
byes, tie-breaks, streaks, the state machine and its JSON events; property tests."""

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.compete import CompeteError
from ginrummy.compete.arena import arena_pairs, arena_points, arena_standings
from ginrummy.compete.swiss import RESULTS, Game, pair_round, points_of, standings
from ginrummy.compete.tournament import Tournament


def test_first_round_pairs_neighbours_and_byes_the_last():
    g = pair_round(["a", "b", "c", "d", "e"], [], 1)
    assert [(x.a, x.b) for x in g] == [("a", "b"), ("c", "d"), ("e", None)]


def test_second_round_avoids_repeats_and_second_bye():
    r1 = [Game(1, "a", "b", "a"), Game(1, "c", "d", "a"), Game(1, "e", None)]
    g = pair_round(["a", "b", "c", "d", "e"], r1, 2)
    # scores a1 c1 e1 b0 d0: the bye goes to d (lowest without one), then a-c, e-b
    assert [(x.a, x.b) for x in g] == [("a", "c"), ("e", "b"), ("d", None)]


def test_backtracking_finds_the_only_pairing_without_repeat():
    # 4 players, after two rounds the third must be the one perfect matching left
    games = [Game(1, "a", "b", "a"), Game(1, "c", "d", "a"), Game(2, "a", "c", "a"), Game(2, "b", "d", "a")]
    g = pair_round(["a", "b", "c", "d"], games, 3)
    assert sorted(tuple(sorted((x.a, x.b))) for x in g) == [("a", "d"), ("b", "c")]


def test_standings_buchholz_then_sonneborn_berger():
    games = [Game(1, "a", "b", "a"), Game(1, "c", "d", "draw"), Game(2, "a", "c", "b"), Game(2, "b", "d", "a")]
    rows = standings(["a", "b", "c", "d"], games)
    # scores: a 1, b 1, c 1.5, d 0.5
    assert [(r.rank, r.player, r.score, r.buchholz, r.sonneborn_berger, r.wins, r.games) for r in rows] == [
        (1, "c", 1.5, 1.5, 1.25, 1, 2), (2, "a", 1.0, 2.5, 1.0, 1, 2), (3, "b", 1.0, 1.5, 0.5, 1, 2),
        (4, "d", 0.5, 2.5, 0.75, 0, 2)]


def test_ties_share_a_rank():
    rows = standings(["a", "b"], [Game(1, "a", "b", "draw")])
    assert [(r.rank, r.player) for r in rows] == [(1, "a"), (1, "b")]


def _play_swiss(n, rounds, outcomes):
    players = [f"p{i}" for i in range(n)]
    games = []
    it = iter(outcomes)
    for r in range(1, rounds + 1):
        new = pair_round(players, games, r)
        games += [Game(g.round, g.a, g.b, None if g.b is None else next(it, "a")) for g in new]
    return players, games


def _repeat_free_exists(active, met, had_bye):
    """Brute force: a pairing of ``active`` with no repeat and a bye (if odd) to one without."""
    def perfect(ps):
        if not ps:
            return True
        first = ps[0]
        return any(frozenset((first, o)) not in met and perfect([x for x in ps[1:] if x != o]) for o in ps[1:])
    if len(active) % 2 == 0:
        return perfect(active)
    return any(perfect([p for p in active if p != c]) for c in active if c not in had_bye)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 9), rounds=st.integers(1, 8), outcomes=st.lists(st.sampled_from(RESULTS), max_size=40))
def test_swiss_properties(n, rounds, outcomes):
    rounds = min(rounds, n if n % 2 else n - 1)
    players, games = _play_swiss(n, rounds, outcomes)
    byes = [g.a for g in games if g.b is None]
    assert len(byes) == len(set(byes))  # at most one bye each
    met: set = set()
    had_bye: set = set()
    for r in range(1, rounds + 1):
        this = [g for g in games if g.round == r]
        assert sorted(p for g in this for p in (g.a, g.b) if p is not None) == sorted(players)
        pairs = [frozenset((g.a, g.b)) for g in this if g.b is not None]
        if any(p in met for p in pairs):  # a repeat only when none could be avoided
            assert not _repeat_free_exists(players, met, had_bye)
        met |= set(pairs)
        had_bye |= {g.a for g in this if g.b is None}
    rows = standings(players, games)
    expected = sum(sum(points_of(g)) for g in games)
    assert sum(r.score for r in rows) == expected
    assert expected == len(byes) + sum(1 for g in games if g.b is not None and g.result != "forfeit_both")
    assert sum(r.buchholz for r in rows) == sum(
        {r.player: r.score for r in rows}[o] for g in games if g.b is not None for o in (g.a, g.b))


def test_arena_points_streak_as_described():
    assert arena_points(["win", "win", "draw"]) == ([2, 2, 2], False)
    assert arena_points(["win", "win", "win", "win", "loss", "win"]) == ([2, 2, 4, 4, 0, 2], False)
    assert arena_points(["win", "win"]) == ([2, 2], True)
    with pytest.raises(ValueError, match="one of win, draw, loss"):
        arena_points(["bye"])


def test_arena_pairs_near_score_avoiding_the_last_opponent():
    pts = {"a": 8, "b": 6, "c": 6, "d": 0, "e": 2}
    assert arena_pairs(["d", "c", "b", "a", "e"], pts, {"a": "b", "b": "a"}, "abcde") == [("a", "c"), ("b", "e")]


def test_arena_standings_rank_by_points_then_per_game():
    rows = arena_standings(["a", "b", "c"], {"a": ["win", "loss", "win"], "b": ["win", "win"], "c": []})
    assert [(r.rank, r.player, r.points, r.games, r.wins, r.streak) for r in rows] == [
        (1, "b", 4, 2, 2, True), (2, "a", 4, 3, 2, False), (3, "c", 0, 0, 0, False)]


START = "2025-03-14T18:00:00+00:00"


def test_swiss_tournament_life_and_replay_from_json():
    t = Tournament.create({"name": "Friday", "kind": "swiss", "start": START, "rounds": 9})
    with pytest.raises(CompeteError, match="^the tournament is not open for entries yet$"):
        t.join("ann")
    t.open()
    for p in ("ann", "bob", "cy"):
        t.join(p)
    with pytest.raises(CompeteError, match="ann has already entered"):
        t.join("ann")
    t.start(START)
    assert t.rounds == 3  # three players: at most three rounds, one bye each
    ev = t.pair()
    assert ev == {"type": "paired", "round": 1, "games": [{"id": "1-1", "a": "ann", "b": "bob"},
                                                          {"id": "1-2", "a": "cy", "b": None}]}
    with pytest.raises(CompeteError, match="round 1 is still in play"):
        t.pair()
    with pytest.raises(CompeteError, match="no game 1-2 in play"):
        t.result("1-2", "a")
    t.result("1-1", "b", START)
    t.pair()
    for gid in t.in_play():
        t.result(gid, "a", START)
    t.pair()
    for gid in t.in_play():
        t.result(gid, "draw", START)
    with pytest.raises(CompeteError, match="all 3 rounds have been played"):
        t.pair()
    t.finish(START)
    assert t.state == "finished"
    again = Tournament.replay(json.loads(json.dumps(t.events)))
    assert again.events == t.events
    assert [r.to_json() for r in again.swiss_table()] == [r.to_json() for r in t.swiss_table()]
    assert [(r.rank, r.player, r.score) for r in t.swiss_table()] == [(1, "bob", 3.0), (2, "ann", 1.5), (2, "cy", 1.5)]
    byes = [g.a for g in t.games if g.b is None]
    assert sorted(byes) == ["ann", "bob", "cy"]


def test_withdrawn_player_is_not_paired_again():
    t = Tournament.create({"name": "W", "kind": "swiss", "start": START, "rounds": 3})
    t.open()
    for p in "abcd":
        t.join(p)
    t.start(START)
    t.pair()
    t.withdraw("d")
    t.result("1-2", "forfeit_b", START)  # c against d: d's game forfeited
    t.result("1-1", "a", START)
    ev = t.pair()
    assert all("d" not in (g["a"], g["b"]) for g in ev["games"])
    with pytest.raises(CompeteError, match="d has not entered"):
        t.withdraw("d")


def test_arena_pairs_free_players_and_counts_only_games_ended_in_time():
    t = Tournament.create({"name": "A", "kind": "arena", "start": START, "minutes": 30})
    t.open()
    for p in "abc":
        t.join(p)
    t.start(START)
    ev = t.pair_free("2025-03-14T18:00:01+00:00")
    assert ev["games"] == [{"id": "g1", "a": "a", "b": "b"}]
    assert t.free() == ["c"]
    t.result("g1", "a", "2025-03-14T18:10:00+00:00")
    ev = t.pair_free("2025-03-14T18:10:00+00:00")
    assert ev["games"] == [{"id": "g2", "a": "a", "b": "c"}]
    t.result("g2", "b", "2025-03-14T18:31:00+00:00")  # after the end: not counted
    assert t.pair_free("2025-03-14T18:30:00+00:00") is None
    with pytest.raises(CompeteError, match="the arena ends at 2025-03-14T18:30:00"):
        t.finish("2025-03-14T18:29:00+00:00")
    t.finish("2025-03-14T18:31:00+00:00")
    assert [(r.player, r.points) for r in t.arena_table()] == [("a", 2), ("b", 0), ("c", 0)]
    assert Tournament.replay(t.events).events == t.events


def test_settings_are_bounded():
    from pydantic import ValidationError
    with pytest.raises(ValidationError):
        Tournament.create({"name": "", "kind": "swiss", "start": START})
    with pytest.raises(ValidationError):
        Tournament.create({"name": "x", "kind": "knockout", "start": START})
    with pytest.raises(ValidationError):
        Tournament.create({"name": "x", "kind": "swiss", "start": START, "rounds": 16})


def test_sixty_four_players_five_rounds_no_repeat():
    players, games = _play_swiss(64, 5, itertools.cycle(["a", "b", "draw"]))
    pairs = [frozenset((g.a, g.b)) for g in games if g.b is not None]
    assert len(pairs) == 160 and len(set(pairs)) == 160


def test_a_refusal_translates_and_changes_nothing():
    from ginrummy.i18n import translate_error, translator
    t = Tournament.create({"name": "F", "kind": "swiss", "start": START, "max_players": 2})
    t.open()
    t.join("ann")
    t.join("bob")
    before = list(t.events)
    with pytest.raises(CompeteError) as info:
        t.join("cy")
    assert t.events == before and t.players == ["ann", "bob"]
    assert translate_error(info.value, translator("fi")) == "turnaus on täynnä: enintään 2 pelaajaa"


def test_a_swiss_finishes_early_when_fewer_than_two_are_still_in():
    t = Tournament.create({"name": "t", "kind": "swiss", "start": "2026-12-04T12:00:00+00:00", "rounds": 3})
    t.open()
    for p in "abc":
        t.join(p)
    t.start("2026-12-04T12:00:00+00:00")
    t.pair()  # a-b, c a bye
    t.result("1-1", "a")
    with pytest.raises(CompeteError):
        t.finish("2026-12-04T12:30:00+00:00")  # round 1 of 3, three still in
    t.withdraw("b")
    t.withdraw("c")
    assert t.finish("2026-12-04T12:31:00+00:00") == {"type": "finished", "at": "2026-12-04T12:31:00+00:00"}
    assert t.state == "finished" and [r.player for r in t.swiss_table()][0] == "a"
    assert Tournament.replay(t.events).state == "finished"


def test_a_round_may_be_scored_one_deal():
    t = Tournament.create({"name": "t", "kind": "swiss", "start": "2026-12-04T12:00:00+00:00", "scoring": "deal"})
    assert t.settings.scoring == "deal"


def test_each_state_refuses_with_a_sentence_not_a_state_name():
    """A refused step says what the tournament is, in words (not "is finished; this needs it
    registration", a state's code name pasted into a sentence)."""

    def refusal(step):
        with pytest.raises(CompeteError) as info:
            step()
        return str(info.value)

    t = Tournament.create({"name": "Friday", "kind": "swiss", "start": START, "rounds": 1})
    said = [refusal(lambda: t.join("ann"))]
    t.open()
    said.append(refusal(t.pair))
    t.join("ann"), t.join("bob"), t.start(START)
    said.append(refusal(lambda: t.join("cy")))
    t.pair()
    for gid in t.in_play():
        t.result(gid, "a", START)
    t.finish(START)
    said += [refusal(lambda: t.join("cy")), refusal(lambda: t.withdraw("ann"))]
    assert said == [
        "the tournament is not open for entries yet",
        "the tournament is open for entries and has not started yet",
        "the tournament has started: entries are closed",
        "the tournament has finished: nothing more can change in it",
        "the tournament has finished: nothing more can change in it",
    ]
