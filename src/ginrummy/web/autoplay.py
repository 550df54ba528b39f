"""The moves the server makes by itself: the computer players' moves (after the table's bot
delay) and the move of a person whose clock ran out (``docs/protocol.md``, "Clocks"), and the
first deals a restart found ready to deal.

:class:`AutoPlayMixin` is a part of :class:`~ginrummy.web.tables.TableManager` (kept here so
that each concern has its own module); it uses the manager's ``tables``, ``now``, ``bot_delay``,
``act``, ``next_deal``, ``changed`` and its store writer.  Every choice is seeded by the match
seed and the step, so a restart makes the same move (the engine itself stays pure and
synchronous; the scheduling is asyncio's).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import IllegalActionError
from ..players import make_player
from .seats import TableError

if TYPE_CHECKING:
    from ..actions import Action
    from ..views import PlayerView
    from .tables import Table

__all__ = ["AutoPlayMixin", "bot_choice"]

log = logging.getLogger("ginrummy.web")


def bot_choice(table: Table, player: int, seq: int, view: PlayerView) -> Action:
    """The move of computer seat ``player`` (its level from the seat kind) in ``view``, when
    ``seq`` steps are stored: its random choices are seeded by the match seed, the player and
    ``seq``, so the same table and step give the same move, after a restart too."""
    rng = random.Random(int.from_bytes(hashlib.sha256(
        table.row.seed + f"/bot/{player}/{seq}".encode()).digest()[:8], "big"))
    return make_player(table.seat_kind(player)[4:], rng).choose(view, view.legal)


class AutoPlayMixin:
    """Computer moves, clock timeouts, and the start and stop of that scheduling."""

    tables: dict[str, Any]
    now: Callable[[], float]
    bot_delay: float | None
    committer: Any
    _delay_rng: random.Random

    async def check_clock(self, table: Table) -> bool:
        """When the running clock of ``table`` has run out (by :attr:`now`), make the person's
        move with the ``novice`` level (seeded by the match seed and the step, so a restart
        makes the same move) and count it; the third in a row forfeits the match.  Returns
        whether a move was made."""
        table = self.tables.get(table.id, table)
        deadline = None if table.clock is None else table.clock.deadline()
        if deadline is None or self.now() < deadline or table.match is None:
            return False
        player = table.clock.turn
        assert player is not None
        rng = random.Random(int.from_bytes(hashlib.sha256(
            table.row.seed + f"/timeout/{player}/{table.seq}".encode()).digest()[:8], "big"))
        view = table.match.view(player)
        if not view.legal:  # pragma: no cover - the clock only runs for the player to act
            return False
        action = make_player("novice", rng).choose(view, view.legal)
        await self.act(table, player, action.text, kind="timeout")  # type: ignore[attr-defined]
        return True

    def schedule_clock(self, table: Table) -> None:
        """(Re)arm the timer that times out the running clock of ``table``."""
        if table.clock_timer is not None:
            table.clock_timer.cancel()
            table.clock_timer = None
        deadline = None if table.clock is None else table.clock.deadline()
        if deadline is None:
            return
        loop = asyncio.get_running_loop()
        table.clock_timer = loop.call_later(max(0.0, deadline - self.now()) + 0.01,
                                            lambda: loop.create_task(self._clock_due(table)))

    async def _clock_due(self, table: Table) -> None:
        try:
            if not await self.check_clock(table):
                self.schedule_clock(self.tables.get(table.id, table))
        except Exception:  # pragma: no cover - the move was refused: the table moved on meanwhile
            log.exception("timeout move failed at table %s", table.id)

    def bot_due(self, table: Table) -> tuple[int | None, str] | None:
        """``(player, "action")`` if a computer player is to act, ``(None, "next_deal")`` if
        the deal is over and every seat is a computer, else ``None``."""
        m = table.match
        if m is None or table.over:
            return None
        p = m.player_to_act()
        if p is not None:
            return (p, "action") if table.is_bot(p) else None
        if m.deal.is_over and all(table.is_bot(i) for i in range(len(table.names))):
            return (None, "next_deal")
        return None

    def schedule_bot(self, table: Table) -> None:
        """Start the task that plays the due computer move after the delay (once)."""
        if self.bot_due(table) is None:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bot_move(table))

    def _delay(self) -> float:
        if self.bot_delay is None:
            return self._delay_rng.uniform(0.7, 1.2)
        return max(0.0, float(self.bot_delay))

    async def _bot_move(self, table: Table) -> None:
        await asyncio.sleep(self._delay())
        table = self.tables.get(table.id, table)
        due = self.bot_due(table)
        if due is None:
            if table.unsent:
                await self.changed(table)  # type: ignore[attr-defined]
            return
        player, what = due
        table.bot_task = None  # the moves below schedule the next computer move themselves
        stale = False
        try:
            stale = await self._bot_step(table, player, what)
        finally:
            # the state of a person's move that waited for this answer goes out in any case
            table = self.tables.get(table.id, table)
            if table.unsent:
                await self.changed(table)  # type: ignore[attr-defined]
        if stale:
            # another task moved first, so this choice was refused: the move due now is made
            # by a task of its own (else nobody would make it and the table would wait for good)
            if table.bot_task is asyncio.current_task():
                table.bot_task = None
            self.schedule_bot(table)

    async def _bot_step(self, table: Table, player: int | None, what: str) -> bool:
        """Make the due computer move; whether it was refused because another task's move had
        changed the table meanwhile (the choice was made from the state before it)."""
        seq = table.seq
        try:
            if what == "next_deal":
                await self.next_deal(table, None)  # type: ignore[attr-defined]
            else:
                assert player is not None
                action = bot_choice(table, player, table.seq, table.started_match().view(player))
                await self.act(table, player, action)  # type: ignore[attr-defined]
        except (IllegalActionError, TableError):
            if self.tables.get(table.id, table).seq != seq:
                log.debug("computer move at table %s overtaken by another move", table.id)
                return True
            log.exception("computer move failed at table %s", table.id)
        except Exception:
            log.exception("computer move failed at table %s", table.id)
        return False

    def start(self) -> None:
        """Deal every first deal whose client seeds are all in (a restart may have come between
        the last seed and the deal), schedule every pending computer move and arm every running
        clock (call from the running event loop)."""
        loop = asyncio.get_running_loop()
        for t in list(self.tables.values()):
            if t.match is None and t.fair and not t.waiting_for:
                loop.create_task(self._deal_when_started(t))
            self.schedule_bot(t)
            self.schedule_clock(t)

    async def _deal_when_started(self, table: Table) -> None:
        try:
            async with self._lock(table):  # type: ignore[attr-defined]
                await self._deal_first_if_ready(self.tables.get(table.id, table))  # type: ignore[attr-defined]
            await self.changed(table)  # type: ignore[attr-defined]
        except TableError:  # pragma: no cover - another process dealt it first
            pass

    async def stop(self) -> None:
        """Cancel the pending computer moves; write the steps waiting for a commit."""
        for t in self.tables.values():
            if t.bot_task is not None:
                t.bot_task.cancel()
            if t.clock_timer is not None:
                t.clock_timer.cancel()
        await self.committer.stop()
