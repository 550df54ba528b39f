"""Swiss tournaments in the room (issue 33, docs/compete.md "Tournaments in the room"): the
service over a real store and table manager, played to the end by computer entrants and
scripted people; standings equal a recomputation from the stored games, no pairing repeats,
a restart in the middle of a round resumes, two app instances on one database pair once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from ginrummy.compete import swiss
from ginrummy.compete.tournament import Tournament, TournamentSettings
from ginrummy.web.community.members import Players
from ginrummy.web.contests.tournament_view import games_from_tables
from ginrummy.web.contests.tournaments import Tournaments, table_id_of
from ginrummy.web.db.store import Store
from ginrummy.web.db.tournaments import events_t
from ginrummy.web.errors import WebError
from ginrummy.web.room.tables import SeatSpec, TableManager

from .conftest import STORES, database_url

T0 = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def _app(url: str, clock: Clock) -> tuple[Store, TableManager, Players, Tournaments]:
    store = Store(url)
    manager = TableManager(store, bot_delay=0)
    players = Players(store.engine, manager)
    return store, manager, players, Tournaments(manager, players, clock)


def _settings(**kw: Any) -> TournamentSettings:
    base = {
        "name": "Friday Swiss",
        "kind": "swiss",
        "start": (T0 + timedelta(minutes=10)).isoformat(),
        "rounds": 2,
        "scoring": "deal",
        "levels": ["random", "novice"],
    }
    return TournamentSettings.model_validate({**base, **kw})


def _people(players: Players, n: int) -> list[Any]:
    return [players.accounts.sign_up(f"player{i}", "a long enough password") for i in range(n)]


async def _play_people(manager: TableManager) -> None:
    """Make one move for every person whose turn it is at any table (a scripted person: gin or
    knock when he may, else the first legal action), and send the client seeds wanted."""
    for table in list(manager.tables.values()):
        if table.over:
            continue
        n = table.next_deal_number
        for p in list(table.waiting_for):
            await manager.client_seed(table, p, n, f"seed{p}{n}")
        table = manager.current(table)
        if table.match is not None and table.match.deal.is_over and not table.over and not table.waiting_for:
            await manager.next_deal(table, None)
            continue
        for p in table.humans:
            legal = manager.current(table).legal_now(p)
            if legal:
                pick = next((a for a in legal if a.kind in ("gin", "big_gin", "knock")), legal[0])
                await manager.act(manager.current(table), p, pick)


async def _run(ts: Tournaments, tid: str, until: Any, limit: int = 4000) -> None:
    for _ in range(limit):
        await ts.advance(tid)
        if until(ts.load(tid)):
            return
        await _play_people(ts.manager)
        await asyncio.sleep(0)
    raise AssertionError("the tournament did not get there")


def _recomputed(store_url: str, tid: str, t: Tournament) -> list[swiss.Standing]:
    """The standings from the stored games alone: each table rebuilt from its steps by a fresh
    manager, its winner (or the forfeit) read from the match."""
    manager = TableManager(Store(store_url), bot_delay=0)
    games = games_from_tables(tid, t, manager.load)
    assert all(g.result is not None for g in games if g.b is not None)  # every table over
    manager.store.close()
    return swiss.standings(t.players, games)


@pytest.fixture(params=STORES)
def store_url(request, tmp_path):
    yield from database_url(request.param, tmp_path)


def test_a_swiss_of_people_and_computers_runs_to_the_final_table(store_url):
    url = store_url
    clock = Clock()
    store, manager, players, ts = _app(url, clock)
    ann, bob = _people(players, 2)
    tid = ts.create(ann, _settings(rounds=3))
    ts.join(tid, ann)
    ts.join(tid, bob)
    assert [e["name"] for e in ts.view(tid)["entrants"]] == ["random", "novice", "player0", "player1"]

    async def go() -> None:
        assert not await ts.advance(tid)  # before the start: nothing
        assert ts.load(tid).state == "registration"
        clock.now = T0 + timedelta(minutes=10)
        await _run(ts, tid, lambda t: t.state == "finished")

    asyncio.run(go())
    t = ts.load(tid)
    assert t.rounds == 3 and t.round == 3
    pairs = [frozenset((g.a, g.b)) for g in t.games if g.b is not None]
    assert len(pairs) == 6 and len(set(pairs)) == 6  # 4 players, 3 rounds: everyone met everyone once
    assert t.swiss_table() == _recomputed(url, tid, t)
    view = ts.view(tid)
    assert view["final"] == view["standings"] and len(view["pairings"]) == 3
    assert all(g["table"] == table_id_of(tid, g["id"]) for r in view["pairings"] for g in r["games"])
    # the tables were open to spectators, people seated under their accounts
    table = manager.load(table_id_of(tid, "1-1"))
    assert table.public and table.options["tournament"] == tid
    people = next(
        manager.load(table_id_of(tid, gid))
        for gid, g in zip(t.game_ids, t.games)
        if g.b is not None and not g.a.startswith("bot:") and not g.b.startswith("bot:")
    )
    assert people.over and people.state_for(0)["rematch"]["can_ask"] is False

    async def rematch() -> None:
        await manager.ask_rematch(people, 0, lambda send: None)

    with pytest.raises(WebError) as e:
        asyncio.run(rematch())
    assert str(e.value) == "a tournament's table has no rematch: its next round is paired for you"
    store.close()


def test_a_restart_in_the_middle_of_a_round_resumes(store_url):
    url = store_url
    clock = Clock()
    store, manager, players, ts = _app(url, clock)
    people = _people(players, 3)
    tid = ts.create(people[0], _settings(levels=["random", "novice", "club"]))
    for p in people:
        ts.join(tid, p)
    clock.now = T0 + timedelta(minutes=10)
    asyncio.run(ts.advance(tid))
    first = ts.load(tid)
    assert first.round == 1 and len(first.games) == 3 and first.in_play()  # the people's games in play
    store.close()  # the server stops with round 1 in play

    store2, manager2, _players2, ts2 = _app(url, clock)
    manager2.load_all()

    async def go() -> None:
        manager2.start()  # as the app's start-up does: the pending computer moves resume
        await _run(ts2, tid, lambda t: t.state == "finished")
        await manager2.stop()

    asyncio.run(go())
    t = ts2.load(tid)
    assert t.games[:3] == [swiss.Game(1, g.a, g.b, t.games[i].result) for i, g in enumerate(first.games)]
    with store2.engine.connect() as conn:
        paired = conn.execute(
            select(func.count()).where(events_t.c.tournament_id == tid, events_t.c.kind == "paired")
        ).scalar_one()
    assert paired == 2
    assert len({frozenset((g.a, g.b)) for g in t.games}) == 6
    assert t.swiss_table() == _recomputed(url, tid, t)
    store2.close()


def test_two_app_instances_on_one_database_pair_once(store_url):
    url = store_url
    clock = Clock()
    a = _app(url, clock)
    b = _app(url, clock)
    people = _people(a[2], 2)
    tid = a[3].create(people[0], _settings())
    for p in people:
        a[3].join(tid, p)
    clock.now = T0 + timedelta(minutes=10)

    async def go() -> None:
        await asyncio.gather(a[3].advance(tid), b[3].advance(tid), a[3].advance(tid), b[3].advance(tid))

    asyncio.run(go())
    events = a[3].db.events(tid)
    assert [e["type"] for e in events].count("paired") == 1
    assert [e["type"] for e in events].count("started") == 1
    t = a[3].load(tid)
    ids = [table_id_of(tid, gid) for gid in t.in_play()]
    assert sorted(set(a[0].table_ids()) & set(ids)) == sorted(ids)  # each table stored once
    # a stale view of the events cannot store a second pairing of round 1
    paired = next(e for e in events if e["type"] == "paired")
    assert not a[3].db.append(tid, len(events) + 1, [paired], "running")
    assert len(a[3].db.events(tid)) == len(events)
    a[0].close()
    b[0].close()


def test_limits_and_refusals(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    clock = Clock()
    store, _manager, players, ts = _app(url, clock)
    (ann,) = _people(players, 1)
    ts.create(ann, _settings())
    ts.create(ann, _settings())
    with pytest.raises(WebError) as e:
        ts.create(ann, _settings())
    assert e.value.code == "bad_request" and str(e.value) == (
        "you have 2 tournaments not finished; a new one when one has ended"
    )
    with pytest.raises(WebError):
        ts.create(ann, _settings(max_players=65))
    with pytest.raises(WebError):
        ts.create(ann, _settings(levels=["nobody"]))
    with pytest.raises(WebError):
        ts.create(ann, _settings(start=(T0 - timedelta(minutes=1)).isoformat()))
    with pytest.raises(WebError):
        ts.load("nosuch")
    store.close()


def test_blocked_people_cannot_both_enter_one_tournament(tmp_path):
    """A Swiss may pair any two entrants, and blocked people are never seated together
    (docs/accounts.md): whoever enters second is refused, in either direction of the block;
    an entrant who blocked nobody enters (the new-user trial of stop 39 saw them paired)."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    store, _manager, players, ts = _app(url, Clock())
    ann, bob, cy = _people(players, 3)
    tid = ts.create(ann, _settings())
    players.accounts.moderation.relate(bob.id, "player0", "block")  # Bob blocks Ann
    ts.join(tid, ann)
    with pytest.raises(WebError) as e:
        ts.join(tid, bob)
    assert (e.value.code, str(e.value)) == (
        "blocked",
        "you cannot enter this tournament: you and an entrant blocked one another",
    )
    ts.join(tid, cy)
    assert [p for p in ts.load(tid).players if p.startswith("a")] == [f"a{ann.id}", f"a{cy.id}"]
    store.close()


def test_a_withdrawn_player_forfeits_his_game_and_is_not_paired_again(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    clock = Clock()
    store, _manager, players, ts = _app(url, clock)
    ann, bob = _people(players, 2)
    tid = ts.create(ann, _settings(levels=["random", "novice"], rounds=3))
    ts.join(tid, ann)
    ts.join(tid, bob)
    clock.now = T0 + timedelta(minutes=10)

    async def go() -> None:
        await ts.advance(tid)
        ts.withdraw(tid, bob)
        await ts.advance(tid)

    asyncio.run(go())
    t = ts.load(tid)
    game = next(g for g in t.games if "a" + str(bob.id) in (g.a, g.b))
    assert game.result == ("forfeit_a" if game.a == f"a{bob.id}" else "forfeit_b")
    assert f"a{bob.id}" in t.withdrawn
    assert all(f"a{bob.id}" not in (g.a, g.b) for g in t.games if g.round > 1)
    store.close()


def test_the_api_from_creation_to_a_seat_and_a_withdrawal(db_url):
    import warnings

    from starlette.testclient import TestClient

    from ginrummy.web.app import create_app

    from .conftest import wait_until, with_csrf

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(db_url, bot_delay=0)
    with TestClient(app) as ann:
        bob = TestClient(app)
        with_csrf(ann)
        with_csrf(bob)
        start = (datetime.now(UTC) + timedelta(seconds=2)).isoformat()
        body = {"name": "Quick", "start": start, "rounds": 2, "scoring": "deal", "levels": ["random", "novice"]}
        r = ann.post("/api/tournaments", json=body)
        assert r.status_code == 401 and r.json()["code"] == "not_signed_in"
        assert ann.post("/api/account", json={"name": "Ann", "password": "correct horse"}).status_code == 201
        assert bob.post("/api/account", json={"name": "Bob", "password": "correct horse"}).status_code == 201
        r = ann.post("/api/tournaments", json={**body, "rounds": 16})
        assert r.status_code == 400 and r.json()["code"] == "bad_message"
        r = ann.post("/api/tournaments", json={**body, "start": "tomorrow at six"})
        assert r.status_code == 400 and r.json()["error"].startswith("start is not valid")
        r = ann.post("/api/tournaments", json=body, headers={"X-CSRF-Token": "wrong"})
        assert r.status_code == 403 and r.json()["code"] == "csrf"
        r = ann.post("/api/tournaments", json=body)
        assert r.status_code == 201
        tid = r.json()["id"]
        # a request that takes no body refuses a broken one, and changes nothing (the new-user trial)
        json_type = {"Content-Type": "application/json"}
        r = ann.post(f"/api/tournaments/{tid}/join", content=b'{"x": ', headers=json_type)
        assert (r.status_code, r.json()["code"]) == (400, "bad_json")
        r = ann.post(f"/api/tournaments/{tid}/join", content=b"hello", headers={"Content-Type": "text/plain"})
        assert (r.status_code, r.json()["code"]) == (415, "unsupported_media_type")
        r = ann.post(f"/api/tournaments/{tid}/join", json={"x": 1})
        assert (r.status_code, r.json()["code"]) == (400, "bad_message") and "x" in r.json()["error"]
        assert ann.get(f"/api/tournaments/{tid}").json()["me"]["entered"] is False
        assert ann.post(f"/api/tournaments/{tid}/join", json={}).json() == {"ok": True}
        assert ann.post(f"/api/tournaments/{tid}/withdraw").json() == {"ok": True}
        assert ann.post(f"/api/tournaments/{tid}/join").json() == {"ok": True}
        assert bob.post(f"/api/tournaments/{tid}/join").json() == {"ok": True}
        r = bob.post(f"/api/tournaments/{tid}/join")
        assert r.status_code == 400 and r.json()["error"] == "Bob has already entered"
        assert [x["id"] for x in ann.get("/api/tournaments").json()["upcoming"]] == [tid]
        view = ann.get(f"/api/tournaments/{tid}").json()
        assert [e["name"] for e in view["entrants"]] == ["random", "novice", "Ann", "Bob"]
        assert view["me"] == {"entered": True, "withdrawn": False, "table": None}
        assert ann.get(f"/tournaments/{tid}").status_code == 200
        assert ann.get("/tournaments").status_code == 200

        wait_until(lambda: ann.get(f"/api/tournaments/{tid}").json()["round"] == 1, "round 1 paired")
        me = ann.get(f"/api/tournaments/{tid}").json()["me"]
        assert me["table"] is not None
        # the round is paired before its tables are stored: a seat asked for in between is told
        # to try again (409), then given
        seat: list = []
        wait_until(lambda: seat.append(ann.post(f"/api/tournaments/{tid}/seat")) or seat[-1].status_code != 409,
                   "the table opened")
        r = seat[-1]
        assert all(x.json()["error"] == "your table is being opened; try again in a moment" for x in seat[:-1])
        assert r.status_code == 200 and r.json()["table"] == me["table"]
        link = r.json()["link"]
        token = link.split("seat=")[1]
        with ann.websocket_connect(f"/ws/table/{me['table']}?seat={token}") as ws:
            ws.send_json({"type": "sync", "id": 1})
            st = ws.receive_json()
            assert st["type"] == "state" and st["table"]["names"][st["you"]] == "Ann"
            assert st["table"]["tournament"] == tid  # the page's way back to the tournament
        assert [x["id"] for x in ann.get("/api/tournaments").json()["running"]] == [tid]
        assert ann.post(f"/api/tournaments/{tid}/withdraw").json() == {"ok": True}
        view = ann.get(f"/api/tournaments/{tid}").json()
        game = next(g for g in view["pairings"][0]["games"] if "Ann" in (g["a"], g["b"]))
        assert game["result"] == ("forfeit_a" if game["a"] == "Ann" else "forfeit_b")
        assert view["me"]["withdrawn"] is True
        r = ann.post(f"/api/tournaments/{tid}/seat")
        assert r.status_code == 404


def test_an_arena_pairs_the_free_at_once_and_ends_at_its_time(tmp_path):
    from ginrummy.compete.arena import arena_standings

    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    clock = Clock()
    store, manager, players, ts = _app(url, clock)
    (ann,) = _people(players, 1)
    tid = ts.create(ann, _settings(kind="arena", minutes=10, levels=["random", "novice", "club"]))
    ts.join(tid, ann)
    clock.now = T0 + timedelta(minutes=10)

    async def go() -> None:
        await _run(ts, tid, lambda t: sum(g.result is not None for g in t.games) >= 8)
        clock.now = T0 + timedelta(minutes=20)  # the end: no new game, the games in play do not count
        await ts.advance(tid)

    asyncio.run(go())
    t = ts.load(tid)
    assert t.state == "finished" and len(t.games) >= 8
    assert all(g.round == 0 and g.b is not None for g in t.games)
    # the standings equal a recomputation from the stored tables of the games with a result
    outcomes: dict[str, list[str]] = {p: [] for p in t.players}
    fresh = TableManager(Store(url), bot_delay=0)
    for gid, g in zip(t.game_ids, t.games):
        if g.result is None:
            continue
        table = fresh.load(table_id_of(tid, gid))
        w = table.match.winner if table.forfeit is None else 1 - table.forfeit
        outcomes[g.a].append("win" if w == 0 else "loss" if w == 1 else "draw")
        outcomes[g.b].append("win" if w == 1 else "loss" if w == 0 else "draw")
    assert t.arena_table() == arena_standings(t.players, outcomes)
    view = ts.view(tid)
    assert view["ends"] == (T0 + timedelta(minutes=20)).isoformat() and view["standings"][0]["points"] >= 2
    assert len(view["pairings"]) == 1 and len(view["pairings"][0]["games"]) == len(t.games)
    fresh.store.close()
    store.close()


def test_a_person_who_never_comes_to_his_table_is_forfeited_after_the_grace(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    clock = Clock()
    store, manager, players, ts = _app(url, clock)
    seconds = [datetime.now(UTC).timestamp()]
    manager.now = lambda: seconds[0]
    ann, bob = _people(players, 2)
    tid = ts.create(ann, _settings(levels=[], clock_move=10, clock_bank=30))
    ts.join(tid, ann)
    ts.join(tid, bob)
    clock.now = T0 + timedelta(minutes=10)

    async def go() -> None:
        await ts.advance(tid)  # paired: Ann against Bob, the first deal waits for their client seeds
        table = manager.tables[table_id_of(tid, "1-1")]
        await manager.client_seed(table, 0, 1, "ann's seed")  # Ann came; Bob never does
        seconds[0] += ts.grace(ts.load(tid))  # 30 + 3 x 10 = 60 s: not yet
        await ts.advance(tid)
        assert ts.load(tid).in_play() == ["1-1"]
        seconds[0] += 1
        await ts.advance(tid)

    asyncio.run(go())
    t = ts.load(tid)
    assert ts.grace(t) == 60
    assert t.games[0].result == ("forfeit_b" if t.games[0].a == f"a{ann.id}" else "forfeit_a")
    assert t.withdrawn == [f"a{bob.id}"] and t.state == "finished"  # one left in: it ends
    store.close()


def test_a_stale_copy_of_a_table_forfeits_no_one(tmp_path):
    """A second server's copy of a table that the first has dealt (SQLite: no follower) still
    says it waits for the seeds: the store's newer steps keep it from forfeiting anyone."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    clock = Clock()
    a = _app(url, clock)
    b = _app(url, clock)
    seconds = [datetime.now(UTC).timestamp()]
    b[1].now = lambda: seconds[0]
    ann, bob = _people(a[2], 2)
    tid = a[3].create(ann, _settings(levels=[], clock_move=10, clock_bank=30))
    a[3].join(tid, ann)
    a[3].join(tid, bob)
    clock.now = T0 + timedelta(minutes=10)

    async def go() -> None:
        await a[3].advance(tid)
        await b[3].advance(tid)  # b loads its copy of the table: waiting for both seeds
        table = a[1].tables[table_id_of(tid, "1-1")]
        await a[1].client_seed(table, 0, 1, "ann")
        await a[1].client_seed(a[1].current(table), 1, 1, "bob")  # dealt, in a only
        seconds[0] += 3600
        await b[3].advance(tid)

    asyncio.run(go())
    assert b[3].load(tid).in_play() == ["1-1"] and b[3].load(tid).withdrawn == []
    a[0].close()
    b[0].close()


def test_bad_requests_are_refused_with_one_clear_error(client):
    start = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    assert client.post("/api/account", json={"name": "Cy", "password": "correct horse"}).status_code == 201
    body = {"name": "Night", "start": start}
    for bad, field in (
        ({**body, "extra": 1}, "extra"),
        ({**body, "levels": ["random"] * 9}, "levels"),
        ({**body, "name": ""}, "name"),
        ({**body, "clock_move": 4}, "clock_move"),
        ({**body, "minutes": 721}, "minutes"),
        ({**body, "kind": "knockout"}, "kind"),
        ({**body, "scoring": "oklahoma"}, "scoring"),
    ):
        r = client.post("/api/tournaments", json=bad)
        assert r.status_code == 400 and r.json()["code"] == "bad_message" and field in r.json()["error"], (
            bad,
            r.json(),
        )
    for tid in ("nosuch", "<script>", "a" * 300):
        r = client.get(f"/api/tournaments/{tid}")
        assert r.status_code == 404 and r.json()["code"] == "not_found"
        assert client.post(f"/api/tournaments/{tid}/join").status_code == 404
    r = client.post("/api/tournaments", json={**body, "levels": ["nobody"]})
    assert r.status_code == 400 and r.json()["error"].startswith("unknown computer level 'nobody'")
    r = client.post("/api/tournaments", json={**body, "levels": ["sage-fast"]})
    assert r.status_code == 400 and r.json()["error"].startswith(
        "the computer level 'sage-fast' is not offered at the web table; levels: random, novice,")
    assert client.get("/api/tournaments").json() == {"upcoming": [], "running": [], "finished": []}


def test_a_turn_based_swiss_gives_days_a_move_and_forfeits_on_the_days(tmp_path):
    from ginrummy.web.contests.turns import Turns
    from ginrummy.web.room.clock import DAY

    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    clock = Clock()
    store, manager, players, ts = _app(url, clock)
    seconds = [T0.timestamp()]
    manager.now = lambda: seconds[0]
    ann, bob = _people(players, 2)
    with pytest.raises(WebError, match="an arena is played live: a turn-based tournament is a Swiss one"):
        ts.create(ann, _settings(kind="arena", levels=[], clock_days=1))
    tid = ts.create(ann, _settings(levels=[], clock_days=2, rounds=1))
    ts.join(tid, ann)
    ts.join(tid, bob)
    clock.now = T0 + timedelta(minutes=10)

    async def go() -> tuple[Any, ...]:
        await ts.advance(tid)
        table = manager.tables[table_id_of(tid, "1-1")]
        assert table.options["clock"] == {"days": 2} and table.turn_based
        assert ts.grace(ts.load(tid)) == 2 * DAY
        await manager.client_seed(table, 0, 1, "a")
        await manager.client_seed(table, 1, 1, "b")
        table = manager.tables[table.id]
        mover = table.match.player_to_act()
        account = (ann, bob)[mover] if table.names[0] == ann.name else (bob, ann)[mover]
        turns = Turns(manager).of(account.id, seconds[0])
        seconds[0] += 2 * DAY + 1  # he never moves: a second past his deadline (a move at it is in time)
        assert await manager.check_clock(table)
        await ts.advance(tid)
        return mover, turns, manager.tables[table.id].how_ended

    mover, turns, how = asyncio.run(go())
    assert [(e["table"], e["why"], e["left"]) for e in turns] == [(table_id_of(tid, "1-1"), "move", 2 * 86400)]
    t = ts.load(tid)
    assert how == "time" and t.games[0].result == ("forfeit_a", "forfeit_b")[mover] and t.state == "finished"
    store.close()


def test_a_seat_link_asked_for_while_the_table_is_being_stored_stays_valid(tmp_path):
    """A tournament's game table is stored in a worker thread and only then kept by the manager.
    A seat link asked for in between (the page asks as soon as the round is paired) loaded a
    copy from the store and put its new token there; keeping the table made before replaced
    that copy, and the link said "this link's seat token is not valid" (seen now and then in
    test_the_api_from_creation_to_a_seat_and_a_withdrawal)."""
    from ginrummy.rules import preset
    from ginrummy.web.room.seats import secret_hash

    store, manager, _players, _ts = _app(f"sqlite:///{tmp_path / 'gin.sqlite3'}", Clock())
    seats = [SeatSpec(kind="human", name="Ann"), SeatSpec(kind="bot", level="random")]
    table, _shown = manager.create(preset("single"), seats, seat_all=True, stored_later=True)
    store.create_table(table.row, table.seat_secrets, table.options)  # the worker thread's write
    copy = manager.load(table.id)  # the seat request, before the manager keeps the table
    assert copy is not table
    assert store.reseat(table.id, 0, secret_hash("the new link"))
    copy.seat_secrets = store.seat_secrets(table.id)
    manager.opened(table)  # the thread is done
    held = manager.tables[table.id]
    assert held is table and held.player_of("the new link") == 0
    store.close()
