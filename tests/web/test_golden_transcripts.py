"""Golden pins of the web table's outside (issue 29, item 5): what the protocol sends, what the
HTTP API answers, what the pages hold and what the store keeps, recorded from a few full
sessions, so that moving ``ginrummy.web`` into sub-packages (or any other refactoring) that
changes one byte of it fails here, with a diff.

The golden files are in ``tests/web/golden/``:

* ``ws_novice.json``: a person against ``novice`` to the end of a ``single`` match (deal
  scoring), with a hint, a chat line, a bad message and an illegal move;
* ``ws_friends.json``: two people at a public friend table with a spectator, chat lines, the
  knock and its layout, a rematch asked by both;
* ``ws_lobby.json``: a lobby socket: the open tables, a table opened live, lobby chat, a
  refused line, a ping;
* ``http.json``: ``GET /api/options``, table creation and claim answers, every error code the
  API gives that a test can trigger, the record download of the finished novice match, the
  scorekeeper;
* ``pages.json``: each page's status, content type, header names and the sorted ``id`` of its
  elements (not the HTML bytes: a layout move that loses an id fails);
* ``store_rows.json``: every row of every table of the SQLite store after the two table
  sessions, with the columns of each table.

**Regenerating.**  After a deliberate change of the protocol, the pages or the store, run::

    GIN_GOLDEN_REGEN=1 PYTHONPATH=src .venv/bin/python -m pytest tests/web/test_golden_transcripts.py -q

and review ``git diff tests/web/golden/`` as the change's record.  Without that variable the
tests only compare.

**How it is made deterministic.**  The match seed is the only randomness that decides the
cards: ``secrets.token_bytes`` (which the server calls for it) is replaced, for the scenario's
duration, by one that returns fixed bytes (the same for every call of a size), so every table
opened here has the same seed and deals the same cards (``token_hex`` and ``token_urlsafe``,
which call it, are replaced by random ones on ``os.urandom``); the client seeds are fixed strings;
``bot_delay=0`` (the ``novice`` level decides on the event loop; no level with a time budget and
no review is used: their timing is not deterministic).  Table ids, seat tokens and invite codes
stay random and are written as placeholders (``<table1>``, ``<token2>``, ``<invite1>``, and
``<sha256:token2>`` for a stored hash), numbered in order of first appearance, so a transcript
still shows where the same secret recurs.  Times (``created`` columns, the record's date) are
``<time>``/``<date>``.  Between steps every socket is brought to a known point with a
``ping`` whose ``pong`` it waits for (a barrier): everything the server queued for it before is
read and recorded first.  Sockets are only closed at the end, after the last recorded message
(a disconnection's state is sent asynchronously).
"""

from __future__ import annotations

import base64
import difflib
import hashlib
import json
import os
import re
import secrets
import sqlite3
import warnings
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ginrummy.web.app import create_app

from .conftest import with_csrf

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("GIN_GOLDEN_REGEN") == "1"
SEED_TAG = b"golden k"  # chosen so that the friends' deal ends in a knock after 17 moves

LINK_RE = re.compile(r"/table/([0-9a-f]{12})\?(seat|invite)=([A-Za-z0-9_-]+)")
TIME_RE = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?")


def fixed_token_bytes(nbytes: int | None = None) -> bytes:
    """Stand-in for :func:`secrets.token_bytes`: the same bytes for every call of a size."""
    n = 32 if nbytes is None else nbytes
    out = b""
    while len(out) < n:
        out += hashlib.sha256(SEED_TAG + len(out).to_bytes(4, "big")).digest()
    return out[:n]


def random_hex(nbytes: int | None = None) -> str:
    """:func:`secrets.token_hex` on ``os.urandom`` (the library's calls the patched ``token_bytes``)."""
    return os.urandom(32 if nbytes is None else nbytes).hex()


def random_urlsafe(nbytes: int | None = None) -> str:
    """:func:`secrets.token_urlsafe` on ``os.urandom``: tokens and ids stay random."""
    return base64.urlsafe_b64encode(os.urandom(32 if nbytes is None else nbytes)).rstrip(b"=").decode("ascii")


class Placeholders:
    """Random values (table ids, tokens, invite codes) and their SHA-256 hashes, replaced by
    stable names numbered in order of first appearance."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.counts: dict[str, int] = {}

    def add(self, kind: str, value: str) -> None:
        if value in self.names:
            return
        self.counts[kind] = self.counts.get(kind, 0) + 1
        name = f"{kind}{self.counts[kind]}"
        self.names[value] = f"<{name}>"
        self.names[hashlib.sha256(value.encode()).hexdigest()] = f"<sha256:{name}>"

    def scan(self, obj: Any) -> None:
        """Register the table ids, tokens and invite codes of every link in ``obj``."""
        for m in LINK_RE.finditer(json.dumps(obj)):
            self.add("table", m.group(1))
            self.add("token" if m.group(2) == "seat" else "invite", m.group(3))

    def apply(self, obj: Any) -> Any:
        if isinstance(obj, str):
            for value, name in sorted(self.names.items(), key=lambda kv: -len(kv[0])):
                if value in obj:
                    obj = obj.replace(value, name)
            return TIME_RE.sub("<time>", obj)
        if isinstance(obj, dict):
            return {self.apply(k): self.apply(v) for k, v in obj.items()}
        if isinstance(obj, list | tuple):
            return [self.apply(v) for v in obj]
        return obj


def check(name: str, obj: Any) -> None:
    """Compare ``obj`` (normalised JSON) with ``golden/<name>.json``, or write it when regenerating."""
    text = json.dumps(obj, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    path = GOLDEN / f"{name}.json"
    if REGEN:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing: run with GIN_GOLDEN_REGEN=1 (see the module docstring)"
    want = path.read_text(encoding="utf-8")
    if text != want:
        diff = "".join(
            list(difflib.unified_diff(want.splitlines(True), text.splitlines(True), f"golden/{name}.json", "now", n=2))[
                :120
            ]
        )
        pytest.fail(
            f"{name} differs from its golden file (GIN_GOLDEN_REGEN=1 rewrites it after a deliberate change):\n{diff}",
            pytrace=False,
        )


class Recorder:
    """Every message sent and received on a scenario's sockets, in order."""

    def __init__(self, ph: Placeholders) -> None:
        self.ph = ph
        self.events: list[Any] = []
        self.marks = 0
        self.last: dict[str, dict[str, Any]] = {}  # the last state each socket read

    def send(self, who: str, ws: Any, msg: dict[str, Any] | str) -> None:
        if isinstance(msg, str):
            ws.send_text(msg)
        else:
            ws.send_json(msg)
        self.events.append({"send": who, "msg": msg})

    def recv(self, who: str, ws: Any) -> dict[str, Any]:
        msg = ws.receive_json()
        self.ph.scan(msg)
        self.events.append({"recv": who, "msg": msg})
        if msg.get("type") == "state":
            self.last[who] = msg
        return msg

    def until(self, who: str, ws: Any, pred: Any, limit: int = 100) -> dict[str, Any]:
        for _ in range(limit):
            msg = self.recv(who, ws)
            if pred(msg):
                return msg
        raise AssertionError(f"{who}: no such message among the next {limit}")

    def reply(self, who: str, ws: Any, msg: dict[str, Any]) -> dict[str, Any]:
        """Send ``msg`` (with an id) and read up to the message that answers it."""
        self.send(who, ws, msg)
        return self.until(who, ws, lambda m: m.get("reply_to") == msg["id"])

    def barrier(self, socks: dict[str, Any]) -> None:
        """Bring each socket to a known point: read up to the pong of a ping."""
        for who, ws in socks.items():
            self.marks += 1
            mid = f"mark{self.marks}"
            self.send(who, ws, {"type": "ping", "id": mid})
            self.until(who, ws, lambda m, mid=mid: m.get("reply_to") == mid)

    def transcript(self) -> list[Any]:
        return self.ph.apply(self.events)


def choose(state: dict[str, Any]) -> str:
    """A plain, deterministic strategy: go out when allowed (big gin, gin, knock), pass the
    upcard, draw from the stock, and discard the card that leaves the least deadwood."""
    legal = state["view"]["legal_actions"]
    for kind in ("big gin", "gin ", "knock "):
        for a in legal:
            if a.startswith(kind):
                return a
    for a in ("pass", "draw stock"):
        if a in legal:
            return a
    after = (state.get("arrangement") or {}).get("after_discard") or {}
    discards = [a for a in legal if a.startswith("discard ")]
    if discards:
        return min(discards, key=lambda a: after.get(a.split()[1], 999))
    return legal[0]


def first_illegal(state: dict[str, Any]) -> str:
    legal = state["view"]["legal_actions"]
    return next(a for a in ("big gin", "take discard", "draw stock", "pass") if a not in legal)


# -- the scenarios --------------------------------------------------------------------------------


def novice_session(c: TestClient, ph: Placeholders, http: dict[str, Any]) -> list[Any]:
    """(a) Ann against ``novice``, a ``single`` match to its end; its answers go to ``http``."""
    rec = Recorder(ph)
    r = c.post(
        "/api/tables",
        json={"preset": "single", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}]},
    )
    ph.scan(r.json())
    http["create_novice"] = {"status": r.status_code, "body": r.json()}
    tid, token = r.json()["id"], r.json()["seats"][0]["token"]
    # before the first deal: the record is refused (409)
    r = c.get(f"/api/tables/{tid}/record?seat={token}")
    http["record_before_deal"] = {"status": r.status_code, "body": r.json()}
    with c.websocket_connect(f"/ws/table/{tid}?seat={token}") as ws:
        st = rec.recv("ann", ws)
        rec.reply("ann", ws, {"type": "client_seed", "deal": 1, "seed": "ann-deal-1", "id": "seed1"})
        st = rec.until("ann", ws, lambda m: m.get("type") == "state" and (m["your_turn"] or m["match"]["finished"]))
        extras = True
        for step in range(200):
            if st["match"]["finished"]:
                break
            if st.get("can_next_deal"):
                pending = st["fair"]["pending"]
                rec.reply(
                    "ann",
                    ws,
                    {
                        "type": "client_seed",
                        "deal": pending["deal"],
                        "seed": f"ann-deal-{pending['deal']}",
                        "id": f"seed{pending['deal']}",
                    },
                )
                rec.reply("ann", ws, {"type": "next_deal", "id": f"next{step}"})
                st = rec.until(
                    "ann", ws, lambda m: m.get("type") == "state" and (m["your_turn"] or m["match"]["finished"])
                )
                continue
            if extras:  # once, at Ann's first turn
                extras = False
                rec.reply("ann", ws, {"type": "hint", "id": "hint"})
                rec.send("ann", ws, {"type": "chat", "text": "good luck"})
                rec.until("ann", ws, lambda m: m.get("type") == "chat")
                rec.reply("ann", ws, {"type": "bogus", "id": "bad"})
                rec.send("ann", ws, '{"type": "action", "action": "pass", "action": "pass"}')
                rec.until("ann", ws, lambda m: m.get("type") == "error")
                rec.reply("ann", ws, {"type": "action", "action": first_illegal(st), "id": "illegal"})
                rec.reply("ann", ws, {"type": "action", "action": "discard ZZ", "id": "notacard"})
                rec.reply("ann", ws, {"type": "sync", "id": "sync"})
            rec.reply("ann", ws, {"type": "action", "action": choose(st), "id": step})
            # the ack follows the state of the move and the computer's answer (held states)
            st = rec.last["ann"]
            if not (st["your_turn"] or st["match"]["finished"] or st.get("can_next_deal")):
                st = rec.until(
                    "ann",
                    ws,
                    lambda m: (
                        m.get("type") == "state"
                        and (m["your_turn"] or m["match"]["finished"] or m.get("can_next_deal"))
                    ),
                )
        assert st["match"]["finished"], "the match did not end within 200 moves"
        rec.barrier({"ann": ws})
        r = c.get(f"/api/tables/{tid}/record?seat={token}")
        http["record_finished"] = {
            "status": r.status_code,
            "content-type": r.headers["content-type"],
            "content-disposition": r.headers["content-disposition"],
            "body": re.sub(r"(?m)^(date\s+)\S+$", r"\1<date>", r.text).splitlines(),
        }
        r = c.get(f"/api/tables/{tid}/record?seat=wrong")
        http["record_wrong_token"] = {"status": r.status_code, "body": r.json()}
    return rec.transcript()


def friends_session(c: TestClient, ph: Placeholders, http: dict[str, Any]) -> list[Any]:
    """(b) Ann and Bob at a public friend table, a spectator, chat, the knock, a rematch."""
    rec = Recorder(ph)
    r = c.post(
        "/api/tables",
        json={
            "preset": "single",
            "public": True,
            "spectator_chat": True,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        },
    )
    ph.scan(r.json())
    http["create_friends"] = {"status": r.status_code, "body": r.json()}
    tid, ann_token = r.json()["id"], r.json()["seats"][0]["token"]
    invite = r.json()["seats"][1]["invite"].split("invite=", 1)[1]
    r = c.post(f"/api/tables/{tid}/claim", json={"invite": "not-the-code"})
    http["claim_bad_invite"] = {"status": r.status_code, "body": r.json()}
    r = c.post(f"/api/tables/{tid}/claim", json={"invite": invite})
    ph.scan(r.json())
    http["claim"] = {"status": r.status_code, "body": r.json()}
    bob_token = r.json()["token"]
    r = c.post(f"/api/tables/{tid}/claim", json={"invite": invite})
    http["claim_again"] = {"status": r.status_code, "body": r.json()}
    r = c.post("/api/tables/000000000000/claim", json={"invite": invite})
    http["claim_unknown_table"] = {"status": r.status_code, "body": r.json()}

    with c.websocket_connect(f"/ws/table/{tid}?seat={ann_token}") as ann:
        socks = {"ann": ann}
        rec.recv("ann", ann)
        with c.websocket_connect(f"/ws/table/{tid}?seat={bob_token}") as bob:
            socks["bob"] = bob
            rec.recv("bob", bob)
            rec.barrier(socks)
            with c.websocket_connect(f"/ws/table/{tid}?watch=1") as spec:
                socks["spectator"] = spec
                rec.recv("spectator", spec)
                rec.barrier(socks)
                rec.reply("spectator", spec, {"type": "action", "action": "pass", "id": "spec-move"})
                rec.reply("ann", ann, {"type": "client_seed", "deal": 1, "seed": "ann-deal-1", "id": "seed-ann"})
                rec.barrier(socks)
                rec.reply("bob", bob, {"type": "client_seed", "deal": 1, "seed": "bob-deal-1", "id": "seed-bob"})
                rec.barrier(socks)
                last = rec.last
                rec.send("bob", bob, {"type": "chat", "text": "hello Ann"})
                rec.barrier(socks)
                rec.send("spectator", spec, {"type": "chat", "text": "nice table"})
                rec.barrier(socks)
                for step in range(200):
                    mover = next((w for w in ("ann", "bob") if last[w]["your_turn"]), None)
                    if mover is None:
                        break
                    action = choose(last[mover])
                    rec.reply(mover, socks[mover], {"type": "action", "action": action, "id": step})
                    rec.barrier(socks)
                    if last["ann"]["match"]["finished"]:
                        break
                assert last["ann"]["match"]["finished"], "the match did not end within 200 moves"
                rec.send("ann", ann, {"type": "rematch", "id": "rematch-ann"})
                rec.barrier(socks)
                rec.send("bob", bob, {"type": "rematch", "id": "rematch-bob"})
                rec.until("ann", ann, lambda m: m.get("type") == "rematch")
                rec.until("bob", bob, lambda m: m.get("type") == "rematch")
                rec.barrier(socks)
    return rec.transcript()


def lobby_session(c: TestClient, ph: Placeholders, http: dict[str, Any]) -> list[Any]:
    """(c) The lobby socket: the open tables, one opened live, chat, a refused line, a ping."""
    rec = Recorder(ph)
    r = c.post(
        "/api/tables",
        json={
            "preset": "standard",
            "public": True,
            "rules": {"target": 50},
            "seats": [{"kind": "human", "name": "Cy"}, {"kind": "human"}],
        },
    )
    ph.scan(r.json())
    http["_table_page"] = f"/table/{r.json()['id']}?seat={r.json()['seats'][0]['token']}"
    with c.websocket_connect("/ws/lobby") as lobby:
        rec.recv("lobby", lobby)
        r = c.post(
            "/api/tables",
            json={
                "preset": "single",
                "public": True,
                "seats": [{"kind": "human", "name": "Dee"}, {"kind": "bot", "level": "club"}],
            },
        )
        ph.scan(r.json())
        rec.until("lobby", lobby, lambda m: m.get("type") == "lobby")
        rec.send("lobby", lobby, {"type": "chat", "name": "Zoe", "text": "anyone for gin?"})
        rec.until("lobby", lobby, lambda m: m.get("type") == "chat")
        # a refused line's error carries no reply_to in the lobby
        rec.send("lobby", lobby, {"type": "chat", "text": "no name", "id": "noname"})
        rec.until("lobby", lobby, lambda m: m.get("type") == "error")
        rec.send("lobby", lobby, {"type": "chat", "name": "Computer (novice)", "text": "hi", "id": "botname"})
        rec.until("lobby", lobby, lambda m: m.get("type") == "error")
        rec.reply("lobby", lobby, {"type": "bogus", "id": "bad"})
        rec.reply("lobby", lobby, {"type": "ping", "id": "p"})
        r = c.get("/api/lobby")
        http["lobby"] = {"status": r.status_code, "body": ph.apply(r.json())}
    return rec.transcript()


def http_answers(c: TestClient, ph: Placeholders, http: dict[str, Any]) -> None:
    """The JSON answers and error bodies of the API (the table sessions add theirs)."""

    def answer(r: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"status": r.status_code, "content-type": r.headers.get("content-type")}
        try:
            out["body"] = r.json()
        except ValueError:
            out["text"] = r.text
        for h in ("allow", "retry-after"):
            if h in r.headers:
                out[h] = r.headers[h]
        return out

    http["options"] = answer(c.get("/api/options"))
    http["sheet"] = answer(
        c.post(
            "/api/sheet",
            json={
                "preset": "hollywood",
                "rules": {"target": 100},
                "names": ["Alexandra", "Bob"],
                "results": ["Bob:10", "Alexandra:18", "Bob:30", "Bob:4"],
            },
        )
    )
    http["sheet_single"] = answer(
        c.post(
            "/api/sheet", json={"preset": "standard", "names": ["Ann", "Bob"], "results": ["Ann:25", "draw", "Bob:110"]}
        )
    )
    http["sheet_bad_result"] = answer(
        c.post("/api/sheet", json={"preset": "standard", "names": ["Ann", "Bob"], "results": ["Cy:10"]})
    )
    http["sheet_same_names"] = answer(
        c.post("/api/sheet", json={"preset": "standard", "names": ["Ann", "ann"], "results": []})
    )
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}]
    http["bad_level"] = answer(c.post("/api/tables", json={"seats": [seats[0], {"kind": "bot", "level": "x"}]}))
    http["bad_rule"] = answer(c.post("/api/tables", json={"rules": {"target": 5000}, "seats": seats}))
    http["bad_hollywood_three"] = answer(
        c.post("/api/tables", json={"rules": {"scoring": "hollywood"}, "seats": seats + [{"kind": "human"}]})
    )
    http["unknown_field"] = answer(c.post("/api/tables", json={"seats": seats, "colour": "red"}))
    http["wrong_type"] = answer(c.post("/api/tables", json={"seats": [{"kind": 3}, seats[1]]}))
    http["reserved_name"] = answer(
        c.post("/api/tables", json={"seats": [{"kind": "human", "name": "System"}, seats[1]]})
    )
    http["computer_name"] = answer(
        c.post("/api/tables", json={"seats": [{"kind": "human", "name": "Computer (novice)"}, seats[1]]})
    )
    http["one_seat"] = answer(c.post("/api/tables", json={"seats": seats[:1]}))
    http["not_json"] = answer(c.post("/api/tables", content=b"{nope", headers={"content-type": "application/json"}))
    http["too_deep"] = answer(c.post("/api/tables", json={"rules": {"a": {"b": {"c": {"d": 1}}}}, "seats": seats}))
    http["too_large"] = answer(
        c.post("/api/tables", content=b"{" + b" " * 9000 + b"}", headers={"content-type": "application/json"})
    )
    http["not_json_type"] = answer(
        c.post("/api/tables", content=json.dumps({"seats": seats}).encode(), headers={"content-type": "text/plain"})
    )
    http["wrong_method"] = answer(c.get("/api/tables"))
    http["not_found_api"] = answer(c.get("/api/nothing-here"))
    http["not_found_page"] = answer(c.get("/nothing-here"))
    http["record_unknown_table"] = answer(c.get("/api/tables/000000000000/record?seat=x"))
    http["sit_unknown_table"] = answer(c.post("/api/tables/000000000000/sit", json={"seat": 1, "name": "Zoe"}))
    http["greek_error"] = answer(c.post("/api/tables?lang=el", json={"rules": {"target": 5000}, "seats": seats}))
    csrf = c.headers.pop("X-CSRF-Token")
    http["csrf"] = answer(c.post("/api/tables", json={"seats": seats}))
    c.headers["X-CSRF-Token"] = csrf
    # the rate limit (this app: 3 tables a minute; the lobby session opened 2)
    r = answer(c.post("/api/tables", json={"seats": seats}))
    ph.scan(r)
    http["create_third"] = ph.apply(r)
    r = answer(c.post("/api/tables", json={"seats": seats}))
    r["retry-after"] = "<seconds>" if r.get("retry-after", "").isdigit() else r.get("retry-after")
    if "body" in r and isinstance(r["body"].get("error"), str):
        r["body"]["error"] = re.sub(r"\d+", "<n>", r["body"]["error"])
    http["rate_limited"] = r


class IdParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for k, v in attrs:
            if k == "id" and v is not None:
                self.ids.append(v)


def pages(c: TestClient, ph: Placeholders, table_path: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    paths = [
        "/",
        table_path,
        "/rules",
        "/tips",
        "/scorekeeper",
        "/fair",
        "/account",
        "/leaderboard",
        "/players/nobody",
        "/replay",
        "/replay/1",
        "/?lang=fi",
        "/favicon.ico",
    ]
    for path in paths:
        r = c.get(path, follow_redirects=False)
        parser = IdParser()
        if r.headers.get("content-type", "").startswith("text/html"):
            parser.feed(r.text)
        out[ph.apply(path)] = {
            "status": r.status_code,
            "content-type": r.headers.get("content-type"),
            "content-language": r.headers.get("content-language"),
            "location": r.headers.get("location"),
            "headers": sorted(r.headers.keys()),
            "ids": sorted(parser.ids),
        }
    return out


def store_rows(path: Path, ph: Placeholders) -> dict[str, Any]:
    """Every table of the SQLite store: its columns and its rows, normalised and sorted."""
    con = sqlite3.connect(path)
    try:
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        out: dict[str, Any] = {}
        for name in names:
            cols = [(r[1], r[2], r[3], r[5]) for r in con.execute(f'PRAGMA table_info("{name}")')]
            rows = []
            for row in con.execute(f'SELECT * FROM "{name}"'):
                rows.append(ph.apply([v.hex() if isinstance(v, bytes) else v for v in row]))
            rows.sort(key=lambda r: json.dumps(r, sort_keys=True))
            out[name] = {"columns": [list(c) for c in cols], "rows": rows}
        return out
    finally:
        con.close()


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run every scenario once: ``{golden name: normalised JSON}``."""
    out: dict[str, Any] = {}
    http: dict[str, Any] = {}
    ph = Placeholders()
    folder = tmp_path_factory.mktemp("golden")
    with pytest.MonkeyPatch.context() as mp, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mp.setattr(secrets, "token_bytes", fixed_token_bytes)  # the match seed
        mp.setattr(secrets, "token_hex", random_hex)  # ids and tokens: random, as placeholders
        mp.setattr(secrets, "token_urlsafe", random_urlsafe)
        db = folder / "tables.sqlite3"
        with TestClient(create_app(f"sqlite:///{db}", bot_delay=0, table_scores=False)) as c:
            with_csrf(c)
            out["ws_novice"] = novice_session(c, ph, http)
            out["ws_friends"] = friends_session(c, ph, http)
        out["store_rows"] = store_rows(db, ph)
        with TestClient(
            create_app(f"sqlite:///{folder / 'lobby.sqlite3'}", bot_delay=0, table_scores=False, tables_per_minute=3)
        ) as c:
            with_csrf(c)
            out["ws_lobby"] = lobby_session(c, ph, http)
            http_answers(c, ph, http)
            out["pages"] = pages(c, ph, http.pop("_table_page"))
    out["http"] = ph.apply(http)
    return out


@pytest.mark.parametrize("name", ["ws_novice", "ws_friends", "ws_lobby", "http", "pages", "store_rows"])
def test_golden(golden: dict[str, Any], name: str) -> None:
    """Each pin equals its golden file (``GIN_GOLDEN_REGEN=1`` rewrites them)."""
    check(name, golden[name])
