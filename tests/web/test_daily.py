"""The daily deal over the API (issue 33, docs/compete.md): the seed made once and kept secret
until the day is over, one try a deal, one level a day, the tables by matchpoints equal to a
recomputation from the stored games, how others played a deal and who may replay it, the
path and body bounds, and the revealed seed checked by ``gin daily verify``."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction

import pytest
from sqlalchemy import select

from ginrummy.compete.daily import Entry, daily_seed, daily_table, deal_seed_of_day, result_of
from ginrummy.match import commitment
from ginrummy.record import loads
from ginrummy.web.contests.daily import DailyRoom, daily_t

from .conftest import STORES, database_url, next_message, with_csrf
from .test_ratings import play_out

DAY = date(2026, 12, 4)
NOON = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


@pytest.fixture(params=STORES)
def db_url(request, tmp_path):
    yield from database_url(request.param, tmp_path)


@pytest.fixture
def pg_url(tmp_path):
    yield from database_url("postgresql", tmp_path)


@pytest.fixture
def clock():
    return {"now": NOON}


@pytest.fixture
def app_client(db_url, clock):
    import warnings

    from starlette.testclient import TestClient

    from ginrummy.web.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(db_url, bot_delay=0)
        app.state.daily.now = lambda: clock["now"]
        with TestClient(app) as c:
            yield with_csrf(c)


def _person(c, name: str) -> None:
    c.cookies.clear()
    r = c.post("/api/account", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    with_csrf(c)


def _play(c, number: int, level: str = "club", seed: int = 7) -> dict:
    r = c.post(f"/api/daily/{DAY.isoformat()}/{number}", json={"level": level})
    assert r.status_code == 201, r.text
    t = r.json()
    play_out(c, {"id": t["id"], "seats": [{"token": t["token"]}]}, 0, seed)
    return t


def test_the_seed_is_made_once_published_as_a_commitment_and_revealed_after_the_day(app_client, clock):
    c = app_client
    got = c.get("/api/daily").json()
    assert got["today"]["day"] == "2026-12-04" and got["tomorrow"]["day"] == "2026-12-05"
    assert got["today"]["seed"] is None and got["tomorrow"]["seed"] is None
    assert len(got["today"]["deal_commitments"]) == 8 and got["today"]["rules"] == "single"
    assert got["today"]["levels"] == ["novice", "club", "expert"]
    # a second process on the same database makes no other seed: the row is the row
    other = DailyRoom(c.app.state.store.engine, c.app.state.manager, now=lambda: NOON)
    assert other.seed(DAY) == c.app.state.daily.seed(DAY)
    with c.app.state.store.engine.connect() as conn:
        assert len(conn.execute(select(daily_t)).all()) == 2
    assert c.get("/api/daily/2026-12-04").json()["seed"] is None
    assert c.get("/api/daily/2026-12-06").status_code == 404  # the day after tomorrow: not yet
    assert c.get("/api/daily/2026-12-01").status_code == 404  # a past day with no set
    clock["now"] = datetime(2026, 12, 5, 0, 0, tzinfo=UTC)
    shown = c.get("/api/daily/2026-12-04").json()
    seed = bytes.fromhex(shown["seed"])
    assert commitment(seed) == got["today"]["commitment"]
    assert [commitment(deal_seed_of_day(seed, k)) for k in range(1, 9)] == got["today"]["deal_commitments"]
    assert shown["reveal_at"] == "2026-12-05T00:00:00+00:00"


def test_the_stored_seed_is_the_hmac_of_the_stored_secret(app_client):
    room = app_client.app.state.daily
    assert room.seed(DAY) == daily_seed(room._secret(), DAY)


@pytest.mark.parametrize(
    "path, body, status, words",
    [
        ("/api/daily/2026-12-04/9", {"level": "club"}, 400, "number: is out of range; allowed: at most 8"),
        ("/api/daily/2026-12-04/x1", {"level": "club"}, 400, "number: has the wrong type; allowed: a whole number"),
        ("/api/daily/2026-12-04/0", {"level": "club"}, 400, "number: is out of range; allowed: at least 1"),
        ("/api/daily/2026-1x-04/1", {"level": "club"}, 400, "day: is not a date; allowed: YYYY-MM-DD"),
        ("/api/daily/today/1", {"level": "club"}, 400, "day: is not a date; allowed: YYYY-MM-DD"),
        ("/api/daily/2026-13-04/1", {"level": "club"}, 400, "day: is not a date; allowed: YYYY-MM-DD"),
        ("/api/daily/2026-02-30/1", {"level": "club"}, 400, "day: is not a date; allowed: YYYY-MM-DD"),
        (
            "/api/daily/2026-12-04/1",
            {"level": "master"},
            400,
            "level: is not allowed; allowed: 'novice', 'club' or 'expert'",
        ),
        ("/api/daily/2026-12-04/1", {"level": "club", "x": 1}, 400, "x: is not a field here; fields: level"),
        ("/api/daily/2026-12-03/1", {"level": "club"}, 403, "only today's deals can be played; today is 2026-12-04"),
    ],
)
def test_bad_paths_and_bodies_are_refused_with_what_is_allowed(app_client, path, body, status, words):
    _person(app_client, "Ann")
    r = app_client.post(path, json=body)
    assert r.status_code == status and r.json()["error"] == words


def test_signed_out_and_no_csrf_are_refused(app_client):
    r = app_client.post("/api/daily/2026-12-04/1", json={"level": "club"})
    assert r.status_code == 401 and r.json()["error"] == "sign in to play the daily deals"
    _person(app_client, "Ann")
    del app_client.headers["X-CSRF-Token"]
    assert app_client.post("/api/daily/2026-12-04/1", json={"level": "club"}).status_code == 403


def test_a_day_of_three_people_ranks_by_matchpoints_equal_to_the_stored_games(app_client, clock):
    c = app_client
    tables = {}
    for name, seed in (("Ann", 1), ("Bob", 2), ("Cy", 3)):
        _person(c, name)
        tables[name] = [_play(c, 1, seed=seed), _play(c, 2, seed=seed + 10)]
        if name == "Ann":
            # a second try is refused; so is another level the same day; and the others, until
            # Ann finished deal 3 herself
            r = c.post("/api/daily/2026-12-04/1", json={"level": "club"})
            assert r.status_code == 409 and r.json()["error"] == "you have played daily deal 1 already: one try a deal"
            r = c.post("/api/daily/2026-12-04/3", json={"level": "expert"})
            assert r.status_code == 409
            assert r.json()["error"] == "today you play against the level club, chosen with your first deal"
            assert c.get("/api/daily/2026-12-04/3/others").status_code == 403
    # every game is the day's deal: the same seed for everyone
    room = c.app.state.daily
    seed = room.seed(DAY)
    mgr = c.app.state.manager
    for ts in tables.values():
        for k, t in enumerate(ts, start=1):
            assert mgr.tables[t["id"]].row.seed == deal_seed_of_day(seed, k)
    # the table equals matchpoints recomputed from the stored games
    recomputed = room.recompute(DAY)
    assert len(recomputed) == 6
    entries = [Entry(p, DAY, k, "club", s) for (p, k), s in recomputed.items()]
    want = [r.to_json() for r in daily_table(entries, DAY, "club")]
    got = c.get("/api/daily/2026-12-04/table?level=club").json()
    assert got["rows"] == want and len(want) == 3
    # three on a deal share 0 + 100 + 200 = 300 matchpoints out of 2 x 2 = 4 each: 150% a deal
    assert sum(r.score for r in daily_table(entries, DAY, "club")) == Fraction(2 * 150, 8)
    month = c.get("/api/daily/month/2026-12/table?level=club").json()["rows"]
    assert [(r["player"], r["score"]) for r in month] == [(r["player"], r["score"]) for r in want]
    assert c.get("/api/daily/2026-12-04/table?level=novice").json()["rows"] == []
    # how others played deal 1: best and median of the three, their results only while the day
    # goes on (their games would show the deal's cards: the stock's order, the computer's hand)
    others = c.get("/api/daily/2026-12-04/1/others").json()  # Cy is signed in
    ranked = sorted(((-s, p) for (p, k), s in recomputed.items() if k == 1))
    assert others["entrants"] == 3 and others["best"]["score"] == -ranked[0][0]
    assert others["median"]["score"] == -ranked[1][0]
    assert (others["best"]["record"], others["best"]["replay"]) == (None, None)
    # replays: nobody, Cy (who finished deal 1) neither, until the day is over; then anyone
    rid = tables["Ann"][0]["id"]
    assert c.get(f"/api/replays/{rid}").status_code == 404
    c.cookies.clear()
    assert c.get(f"/api/replays/{rid}").status_code == 404
    assert c.get("/api/daily/2026-12-04/records").status_code == 403
    clock["now"] = datetime(2026, 12, 5, 0, 1, tzinfo=UTC)
    assert c.get(f"/api/replays/{rid}").status_code == 200
    with_csrf(c)
    r = c.post("/api/session", json={"name": "Cy", "password": "correct horse"})
    assert r.status_code == 200, r.text
    with_csrf(c)
    others = c.get("/api/daily/2026-12-04/1/others").json()  # the day is over: the games too
    assert result_of(others["best"]["record"]) == others["best"]["score"]
    assert others["best"]["replay"].startswith("/replay/")
    bundle = c.get("/api/daily/2026-12-04/records").json()
    assert len(bundle["records"]) == 6 and bundle["seed"] == seed.hex()
    for g in bundle["records"]:
        assert loads(g["record"]).seed_commitment == commitment(deal_seed_of_day(seed, g["number"]))


def _verify(tmp_path, bundle: dict) -> subprocess.CompletedProcess:
    path = tmp_path / "day.json"
    path.write_text(json.dumps(bundle), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "ginrummy", "daily", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_gin_daily_verify_passes_the_revealed_seed_and_fails_a_tampered_one(app_client, clock, tmp_path):
    c = app_client
    for name, seed in (("Ann", 1), ("Bob", 2)):
        _person(c, name)
        _play(c, 1, seed=seed)
    clock["now"] += timedelta(days=1)
    bundle = c.get("/api/daily/2026-12-04/records").json()
    ok = _verify(tmp_path, bundle)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.splitlines()[-1] == "2026-12-04: the seed matches its commitment; 2 games, every one dealt from it"
    bad = dict(bundle, seed=bytes(32).hex())
    r = _verify(tmp_path, bad)
    assert r.returncode == 1
    assert r.stdout.splitlines()[0] == "2026-12-04: the seed does not match the commitment published before the day"
    other = dict(bundle, seed=bundle["seed"], records=[dict(g, number=2) for g in bundle["records"]])
    r = _verify(tmp_path, other)
    assert r.returncode == 1 and "seed-commitment is not that of daily deal 2" in r.stdout


def test_two_processes_racing_make_one_seed(db_url):
    import threading

    from ginrummy.web.db.store import Store
    from ginrummy.web.room.tables import TableManager

    stores = [Store(db_url) for _ in range(4)]
    rooms = [DailyRoom(s.engine, TableManager(s), now=lambda: NOON) for s in stores]
    start = threading.Barrier(len(rooms))
    got: list[bytes | None] = [None] * len(rooms)

    def make(i: int) -> None:
        start.wait()
        got[i] = rooms[i].seed(DAY)

    threads = [threading.Thread(target=make, args=(i,)) for i in range(len(rooms))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(set(got)) == 1 and got[0] is not None
    with stores[0].engine.connect() as conn:
        rows = conn.execute(select(daily_t)).all()
    assert [(r.day, r.seed) for r in rows] == [("2026-12-04", got[0].hex())]
    for s in stores:
        s.close()


@pytest.mark.parametrize(
    "text, words",
    [
        ("nonsense", "gin: error: not a day's games: the file is not JSON (save GET /api/daily/DAY/records)"),
        ('{"records": []}', "gin: error: day: want YYYY-MM-DD"),
        (
            '{"day": "2026-12-04", "seed": null, "commitment": "", "records": []}',
            "gin: error: seed: want 64 lowercase hex digits (the seed is shown once the day is over)",
        ),
        (
            json.dumps({"day": "2026-12-04", "seed": "0" * 64, "commitment": "0" * 64, "records": [{"number": "1"}]}),
            "gin: error: records[1]: want an object with a deal number and a record",
        ),
    ],
)
def test_gin_daily_verify_refuses_what_is_not_a_days_games(tmp_path, text, words):
    path = tmp_path / "day.json"
    path.write_text(text, encoding="utf-8")
    r = subprocess.run(
        [sys.executable, "-m", "ginrummy", "daily", "verify", str(path)], capture_output=True, text=True, timeout=120
    )
    assert (r.returncode, r.stderr.strip()) == (2, words)


def test_gin_daily_verify_refuses_a_commitment_that_is_no_hash(tmp_path):
    path = tmp_path / "day.json"
    path.write_text("{}", encoding="utf-8")
    r = subprocess.run(
        [sys.executable, "-m", "ginrummy", "daily", "verify", "--commitment", "xyz", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2
    assert (
        r.stderr.strip()
        == "gin: error: --commitment: want 64 hex digits (the day's commitment as GET /api/daily showed it)"
    )


def test_a_daily_table_and_its_result_survive_a_restart(tmp_path):
    import warnings

    from starlette.testclient import TestClient

    from ginrummy.web.app import create_app

    url = f"sqlite:///{tmp_path / 'gin.sqlite3'}"

    def app():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = create_app(url, bot_delay=0)
        a.state.daily.now = lambda: NOON
        return a

    with TestClient(app()) as c:
        with_csrf(c)
        _person(c, "Ann")
        done = _play(c, 1, seed=5)
        r = c.post("/api/daily/2026-12-04/2", json={"level": "club"})
        half = r.json()
        before = c.app.state.manager.tables[half["id"]]
        dealt = (
            tuple(before.match.deal.stock),
            before.match.deal.upcard,
        )  # the deck; the computer's moves change the hands
        rows = c.get("/api/daily/2026-12-04/table?level=club").json()["rows"]
    with TestClient(app()) as c:
        with_csrf(c)
        after = c.app.state.manager.load(half["id"])
        assert after.match is not None and not after.fair  # dealt again from the day's seed, no client seed
        assert (tuple(after.match.deal.stock), after.match.deal.upcard) == dealt
        assert c.get("/api/daily/2026-12-04/table?level=club").json()["rows"] == rows
        assert c.app.state.manager.load(done["id"]).match.finished


def test_a_rematch_of_a_daily_deal_is_an_ordinary_table_with_client_seeds(app_client):
    c = app_client
    _person(c, "Ann")
    t = _play(c, 1, seed=3)
    with c.websocket_connect(f"/ws/table/{t['id']}?seat={t['token']}") as ws:
        ws.send_json({"type": "rematch", "id": 1})
        msg = next_message(ws, lambda m: m.get("type") == "rematch")
    new = c.app.state.manager.tables[msg["id"]]
    assert "daily" not in new.options and new.options["rematch_of"] == t["id"]
    assert new.fair and new.match is None
    assert new.row.seed != c.app.state.manager.tables[t["id"]].row.seed


def test_two_server_processes_make_one_seed_and_one_table(pg_url):
    """Two ``gin serve`` on one PostgreSQL: the first requests of both at once make one day seed
    (the same commitments from both); a person on each plays deal 1; both servers answer the
    same day's table."""
    import asyncio
    import os
    import signal
    import threading

    import httpx

    from .test_restart import _free_port, _start
    from .test_servers import Seat

    url = pg_url
    ports = [_free_port(), _free_port()]
    procs = [_start(ports[0], url), _start(ports[1], url)]
    try:
        bases = [f"http://127.0.0.1:{p}" for p in ports]
        seen: list[dict] = [{}, {}]
        start = threading.Barrier(2)

        def look(i: int) -> None:
            start.wait()
            seen[i] = httpx.get(bases[i] + "/api/daily", timeout=60).json()

        threads = [threading.Thread(target=look, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(90)
        assert seen[0]["today"] == seen[1]["today"] and seen[0]["tomorrow"] == seen[1]["tomorrow"]
        day = seen[0]["today"]["day"]
        for i, name in enumerate(("Ann", "Bob")):
            with httpx.Client(base_url=bases[i], timeout=60) as c:
                assert c.post("/api/account", json={"name": name, "password": "correct horse"}).status_code == 201
                c.headers["X-CSRF-Token"] = c.cookies["gin_csrf"]
                r = c.post(f"/api/daily/{day}/1", json={"level": "novice"})
                assert r.status_code == 201, r.text
                t = r.json()
            ws = f"ws://127.0.0.1:{ports[i]}/ws/table/{t['id']}?seat={t['token']}"
            assert asyncio.run(Seat(ws, 0).play())["match"]["finished"]
        tables = [httpx.get(f"{b}/api/daily/{day}/table?level=novice", timeout=60).json()["rows"] for b in bases]
        assert tables[0] == tables[1] and sorted(r["player"] for r in tables[0]) == ["Ann", "Bob"]
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait(10)


def test_a_player_page_keeps_a_daily_result_off_until_the_day_is_over(app_client, clock):
    """Who won a daily deal tells something of its cards: the player page's recent matches
    leave the game out while others may still play the deal, and list it once the day is over."""
    c = app_client
    _person(c, "Ann")
    t = _play(c, 1)
    assert c.app.state.daily.secret([t["id"], "nosuchtable0"]) == {t["id"]}
    assert [m["id"] for m in c.get("/api/players/Ann").json()["recent"]] == []
    clock["now"] = datetime(2026, 12, 5, 0, 0, tzinfo=UTC)
    assert c.app.state.daily.secret([t["id"]]) == set()
    assert [m["id"] for m in c.get("/api/players/Ann").json()["recent"]] == [t["id"]]


def test_a_daily_games_seeds_and_record_wait_for_the_end_of_its_day(app_client, clock):
    """A finished daily game showed its match seed (hence the whole deck: the stock's order,
    the computer's hand) to the player at once, and its record could be downloaded: a second
    account of his would then play the day's deal knowing every card.  Both wait for the end of
    the day now, however the game ended."""
    c = app_client
    c.app.state.manager.now = lambda: clock["now"].timestamp()
    _person(c, "Ann")
    t = _play(c, 1)
    table = c.app.state.manager.tables[t["id"]]
    assert table.over
    state = table.state_for(0)
    assert state["fair"]["match_seed"] is None
    assert state["record_available"] is False  # the page offers no download that would be refused
    seed = table.row.seed.hex()
    assert seed not in json.dumps(state)
    r = c.get(f"/api/tables/{t['id']}/record", params={"seat": t["token"]})
    assert (r.status_code, r.json()["code"]) == (403, "not_allowed")
    assert "once its day is over" in r.json()["error"]
    # a game resigned at once: the same
    r = c.post(f"/api/daily/{DAY.isoformat()}/2", json={"level": "club"})
    quick = r.json()
    with c.websocket_connect(f"/ws/table/{quick['id']}?seat={quick['token']}") as ws:
        ws.send_json({"type": "resign", "id": "r"})
        assert next_message(ws, lambda m: m.get("reply_to") == "r")["type"] == "ack"
    resigned = c.app.state.manager.tables[quick["id"]]
    assert resigned.over and resigned.state_for(0)["fair"]["match_seed"] is None
    # the day is over: the seed and the record are shown
    clock["now"] = datetime(2026, 12, 5, 0, 0, tzinfo=UTC)
    assert table.state_for(0)["fair"]["match_seed"] == seed
    assert table.state_for(0)["record_available"] is True
    r = c.get(f"/api/tables/{t['id']}/record", params={"seat": t["token"]})
    assert r.status_code == 200 and f"seed {seed}" in r.text
