"""Issue 28, items 1 to 5: rematch links from a checked host, the sign-in limit by the key the
lookup uses, login CSRF, names that pass for someone else, hints at rated tables."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher
from sqlalchemy import create_engine

from ginrummy.web.community.accounts import Accounts, RateLimiter
from ginrummy.web.errors import WebError


def _accounts(tmp_path, now):
    engine = create_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    accounts = Accounts(engine, hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1), clock=lambda: now[0])
    accounts.sign_up("victim", "right password")
    return accounts


def _code(fn):
    try:
        fn()
    except WebError as exc:
        return exc.code
    return "ok"


# -- 2. the sign-in limit --------------------------------------------------------------------


def test_every_spelling_of_a_name_counts_against_one_counter(tmp_path):
    """`"victim"`, `" victim"`, `"victim\\t"`... find one account, so they share one counter."""
    now = [0.0]
    accounts = _accounts(tmp_path, now)
    for spelling in ["victim", " victim", "victim\t", "VICTIM", "ｖｉｃｔｉｍ"]:
        assert _code(lambda spelling=spelling: accounts.verify(spelling, "wrong guess", "10.0.0.1")) == "wrong_password"
    assert _code(lambda: accounts.verify("  victim ", "right password", "10.0.0.1")) == "rate_limited"


def test_another_address_guesses_do_not_lock_the_person_out(tmp_path):
    now = [0.0]
    accounts = _accounts(tmp_path, now)
    for _ in range(Accounts.PER_PAIR):
        assert _code(lambda: accounts.verify("victim", "wrong guess", "10.0.0.66")) == "wrong_password"
    assert _code(lambda: accounts.verify("victim", "right password", "10.0.0.66")) == "rate_limited"
    assert accounts.verify("victim", "right password", "192.0.2.7").name == "victim"


def test_a_slower_limit_per_name_holds_against_many_addresses_but_not_against_a_known_one(tmp_path):
    now = [0.0]
    accounts = _accounts(tmp_path, now)
    assert accounts.verify("victim", "right password", "192.0.2.7").name == "victim"  # his own browser
    guesses = 0
    for a in range(100):
        for _ in range(Accounts.PER_PAIR):
            if _code(lambda a=a: accounts.verify("victim", "guess", f"10.0.{a}.1")) == "wrong_password":
                guesses += 1
    assert guesses == Accounts.PER_NAME  # 50 guesses an hour from every address together
    assert _code(lambda: accounts.verify("victim", "right password", "10.9.9.9")) == "rate_limited"
    assert accounts.verify("victim", "right password", "192.0.2.7").name == "victim"
    now[0] += Accounts.NAME_WINDOW + 1
    assert accounts.verify("victim", "right password", "10.9.9.9").name == "victim"


def test_the_limiter_keeps_its_pair_and_name_keys_apart():
    now = [0.0]
    limiter = RateLimiter(1, 60, lambda: now[0])
    limiter.hit("p:ann\n1.2.3.4")
    assert limiter.retry_after("p:ann\n1.2.3.4") == 61
    assert limiter.retry_after("p:ann\n1.2.3.5") == 0


# -- 1. links from a checked host ---------------------------------------------------------------

import warnings  # noqa: E402

from starlette.testclient import TestClient  # noqa: E402

from ginrummy.web.app import create_app  # noqa: E402

from .conftest import claim_all, with_csrf  # noqa: E402
from .test_ratings import play_direct  # noqa: E402


def _app_client(db_url, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(db_url, bot_delay=0, **kw)
    return TestClient(app)


def _finished_two_person_table(c):
    r = c.post(
        "/api/tables",
        json={"preset": "single", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]},
    )
    assert r.status_code == 201, r.text
    table = claim_all(c, r.json())
    play_direct(c, table["id"])
    return table


def _rematch_links(c, table, hosts):
    """Ann (seat 0) and Bob (seat 1) ask for the rematch, Bob last, over sockets opened with
    the ``Host`` headers ``hosts``; the links each is sent."""
    t = table["id"]
    links = {}
    with (
        c.websocket_connect(f"/ws/table/{t}?seat={table['seats'][0]['token']}", headers={"host": hosts[0]}) as ann,
        c.websocket_connect(f"/ws/table/{t}?seat={table['seats'][1]['token']}", headers={"host": hosts[1]}) as bob,
    ):
        ann.send_json({"type": "rematch"})
        while ann.receive_json()["type"] != "state" or not c.app.state.manager.tables[t].rematch_votes:
            pass
        bob.send_json({"type": "rematch"})
        for who, ws in (("ann", ann), ("bob", bob)):
            while (got := ws.receive_json())["type"] != "rematch":
                assert got["type"] != "error", got
            links[who] = got["link"]
    return links


def test_a_rematch_link_is_made_from_the_receivers_own_request_not_the_askers(db_url):
    with _app_client(db_url) as c:
        with_csrf(c)
        table = _finished_two_person_table(c)
        links = _rematch_links(c, table, ["gin.example.org", "evil.example"])
    assert links["ann"].startswith("http://gin.example.org/table/"), links
    assert links["bob"].startswith("http://evil.example/table/"), links


def test_a_public_url_starts_every_link_and_other_hosts_are_refused(db_url):
    with _app_client(
        db_url, public_url="https://gin.example.org", allowed_hosts=["gin.example.org", "testserver"]
    ) as c:
        with_csrf(c)
        r = c.post(
            "/api/tables",
            json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]},
            headers={"host": "gin.example.org"},
        )
        seats = r.json()["seats"]
        assert seats[0]["link"].startswith("https://gin.example.org/table/")
        assert seats[1]["invite"].startswith("https://gin.example.org/table/")
        claimed = c.post(f"/api/tables/{r.json()['id']}/claim", json={"invite": seats[1]["invite"].split("=")[1]})
        assert claimed.json()["link"].startswith("https://gin.example.org/table/")
        refused = c.get("/", headers={"host": "evil.example"})
        assert refused.status_code == 400
        refused = c.post(
            "/api/tables",
            json={"seats": [{"kind": "human"}, {"kind": "bot", "level": "novice"}]},
            headers={"host": "evil.example"},
        )
        assert refused.status_code == 400 and "evil.example" not in refused.text
        table = _finished_two_person_table(c)
        links = _rematch_links(c, table, ["testserver", "gin.example.org"])
    assert links["ann"].startswith("https://gin.example.org/table/")
    assert links["bob"].startswith("https://gin.example.org/table/")


def test_a_websocket_with_an_unallowed_host_is_refused(db_url):
    from starlette.websockets import WebSocketDisconnect

    with _app_client(db_url, allowed_hosts=["testserver"]) as c:
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect("/ws/lobby", headers={"host": "evil.example"}) as ws:
                ws.receive_json()


def test_gin_serve_allowed_hosts_public_url_and_proxies():
    from ginrummy.cli.server.serve import (
        allowed_hosts_for,
        check_public_url,
        proxy_options,
    )

    assert allowed_hosts_for("127.0.0.1", "", []) == ["127.0.0.1", "localhost", "::1", "[::1]"]
    assert allowed_hosts_for("0.0.0.0", "https://gin.example.org/", ["Gin.Example.NET"]) == [
        "gin.example.net",
        "gin.example.org",
        "localhost",
        "127.0.0.1",
        "::1",
        "[::1]",
    ]
    assert allowed_hosts_for("::", "", ["192.168.1.5"]) == ["192.168.1.5", "localhost", "127.0.0.1", "::1", "[::1]"]
    assert check_public_url("https://gin.example.org/") == "https://gin.example.org"
    assert check_public_url("") == ""
    for bad in ["gin.example.org", "javascript:alert(1)", "https://u:p@gin.example.org", "https://x/?a=1", "ftp://x"]:
        with pytest.raises(ValueError):
            check_public_url(bad)
    assert proxy_options("") == {"proxy_headers": False, "forwarded_allow_ips": ""}
    assert proxy_options(" 10.0.0.2 , 10.0.0.3") == {"proxy_headers": True, "forwarded_allow_ips": "10.0.0.2,10.0.0.3"}


@pytest.mark.parametrize(
    "argv, needle",
    [
        (
            ["--public-url", "gin.example.org"],
            "--public-url 'gin.example.org' is not allowed; give the address people "
            "open, such as https://gin.example.org or http://192.168.1.5:8000",
        ),
        (
            ["--allowed-host", "*"],
            "--allowed-host '*' is not allowed; give a host name, or *.example.org for its subdomains",
        ),
    ],
)
def test_gin_serve_refuses_a_bad_public_url_or_host(capsys, argv, needle):
    from ginrummy.cli.main import main

    assert main(["serve", *argv]) == 2
    assert capsys.readouterr().err == f"gin: error: {needle}\n"


# -- 3. login and sign-up CSRF -----------------------------------------------------------------


def test_a_cross_site_text_plain_form_does_not_sign_a_browser_in(db_url):
    """The form of issue 28: field name `{"name":"mallory","password":"mallory-pass-1` and value
    `"}`, sent as text/plain from another site by a browser with none of our cookies."""
    with _app_client(db_url) as c:
        with_csrf(c)
        assert c.post("/api/account", json={"name": "mallory", "password": "mallory-pass-1="}).status_code == 201
        c.cookies.clear()
        body = '{"name":"mallory","password":"mallory-pass-1' + "=" + '"}'  # text/plain: name=value
        for headers in (
            {"content-type": "text/plain"},  # an old browser: no Origin, no Sec-Fetch-Site
            {"content-type": "text/plain", "origin": "https://evil.example", "sec-fetch-site": "cross-site"},
        ):
            c.cookies.clear()
            r = c.post("/api/session", content=body, headers=headers)
            assert r.status_code in (403, 415), r.text
            assert "gin_session" not in r.headers.get("set-cookie", "")
        c.cookies.clear()
        # the same request as our own page sends it signs in
        r = c.post(
            "/api/session",
            json={"name": "mallory", "password": "mallory-pass-1="},
            headers={"origin": "http://testserver", "sec-fetch-site": "same-origin"},
        )
        assert r.status_code == 200 and "gin_session=" in r.headers["set-cookie"]


@pytest.mark.parametrize(
    "method,path",
    [
        ("POST", "/api/tables"),
        ("POST", "/api/tables/abc/claim"),
        ("POST", "/api/tables/abc/sit"),
        ("POST", "/api/sheet"),
        ("POST", "/api/account"),
        ("POST", "/api/session"),
        ("DELETE", "/api/account"),
    ],
)
def test_every_json_endpoint_wants_application_json(client, method, path):
    if path == "/api/account" and method == "DELETE":
        assert client.post("/api/account", json={"name": "Ann", "password": "correct horse"}).status_code == 201
    for ctype in ("text/plain", "application/x-www-form-urlencoded", None):
        r = client.request(
            method,
            path,
            content=b'{"name": "Ann", "password": "correct horse"}',
            headers={} if ctype is None else {"content-type": ctype},
        )
        assert r.status_code == 415, (ctype, r.text)
        assert r.json() == {
            "error": "send this request's body as JSON, with the header Content-Type: application/json",
            "code": "unsupported_media_type",
        }


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "https://evil.example"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
        {"origin": "http://testserver.evil.example"},
    ],
)
def test_a_cookieless_post_from_another_site_is_refused(db_url, headers):
    with _app_client(db_url) as c:
        r = c.post("/api/account", json={"name": "Ann", "password": "correct horse"}, headers=headers)
        assert (r.status_code, r.json()["code"]) == (403, "csrf"), r.text
        assert "gin_session" not in r.headers.get("set-cookie", "")


@pytest.mark.parametrize(
    "headers", [{}, {"origin": "http://testserver"}, {"sec-fetch-site": "same-origin"}, {"sec-fetch-site": "none"}]
)
def test_a_cookieless_post_from_our_pages_or_a_program_passes(db_url, headers):
    with _app_client(db_url) as c:
        r = c.post("/api/account", json={"name": "Ann", "password": "correct horse"}, headers=headers)
        assert r.status_code == 201, r.text


# -- 5. no computer advice at a rated table ----------------------------------------------------


def test_no_hint_at_a_rated_table_and_no_review_of_the_deal_in_progress(client):
    from .conftest import send_client_seeds

    assert client.post("/api/account", json={"name": "Ann", "password": "correct horse"}).status_code == 201
    r = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot", "level": "club"}], "rated": True})
    assert r.status_code == 201, r.text
    table = r.json()
    send_client_seeds(client, table)
    tobj = client.app.state.manager.tables[table["id"]]
    with client.websocket_connect(f"/ws/table/{table['id']}?seat={table['seats'][0]['token']}") as ws:
        st = ws.receive_json()
        while not (st.get("type") == "state" and st["your_turn"]):
            st = ws.receive_json()
        assert st["can_hint"] is False and st["rating"] == {"rated": True, "counts": True, "changes": []}
        ws.send_json({"type": "hint", "id": "h"})
        while (got := ws.receive_json()).get("reply_to") != "h":
            pass
        assert got == {
            "type": "error",
            "code": "not_allowed",
            "reply_to": "h",
            "message": "a rated match is played without advice: no hints or suggestions",
        }
        ws.send_json({"type": "review", "deal": 1, "id": "v"})
        while (got := ws.receive_json()).get("reply_to") != "v":
            pass
        assert (got["type"], got["code"]) == ("error", "not_over")
    assert tobj.rated and not tobj.can_hint(0)


# -- 4. names that pass for someone else -------------------------------------------------------


def test_skeletons_of_look_alike_names():
    from ginrummy.web.community.accounts import (
        is_reserved_name,
        name_skeleton,
        strip_invisible,
    )
    from ginrummy.web.room.tables import is_computer_name

    assert name_skeleton("аlice") == name_skeleton("alice") == "alice"  # Cyrillic а
    assert name_skeleton("ΑLICE") == "alice"  # Greek Α
    from ginrummy.web.community.accounts import name_skeletons

    assert not name_skeletons("AIice").isdisjoint(name_skeletons("Alice"))
    assert name_skeleton("Ann\u200d Lee") == name_skeleton("ann lee")
    assert strip_invisible("nov\u200dice\u2066\ufe0f") == "novice"
    for name in [
        "Cоmputer (novice)",
        "Computer (nоvice)",
        "Computer (nov\u200dice)",
        "Computer (grandmaster)",
        "Computer (Ann)",
        "COMPUTER(expert) 2",
        "nоvice",
        "Novice",
        "Tietokone (mestari)",
        "Υπολογιστής (novice)",
    ]:
        assert is_computer_name(name), name
    for name in ["Ann", "Computers are fun", "Compute (x)", "Bob (novice)"]:
        assert not is_computer_name(name), name
    assert is_reserved_name("Ѕystem") and is_reserved_name("Sys\u200btem") and is_reserved_name("SYSTEM")
    assert not is_reserved_name("Systems")


def test_sign_up_refuses_a_name_that_passes_for_an_account_or_a_computer(client):
    assert client.post("/api/account", json={"name": "alice", "password": "correct horse"}).status_code == 201
    client.delete("/api/session")
    for name, code in [
        ("аlice", "name_taken"),
        ("ALlCE", "name_taken"),
        ("Cоmputer (novice)", "name_taken"),
        ("nоvice", "name_taken"),
        ("Computer (grandma)", "name_taken"),
        ("Ѕystem", "bad_name"),
        ("Computer (nov\u200dice)", "bad_name"),
    ]:
        r = client.post("/api/account", json={"name": name, "password": "correct horse"})
        assert r.json()["code"] == code, (name, r.text)


def test_a_guest_may_not_name_a_seat_after_an_account_or_a_computer(client):
    assert client.post("/api/account", json={"name": "alice", "password": "correct horse"}).status_code == 201
    client.delete("/api/session")
    for name in [
        "alice",
        "аlice",
        "Alice",
        "Cоmputer (novice)",
        "Computer (grandmaster)",
        "Computer (nov\u200dice)",
        "Ѕystem",
    ]:
        r = client.post(
            "/api/tables", json={"seats": [{"kind": "human", "name": name}, {"kind": "bot", "level": "novice"}]}
        )
        assert r.status_code == 400, (name, r.text)
    r = client.post(
        "/api/tables", json={"seats": [{"kind": "human", "name": "Bob"}, {"kind": "human", "name": "аlice"}]}
    )
    assert r.json() == {
        "error": "seat 2: the name аlice is an account's, or looks like one; choose another (a person "
        "signed in sits under his account's name)",
        "code": "bad_request",
    }
    r = client.post(
        "/api/tables", json={"seats": [{"kind": "human", "name": "Bo\u200db"}, {"kind": "bot", "level": "novice"}]}
    )
    assert r.json()["seats"][0]["name"] == "Bob"  # invisible characters are left out of a name


def test_a_public_seat_taken_by_a_guest_under_an_account_name_is_refused(client):
    assert client.post("/api/account", json={"name": "alice", "password": "correct horse"}).status_code == 201
    client.delete("/api/session")
    t = client.post(
        "/api/tables", json={"public": True, "seats": [{"kind": "human", "name": "Bob"}, {"kind": "human"}]}
    ).json()
    r = client.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "аlice"})
    assert (r.status_code, r.json()["code"]) == (400, "bad_request"), r.text
    assert "an account's, or looks like one" in r.json()["error"]


def test_a_signed_in_seat_shows_its_accounts_name_and_says_so(client):
    """The farmer's second account claims the invite of a seat the host named "alice" (an
    unrelated name): the seat shows the claimer's account name, marked signed in."""
    assert client.post("/api/account", json={"name": "farmer", "password": "correct horse"}).status_code == 201
    t = client.post(
        "/api/tables",
        json={"rated": True, "seats": [{"kind": "human", "name": "whatever"}, {"kind": "human", "name": "Player X"}]},
    ).json()
    assert [s["name"] for s in t["seats"]] == ["farmer", "Player X"]
    client.delete("/api/session")
    assert client.post("/api/account", json={"name": "farmer two", "password": "correct horse"}).status_code == 201
    code = t["seats"][1]["invite"].split("invite=", 1)[1]
    r = client.post(f"/api/tables/{t['id']}/claim", json={"invite": code})
    assert r.status_code == 200 and r.json()["name"] == "farmer two"
    tobj = client.app.state.manager.tables[t["id"]]
    assert tobj.names == ["farmer", "farmer two"] and tobj.signed_in == {0, 1}
    with client.websocket_connect(f"/ws/table/{t['id']}?seat={r.json()['token']}") as ws:
        st = ws.receive_json()
    assert [(s["name"], s["account"]) for s in st["table"]["seats"]] == [("farmer", True), ("farmer two", True)]
    # after a restart the seats still say so
    assert client.app.state.manager.store.load(t["id"])[0].names == ["farmer", "farmer two"]


def test_a_signed_in_opener_sits_under_his_accounts_name_and_a_guest_is_not_marked(client):
    assert client.post("/api/account", json={"name": "Ann", "password": "correct horse"}).status_code == 201
    t = client.post(
        "/api/tables", json={"seats": [{"kind": "human", "name": "Someone else"}, {"kind": "bot", "level": "novice"}]}
    ).json()
    assert t["seats"][0]["name"] == "Ann"
    tobj = client.app.state.manager.tables[t["id"]]
    assert tobj.signed_in == {0}
    client.delete("/api/session")
    g = client.post(
        "/api/tables", json={"seats": [{"kind": "human", "name": "Guest"}, {"kind": "bot", "level": "novice"}]}
    ).json()
    assert client.app.state.manager.tables[g["id"]].signed_in == set()
