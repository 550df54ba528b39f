"""Block, mute, report, moderators, the audit log and farming flags (issue 31 part 2,
docs/accounts.md "Block, mute, report" and "Moderation"): every route a blocked, muted,
barred or suspended person might use, tried over the API; 403 on every moderation endpoint
for everyone but a moderator; flags and voided ratings recomputed like OpenSkill; two apps on
one database (SQLite here, PostgreSQL too when configured)."""

from __future__ import annotations

import importlib
import json
import warnings
from datetime import UTC, datetime, timedelta

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import create_engine, insert, select, update
from starlette.testclient import TestClient

from ginrummy.web.app import create_app
from ginrummy.web.community.ratings import display_rating, result_players_t, results_t
from ginrummy.web.community.schema import accounts_t, signins_t

from .conftest import STORES, database_url, with_csrf
from .test_ratings import play_direct

PASSWORD = "correct horse"


@pytest.fixture(params=STORES)
def db_url(request, tmp_path):
    yield from database_url(request.param, tmp_path)


class People:
    """Several people on one test client: each one's session cookie, swapped in as he acts."""

    def __init__(self, c: TestClient) -> None:
        self.c = c
        self.tokens: dict[str, str] = {}

    def add(self, *names: str) -> None:
        for name in names:
            self.c.cookies.delete("gin_session")
            r = self.c.post("/api/account", json={"name": name, "password": PASSWORD})
            assert r.status_code == 201, r.text
            self.tokens[name] = self.c.cookies["gin_session"]

    def be(self, name: str | None) -> TestClient:
        self.c.cookies.delete("gin_session")
        if name is not None:
            self.c.cookies.set("gin_session", self.tokens[name])
        return self.c


def make_moderator(c: TestClient, name: str) -> None:
    """What ``gin admin moderator NAME`` does (web/cli/server/admin.py)."""
    with c.app.state.store.engine.begin() as conn:
        conn.execute(update(accounts_t).where(accounts_t.c.name == name).values(role="moderator"))


def two_seats(c: TestClient, public: bool = False, rated: bool = False) -> dict:
    body = {"seats": [{"kind": "human", "name": "x"}, {"kind": "human", "name": "y"}], "public": public}
    if rated:
        body["rated"] = True
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def invite(t: dict) -> str:
    return t["seats"][1]["invite"].split("invite=", 1)[1]


@pytest.fixture
def room(db_url):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(db_url, bot_delay=0)) as c:
            p = People(with_csrf(c))
            p.add("Ann", "Bob", "Cat", "Mod")
            make_moderator(c, "Mod")
            # these new accounts chat in the lobby as if each had finished a match (issue 31,
            # part 1: a new account may not; tests/web/test_fair_play.py checks that rule)
            c.app.state.players.fair.may_chat_in_lobby = lambda account_id: True
            yield p


def test_the_accounts_table_declares_the_role_and_me_says_moderator(room):
    assert "role" in accounts_t.c  # migration 0002 added it; the model now has it too
    me = room.be("Mod").get("/api/me").json()
    assert me["moderator"] is True and me["notices"] == []
    assert room.be("Ann").get("/api/me").json()["moderator"] is False


def test_block_and_mute_are_listed_and_undone(room):
    c = room.be("Ann")
    assert c.post("/api/relations", json={"name": "bob", "kind": "block"}).json() == {"blocked": ["Bob"], "muted": []}
    assert c.post("/api/relations", json={"name": "Cat", "kind": "mute"}).json() == {
        "blocked": ["Bob"],
        "muted": ["Cat"],
    }
    assert c.post("/api/relations", json={"name": "Bob", "kind": "block"}).status_code == 200  # twice: no change
    assert c.get("/api/relations").json() == {"blocked": ["Bob"], "muted": ["Cat"]}
    r = c.post("/api/relations", json={"name": "Ann", "kind": "block"})
    assert (r.status_code, r.json()["code"]) == (400, "bad_request")
    r = c.post("/api/relations", json={"name": "Nobody", "kind": "block"})
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    r = c.post("/api/relations", json={"name": "Bob", "kind": "ban"})
    assert (r.status_code, r.json()["code"]) == (400, "bad_message")
    assert c.request("DELETE", "/api/relations", json={"name": "Bob", "kind": "block"}).json() == {
        "blocked": [],
        "muted": ["Cat"],
    }
    r = room.be(None).get("/api/relations")
    assert (r.status_code, r.json()["code"]) == (401, "not_signed_in")


@pytest.mark.parametrize("blocker", ["Ann", "Bob"])
def test_a_block_either_way_refuses_the_lobby_seat_and_the_invite(room, blocker):
    c = room.be("Ann")
    public, private = two_seats(c, public=True), two_seats(c)
    other = "Bob" if blocker == "Ann" else "Ann"
    room.be(blocker).post("/api/relations", json={"name": other, "kind": "block"})
    c = room.be("Bob")
    r = c.post(f"/api/tables/{public['id']}/sit", json={"seat": 1, "name": ""})
    assert (r.status_code, r.json()["code"]) == (403, "blocked")
    r = c.post(f"/api/tables/{private['id']}/claim", json={"invite": invite(private)})
    assert (r.status_code, r.json()["code"]) == (403, "blocked")
    assert r.json()["error"] == "you cannot sit at this table: you and a player there blocked one another"
    # Cat, whom nobody blocked, takes the seat
    assert (
        room.be("Cat").post(f"/api/tables/{private['id']}/claim", json={"invite": invite(private)}).status_code == 200
    )


def test_no_rematch_between_people_who_blocked_one_another(room):
    c = room.be("Ann")
    t = two_seats(c)
    assert room.be("Bob").post(f"/api/tables/{t['id']}/claim", json={"invite": invite(t)}).status_code == 200
    done = play_direct(c, t["id"])
    room.be("Bob").post("/api/relations", json={"name": "Ann", "kind": "block"})
    mgr = c.app.state.manager
    from ginrummy.web.errors import WebError

    with pytest.raises(WebError) as err:
        c.portal.call(mgr.ask_rematch, done, 0, lambda send: None)
    assert err.value.code == "blocked" and "rematch" not in done.options


def _chat_lines(ws, until_text: str) -> list[str]:
    seen = []
    while True:
        m = ws.receive_json()
        if m.get("type") == "chat":
            seen.append(m["text"])
            if m["text"] == until_text:
                return seen


def test_table_chat_is_kept_from_the_blocker_the_muter_and_the_blocked_spectator(room):
    c = room.be("Ann")
    t = two_seats(c, public=True)
    t["seats"][1]["token"] = (
        room.be("Bob").post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": ""}).json()["token"]
    )
    c.app.state.manager.tables[t["id"]].options["spectator_chat"] = True
    room.be("Ann").post("/api/relations", json={"name": "Bob", "kind": "mute"})
    room.be("Cat").post("/api/relations", json={"name": "Bob", "kind": "block"})
    url = f"/ws/table/{t['id']}"
    with (
        room.be(None).websocket_connect(f"{url}?seat={t['seats'][0]['token']}") as ann,
        room.be(None).websocket_connect(f"{url}?seat={t['seats'][1]['token']}") as bob,
        room.be("Cat").websocket_connect(f"{url}?watch=1") as cat,
        room.be("Mod").websocket_connect(f"{url}?watch=1") as mod,
    ):
        bob.send_json({"type": "chat", "text": "bob speaks"})
        ann.send_json({"type": "chat", "text": "ann speaks"})
        cat.send_json({"type": "chat", "text": "cat speaks"})
        assert _chat_lines(ann, "cat speaks") == ["ann speaks", "cat speaks"]  # Ann muted Bob
        assert _chat_lines(bob, "ann speaks") == ["bob speaks", "ann speaks"]  # Cat's never reaches Bob
        bob.send_json({"type": "chat", "text": "bob again"})
        assert _chat_lines(bob, "bob again") == ["bob again"]
        assert _chat_lines(cat, "cat speaks") == ["ann speaks", "cat speaks"]  # Cat blocked Bob
        assert _chat_lines(mod, "bob again") == ["bob speaks", "ann speaks", "cat speaks", "bob again"]
        # the chat log of a state, as each one gets it
        with room.be(None).websocket_connect(f"{url}?seat={t['seats'][0]['token']}") as ann2:
            assert [m["text"] for m in ann2.receive_json()["chat"]] == ["ann speaks", "cat speaks"]
        with room.be("Cat").websocket_connect(f"{url}?watch=1") as cat2:
            assert [m["text"] for m in cat2.receive_json()["chat"]] == ["ann speaks", "cat speaks"]


def test_lobby_chat_is_kept_from_who_blocked_or_muted_the_sender(room):
    room.be("Ann").post("/api/relations", json={"name": "Bob", "kind": "block"})
    with (
        room.be("Ann").websocket_connect("/ws/lobby") as ann,
        room.be("Cat").websocket_connect("/ws/lobby") as cat,
        room.be("Bob").websocket_connect("/ws/lobby") as bob,
    ):
        bob.send_json({"type": "chat", "text": "from bob"})
        ann.send_json({"type": "chat", "text": "from ann"})
        assert _chat_lines(cat, "from ann") == ["from bob", "from ann"]
        assert _chat_lines(ann, "from ann") == ["from ann"]
        assert _chat_lines(bob, "from bob") == ["from bob"]  # and Ann's line never reaches him
        cat.send_json({"type": "chat", "text": "from cat"})
        assert _chat_lines(bob, "from cat") == ["from cat"]
    assert [m["text"] for m in room.be("Ann").get("/api/lobby").json()["chat"]] == ["from ann", "from cat"]
    assert [m["text"] for m in room.be("Bob").get("/api/lobby").json()["chat"]] == ["from bob", "from cat"]
    assert [m["text"] for m in room.be(None).get("/api/lobby").json()["chat"]] == ["from bob", "from ann", "from cat"]


MOD_ROUTES = [
    ("GET", "/api/moderation/queue", None),
    ("GET", "/api/moderation/audit", None),
    ("GET", "/api/moderation/tables/abc", None),
    ("POST", "/api/moderation/actions", {"action": "warn", "name": "Bob", "reason": "x"}),
]


@pytest.mark.parametrize("method,path,body", MOD_ROUTES)
@pytest.mark.parametrize("who", [None, "Ann"])
@pytest.mark.parametrize("csrf", [True, False])
def test_everyone_but_a_moderator_gets_403_on_every_moderation_endpoint(room, method, path, body, who, csrf):
    c = room.be(who)
    token = c.headers.pop("X-CSRF-Token")
    try:
        if csrf:
            c.headers["X-CSRF-Token"] = token
        r = c.request(method, path, json=body)
        code = "csrf" if method == "POST" and not csrf else "forbidden"
        assert (r.status_code, r.json()["code"]) == (403, code)
    finally:
        c.headers["X-CSRF-Token"] = token
    assert room.be("Mod").get("/api/moderation/audit").json() == []  # nothing was done


def test_a_report_with_its_chat_a_warning_in_the_audit_log_and_the_notice(room):
    c = room.be("Ann")
    t = two_seats(c)
    assert room.be("Bob").post(f"/api/tables/{t['id']}/claim", json={"invite": invite(t)}).status_code == 200
    table = c.app.state.manager.tables[t["id"]]
    table.chat.append({"type": "chat", "from": "Bob", "spectator": False, "text": "you are bad", "seq": 0})
    r = room.be("Ann").post(
        "/api/reports",
        json={"reason": "abuse", "text": "rude", "name": "Bob", "table_id": t["id"], "message": "you are bad"},
    )
    assert r.status_code == 201
    rid = r.json()["id"]
    r = room.be("Cat").post("/api/reports", json={"reason": "abuse", "table_id": t["id"]})
    assert (r.status_code, r.json()["code"]) == (404, "not_found")  # Cat has no seat at this private table
    r = room.be("Ann").post("/api/reports", json={"reason": "because", "name": "Bob"})
    assert (r.status_code, r.json()["code"]) == (400, "bad_message")
    r = room.be("Ann").post("/api/reports", json={"reason": "other", "name": "Bob", "text": "x" * 501})
    assert (r.status_code, r.json()["code"]) == (400, "bad_message")
    m = room.be("Mod")
    q = m.get("/api/moderation/queue").json()
    [rep] = q["reports"]
    assert {k: rep[k] for k in ("id", "reporter", "subject", "table_id", "message", "reason", "text")} == {
        "id": rid,
        "reporter": "Ann",
        "subject": "Bob",
        "table_id": t["id"],
        "message": "you are bad",
        "reason": "abuse",
        "text": "rude",
    }
    assert [line["text"] for line in rep["chat"]] == ["you are bad"]
    ev = m.get(f"/api/moderation/tables/{t['id']}").json()
    assert ev["names"] == ["Ann", "Bob"] and [x["text"] for x in ev["chat"]] == ["you are bad"]
    r = m.post(
        "/api/moderation/actions",
        json={
            "action": "delete_message",
            "name": "Bob",
            "table_id": t["id"],
            "message": "you are bad",
            "reason": "abuse",
        },
    )
    assert r.status_code == 201 and r.json()["detail"]["deleted"] == 1 and table.chat == []
    r = m.post("/api/moderation/actions", json={"action": "warn", "name": "Bob", "reason": "be kind", "report_id": rid})
    entry = r.json()
    assert r.status_code == 201 and (entry["moderator"], entry["account"], entry["action"]) == ("Mod", "Bob", "warn")
    assert m.get("/api/moderation/queue").json()["reports"] == []  # answered
    assert [(e["action"], e["reason"]) for e in m.get("/api/moderation/audit").json()] == [
        ("warn", "be kind"),
        ("delete_message", "abuse"),
    ]
    notices = room.be("Bob").get("/api/me").json()["notices"]
    assert [(n["action"], n["reason"]) for n in notices] == [("warn", "be kind"), ("delete_message", "abuse")]
    assert "moderator" not in notices[0]


def test_moderators_see_a_live_deal_only_as_a_spectator(room):
    c = room.be("Ann")
    r = c.post("/api/tables", json={"seats": [{"kind": "human", "name": "x"}, {"kind": "bot", "level": "novice"}]})
    t = r.json()
    from .conftest import send_client_seeds

    send_client_seeds(c, t)
    table = c.app.state.manager.tables[t["id"]]
    from ginrummy.cards import card_str

    deal = table.match.deal  # one immutable snapshot: the computer may move while the test reads
    hidden = {card_str(x) for x in range(52) if (deal.hands[0] | deal.hands[1]) >> x & 1}
    assert len(hidden) == 20 + (deal.phase == "discard")  # ten each, and the card drawn before a discard
    rec = room.be("Mod").get(f"/api/moderation/tables/{t['id']}").json()["record"]
    from .conftest import cards_in

    assert rec is not None and not (cards_in(rec) & hidden)


def test_suspension_ends_sessions_refuses_sign_in_with_why_and_until(room):
    until = (datetime.now(UTC) + timedelta(days=3)).replace(microsecond=0)
    m = room.be("Mod")
    r = m.post(
        "/api/moderation/actions",
        json={
            "action": "suspend",
            "name": "Bob",
            "reason": "abuse in chat",
            "until": until.strftime("%Y-%m-%dT%H:%MZ"),
        },
    )
    assert r.status_code == 201
    c = room.be("Bob")
    assert c.get("/api/me").json() == {"signed_in": False}
    r = c.post("/api/session", json={"name": "Bob", "password": PASSWORD})
    shown = until.replace(second=0).isoformat()
    assert (r.status_code, r.json()) == (
        403,
        {
            "code": "suspended",
            "error": f"this account is suspended until {shown} by a moderator: abuse in chat",
        },
    )
    r = c.post("/api/session", json={"name": "Bob", "password": "wrong horse"})
    assert r.status_code == 401  # the wrong password says nothing of the suspension


def test_a_suspended_player_is_silent_on_the_connection_he_had_open(room):
    c = room.be("Ann")
    t = two_seats(c)
    token = room.be("Bob").post(f"/api/tables/{t['id']}/claim", json={"invite": invite(t)}).json()["token"]
    with room.be(None).websocket_connect(f"/ws/table/{t['id']}?seat={token}") as bob:
        room.be("Mod").post("/api/moderation/actions", json={"action": "close", "name": "Bob", "reason": "threats"})
        bob.send_json({"type": "chat", "text": "still here"})
        while (msg := bob.receive_json())["type"] != "error":
            pass
        assert (msg["code"], msg["message"]) == ("suspended", "this account was closed by a moderator: threats")
    assert c.app.state.manager.tables[t["id"]].chat == []


def test_barred_from_rated_play_and_muted_in_the_lobby_until_a_time(room):
    m = room.be("Mod")
    soon = (datetime.now(UTC) + timedelta(hours=1)).isoformat(timespec="seconds")
    m.post("/api/moderation/actions", json={"action": "bar_rated", "name": "Bob", "reason": "farming", "until": soon})
    m.post("/api/moderation/actions", json={"action": "mute_lobby", "name": "Bob", "reason": "spam", "until": soon})
    c = room.be("Bob")
    r = c.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot", "level": "novice"}], "rated": True})
    assert (r.status_code, r.json()["code"]) == (403, "barred")
    assert r.json()["error"] == f"you are barred from rated play until {soon} by a moderator: farming"
    assert two_seats(room.be("Bob"))["rated"] is False  # unrated play is open
    rated = two_seats(room.be("Ann"), rated=True)
    r = room.be("Bob").post(f"/api/tables/{rated['id']}/claim", json={"invite": invite(rated)})
    assert (r.status_code, r.json()["code"]) == (403, "barred")
    with room.be("Bob").websocket_connect("/ws/lobby") as ws:
        ws.send_json({"type": "chat", "text": "buy gold"})
        while (msg := ws.receive_json())["type"] != "error":
            pass
        assert msg["code"] == "muted"
    assert room.be(None).get("/api/lobby").json()["chat"] == []
    # a bar that ended holds no more
    with m.app.state.store.engine.begin() as conn:
        from ginrummy.web.community.schema import sanctions_t

        conn.execute(update(sanctions_t).values(until="2000-01-01T00:00:00+00:00"))
    assert room.be("Bob").post(f"/api/tables/{rated['id']}/claim", json={"invite": invite(rated)}).status_code == 200


def _rated_result(conn, rid: str, when: datetime, a: int, b: int, winner: int) -> None:
    conn.execute(
        insert(results_t).values(id=rid, finished=when.isoformat(timespec="seconds"), rated=1, source="table", public=1)
    )
    for p, (me, other) in enumerate(((a, b), (b, a))):
        conn.execute(
            insert(result_players_t).values(
                result_id=rid,
                player=p,
                account_id=me,
                opponent_id=other,
                opponent_name="x",
                finished=when.isoformat(timespec="seconds"),
                outcome="win" if p == winner else "loss",
                deals=1,
                deals_won=1 if p == winner else 0,
                knocks=0,
                gins=0,
                undercuts_made=0,
                undercuts_suffered=0,
                points=0,
                knock_deadwood=0,
            )
        )


def test_a_farmed_pair_is_flagged_and_its_voided_series_recomputes_every_rating(room):
    c = room.be("Mod")
    engine = c.app.state.store.engine
    with engine.begin() as conn:
        ids = {r.name: r.id for r in conn.execute(select(accounts_t.c.id, accounts_t.c.name))}
        t0 = datetime(2026, 11, 1, 12, tzinfo=UTC)
        # Ann and Cat: two honest matches days apart; Ann and Bob: 12 in 12 hours, Bob always wins
        _rated_result(conn, "h1", t0, ids["Ann"], ids["Cat"], 0)
        for i in range(12):
            _rated_result(conn, f"f{i:02d}", t0 + timedelta(days=1, hours=i), ids["Ann"], ids["Bob"], 1)
        _rated_result(conn, "h2", t0 + timedelta(days=5), ids["Cat"], ids["Ann"], 0)
    flags = [f for f in c.get("/api/moderation/queue").json()["flags"] if f["kind"] == "pair"]
    assert flags == [
        {
            "flag": f"pair:{ids['Ann']}:{ids['Bob']}",
            "kind": "pair",
            "accounts": ["Ann", "Bob"],
            "count": 12,
            "first": (t0 + timedelta(days=1)).isoformat(),
            "last": (t0 + timedelta(days=1, hours=11)).isoformat(),
            "matches": [f"f{i:02d}" for i in range(12)],
        }
    ]
    r = c.post(
        "/api/moderation/actions",
        json={"action": "void_series", "reason": "farmed", "flag": flags[0]["flag"], "matches": flags[0]["matches"]},
    )
    assert r.status_code == 201
    # ratings as OpenSkill gives them from the two honest matches alone
    model = PlackettLuce()
    ann, cat = model.rating(), model.rating()
    [[ann], [cat]] = model.rate([[ann], [cat]], ranks=[0, 1])
    [[cat], [ann]] = model.rate([[cat], [ann]], ranks=[0, 1])
    board = {e["name"]: e for e in c.get("/api/leaderboard").json()}
    assert set(board) == {"Ann", "Cat"}  # Bob has no rated match left
    assert (board["Ann"]["mu"], board["Ann"]["sigma"], board["Ann"]["matches"]) == (
        round(ann.mu, 4),
        round(ann.sigma, 4),
        2,
    )
    assert board["Cat"]["rating"] == display_rating(cat.mu, cat.sigma)
    assert [f for f in c.get("/api/moderation/queue").json()["flags"] if f["kind"] == "pair"] == []
    assert c.get("/api/moderation/audit").json()[0]["detail"] == {"matches": [f"f{i:02d}" for i in range(12)]}


def test_accounts_from_one_address_are_flagged_without_the_address(room):
    c = room.be("Mod")
    flags = [f for f in c.get("/api/moderation/queue").json()["flags"] if f["kind"] == "address"]
    # the four accounts of this test were all made from the test client's address
    assert [(f["accounts"], f["count"], f["matches"]) for f in flags] == [(["Ann", "Bob", "Cat", "Mod"], 4, [])]
    engine = c.app.state.store.engine
    with engine.connect() as conn:
        hashes = {r.address_hash for r in conn.execute(select(signins_t))}
    assert len(hashes) == 1 and "testclient" not in json.dumps(c.get("/api/moderation/queue").json())
    r = c.post("/api/moderation/actions", json={"action": "dismiss", "reason": "one family", "flag": flags[0]["flag"]})
    assert r.status_code == 201
    assert [f for f in c.get("/api/moderation/queue").json()["flags"] if f["kind"] == "address"] == []


def test_a_block_and_a_suspension_made_on_one_process_hold_on_the_other_at_once(db_url):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with (
            TestClient(create_app(db_url, bot_delay=0)) as one,
            TestClient(create_app(db_url, bot_delay=0)) as two,
        ):
            a, b = People(with_csrf(one)), People(with_csrf(two))
            a.add("Ann", "Mod")
            b.add("Bob")
            a.tokens["Bob"] = b.tokens["Bob"]  # sessions live in the database: Bob's opens on either
            make_moderator(one, "Mod")
            t = two_seats(a.be("Ann"))  # Ann's table lives on process one
            b.be("Bob").post("/api/relations", json={"name": "Ann", "kind": "block"})  # made on process two
            r = a.be("Bob").post(f"/api/tables/{t['id']}/claim", json={"invite": invite(t)})  # tried on one
            assert (r.status_code, r.json()["code"]) == (403, "blocked")
            # a suspension made on one ends Bob's session on two at once, and his sign-in there
            assert b.be("Bob").get("/api/me").json()["signed_in"] is True
            a.be("Mod").post("/api/moderation/actions", json={"action": "suspend", "name": "Bob", "reason": "abuse"})
            assert b.be("Bob").get("/api/me").json() == {"signed_in": False}
            r = two.post("/api/session", json={"name": "Bob", "password": PASSWORD})
            assert (r.status_code, r.json()) == (
                403,
                {"code": "suspended", "error": "this account is suspended by a moderator: abuse"},
            )


def test_the_migrations_make_the_schema_the_models_declare(tmp_path):
    """Migrating a fresh database to the head gives every table the models of every module of
    ``ginrummy.web`` declare, column for column (the role of 0002 too, which the accounts model
    lacked), and no other."""
    from ginrummy.web.community.members import rated_tables_t
    from ginrummy.web.community.schema import metadata as people
    from ginrummy.web.db.migrations import head_revision, upgrade
    from ginrummy.web.db.store import metadata as games

    from .test_migrations import _schema

    migrated = create_engine(f"sqlite:///{tmp_path / 'migrated.db'}")
    upgrade(migrated)
    declared = create_engine(f"sqlite:///{tmp_path / 'declared.db'}")
    games.create_all(declared)
    people.create_all(declared)
    # every feature's schema: each MetaData any module of ginrummy.web declares (a feature whose
    # tables the migrations lack, or a migration whose table no model declares, fails below)
    import pkgutil

    from sqlalchemy import MetaData

    import ginrummy.web

    found = []
    for info in pkgutil.walk_packages(ginrummy.web.__path__, "ginrummy.web."):
        if ".migrations" in info.name:
            continue
        module = importlib.import_module(info.name)
        found += [v for v in vars(module).values() if isinstance(v, MetaData) and all(v is not f for f in found)]
    for m in found:
        m.create_all(declared)
    assert rated_tables_t.metadata is people
    from ginrummy.web.db.migrations import current_revision

    assert current_revision(migrated) == head_revision()  # 0003_moderation, or a merge after it
    want = _schema(declared)
    assert {"gin_relations", "gin_reports", "gin_sanctions", "gin_mod_actions", "gin_signins"} <= set(want)
    assert _schema(migrated) == want
    migrated.dispose()
    declared.dispose()


def test_open_reports_and_relations_are_bounded(room, monkeypatch):
    from ginrummy.web.community import moderation

    monkeypatch.setattr(moderation, "MAX_OPEN_REPORTS", 2)
    monkeypatch.setattr(moderation, "MAX_RELATIONS", 1)
    c = room.be("Ann")
    for _ in range(2):
        assert c.post("/api/reports", json={"reason": "spam", "name": "Bob"}).status_code == 201
    r = c.post("/api/reports", json={"reason": "spam", "name": "Bob"})
    assert (r.status_code, r.json()) == (
        429,
        {"code": "rate_limited", "error": "you have 2 reports waiting for the moderators, the most there may be"},
    )
    assert c.post("/api/relations", json={"name": "Bob", "kind": "block"}).status_code == 200
    r = c.post("/api/relations", json={"name": "Cat", "kind": "mute"})
    assert (r.status_code, r.json()["code"]) == (429, "rate_limited")
    assert c.get("/api/relations").json() == {"blocked": ["Bob"], "muted": []}
