"""The match seed is revealed at any end of the match (docs/protocol.md, ``fair``): finished by
the rules, or by a forfeit (resigning, leaving, on time), so that the players can check every
deal they played against the table's first commitment; never while the match goes on.  Time
is injected, so every value is exact."""

from __future__ import annotations

import asyncio
import hashlib

from ginrummy.web.db.store import Store
from ginrummy.web.protocol.state import SPECTATOR
from ginrummy.web.room.tables import TableManager

from .test_forfeit import _setup as _clocked
from .test_forfeit import _to_the_last_timeout
from .test_leaving import GRACE, SEED, FakeTime, _dealt, _noop, _other_noop


def _fair_of(t) -> tuple:
    """(fair.match_seed of Ann's, Bob's and a spectator's state, deal 1's revealed/seed)."""
    states = [t.state_for(p) for p in (0, 1, SPECTATOR)]
    d1 = states[0]["deals"][0]
    return tuple(s["fair"]["match_seed"] for s in states), (d1["revealed"], d1.get("seed"))


def test_the_match_seed_is_revealed_when_a_player_resigns_and_after_a_restart(tmp_path):
    url = f"sqlite:///{tmp_path / 'r.db'}"
    now = FakeTime(1_000_000.0)

    async def run() -> dict:
        store, manager, _players, t = await _dealt(url, now)
        out = {"before": _fair_of(t)}
        await manager.resign(t, 1)
        t = manager.tables[t.id]
        out["after"] = _fair_of(t)
        out["commitment"] = t.state_for(0)["fair"]["commitment"]
        await manager.stop()
        store.close()
        store2 = Store(url)
        manager2 = TableManager(store2, bot_delay=0, now=now)
        out["reloaded"] = _fair_of(manager2.load(t.id))
        store2.close()
        return out

    got = asyncio.run(run())
    assert got["before"] == ((None, None, None), (False, None))
    # the stopped deal is not over: it stays unrevealed, its seed follows from the match seed
    assert got["after"] == ((SEED.hex(),) * 3, (False, None))
    assert got["reloaded"] == got["after"]
    assert hashlib.sha256(SEED).hexdigest() == got["commitment"]


def test_the_match_seed_is_revealed_when_a_player_leaves_and_the_other_claims(tmp_path):
    now = FakeTime(2_000_000.0)

    async def run() -> tuple:
        store, manager, _players, t = await _dealt(f"sqlite:///{tmp_path / 'l.db'}", now)
        manager.watch(t, 0, _noop)
        manager.watch(t, 1, _other_noop)
        manager.unwatch(t, 1, _other_noop)
        before = _fair_of(t)
        now.t += GRACE
        await manager.claim_win(t, 0)
        after = _fair_of(manager.tables[t.id])
        await manager.stop()
        store.close()
        return before, after

    before, after = asyncio.run(run())
    assert before == ((None, None, None), (False, None))
    assert after == ((SEED.hex(),) * 3, (False, None))


def test_the_match_seed_is_revealed_when_a_match_is_lost_on_time(tmp_path):
    now = FakeTime(3_000_000.0)

    async def run() -> tuple:
        store, manager, _players, table = _clocked(f"sqlite:///{tmp_path / 't.db'}", now, rated=False)
        first, t = await _to_the_last_timeout(manager, table)
        before = t.state_for(0)["fair"]["match_seed"]
        now.t += 30.01
        assert await manager.check_clock(t)
        t = manager.tables[t.id]
        state = t.state_for(1 - first)
        # (every deal over shows its seed; here usually none is: the timeouts come in deal 1)
        over = [(d["number"], d["seed"]) for d in state["deals"] if d["over"]]
        want = [(d.number, d.seed.hex()) for d in t.match.deals if d.result is not None]
        out = (before, state["fair"]["match_seed"], state["match"]["ended"], over == want)
        await manager.stop()
        store.close()
        return out

    before, after, ended, same = asyncio.run(run())
    assert (before, after, ended, same) == (None, SEED.hex(), "time", True)
