"""A match lost on time is rated like any finished match (docs/accounts.md, "Ratings"): the
clock's third timeout in a row (ginrummy.web.room.clock) forfeits the match, and the step that
forfeits records the result and moves both ratings in its own transaction, the forfeiter
losing, exactly as an independent ``openskill`` call with that result; once, also across a
restart.  Time is injected (as in test_clock), so every value is exact."""

from __future__ import annotations

import asyncio

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import create_engine, func, select
from starlette.testclient import TestClient

from ginrummy.rules import preset
from ginrummy.web.app import create_app
from ginrummy.web.community import members as players_mod
from ginrummy.web.community.accounts import accounts_t
from ginrummy.web.community.members import Players
from ginrummy.web.community.ratings import display_rating, result_players_t, results_t
from ginrummy.web.db.store import Store
from ginrummy.web.errors import WebError
from ginrummy.web.room.clock import FORFEIT_AFTER, Clock
from ginrummy.web.room.tables import SeatSpec, TableManager

SEED = bytes(range(32))


class FakeTime:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def _setup(url: str, now: FakeTime, rated: bool):
    """A server's pieces on ``url``: Ann (player 0) and Bob (player 1), both signed in, at a
    clocked table (20 s a move, 10 s of bank), rated or not."""
    store = Store(url)
    manager = TableManager(store, bot_delay=0, now=now)
    players = Players(store.engine, manager)
    ann = players.accounts.sign_up("Ann", "correct horse")
    bob = players.accounts.sign_up("Bob", "correct horse")
    table, _ = manager.create(
        preset("standard"),
        [SeatSpec("human", "Ann"), SeatSpec("human", "Bob")],
        seed=SEED,
        options={"clock": {"move": 20, "bank": 10}},
        seat_all=True,
        allowed_names={"Ann", "Bob"},
    )
    players.table_opened(table, (0, ann.id), rated)
    players.accounts.sit(table.id, 1, bob.id)
    return store, manager, players, table


async def _to_the_last_timeout(manager: TableManager, table) -> tuple[int, object]:
    """Deal, then let the first player to act time out on each of his turns while the other
    moves in time (never knocking), until one more timeout forfeits; ``(forfeiter, table)``."""
    now = manager.now
    await manager.client_seed(table, 0, 1, "a")
    await manager.client_seed(table, 1, 1, "b")
    first = table.clock.turn
    while True:
        t = manager.tables[table.id]
        if t.match.deal.is_over:  # pragma: no cover - depends on the seed; the loop goes on
            for p in (0, 1):
                await manager.client_seed(t, p, t.next_deal_number, f"d{p}")
            await manager.next_deal(t, None)
            continue
        p = t.clock.turn
        if p == first:
            if t.clock.in_a_row.get(first, 0) == FORFEIT_AFTER - 1:
                return first, t
            now.t += 30.01
            assert await manager.check_clock(t)
        else:
            now.t += 3
            view = t.match.view(p)
            await manager.act(t, p, next(a.text for a in view.legal if not a.text.startswith(("knock", "gin"))))


def _count(engine, table) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar() or 0)


def _ratings(engine) -> dict[str, tuple[float, float, int]]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(accounts_t.c.name, accounts_t.c.mu, accounts_t.c.sigma, accounts_t.c.matches).where(
                accounts_t.c.kind == "human"
            )
        ).all()
    return {r.name: (r.mu, r.sigma, r.matches) for r in rows}


def test_a_rated_match_lost_on_time_moves_both_ratings_like_openskill_once(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'gin.sqlite3'}"
    now = FakeTime(1_000_000.0)

    async def run() -> dict:
        store, manager, players, table = _setup(url, now, rated=True)
        loser, t = await _to_the_last_timeout(manager, table)
        seq = t.seq

        # the step that forfeits and the result are one transaction: if recording fails, the
        # step is not stored either, and nothing is rated
        def broken(*args, **kwargs):
            raise RuntimeError("the disk is full")

        monkeypatch.setattr(players_mod, "record_match", broken)
        now.t += 30.01
        with pytest.raises(WebError):
            await manager.check_clock(t)
        t = manager.tables[table.id]
        assert t.seq == seq and t.forfeit is None and t.clock.in_a_row[loser] == FORFEIT_AFTER - 1
        assert _count(store.engine, results_t) == 0 and _ratings(store.engine)["Ann"][2] == 0
        monkeypatch.undo()
        assert await manager.check_clock(t)
        t = manager.tables[table.id]
        assert t.forfeit == loser and not t.match.finished  # over on time, not by the rules
        winner = 1 - loser
        state = t.state_for(winner)
        assert state["match"] == {
            "finished": True,
            "winner": t.names[winner],
            "forfeit": t.names[loser],
            "ended": "time",
        }
        out = {
            "loser": loser,
            "names": list(t.names),
            "rating": state["rating"],
            "ratings": _ratings(store.engine),
            "id": t.id,
            "deals": len([d for d in t.match.deals if d.result is not None]),
        }
        with store.engine.connect() as conn:
            out["rows"] = {
                r.player: (r.outcome, r.deals)
                for r in conn.execute(select(result_players_t).where(result_players_t.c.result_id == t.id))
            }
            out["rated"] = conn.execute(select(results_t.c.rated, results_t.c.public)).one()
        await manager.stop()
        store.close()
        return out

    got = asyncio.run(run())
    loser, names = got["loser"], got["names"]
    model = PlackettLuce()
    ranks = [1, 0] if loser == 0 else [0, 1]
    [[ann], [bob]] = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
    assert got["ratings"] == {"Ann": (ann.mu, ann.sigma, 1), "Bob": (bob.mu, bob.sigma, 1)}
    assert tuple(got["rated"]) == (1, 1)
    assert got["rows"] == {loser: ("loss", got["deals"]), 1 - loser: ("win", got["deals"])}
    # the change is shown at the end, as after a finish by the rules
    want = [
        {
            "name": names[p],
            "before": 1000,
            "after": display_rating(r.mu, r.sigma),
            "change": display_rating(r.mu, r.sigma) - 1000,
            "provisional": True,
        }
        for p, r in ((0, ann), (1, bob))
    ]
    assert got["rating"] == {"rated": True, "counts": True, "changes": want}
    assert want[loser]["change"] < 0 < want[1 - loser]["change"]

    # a restarted server: rated once, the change still shown, the replay says who forfeited
    with TestClient(create_app(url, bot_delay=0)) as c:
        t = c.app.state.manager.tables[got["id"]]
        assert (t.forfeit, t.state_for(0)["rating"]) == (loser, got["rating"])
        replay = c.get(f"/api/replays/{got['id']}").json()  # rated, so public
        board = {e["name"]: (e["mu"], e["sigma"], e["matches"]) for e in c.get("/api/leaderboard").json()}
    assert (replay["finished"], replay["winner"], replay["forfeit"]) == (True, names[1 - loser], names[loser])
    assert replay["ended"] == "time"
    # the deal the forfeit stopped is revealed up to the stop (the match seed is, docs/record-format.md)
    stopped = replay["deals"][-1]
    assert len(replay["deals"]) == len(t.match.deals) and not stopped["sealed"] and stopped["result"] is None
    assert len(stopped["frames"]) == len(t.match.deals[-1].actions) + 1
    assert board == {
        "Ann": (round(ann.mu, 4), round(ann.sigma, 4), 1),
        "Bob": (round(bob.mu, 4), round(bob.sigma, 4), 1),
    }
    engine = create_engine(url)
    try:
        assert _count(engine, results_t) == 1 and _ratings(engine) == got["ratings"]
    finally:
        engine.dispose()


def test_an_unrated_match_lost_on_time_is_recorded_and_moves_no_rating(tmp_path):
    url = f"sqlite:///{tmp_path / 'gin.sqlite3'}"
    now = FakeTime(3_000_000.0)

    async def run() -> tuple:
        store, manager, players, table = _setup(url, now, rated=False)
        loser, t = await _to_the_last_timeout(manager, table)
        now.t += 30.01
        assert await manager.check_clock(t)
        with store.engine.connect() as conn:
            rows = {r.player: r.outcome for r in conn.execute(select(result_players_t))}
            rated = conn.execute(select(results_t.c.rated)).scalar_one()
        out = (loser, rows, rated, _ratings(store.engine), manager.tables[t.id].state_for(0)["rating"])
        await manager.stop()
        store.close()
        return out

    loser, rows, rated, ratings, rating = asyncio.run(run())
    assert rows == {loser: "loss", 1 - loser: "win"} and rated == 0 and rating is None
    r0 = PlackettLuce().rating()
    assert ratings == {"Ann": (r0.mu, r0.sigma, 0), "Bob": (r0.mu, r0.sigma, 0)}


def test_a_third_timeout_that_ends_the_match_by_the_rules_is_no_forfeit():
    c = Clock(move=10, bank=0)
    for k in range(FORFEIT_AFTER - 1):
        c.start(0, 100.0 * k)
        c.moved(0, 100.0 * k + 11, timed_out=True)
    assert c.forfeits(0, timed_out=True) and not c.forfeits(0, timed_out=False)
    assert not c.forfeits(0, timed_out=True, match_over=True)
    c.start(0, 500.0)
    c.moved(0, 511.0, timed_out=True, match_over=True)  # the server's move won the game (R11.1): it stands
    assert c.forfeit is None and c.timeouts[0] == FORFEIT_AFTER
    assert not c.forfeits(1, timed_out=True)  # the other player has no run of timeouts


def test_the_deal_a_forfeit_stopped_says_whose_forfeit_not_in_play(tmp_path):
    """The Deals panel read "in play" for the deal the forfeit stopped: the deal's entry names
    the player who forfeited (and a state computed before the forfeit is not reused)."""
    url = f"sqlite:///{tmp_path / 'gin.sqlite3'}"
    now = FakeTime(3_000_000.0)

    async def run() -> tuple:
        store, manager, players, table = _setup(url, now, rated=False)
        loser, t = await _to_the_last_timeout(manager, table)
        before = manager.tables[t.id].state_for(0)["deals"][-1]
        now.t += 30.01
        assert await manager.check_clock(t)
        after = manager.tables[t.id].state_for(1)["deals"]
        await manager.stop()
        store.close()
        return loser, before, after

    loser, before, after = asyncio.run(run())
    assert (before["over"], before["forfeit"]) == (False, None)
    assert (after[-1]["over"], after[-1]["forfeit"]) == (False, ["Ann", "Bob"][loser])
    assert all(d["forfeit"] is None for d in after[:-1])
