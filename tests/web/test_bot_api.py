"""The bot API (issue 35, docs/bot-api.md): bot accounts, API tokens, the Bearer routes, their
401/403 answers, CSRF on the cookie routes, challenges and seeks, and a bot's seat played over
the table WebSocket exactly as a browser plays it."""

from __future__ import annotations

import warnings

import pytest
from starlette.testclient import TestClient

from ginrummy.web.app import create_app

from .conftest import next_message, with_csrf

PASSWORD = "correct horse"


def _client(app) -> TestClient:
    return TestClient(app)


def _signup(c: TestClient, name: str) -> None:
    r = c.post("/api/account", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text


@pytest.fixture
def app(db_url):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = create_app(db_url, bot_delay=0)
        with TestClient(a):
            yield a


def _owner_with_bot(app, owner: str = "Owner", bot: str = "Botty") -> TestClient:
    c = with_csrf(TestClient(app))
    _signup(c, owner)
    b = with_csrf(TestClient(app))
    _signup(b, bot)
    r = c.post("/api/bots", json={"name": bot, "password": PASSWORD})
    assert (r.status_code, r.json()) == (201, {"name": bot, "kind": "bot"}), r.text
    return c


def _token(c: TestClient, bot: str = "Botty", scopes=("play", "challenge", "chat")) -> str:
    r = c.post(f"/api/bots/{bot}/tokens", json={"name": "laptop", "scopes": list(scopes)})
    assert r.status_code == 201, r.text
    assert r.json()["token"].startswith("gin_") and len(r.json()["token"]) == 47
    return r.json()["token"]


def _api(app, token: str | None) -> TestClient:
    c = TestClient(app)
    if token is not None:
        c.headers["Authorization"] = f"Bearer {token}"
    return c


ROUTES = [
    ("GET", "/api/bot/account", None, None),
    ("GET", "/api/bot/events", None, "play"),
    ("GET", "/api/bot/challenges", None, "play"),
    ("POST", "/api/bot/seek", {"preset": "standard"}, "play"),
    ("POST", "/api/bot/challenge", {"level": "novice"}, "challenge"),
    ("POST", "/api/bot/challenge/xyz/accept", None, "play"),
    ("POST", "/api/bot/challenge/xyz/decline", None, "play"),
    ("POST", "/api/bot/tables/abc/chat", {"text": "hi"}, "chat"),
    ("POST", "/api/bot/tables/abc/resign", None, "play"),
]


def _call(c: TestClient, method: str, path: str, body):
    return c.request(method, path, json=body) if body is not None else c.request(method, path)


@pytest.mark.parametrize(("method", "path", "body", "scope"), ROUTES)
def test_every_route_refuses_no_wrong_or_revoked_token_and_a_missing_scope(app, method, path, body, scope):
    owner = _owner_with_bot(app)
    good = _token(owner)
    for bad in (None, "gin_" + "x" * 43, good[:-1] + ("A" if good[-1] != "A" else "B")):
        r = _call(_api(app, bad), method, path, body)
        assert (r.status_code, r.json()["code"]) == (401, "bad_api_token"), r.text
        assert r.headers["www-authenticate"] == "Bearer"
    listed = owner.get("/api/bots").json()["bots"][0]["tokens"][0]
    assert listed["last_used"] is None and "token" not in listed
    revoked = _token(owner)
    token_id = owner.get("/api/bots").json()["bots"][0]["tokens"][1]["id"]
    assert owner.delete(f"/api/bots/Botty/tokens/{token_id}").status_code == 200
    r = _call(_api(app, revoked), method, path, body)
    assert (r.status_code, r.json()["code"]) == (401, "bad_api_token")
    if scope is not None:
        others = [s for s in ("play", "challenge", "chat") if s != scope]
        r = _call(_api(app, _token(owner, scopes=others)), method, path, body)
        assert (r.status_code, r.json()["code"]) == (403, "missing_scope"), r.text


def test_tokens_are_stored_hashed_and_listed_with_their_last_use(app):
    owner = _owner_with_bot(app)
    token = _token(owner)
    assert _api(app, token).get("/api/bot/account").json()["name"] == "Botty"
    [bot] = owner.get("/api/bots").json()["bots"]
    [listed] = bot["tokens"]
    assert listed["name"] == "laptop" and listed["scopes"] == ["challenge", "chat", "play"]
    assert listed["last_used"] is not None and listed["revoked"] is False
    with app.state.store.engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT token_hash FROM gin_api_tokens").all()
    import hashlib

    assert [r[0] for r in rows] == [hashlib.sha256(token.encode()).hexdigest()]


def test_a_person_cannot_mint_or_revoke_tokens_for_another_persons_bot(app):
    owner = _owner_with_bot(app)
    _token(owner)
    other = with_csrf(TestClient(app))
    _signup(other, "Mallory")
    r = other.post("/api/bots/Botty/tokens", json={"name": "mine", "scopes": ["play"]})
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    token_id = owner.get("/api/bots").json()["bots"][0]["tokens"][0]["id"]
    r = other.delete(f"/api/bots/Botty/tokens/{token_id}")
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    assert other.get("/api/bots").json() == {"bots": []}
    anonymous = TestClient(app)
    r = anonymous.post("/api/bots/Botty/tokens", json={"name": "mine", "scopes": ["play"]})
    assert (r.status_code, r.json()["code"]) == (401, "not_signed_in")


def test_token_management_needs_the_csrf_header(app):
    owner = _owner_with_bot(app)
    del owner.headers["X-CSRF-Token"]
    for method, path, body in (
        ("POST", "/api/bots/Botty/tokens", {"name": "x", "scopes": ["play"]}),
        ("DELETE", "/api/bots/Botty/tokens/1", None),
        ("POST", "/api/bots", {"name": "Someone", "password": PASSWORD}),
        ("POST", "/api/challenges", {"to": "Botty"}),
    ):
        r = _call(owner, method, path, body)
        assert (r.status_code, r.json()["code"]) == (403, "csrf"), path


def test_a_bot_account_cannot_sign_in_and_only_a_fresh_other_account_becomes_one(app):
    owner = _owner_with_bot(app)
    r = TestClient(app).post("/api/session", json={"name": "Botty", "password": PASSWORD})
    assert (r.status_code, r.json()["code"]) == (401, "wrong_password")
    r = owner.post("/api/bots", json={"name": "Owner", "password": PASSWORD})
    assert (r.status_code, r.json()["code"]) == (403, "not_allowed")
    r = owner.post("/api/bots/Botty/tokens", json={"name": "x", "scopes": ["play", "admin"]})
    assert (r.status_code, r.json()["code"]) == (400, "bad_message")
    assert "play, challenge, chat" in r.json()["error"]
    assert TestClient(app).get("/api/players/Botty").json()["kind"] == "bot"


def _seat_state(app, link: str) -> dict:
    """The first state the table's WebSocket sends to a seat link, as a browser gets it."""
    table_id = link.split("/table/")[1].split("?")[0]
    token = link.split("seat=")[1]
    with TestClient(app).websocket_connect(f"/ws/table/{table_id}?seat={token}") as ws:
        return next_message(ws, lambda m: m.get("type") == "state")


def test_a_rated_challenge_to_a_computer_level_seats_the_bot_and_plays(app):
    owner = _owner_with_bot(app)
    api = _api(app, _token(owner))
    r = api.post("/api/bot/challenge", json={"level": "novice", "rated": True})
    assert r.status_code == 201, r.text
    seat = r.json()
    assert (seat["seat"], seat["name"]) == (0, "Botty") and seat["link"].endswith(seat["token"])
    events = api.get("/api/bot/events").json()
    assert events["last"] == 1 and events["events"][0]["type"] == "game_start"
    assert app.state.players.is_rated(seat["table"])
    state = _seat_state(app, seat["link"])
    assert (state["type"], state["you"]) == ("state", 0)


def test_a_bot_resigns_its_rated_match_through_the_api(app):
    """POST /api/bot/tables/ID/resign: refused before the first deal (nothing changes), then the
    bot loses the match, rated, recorded as resigned; a second resign is refused; another
    table is not the bot's."""
    owner = _owner_with_bot(app)
    api = _api(app, _token(owner))
    seat = api.post("/api/bot/challenge", json={"level": "novice", "rated": True}).json()
    r = api.post(f"/api/bot/tables/{seat['table']}/resign")
    assert (r.status_code, r.json()["code"]) == (403, "not_allowed"), r.text
    with TestClient(app).websocket_connect(f"/ws/table/{seat['table']}?seat={seat['token']}") as ws:
        next_message(ws, lambda m: m.get("type") == "state")
        ws.send_json({"type": "client_seed", "deal": 1, "seed": "botseed", "id": "seed"})
        next_message(ws, lambda m: m.get("reply_to") == "seed")
        r = api.post(f"/api/bot/tables/{seat['table']}/resign")
        assert r.status_code == 200 and r.json() == {"resigned": True}, r.text
        state = next_message(ws, lambda m: m.get("type") == "state" and m["match"].get("ended") == "resigned")
    assert state["match"]["finished"] is True and state["match"]["winner"] != "Botty"
    r = api.post(f"/api/bot/tables/{seat['table']}/resign")
    assert (r.status_code, r.json()["code"]) == (403, "not_allowed")
    assert api.post("/api/bot/tables/nosuchtable/resign").status_code == 404
    player = TestClient(app).get("/api/players/Botty").json()
    assert player["completion"]["resigned"] == 1 and player["rated_matches"] == 1


def test_a_person_challenges_a_bot_from_its_page_and_the_bot_accepts(app):
    owner = _owner_with_bot(app)
    api = _api(app, _token(owner))
    r = owner.post("/api/challenges", json={"to": "Botty", "rated": True})
    assert r.status_code == 201, r.text
    cid = r.json()["challenge"]["id"]
    [ev] = api.get("/api/bot/events").json()["events"]
    assert ev["type"] == "challenge" and ev["challenge"]["from"] == "Owner" and ev["challenge"]["rated"] is True
    assert api.get("/api/bot/challenges").json()["challenges"][0]["id"] == cid
    r = api.post(f"/api/bot/challenge/{cid}/accept")
    assert r.status_code == 201, r.text
    assert (r.json()["seat"], r.json()["name"]) == (1, "Botty")
    mine = owner.get("/api/events").json()["events"]
    assert [e["type"] for e in mine] == ["game_start"] and mine[0]["seat"] == 0 and mine[0]["name"] == "Owner"
    assert app.state.players.accounts.seats(r.json()["table"]) == {0: _id(app, "Owner"), 1: _id(app, "Botty")}
    r = api.post(f"/api/bot/challenge/{cid}/accept")
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    r = api.post(f"/api/bot/tables/{mine[0]['table']}/chat", json={"text": "good   luck"})
    assert r.status_code == 200, r.text
    chat = _seat_state(app, mine[0]["link"])["chat"]
    assert [(c["from"], c["text"], c.get("bot")) for c in chat] == [("Botty", "good luck", True)]


def _id(app, name: str) -> int:
    with app.state.store.engine.connect() as conn:
        return int(conn.exec_driver_sql("SELECT id FROM gin_accounts WHERE name = ?", (name,)).scalar())


def test_two_bots_play_rated_only_when_the_server_allows_it(app):
    owner = _owner_with_bot(app)
    b2 = with_csrf(TestClient(app))
    _signup(b2, "Robo")
    assert owner.post("/api/bots", json={"name": "Robo", "password": PASSWORD}).status_code == 201
    api = _api(app, _token(owner))
    r = api.post("/api/bot/challenge", json={"to": "Robo", "rated": True})
    assert (r.status_code, r.json()["code"]) == (403, "not_allowed")
    r = api.post("/api/bot/challenge", json={"to": "Robo", "rated": False})
    assert r.status_code == 201
    robo = _api(app, _token(owner, "Robo"))
    cid = r.json()["challenge"]["id"]
    assert robo.post(f"/api/bot/challenge/{cid}/decline").status_code == 200
    assert api.get("/api/bot/events").json()["events"][-1] == {"seq": 1, "type": "challenge_declined", "id": cid}
    app.state.bots.bots_rated_together = True
    assert api.post("/api/bot/challenge", json={"to": "Robo", "rated": True}).status_code == 201


def test_a_seek_is_an_open_public_table_in_the_lobby(app):
    owner = _owner_with_bot(app)
    api = _api(app, _token(owner))
    r = api.post("/api/bot/seek", json={"rated": True})
    assert r.status_code == 201, r.text
    lobby = TestClient(app).get("/api/lobby").json()["tables"]
    assert [t["id"] for t in lobby] == [r.json()["table"]]
    assert [(s["name"], s["free"], s.get("bot")) for s in lobby[0]["seats"]] == [
        ("Botty", False, True),
        ("Player 2", True, None),
    ]
    assert lobby[0]["rated"] is True


def test_the_log_scrubber_hides_bearer_tokens_and_token_query_parameters():
    from ginrummy.web.security import redact

    secret = "gin_" + "a1B2-_" * 7 + "z"
    assert redact(f"GET /api/bot/events Authorization: Bearer {secret}") == (
        "GET /api/bot/events Authorization: Bearer ***"
    )
    assert redact(f"authorization: bearer {secret}, next") == "authorization: bearer ***, next"
    assert redact(f"token was {secret} here") == "token was gin_*** here"
    assert redact(f"GET /x?token={secret}&since=3") == "GET /x?token=***&since=3"


def test_migration_0004_adds_the_bot_tables_with_the_models_columns(tmp_path):
    from sqlalchemy import create_engine, inspect

    from ginrummy.web.community.schema import api_tokens_t, bots_t
    from ginrummy.web.db.migrations import current_revision, head_revision, upgrade

    engine = create_engine(f"sqlite:///{tmp_path / 'm.db'}")
    upgrade(engine, revision="0002_account_role")
    assert "gin_api_tokens" not in inspect(engine).get_table_names()
    upgrade(engine)
    assert current_revision(engine) == head_revision()
    insp = inspect(engine)
    for table in (bots_t, api_tokens_t):
        got = [(c["name"], c["nullable"]) for c in insp.get_columns(table.name)]
        assert got == [(c.name, c.nullable) for c in table.columns]
    assert [i["column_names"] for i in insp.get_indexes("gin_api_tokens")] == [["account_id"]]
    engine.dispose()


def test_requests_past_a_tokens_limit_get_429_with_retry_after_and_other_tokens_go_on(app):
    from ginrummy.web.limits import RateLimiter

    owner = _owner_with_bot(app)
    first, second = _token(owner), _token(owner)
    app.state.bots.requests = RateLimiter(2, 60.0)
    api = _api(app, first)
    assert [api.get("/api/bot/account").status_code for _ in range(2)] == [200, 200]
    r = api.get("/api/bot/account")
    assert (r.status_code, r.json()["code"]) == (429, "rate_limited") and 1 <= int(r.headers["retry-after"]) <= 60
    assert _api(app, second).get("/api/bot/account").status_code == 200
    app.state.bots.requests = RateLimiter(100, 60.0)
    app.state.bots.tables = RateLimiter(1, 600.0)
    other = _api(app, second)
    assert other.post("/api/bot/challenge", json={"level": "random"}).status_code == 201
    r = other.post("/api/bot/seek", json={})
    assert (r.status_code, r.json()["code"]) == (429, "rate_limited")
    assert r.json()["error"].startswith("too many tables opened; try again in ")


def test_a_bot_challenges_a_person_who_accepts_and_both_get_their_seats(app):
    owner = _owner_with_bot(app)
    api = _api(app, _token(owner))
    r = api.post("/api/bot/challenge", json={"to": "Owner", "rated": True})
    assert r.status_code == 201, r.text
    cid = r.json()["challenge"]["id"]
    assert [c["id"] for c in owner.get("/api/challenges").json()["challenges"]] == [cid]
    assert owner.get("/api/events").json()["events"][0]["challenge"]["from_kind"] == "bot"
    r = owner.post(f"/api/challenges/{cid}/accept")
    assert r.status_code == 201, r.text
    assert (r.json()["seat"], r.json()["name"]) == (1, "Owner")
    [start] = [e for e in api.get("/api/bot/events").json()["events"] if e["type"] == "game_start"]
    assert (start["id"], start["seat"], start["name"], start["table"]) == (cid, 0, "Botty", r.json()["table"])
    assert app.state.players.is_rated(start["table"])
    del owner.headers["X-CSRF-Token"]
    r = owner.post(f"/api/challenges/{cid}/decline")
    assert (r.status_code, r.json()["code"]) == (403, "csrf")


def test_a_bots_seat_is_marked_bot_at_the_table_and_again_after_a_restart(db_url):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(db_url, bot_delay=0)
        with TestClient(app):
            owner = _owner_with_bot(app)
            seat = _api(app, _token(owner)).post("/api/bot/challenge", json={"level": "novice"}).json()
            before = _seat_state(app, seat["link"])["table"]["seats"]
        again = create_app(db_url, bot_delay=0)
        with TestClient(again):
            after = _seat_state(again, seat["link"])["table"]["seats"]
    for seats in (before, after):
        assert [(s["name"], s["account"], s.get("bot")) for s in seats] == [
            ("Botty", True, True),
            ("Computer (novice)", False, None),
        ]
