"""Ratings (docs/accounts.md): a rated match against a computer level, played to its end over
the WebSocket, moves both ratings exactly as an independent OpenSkill call on the same result
(R11.1 decides the winner); statistics, leaderboard, player page and replay of that match;
`gin ladder`."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

from openskill.models import PlackettLuce
from sqlalchemy import create_engine, func, select

from ginrummy.players import make_player
from ginrummy.web.community.accounts import accounts_t
from ginrummy.web.community.ratings import display_rating, match_stats, reference_ratings, result_players_t, results_t

from .conftest import new_table


def _signup(c, name: str) -> None:
    r = c.post("/api/account", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text


def play_out(c, table: dict, seat: int = 0, seed: int = 7) -> dict:
    """Play ``seat`` of ``table`` to the end of the match with the novice's choices (the
    computer seat plays itself), sending the client seed of each deal; the last state."""
    tobj = c.app.state.manager.tables[table["id"]]
    me = make_player("novice", random.Random(seed))
    n = 0
    with c.websocket_connect(f"/ws/table/{table['id']}?seat={table['seats'][seat]['token']}") as ws:
        st = ws.receive_json()
        while True:
            while st.get("type") != "state":
                assert st.get("type") != "error", st
                st = ws.receive_json()
            if st["started"] and st["match"]["finished"]:
                return st
            pending = st["fair"]["pending"]
            n += 1
            if pending is not None and pending["yours"] is None:
                msg = {"type": "client_seed", "deal": pending["deal"], "seed": f"s{pending['deal']}"}
            elif st["started"] and st["your_turn"]:
                view = tobj.match.view(seat)
                msg = {"type": "action", "action": me.choose(view, view.legal).text}
            elif st["started"] and st["can_next_deal"]:
                msg = {"type": "next_deal"}
            else:
                st = ws.receive_json()
                continue
            ws.send_json({**msg, "id": n})
            while True:  # until the answer to this message
                got = ws.receive_json()
                assert got.get("type") != "error", got
                if got.get("type") == "state":
                    st = got
                if got.get("reply_to") == n:
                    break
            if st["started"] and st["match"]["finished"]:
                return st
            st = {"type": "sync"}
            ws.send_json({"type": "sync", "id": f"sync{n}"})
            while (got := ws.receive_json()).get("reply_to") != f"sync{n}":
                pass
            st = got


def play_direct(c, table_id: str):
    """Play every person's seat of a table to the end of the match through the table manager
    (on the test client's event loop), with the novice's choices; the finished table."""
    mgr = c.app.state.manager
    choosers = {p: make_player("novice", random.Random(p)) for p in range(3)}
    deadline = time.monotonic() + 300
    while True:
        t = mgr.tables[table_id]
        assert time.monotonic() < deadline
        if t.match is not None and t.match.finished:
            return t
        if t.waiting_for:
            p = t.waiting_for[0]
            c.portal.call(mgr.client_seed, t, p, t.next_deal_number, f"seed{p}")
            continue
        m = t.match
        p = m.player_to_act()
        if p is not None and not t.is_bot(p):
            view = m.view(p)
            c.portal.call(mgr.act, t, p, choosers[p].choose(view, view.legal).text)
        elif p is None and m.deal.is_over:
            c.portal.call(mgr.next_deal, t, None)
        else:
            time.sleep(0.002)  # a computer move is due


def test_a_fresh_servers_computer_levels_start_from_the_shipped_reference_ladder(client):
    """Issue 34: on a new server every computer level started at 1,000, so a first loss to
    novice moved the ratings -73 / +138.  The levels start from the reference ladder shipped in
    the package (gin ladder --games 60 --seed 1), made by scripts/build_reference_ladder.py;
    ``gin ladder`` itself (no web server) still starts a level as a new player."""
    import json
    from importlib.resources import files

    from ginrummy.web.community.accounts import Accounts

    data = json.loads(files("ginrummy.web.community").joinpath("reference_ladder.json").read_text(encoding="utf-8"))
    assert data["command"] == "gin ladder --games 60 --seed 1 --json" and (data["games"], data["seed"]) == (60, 1)
    assert {k: v["rating"] for k, v in data["levels"].items()} == {
        "random": 491,
        "novice": 1473,
        "club": 1783,
        "expert": 1866,
    }
    ref = reference_ratings()
    assert ref["novice"] == (data["levels"]["novice"]["mu"], data["levels"]["novice"]["sigma"])
    players = client.app.state.players
    acc = players.accounts.computer("novice")
    with players.engine.connect() as conn:
        row = conn.execute(select(accounts_t.c.mu, accounts_t.c.sigma).where(accounts_t.c.id == acc)).one()
    assert (row.mu, row.sigma) == ref["novice"]
    assert display_rating(*ref["novice"]) == 1473
    # the ladder's own accounts (gin ladder: no web server) start as a new player's
    plain = Accounts(players.engine)
    assert plain.computer_start == {}


def test_rated_match_against_a_computer_moves_both_ratings_like_openskill(client):
    _signup(client, "Ann")
    r = client.post(
        "/api/tables",
        json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}], "rated": True},
    )
    assert r.status_code == 201, r.text
    table = r.json()
    end = play_out(client, table)
    tobj = client.app.state.manager.tables[table["id"]]
    m = tobj.match
    assert m.finished and m.winner in (0, 1)
    # an independent OpenSkill call on the same result, from a new rating for Ann and the
    # reference ladder's for novice (a fresh server's computer levels start there, issue 34)
    model = PlackettLuce()
    ranks = [0, 1] if m.winner == 0 else [1, 0]
    mu, sigma = reference_ratings()["novice"]
    [[ann], [bot]] = model.rate([[model.rating()], [model.rating(mu=mu, sigma=sigma)]], ranks=ranks)
    board = {e["name"]: e for e in client.get("/api/leaderboard").json()}
    assert set(board) == {"Ann", "novice"}
    assert board["Ann"]["mu"] == round(ann.mu, 4) and board["Ann"]["sigma"] == round(ann.sigma, 4)
    assert board["novice"]["mu"] == round(bot.mu, 4) and board["novice"]["sigma"] == round(bot.sigma, 4)
    assert board["Ann"]["rating"] == display_rating(ann.mu, ann.sigma)
    assert board["novice"]["kind"] == "computer" and board["Ann"]["kind"] == "human"
    assert board["Ann"]["matches"] == 1 and board["Ann"]["provisional"] is True
    # the change is in the final state of the table
    changes = {c["name"]: c for c in end["rating"]["changes"]}
    assert changes["Ann"]["before"] == 1000 and changes["Ann"]["after"] == display_rating(ann.mu, ann.sigma)
    assert changes["Ann"]["change"] == display_rating(ann.mu, ann.sigma) - 1000
    assert (changes["Ann"]["change"] > 0) == (m.winner == 0)
    # the player page: statistics of this match, recomputed here from the match itself
    p = client.get("/api/players/ann").json()
    s = match_stats(m)[0]
    assert p["name"] == "Ann" and p["matches"] == 1 and p["wins"] == int(m.winner == 0)
    assert (p["deals"], p["deals_won"], p["knocks"], p["gins"]) == (len(m.deals), s.deals_won, s.knocks, s.gins)
    assert (p["undercuts_made"], p["undercuts_suffered"]) == (s.undercuts_made, s.undercuts_suffered)
    assert p["points_per_deal"] == round(s.points / len(m.deals), 3)
    assert p["mean_knock_deadwood"] == (round(s.knock_deadwood / s.knocks, 3) if s.knocks else None)
    assert p["recent"] == [
        {
            "id": table["id"],
            "opponent": "novice",
            "opponent_kind": "computer",
            "result": "win" if m.winner == 0 else "loss",
            "date": p["recent"][0]["date"],
        }
    ]
    assert p["history"] == [{"date": p["recent"][0]["date"], "rating": display_rating(ann.mu, ann.sigma)}]
    assert set(p) >= {
        "name",
        "rating",
        "matches",
        "wins",
        "deals",
        "deals_won",
        "knocks",
        "gins",
        "undercuts_made",
        "undercuts_suffered",
        "points_per_deal",
        "mean_knock_deadwood",
        "recent",
    }
    # the replay of the finished (rated, so public) match: every deal, every action
    rep = client.get(f"/api/replays/{table['id']}").json()
    assert [len(d["frames"]) for d in rep["deals"]] == [len(d.actions) + 1 for d in m.deals]
    assert rep["winner"] == m.names[m.winner] and rep["totals"] == list(m.sheet.totals)


def test_an_unrated_match_is_recorded_but_moves_no_rating(client):
    _signup(client, "Ann")
    table = new_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}], deal=False)
    end = play_out(client, table)
    assert end["rating"] is None
    assert client.get("/api/leaderboard").json() == []
    p = client.get("/api/players/Ann").json()
    assert p["matches"] == 1 and p["history"] == [] and p["rating"] == 1000
    assert client.get(f"/api/replays/{table['id']}").status_code == 200  # Ann played it
    client.delete("/api/session")
    assert client.get(f"/api/replays/{table['id']}").status_code == 404  # unrated: not public


def test_deleted_player_stays_in_the_opponents_history(client):
    _signup(client, "Ann")
    r = client.post(
        "/api/tables",
        json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], "rated": True},
    )
    table = r.json()
    client.delete("/api/session")
    _signup(client, "Bob")
    code = table["seats"][1]["invite"].split("invite=", 1)[1]
    r = client.post(f"/api/tables/{table['id']}/claim", json={"invite": code})
    table["seats"][1]["token"] = r.json()["token"]
    done = play_direct(client, table["id"])
    assert done.rating["changes"][0]["name"] == "Ann" and len(done.rating["changes"]) == 2
    r = client.request("DELETE", "/api/account", json={"password": "correct horse"})  # Bob leaves
    assert r.status_code == 200
    p = client.get("/api/players/Ann").json()
    assert p["recent"][0]["opponent"] is None and p["recent"][0]["opponent_kind"] == "deleted"
    assert [e["name"] for e in client.get("/api/leaderboard").json()] == ["Ann"]


def test_gin_ladder_writes_the_computer_ratings(tmp_path):
    db = f"sqlite:///{tmp_path / 'ladder.sqlite3'}"
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ginrummy",
            "ladder",
            "--games",
            "4",
            "--levels",
            "random,novice",
            "--seed",
            "3",
            "--database-url",
            db,
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    board = json.loads(out.stdout)
    assert [e["matches"] for e in board["levels"]] == [4, 4]
    # recomputed independently: the same four matches, rated one after the other
    from ginrummy.analysis.simulate import play_game
    from ginrummy.rules import preset

    model = PlackettLuce()
    r = {"random": model.rating(), "novice": model.rating()}
    for i in range(4):
        g = play_game(preset("standard"), ["random", "novice"], i, 3)
        a, b = g.levels
        ranks = [0, 1] if g.match.winner == 0 else [1, 0]
        [[ra], [rb]] = model.rate([[r[a]], [r[b]]], ranks=ranks)
        r[a], r[b] = ra, rb
    got = {e["level"]: e for e in board["levels"]}
    for lv in ("random", "novice"):
        assert abs(got[lv]["mu"] - r[lv].mu) < 1e-9 and abs(got[lv]["sigma"] - r[lv].sigma) < 1e-9
    engine = create_engine(db)
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(results_t)).scalar() == 4
        assert conn.execute(select(func.count()).select_from(result_players_t)).scalar() == 8
    engine.dispose()


def test_gin_ladder_refuses_bad_options(tmp_path):
    db = f"sqlite:///{tmp_path / 'ladder.sqlite3'}"
    for args, text in [
        (["--levels", "novice"], "at least two different"),
        (["--levels", "novice,grandmaster"], "grandmaster"),
        (["--preset", "single"], "rated"),
    ]:
        out = subprocess.run(
            [sys.executable, "-m", "ginrummy", "ladder", "--games", "1", "--database-url", db, *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 2 and text in out.stderr, (args, out.stderr)


def _rematch_over_ws(c, table: dict, seat: int = 0) -> str:
    """Ask for a rematch at ``seat`` of a finished table over its WebSocket; the new table's id."""
    with c.websocket_connect(f"/ws/table/{table['id']}?seat={table['seats'][seat]['token']}") as ws:
        ws.send_json({"type": "rematch", "id": "r"})
        while (got := ws.receive_json())["type"] != "rematch":
            assert got["type"] != "error", got
    return got["id"]


def test_a_rematch_of_a_rated_match_is_rated_with_the_same_accounts(client):
    _signup(client, "Ann")
    r = client.post(
        "/api/tables",
        json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "club"}], "rated": True},
    )
    table = r.json()
    play_out(client, table)
    mgr, players = client.app.state.manager, client.app.state.players
    first = mgr.tables[table["id"]].match
    new_id = _rematch_over_ws(client, table)
    new = mgr.tables[new_id]
    ann_id = players.accounts.seats(table["id"])[0]
    assert players.accounts.seats(new_id) == {0: ann_id} and players.is_rated(new_id)
    assert new.row.seats == ["human", "bot:club"]  # the computer keeps its level
    assert new.rating == {"rated": True, "counts": True, "changes": []}  # every state of the rematch says so
    done = play_direct(client, new_id)
    # two OpenSkill updates in turn, from a new rating and club's reference one: the first
    # match, then the rematch
    model = PlackettLuce()
    mu, sigma = reference_ratings()["club"]
    ann, bot = model.rating(), model.rating(mu=mu, sigma=sigma)
    for m in (first, done.match):
        [[ann], [bot]] = model.rate([[ann], [bot]], ranks=[0, 1] if m.winner == 0 else [1, 0])
    board = {e["name"]: e for e in client.get("/api/leaderboard").json()}
    assert (board["Ann"]["mu"], board["Ann"]["sigma"], board["Ann"]["matches"]) == (
        round(ann.mu, 4),
        round(ann.sigma, 4),
        2,
    )
    assert (board["club"]["mu"], board["club"]["sigma"], board["club"]["matches"]) == (
        round(bot.mu, 4),
        round(bot.sigma, 4),
        2,
    )
    assert [c["name"] for c in done.rating["changes"]] == ["Ann", new.names[1]]
    # both matches, newest first; two that end in the same second may come in either order
    assert {r["id"] for r in client.get("/api/players/Ann").json()["recent"][:2]} == {table["id"], new_id}


def test_a_rematch_keeps_both_people_signed_in_and_leaves_a_deleted_account_out(client):
    _signup(client, "Ann")
    table = client.post(
        "/api/tables",
        json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], "rated": True},
    ).json()
    client.delete("/api/session")
    _signup(client, "Bob")
    code = table["seats"][1]["invite"].split("invite=", 1)[1]
    assert client.post(f"/api/tables/{table['id']}/claim", json={"invite": code}).status_code == 200
    done = play_direct(client, table["id"])
    mgr, players = client.app.state.manager, client.app.state.players
    seats = players.accounts.seats(table["id"])
    assert len(set(seats.values())) == 2
    for p in (0, 1):
        client.portal.call(mgr.ask_rematch, done, p, lambda send: "http://127.0.0.1")
    again = mgr.tables[done.options["rematch"]]
    assert players.accounts.seats(again.id) == seats and players.is_rated(again.id)
    # Bob deletes his account: a rematch asked now has only Ann signed in, so it is not rated
    assert client.request("DELETE", "/api/account", json={"password": "correct horse"}).status_code == 200
    for p in (0, 1):
        client.portal.call(mgr.ask_rematch, done, p, lambda send: "http://127.0.0.1")
    third = mgr.tables[done.options["rematch"]]
    assert third.id != again.id and players.accounts.seats(third.id) == {0: seats[0]}
    assert not players.is_rated(third.id) and third.rating is None


def test_a_signed_in_opener_sits_under_his_account_name(client):
    _signup(client, "Ann")
    seats = [{"kind": "human", "name": "Bob"}, {"kind": "bot", "level": "novice"}]
    rated = client.post("/api/tables", json={"seats": seats, "rated": True}).json()
    assert [s["name"] for s in rated["seats"]] == ["Ann", "Computer (novice)"]  # no other name at a rated table
    unnamed = client.post("/api/tables", json={"seats": [{"kind": "human", "name": ""}, seats[1]]}).json()
    assert unnamed["seats"][0]["name"] == "Ann"
    named = client.post("/api/tables", json={"seats": seats}).json()
    assert named["seats"][0]["name"] == "Ann"  # a signed-in seat shows its account's name (issue 28)
