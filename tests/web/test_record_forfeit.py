"""The record download of a match ended by a forfeit (docs/record-format.md, "Forfeited match";
docs/protocol.md, ``GET /api/tables/{id}/record``): a match resigned mid-deal, or lost on time at
a turn-based table (a faked clock, every value exact), downloads as a whole record: its deals
revealed, the deal the forfeit stopped with its deck and its actions up to the stop, a
``forfeit`` line, ``finished winner`` the other player and the match seed (as the table's
``fair.match_seed`` shows it); ``gin verify`` checks it and exits 0.  The replay says how it
ended.  Before, the download sealed the stopped deal and had no seed, so verify exited 3."""

from __future__ import annotations

import hashlib
import warnings
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from ginrummy.cli.main import main
from ginrummy.record import loads
from ginrummy.web.app import create_app
from ginrummy.web.room.clock import DAY

from .conftest import claim_all, send_client_seeds, wait_until, with_csrf

T0 = 1_750_000_000.0


class FakeTime:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def _app(url: str, now: FakeTime | None = None) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(url, bot_delay=0, table_scores=False)
    if now is not None:
        app.state.manager.now = now
    return app


def _move(c: TestClient, table: dict[str, Any]) -> None:
    """The person to act makes his first legal move over the socket."""
    t = c.app.state.manager.tables[table["id"]]
    p = t.match.player_to_act()
    text = t.match.view(p).legal[0].text
    with c.websocket_connect(f"/ws/table/{table['id']}?seat={table['seats'][p]['token']}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "action", "action": text, "id": "m"})
        while (msg := ws.receive_json()).get("reply_to") != "m":
            assert msg["type"] == "state", msg
        assert msg["type"] == "ack", msg


def _verify(tmp_path: Path, text: str, capsys: Any) -> tuple[int, str]:
    path = tmp_path / "match.gin"
    path.write_text(text, encoding="utf-8")
    code = main(["verify", str(path)])
    return code, capsys.readouterr().out


def test_a_match_resigned_mid_deal_downloads_a_record_that_verifies(tmp_path, capsys):
    with with_csrf(TestClient(_app(f"sqlite:///{tmp_path / 'r.db'}"))) as c:
        r = c.post("/api/tables", json={"preset": "standard", "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert r.status_code == 201, r.text
        table = claim_all(c, r.json())
        send_client_seeds(c, table)
        for _ in range(3):
            _move(c, table)
        with c.websocket_connect(f"/ws/table/{table['id']}?seat={table['seats'][0]['token']}") as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "resign", "id": "r"})
            while (msg := ws.receive_json()).get("reply_to") != "r":
                pass
            assert msg["type"] == "ack", msg
        t = c.app.state.manager.tables[table["id"]]
        seed = t.row.seed.hex()
        state = t.state_for(1)
        text = c.get(f"/api/tables/{table['id']}/record?seat={table['seats'][1]['token']}").text
        ann, bob = t.names
    assert state["match"] == {"finished": True, "winner": bob, "forfeit": ann, "ended": "resigned"}
    assert state["fair"]["match_seed"] == seed
    lines = text.splitlines()
    assert lines[-3:] == ["forfeit player 0 how resigned", "finished winner 1", f"seed {seed}"]
    assert "sealed" not in lines
    rec = loads(text)
    stopped = rec.deals[-1]
    assert (len(rec.deals), stopped.result, len(stopped.events)) == (1, None, 3)
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == rec.seed_commitment
    code, out = _verify(tmp_path, text, capsys)
    assert code == 0, out
    assert "deal 1: deck and commitment recomputed from the match seed" in out
    assert "deal 1: 3 lines replayed (the forfeit stopped it: no result)" in out
    assert (
        f"the match ended by a forfeit: {ann} resigned (deal 1 stopped after its last action line); winner {bob}" in out
    )


def test_a_turn_based_match_lost_on_time_downloads_a_record_that_verifies(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 't.db'}"
    now = FakeTime(T0)
    app = _app(url, now)
    with with_csrf(TestClient(app)) as c:
        seats = [{"kind": "human"}, {"kind": "human"}]
        r = c.post("/api/tables", json={"preset": "standard", "seats": seats, "clock": {"days": 1}})
        assert r.status_code == 201, r.text
        table = claim_all(c, r.json())
        send_client_seeds(c, table)
        _move(c, table)
        _move(c, table)
        mover = app.state.manager.tables[table["id"]].match.player_to_act()
    now.t += 2 * DAY  # the server is down while the move's day runs out
    app = _app(url, now)
    with with_csrf(TestClient(app)) as c:
        wait_until(lambda: app.state.manager.tables[table["id"]].over, "the forfeit on time at start-up")
        t = app.state.manager.tables[table["id"]]
        text = c.get(f"/api/tables/{table['id']}/record?seat={table['seats'][0]['token']}").text
        how, seed, names = t.how_ended, t.row.seed.hex(), t.names
    assert how == "time"
    assert text.splitlines()[-3:] == [
        f"forfeit player {mover} how time",
        f"finished winner {1 - mover}",
        f"seed {seed}",
    ]
    assert len(loads(text).deals[-1].events) == 2
    code, out = _verify(tmp_path, text, capsys)
    assert code == 0, out
    assert (
        f"the match ended by a forfeit: {names[mover]} lost on time (deal 1 stopped after its last action line)" in out
    )


def test_the_replay_of_a_forfeited_record_says_how_it_ended(tmp_path):
    """An uploaded forfeited record replays with the stopped deal's frames up to the stop."""
    from ginrummy.match import Match
    from ginrummy.record import dumps
    from ginrummy.rules import preset

    m = Match.new(preset("standard"), ["Ann", "Bob"], bytes(range(32)))
    for _ in range(2):
        p = m.player_to_act()
        m.apply(p, m.view(p).legal[0])
    text = dumps(m, public=True, forfeit=(1, "left"))
    with with_csrf(TestClient(_app(f"sqlite:///{tmp_path / 'u.db'}"))) as c:
        got = c.post("/api/replays", content=text, headers={"Content-Type": "text/plain; charset=utf-8"}).json()
    assert (got["finished"], got["winner"], got["forfeit"], got["ended"]) == (True, "Ann", "Bob", "left")
    d = got["deals"][0]
    assert (d["sealed"], d["result"], len(d["frames"])) == (False, None, 3)


def test_the_bots_fair_deal_check_covers_the_deal_a_resignation_stopped(tmp_path):
    """``gin bot``'s check (client/fair.py): once the match seed is revealed at a forfeit, it is
    checked against the first commitment and the stopped deal's cards against its deal seed."""
    import asyncio

    from ginrummy.client.fair import FairDeals
    from ginrummy.rules import preset
    from ginrummy.web.db.store import Store
    from ginrummy.web.room.tables import SeatSpec, TableManager

    async def run() -> tuple:
        store = Store(f"sqlite:///{tmp_path / 'b.db'}")
        manager = TableManager(store, bot_delay=0, now=FakeTime(T0))
        t, _ = manager.create(
            preset("standard"),
            [SeatSpec("human", "Ann"), SeatSpec("human", "Bob")],
            seed=bytes(range(32)),
            seat_all=True,
        )
        fair = FairDeals(new_seed=lambda: "annseed", clock=lambda: 0.0)
        msg = fair.seed_message(t.state_for(0))
        assert msg is not None
        await manager.client_seed(t, 0, 1, msg["seed"])
        await manager.client_seed(t, 1, 1, "bobseed")
        for _ in range(4):
            t = manager.tables[t.id]
            fair.observe(t.state_for(0))
            p = t.match.player_to_act()
            await manager.act(t, p, t.match.view(p).legal[0].text)
        t = manager.tables[t.id]
        fair.observe(t.state_for(0))
        playing = t.state_for(0)
        before = fair.check_revealed(playing)
        await manager.resign(t, 1)
        after = fair.check_revealed(manager.tables[t.id].state_for(0))
        # a forged match seed is caught
        forged = FairDeals()
        forged.check_revealed(playing)
        state = manager.tables[t.id].state_for(0)
        bad = forged.check_revealed({**state, "fair": {**state["fair"], "match_seed": "00" * 32}})
        await manager.stop()
        store.close()
        return before, after, fair.observed[1].hand is not None, bad

    before, after, saw_hand, bad = asyncio.run(run())
    assert before == [] and saw_hand
    assert [(c.deal, c.ok, c.problems) for c in after] == [(1, True, ())]
    assert [(c.deal, c.ok) for c in bad] == [(0, False)]
