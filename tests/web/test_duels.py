"""The friend challenge on the same deals over the API (issue 33, docs/compete.md): Ann
challenges Bob, both play every deal against the same computer level with the seats swapped,
neither sees the other's game of a deal before both have played it, the results equal a
recomputation from the stored games, and the seed revealed at the end passes ``gin daily
verify``; and the attacks: a third account, oneself, an unknown name, a bot account, a second
accept, the limit of open challenges, CSRF."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta

import pytest
from sqlalchemy import update

from ginrummy.compete.daily import DAILY_RULES, challenge_score, deal_seed_of_day, result_of
from ginrummy.match import Match, commitment
from ginrummy.record import loads
from ginrummy.web.community.accounts import accounts_t
from ginrummy.web.contests.duels import DUEL_DAYS, MAX_OPEN_DUELS

from .conftest import with_csrf
from .test_daily import NOON, _person, app_client, clock, db_url  # noqa: F401 (fixtures)
from .test_ratings import play_out


def _sign_in(c, name: str) -> None:
    c.cookies.clear()
    r = c.post("/api/session", json={"name": name, "password": "correct horse"})
    assert r.status_code == 200, r.text
    with_csrf(c)


def _play(c, duel: str, number: int, seed: int) -> dict:
    r = c.post(f"/api/duels/{duel}/{number}")
    assert r.status_code == 201, r.text
    t = r.json()
    seats = [{}, {}]
    seats[t["seat"]] = {"token": t["token"]}
    play_out(c, {"id": t["id"], "seats": seats}, t["seat"], seed)
    return t


def _verify(tmp_path, bundle: dict) -> subprocess.CompletedProcess:
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(bundle), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "ginrummy", "daily", "verify", str(path)], capture_output=True, text=True, timeout=120
    )


def test_both_play_seats_swapped_results_recomputed_and_verified(app_client, clock, tmp_path):  # noqa: F811
    c = app_client
    for name in ("Bob", "Eve", "Ann"):
        _person(c, name)
    r = c.post("/api/duels", json={"to": "bob", "deals": 2, "level": "novice"})
    assert r.status_code == 201, r.text
    duel = r.json()
    d = duel["id"]
    assert duel["from"] == "Ann" and duel["to"] == "Bob" and duel["you"] == "from" and duel["status"] == "open"
    assert duel["seed"] is None and len(duel["commitment"]) == 64 and duel["link"].endswith(f"/duels/{d}")
    room, mgr = c.app.state.duels, c.app.state.manager
    seed = bytes.fromhex(room._row(d)["seed"])
    assert commitment(seed) == duel["commitment"]
    # Ann plays deal 1 at once (Bob has not accepted yet): she is player 0
    a1 = _play(c, d, 1, seed=1)
    assert a1["seat"] == 0 and mgr.tables[a1["id"]].names[0] == "Ann"
    r = c.post(f"/api/duels/{d}/1")
    assert (
        r.status_code == 409 and r.json()["error"] == "you have played deal 1 of this challenge already: one try a deal"
    )
    mine = c.get(f"/api/duels/{d}").json()["games"][0]["from"]
    assert mine["played"] and mine["score"] == result_of(mgr.tables[a1["id"]].match)
    # Eve sees nothing of it, and cannot play, accept nor replay Ann's game
    _sign_in(c, "Eve")
    assert c.get(f"/api/duels/{d}").status_code == 404
    assert c.post(f"/api/duels/{d}/accept").status_code == 404
    assert c.post(f"/api/duels/{d}/2").status_code == 404
    assert c.get(f"/api/replays/{a1['id']}").status_code == 404
    assert c.get(f"/api/duels/{d}/records").status_code == 404
    # Bob must accept before he plays; then he plays deal 1 as player 1 with the computer's cards
    _sign_in(c, "Bob")
    got = c.get(f"/api/duels/{d}").json()
    assert got["you"] == "to" and got["games"][0]["from"] == {
        "started": True,
        "played": True,
        "score": None,
        "replay": None,
    }
    r = c.post(f"/api/duels/{d}/1")
    assert r.status_code == 403 and r.json()["error"] == "accept the challenge first"
    assert c.post(f"/api/duels/{d}/accept").json()["status"] == "playing"
    r = c.post(f"/api/duels/{d}/accept")
    assert r.status_code == 409 and r.json()["error"] == "this challenge was accepted already"
    assert c.get(f"/api/replays/{a1['id']}").status_code == 404  # not before he has played deal 1
    b1 = _play(c, d, 1, seed=2)
    assert b1["seat"] == 1 and mgr.tables[b1["id"]].names[1] == "Bob"
    ta, tb = mgr.tables[a1["id"]], mgr.tables[b1["id"]]
    assert ta.row.seed == tb.row.seed == deal_seed_of_day(seed, 1)
    assert c.get(f"/api/replays/{a1['id']}").status_code == 200  # both played deal 1
    got = c.get(f"/api/duels/{d}").json()
    g1 = got["games"][0]
    ra, rb = result_of(ta.match), result_of(tb.match)
    assert g1["from"]["score"] == ra and g1["to"]["score"] == -rb and g1["difference"] == ra + rb
    assert g1["from"]["replay"] == f"/replay/{a1['id']}" and not got["over"] and got["winner"] is None
    b2 = _play(c, d, 2, seed=3)
    assert c.get(f"/api/duels/{d}").json()["games"][1]["from"]["started"] is False
    # Ann ends it: the seed is shown, the winner named; the results are the stored games'
    _sign_in(c, "Ann")
    assert c.get(f"/api/replays/{b2['id']}").status_code == 404  # she has not played deal 2
    assert c.get(f"/api/duels/{d}/records").status_code == 403
    a2 = _play(c, d, 2, seed=4)
    done = c.get(f"/api/duels/{d}").json()
    assert done["over"] and done["status"] == "over" and done["seed"] == seed.hex() and done["complete"]
    stored = room.recompute(d)
    assert stored == {
        (1, False): ra,
        (1, True): rb,
        (2, False): result_of(mgr.tables[a2["id"]].match),
        (2, True): result_of(mgr.tables[b2["id"]].match),
    }
    want = challenge_score("Ann", "Bob", 2, stored)
    assert [g["difference"] for g in done["games"]] == list(want.per_deal)
    assert done["total"] == want.total and done["winner"] == want.winner
    # after the end anyone may see it and its replays
    _sign_in(c, "Eve")
    assert c.get(f"/api/duels/{d}").json()["winner"] == want.winner
    assert c.get(f"/api/replays/{b2['id']}").status_code == 200
    bundle = c.get(f"/api/duels/{d}/records").json()
    assert bundle["duel"] == d and bundle["seed"] == seed.hex() and len(bundle["records"]) == 4
    for g in bundle["records"]:
        rec = loads(g["record"])
        assert rec.seed_commitment == commitment(deal_seed_of_day(seed, g["number"]))
        assert rec.names[g["seat"]] == g["player"]
    ok = _verify(tmp_path, bundle)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.splitlines()[-1] == f"{d}: the seed matches its commitment; 4 games, every one dealt from it"
    # a record said to be the other person's seat: the seats were not swapped as the file says
    moved = dict(bundle, records=[dict(g, seat=1 - g["seat"]) if g["number"] == 1 else g for g in bundle["records"]])
    r = _verify(tmp_path, moved)
    assert r.returncode == 1 and "Ann is not player 1 of this record" in r.stdout
    bad = _verify(tmp_path, dict(bundle, seed=bytes(32).hex()))
    assert bad.returncode == 1
    assert bad.stdout.splitlines()[0] == f"{d}: the seed does not match the commitment published before the day"


def test_the_seats_are_swapped_on_the_same_cards(app_client):  # noqa: F811
    c = app_client
    _person(c, "Bob")
    _person(c, "Ann")
    d = c.post("/api/duels", json={"to": "Bob", "deals": 1, "level": "club"}).json()["id"]
    a = c.post(f"/api/duels/{d}/1").json()
    _sign_in(c, "Bob")
    c.post(f"/api/duels/{d}/accept")
    b = c.post(f"/api/duels/{d}/1").json()
    mgr = c.app.state.manager
    ta, tb = mgr.tables[a["id"]], mgr.tables[b["id"]]
    assert ta.names[0] == "Ann" and tb.names[1] == "Bob" and ta.names[1] == tb.names[0]  # the same level
    assert ta.row.seed == tb.row.seed
    # dealt at once from the challenge's seed, without client seeds
    assert ta.match.record.client_seeds is None and tb.match.record.client_seeds is None
    fresh_a, fresh_b = (Match.new(DAILY_RULES, t.names, t.row.seed) for t in (ta, tb))
    assert fresh_b.deal.hand(1) == fresh_a.deal.hand(1)  # Bob has the computer's cards at Ann's table
    assert fresh_b.deal.hand(0) == fresh_a.deal.hand(0)  # the computer has Ann's
    assert fresh_a.deal.dealer == fresh_b.deal.dealer


def test_a_link_is_taken_by_the_first_who_accepts(app_client):  # noqa: F811
    c = app_client
    for name in ("Bob", "Cy", "Ann"):
        _person(c, name)
    d = c.post("/api/duels", json={"deals": 4}).json()
    assert d["to"] is None and d["deals"] == 4 and d["level"] == "club"
    r = c.post(f"/api/duels/{d['id']}/accept")
    assert r.status_code == 403 and r.json()["error"] == "you sent this challenge: you may only cancel it"
    c.cookies.clear()
    r = c.get(f"/api/duels/{d['id']}")  # signed out
    assert r.status_code == 401 and r.json()["error"] == "sign in to play friend challenges"
    _sign_in(c, "Bob")
    seen = c.get(f"/api/duels/{d['id']}").json()
    assert seen["you"] is None and seen["from"] == "Ann"
    r = c.post(f"/api/duels/{d['id']}/decline")
    assert r.status_code == 403 and r.json()["error"] == "a challenge link is declined by not accepting it"
    assert c.post(f"/api/duels/{d['id']}/accept").json()["to"] == "Bob"
    _sign_in(c, "Cy")
    r = c.post(f"/api/duels/{d['id']}/accept")
    assert r.status_code == 404  # taken: Cy may no longer see it


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"to": "Ann"}, 403, "you cannot challenge yourself: send the challenge to a friend"),
        ({"to": "Nobody"}, 404, "no player is called Nobody"),
        ({"to": "Robo"}, 403, "Robo is not a person's account: a friend challenge is between two people"),
        ({"to": "club"}, 403, "club is not a person's account: a friend challenge is between two people"),
        (
            {"to": "Computer (expert)"},
            403,
            "Computer (expert) is not a person's account: a friend challenge is between two people",
        ),
        ({"deals": 9}, 400, "deals: is out of range; allowed: at most 8"),
        ({"deals": "4"}, 400, "deals: has the wrong type; allowed: a whole number"),
        ({"level": "master"}, 400, "level: is not allowed; allowed: 'novice', 'club' or 'expert'"),
        ({"to": "Bob", "seed": "00"}, 400, "seed: is not a field here; fields: deals, level, to"),
    ],
)
def test_bad_challenges_are_refused_with_what_is_allowed(app_client, body, status, words):  # noqa: F811
    c = app_client
    _person(c, "Robo")
    _person(c, "Bob")
    with c.app.state.store.engine.begin() as conn:
        conn.execute(update(accounts_t).where(accounts_t.c.name == "Robo").values(kind="bot"))
    _person(c, "Ann")
    r = c.post("/api/duels", json=body)
    assert r.status_code == status and r.json()["error"] == words


def test_limits_expiry_answers_signed_out_and_csrf(app_client, clock):  # noqa: F811
    c = app_client
    _person(c, "Bob")
    _person(c, "Ann")
    sent = [c.post("/api/duels", json={"to": "Bob"}) for _ in range(MAX_OPEN_DUELS + 1)]
    assert [r.status_code for r in sent] == [201] * MAX_OPEN_DUELS + [409]
    assert sent[-1].json()["error"] == "you are in 5 challenges not over already: finish one first (at most 5)"
    first, second = sent[0].json()["id"], sent[1].json()["id"]
    assert c.post(f"/api/duels/{first}/cancel").json()["status"] == "canceled"
    assert c.post("/api/duels", json={"to": "Bob"}).status_code == 201  # a cancelled one is over
    r = c.post(f"/api/duels/{first}/1")
    assert r.status_code == 403 and r.json()["error"] == "this challenge is over"
    assert c.get(f"/api/duels/{first}").json()["seed"] is not None  # nothing played: shown
    r = c.post(f"/api/duels/{second}/decline")
    assert r.status_code == 403 and r.json()["error"] == "you sent this challenge: you may only cancel it"
    r = c.post(f"/api/duels/{second}/9")
    assert r.status_code == 400 and r.json()["error"] == "number: is out of range; allowed: at most 8"
    r = c.post(f"/api/duels/{second}/5")
    assert r.status_code == 400 and r.json()["error"] == "no deal 5: this challenge has 4"
    assert c.get("/api/duels/zz").status_code == 404
    del c.headers["X-CSRF-Token"]
    assert c.post("/api/duels", json={"to": "Bob"}).status_code == 403
    assert c.post(f"/api/duels/{second}/cancel").status_code == 403
    assert c.post(f"/api/duels/{second}/1").status_code == 403
    _sign_in(c, "Bob")
    r = c.post(f"/api/duels/{second}/cancel")
    assert r.status_code == 403 and r.json()["error"] == "only the person who sent a challenge may cancel it"
    assert c.post(f"/api/duels/{second}/decline").json()["status"] == "declined"
    c.cookies.clear()
    r = c.post("/api/duels", json={"to": "Bob"})
    assert r.status_code == 401 and r.json()["error"] == "sign in to play friend challenges"
    # a week later every challenge is over: Bob may accept none, the seeds are shown
    clock["now"] = NOON + timedelta(days=DUEL_DAYS)
    _sign_in(c, "Bob")
    third = sent[2].json()["id"]
    r = c.post(f"/api/duels/{third}/accept")
    assert r.status_code == 403 and r.json()["error"] == "this challenge is over"
    assert c.get(f"/api/duels/{third}").json()["seed"] is not None


def test_a_challenge_table_and_its_result_survive_a_restart(tmp_path):
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
        _person(c, "Bob")
        _person(c, "Ann")
        d = c.post("/api/duels", json={"to": "Bob", "deals": 2}).json()["id"]
        done = _play(c, d, 1, seed=5)
        half = c.post(f"/api/duels/{d}/2").json()
        before = c.app.state.manager.tables[half["id"]]
        dealt = (tuple(before.match.deal.stock), before.match.deal.upcard)  # the computer's moves change the hands
        shown = c.get(f"/api/duels/{d}").json()
    with TestClient(app()) as c:
        with_csrf(c)
        _sign_in(c, "Ann")
        after = c.app.state.manager.load(half["id"])
        assert after.match is not None and not after.fair  # dealt again from the challenge's seed
        assert (tuple(after.match.deal.stock), after.match.deal.upcard) == dealt
        assert c.get(f"/api/duels/{d}").json() == shown
        assert c.app.state.manager.load(done["id"]).match.finished
        r = c.post(f"/api/duels/{d}/2")
        assert r.status_code == 409  # started before the restart: still one try


def test_the_other_cannot_watch_download_or_replay_a_game_in_play(app_client):  # noqa: F811
    c = app_client
    _person(c, "Bob")
    _person(c, "Ann")
    d = c.post("/api/duels", json={"to": "Bob", "deals": 1}).json()["id"]
    a = c.post(f"/api/duels/{d}/1").json()  # Ann's table, in play
    _sign_in(c, "Bob")
    c.post(f"/api/duels/{d}/accept")
    with c.websocket_connect(f"/ws/table/{a['id']}?watch=1") as ws:
        msg = ws.receive_json()
    assert msg["type"] == "error" and msg["code"] == "not_allowed"
    assert msg["message"] == "only a public table can be watched"
    assert c.get(f"/api/tables/{a['id']}/record").status_code == 403
    assert c.get(f"/api/replays/{a['id']}").status_code == 404
    assert c.post(f"/api/replays/{a['id']}/review").status_code == 404
    assert a["id"] not in json.dumps(c.get(f"/api/duels/{d}").json())  # not even its id
    assert a["id"] not in json.dumps(c.get("/api/lobby").json())


def test_a_player_page_keeps_a_challenge_game_off_until_the_challenge_is_over(app_client):  # noqa: F811
    """Bob must not learn from Ann's player page how her game of a deal went before he plays it."""
    c = app_client
    _person(c, "Bob")
    _person(c, "Ann")
    d = c.post("/api/duels", json={"to": "Bob", "deals": 1}).json()["id"]
    a = _play(c, d, 1, seed=3)  # Ann has played the one deal
    _sign_in(c, "Bob")
    assert c.post(f"/api/duels/{d}/accept").status_code == 200
    assert [m["id"] for m in c.get("/api/players/Ann").json()["recent"]] == []
    b = _play(c, d, 1, seed=4)  # both played: the challenge is over
    assert [m["id"] for m in c.get("/api/players/Ann").json()["recent"]] == [a["id"]]
    assert [m["id"] for m in c.get("/api/players/Bob").json()["recent"]] == [b["id"]]


def test_an_answer_takes_no_body_and_a_broken_one_changes_nothing(app_client):  # noqa: F811
    c = app_client
    _person(c, "Bob")
    _person(c, "Ann")
    d = c.post("/api/duels", json={"to": "Bob", "deals": 1}).json()["id"]
    _sign_in(c, "Bob")
    r = c.post(f"/api/duels/{d}/accept", content=b'{"x": ', headers={"Content-Type": "application/json"})
    assert (r.status_code, r.json()["code"]) == (400, "bad_json")
    r = c.post(f"/api/duels/{d}/accept", content=b"hello", headers={"Content-Type": "text/plain"})
    assert (r.status_code, r.json()["code"]) == (415, "unsupported_media_type")
    r = c.post(f"/api/duels/{d}/1", json={"level": "expert"})
    assert (r.status_code, r.json()["code"]) == (400, "bad_message")
    assert c.get(f"/api/duels/{d}").json()["status"] == "open"
    assert c.post(f"/api/duels/{d}/accept", json={}).status_code == 200
