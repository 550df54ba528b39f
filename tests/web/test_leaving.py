"""Leaving and resigning (issue 31; docs/protocol.md, "Leaving and resigning"): a player who
resigns, or who is away from a rated match past the grace period, loses it, rated, the result
stored in the same transaction as the ``resign`` / ``left`` step that ends it, with how the
match ended (``gin_result_players.ended``).  Time is injected, so every value is exact."""

from __future__ import annotations

import asyncio

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select

from ginrummy.rules import preset
from ginrummy.web.community import members as players_mod
from ginrummy.web.community.accounts import accounts_t
from ginrummy.web.community.members import Players
from ginrummy.web.community.ratings import result_players_t
from ginrummy.web.db.store import Store
from ginrummy.web.errors import WebError
from ginrummy.web.room.autoplay import CLAIM_AFTER
from ginrummy.web.room.tables import SeatSpec, TableManager

from .conftest import STORES, database_url

SEED = bytes(range(32))
GRACE = 4.0


class FakeTime:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


async def _dealt(url: str, now: FakeTime, rated: bool = True):
    """Ann (0) and Bob (1), signed in, at a clocked two-hand table, the first deal dealt."""
    store = Store(url)
    manager = TableManager(store, bot_delay=0, now=now)
    manager.leave_grace = GRACE
    players = Players(store.engine, manager, now=now)
    ann = players.accounts.sign_up("Ann", "correct horse")
    bob = players.accounts.sign_up("Bob", "correct horse")
    table, _ = manager.create(
        preset("standard"),
        [SeatSpec("human", "Ann"), SeatSpec("human", "Bob")],
        seed=SEED,
        options={"clock": {"move": 20, "bank": 600}},
        seat_all=True,
        allowed_names={"Ann", "Bob"},
    )
    players.table_opened(table, (0, ann.id), rated)
    players.accounts.sit(table.id, 1, bob.id)
    await manager.client_seed(table, 0, 1, "a")
    await manager.client_seed(table, 1, 1, "b")
    return store, manager, players, manager.tables[table.id]


def _rows(engine, table_id: str) -> dict[int, tuple[str, str]]:
    with engine.connect() as conn:
        rows = conn.execute(select(result_players_t).where(result_players_t.c.result_id == table_id)).all()
    return {r.player: (r.outcome, r.ended) for r in rows}


def _ratings(engine) -> dict[str, tuple[float, float, int]]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(accounts_t.c.name, accounts_t.c.mu, accounts_t.c.sigma, accounts_t.c.matches).where(
                accounts_t.c.kind == "human"
            )
        ).all()
    return {r.name: (r.mu, r.sigma, r.matches) for r in rows}


def _openskill(loser: int) -> dict[str, tuple[float, float, int]]:
    model = PlackettLuce()
    [[ann], [bob]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 0] if loser == 0 else [0, 1])
    return {"Ann": (ann.mu, ann.sigma, 1), "Bob": (bob.mu, bob.sigma, 1)}


async def _noop(msg) -> None:
    return None


async def _other_noop(msg) -> None:
    return None


@pytest.fixture(params=STORES)
def store_url(request, tmp_path):
    yield from database_url(request.param, tmp_path)


def test_a_resigned_rated_match_is_lost_rated_and_recorded_as_resigned_once(store_url, monkeypatch):
    url = store_url
    now = FakeTime(1_000_000.0)

    async def run() -> tuple:
        store, manager, players, t = await _dealt(url, now)
        seq = t.seq

        def broken(*args, **kwargs):
            raise RuntimeError("the disk is full")

        # the resign step and the result are one transaction: nothing stored when recording fails
        monkeypatch.setattr(players_mod, "record_match", broken)
        with pytest.raises(WebError):
            await manager.resign(t, 1)
        t = manager.tables[t.id]
        assert (t.seq, t.over, t.ended) == (seq, False, None)
        monkeypatch.undo()
        await manager.resign(t, 1)
        t = manager.tables[t.id]
        state = t.state_for(0)
        with pytest.raises(WebError) as again:
            await manager.resign(t, 0)
        out = (t.seq - seq, t.ended, state["match"], state["rating"]["counts"], _rows(store.engine, t.id))
        await manager.stop()
        store.close()
        # a restart rebuilds the resigned match from the stored step
        store2 = Store(url)
        manager2 = TableManager(store2, bot_delay=0, now=now)
        t2 = manager2.load(t.id)
        reloaded = (t2.ended, t2.over, t2.how_ended)
        ratings = _ratings(store2.engine)
        store2.close()
        return out, str(again.value), reloaded, ratings

    (steps, ended, match, counts, rows), again, reloaded, ratings = asyncio.run(run())
    assert (steps, ended, counts) == (1, (1, "resigned"), True)
    assert match == {"finished": True, "winner": "Ann", "forfeit": "Bob", "ended": "resigned"}
    assert rows == {0: ("win", "resigned"), 1: ("loss", "resigned")}
    assert again == "the match is over already"
    assert reloaded == ((1, "resigned"), True, "resigned")
    assert ratings == _openskill(1)


def test_resign_is_refused_before_the_first_deal(tmp_path):
    async def run() -> str:
        store = Store(f"sqlite:///{tmp_path / 'gin.sqlite3'}")
        manager = TableManager(store, bot_delay=0)
        table, _ = manager.create(
            preset("standard"), [SeatSpec("human", "Ann"), SeatSpec("human", "Bob")], seed=SEED, seat_all=True
        )
        with pytest.raises(WebError) as exc:
            await manager.resign(table, 0)
        await manager.stop()
        store.close()
        return f"{exc.value.code}: {exc.value}"

    assert asyncio.run(run()) == "not_allowed: the match has not started yet: there is nothing to resign"


def test_a_player_away_past_the_grace_forfeits_when_the_other_claims(store_url):
    url = store_url
    now = FakeTime(2_000_000.0)

    async def run() -> dict:
        store, manager, players, t = await _dealt(url, now)
        out: dict = {}
        manager.watch(t, 0, _noop)
        manager.watch(t, 1, _other_noop)
        manager.unwatch(t, 1, _other_noop)  # Bob closes his browser
        out["leaving"] = manager.leaving(t)
        # a reconnect within the grace stops the countdown
        now.t += GRACE - 1
        manager.watch(t, 1, _other_noop)
        out["back"] = (manager.leaving(t), t.leave_due)
        manager.unwatch(t, 1, _other_noop)
        left_at = now.t
        with pytest.raises(WebError) as early:
            await manager.claim_win(t, 0)
        out["early"] = str(early.value)
        with pytest.raises(WebError) as own:
            await manager.claim_win(t, 1)
        out["own"] = str(own.value)
        now.t = left_at + GRACE
        out["state"] = t.state_for(0)["leaving"]["name"]
        await manager.claim_win(t, 0)
        t = manager.tables[t.id]
        out["ended"] = (t.ended, t.state_for(0)["match"], t.leave_due)
        out["rows"] = _rows(store.engine, t.id)
        out["ratings"] = _ratings(store.engine)
        await manager.stop()
        store.close()
        return out

    got = asyncio.run(run())
    assert got["leaving"] == (1, 2_000_000.0 + GRACE)
    assert got["back"] == (None, None)
    assert got["early"] == "you can claim the win in 4 seconds, if Bob is still away"
    assert got["own"] == "you can claim the win only while your opponent is away"
    assert got["state"] == "Bob"
    assert got["ended"] == (
        (1, "left"),
        {"finished": True, "winner": "Ann", "forfeit": "Bob", "ended": "left"},
        None,
    )
    assert got["rows"] == {0: ("win", "left"), 1: ("loss", "left")}
    assert got["ratings"] == _openskill(1)


def test_the_server_ends_the_match_itself_after_the_grace_when_nobody_claims(tmp_path):
    url = f"sqlite:///{tmp_path / 'gin.sqlite3'}"
    now = FakeTime(3_000_000.0)

    async def run() -> tuple:
        store, manager, players, t = await _dealt(url, now)
        manager.watch(t, 1, _other_noop)
        manager.watch(t, 0, _noop)
        manager.unwatch(t, 0, _noop)  # Ann leaves
        now.t += GRACE + CLAIM_AFTER - 0.5
        await manager.autoplay._leave_due(t)  # the timer fired early: nothing yet
        early = manager.tables[t.id].ended
        now.t += 0.5
        await manager.autoplay._leave_due(t)
        t = manager.tables[t.id]
        out = (early, t.ended, _rows(store.engine, t.id))
        await manager.stop()
        store.close()
        return out

    assert asyncio.run(run()) == (None, (0, "left"), {0: ("loss", "left"), 1: ("win", "left")})


def test_leaving_an_unrated_table_or_both_away_forfeits_nothing(tmp_path):
    async def run() -> tuple:
        now = FakeTime(4_000_000.0)
        store, manager, players, t = await _dealt(f"sqlite:///{tmp_path / 'a.sqlite3'}", now, rated=False)
        manager.watch(t, 0, _noop)
        manager.unwatch(t, 0, _noop)
        unrated = manager.leaving(t)
        await manager.stop()
        store.close()
        store, manager, players, t = await _dealt(f"sqlite:///{tmp_path / 'b.sqlite3'}", now, rated=True)
        manager.watch(t, 0, _noop)
        manager.watch(t, 1, _other_noop)
        manager.unwatch(t, 0, _noop)
        manager.unwatch(t, 1, _other_noop)
        both = (manager.leaving(t), sorted(t.away))
        await manager.stop()
        store.close()
        return unrated, both

    assert asyncio.run(run()) == (None, (None, [0, 1]))


def test_a_person_who_moves_through_another_process_is_not_away(tmp_path):
    """Two servers on one PostgreSQL: a person whose connection to B closed is away on B; when
    he moves through A, B's follower applies the move and he is no longer away there (else B
    would end the match of a person playing on A)."""
    for url in database_url("postgresql", tmp_path):
        from ginrummy.web.room.follower import Follower

        async def run(url: str = url) -> tuple:
            now = FakeTime(5_000_000.0)
            store_a, manager_a, players_a, t_a = await _dealt(url, now)
            store_b = Store(url)
            manager_b = TableManager(store_b, bot_delay=0, now=now)
            manager_b.leave_grace = GRACE
            follower = Follower(manager_b, listen=False)
            players_b = Players(store_b.engine, manager_b, now=now)
            t_b = manager_b.load(t_a.id)
            players_b.restore()
            mover = t_a.match.player_to_act()
            manager_b.watch(t_b, 1 - mover, _noop)
            manager_b.watch(t_b, mover, _other_noop)
            manager_b.unwatch(t_b, mover, _other_noop)  # his connection to B closes
            before = manager_b.leaving(t_b)
            await manager_a.act(t_a, mover, t_a.match.view(mover).legal[0])  # and he moves through A
            applied = await follower.catch_up(t_a.id)
            t_b = manager_b.tables[t_a.id]
            after = (manager_b.leaving(t_b), dict(t_b.away), t_b.leave_due)
            for m, s in ((manager_a, store_a), (manager_b, store_b)):
                await m.stop()
                s.close()
            return mover, before, applied, after

        mover, before, applied, after = asyncio.run(run())
        assert before == (mover, 5_000_000.0 + GRACE)
        assert applied >= 1 and after == (None, {}, None)
