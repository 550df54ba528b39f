"""The parts of a ``state`` message are built once per change of the table and shared
(web/protocol/state.py, ``StateMessage``): a message built from the cache is the message built afresh,
at every step of whole matches (two-hand with a gin or knock and its scoring R5-R6, Oklahoma,
Hollywood with its three games R12, three-hand R10), for every player and a spectator, and its
JSON text says exactly the same thing."""

from __future__ import annotations

import json
import random

import pytest

from ginrummy.match import Match
from ginrummy.players import make_player
from ginrummy.rules import RuleSet, preset
from ginrummy.web.db.store import TableRow
from ginrummy.web.protocol.state import StateMessage
from ginrummy.web.room.seats import SPECTATOR
from ginrummy.web.room.tables import Table


def _table(rules: RuleSet, names: list[str], seed: bytes) -> Table:
    row = TableRow(
        id="t1",
        created="2026-12-01T00:00:00",
        rules=rules.to_dict(),
        names=names,
        seats=["human"] + ["bot:novice"] * (len(names) - 1),
        tokens=[""] * len(names),
        seed=seed,
    )
    return Table(row, Match.new(rules, names, seed))


def _fresh(table: Table, player: int) -> dict:
    saved = table.state_cache
    table.state_cache = {}
    try:
        return dict(table.state_for(player))
    finally:
        table.state_cache = saved


@pytest.mark.parametrize("name,players", [("standard", 2), ("oklahoma", 2), ("hollywood", 2), ("standard", 3)])
def test_cached_state_is_the_fresh_state_at_every_step(name: str, players: int) -> None:
    rules = RuleSet.from_dict({**preset(name).to_dict(), "players": players})
    names = ["Ann", "Bob", "Cy"][:players]
    table = _table(rules, names, b"cache-seed-" + name.encode())
    player = make_player("novice", random.Random(7))
    steps = deals_over = 0
    watchers = [*range(players), SPECTATOR]
    while not table.match.finished and steps < 5000:
        m = table.match
        for p in watchers:
            msg = table.state_for(p)
            assert type(msg) is StateMessage
            fresh = _fresh(table, p)
            assert dict(msg) == fresh
            assert json.loads(msg.to_text()) == fresh
        if m.deal.is_over:
            deals_over += 1
            m.next_deal()
        else:
            to_act = m.player_to_act()
            view = m.view(to_act)
            m.apply(to_act, player.choose(view, view.legal))
        table.seq += 1
        steps += 1
    assert table.match.finished and deals_over >= 2
    for p in watchers:  # the match's end reveals drawn deals' seeds and the match seed
        assert json.loads(table.state_for(p).to_text()) == _fresh(table, p)
        assert table.state_for(p)["fair"]["match_seed"] == table.row.seed.hex()


def test_a_new_watcher_changes_the_cached_seats() -> None:
    table = _table(preset("standard"), ["Ann", "Bob"], b"seats")
    assert table.state_for(0)["table"]["seats"][0]["connected"] is False

    async def send(msg: dict) -> None:  # pragma: no cover - never called here
        pass

    table.watchers.append((0, send))
    msg = table.state_for(0)
    assert msg["table"]["seats"][0]["connected"] is True
    assert json.loads(msg.to_text())["table"]["seats"][0]["connected"] is True
