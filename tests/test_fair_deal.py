"""A deal no one controls (docs/record-format.md, "A deal no one controls"; DESIGN "Fair
shuffling"; R3.2 the deal): the deck depends on the server's deal seed and on every player's
client seed; a public record seals what the rules still hide; ``verify`` catches any tampering."""

from __future__ import annotations

import hashlib
import random

import pytest

from ginrummy.deal import deck_from_seed
from ginrummy.match import Match, check_client_seeds, deal_seed, deck_seed
from ginrummy.players import make_player
from ginrummy.record import dumps, loads, replay, verify
from ginrummy.rules import preset

SERVER = b"server secret of the table"


def _play(m: Match, levels=("random", "random"), *, stop_after: int | None = None, seeds=lambda k: ["a%d" % k, "b%d" % k]):
    """Play ``m`` to its end (or ``stop_after`` actions) with the given levels; each new deal
    gets client seeds ``seeds(k)``."""
    ps = [make_player(lv, random.Random(i)) for i, lv in enumerate(levels)]
    n = 0
    while not m.finished:
        p = m.player_to_act()
        if p is None:
            m.next_deal(seeds(m.record.number + 1))
            continue
        if stop_after is not None and n >= stop_after:
            return m
        v = m.view(p)
        m.apply(p, ps[p].choose(v, v.legal))
        n += 1
    return m


def test_deck_seed_is_the_documented_hash():
    s = deal_seed(SERVER, 3)
    assert deck_seed(s, None) == s
    assert deck_seed(s, ["ab12", ""]) == hashlib.sha256(s + b"/clients/ab12/").digest()
    assert deck_seed(s, ["x", "y", "z"]) == hashlib.sha256(s + b"/clients/x/y/z").digest()


@pytest.mark.parametrize("which", [0, 1])
def test_the_deck_depends_on_every_client_seed(which):
    base = ["f00d" * 8, "beef" * 8]
    other = list(base)
    other[which] = other[which][:-1] + "0"
    a = Match.new(preset("standard"), ["Ann", "Bob"], SERVER, client_seeds=base)
    b = Match.new(preset("standard"), ["Ann", "Bob"], SERVER, client_seeds=other)
    assert a.record.commitment == b.record.commitment  # the server's commitment is fixed first
    assert deck_from_seed(a.record.deck_seed) != deck_from_seed(b.record.deck_seed)
    assert a.deal.hands != b.deal.hands


def test_the_deck_depends_on_the_server_seed_and_the_deal_number():
    cs = ["same", "same"]
    a = Match.new(preset("standard"), ["Ann", "Bob"], SERVER, client_seeds=cs)
    b = Match.new(preset("standard"), ["Ann", "Bob"], SERVER + b"!", client_seeds=cs)
    assert a.deal.hands != b.deal.hands
    assert deck_seed(deal_seed(SERVER, 1), cs) != deck_seed(deal_seed(SERVER, 2), cs)


@pytest.mark.parametrize("bad", [["a"], ["a", "b", "c", "d"], ["a/b", "c"], ["é", "c"], ["x" * 65, "c"], "ab", [1, "c"]])
def test_bad_client_seeds_are_refused_and_nothing_changes(bad):
    with pytest.raises(ValueError):
        check_client_seeds(bad, 2)
    with pytest.raises(ValueError):
        Match.new(preset("standard"), ["Ann", "Bob"], SERVER, client_seeds=bad)
    m = _play(Match.new(preset("single"), ["Ann", "Bob"], SERVER, client_seeds=["a", "b"]), ("novice", "novice"))
    assert m.finished


def test_a_finished_match_with_client_seeds_verifies_and_tampering_is_caught():
    m = _play(Match.new(preset("standard"), ["Ann", "Bob"], SERVER, client_seeds=["a0", "b0"]), ("novice", "novice"))
    text = dumps(m)
    assert "client-seeds [\"a0\", \"b0\"]" in text
    rep = verify(text)
    assert rep.ok, rep.error
    assert replay(text).sheet.totals == m.sheet.totals
    # a client seed changed: the deck no longer follows
    bad = verify(text.replace('client-seeds ["a0", "b0"]', 'client-seeds ["a0", "b1"]'))
    assert not bad.ok and "deal 1" in bad.error and "client seeds" in bad.error
    # the server secret changed: its commitment fails
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("seed "))
    lines[i] = "seed " + (b"another secret").hex()
    bad = verify("\n".join(lines) + "\n")
    assert not bad.ok and "seed-commitment" in bad.error
    # a step changed: the replay says where
    j = next(i for i, line in enumerate(lines) if line.startswith("0 discard ") or line.startswith("1 discard "))
    lines = text.splitlines()
    seat, _, card = lines[j].split()
    other = next(c for c in ("AS", "2H", "KD", "7C") if c != card)
    lines[j] = f"{seat} discard {other}"
    bad = verify("\n".join(lines) + "\n")
    assert not bad.ok and bad.line >= j + 1 and "deal 1" in bad.error


def test_public_record_seals_the_deal_in_progress_and_hides_its_cards():
    m = _play(Match.new(preset("standard"), ["Ann", "Bob"], SERVER, client_seeds=["a0", "b0"]), stop_after=5)
    text = dumps(m, public=True)
    rec = loads(text)
    assert rec.deals[-1].sealed and rec.deals[-1].deck == [] and rec.deals[-1].deal_seed is None
    assert "deck " not in text and "draw stock" not in text
    for card in [c for c in m.view(0).to_json()["hand"]]:
        assert card not in text.split("rules ")[1].split("\n", 1)[1]
    rep = verify(text)
    assert rep.ok and "sealed (in progress)" in rep.checks[-2]
    with pytest.raises(Exception, match="sealed"):
        replay(text)


def test_a_drawn_deal_stays_sealed_until_the_match_ends():
    # R7: find a match whose deal ends in a draw; its public record keeps that deal sealed
    for n in range(200):
        m = Match.new(preset("standard"), ["Ann", "Bob"], SERVER + bytes([n]), client_seeds=["a", "b"])
        ps = [make_player("random", random.Random(n)), make_player("random", random.Random(n + 1))]
        while m.deal.result is None:
            p = m.player_to_act()
            v = m.view(p)
            m.apply(p, ps[p].choose(v, v.legal))
        if m.deal.result.outcome == "draw":
            break
    else:  # pragma: no cover
        pytest.fail("no drawn deal in 200 tries")
    public = dumps(m, public=True)
    assert "sealed" in public and "deal-seed" not in public and "deck " not in public
    assert "result draw reason R7" in public
    assert verify(public).ok
    # a scored deal is revealed as soon as it ends (both hands were laid down, R5)
    m.next_deal(["c", "d"])
    _play(m, ("novice", "novice"))
    final = dumps(m, public=True)
    assert final == dumps(m) and "sealed" not in final and verify(final).ok


def test_sealed_lines_cannot_hide_a_score_change_or_actions():
    m = _play(Match.new(preset("standard"), ["Ann", "Bob"], SERVER, client_seeds=["a0", "b0"]), stop_after=3)
    text = dumps(m, public=True)
    assert not verify(text.replace("sealed", "sealed\n0 pass")).ok
    assert not verify(text.replace("sealed", "sealed\nresult knock winner 0 points 10 knocker 0 deadwood 0/10 multiplier 1")).ok
