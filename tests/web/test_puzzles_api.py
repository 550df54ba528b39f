"""The puzzle room over the API (issue 32; docs/protocol.md "Puzzles", docs/puzzles.md): the best
move is in no answer before the attempt, the answer is checked by the server, bad input is
refused with a clear error, an account's puzzle rating moves once per puzzle, the daily puzzle is
the same all day, and the answer POST passes the CSRF check."""

from __future__ import annotations

import json
import warnings
from datetime import date

import pytest
from starlette.testclient import TestClient

from ginrummy.analysis.puzzles import loads_puzzles
from ginrummy.web.app import create_app
from ginrummy.web.community.puzzles import daily_index, shipped_set

from .conftest import STORES, database_url, with_csrf

SET = shipped_set()
BY_ID = {p.id: p for p in SET}


def _signup(c: TestClient, name: str = "Ann") -> None:
    assert c.post("/api/account", json={"name": name, "password": "correct horse"}).status_code == 201


def _secret_words(pid: str) -> list[str]:
    """What would give puzzle ``pid``'s answer away: its best move's text and the keys of the
    explanation."""
    return [f'"{BY_ID[pid].best}"', '"best"', '"losses"', '"margin"', '"rules"']


def _leaks(text: str, pid: str) -> list[str]:
    # the best move is one of the legal moves, which are sent: it must not appear elsewhere
    body = json.loads(text)
    legal = body["puzzle"]["legal_actions"]
    rest = json.dumps({k: v for k, v in body["puzzle"].items() if k != "legal_actions"})
    out = [w for w in _secret_words(pid)[1:] if w in text]
    if f'"{BY_ID[pid].best}"' in rest:
        out.append("best move outside legal_actions")
    assert sorted(legal) == sorted([BY_ID[pid].best, *BY_ID[pid].losses])
    return out


def test_no_answer_leaks_the_best_move_before_the_attempt(client):
    first = client.get("/api/puzzles/next")
    assert first.status_code == 200
    pid = first.json()["puzzle"]["id"]
    assert pid == SET[0].id  # a guest starts at the set's first puzzle
    assert _leaks(first.text, pid) == []
    daily = client.get("/api/puzzles/daily")
    assert _leaks(daily.text, daily.json()["puzzle"]["id"]) == []
    one = client.get(f"/api/puzzles/{SET[5].id}")
    assert _leaks(one.text, SET[5].id) == []
    themed = client.get("/api/puzzles/next", params={"theme": "gin"})
    assert themed.json()["puzzle"]["theme"] == "gin" and _leaks(themed.text, themed.json()["puzzle"]["id"]) == []
    overview = client.get("/api/puzzles").json()
    assert overview["total"] == len(SET) and overview["me"] is None
    assert [t["theme"] for t in overview["themes"]] == ["upcard", "draw", "knock", "gin", "danger", "discard"]
    assert sum(t["count"] for t in overview["themes"]) == len(SET)


def test_the_public_position_is_the_players_view_only():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app("sqlite://", bot_delay=0)
    room = app.state.ctx.puzzles
    p = SET[0]
    pub = room.public(p)
    assert set(pub) == {
        "id",
        "theme",
        "phase",
        "hand",
        "discard_pile",
        "upcard",
        "taken",
        "stock_size",
        "opponent_count",
        "opponent_seen",
        "knock_limit",
        "legal_actions",
        "score",
        "rating",
        "attempts",
    }
    assert pub["hand"] == p.view["hand"] and pub["legal_actions"] == p.view["legal_actions"]
    assert pub["score"] == {"you": 0, "opponent": 4, "target": 100} and pub["rating"] == 1000


def test_a_guest_answers_wrong_then_right(client):
    p = SET[0]
    wrong = next(iter(p.losses))
    r = client.post(f"/api/puzzles/{p.id}/answer", json={"move": wrong})
    assert r.status_code == 200
    assert r.json() == {
        "id": p.id,
        "move": wrong,
        "correct": False,
        "best": p.best,
        "loss": p.losses[wrong],
        "losses": p.losses,
        "margin": p.margin,
        "theme": p.theme,
        "rules": list(p.rules),
        "rated": False,
        "rating": None,
        "puzzle_rating": 1000,
    }
    assert list(r.json()["losses"].values()) == sorted(p.losses.values())  # smallest first
    r = client.post(f"/api/puzzles/{p.id}/answer", json={"move": p.best})
    assert (r.json()["correct"], r.json()["loss"], r.json()["rated"]) == (True, 0.0, False)
    nxt = client.get("/api/puzzles/next", params={"after": p.id}).json()["puzzle"]
    assert nxt["id"] == SET[1].id


def test_an_account_is_rated_once_per_puzzle_and_gets_an_untried_puzzle(client):
    _signup(client)
    p = client.get("/api/puzzles/next").json()["puzzle"]
    r = client.post(f"/api/puzzles/{p['id']}/answer", json={"move": BY_ID[p["id"]].best}).json()
    assert r["rated"] is True and r["rating"]["before"] == 1000 and r["rating"]["after"] > 1000
    assert r["rating"]["attempts"] == 1 and r["rating"]["solved"] == 1 and r["puzzle_rating"] < 1000
    again = client.post(f"/api/puzzles/{p['id']}/answer", json={"move": BY_ID[p["id"]].best}).json()
    assert again["rated"] is False and again["rating"]["after"] == r["rating"]["after"]
    me = client.get("/api/puzzles").json()["me"]
    assert me == {"rating": r["rating"]["after"], "attempts": 1, "solved": 1}
    assert client.get("/api/puzzles/next").json()["puzzle"]["id"] != p["id"]
    # the puzzle's own rating is shown to the next person
    assert client.get(f"/api/puzzles/{p['id']}").json()["puzzle"]["rating"] == r["puzzle_rating"]


def test_a_wrong_answer_lowers_the_rating(client):
    _signup(client)
    p = SET[0]
    r = client.post(f"/api/puzzles/{p.id}/answer", json={"move": next(iter(p.losses))}).json()
    assert r["rated"] is True and r["rating"]["after"] < r["rating"]["before"] == 1000
    assert r["puzzle_rating"] > 1000


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code", "words"),
    [
        ("post", "/api/puzzles/{id}/answer", {"move": "discard ZZ"}, 400, "bad_move", "legal moves:"),
        ("post", "/api/puzzles/{id}/answer", {"move": "x" * 41}, 400, "bad_message", "move"),
        ("post", "/api/puzzles/{id}/answer", {"move": 7}, 400, "bad_message", "move"),
        ("post", "/api/puzzles/{id}/answer", {"mov": "pass"}, 400, "bad_message", "move: is missing"),
        ("post", "/api/puzzles/000000000000/answer", {"move": "pass"}, 404, "not_found", "no puzzle 000000000000"),
        ("get", "/api/puzzles/nothex", None, 404, "not_found", "12 hex digits"),
        ("get", "/api/puzzles/next?theme=luck", None, 400, "bad_message", "theme"),
        ("get", "/api/puzzles/next?after=123", None, 400, "bad_message", "after"),
        ("get", "/api/puzzles/next?seed=1", None, 400, "bad_message", "fields: theme, after"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error(client, method, path, body, status, code, words):
    p = SET[0]
    r = getattr(client, method)(path.format(id=p.id), **({} if body is None else {"json": body}))
    assert (r.status_code, r.json()["code"]) == (status, code)
    assert words in r.json()["error"]
    if code == "bad_move":
        assert (
            r.json()["error"]
            == f"discard ZZ is not a legal move in this puzzle; legal moves: {', '.join(p.view['legal_actions'])}"
        )


def test_the_answer_post_needs_the_csrf_header(db_url):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(db_url, bot_delay=0)
    with TestClient(app) as c:
        c.get("/api/me")  # a browser: it has the gin_csrf cookie
        r = c.post(f"/api/puzzles/{SET[0].id}/answer", json={"move": SET[0].best})
        assert (r.status_code, r.json()["code"]) == (403, "csrf")
        r = with_csrf(c).post(f"/api/puzzles/{SET[0].id}/answer", json={"move": SET[0].best})
        assert r.status_code == 200


def test_the_daily_puzzle_is_chosen_by_the_date():
    assert daily_index(date(2026, 12, 4), 908) == daily_index(date(2026, 12, 4), 908)
    days = {daily_index(date(2026, 12, d), 908) for d in range(1, 29)}
    assert len(days) > 20  # not the same puzzle every day
    assert daily_index(date(2026, 12, 4), 908) == 48


def test_the_puzzle_requests_are_rate_limited(client):
    client.app.state.ctx.puzzle_limit.limit = 3
    codes = [client.get("/api/puzzles/next").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    r = client.get("/api/puzzles/next")
    assert r.json()["code"] == "rate_limited" and int(r.headers["Retry-After"]) > 0


def test_the_shipped_set_is_the_cli_s():
    from ginrummy.cli.puzzles import shipped_puzzles

    assert [p.id for p in loads_puzzles(shipped_puzzles())] == [p.id for p in SET]


@pytest.fixture(params=STORES)
def any_store(request, tmp_path):
    yield from database_url(request.param, tmp_path)


def test_migration_0003_makes_the_puzzle_tables_and_ratings_are_stored(any_store):
    """On SQLite and PostgreSQL: the upgrade to 0003_puzzles makes the three tables (the
    downgrade to 0002 drops them); an attempt is stored and read back by a new room."""
    from alembic import command
    from sqlalchemy import create_engine, inspect

    from ginrummy.web.community.puzzles import PuzzleRoom
    from ginrummy.web.db.migrations import _config, current_revision, head_revision
    from ginrummy.web.db.store import Store, engine_url

    store = Store(any_store)
    assert current_revision(store.engine) == head_revision()
    names = {"gin_puzzle_people", "gin_puzzle_attempts", "gin_puzzle_ratings"}
    assert names <= set(inspect(store.engine).get_table_names())
    room = PuzzleRoom(store.engine, SET[:3])
    out = room.answer(SET[0], SET[0].best, 7)
    assert out["rated"] and out["rating"]["after"] > 1000
    again = PuzzleRoom(store.engine, SET[:3])
    assert again.rating_of(SET[0].id).display == out["puzzle_rating"] < 1000
    assert again.person(7).attempts == 1 and again.next_for(7, None, None).id == SET[1].id
    store.engine.dispose()
    engine = create_engine(engine_url(any_store))
    with engine.begin() as conn:
        cfg = _config(conn)
        command.downgrade(cfg, "0002_account_role")
    assert not names & set(inspect(engine).get_table_names())
    engine.dispose()


def test_two_servers_rate_an_account_s_first_answer_once(tmp_path):
    from ginrummy.web.community.puzzles import PuzzleRoom
    from ginrummy.web.db.store import Store

    store = Store(f"sqlite:///{tmp_path / 'gin.sqlite3'}")
    a, b = PuzzleRoom(store.engine, SET[:2]), PuzzleRoom(store.engine, SET[:2])
    first = a.answer(SET[0], SET[0].best, 1)
    second = b.answer(SET[0], SET[0].best, 1)
    assert (first["rated"], second["rated"]) == (True, False)
    assert second["rating"] == {
        "before": first["rating"]["after"],
        "after": first["rating"]["after"],
        "attempts": 1,
        "solved": 1,
    }
    # the other server's answer to another puzzle starts from the stored rating
    third = b.answer(SET[1], SET[1].best, 1)
    assert third["rating"]["before"] == first["rating"]["after"] and third["rating"]["attempts"] == 2
