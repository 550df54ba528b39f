"""Hostile input against a running ``gin serve`` (issue 11): at least 10^6 malformed WebSocket
messages and 10^4 malformed HTTP requests, on 127.0.0.1 only, bounded in time.

Run from the repository root:

    python benchmarks/fuzz.py [--messages 1000000] [--http 10000] [--connections 4] [--seed 2024]

It starts ``gin serve`` on a free port of 127.0.0.1 with a temporary SQLite file and
``--bot-delay 0``, opens a table (a person against the novice computer), sends the person's
client seed so that the first deal is dealt, and waits until the person is to act.  Then:

* **WebSocket**: ``--connections`` connections of the person's seat and one of the lobby
  (``/ws/lobby``) each send their share of ``--messages`` messages from a seeded generator of mutations (random bytes, truncated and
  garbled valid messages, fields of the wrong type, deep nesting, huge numbers, unknown types,
  oversized frames now and then, text that is not UTF-8, well-formed requests the table must
  refuse), in batches, while reading every answer concurrently.  A generated message that would
  be a legal move is never sent (it is checked with the server's own schema first), so the
  table must not change.  Each message must get exactly one answer; an ``internal`` error, a
  connection closed, or a connection lost without a close frame is counted as a fault.
  A few extra connections send what the WebSocket protocol layer itself must refuse (a frame
  over 64 KiB: close 1009; a text frame that is not UTF-8: close 1007) and check the close code.
* **HTTP**: ``--http`` requests, a new connection each, several at once: bad bodies to every
  POST endpoint (tables, sheet, claim, sit), bodies over the limit (with and without Content-Length), odd methods, paths,
  query strings (non-ASCII and broken percent-escapes included) and headers.  No answer may be
  a 5xx.

It reports the server process's crashes (it must still run), 5xx answers, connections lost
without a close code, ``internal`` errors and exceptions in the server's log, the server's
resident memory (VmRSS) before and after, and whether the table is unchanged (seq, the
person's hand and the discard pile, read through the public ``state``).  Exit status 0 when
every figure is as required, else 1.  Figures: ``benchmarks/RESULTS.md``, "Hostile input".
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import shlex
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ginrummy.web.errors import WebError  # noqa: E402
from ginrummy.web.protocol.inbound import ActionMsg, ChatMsg, LobbyChatMsg, parse_inbound, parse_lobby  # noqa: E402

HOST = "127.0.0.1"

# -- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MB (VmRSS of /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_server(tmp: Path) -> tuple[subprocess.Popen[bytes], int, Path]:
    port = free_port()
    log = tmp / "serve.log"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "ginrummy", "serve", "--host", HOST, "--port", str(port),
                             "--database-url", f"sqlite:///{tmp / 'fuzz.sqlite3'}", "--bot-delay", "0",
                             "--log-level", "warning"],
                            stdout=log.open("wb"), stderr=subprocess.STDOUT, env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise SystemExit(f"gin serve ended at start:\n{log.read_text()}")
            try:
                with socket.create_connection((HOST, port), timeout=1):
                    return proc, port, log
            except OSError:
                time.sleep(0.1)
        raise SystemExit("gin serve did not start in 60 s")
    except BaseException:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        raise


async def http(port: int, raw: bytes, timeout: float = 10.0) -> tuple[int | None, bytes]:
    """Send one raw request on a new connection: ``(status or None if no answer, answer)``."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        writer.write(raw)
        await writer.drain()
        data = b""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                chunk = await asyncio.wait_for(reader.read(65536), max(0.01, end - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if not chunk:
                break
            data += chunk
            if b"\r\n\r\n" in data:
                head, body = data.split(b"\r\n\r\n", 1)
                lengths = [int(x.split(b":", 1)[1]) for x in head.lower().split(b"\r\n")
                           if x.startswith(b"content-length:") and x.split(b":", 1)[1].strip().isdigit()]
                if lengths and len(body) >= lengths[0]:
                    break
    except (ConnectionError, OSError):
        data = locals().get("data", b"")
    finally:
        writer.close()
        try:
            await asyncio.wait_for(writer.wait_closed(), 2)
        except (asyncio.TimeoutError, ConnectionError, OSError):
            pass
    if data.startswith(b"HTTP/1.1 ") and data[9:12].isdigit():
        return int(data[9:12]), data
    return None, data


# -- WebSocket framing ----------------------------------------------------------------------------

def frame(payload: bytes, opcode: int) -> bytes:
    """A client frame with the mask key 0 (allowed by RFC 6455: the payload goes as it is)."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0xFE, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0xFF, n)
    return head + b"\0\0\0\0" + payload


class WS:
    """One WebSocket connection (asyncio streams) whose answers are read by a task of its own."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.answers = 0
        self.kinds: dict[str, int] = {}
        self.internal: list[str] = []
        self.close_code: int | None = None
        self.lost = False  # the connection ended without a close frame (before we closed it)
        self.closing = False
        self.wake = asyncio.Event()
        self.last: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, port: int, path: str) -> "WS":
        reader, writer = await asyncio.open_connection(HOST, port, limit=1 << 24)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write((f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(head.decode("latin-1"))
        return cls(reader, writer)

    async def read_loop(self, keep: int = 0) -> None:
        buf = bytearray()
        while True:
            chunk = await self.reader.read(1 << 20)
            if not chunk:
                self.lost = self.close_code is None and not self.closing
                self.wake.set()
                return
            buf += chunk
            at = 0
            while len(buf) - at >= 2:
                b0, n = buf[at], buf[at + 1] & 0x7F
                hl = 2
                if n == 126:
                    if len(buf) - at < 4:
                        break
                    n, hl = struct.unpack_from("!H", buf, at + 2)[0], 4
                elif n == 127:
                    if len(buf) - at < 10:
                        break
                    n, hl = struct.unpack_from("!Q", buf, at + 2)[0], 10
                if len(buf) - at < hl + n:
                    break
                payload = bytes(buf[at + hl:at + hl + n])
                at += hl + n
                opcode = b0 & 0x0F
                if opcode == 8:
                    self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                    self.wake.set()
                    return
                if opcode == 9:  # the server's keep-alive ping: answered, as every client must
                    self.writer.write(frame(payload, 10))
                    continue
                if opcode == 10:
                    continue
                try:
                    msg = json.loads(payload)
                except ValueError:
                    self.internal.append(f"an answer that is not JSON: {payload[:80]!r}")
                    continue
                if msg["type"] == "lobby":  # the lobby's own news, not an answer
                    continue
                kind = msg["type"] if msg["type"] != "error" else "error:" + msg["code"]
                self.kinds[kind] = self.kinds.get(kind, 0) + 1
                if msg["type"] == "error" and msg["code"] == "internal":
                    self.internal.append(payload.decode()[:200])
                if keep:
                    self.last = (self.last + [msg])[-keep:]
                self.answers += 1
                self.wake.set()
            del buf[:at]

    def close(self) -> None:
        self.closing = True
        self.writer.close()


# -- the mutations --------------------------------------------------------------------------------

VALID = [
    {"type": "action", "action": "discard 7H"}, {"type": "action", "action": "draw stock", "id": 3},
    {"type": "action", "action": "knock 2C meld 3C 4C 5C"}, {"type": "action", "action": "take upcard"},
    {"type": "next_deal", "id": "n"}, {"type": "client_seed", "deal": 2, "seed": "0123456789abcdef"},
    {"type": "client_seed", "deal": 1, "seed": "abc"}, {"type": "suggest", "text": "keep the sevens"},
    {"type": "hint", "id": 1}, {"type": "ping", "id": "p"}, {"type": "set_lang", "lang": "el"},
    {"type": "sync"}, {"type": "chat", "text": "hello"}, {"type": "rematch", "id": 5},
    {"type": "chat", "name": "Ann", "text": "hello"},
]
VALID_TEXT = [json.dumps(m) for m in VALID]
ODD = [None, True, False, 0, -1, 1.5, 1e308, -0.0, 10**30, -(10**60), "", " ", "é", "\u0000", "\ud7ff", "x" * 300,
       [], {}, [[[]]], {"a": {"b": {"c": 1}}}, [1, "2", None], "discard 7H" * 20, "🂡", "<script>alert(1)</script>"]
CHARS = "{}[]\":,\\ 0123456789abcdefxyzé€\u0000\t\n-+.eE" + "".join(chr(c) for c in range(0x20, 0x7F))


class Mutator:
    """A seeded stream of malformed (or well-formed but refused) messages: ``(payload, opcode)``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.skipped_legal = 0
        self.families: dict[str, int] = {}
        kinds = [(self.random_bytes, 12), (self.random_text, 10), (self.truncated, 10), (self.garbled, 12),
                 (self.wrong_type, 14), (self.deep, 6), (self.huge_number, 8), (self.unknown_type, 8),
                 (self.not_utf8, 5), (self.refused, 8), (self.extra_field, 6), (self.oversized, 0.05)]
        self.funcs = [f for f, _ in kinds]
        self.weights = [w for _, w in kinds]

    def next(self) -> tuple[bytes, int]:
        while True:
            f = self.rng.choices(self.funcs, self.weights)[0]
            payload, opcode = f()
            if b"ction" in payload or b"chat" in payload or b"\\u" in payload:
                try:  # a legal move (or a chat line) would change the table: never sent
                    if isinstance(parse_inbound(payload), (ActionMsg, ChatMsg)):
                        self.skipped_legal += 1
                        continue
                except WebError:
                    pass
                try:  # nor a lobby chat line, on the lobby's connection
                    if isinstance(parse_lobby(payload), LobbyChatMsg):
                        self.skipped_legal += 1
                        continue
                except WebError:
                    pass
            self.families[f.__name__] = self.families.get(f.__name__, 0) + 1
            return payload, opcode

    def random_bytes(self) -> tuple[bytes, int]:
        return self.rng.randbytes(self.rng.randrange(0, 80)), 2

    def random_text(self) -> tuple[bytes, int]:
        return "".join(self.rng.choices(CHARS, k=self.rng.randrange(0, 80))).encode(), 1

    def truncated(self) -> tuple[bytes, int]:
        text = self.rng.choice(VALID_TEXT)
        return text[:self.rng.randrange(0, len(text))].encode(), 1

    def garbled(self) -> tuple[bytes, int]:
        text = list(self.rng.choice(VALID_TEXT))
        for _ in range(self.rng.randrange(1, 4)):
            i = self.rng.randrange(len(text))
            op = self.rng.random()
            if op < 0.4:
                text[i] = self.rng.choice(CHARS)
            elif op < 0.7:
                del text[i]
            else:
                text.insert(i, self.rng.choice(CHARS))
        return "".join(text).encode("utf-8", "surrogatepass"), 2

    def wrong_type(self) -> tuple[bytes, int]:
        msg = dict(self.rng.choice(VALID))
        key = self.rng.choice(sorted(msg) + ["id"])
        msg[key] = self.rng.choice(ODD)
        return json.dumps(msg).encode(), 1

    def extra_field(self) -> tuple[bytes, int]:
        msg = dict(self.rng.choice(VALID))
        msg[self.rng.choice(["extra", "seat", "player", "__proto__", "type2", "é"])] = self.rng.choice(ODD)
        return json.dumps(msg).encode(), 1

    def deep(self) -> tuple[bytes, int]:
        n = self.rng.randrange(2, 1100)
        shape = self.rng.randrange(4)
        if shape == 0:
            text = "[" * n + "]" * n
        elif shape == 1:
            text = '{"type": ' + "[" * n + "]" * n + "}"
        elif shape == 2:
            text = '{"a":' * n + "1" + "}" * n
        else:
            text = "[" * n  # never closed
        return text.encode(), 1

    def huge_number(self) -> tuple[bytes, int]:
        digits = "9" * self.rng.randrange(15, 2100)
        form = self.rng.randrange(4)
        if form == 0:
            text = '{"type": "client_seed", "deal": ' + digits + ', "seed": "a"}'
        elif form == 1:
            text = '{"type": "ping", "id": ' + digits + "}"
        elif form == 2:
            text = '{"type": "ping", "id": 1e' + digits[:6] + "}"
        else:
            text = '{"type": "client_seed", "deal": -' + digits[:30] + '.5e-3, "seed": "a"}'
        return text.encode(), 1

    def unknown_type(self) -> tuple[bytes, int]:
        kind = self.rng.choice(["shout", "ACTION", "action ", "", "sync\u0000", "é", "x" * 100, "__init__", "0"])
        return json.dumps({"type": kind, "id": self.rng.randrange(100)}).encode(), 1

    def not_utf8(self) -> tuple[bytes, int]:
        msg = self.rng.choice(VALID_TEXT)
        form = self.rng.randrange(3)
        if form == 0:
            return msg.encode("utf-16"), 2
        if form == 1:
            return msg.replace("type", "t\xe9pe").encode("latin-1"), 2
        return msg.encode()[:5] + b"\xff\xfe\xc0\x80" + msg.encode()[5:], 2

    def refused(self) -> tuple[bytes, int]:
        """Well-formed, but the table must refuse it (or only answer it)."""
        return self.rng.choice([b'{"type": "next_deal"}', b'{"type": "client_seed", "deal": 1, "seed": "x"}',
                                b'{"type": "client_seed", "deal": 7, "seed": "x"}', b'{"type": "suggest", "text": "hi"}',
                                b'{"type": "hint"}', b'{"type": "ping"}', b'{"type": "set_lang", "lang": "fi"}',
                                b'{"type": "set_lang", "lang": "xx"}', b'{"type": "sync"}', b'{"type": "rematch"}',
                                b'{"type": "chat", "text": ""}']), 1

    def oversized(self) -> tuple[bytes, int]:
        size = self.rng.choice([2049, 4096, 65536, 300_000, 1_048_576])
        return (b'{"type": "suggest", "text": "' + b"a" * size + b'"}'), self.rng.choice([1, 2])


# -- HTTP requests --------------------------------------------------------------------------------

class HttpMutator:
    """A seeded stream of malformed HTTP requests (raw bytes, each with ``Connection: close``)."""

    def __init__(self, rng: random.Random, table_id: str, msgs: Mutator) -> None:
        self.rng, self.table_id, self.msgs = rng, table_id, msgs

    def body(self) -> bytes:
        r = self.rng.randrange(8)
        if r == 0:
            return self.rng.randbytes(self.rng.randrange(0, 300))
        if r == 1:
            n = self.rng.randrange(1, 4100)
            return b"[" * n + b"]" * n
        if r == 2:
            who = self.rng.choice(["a", "Ann", "bob", "draw"])
            return json.dumps({"names": ["Ann", "Bob"], "results": [who + ":" + "9" * self.rng.randrange(2, 5000)]}).encode()
        if r == 3:
            v = {"preset": self.rng.choice(ODD + ["standard"]), "rules": self.rng.choice(ODD + [{"target": 10**40}]),
                 "seats": self.rng.choice(ODD + [[{"kind": "bot", "level": "zz"}] * 2, [{"kind": "human"}] * 4])}
            return json.dumps(v).encode()
        if r == 4:
            return json.dumps(self.rng.choice([{"invite": self.rng.choice(ODD)}, {"seat": self.rng.choice(ODD + [1, 3]),
                                                "name": self.rng.choice(ODD)}])).encode()
        if r == 5:
            return self.msgs.next()[0]
        if r == 6:
            return b" " * self.rng.choice([8193, 20000, 200000])
        return json.dumps(self.rng.choice(ODD)).encode()

    def path(self) -> str:
        junk = self.rng.choice(["%C3%A9", "%C3%A9%C3%A9", "%FF", "%00", "%", "%G1", "é", "..%2F..%2Fetc%2Fpasswd",
                                "x" * 3000, "a&seat=b", "%E2%80%AE", "\u0000"])
        t = self.table_id
        return self.rng.choice([
            f"/api/tables/{t}/record?seat={junk}", f"/api/tables/{junk}/record", f"/table/{t}?seat={junk}",
            f"/table/{junk}", f"/api/i18n?lang={junk}", f"/api/i18n.js?lang={junk}", f"/static/{junk}",
            "/static/../../../etc/passwd", "//", f"/?{'&'.join(['a=' + junk] * 50)}", f"/ws/table/{t}?seat={junk}",
            f"/api/tables/{t}/claim", "/api/options?" + junk, "/api/lobby?" + junk, "/ws/lobby", "/rules?lang=" + junk,
            "/fair?lang=" + junk, "*", "http://x/", f"/{junk}"])

    def next(self) -> bytes:
        rng = self.rng
        method = rng.choice(["POST", "POST", "POST", "GET", "GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD",
                             "TRACE", "FOO", "G\xe9T", "post", ""])
        path = rng.choice(["/api/tables", "/api/sheet", f"/api/tables/{self.table_id}/claim",
                           "/api/tables/ffffffffffff/claim", f"/api/tables/{self.table_id}/sit"]) if method == "POST" and rng.random() < 0.8 else self.path()
        version = rng.choice(["HTTP/1.1"] * 8 + ["HTTP/1.0", "HTTP/9.9", "HTTP/1.1 extra", ""])
        body = self.body() if method in ("POST", "PUT", "PATCH") or rng.random() < 0.1 else b""
        headers = [f"Host: {HOST}", "Connection: close"]
        form = rng.randrange(10)
        if form == 0:
            encoded = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in [body[i:i + 1000] for i in range(0, len(body), 1000)])
            headers.append("Transfer-Encoding: chunked")
            body = encoded + rng.choice([b"0\r\n\r\n", b"zz\r\n", b"0\r\n"])
        elif form == 1:
            headers.append(f"Content-Length: {rng.choice(['-1', 'abc', '1e3', '99999999999999999999', ' 5', '0'])}")
        elif form == 2:
            headers.append(f"Content-Length: {max(0, len(body) - rng.randrange(0, 10))}")  # shorter than the body
        else:
            headers.append(f"Content-Length: {len(body)}")
        extra = rng.randrange(8)
        if extra == 0:
            headers.append("Accept-Language: " + rng.choice(["el;q=x", "*" * 5000, "é", "fi-FI,mt;q=0.9", ";;;"]))
        elif extra == 1:
            headers.append("Cookie: gin_lang=" + rng.choice(["xx", "é", "el" * 1000, "%00"]))
        elif extra == 2:
            headers.append("Content-Type: " + rng.choice(["application/json; charset=utf-16", "text/html", "é/é"]))
        elif extra == 3:
            headers.append("X-Big: " + "a" * rng.choice([100, 10000, 70000]))
        elif extra == 4:
            headers.append("Bad Header\x01: \xff")
        head = f"{method} {path} {version}\r\n" + "\r\n".join(headers) + "\r\n\r\n"
        return head.encode("utf-8", "surrogateescape") + body


# -- the run ------------------------------------------------------------------------------------

async def open_table(port: int) -> tuple[dict[str, Any], str]:
    """A table of a person against the novice computer, its first deal dealt and the person to
    act: ``(answer of POST /api/tables, the person's WebSocket path)``."""
    body = json.dumps({"preset": "standard", "seats": [{"kind": "human", "name": "Ann"},
                                                       {"kind": "bot", "level": "novice"}]}).encode()
    status, data = await http(port, b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                              b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
    assert status == 201, data
    t = json.loads(data.split(b"\r\n\r\n", 1)[1])
    path = f"/ws/table/{t['id']}?seat={t['seats'][0]['token']}"
    ws = await WS.open(port, path)
    task = asyncio.create_task(ws.read_loop(keep=20))
    ws.writer.write(frame(json.dumps({"type": "client_seed", "deal": 1, "seed": "fuzz"}).encode(), 1))
    for _ in range(200):
        await asyncio.sleep(0.05)
        st = [m for m in ws.last if m["type"] == "state"]
        if st and st[-1]["started"] and st[-1]["your_turn"]:
            break
    ws.close()
    await asyncio.wait([task], timeout=5)
    return t, path


async def public_state(port: int, path: str) -> tuple[Any, ...]:
    """``(seq, the person's hand, the discard pile, phase)`` from a fresh connection's ``sync``."""
    ws = await WS.open(port, path)
    task = asyncio.create_task(ws.read_loop(keep=50))
    ws.writer.write(frame(b'{"type": "sync", "id": "check"}', 1))
    for _ in range(200):
        await asyncio.sleep(0.05)
        got = [m for m in ws.last if m.get("reply_to") == "check"]
        if got:
            break
    ws.close()
    await asyncio.wait([task], timeout=5)
    st = got[0]
    return st["seq"], st["view"]["hand"], st["view"]["discard_pile"], st["view"]["phase"]


async def fuzz_connection(ws: WS, quota: int, mut: Mutator, batch: int, window: int, deadline: float,
                          stats: dict[str, int]) -> int:
    """Send ``quota`` messages on ``ws`` in batches, never more than ``window`` unanswered."""
    base = ws.answers
    sent = 0
    while sent < quota and time.monotonic() < deadline and ws.close_code is None and not ws.lost:
        n = min(batch, quota - sent)
        ws.writer.write(b"".join(frame(*mut.next()) for _ in range(n)))
        await ws.writer.drain()
        sent += n
        stats["sent"] += n
        while sent - (ws.answers - base) > window and ws.close_code is None and not ws.lost:
            ws.wake.clear()
            try:
                await asyncio.wait_for(ws.wake.wait(), 30)
            except asyncio.TimeoutError:
                break
    ws.writer.write(frame(b'{"type": "ping", "id": "fuzz-end"}', 1))
    end = time.monotonic() + 60
    while ws.answers - base < sent + 1 and time.monotonic() < end and ws.close_code is None and not ws.lost:
        ws.wake.clear()
        try:
            await asyncio.wait_for(ws.wake.wait(), 5)
        except asyncio.TimeoutError:
            pass
    return sent


async def protocol_probes(port: int, path: str) -> dict[str, int | str | None]:
    """What the WebSocket protocol layer must close itself, each on a connection of its own:
    a frame over 64 KiB (1009), a text frame that is not UTF-8 (1007), an unmasked frame (1002)."""
    out: dict[str, int | str | None] = {}
    probes = {"frame of 64 KiB + 1 byte": frame(b"a" * (64 * 1024 + 1), 1),
              "text frame not UTF-8": frame(b'{"type": "\xff"}', 1),
              "unmasked frame": struct.pack("!BB", 0x81, 5) + b"hello"}
    for name, raw in probes.items():
        ws = await WS.open(port, path)
        task = asyncio.create_task(ws.read_loop())
        await asyncio.sleep(0.2)  # the state on connecting
        try:
            ws.writer.write(raw)
            await ws.writer.drain()
        except ConnectionError:
            pass
        await asyncio.wait([task], timeout=20)
        out[name] = ws.close_code if ws.close_code is not None else ("lost" if ws.lost else "open")
        ws.close()
    return out


async def http_fuzz(port: int, count: int, mut: HttpMutator, workers: int, deadline: float) -> dict[str, int]:
    statuses: dict[str, int] = {}
    left = [count]

    async def worker() -> None:
        while left[0] > 0 and time.monotonic() < deadline:
            left[0] -= 1
            status, _ = await http(port, mut.next(), timeout=3)
            key = str(status) if status is not None else "no answer"
            statuses[key] = statuses.get(key, 0) + 1

    await asyncio.gather(*(worker() for _ in range(workers)))
    return statuses


async def run(args: argparse.Namespace, port: int, proc: subprocess.Popen[bytes], log: Path) -> dict[str, Any]:
    rng = random.Random(args.seed)
    t, path = await open_table(port)
    other, other_path = await open_table(port)
    await asyncio.sleep(0.5)
    before_state = await public_state(port, path)
    rss_before = rss_mb(proc.pid)
    started = time.monotonic()
    deadline = started + args.time_limit

    # the person's seat on --connections connections, and one more on the lobby
    conns = [await WS.open(port, path) for _ in range(args.connections)] + [await WS.open(port, "/ws/lobby")]
    readers = [asyncio.create_task(c.read_loop()) for c in conns]
    await asyncio.sleep(1.0)  # every connection's arrival is broadcast to the others: let it settle
    muts = [Mutator(random.Random(rng.getrandbits(64))) for _ in conns]
    stats = {"sent": 0}

    async def progress() -> None:
        while True:
            await asyncio.sleep(10)
            el = time.monotonic() - started
            print(f"  {el:6.0f} s: {stats['sent']:,} messages sent, {sum(c.answers for c in conns):,} answers, "
                  f"{stats['sent'] / el:,.0f}/s, server RSS {rss_mb(proc.pid):.1f} MB", flush=True)

    ticker = asyncio.create_task(progress())
    share = -(-args.messages // len(conns))
    sent = await asyncio.gather(*(fuzz_connection(c, share, m, args.batch, args.window, deadline, stats)
                                  for c, m in zip(conns, muts)))
    ws_seconds = time.monotonic() - started
    ticker.cancel()
    answered = [c.answers for c in conns]
    for c in conns:
        c.close()
    await asyncio.wait(readers, timeout=10)
    print(f"  WebSocket: {sum(sent):,} messages in {ws_seconds:.0f} s; HTTP: {args.http:,} requests ...", flush=True)
    h0 = time.monotonic()
    statuses = await http_fuzz(port, args.http, HttpMutator(random.Random(rng.getrandbits(64)), t["id"], muts[0]),
                               args.http_workers, deadline)
    http_seconds = time.monotonic() - h0
    await asyncio.sleep(1.0)
    text = log.read_text(errors="replace")  # the log before the protocol probes (uvicorn logs one of them)
    print("  protocol probes ...", flush=True)
    probes = await protocol_probes(port, other_path)
    await asyncio.sleep(2.0)
    after_state = await public_state(port, path)
    kinds: dict[str, int] = {}
    for c in conns:
        for k, v in c.kinds.items():
            kinds[k] = kinds.get(k, 0) + v
    families: dict[str, int] = {}
    for m in muts:
        for k, v in m.families.items():
            families[k] = families.get(k, 0) + v
    return {
        "messages": sum(sent), "ws_seconds": ws_seconds, "connections": len(conns),
        "unanswered": sum(s + 1 - (a - 0) for s, a in zip(sent, answered)),
        "answers": sum(answered), "kinds": kinds, "families": families,
        "skipped_legal": sum(m.skipped_legal for m in muts),
        "internal": [x for c in conns for x in c.internal],
        "closed": {i: c.close_code for i, c in enumerate(conns) if c.close_code is not None},
        "lost": sum(c.lost for c in conns), "probes": probes,
        "http": sum(statuses.values()), "http_seconds": http_seconds, "statuses": statuses,
        "http_5xx": sum(v for k, v in statuses.items() if k.startswith("5")),
        "crashed": proc.poll() is not None, "tracebacks": text.count("Traceback"),
        "log_excerpt": text[max(0, text.find("Traceback") - 300):][:8000] if "Traceback" in text else "",
        "rss_before": rss_before, "rss_after": rss_mb(proc.pid) if proc.poll() is None else float("nan"),
        "before": before_state, "after": after_state,
    }


def report(r: dict[str, Any], command: str) -> bool:
    growth = r["rss_after"] - r["rss_before"]
    unchanged = r["before"] == r["after"]
    expected = {"frame of 64 KiB + 1 byte": 1009, "text frame not UTF-8": 1007, "unmasked frame": 1002}
    ok = (not r["crashed"] and r["http_5xx"] == 0 and r["lost"] == 0 and not r["closed"] and not r["internal"]
          and r["tracebacks"] == 0 and growth < 20 and unchanged and r["unanswered"] <= 0
          and r["probes"] == expected)
    top = ", ".join(f"{k} {v:,}" for k, v in sorted(r["kinds"].items(), key=lambda kv: -kv[1]))
    fams = ", ".join(f"{k} {v:,}" for k, v in sorted(r["families"].items(), key=lambda kv: -kv[1]))
    codes = ", ".join(f"{k}: {v:,}" for k, v in sorted(r["statuses"].items()))
    print(f"""
## Hostile input

Command: `{command}`

| figure | result | required |
|---|---|---|
| malformed WebSocket messages sent | {r['messages']:,} over {r['connections']} connections in {r['ws_seconds']:.0f} s ({r['messages'] / max(r['ws_seconds'], 1e-9):,.0f}/s) | at least 1,000,000 |
| answers (one per message, plus the end ping) | {r['answers']:,} (missing: {max(r['unanswered'], 0)}) | every message answered |
| connections closed by the server / lost without a close code | {len(r['closed'])} / {r['lost']} | 0 / 0 |
| `internal` errors / tracebacks in the server log | {len(r['internal'])} / {r['tracebacks']} | 0 / 0 |
| malformed HTTP requests | {r['http']:,} in {r['http_seconds']:.0f} s | at least 10,000 |
| HTTP 5xx answers | {r['http_5xx']} | 0 |
| server crashes | {int(r['crashed'])} | 0 |
| server RSS before / after | {r['rss_before']:.1f} MB / {r['rss_after']:.1f} MB (growth {growth:+.1f} MB) | growth under 20 MB |
| table state (seq, the person's hand, discard pile, phase) | {'unchanged' if unchanged else 'CHANGED'} (seq {r['before'][0]}) | unchanged |
| protocol-layer refusals (own connections) | {', '.join(f'{k}: {v}' for k, v in r['probes'].items())} | 1009, 1007, 1002 |

- Answers by kind: {top}.
- Messages by mutation family: {fams}; {r['skipped_legal']:,} generated messages were legal moves or chat lines and were not sent.
- HTTP answers by status: {codes} ("no answer": the server closed the connection at once, e.g. after a 413 while the body was still being sent).
- {'PASS' if ok else 'FAIL'}: whole-process run on 127.0.0.1 (client and server on the same machine).
""")
    if r["internal"]:
        print("internal errors (first 5):", r["internal"][:5])
    if r["log_excerpt"]:
        print("server log from the first traceback:\n" + r["log_excerpt"])
    return ok


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--messages", type=int, default=1_000_000, help="malformed WebSocket messages (default 10^6)")
    p.add_argument("--http", type=int, default=10_000, help="malformed HTTP requests (default 10^4)")
    p.add_argument("--connections", type=int, default=4, help="WebSocket connections sending at once")
    p.add_argument("--http-workers", type=int, default=8, help="HTTP requests in flight at once")
    p.add_argument("--batch", type=int, default=100, help="messages per write")
    p.add_argument("--window", type=int, default=400, help="unanswered messages allowed per connection")
    p.add_argument("--seed", type=int, default=2024, help="seed of the mutations")
    p.add_argument("--time-limit", type=float, default=1800.0, help="seconds for the whole run (bounded)")
    args = p.parse_args(argv)
    command = "python benchmarks/fuzz.py " + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    # SIGTERM ends the run like Ctrl-C: the server is stopped on the way out
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory(prefix="gin-fuzz-") as tmp:
        proc, port, log = start_server(Path(tmp))
        print(f"gin serve (pid {proc.pid}) on {HOST}:{port}; sending {args.messages:,} messages and "
              f"{args.http:,} HTTP requests", flush=True)
        try:
            result = asyncio.run(run(args, port, proc, log))
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
            if proc.returncode not in (0, -signal.SIGTERM, None):
                print(f"server exit status {proc.returncode}; log tail:\n{log.read_text()[-2000:]}")
        return 0 if report(result, command.strip()) else 1


if __name__ == "__main__":
    sys.exit(main())
