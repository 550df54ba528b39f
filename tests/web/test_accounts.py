"""Accounts (docs/accounts.md): sign up, in and out with server-side sessions, names, the
sign-in rate limit, CSRF on every state-changing request, seats of signed-in people, account
deletion keeping the matches."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from starlette.testclient import TestClient

from ginrummy.web.app import create_app
from ginrummy.web.community.accounts import Accounts, RateLimiter, check_name
from ginrummy.web.errors import WebError

from .conftest import new_table, with_csrf


def _signup(c: TestClient, name: str, password: str = "correct horse") -> dict:
    r = c.post("/api/account", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r.json()


def test_sign_up_signs_in_with_an_httponly_samesite_session_cookie(client):
    r = client.post("/api/account", json={"name": "Ann", "password": "correct horse"})
    assert r.status_code == 201 and r.json() == {"name": "Ann"}
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("gin_session=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    me = client.get("/api/me").json()
    assert me == {
        "signed_in": True,
        "name": "Ann",
        "kind": "human",
        "rating": 1000,
        "provisional": True,
        "matches": 0,
        "completion": {"matches": 0, "by_rules": 0, "resigned": 0, "forfeited": 0, "opponent_gave_up": 0, "rate": None},
        "rated_refused_until": None,
        "can_chat": False,
        "moderator": False,
        "notices": [],
    }


def test_sign_out_ends_the_session_on_the_server(client):
    _signup(client, "Ann")
    token = client.cookies["gin_session"]
    r = client.delete("/api/session")
    assert r.status_code == 200 and r.json() == {"signed_in": False}
    assert client.get("/api/me").json() == {"signed_in": False}
    client.cookies.set("gin_session", token)  # the old cookie, replayed, opens nothing
    assert client.get("/api/me").json() == {"signed_in": False}


def test_sign_in_and_wrong_password(client):
    _signup(client, "Ann")
    client.delete("/api/session")
    r = client.post("/api/session", json={"name": "ann", "password": "wrong horse"})
    assert r.status_code == 401 and r.json()["code"] == "wrong_password"
    r = client.post("/api/session", json={"name": "nobody", "password": "correct horse"})
    assert r.status_code == 401 and r.json()["error"] == "that name and password do not match an account"
    r = client.post("/api/session", json={"name": "ANN", "password": "correct horse"})  # names are case-insensitive
    assert r.status_code == 200 and r.json() == {"name": "Ann"}
    assert client.get("/api/me").json()["name"] == "Ann"


@pytest.mark.parametrize(
    "name,code,status",
    [
        ("A", "bad_name", 400),
        ("x" * 21, "bad_name", 400),
        ("a/b", "bad_name", 400),
        ("nul\u0000x", "bad_name", 400),
        ("zero\u200bwidth", "bad_name", 400),
        ("ANN", "name_taken", 409),
        ("ann", "name_taken", 409),
        ("novice", "name_taken", 409),
        ("Computer (novice)", "name_taken", 409),
        ("computer (club) 2", "name_taken", 409),
        ("COMPUTER (Expert)", "name_taken", 409),
        ("System", "bad_name", 400),
        ("SYSTEM", "bad_name", 400),
        ("\uff53ystem", "bad_name", 400),
    ],
)
def test_duplicate_and_bad_names(client, name, code, status):
    _signup(client, "Ann")
    client.app.state.players.accounts.computer("novice")
    r = client.post("/api/account", json={"name": name, "password": "correct horse"})
    assert (r.status_code, r.json()["code"]) == (status, code), r.text
    if name.casefold() == "system":  # reserved for the server's own lines (accounts.is_reserved_name)
        assert r.json()["error"] == f"the name {name} is reserved; choose another"


@pytest.mark.parametrize("path", ["/api/account", "/api/session", "/api/bots"])
def test_a_name_too_long_for_the_body_states_the_name_rule_not_the_body_bound(client, path):
    """One field, one limit: on sign-up a name of 21 characters and one of 101 (over the body's
    bound of the text as sent, which is larger since runs of spaces count once) get the same code
    and words; sign-in and the making of a bot (which name an existing account) refuse 101 with
    them too."""
    if path == "/api/bots":
        _signup(client, "Owner")  # a bot account is made by someone signed in
    for name in ("x" * 21, "x" * 101):
        if path != "/api/account" and len(name) == 21:
            continue  # sign-in and a bot's making name an account: such a name matches none
        r = client.post(path, json={"name": name, "password": "correct horse"})
        assert (r.status_code, r.json()["code"], r.json()["error"]) == (
            400,
            "bad_name",
            "a name is text of 2 to 20 characters",
        ), (path, len(name), r.text)
    if path == "/api/account":  # 99 characters sent, 7 once the spaces collapse
        r = client.post(path, json={"name": "  Ann" + " " * 90 + "Lee ", "password": "correct horse"})
        assert (r.status_code, r.json()) == (201, {"name": "Ann Lee"}), r.text


def test_a_computer_level_name_is_taken_before_the_level_plays_and_an_older_holder_never_blocks_it(client):
    # no computer account exists yet: the level names are refused all the same
    for level in ("Expert", "MASTER", "random"):
        r = client.post("/api/account", json={"name": level, "password": "correct horse"})
        assert (r.status_code, r.json()["code"]) == (409, "name_taken"), r.text
    # a person who took a level's name on an older server (written here as such a row) does not
    # stop the level's account from being made, once, and found again
    accounts = client.app.state.players.accounts
    from sqlalchemy import insert, select

    from ginrummy.web.community.accounts import accounts_t, name_key

    with accounts.engine.begin() as conn:
        conn.execute(
            insert(accounts_t).values(**{**accounts._new_row("Master", "human", "x"), "name_key": name_key("master")})
        )
    first = accounts.computer("master")
    assert accounts.computer("master") == first
    with accounts.engine.connect() as conn:
        rows = conn.execute(select(accounts_t.c.name, accounts_t.c.kind).order_by(accounts_t.c.id)).all()
    assert [(r.name, r.kind) for r in rows] == [("Master", "human"), ("master", "computer")]


def test_bad_passwords_and_bodies(client):
    r = client.post("/api/account", json={"name": "Ann", "password": "short"})
    assert (r.status_code, r.json()["code"]) == (400, "bad_password")
    r = client.post("/api/account", json={"name": "Ann"})
    assert (r.status_code, r.json()["error"]) == (400, "password: is missing")
    r = client.post("/api/account", json={"name": "Ann", "password": "correct horse", "admin": True})
    assert (r.status_code, r.json()["error"]) == (400, "admin: is not a field here; fields: name, password")
    assert client.get("/api/me").json() == {"signed_in": False}


def test_names_are_stored_as_typed_and_any_text_is_allowed():
    assert check_name("  <script>alert(1)  ") == "<script>alert(1)"
    assert check_name("Ελένη  Κ") == "Ελένη Κ"
    with pytest.raises(WebError) as e:
        check_name(None)
    assert e.value.code == "bad_name"


def test_a_name_with_markup_is_kept_as_text_in_the_api(client):
    _signup(client, "<img src=x onerror=>")
    assert client.get("/api/me").json()["name"] == "<img src=x onerror=>"


def test_sign_in_rate_limit_per_name_then_allowed_after_the_window(db_url):
    now = [1000.0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(db_url, bot_delay=0)
        with TestClient(app) as c:
            with_csrf(c)
            accounts = app.state.players.accounts
            accounts.by_pair = RateLimiter(Accounts.PER_PAIR, Accounts.WINDOW, lambda: now[0])
            accounts.by_name = RateLimiter(Accounts.PER_NAME, Accounts.NAME_WINDOW, lambda: now[0])
            accounts.by_address = RateLimiter(Accounts.PER_ADDRESS, Accounts.WINDOW, lambda: now[0])
            _signup(c, "Ann")
            c.delete("/api/session")
            for _ in range(Accounts.PER_PAIR):
                assert c.post("/api/session", json={"name": "Ann", "password": "wrong horse"}).status_code == 401
            r = c.post("/api/session", json={"name": "Ann", "password": "correct horse"})  # right, but too soon
            assert r.status_code == 429 and r.json()["code"] == "rate_limited"
            assert r.headers["retry-after"] == str(int(Accounts.WINDOW) + 1)
            assert c.get("/api/me").json() == {"signed_in": False}
            now[0] += Accounts.WINDOW + 1
            assert c.post("/api/session", json={"name": "Ann", "password": "correct horse"}).status_code == 200


def test_rate_limit_per_address_covers_many_names():
    now = [0.0]
    limiter = RateLimiter(3, 60, lambda: now[0])
    for _ in range(3):
        assert limiter.retry_after("a:1.2.3.4") == 0
        limiter.hit("a:1.2.3.4")
    assert limiter.retry_after("a:1.2.3.4") == 61
    assert limiter.retry_after("a:5.6.7.8") == 0
    now[0] = 60.5
    assert limiter.retry_after("a:1.2.3.4") == 0


@pytest.mark.parametrize(
    "method,path,body",
    [
        ("POST", "/api/tables", {"seats": [{"kind": "human"}, {"kind": "bot", "level": "novice"}]}),
        ("POST", "/api/sheet", {"names": ["A", "B"], "results": []}),
        ("POST", "/api/tables/abc/claim", {"invite": "x"}),
        ("POST", "/api/account", {"name": "Ann", "password": "correct horse"}),
        ("POST", "/api/session", {"name": "Ann", "password": "correct horse"}),
        ("DELETE", "/api/session", None),
        ("DELETE", "/api/account", {"password": "correct horse"}),
        ("POST", "/api/replays", None),
    ],
)
def test_csrf_refused_without_the_header_or_with_a_wrong_one(client, method, path, body):
    good = client.headers.pop("X-CSRF-Token")
    try:
        r = client.request(method, path, json=body)
        assert (r.status_code, r.json()["code"]) == (403, "csrf"), r.text
        r = client.request(
            method, path, json=body, headers={"X-CSRF-Token": good[:-1] + ("A" if good[-1] != "A" else "B")}
        )
        assert (r.status_code, r.json()["code"]) == (403, "csrf")
    finally:
        client.headers["X-CSRF-Token"] = good
    assert client.get("/api/me").json() == {"signed_in": False}  # nothing happened


def test_csrf_cookie_is_set_on_pages_and_readable_by_the_page(db_url):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(db_url, bot_delay=0)) as c:
            r = c.get("/")
            cookie = r.headers["set-cookie"]
            assert cookie.startswith("gin_csrf=") and "SameSite=Strict" in cookie and "HttpOnly" not in cookie
            r = c.post("/api/sheet", json={"names": ["A", "B"]})  # a cookie alone is not enough
            assert r.status_code == 403
            r = c.post("/api/sheet", json={"names": ["A", "B"]}, headers={"X-CSRF-Token": c.cookies["gin_csrf"]})
            assert r.status_code == 200


def test_csrf_error_in_the_language_of_the_request(client):
    good = client.headers.pop("X-CSRF-Token")
    try:
        r = client.post("/api/sheet", json={"names": ["A", "B"]}, headers={"Accept-Language": "fi"})
    finally:
        client.headers["X-CSRF-Token"] = good
    assert r.status_code == 403 and "CSRF" in r.json()["error"]
    assert r.json()["error"] != "this request's CSRF token is missing or does not match this browser's; load the page again and retry"


def test_guests_still_open_tables_and_seats_remember_signed_in_people(client):
    t = new_table(client, [{"kind": "human", "name": "Guest"}, {"kind": "bot", "level": "novice"}], deal=False)
    assert client.app.state.players.accounts.seats(t["id"]) == {}
    _signup(client, "Ann")
    r = client.post("/api/tables", json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})
    t = r.json()
    ann_id = client.app.state.players.accounts.account_of(client.cookies["gin_session"]).id
    client.delete("/api/session")
    _signup(client, "Bob")
    bob_id = client.app.state.players.accounts.account_of(client.cookies["gin_session"]).id
    code = t["seats"][1]["invite"].split("invite=", 1)[1]
    assert client.post(f"/api/tables/{t['id']}/claim", json={"invite": code}).status_code == 200
    assert client.app.state.players.accounts.seats(t["id"]) == {0: ann_id, 1: bob_id}


def test_rated_tables_need_signed_in_people(client):
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    r = client.post("/api/tables", json={"seats": seats, "rated": True})
    assert (r.status_code, r.json()["code"]) == (400, "not_rateable")  # a guest may not open one
    _signup(client, "Ann")
    r = client.post("/api/tables", json={"seats": seats, "preset": "single", "rated": True})
    assert (r.status_code, r.json()["code"]) == (400, "not_rateable")  # one deal is not rated
    r = client.post("/api/tables", json={"seats": seats + [{"kind": "human"}], "rated": True})
    assert (r.status_code, r.json()["code"]) == (400, "not_rateable")  # nor three-hand gin
    r = client.post("/api/tables", json={"seats": seats, "preset": "hollywood", "rated": True})
    assert r.status_code == 201 and r.json()["rated"] is True
    t = r.json()
    code = t["seats"][1]["invite"].split("invite=", 1)[1]
    r = client.post(f"/api/tables/{t['id']}/claim", json={"invite": code})  # Ann cannot take Bob's seat
    assert (r.status_code, r.json()["code"]) == (409, "seated")
    client.delete("/api/session")
    r = client.post(f"/api/tables/{t['id']}/claim", json={"invite": code})  # nor a guest
    assert (r.status_code, r.json()["code"]) == (403, "sign_in")
    _signup(client, "Bob")
    assert client.post(f"/api/tables/{t['id']}/claim", json={"invite": code}).status_code == 200
    r = client.post(f"/api/tables/{t['id']}/claim", json={"invite": code})
    assert r.status_code in (409,)  # the invite is used


def test_account_deletion(client):
    _signup(client, "Ann")
    r = client.request("DELETE", "/api/account", json={"password": "wrong horse"})
    assert r.status_code == 401 and r.json() == {
        "code": "wrong_password",
        "error": "that is not this account's password",  # only a password was asked, not a name
    }
    r = client.request("DELETE", "/api/account", json={"password": "correct horse"})
    assert r.status_code == 200 and r.json() == {"deleted": True}
    assert client.get("/api/me").json() == {"signed_in": False}
    r = client.post("/api/session", json={"name": "Ann", "password": "correct horse"})
    assert r.status_code == 401
    assert client.get("/api/players/Ann").status_code == 404
    _signup(client, "ann")  # the name is free again


def test_deleting_needs_a_session(client):
    r = client.request("DELETE", "/api/account", json={"password": "correct horse"})
    assert (r.status_code, r.json()["code"]) == (401, "not_signed_in")


def test_a_free_seat_of_a_rated_open_table_is_for_a_signed_in_person(client):
    _signup(client, "Ann")
    r = client.post(
        "/api/tables",
        json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}], "public": True, "rated": True},
    )
    assert r.status_code == 201, r.text
    t = r.json()
    listed = {e["id"]: e for e in client.get("/api/lobby").json()["tables"]}  # the lobby says it is rated
    assert listed[t["id"]]["rated"] is True and listed[t["id"]]["seats"][1]["free"] is True
    r = client.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "Ann"})
    assert (r.status_code, r.json()["code"]) == (409, "seated")
    client.delete("/api/session")
    r = client.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "Guest"})
    assert (r.status_code, r.json()["code"]) == (403, "sign_in")
    _signup(client, "Bob")
    r = client.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "Bob"})
    assert r.status_code == 200, r.text
    bob = client.app.state.players.accounts.account_of(client.cookies["gin_session"]).id
    assert client.app.state.players.accounts.seats(t["id"])[1] == bob


def test_a_signed_in_person_takes_one_seat_at_an_unrated_open_table_too(client):
    """The new-user trial of stop 39: at an unrated open table the host's "Sit here" in another
    tab gave him both seats ("alice3" and "alice3 2"); one person, one seat, as at a rated table."""
    _signup(client, "Ann")
    r = client.post(
        "/api/tables", json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}], "public": True}
    )
    assert r.status_code == 201, r.text
    t = r.json()
    r = client.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "Ann"})
    assert (r.status_code, r.json()["code"], r.json()["error"]) == (409, "seated", "you sit at this table already")
    client.delete("/api/session")
    r = client.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "Zoe"})  # a guest still may
    assert r.status_code == 200, r.text


def test_leaderboard_paging_is_checked(client):
    assert client.get("/api/leaderboard?limit=201").json()["error"] == "limit must be a whole number from 0 to 200"
    assert client.get("/api/leaderboard?offset=-1").status_code == 400
    assert client.get("/api/leaderboard?limit=5&offset=0").json() == []
    assert client.get("/api/players/nobody").status_code == 404


def test_a_program_without_our_cookies_is_not_asked_for_a_csrf_token_and_acts_for_no_one(db_url):
    """A script (no cookie of ours) may open a table as a guest; it cannot act for anyone, since
    a session rides on its cookie.  A browser's request (with gin_csrf) is checked."""
    import httpx

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(db_url, bot_delay=0)) as c:
            c.cookies.clear()
            r = c.post(
                "/api/tables",
                json={"seats": [{"kind": "human", "name": "Bot script"}, {"kind": "bot", "level": "novice"}]},
                headers={"Cookie": ""},
            )
            assert r.status_code == 201, r.text
            assert c.app.state.players.accounts.seats(r.json()["id"]) == {}  # a guest's table
            c.get("/")  # now a browser: the cookie is set, and the check applies
            assert c.post("/api/sheet", json={"names": ["A", "B"]}).status_code == 403
    assert httpx  # the module is there for the scripts that use it (benchmarks/load.py)


def test_a_look_alike_name_is_refused_as_too_like_an_existing_one_not_as_taken(client):
    """Issue 34: a name that passes for an account's ("Аnn" with a Cyrillic А beside "Ann") was
    refused with "the name Аnn is taken", which it is not; the same name stays "taken"."""
    _signup(client, "Ann")
    r = client.post("/api/account", json={"name": "\u0410nn", "password": "correct horse"})
    assert (r.status_code, r.json()["code"]) == (409, "name_taken")
    assert r.json()["error"] == "the name \u0410nn is too like an existing name; choose another"
    r = client.post("/api/account", json={"name": "ANN", "password": "correct horse"})
    assert r.json()["error"] == "the name ANN is taken; choose another"


def test_typed_name_key_folds_spaces_then_width_and_case():
    """One helper (accounts.typed_name_key) reads a typed name for every lookup by name."""
    from ginrummy.web.community.accounts import typed_name_key

    assert typed_name_key("  ＡＮＮ \t  Lee ") == "ann lee"
    assert typed_name_key("Computer  (NOVICE)") == "computer (novice)"
    assert typed_name_key("   ") == ""


def test_sign_in_name_in_use_and_computer_names_all_read_the_name_with_typed_name_key(client, monkeypatch):
    """Accounts.verify and Accounts.name_in_use call the one helper (tables.is_computer_name
    compares look-alike skeletons, which fold whitespace the same way)."""
    import ginrummy.web.community.accounts as accounts_mod
    import ginrummy.web.room.tables as tables_mod

    _signup(client, "Ann Lee")
    seen: list[str] = []

    def spy(name: str) -> str:
        seen.append(name)
        return accounts_mod.name_key(" ".join(name.split()))

    monkeypatch.setattr(accounts_mod, "typed_name_key", spy)
    monkeypatch.setattr(tables_mod, "typed_name_key", spy)
    accounts = client.app.state.players.accounts
    assert accounts.verify(" ann   LEE", "correct horse").name == "Ann Lee"
    assert accounts.name_in_use("ANN  lee ") is True
    assert tables_mod.is_computer_name(" computer   (novice)") is True
    assert seen == [" ann   LEE", "ANN  lee "]


def test_sign_up_is_limited_per_address_before_anything_is_hashed(client, monkeypatch):
    """Issue 27, item 4: sign-up had no limit and costs an argon2 hash of 64 MiB each (16 clients
    made 160 accounts in 25 s); now SIGNUPS_PER_ADDRESS in SIGNUP_WINDOW seconds per address."""
    from ginrummy.web.http.player_routes import SIGNUP_WINDOW, SIGNUPS_PER_ADDRESS

    assert (SIGNUPS_PER_ADDRESS, SIGNUP_WINDOW) == (5, 600.0)
    hashed = []
    accounts = client.app.state.players.accounts
    real = accounts.hasher

    class Counting:
        def hash(self, pw: str) -> str:
            hashed.append(1)
            return real.hash(pw)

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

    monkeypatch.setattr(accounts, "hasher", Counting())
    for i in range(SIGNUPS_PER_ADDRESS):
        r = client.post("/api/account", json={"name": f"Flood{i}", "password": "correct horse"})
        assert r.status_code == 201, r.text
        client.cookies.clear()
    r = client.post("/api/account", json={"name": "Flood9", "password": "correct horse"})
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    assert 595 <= int(r.headers["Retry-After"]) <= 601
    assert (
        r.json()["error"]
        == f"too many accounts made from your address; try again in {r.headers['Retry-After']} seconds"
    )
    assert len(hashed) == SIGNUPS_PER_ADDRESS  # the refused one cost no hash
