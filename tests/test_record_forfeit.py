"""The ``forfeit`` line of a record (docs/record-format.md, "Forfeited match"): a match ended by
a player's forfeit (resigned, left, time) before it ended by the rules (R11) is written as over
(the match seed, every deal revealed, the stopped deal's deck and actions up to the stop), and
``verify`` checks it completely; a malformed forfeit line, one naming no player, one out of its
place, or one whose ``finished`` line does not name the other player is refused naming the line."""

from __future__ import annotations

import pytest

from ginrummy.cli.main import main
from ginrummy.errors import RecordError
from ginrummy.match import Match
from ginrummy.record import dumps, dumps_deal, loads, replay, verify
from ginrummy.rules import preset

SEED = bytes(range(32))


def _pick(m: Match, p: int):
    """A move that keeps a deal going to its end: a knock or gin when legal, else pass or draw
    from the stock (so the stock runs down, R7.3), else the first legal (a discard)."""
    legal = m.view(p).legal
    for kinds in (("big_gin", "gin", "knock"), ("pass", "draw_stock")):
        pick = next((a for a in legal if a.kind in kinds), None)
        if pick is not None:
            return pick
    return legal[0]


def _played(moves: int, players: int = 2) -> Match:
    names = ["Ann", "Bob", "Cid"][:players]
    m = Match.new(preset("standard"), names, SEED)
    for _ in range(moves):
        p = m.player_to_act()
        assert p is not None
        m.apply(p, m.view(p).legal[0])
    return m


def _deal_over() -> Match:
    """A two-hand match whose first deal is over (by first legal moves), the next not dealt."""
    m = Match.new(preset("standard"), ["Ann", "Bob"], SEED)
    while not m.deal.is_over:
        p = m.player_to_act()
        assert p is not None
        m.apply(p, _pick(m, p))
    assert not m.finished
    return m


def test_a_resigned_match_mid_deal_is_whole_and_verifies():
    m = _played(4)
    text = dumps(m, public=True, forfeit=(0, "resigned"), date="2026-12-05")
    lines = text.splitlines()
    assert lines[-3:] == ["forfeit player 0 how resigned", "finished winner 1", f"seed {SEED.hex()}"]
    assert "sealed" not in lines and any(ln.startswith("deck ") for ln in lines)
    rep = verify(text)
    assert (rep.ok, rep.complete, rep.error) == (True, True, None)
    assert rep.checks[-2:] == (
        "deal 1: 4 lines replayed (the forfeit stopped it: no result)",
        "the match ended by a forfeit: Ann resigned (deal 1 stopped after its last action line); winner Bob; "
        "the record cannot show why a player forfeited, only that the match was not over by the rules",
    )
    rec = loads(text)
    assert (rec.forfeit, rec.finished, rec.seed) == ((len(lines) - 2, 0, "resigned"), (len(lines) - 1, 1), SEED)
    # the public and the private record of a forfeited match are the same (nothing is hidden)
    assert dumps(m, forfeit=(0, "resigned"), date="2026-12-05") == text
    # replay rebuilds the match as it stopped
    assert replay(text).deal.to_act == m.deal.to_act


def test_a_match_forfeited_between_deals_and_its_cli_exit_status(tmp_path, capsys):
    m = _deal_over()
    text = dumps(m, public=True, forfeit=(1, "time"))
    assert text.splitlines()[-4:-3][0].startswith("deal-seed ")
    rep = verify(text)
    assert (rep.ok, rep.complete) == (True, True)
    assert rep.checks[-1].startswith("the match ended by a forfeit: Bob lost on time (between deals); winner Ann")
    path = tmp_path / "m.gin"
    path.write_text(text, encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    # cut off after the forfeit line: every line checks out, but it is not the whole record
    path.write_text(text.rsplit("finished", 1)[0], encoding="utf-8")
    assert main(["verify", str(path)]) == 3
    assert "after the forfeit line: no finished line" in capsys.readouterr().out


def test_a_drawn_deal_is_revealed_in_a_forfeited_match():
    """A drawn deal (R7) is sealed in a public record until the match is over; a forfeit ends it."""
    m = Match.new(preset("standard"), ["Ann", "Bob"], SEED)
    # pass the upcard both ways, then draw and discard the drawn card until the stock runs out
    while not m.deal.is_over:
        p = m.player_to_act()
        assert p is not None
        legal = m.view(p).legal
        pick = next((a for a in legal if a.kind in ("pass", "draw_stock")), None)
        if pick is None:  # discard: the card just drawn never melds with much; any legal one will do
            pick = next(a for a in legal if a.kind == "discard")
        m.apply(p, pick)
    if m.deal.result.outcome != "draw":
        pytest.skip("this seed's deal did not end drawn")
    assert "sealed" in dumps(m, public=True).splitlines()
    text = dumps(m, public=True, forfeit=(0, "left"))
    assert "sealed" not in text.splitlines()
    assert verify(text).ok and verify(text).complete


def test_a_three_hand_forfeit_has_no_winner():
    m = _played(3, players=3)
    text = dumps(m, public=True, forfeit=(2, "time"))
    assert text.splitlines()[-3:-1] == ["forfeit player 2 how time", "finished winner none"]
    rep = verify(text)
    assert (rep.ok, rep.complete) == (True, True), rep.error
    bad = text.replace("finished winner none", "finished winner 0")
    assert verify(bad).error == (
        f"line {len(text.splitlines()) - 1}: player 2 forfeited (line {len(text.splitlines()) - 2}), so the "
        "finished line reads 'finished winner none' (a three-hand match has no winner then)"
    )


FORM = "'forfeit player P how resigned|left|time' (P a player of the players line)"


@pytest.mark.parametrize(
    ("old", "new", "error"),
    [
        (
            "forfeit player 0 how resigned",
            "forfeit player 0 how quit",
            f"a forfeit line reads {FORM}, not 'forfeit player 0 how quit'",
        ),
        (
            "forfeit player 0 how resigned",
            "forfeit 0 resigned",
            f"a forfeit line reads {FORM}, not 'forfeit 0 resigned'",
        ),
        (
            "forfeit player 0 how resigned",
            "forfeit player 0 how resigned now",
            f"a forfeit line reads {FORM}, not 'forfeit player 0 how resigned now'",
        ),
        (
            "forfeit player 0 how resigned",
            "forfeit player 2 how resigned",
            "forfeit player '2' is not a player of this record: players are 0..1",
        ),
        (
            "forfeit player 0 how resigned",
            "forfeit player -1 how resigned",
            "forfeit player '-1' is not a player of this record: players are 0..1",
        ),
        (
            "forfeit player 0 how resigned",
            "forfeit player ² how resigned",
            "forfeit player '²' is not a player of this record: players are 0..1",
        ),
    ],
)
def test_a_malformed_forfeit_line_is_refused_naming_the_line(old, new, error):
    text = dumps(_played(2), forfeit=(0, "resigned"))
    no = text.splitlines().index(old) + 1
    rep = verify(text.replace(old, new))
    assert (rep.ok, rep.error, rep.line) == (False, f"line {no}: {error}", no)
    with pytest.raises(RecordError, match=f"^line {no}: "):
        loads(text.replace(old, new))


def test_a_forfeit_line_out_of_place_or_with_the_wrong_winner_is_refused():
    text = dumps(_played(2), forfeit=(0, "resigned"))
    lines = text.splitlines()
    f = lines.index("forfeit player 0 how resigned")
    # the winner must be the other player
    assert verify(text.replace("finished winner 1", "finished winner 0")).error == (
        f"line {f + 2}: player 0 forfeited (line {f + 1}), so the finished line reads 'finished winner 1' (the other player)"
    )
    assert verify(text.replace("finished winner 1", "finished winner none")).error.startswith(
        f"line {f + 2}: player 0 forfeited"
    )
    # after the finished line
    moved = "\n".join(lines[:f] + [lines[f + 1], lines[f]] + lines[f + 2 :]) + "\n"
    assert verify(moved).error == f"line {f + 2}: a forfeit line comes before the finished and seed lines: {FORM}"
    # twice
    twice = text.replace(
        "forfeit player 0 how resigned\n", "forfeit player 0 how resigned\nforfeit player 0 how left\n"
    )
    assert verify(twice).error == f"line {f + 2}: a second forfeit line (the first is line {f + 1})"
    # inside a deal is the end of the deal: an action after it is outside any deal
    inside = "\n".join(lines[:f] + [lines[f], "0 pass"] + lines[f + 1 :]) + "\n"
    assert verify(inside).error == f"line {f + 2}: '0 pass' is outside a deal"


def test_a_forfeit_after_a_match_over_by_the_rules_or_in_a_deal_script_is_refused():
    m = Match.new(preset("single"), ["Ann", "Bob"], SEED)
    while not m.finished:
        p = m.player_to_act()
        if p is None:
            m.next_deal()
            continue
        m.apply(p, _pick(m, p))
    with pytest.raises(RecordError, match="over by the rules"):
        dumps(m, forfeit=(0, "resigned"))
    text = dumps(m)
    winner = m.winner if m.winner is not None else 0
    forged = text.replace(
        f"finished winner {m.winner}", f"forfeit player {1 - winner} how resigned\nfinished winner {winner}"
    )
    f = forged.splitlines().index(f"forfeit player {1 - winner} how resigned") + 1
    rep = verify(forged)
    assert (rep.ok, rep.line) == (False, f)
    assert rep.error.startswith(f"line {f}: the match is over by the rules (R11) after the last deal")
    m1 = _played(0)
    script = dumps_deal(m1.rules, 0, list(range(52)), []) + "forfeit player 0 how resigned\n"
    assert verify(script).error.endswith("a deal-script record has no forfeit line: it is a single deal, not a match")


@pytest.mark.parametrize(
    ("forfeit", "error"),
    [
        ((2, "resigned"), "the forfeit's player must be 0..1, not 2"),
        ((True, "resigned"), "the forfeit's player must be 0..1, not True"),
        ((0, "quit"), "the forfeit's how must be one of resigned, left, time, not 'quit'"),
        ((0,), "forfeit must be (player, how), not (0,)"),
    ],
)
def test_dumps_refuses_a_bad_forfeit(forfeit, error):
    with pytest.raises(RecordError) as exc:
        dumps(_played(1), forfeit=forfeit)
    assert str(exc.value) == error


def test_gin_replay_says_how_a_forfeited_match_ended(tmp_path, capsys):
    path = tmp_path / "m.gin"
    path.write_text(dumps(_played(3), forfeit=(1, "resigned")), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Ann vs Bob; rules standard; 1 deal",
        "deal 1: dealer Ann; not played out (the forfeit stopped it)",
        "match over: forfeit, Bob resigned; winner Ann; totals Ann 0, Bob 0",
    ]
    assert main(["replay", str(path), "--json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert (data["finished"], data["winner"], data["forfeit"]) == (True, "Ann", {"player": "Bob", "how": "resigned"})
