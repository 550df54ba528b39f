"""``ginrummy.client`` without a server: the view rebuilt from a state message, the fair-deal
seed and check, the reading of a program's answer, seat links, the back-off, ``gin bot``'s
options (issue 35, the client side; the end-to-end run is tests/test_bot_e2e.py)."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from ginrummy.actions import Action
from ginrummy.cards import card_str
from ginrummy.cli.main import main
from ginrummy.client import FairDeals, LinkError, backoff, parse_link, read_answer, view_from_state
from ginrummy.client.deciders import PlayerDecider, load_player
from ginrummy.client.session import SeatClient
from ginrummy.deal import deck_from_seed, new_deal
from ginrummy.errors import IllegalActionError
from ginrummy.match import commitment, deck_seed
from ginrummy.rules import preset
from ginrummy.views import view_of


def _state(deal, seat, number=1, fair=None, deals=()):
    rules = deal.rules
    return {
        "type": "state",
        "you": seat,
        "seat": seat,
        "seq": 1,
        "view": view_of(deal, seat).to_json(),
        "table": {"rules": rules.to_dict(), "names": ["Ann", "Bob"]},
        "sheet": {"totals": {"Ann": 5, "Bob": 0}},
        "deal": {"number": number},
        "deals": list(deals),
        "fair": fair,
    }


def _walk(rules, seed):
    """Every state of one deal played by random legal moves."""
    rng = random.Random(seed)
    s = new_deal(rules, 0, deck_from_seed(bytes([seed]) * 32), seed=bytes([seed]) * 32)
    out = [s]
    while not s.is_over:
        s, _ = s.apply(s.to_act, rng.choice(s.legal_actions()))
        out.append(s)
    return out


@pytest.mark.parametrize("name", ["standard", "single", "oklahoma"])
def test_view_from_state_is_the_servers_view(name):
    """The rebuilt view equals the engine's, ``stock_only`` (R4.2) and ``must_knock`` (R7.2)
    included, and writes back to the very JSON the server sent."""
    rules = preset(name)
    for seed in range(12):
        for s in _walk(rules, seed):
            for seat in (0, 1):
                state = _state(s, seat)
                v = view_from_state(state)
                assert v == replace(view_of(s, seat), result=None)
                assert v.scores == {"names": ["Ann", "Bob"], "totals": [5, 0], "deal_number": 1}
                want = view_of(s, seat).to_json()
                got = v.to_json(state["view"]["history"])
                assert {k: x for k, x in got.items() if k != "result"} == {
                    k: x for k, x in want.items() if k != "result"
                }


def test_no_view_before_the_first_deal():
    assert view_from_state({"type": "state", "view": None, "seat": None}) is None


def test_one_client_seed_per_deal_resent_unchanged_and_checked():
    seeds = iter(["first", "second"])
    now = [0.0]
    fair = FairDeals(new_seed=lambda: next(seeds), clock=lambda: now[0])
    server = bytes(range(32))
    pending = {"deal": 1, "commitment": commitment(server), "waiting_for": ["Ann"], "yours": None}
    waiting = {"type": "state", "you": 0, "seat": None, "view": None, "fair": {"pending": pending}}
    assert fair.seed_message(waiting) == {"type": "client_seed", "deal": 1, "seed": "first"}
    assert fair.seed_message(waiting) is None  # not again within 3 s
    now[0] = 3.5
    assert fair.seed_message(waiting) == {"type": "client_seed", "deal": 1, "seed": "first"}  # the same seed
    assert fair.observed[1].sends == 2
    # the deal as the server deals it from its seed and both client seeds
    rules = preset("standard")
    dseed = deck_seed(server, ["first", "zz"])
    walk = []
    s = new_deal(rules, 1, deck_from_seed(dseed), seed=dseed)
    rng = random.Random(3)
    while not s.is_over:
        walk.append(s)
        s, _ = s.apply(s.to_act, rng.choice(s.legal_actions()))
    walk.append(s)
    for st in walk:
        fair.observe(_state(st, 0))
    reveal = {
        "number": 1,
        "revealed": True,
        "seed": server.hex(),
        "client_seeds": ["first", "zz"],
        "commitment": commitment(server),
    }
    [check] = fair.check_revealed({"deals": [reveal]})
    assert (check.deal, check.ok, check.problems) == (1, True, ())
    assert fair.observed[1].hand == sorted(card_str(c) for c in deck_from_seed(dseed)[:10])
    # a server that dealt from another client seed, or whose seed is not the commitment, is caught
    assert fair.check(1, server.hex(), ["other", "zz"]).ok is False
    bad = fair.check(1, bytes(32).hex(), ["first", "zz"])
    assert bad.ok is False and bad.problems[0] == (
        "SHA-256 of the revealed seed is not the commitment seen before the seed was sent"
    )


def test_a_server_showing_another_seed_is_warned_about():
    fair = FairDeals(new_seed=lambda: "mine")
    st = {"type": "state", "you": 1, "fair": {"pending": {"deal": 2, "commitment": "ab", "yours": None}}}
    fair.seed_message(st)
    st["fair"]["pending"]["yours"] = "theirs"
    assert fair.seed_message(st) is None
    assert fair.warnings == ["deal 2: the server shows theirs as this seat's client seed, but it sent mine"]


def test_read_answer_takes_a_code_or_a_text():
    legal = [Action.from_code(0), Action.from_code(1)]  # draw stock, take discard
    assert read_answer("0\n", legal) == legal[0]
    assert read_answer("take discard", legal) == legal[1]
    with pytest.raises(IllegalActionError) as e:
        read_answer("37", legal)
    assert str(e.value) == "action code 37 is not legal now; legal codes: 0 (draw stock), 1 (take discard)"
    with pytest.raises(IllegalActionError):
        read_answer("discard 7H", legal)


def test_seat_links():
    a = parse_link("http://127.0.0.1:8000/table/3f9c1a2b7d4e?seat=Qk3")
    assert (a.base, a.table, a.token, a.invite) == ("http://127.0.0.1:8000", "3f9c1a2b7d4e", "Qk3", None)
    assert a.ws_url("el") == "ws://127.0.0.1:8000/ws/table/3f9c1a2b7d4e?seat=Qk3&lang=el"
    assert a.origin == "http://127.0.0.1:8000" and "Qk3" not in repr(a)
    b = parse_link("wss://gin.example/ws/table/ab12?seat=T")
    assert b.ws_url() == "wss://gin.example/ws/table/ab12?seat=T" and b.origin == "https://gin.example"
    c = parse_link("https://gin.example/table/ab12?invite=Zp8")
    assert (c.token, c.invite) == (None, "Zp8")
    for bad in ("ftp://x/table/a?seat=t", "http://x/lobby?seat=t", "http://x/table/a"):
        with pytest.raises(LinkError):
            parse_link(bad)


def test_backoff_doubles_up_to_30_seconds():
    assert [backoff(n) for n in (1, 2, 3, 4, 7, 8, 20)] == [0.5, 1.0, 2.0, 4.0, 30.0, 30.0, 30.0]


def test_resign_sends_the_resign_message_once_on_the_next_message():
    """docs/protocol.md, "Leaving and resigning": ``{"type": "resign"}``, sent once."""
    import asyncio

    client = SeatClient("http://127.0.0.1:1/table/a?seat=t", PlayerDecider(load_player("random")))

    class Ws:
        sent: list = []

        async def send(self, text):
            self.sent.append(json.loads(text))

    ws = Ws()
    asyncio.run(client._handle(ws, {"type": "chat", "from": "Ann", "text": "hi"}))
    assert ws.sent == []
    client.resign()
    asyncio.run(client._handle(ws, {"type": "chat", "from": "Ann", "text": "again"}))
    asyncio.run(client._handle(ws, {"type": "chat", "from": "Ann", "text": "and again"}))
    assert ws.sent == [{"type": "resign", "id": "resign"}]


def test_load_player_by_level_or_class():
    assert load_player("novice").name
    assert type(load_player("ginrummy.players.simple:NovicePlayer")).__name__ == "NovicePlayer"
    with pytest.raises(ValueError, match="cannot load the player 'ginrummy.players.simple:Nobody'"):
        load_player("ginrummy.players.simple:Nobody")
    with pytest.raises(ValueError, match="unknown player 'grandmaster'"):
        load_player("grandmaster")


@pytest.mark.parametrize(
    "argv, needle",
    [
        (
            ["--seat", "http://x/table/a?seat=t", "--level", "novice", "--token", "T"],
            "give --seat URL (a seat link) or --server URL with --token TOKEN (a bot account), not both",
        ),
        (
            ["--level", "novice", "--token", "T"],
            "--server URL and --token TOKEN go together (the token of a bot account on that server)",
        ),
        (
            ["--level", "novice", "--token", "T", "--server", "ftp://x"],
            "--server is http(s)://HOST[:PORT], not 'ftp://x'",
        ),
        (
            ["--level", "novice", "--token", "T", "--server", "http://x", "--accept", "maybe"],
            "--accept is one of all, none, rated, casual, people, bots, not 'maybe'",
        ),
        (
            ["--level", "novice", "--token", "T", "--server", "http://x", "--seek", "--challenge", "novice"],
            "give at most one of --seek or --challenge NAME",
        ),
        (
            ["--level", "novice"],
            "--seat URL is needed: the seat link of the table (http(s)://HOST/table/ID?seat=TOKEN), "
            "or --server and --token",
        ),
        (["--seat", "http://x/table/a?seat=t"], "give one of --level LEVEL or --command PROGRAM"),
        (
            ["--seat", "http://x/lobby", "--level", "novice"],
            "not a seat link (path '/lobby'); allowed: http(s)://HOST/table/ID?seat=TOKEN, "
            "http(s)://HOST/table/ID?invite=CODE or ws(s)://HOST/ws/table/ID?seat=TOKEN",
        ),
    ],
)
def test_gin_bot_bad_options_exit_2_with_one_line(capsys, argv, needle):
    assert main(["bot", *argv]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err == f"gin: error: {needle}\n"


def test_a_refused_seat_is_said_in_a_sentence():
    """Not "the server refused the seat: not_found": which table, at which server, what to do."""
    import asyncio

    from ginrummy.client.session import ClientError

    client = SeatClient("http://127.0.0.1:1/table/nosuch?seat=t", PlayerDecider(load_player("random")))
    said = []
    for code in ("not_found", "bad_token"):
        with pytest.raises(ClientError) as info:
            asyncio.run(client._handle(None, {"type": "error", "code": code, "message": "x"}))
        said.append(str(info.value))
    assert said == [
        "there is no table nosuch at http://127.0.0.1:1: check the seat link (--seat)",
        "the seat link's token is not a seat of table nosuch at http://127.0.0.1:1: ask for a new seat link",
    ]
