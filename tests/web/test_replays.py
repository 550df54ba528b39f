"""Replays (docs/accounts.md): a record turned into frames, deal by deal and move by move with
both hands open; uploads checked completely (R1-R12 through ginrummy.record.replay)."""

from __future__ import annotations

import random

import pytest

from ginrummy.analysis.simulate import play_game
from ginrummy.cards import card_str
from ginrummy.errors import RecordError
from ginrummy.match import Match
from ginrummy.players import make_player
from ginrummy.record import dumps
from ginrummy.rules import preset
from ginrummy.web.protocol.replay_frames import MAX_RECORD_BYTES, replay_frames


def test_frames_follow_every_action_with_both_hands_open():
    g = play_game(preset("standard"), ["novice", "random"], 0, 1)
    rep = replay_frames(dumps(g.match))
    m = g.match
    assert rep["names"] == list(m.names) and rep["finished"] is True
    assert rep["winner"] == m.names[m.winner] and rep["totals"] == list(m.sheet.totals)
    assert [len(d["frames"]) for d in rep["deals"]] == [len(d.actions) + 1 for d in m.deals]
    for d, rec in zip(rep["deals"], m.deals):
        first = d["frames"][0]
        assert first["action"] is None and [len(h) for h in first["hands"]] == [10, 10]
        assert first["stock"] == 31 and len(first["pile"]) == 1  # 52 - 20 - the upcard (R3.2)
        assert [f["action"] for f in d["frames"][1:]] == [a.text for _, a in rec.actions]
        assert d["result"]["outcome"] == rec.result.outcome and d["result"]["points"] == rec.result.points
        for f in d["frames"]:  # every card is somewhere exactly once
            assert len(f["hands"][0]) + len(f["hands"][1]) + len(f["pile"]) + f["stock"] == 52
    last = rep["deals"][-1]["frames"][-1]
    assert last["to_act"] is None and last["phase"] == "over"
    assert rep["deals"][-1]["score"] == list(m.sheet.totals)


def test_upload_a_record_and_bad_ones(client):
    g = play_game(preset("standard"), ["novice", "novice"], 2, 5)
    text = dumps(g.match)
    r = client.post("/api/replays", content=text.encode(), headers={"Content-Type": "text/plain"})
    assert r.status_code == 200 and r.json() == replay_frames(text)
    broken = text.replace("discard", "discrad", 1)
    r = client.post("/api/replays", content=broken.encode())
    assert r.status_code == 400 and r.json()["code"] == "bad_record" and "line" in r.json()["error"]
    r = client.post("/api/replays", content=b"\xff\xfe not text")
    assert (r.status_code, r.json()["code"]) == (400, "bad_record")
    r = client.post("/api/replays", content=b"x" * (MAX_RECORD_BYTES + 1))
    assert r.status_code == 413
    assert client.get("/api/replays/nosuchtable").status_code == 404


def test_hands_in_frames_are_the_dealt_cards():
    g = play_game(preset("oklahoma"), ["novice", "random"], 1, 9)
    rep = replay_frames(dumps(g.match))
    d0 = g.match.deals[0]
    from ginrummy.deal import deck_from_seed

    deck = deck_from_seed(d0.deck_seed)
    first = rep["deals"][0]["frames"][0]
    non_dealer = 1 - d0.dealer
    assert sorted(first["hands"][non_dealer]) == sorted(card_str(c) for c in deck[0:10])
    assert sorted(first["hands"][d0.dealer]) == sorted(card_str(c) for c in deck[10:20])
    assert first["pile"] == [card_str(deck[20])]


def _part_played(deals_over: int, moves: int) -> Match:
    """A match of two novices with ``deals_over`` deals played out and ``moves`` actions of
    the next one (its cards still secret: a match forfeited on time, or a record taken in play)."""
    m = Match.new(preset("standard"), ["Ann", "Bob"], bytes(range(32)))
    bots = [make_player("novice", random.Random(p)) for p in (0, 1)]
    over = 0
    while True:
        if m.deal.is_over:
            over += 1
            m.next_deal()
        if over == deals_over and sum(1 for _ in m.record.actions) == moves:
            return m
        p = m.player_to_act()
        view = m.view(p)
        m.apply(p, bots[p].choose(view, view.legal))


def test_a_deal_in_progress_is_listed_sealed_and_the_deals_before_it_play_back():
    m = _part_played(2, 3)
    assert not m.finished and len(m.deals) == 3
    rep = replay_frames(dumps(m, public=True))
    assert rep["finished"] is False and rep["winner"] is None and rep["totals"] == list(m.sheet.totals)
    assert [d["sealed"] for d in rep["deals"]] == [rec.result.outcome == "draw" for rec in m.deals[:2]] + [True]
    assert [len(d["frames"]) for d in rep["deals"]] == [
        0 if rec.result.outcome == "draw" else len(rec.actions) + 1 for rec in m.deals[:2]
    ] + [0]
    assert rep["deals"][-1]["result"] is None and rep["deals"][-1]["number"] == 3
    first = replay_frames(dumps(_part_played(0, 2), public=True))  # in deal 1: nothing to play back yet
    assert (first["totals"], [d["sealed"] for d in first["deals"]], first["deals"][0]["frames"]) == ([0, 0], [True], [])
    # a sealed deal in the middle still refuses the record, naming its line
    text = dumps(m, public=True)
    lines = text.splitlines()
    bad = "\n".join(lines[:-1] + ["deal 4 dealer 0 seats 0 1 commitment " + "0" * 64, "sealed"]) + "\n"
    with pytest.raises(RecordError, match="line"):
        replay_frames(bad)
