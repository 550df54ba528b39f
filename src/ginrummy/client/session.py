"""A program at a seat of a web table: the WebSocket game protocol of ``gin serve``
(docs/protocol.md), as the table page speaks it (docs/bot-api.md).

:class:`SeatClient` connects to a seat link (the same ``Host`` and ``Origin`` a browser on the
table page sends), sends the fair-deal client seed for each deal (:class:`~.fair.FairDeals`) and
checks each revealed deal, rebuilds the seat's :class:`~ginrummy.views.PlayerView` from each
``state``, asks its decider for a move when the seat is to act, sends it, asks again once after
a refused move (then plays the first legal action), starts the next deal, reconnects with
back-off after a dropped connection, chats, and asks for rematches.  The protocol has no
resign message yet (it comes with the bot API of the server, issue 35): :meth:`SeatClient.resign`
says so.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from dataclasses import dataclass, field
from typing import Any, TextIO

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from ..errors import IllegalActionError
from .deciders import Decider, DeciderError
from .fair import DealCheck, FairDeals
from .link import SeatLink, claim_invite, parse_link
from .views import agent_json, view_from_state

__all__ = ["SeatClient", "MatchOutcome", "ClientError", "FATAL_CLOSE_CODES", "backoff"]

log = logging.getLogger("ginrummy.client")

#: Close codes after which reconnecting cannot help: a wrong token (4403), an unknown table (4404).
FATAL_CLOSE_CODES = (4403, 4404)


class ClientError(RuntimeError):
    """The seat cannot be played: a wrong token or table, a program that stopped answering, or
    the connection lost more times in a row than allowed."""


def backoff(attempt: int, first: float = 0.5, cap: float = 30.0) -> float:
    """Seconds to wait before reconnect ``attempt`` (1, 2, ...): ``first`` doubled each time, at most ``cap``."""
    return float(min(cap, first * 2 ** (attempt - 1)))


@dataclass
class MatchOutcome:
    """How the match went for this seat: the last ``state``, the fair-deal checks of each deal,
    the moves sent, the moves the server refused, and the table of each rematch played."""

    state: dict[str, Any] | None = None
    checks: list[DealCheck] = field(default_factory=list)
    moves: int = 0
    refused: int = 0
    fallbacks: int = 0
    tables: list[str] = field(default_factory=list)

    @property
    def winner(self) -> str | None:
        """The match winner's name (``state.match.winner``), or ``None``."""
        return None if self.state is None else (self.state.get("match") or {}).get("winner")

    @property
    def fair_ok(self) -> bool:
        """No fair-deal check failed."""
        return all(c.ok is not False for c in self.checks)


class SeatClient:
    """Play the seat of ``link`` (a seat link, an invite link, or a :class:`SeatLink`) with ``decider``.

    ``rematches``: how many rematches to ask for once a match is over (each is played too);
    ``chat``: a line to say at the table once connected; ``lang``: the language of the server's
    error messages; ``transcript``: a text file that gets every message received (``{"in": ...}``),
    sent (``{"out": ...}``) and every line given to a program (``{"program": ...}``), one JSON
    object a line; ``max_retries``: reconnects in a row before giving up (the wait doubles from
    0.5 s to 30 s, :func:`backoff`)."""

    def __init__(
        self,
        link: str | SeatLink,
        decider: Decider,
        *,
        rematches: int = 0,
        chat: str | None = None,
        lang: str | None = None,
        transcript: TextIO | None = None,
        max_retries: int = 8,
    ) -> None:
        self.link = parse_link(link) if isinstance(link, str) else link
        self.decider = decider
        self.rematches = rematches
        self.chat_line = chat
        self.lang = lang
        self.transcript = transcript
        self.max_retries = max_retries
        self.outcome = MatchOutcome()
        self._ids = itertools.count(1)
        self._reset_table()

    def _reset_table(self) -> None:
        self.fair = FairDeals()
        self.state: dict[str, Any] | None = None
        self._acted_seq: int | None = None
        self._pending: dict[str, Any] | None = None  # the action sent and not yet answered
        self._next_deal_asked: set[int] = set()
        self._rematch_asked = False
        self._chatted = False
        self._new_link: SeatLink | None = None
        self._done = False
        self._resign_asked = self._resign_sent = False

    # -- sending -----------------------------------------------------------------------------

    def _write(self, entry: dict[str, Any]) -> None:
        if self.transcript is not None:
            self.transcript.write(json.dumps(entry, separators=(",", ":")) + "\n")
            self.transcript.flush()

    async def _send(self, ws: Any, msg: dict[str, Any]) -> None:
        self._write({"out": msg})
        await ws.send(json.dumps(msg, separators=(",", ":")))

    def resign(self) -> None:
        """Resign the match: ``{"type": "resign"}`` is sent once, on the next message from the
        server (docs/protocol.md, "Leaving and resigning"); the seat loses the match, rated at a
        rated table.  Safe to call from the decider or another task; a rematch starts afresh."""
        self._resign_asked = True

    # -- the connection ----------------------------------------------------------------------

    async def run(self) -> MatchOutcome:
        """Play until the match is over (and the rematches asked for); returns the
        :class:`MatchOutcome`.  Raises :class:`ClientError` for a seat that cannot be played."""
        try:
            self.link = await asyncio.to_thread(claim_invite, self.link)
            self.outcome.tables.append(self.link.table)
            attempt = 0
            while True:
                try:
                    async with connect(
                        self.link.ws_url(self.lang),
                        origin=self.link.origin,  # type: ignore[arg-type]
                        open_timeout=15,
                        max_size=2**20,
                    ) as ws:
                        attempt = 0
                        self._acted_seq = None
                        self._pending = None
                        log.info("connected to table %s", self.link.table)
                        async for raw in ws:
                            await self._handle(ws, json.loads(raw))
                            if self._done or self._new_link is not None:
                                break
                except ConnectionClosed as exc:
                    code = exc.rcvd.code if exc.rcvd is not None else None
                    if code in FATAL_CLOSE_CODES:
                        raise ClientError(self.refusal("not_found" if code == 4404 else "bad_token")) from None
                    log.warning("connection to table %s lost (code %s)", self.link.table, code)
                except InvalidStatus as exc:
                    status = exc.response.status_code
                    if status in (403, 404):
                        raise ClientError(self.refusal("not_found" if status == 404 else "bad_token")) from None
                    log.warning("connection to table %s refused (%s)", self.link.table, status)
                except (TimeoutError, OSError, InvalidHandshake) as exc:
                    log.warning("cannot connect to table %s: %s", self.link.table, type(exc).__name__)
                if self._new_link is not None:  # a rematch: its own table, from the start
                    self.link = self._new_link
                    self._reset_table()
                    self.outcome.tables.append(self.link.table)
                    continue
                if self._done:
                    return self.outcome
                attempt += 1
                if attempt > self.max_retries:
                    raise ClientError(f"the connection was lost {attempt} times in a row; giving up")
                await asyncio.sleep(backoff(attempt))
        finally:
            await self.decider.close()

    # -- the messages ------------------------------------------------------------------------

    async def _handle(self, ws: Any, msg: dict[str, Any]) -> None:
        self._write({"in": msg})
        if self._resign_asked and not self._resign_sent:
            self._resign_sent = True
            await self._send(ws, {"type": "resign", "id": "resign"})
        kind = msg.get("type")
        if kind == "state":
            await self._on_state(ws, msg)
        elif kind == "error":
            await self._on_error(ws, msg)
        elif kind == "rematch" and msg.get("link"):
            log.info("rematch: table %s", msg.get("id"))
            self._new_link = parse_link(str(msg["link"]))
        elif kind == "chat":
            log.info("chat from %s: %s", msg.get("from") or "a spectator", msg.get("text"))

    async def _on_state(self, ws: Any, state: dict[str, Any]) -> None:
        self.state = self.outcome.state = state
        if self.chat_line and not self._chatted:
            self._chatted = True
            await self._send(ws, {"type": "chat", "text": self.chat_line})
        seed = self.fair.seed_message(state)
        if seed is not None:
            await self._send(ws, seed)
        self.fair.observe(state)
        for c in self.fair.check_revealed(state):
            self.outcome.checks.append(c)
            if c.ok is False:
                log.error("deal %s: the fair-deal check FAILED: %s", c.deal, "; ".join(c.problems))
            else:
                log.info("deal %s: fair-deal check %s", c.deal, "passed" if c.ok else "could not be made")
        for w in self.fair.warnings:
            log.error("fair deal: %s", w)
        self.fair.warnings.clear()
        if (state.get("match") or {}).get("finished"):
            if self.rematches > 0 and not self._rematch_asked and (state.get("rematch") or {}).get("can_ask"):
                self._rematch_asked = True
                self.rematches -= 1
                await self._send(ws, {"type": "rematch"})
            elif not self._rematch_asked:
                self._done = True
            return
        pending = (state.get("fair") or {}).get("pending")
        if state.get("can_next_deal") and pending and not pending.get("waiting_for"):
            k = int(pending["deal"])
            if k not in self._next_deal_asked:
                self._next_deal_asked.add(k)
                await self._send(ws, {"type": "next_deal"})
        if (
            state.get("your_turn")
            and (state.get("view") or {}).get("legal_actions")
            and state.get("seq") != self._acted_seq
        ):
            await self._act(ws, state, None, 0)

    async def _act(self, ws: Any, state: dict[str, Any], error: str | None, tries: int) -> None:
        view = view_from_state(state)
        if view is None or not view.legal:
            return
        data = agent_json(state, view)
        action = None
        while action is None:
            try:
                if tries >= 2:
                    action = view.legal[0]
                    self.outcome.fallbacks += 1
                    log.warning("two answers refused: playing the first legal action, %s", action.text)
                else:
                    if hasattr(self.decider, "sent"):
                        self._write({"program": dict(data, error=error) if error else data})
                    action = await self.decider.decide(view, data, error)
                    if action not in view.legal and not (
                        action.kind == "knock" and any(a.kind == "knock" and a.card == action.card for a in view.legal)
                    ):
                        raise IllegalActionError(
                            f"{action.text} is not legal now", action.text, [a.text for a in view.legal]
                        )
            except IllegalActionError as exc:
                log.warning("the answer was refused: %s", exc)
                error, tries, action = str(exc), tries + 1, None
                self.outcome.refused += 1
            except DeciderError as exc:
                raise ClientError(str(exc)) from None
        self._acted_seq = state.get("seq")
        aid = next(self._ids)
        self._pending = {"id": aid, "state": state, "tries": tries}
        self.outcome.moves += 1
        await self._send(ws, {"type": "action", "action": action.text, "id": aid})

    def refusal(self, code: str) -> str:
        """The sentence saying why the server refused this seat: ``code`` ``"not_found"`` (no
        such table) or ``"bad_token"`` (a token that is none of the table's seats)."""
        table, server = self.link.table, self.link.base
        if code == "not_found":
            return f"there is no table {table} at {server}: check the seat link (--seat)"
        return f"the seat link's token is not a seat of table {table} at {server}: ask for a new seat link"

    async def _on_error(self, ws: Any, msg: dict[str, Any]) -> None:
        code = msg.get("code")
        if code in ("bad_token", "not_found"):
            raise ClientError(self.refusal(code))
        pending = self._pending
        if pending is not None and msg.get("reply_to") == pending["id"]:
            self._pending = None
            if code in ("illegal", "bad_message"):
                self.outcome.refused += 1
                log.warning("move refused (%s): %s", code, msg.get("message"))
                await self._act(ws, pending["state"], str(msg.get("message")), pending["tries"] + 1)
                return
            self._acted_seq = None  # not_your_turn, conflict: the next state says what is on
        log.info("server: %s: %s", code, msg.get("message"))
