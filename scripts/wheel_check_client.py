"""Play one whole deal against the computer on a running ``gin serve`` (scripts/wheel-check.sh).

Usage: ``python wheel_check_client.py PORT`` (the server on 127.0.0.1, started with
``--bot-delay 0``).  Only the standard library and ``websockets`` (which the base package brings
with ``uvicorn[standard]``) are used, so it runs in the wheel's own fresh virtual environment.
It opens a table (Ann against the novice), sends Ann's client seed for deal 1 (docs/protocol.md,
"Client to server"), then plays a legal action whenever it is Ann's turn (gin or knock when
legal, else the stock, else the first legal action) until the deal's result is in the state.
Prints one line (the deal's outcome) and exits 0; anything else exits 1 with the reason.
"""

from __future__ import annotations

import json
import sys
import time
import urllib.request

from websockets.sync.client import connect


def pick(legal: list[str]) -> str:
    """The action to play among ``legal`` (text forms): gin, knock, the stock, else the first."""
    for prefix in ("gin", "knock", "draw stock", "pass"):
        for a in legal:
            if a.startswith(prefix):
                return a
    return legal[0]


def main(port: int) -> int:
    """Play the deal on ``127.0.0.1:port``; returns the exit status."""
    base = f"http://127.0.0.1:{port}"
    with urllib.request.urlopen(base + "/", timeout=10) as r:
        page = r.read().decode()
        assert r.status == 200 and "<html" in page.lower(), "the lobby page is missing"
    with urllib.request.urlopen(base + "/api/i18n?lang=el", timeout=10) as r:
        catalog = r.read().decode()
        assert r.status == 200 and len(catalog) > 100, "the Greek catalog is missing"
    body = json.dumps({"preset": "standard", "rules": {},
                       "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}]}).encode()
    req = urllib.request.Request(base + "/api/tables", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        table = json.loads(r.read())
    token = table["seats"][0]["token"]
    deadline = time.monotonic() + 60
    with connect(f"ws://127.0.0.1:{port}/ws/table/{table['id']}?seat={token}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "client_seed", "deal": 1, "seed": "wheelcheck1", "id": "seed"}))
        sent = 0
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout=20))
            if msg["type"] == "error":
                print(f"wheel-check: the server answered an error: {msg}", file=sys.stderr)
                return 1
            if msg["type"] != "state" or not msg.get("view"):
                continue
            view = msg["view"]
            if view.get("result") is not None:
                print(f"wheel-check: a whole deal was played ({sent} actions by Ann): {json.dumps(view['result'])[:160]}")
                return 0
            if msg.get("your_turn") and view.get("legal_actions"):
                sent += 1
                ws.send(json.dumps({"type": "action", "action": pick(view["legal_actions"]), "id": sent}))
    print("wheel-check: the deal did not end within 60 s", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
