"""A reshuffle (R7.3) in a fair deal (client seeds mixed into the deck, docs/record-format.md):
the table, the record replay, the review and hindsight all draw it from the same seed
(:func:`ginrummy.match.start_deal`), so every record a web table can produce replays,
verifies and reviews (issue 28, item 6)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.analysis.hindsight import hindsight
from ginrummy.analysis.review import review_match
from ginrummy.match import Match, deck_seed, start_deal
from ginrummy.record import deal_states, dumps, loads, replay, verify
from ginrummy.rules import preset

SERVER = b"server secret of the table"
SINGLE = preset("single")  # stock_end=reshuffle, one deal is the game


def _play_past_reshuffle(m: Match, rng: random.Random, *, knock_after: int = 1) -> Match:
    """Play ``m`` at random, never knocking (nor going gin) before the stock has been
    reshuffled ``knock_after`` times (R7.3), then knocking at the first chance."""
    while not m.finished:
        p = m.player_to_act()
        if p is None:
            m.next_deal([f"c{rng.randrange(10**6)}", ""])
            continue
        legal = m.view(p).legal
        ends = [a for a in legal if a.kind in ("knock", "gin", "big_gin")]
        if m.deal.reshuffles >= knock_after and ends:
            m.apply(p, ends[0])
            continue
        quiet = [a for a in legal if a.kind not in ("knock", "gin", "big_gin")] or legal
        m.apply(p, rng.choice(quiet))
    return m


def _reshuffled_match(rules=SINGLE, client_seeds=("f00d" * 8, "")) -> Match:
    for k in range(50):
        m = _play_past_reshuffle(Match.new(rules, ["Ann", "Computer (random)"], SERVER + bytes([k]),
                                           client_seeds=list(client_seeds)), random.Random(k))
        if m.deal.reshuffles:
            return m
    raise AssertionError("no deal reached a reshuffle")  # pragma: no cover


def test_reshuffle_draws_from_the_deck_seed_that_mixes_in_the_client_seeds():
    m = _reshuffled_match()
    rec = loads(dumps(m))
    d = rec.deals[-1]
    assert d.client_seeds is not None and d.client_seeds[1] == ""
    assert [type(e).__name__ for e in d.events].count("RecordedReshuffle") == 1
    # the deal as the record, review and hindsight rebuild it is the one that was played
    _, final = deal_states(rec.rules, d)
    assert final.hands == m.deal.hands and final.pile == m.deal.pile and final.result == m.deal.result
    assert final.seed == deck_seed(d.deal_seed, d.client_seeds) == m.deal.seed


def test_a_reshuffled_fair_deal_verifies_reviews_and_has_hindsight():
    m = _reshuffled_match()
    text = dumps(m)
    report = verify(text)
    assert report.ok, report.error
    review = review_match(text, deal=len(m.deals), budget_ms=1)  # raised RecordError ("discard .. is not legal now") before
    deal = review["deals"][-1]
    assert deal["number"] == len(m.deals)
    assert deal["hindsight"]["over"] is True
    assert len(deal["decisions"]) > 0
    rec = loads(text)
    d = rec.deals[-1]
    h = hindsight(rec.rules, d, [("Ann", d.seat_players.index(0))])
    assert h.over and h.ended == len(deal_states(rec.rules, d)[0])


def test_start_deal_without_a_seed_reshuffles_from_the_deck():
    deck = list(range(52))
    a = start_deal(SINGLE, 0, deck, None, None)
    b = start_deal(SINGLE, 0, deck, b"x", None)
    c = start_deal(SINGLE, 0, deck, b"x", ["a", "b"])
    assert a.seed != b.seed != c.seed
    assert b.seed == b"x" and c.seed == deck_seed(b"x", ["a", "b"])


RULES = st.sampled_from([
    SINGLE,
    SINGLE.replace(max_reshuffles=2),
    preset("standard").replace(stock_end="reshuffle"),
    preset("standard"),
    preset("hollywood").replace(stock_end="reshuffle"),
    preset("oklahoma").replace(stock_end="reshuffle"),
    preset("straight").replace(stock_end="reshuffle", max_reshuffles=2),
    preset("classic").replace(stock_end="wall"),
])
SEED = st.text("0123456789abcdefABCDEF_-", min_size=1, max_size=64)


@settings(max_examples=12, derandomize=True)
@given(rules=RULES, seeds=st.tuples(SEED, st.one_of(st.just(""), SEED)), game=st.integers(0, 10**6),
       knock_after=st.integers(0, 2))
def test_every_record_a_web_table_can_produce_replays_verifies_and_reviews(rules, seeds, game, knock_after):
    rng = random.Random(game)
    m = Match.new(rules, ["Ann", "Bob"], SERVER + game.to_bytes(4, "big"), client_seeds=list(seeds))
    # one deal, or a stretch of a longer match: a web table's record at any moment of play
    for _ in range(rng.randrange(1, 3)):
        _play_one_deal(m, rng, knock_after)
        if m.finished:
            break
        m.next_deal([f"s{rng.randrange(10**6)}", ""])
    text = dumps(m)
    report = verify(text)
    assert report.ok, report.error
    again = replay(text)
    assert again.sheet.totals == m.sheet.totals
    last = loads(text).deals[-1]
    review = review_match(text, deal=last.number, player="Ann", budget_ms=1)
    assert review["deals"][0]["number"] == last.number


def _play_one_deal(m: Match, rng: random.Random, knock_after: int) -> None:
    while m.player_to_act() is not None:
        p = m.player_to_act()
        legal = m.view(p).legal
        ends = [a for a in legal if a.kind in ("knock", "gin", "big_gin")]
        if m.deal.reshuffles >= knock_after and ends:
            m.apply(p, ends[0])
            continue
        quiet = [a for a in legal if a.kind not in ("knock", "gin", "big_gin")] or legal
        m.apply(p, rng.choice(quiet))
