"""Challenges between accounts and each account's events (issue 35, docs/bot-api.md), kept in
this server's memory: a challenge lives until it is accepted, declined or
:data:`CHALLENGE_SECONDS` pass, and an account's events are the last :data:`EVENTS_KEPT`.

An event is ``{"seq", "type", ...}``: ``challenge`` (one received: ``id``, ``from``,
``from_kind``, ``rated``, ``preset``), ``challenge_declined`` / ``challenge_canceled`` (``id``),
``game_start`` (``id`` of the challenge or ``null`` for a seek, ``table``, ``seat``, ``token``,
``link``: the seat link, a secret, sent to that seat's account only).
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import ErrorCode, WebError
from ..texts import W_

__all__ = ["Challenge", "Challenges", "Events", "CHALLENGE_SECONDS", "EVENTS_KEPT", "OPEN_PER_ACCOUNT"]

CHALLENGE_SECONDS = 600.0
EVENTS_KEPT = 200
OPEN_PER_ACCOUNT = 20
"""At most this many open challenges sent by one account."""


class Events:
    """Each account's last :data:`EVENTS_KEPT` events, numbered from 1 (``seq``)."""

    def __init__(self) -> None:
        self._events: dict[int, deque[dict[str, Any]]] = {}
        self._seq: dict[int, int] = {}

    def add(self, account_id: int, event: dict[str, Any]) -> None:
        """Give ``account_id`` the event ``event`` (a ``type`` and its fields)."""
        seq = self._seq.get(account_id, 0) + 1
        self._seq[account_id] = seq
        self._events.setdefault(account_id, deque(maxlen=EVENTS_KEPT)).append({"seq": seq, **event})

    def since(self, account_id: int, after: int) -> tuple[list[dict[str, Any]], int]:
        """``(events with seq > after, the last seq)`` of ``account_id``."""
        return [e for e in self._events.get(account_id, ()) if e["seq"] > after], self._seq.get(account_id, 0)


@dataclass
class Challenge:
    """A challenge from account ``by`` (its ``by_name``, ``by_kind``) to ``to`` (``to_name``,
    ``to_kind``): ``rated``, the ``preset`` (R13), made at ``made`` (monotonic seconds)."""

    id: str
    by: int
    by_name: str
    by_kind: str
    to: int
    to_name: str
    to_kind: str
    rated: bool
    preset: str
    made: float
    extra: dict[str, Any] = field(default_factory=dict)

    def public(self) -> dict[str, Any]:
        """The challenge as the API shows it (no secret in it)."""
        return {
            "id": self.id,
            "from": self.by_name,
            "from_kind": self.by_kind,
            "to": self.to_name,
            "to_kind": self.to_kind,
            "rated": self.rated,
            "preset": self.preset,
        }


class Challenges:
    """The open challenges, with ``events`` told of each change; ``clock`` in seconds."""

    def __init__(self, events: Events, clock: Callable[[], float] = time.monotonic) -> None:
        self.events = events
        self.clock = clock
        self.open: dict[str, Challenge] = {}

    def _expire(self) -> None:
        now = self.clock()
        for cid in [c.id for c in self.open.values() if now - c.made > CHALLENGE_SECONDS]:
            self.open.pop(cid)

    def make(self, by: tuple[int, str, str], to: tuple[int, str, str], rated: bool, preset: str) -> Challenge:
        """A new challenge from ``by`` to ``to`` (each ``(account id, name, kind)``); ``to``
        gets a ``challenge`` event.  Raises :class:`WebError` ``not_allowed`` for a challenge
        to oneself or too many open ones (:data:`OPEN_PER_ACCOUNT`)."""
        self._expire()
        if by[0] == to[0]:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("you cannot challenge yourself"))
        if sum(1 for c in self.open.values() if c.by == by[0]) >= OPEN_PER_ACCOUNT:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("you have {n} open challenges already", n=OPEN_PER_ACCOUNT))
        c = Challenge(secrets.token_urlsafe(9), *by, *to, rated=rated, preset=preset, made=self.clock())
        self.open[c.id] = c
        self.events.add(to[0], {"type": "challenge", "challenge": c.public()})
        return c

    def take(self, challenge_id: str, account_id: int) -> Challenge:
        """Remove and return the open challenge ``challenge_id`` sent to ``account_id``.  Raises
        :class:`WebError` ``not_found`` for no such open challenge to him."""
        self._expire()
        c = self.open.get(challenge_id)
        if c is None or c.to != account_id:
            raise WebError(ErrorCode.NOT_FOUND, W_("no open challenge {id} to you", id=str(challenge_id)[:20]))
        return self.open.pop(challenge_id)

    def decline(self, challenge_id: str, account_id: int) -> None:
        """Decline challenge ``challenge_id`` sent to ``account_id`` (the sender is told)."""
        c = self.take(challenge_id, account_id)
        self.events.add(c.by, {"type": "challenge_declined", "id": c.id})

    def to(self, account_id: int) -> list[dict[str, Any]]:
        """The open challenges sent to ``account_id``."""
        self._expire()
        return [c.public() for c in self.open.values() if c.to == account_id]
