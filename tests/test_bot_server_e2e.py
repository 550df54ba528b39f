"""``gin bot --server URL --token T`` end to end (issue 35, docs/bot-api.md): a live ``gin
serve``, bot accounts and tokens made over HTTP as the account page does, then two ``gin bot``
processes play each other (one challenges, the other accepts), and a scripted bot plays rated
matches against a computer level through the API with 0 errors; every state each bot received
is the server's view of its seat with no hidden card (the scans of tests/test_bot_e2e.py)."""

from __future__ import annotations

import http.cookiejar
import json
import re
import subprocess
import sys
import urllib.request

from test_bot_e2e import ENV, ROOT, _cards_in, _match, _server_views, server  # noqa: F401  (the fixture)

PASSWORD = "correct horse"


class Browser:
    """A person's browser: cookies kept, the CSRF header repeated as the page's script does."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.opener.open(base + "/api/me", timeout=20).read()

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        csrf = next(c.value for c in self.jar if c.name == "gin_csrf")
        req = urllib.request.Request(
            self.base + path,
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers={"Content-Type": "application/json", "X-CSRF-Token": csrf},
        )
        with self.opener.open(req, timeout=20) as r:
            return json.loads(r.read())


def _bot_token(base: str, owner: Browser, name: str) -> str:
    Browser(base).call("POST", "/api/account", {"name": name, "password": PASSWORD})
    owner.call("POST", "/api/bots", {"name": name, "password": PASSWORD})
    return owner.call("POST", f"/api/bots/{name}/tokens", {"name": "test", "scopes": ["play", "challenge", "chat"]})[
        "token"
    ]


def _gin_bot(base: str, token: str, *args: str, transcript=None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "ginrummy", "bot", "--server", base, "--token", token, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        text=True,
    )


def _finish(procs: list[subprocess.Popen], seconds: float = 300) -> list[tuple[str, str]]:
    outs = []
    try:
        for p in procs:
            outs.append(p.communicate(timeout=seconds))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    return outs


def test_two_gin_bot_processes_play_each_other_through_the_api(server, tmp_path):
    owner = Browser(server)
    owner.call("POST", "/api/account", {"name": "Owner", "password": PASSWORD})
    ann, bob = _bot_token(server, owner, "AnnBot"), _bot_token(server, owner, "BobBot")
    record = tmp_path / "match.record"
    accepter = _gin_bot(
        server,
        ann,
        "--level",
        "novice",
        "--accept",
        "bots",
        "--games",
        "1",
        "--transcript",
        str(tmp_path / "ann.jsonl"),
        "--record",
        str(record),
    )
    challenger = _gin_bot(
        server,
        bob,
        "--level",
        "random",
        "--challenge",
        "AnnBot",
        "--preset",
        "single",
        "--transcript",
        str(tmp_path / "bob.jsonl"),
    )
    outs = _finish([accepter, challenger], 120)
    for p, (out, err) in zip([accepter, challenger], outs):
        assert p.returncode == 0, err
        assert re.fullmatch(
            r"1 games played as (AnnBot|BobBot): [01] won; \d+ moves sent, 0 refused, 0 played by the fallback; "
            r"fair-deal checks: 1 of 1 deals passed\n",
            out,
        ), out
        assert err == ""
    assert ann not in outs[0][0] + outs[0][1] and bob not in outs[1][0] + outs[1][1]
    # a bot sees exactly what a browser at its seat sees: each state's view is the server's view
    # of that seat at some step, and no card hidden from the seat is anywhere in the message
    views = _server_views(record.read_text())
    for player, name in ((1, "ann"), (0, "bob")):  # the challenger sits at seat 0
        entries = [json.loads(line) for line in (tmp_path / f"{name}.jsonl").read_text().splitlines()]
        states = [e["in"] for e in entries if "in" in e and e["in"]["type"] == "state"]
        assert states[-1]["match"]["finished"] is True
        assert {s["you"] for s in states} == {player}
        seen = 0
        for s in states:
            if s["view"] is None:
                continue
            hidden = _match(s["view"], views[player])
            assert not (_cards_in(s) & hidden), f"{name} was sent hidden cards {_cards_in(s) & hidden}"
            seen += 1
        assert seen > 5


def test_a_scripted_bot_plays_rated_matches_against_a_computer_level_with_no_error(server, tmp_path):
    owner = Browser(server)
    owner.call("POST", "/api/account", {"name": "Owner", "password": PASSWORD})
    token = _bot_token(server, owner, "Scripty")
    script = f"{sys.executable} {ROOT / 'examples' / 'gin_bot.py'}"
    p = _gin_bot(server, token, "--command", script, "--challenge", "novice", "--rated", "--games", "2")
    [(out, err)] = _finish([p], 600)
    assert p.returncode == 0, err
    m = re.fullmatch(
        r"2 games played as Scripty: [012] won; \d+ moves sent, 0 refused, 0 played by the fallback; "
        r"fair-deal checks: (\d+) of (\d+) deals passed\n",
        out,
    )
    assert m and m.group(1) == m.group(2), out
    player = json.loads(urllib.request.urlopen(server + "/api/players/Scripty", timeout=20).read())
    assert (player["kind"], player["rated_matches"]) == ("bot", 2)
