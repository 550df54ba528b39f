"""The tournament page's live feed (issue 33; docs/protocol.md, "Tournaments"): who watches which
tournament over ``WS /ws/tournament/ID``, and the push of its view to them whenever its events
change.

A change is noticed where the events are read: every step this process takes
(:meth:`~ginrummy.web.contests.tournaments.Tournaments.advance`, run each second for every
tournament not finished and at once when one of its tables ends; an entry or a withdrawal) says
how many events the tournament has now (:meth:`TournamentFeed.note`).  A count this process has
not pushed yet (a step of its own, or of another server process on the same database) is pushed
once to every watcher, however many changes came in one turn of the loop.  The view is built
and encoded once per push; only each watcher's own ``me`` (is he entered, his table in play) is
added per watcher.

Bounded: at most :data:`MAX_WATCHERS_PER_TOURNAMENT` sockets per tournament and
:data:`MAX_WATCHERS` in all; one more is refused (close code 4429) and its page polls instead.
Each socket's queue is bounded too (:data:`~ginrummy.web.ws.connection.OUTBOUND_QUEUE`: a page
that stops reading is dropped), and a tournament's entry goes with its last watcher.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["TournamentFeed", "message", "MAX_WATCHERS", "MAX_WATCHERS_PER_TOURNAMENT"]

log = logging.getLogger("ginrummy.web")

MAX_WATCHERS_PER_TOURNAMENT = 500
"""The most sockets watching one tournament at once (one more is closed with 4429: it polls)."""

MAX_WATCHERS = 5000
"""The most tournament sockets of this process at once, all tournaments together."""

Send = Callable[[Any], Awaitable[None]]
Snapshot = Callable[[str], tuple[dict[str, Any], Callable[[int], dict[str, Any]]]]
"""``tid`` -> ``(view, me)``: the tournament's view without ``me``, and ``me`` of an account id."""


class TournamentFeed:
    """The watchers of each tournament and the pushes to them.

    Args:
        snapshot: ``tid`` -> ``(view, me_of_account)`` (read from the store: run in a thread).
    """

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self.max_per_tournament = MAX_WATCHERS_PER_TOURNAMENT
        self.max_watchers = MAX_WATCHERS
        self.watchers: dict[str, dict[Send, int | None]] = {}
        """tid -> {a watcher's send: his account id, or ``None`` signed out}."""
        self.pushed: dict[str, int] = {}
        """tid -> the event count last pushed (only for watched tournaments)."""
        self._pending: set[str] = set()

    def count(self) -> int:
        """The sockets watching any tournament now."""
        return sum(len(w) for w in self.watchers.values())

    def watch(self, tid: str, send: Send, account_id: int | None) -> bool:
        """Add a watcher of ``tid``; ``False`` (nothing kept) when a bound is reached."""
        here = self.watchers.get(tid, {})
        if len(here) >= self.max_per_tournament or self.count() >= self.max_watchers:
            return False
        self.watchers.setdefault(tid, {})[send] = account_id
        return True

    def unwatch(self, tid: str, send: Send) -> None:
        """Remove a watcher; the tournament's entries go with its last one."""
        here = self.watchers.get(tid)
        if here is not None:
            here.pop(send, None)
            if not here:
                del self.watchers[tid]
                self.pushed.pop(tid, None)

    def note(self, tid: str, events: int) -> None:
        """``tid`` has ``events`` events now: push its view soon if that is news to its watchers
        (changes in one turn of the loop are pushed once)."""
        if tid not in self.watchers or self.pushed.get(tid) == events:
            return
        self.pushed[tid] = events
        if tid in self._pending:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a step taken outside the event loop (a script): no one to tell
            return
        self._pending.add(tid)
        loop.create_task(self.push(tid))

    async def push(self, tid: str) -> None:
        """Send the view of ``tid`` to each of its watchers (a watcher that cannot take it is
        dropped by its own connection)."""
        await asyncio.sleep(0)  # the other changes of this turn first
        self._pending.discard(tid)
        if tid not in self.watchers:
            return
        try:
            view, me_of = await asyncio.to_thread(self.snapshot, tid)
        except Exception:  # pragma: no cover - logged; the next change pushes again
            log.exception("tournament %s: the feed could not read it", tid)
            return
        head = message(view, None)[: -len(',"me":null}}')]  # the view encoded once
        for send, account_id in list(self.watchers.get(tid, {}).items()):
            me = None if account_id is None else me_of(account_id)
            try:
                await send(f'{head},"me":{_dumps(me)}}}}}')
            except ConnectionError:  # its queue is full or it is closing: its socket ends it
                self.unwatch(tid, send)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def message(view: dict[str, Any], me: dict[str, Any] | None) -> str:
    """The feed's message, ``{"type": "tournament", "view": {...view, "me": me}}``, as text."""
    return f'{_dumps({"type": "tournament", "view": view})[:-2]},"me":{_dumps(me)}}}}}'
