"""Two ``gin serve`` processes on one PostgreSQL, the seats of a table split between them
(web/room/follower.py): each hears of the other's steps (LISTEN/NOTIFY, else the poll or the next
message), the two players play a whole match, and a process killed with SIGKILL mid-deal loses
no acknowledged step.  The record of the match verifies (its shuffles, R3.2)."""

from __future__ import annotations

import asyncio
import json
import os
import signal

import httpx
import pytest
import websockets

from ginrummy.record import loads, verify
from ginrummy.web.errors import WebError

from .conftest import database_url
from .test_restart import RECV_SECONDS, _free_port, _start


@pytest.fixture
def pg_url(tmp_path):
    yield from database_url("postgresql", tmp_path)


def _pick(legal: list[str], knock: bool = True) -> str:
    for kind in ("big gin", "gin", "knock") if knock else ():
        for a in legal:
            if a.startswith(kind):
                return a
    for a in ("pass", "draw stock"):
        if a in legal:
            return a
    return sorted(legal)[0]


class Seat:
    """A scripted person at one seat, connected to one server; counts its acknowledged steps."""

    def __init__(self, url: str, player: int) -> None:
        self.url, self.player = url, player
        self.acked: list[int] = []  # the seq of every acknowledged step
        self.last: dict = {}

    async def play(self, until_seq: int | None = None, knock: bool = True) -> dict:
        """Play until the match is over (or the table passed ``until_seq``); returns the last state.
        Without ``knock`` no knock or gin is made (the deal goes on: only R7's stock end, far
        off, could end it)."""
        async with websockets.connect(self.url) as ws:
            sent_for = -1
            waiting = False  # a move sent and not yet answered
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), RECV_SECONDS))
                if msg["type"] == "ack":
                    self.acked.append(msg["seq"])
                    waiting = False
                elif msg["type"] == "error":
                    # a move sent on a copy that was not yet fresh, or a next deal before the
                    # other person's client seed is in: the next state tells
                    assert msg["code"] in ("not_your_turn", "conflict", "illegal", "not_allowed"), msg
                    sent_for, waiting = -1, False
                elif msg["type"] == "state":
                    self.last = msg
                st = self.last
                if waiting or not st:
                    continue
                if st["match"]["finished"] or (until_seq is not None and st["seq"] >= until_seq):
                    return st
                if st["seq"] == sent_for:
                    continue
                pending = st["fair"]["pending"]
                if pending is not None and pending["yours"] is None:
                    action = {
                        "type": "client_seed",
                        "deal": pending["deal"],
                        "seed": f"p{self.player}d{pending['deal']}",
                    }
                elif st["your_turn"]:
                    action = {"type": "action", "action": _pick(st["view"]["legal_actions"], knock)}
                elif st["can_next_deal"] and self.player == 0:
                    action = {"type": "next_deal"}
                else:
                    continue
                sent_for, waiting = st["seq"], True
                await ws.send(json.dumps({**action, "id": st["seq"]}))


def test_two_servers_play_a_whole_match_and_a_kill_loses_nothing(pg_url: str) -> None:
    ports = [_free_port(), _free_port()]
    procs = [_start(ports[0], pg_url), _start(ports[1], pg_url)]
    try:
        r = httpx.post(
            f"http://127.0.0.1:{ports[0]}/api/tables",
            json={
                "preset": "standard",
                "rules": {"target": 25},
                "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            },
        )
        assert r.status_code == 201, r.text
        t = r.json()
        # Bob claims his invite on server 1, which never saw the table made
        code = t["seats"][1]["invite"].split("invite=")[1]
        claim = httpx.post(f"http://127.0.0.1:{ports[1]}/api/tables/{t['id']}/claim", json={"invite": code})
        assert claim.status_code == 200, claim.text
        again = httpx.post(f"http://127.0.0.1:{ports[0]}/api/tables/{t['id']}/claim", json={"invite": code})
        assert again.status_code == 409  # the database decides, whichever server is asked
        tid, tokens = t["id"], [t["seats"][0]["token"], claim.json()["token"]]
        # Ann plays on server 0, Bob on server 1 (which never saw the table created)
        ann = Seat(f"ws://127.0.0.1:{ports[0]}/ws/table/{tid}?seat={tokens[0]}", 0)
        bob = Seat(f"ws://127.0.0.1:{ports[1]}/ws/table/{tid}?seat={tokens[1]}", 1)

        async def first_part() -> None:
            # nobody knocks yet: a knock (each knocks at his first chance) could end deal 1 within
            # these nine moves with 25 points or more (an undercut always, R6.3), and so the match
            # to 25 before the kill (about 1 table in 100: the table's seed is random)
            await asyncio.gather(ann.play(until_seq=12, knock=False), bob.play(until_seq=12, knock=False))

        asyncio.run(first_part())
        assert ann.last["seq"] >= 12 and bob.last["seq"] >= 12 and not ann.last["match"]["finished"]
        acked_before_kill = sorted(ann.acked + bob.acked)
        # kill Bob's server mid-deal and start it again
        os.killpg(procs[1].pid, signal.SIGKILL)
        procs[1].wait(10)
        procs[1] = _start(ports[1], pg_url)

        async def rest() -> None:
            await asyncio.gather(ann.play(), bob.play())

        asyncio.run(rest())
        end = ann.last
        assert end["match"]["finished"] and bob.last["match"]["finished"]
        assert bob.last["seq"] == end["seq"] and bob.last["sheet"] == end["sheet"]
        # every step of the match was acknowledged to one of the two, exactly once, but for one
        # of the first three (two client seeds and the deal they complete: the seed's answer
        # reports the deal's seq)
        acked = sorted(ann.acked + bob.acked)
        assert len(acked) == len(set(acked)) and set(acked) <= set(range(1, end["seq"] + 1))
        missing = set(range(1, end["seq"] + 1)) - set(acked)
        assert len(missing) == 1 and missing <= {2, 3}, missing
        assert acked[: len(acked_before_kill)] == acked_before_kill
        rec = httpx.get(f"http://127.0.0.1:{ports[1]}/api/tables/{tid}/record", params={"seat": tokens[1]})
        assert rec.status_code == 200
        report = verify(rec.text)
        assert report.ok, report.error
        assert len(loads(rec.text).deals) == len(end["deals"])
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait(10)


def test_a_server_that_missed_every_notification_catches_up_on_the_next_message(pg_url, monkeypatch) -> None:
    """Two apps on one PostgreSQL that hear nothing from each other (no LISTEN, no poll): a
    ``sync`` and a move on the stale copy each read the missing steps first."""
    import warnings

    from starlette.testclient import TestClient

    from ginrummy.web.app import create_app
    from ginrummy.web.room import follower as notify

    from .conftest import new_table, with_csrf

    monkeypatch.setattr(notify, "POLL_SECONDS", 3600.0)
    apps = [create_app(pg_url, bot_delay=0), create_app(pg_url, bot_delay=0)]
    for a in apps:
        a.state.follower.listen = False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(apps[0]) as c0, TestClient(apps[1]) as c1:
            c0, c1 = with_csrf(c0), with_csrf(c1)  # as the pages do (docs/accounts.md)
            t = new_table(c0, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
            clients = [c0, c1]  # Ann on server 0, Bob on server 1
            socks = [clients[i].websocket_connect(f"/ws/table/{t['id']}?seat={t['seats'][i]['token']}") for i in (0, 1)]
            with socks[0] as s0, socks[1] as s1:
                ws = [s0, s1]
                states = [s0.receive_json(), s1.receive_json()]
                base = states[0]["seq"]  # the client seeds and the first deal (new_table sent them)
                assert base == states[1]["seq"] == 3
                first = 0 if states[0]["your_turn"] else 1
                other = 1 - first
                assert states[first]["your_turn"] and not states[other]["your_turn"]
                ws[first].send_json({"type": "action", "action": "pass", "id": 1})
                assert ws[first].receive_json()["seq"] == base + 1  # the new state
                assert ws[first].receive_json() == {"type": "ack", "reply_to": 1, "seq": base + 1}
                # the other server heard nothing; sync reads the step first
                ws[other].send_json({"type": "sync", "id": 2})
                st = ws[other].receive_json()
                if "reply_to" not in st:  # the catch-up's own broadcast comes first
                    assert st["seq"] == base + 1
                    st = ws[other].receive_json()
                assert st["reply_to"] == 2 and st["seq"] == base + 1 and st["your_turn"]
                ws[other].send_json({"type": "action", "action": "pass", "id": 3})
                assert ws[other].receive_json()["seq"] == base + 2
                assert ws[other].receive_json() == {"type": "ack", "reply_to": 3, "seq": base + 2}
                # the first server's copy is stale now: its player's move is refused there,
                # so it catches up and plays the move on the fresh copy
                ws[first].send_json({"type": "action", "action": "draw stock", "id": 4})
                msg = ws[first].receive_json()
                while msg["type"] == "state" and msg["seq"] < base + 3:
                    msg = ws[first].receive_json()
                assert msg["type"] == "state" and msg["seq"] == base + 3
                assert ws[first].receive_json() == {"type": "ack", "reply_to": 4, "seq": base + 3}
            assert apps[0].state.follower.caught_up == 1 and apps[1].state.follower.caught_up == 1


def test_notifications_of_many_tables_are_read_in_one_query(pg_url: str) -> None:
    """A burst of notifications (one per step, several tables, coalesced by the listening
    thread to the highest ``seq`` of each table) is read back in one query, and every table
    of the other process ends at the same step with the same legal actions."""
    from ginrummy.rules import RuleSet
    from ginrummy.web.db.store import Store
    from ginrummy.web.room.follower import Follower
    from ginrummy.web.room.seats import SeatSpec
    from ginrummy.web.room.tables import TableManager

    writer, reader = TableManager(Store(pg_url), bot_delay=0), TableManager(Store(pg_url), bot_delay=0)
    follower = Follower(reader, listen=False)
    try:
        ids = [writer.create(RuleSet(), [SeatSpec("human"), SeatSpec("human")], seat_all=True)[0].id for _ in range(3)]
        for tid in ids:
            reader.load(tid)  # both processes have every table in memory, at step 0

        async def main() -> list[tuple[str, int]]:
            heard: list[tuple[str, int]] = []
            for n, tid in enumerate(ids):
                for p in (0, 1):  # both client seeds, then the first deal (3 steps; the shuffle, R3.2)
                    await writer.client_seed(writer.tables[tid], p, 1, f"seed{p}")
                    heard.append((tid, writer.tables[tid].seq))
                for _ in range(n + 2):  # then 2, 3 and 4 moves
                    t = writer.tables[tid]
                    m = t.started_match()
                    who = m.player_to_act()
                    assert who is not None
                    await writer.act(t, who, m.deal.legal_actions()[0])
                    heard.append((tid, writer.tables[tid].seq))
            follower._loop = asyncio.get_running_loop()
            for tid, seq in heard:  # what the listening thread does with each notification
                follower._heard[tid] = max(seq, follower._heard.get(tid, 0))
            follower._handover = True
            follower._heard_from_thread()
            assert follower._handover is False and follower._heard == {}
            assert follower._reader is not None
            await follower._reader
            await writer.committer.stop()
            return heard

        heard = asyncio.run(main())
        assert len(heard) == 15 and heard[:2] == [(ids[0], 1), (ids[0], 3)]
        assert follower.reads == 1 and follower.caught_up == 18
        for tid, n in zip(ids, (5, 6, 7)):
            a, b = writer.tables[tid], reader.tables[tid]
            assert a.seq == b.seq == n
            for p in (0, 1):
                assert b.started_match().view(p) == a.started_match().view(p)
    finally:
        writer.store.close()
        reader.store.close()


def test_a_client_seed_that_lost_the_race_is_taken_on_the_fresh_table(pg_url: str) -> None:
    """Both people send their client seed at once, each to his own server: the second server's
    write of step 1 loses to the first's (``conflict``), and the seed is taken on the reloaded
    table as step 2, which deals (step 3).  A seed no longer wanted there stays a ``conflict``."""
    from ginrummy.rules import RuleSet
    from ginrummy.web.db.store import Store
    from ginrummy.web.room.seats import SeatSpec
    from ginrummy.web.room.tables import TableManager

    one, two = TableManager(Store(pg_url), bot_delay=0), TableManager(Store(pg_url), bot_delay=0)
    try:
        tid = one.create(RuleSet(), [SeatSpec("human"), SeatSpec("human")], seat_all=True)[0].id
        late = one.create(RuleSet(), [SeatSpec("human"), SeatSpec("human")], seat_all=True)[0].id
        stale, stale_late = two.load(tid), two.load(late)  # step 0 on the second server

        async def main() -> None:
            await one.client_seed(one.tables[tid], 0, 1, "ann")
            await two.client_seed(stale, 1, 1, "bob")  # conflict on step 1, then step 2
            # the other table is dealt on the first server before the stale seed arrives
            await one.client_seed(one.tables[late], 0, 1, "ann")
            await one.client_seed(one.tables[late], 1, 1, "bob")
            with pytest.raises(WebError) as err:
                await two.client_seed(stale_late, 1, 1, "bob2")
            assert err.value.code == "conflict"
            for m in (one, two):
                await m.committer.stop()

        asyncio.run(main())
        steps = two.store.load(tid)[1]  # type: ignore[index]
        assert [(s.seq, s.player, s.kind) for s in steps] == [
            (1, 0, "client_seed"),
            (2, 1, "client_seed"),
            (3, None, "deal"),
        ]
        assert two.tables[tid].seq == 3 and two.tables[tid].match is not None
        assert two.tables[late].seq == 3 and len(two.store.load(late)[1]) == 3  # type: ignore[index]
    finally:
        one.store.close()
        two.store.close()
