"""The moves the server makes by itself: the computer players' moves (after the table's bot
delay) and the move of a person whose clock ran out (``docs/protocol.md``, "Clocks"), the
first deals a restart found ready to deal, and the end of a match by a player who resigned or
left (``docs/protocol.md``, "Leaving and resigning").

Leaving: at a rated table whose match is in play, a person whose last connection to this
process closed is *away* (``Table.away``); when he is still away :attr:`TableHost.leave_grace`
seconds later and his opponent is not, the opponent may claim the win (``claim``), and the
server ends the match itself :data:`CLAIM_AFTER` seconds after that: a ``left`` step, stored
with the match's result in one transaction (the ``on_end`` hook), as a forfeit on time is.
A reconnect within the grace stops the countdown.

:class:`AutoPlay` is a collaborator of :class:`~ginrummy.web.room.tables.TableManager`: it holds
the manager as a :class:`~ginrummy.web.room.host.TableHost` (its ``tables``, ``now``,
``bot_delay``, ``act``, ``next_deal``, ``changed`` and its store writer).  Every choice is seeded by the match
seed and the step, so a restart makes the same move (the engine itself stays pure and
synchronous; the scheduling is asyncio's).
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from typing import TYPE_CHECKING, Any

from ...compete.correspondence import late
from ...errors import IllegalActionError
from ...players import make_player
from ..db.store import StepKind
from ..errors import ErrorCode, WebError
from ..levels import seat_level
from ..texts import W_
from .thinking import CHEAP_LEVELS, FALLBACK_LEVEL, decision_seed, move_deadline, move_text

if TYPE_CHECKING:
    from ...actions import Action
    from ...deal import DealState
    from ...views import PlayerView
    from .host import TableHost
    from .table import Table

__all__ = ["AutoPlay", "bot_choice", "CLAIM_AFTER", "DEFAULT_LEAVE_GRACE"]

DEFAULT_LEAVE_GRACE = 60.0
"""Seconds a person of a rated match may be away before his opponent may claim the win
(``gin serve --leave-grace``)."""

CLAIM_AFTER = 5.0
"""Seconds after the end of the grace period at which the server ends the match itself when
the opponent has not claimed the win."""

log = logging.getLogger("ginrummy.web")


def bot_choice(table: Table, player: int, seq: int, view: PlayerView) -> Action:
    """The move of computer seat ``player`` (its level from the seat kind) in ``view``, when
    ``seq`` steps are stored, decided in this process: its random choices are seeded by the
    match seed, the player and ``seq`` (:func:`~ginrummy.web.room.thinking.decision_seed`), so the
    same table and step give the same move, after a restart too, and in a worker of the
    :class:`~ginrummy.web.room.thinking.ThinkingPool` (:meth:`AutoPlay.think_move`)."""
    seed = decision_seed(table.row.seed, "bot", player, seq)
    return _by_text(view, move_text(seat_level(table.seat_kind(player)), seed, view))


def _by_text(view: PlayerView, text: str) -> Action:
    for a in view.legal:
        if a.text == text:
            return a
    raise IllegalActionError(f"the computer chose {text!r}, not a legal action now")  # pragma: no cover


class AutoPlay:
    """Computer moves, clock timeouts, and the start and stop of that scheduling, for the tables
    of ``host``."""

    def __init__(self, host: TableHost) -> None:
        self.host = host
        self._delay_rng = random.Random()

    def owner_of(self, table: Table) -> str:
        """The fair queue's owner of ``table``'s computer moves (:mod:`~ginrummy.web.room.thinking`):
        the address of the last person who connected to a seat, else the table itself."""
        return f"addr:{table.owner}" if table.owner else f"table:{table.id}"

    async def think_move(
        self, table: Table, player: int, seq: int, view: PlayerView, *, announce: bool = False
    ) -> Action:
        """The move of computer seat ``player`` in ``view`` after ``seq`` stored steps: the move
        :func:`bot_choice` makes, decided in a worker process for the levels that sample (the
        cheap levels, :data:`~ginrummy.web.room.thinking.CHEAP_LEVELS`, decide here).  A worker past
        its deadline (:func:`~ginrummy.web.room.thinking.move_deadline`) gets the
        :data:`~ginrummy.web.room.thinking.FALLBACK_LEVEL`'s move from the same seed instead.
        ``announce``: tell the table's watchers the computer is thinking (``{"type":
        "thinking", "player", "ahead"}``, ``docs/protocol.md``)."""
        level = seat_level(table.seat_kind(player))
        seed = decision_seed(table.row.seed, "bot", player, seq)
        if level in CHEAP_LEVELS:
            return _by_text(view, move_text(level, seed, view))

        def queued(ahead: int) -> None:
            if announce and table.watchers:
                msg = {"type": "thinking", "player": player, "seq": seq, "ahead": ahead}
                for p, send in list(table.watchers):
                    asyncio.get_running_loop().create_task(self.host.send_to(table, p, send, msg))

        text = await self.host.thinking.run(
            move_text,
            (level, seed, view),
            owner=self.owner_of(table),
            table=table.id,
            deadline=move_deadline(level),
            fallback=lambda: move_text(FALLBACK_LEVEL, seed, view),
            on_queued=queued,
        )
        return _by_text(view, text)

    async def check_clock(self, table: Table) -> bool:
        """When the running clock of ``table`` has run out (by :attr:`now`: past its deadline,
        :func:`~ginrummy.compete.correspondence.late`; a move made at the deadline itself is in
        time), make the person's move with the ``novice`` level (seeded by the match seed and
        the step, so a restart makes the same move) and count it; the third in a row forfeits
        the match.  At a turn-based table (days a move), and between deals at any table (the
        next deal waited for his client seed or his ``next_deal``: no move can be made for
        him), no move is made: the person forfeits the match at once (a ``time`` step,
        :meth:`end_match`).  Returns whether a step was stored."""
        table = self.host.current(table)
        deadline = None if table.clock is None else table.clock.deadline()
        if deadline is None or not late(deadline, self.host.now()) or table.match is None:
            return False
        assert table.clock is not None  # it has a deadline
        player = table.clock.turn
        assert player is not None
        if table.clock.turn_based or table.match.player_to_act() is None:
            await self.end_match(table, player, "time")
            return True
        rng = random.Random(decision_seed(table.row.seed, "timeout", player, table.seq))
        view = table.match.view(player)
        if not view.legal:  # pragma: no cover - the clock only runs for the player to act
            return False
        action = make_player("novice", rng).choose(view, view.legal)
        await self.host.act(table, player, action.text, kind=StepKind.TIMEOUT)
        return True

    async def answer(self, table: Table, deal: DealState) -> list[tuple[int, Action, tuple[DealState, DealState, Any]]]:
        """The computer's immediate answer to a person's move, worked out before the move is
        stored, so that the move and the answer go into one transaction: with no bot delay
        and holding on (the host's ``held_steps``), the moves of the computer seat to act in
        ``deal`` (the state after the person's move), each ``(player, action, (state, new
        state, events))``, at most ``held_steps - 1`` of them, up to a person's turn.  The
        moves are those the computer would make after the stored steps (:func:`bot_choice`,
        seeded by the step; decided in the thinking pool, :meth:`think_move`), so nothing
        differs from making them one by one.  A move that would end the deal (a knock, a gin,
        the end of the stock, R5-R7) is left out: it is made after the stored steps like any
        other, since the end of a match has work of its own in its transaction (the manager's ``on_finish``)."""
        if self.host.bot_delay != 0 or self.host.held_steps < 2:
            return []
        m = table.started_match()
        out: list[tuple[int, Action, tuple[DealState, DealState, Any]]] = []
        while len(out) < self.host.held_steps - 1 and deal.to_act is not None:
            p = m.seat_players[deal.to_act]
            if not table.is_bot(p):
                break
            action = await self.think_move(table, p, table.seq + 1 + len(out), m.view(p, deal))
            if action.kind in ("knock", "gin", "big_gin"):
                break
            new, events = deal.apply(deal.to_act, action)
            if new.result is not None:
                break
            out.append((p, action, (deal, new, events)))
            deal = new
        return out

    async def overdue(self, table: Table) -> Table:
        """``table`` once a clock of it that has run out (by :attr:`now`, past its deadline) has
        had its step (:meth:`check_clock`): a person's step that comes after his deadline but
        before the timer did its work finds it done (the match forfeited, or his move made for
        him) and is judged on that, so no step is taken late.  Called first by the manager's
        ``act``, ``client_seed`` and ``next_deal``."""
        await self.check_clock(table)
        return self.host.current(table)

    def schedule_clock(self, table: Table) -> None:
        """(Re)arm the timer that times out the running clock of ``table``."""
        if table.clock_timer is not None:
            table.clock_timer.cancel()
            table.clock_timer = None
        deadline = None if table.clock is None else table.clock.deadline()
        if deadline is None:
            return
        loop = asyncio.get_running_loop()
        table.clock_timer = loop.call_later(
            max(0.0, deadline - self.host.now()) + 0.01, lambda: loop.create_task(self._clock_due(table))
        )

    async def _clock_due(self, table: Table) -> None:
        try:
            if not await self.check_clock(table):
                self.schedule_clock(self.host.current(table))
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
        if self.host.bot_delay is None:
            return self._delay_rng.uniform(0.7, 1.2)
        return max(0.0, float(self.host.bot_delay))

    async def _bot_move(self, table: Table) -> None:
        await asyncio.sleep(self._delay())
        table = self.host.current(table)
        due = self.bot_due(table)
        if due is None:
            if table.unsent:
                await self.host.changed(table)
            return
        player, what = due
        stale = False
        try:
            stale = await self._bot_step(table, player, what)
        finally:
            # the state of a person's move that waited for this answer goes out in any case
            table = self.host.current(table)
            if table.unsent:
                await self.host.changed(table)
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
                table.bot_task = None  # the moves below schedule the next computer move themselves
                await self.host.next_deal(table, None)
            else:
                assert player is not None
                action = await self.think_move(table, player, seq, table.started_match().view(player), announce=True)
                if self.host.current(table).seq != seq:  # moved on while it thought
                    log.debug("computer move at table %s overtaken while thinking", table.id)
                    return True
                # still this task's until the move is made (a state sent meanwhile must not
                # start a second decision); the move below schedules the next one itself
                table.bot_task = None
                table = self.host.current(table)
                table.bot_task = None
                await self.host.act(table, player, action)
        except (IllegalActionError, WebError):
            if self.host.current(table).seq != seq:
                log.debug("computer move at table %s overtaken by another move", table.id)
                return True
            log.exception("computer move failed at table %s", table.id)
        except Exception:
            log.exception("computer move failed at table %s", table.id)
        return False

    def start(self) -> None:
        """Deal every first deal whose client seeds are all in (a restart may have come between
        the last seed and the deal), schedule every pending computer move and arm every running
        clock (call from the running event loop).  On a server of its own (no follower), every
        person of a rated match in play is away from now on until he connects (:meth:`left_seat`)."""
        loop = asyncio.get_running_loop()
        alone = getattr(self.host, "follower", None) is None
        for t in list(self.host.tables.values()):
            if t.match is None and t.fair and not t.waiting_for:
                loop.create_task(self._deal_when_started(t))
            self.schedule_bot(t)
            self.schedule_clock(t)
            if alone:
                for p in t.humans:
                    self.left_seat(t, p)

    # -- leaving and resigning ----------------------------------------------------------------

    def _leaves(self, table: Table) -> bool:
        """Whether leaving ``table`` forfeits: a rated two-hand match in play, not turn-based
        (there a person comes and goes over days; his clock alone decides)."""
        return (
            table.rated
            and not table.turn_based
            and len(table.names) == 2
            and table.match is not None
            and not table.over
        )

    def leaving(self, table: Table) -> tuple[int, float] | None:
        """``(player, deadline)``: the person of ``table`` who is away while his opponent is
        not, and when his grace period ends (seconds since the epoch); ``None`` if nobody is
        (or both are) away, or leaving does not forfeit here."""
        if not self._leaves(table) or len(table.away) != 1:
            return None
        ((player, since),) = table.away.items()
        return player, since + self.host.leave_grace

    def left_seat(self, table: Table, player: int) -> None:
        """``player``'s connection to ``table`` closed: if it was his last one here, he is away
        from now (and the countdown is armed)."""
        table = self.host.current(table)
        if not self._leaves(table) or player not in table.humans or any(p == player for p, _ in table.watchers):
            return
        table.away.setdefault(player, self.host.now())
        self.schedule_leave(table)

    def came_back(self, table: Table, player: int) -> None:
        """``player`` connected to ``table``: he is no longer away (his countdown stops)."""
        table = self.host.current(table)
        if table.away.pop(player, None) is not None:
            self.schedule_leave(table)

    def schedule_leave(self, table: Table) -> None:
        """(Re)arm the timer that ends ``table``'s match :data:`CLAIM_AFTER` seconds after the
        grace period of the person away."""
        if table.leave_timer is not None:
            table.leave_timer.cancel()
            table.leave_timer = None
        due = table.leave_due = self.leaving(table)
        if due is None:
            return
        loop = asyncio.get_running_loop()
        wait = max(0.0, due[1] + CLAIM_AFTER - self.host.now()) + 0.01
        table.leave_timer = loop.call_later(wait, lambda: loop.create_task(self._leave_due(table)))

    async def _leave_due(self, table: Table) -> None:
        table = self.host.current(table)
        due = self.leaving(table)
        try:
            if due is not None and self.host.now() >= due[1] + CLAIM_AFTER:
                await self.end_match(table, due[0], "left")
            else:
                self.schedule_leave(table)
        except Exception:  # pragma: no cover - the table moved on meanwhile (another process ended it)
            log.exception("ending the match of a player who left failed at table %s", table.id)

    async def claim_win(self, table: Table, player: int) -> None:
        """``player`` claims the win because his opponent is away past the grace period: the
        opponent forfeits by leaving.  Raises :class:`~ginrummy.web.errors.WebError` (``not_allowed``) when nobody
        is away from ``player``'s opponent's seat, or the grace period is not over (saying in
        how many seconds it is)."""
        table = self.host.current(table)
        due = self.leaving(table)
        if due is None or due[0] == player:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("you can claim the win only while your opponent is away"))
        wait = due[1] - self.host.now()
        if wait > 0:
            raise WebError(
                ErrorCode.NOT_ALLOWED,
                W_(
                    "you can claim the win in {seconds} seconds, if {name} is still away",
                    seconds=math.ceil(wait),
                    name=table.names[due[0]],
                ),
            )
        await self.end_match(table, due[0], "left")

    async def resign(self, table: Table, player: int) -> None:
        """``player`` resigns the match: he loses it (rated at a rated table).  Raises
        :class:`~ginrummy.web.errors.WebError` (``not_allowed``) before the first deal, once the match is over, or
        at a three-hand table."""
        await self.end_match(table, player, "resigned")

    async def end_match(self, table: Table, player: int, how: str) -> None:
        """End ``table``'s match with ``player`` losing it, ``how`` ``"resigned"``, ``"left"`` or
        ``"time"`` (a turn-based table's days ran out): store the step (``resign`` / ``left`` /
        ``time``) with the hook's recording of the result in one
        transaction, then tell every watcher.  Raises :class:`~ginrummy.web.errors.WebError` (``not_allowed``) when
        the match is not in play or not two-hand (nothing changes)."""
        kind = {"resigned": StepKind.RESIGN, "time": StepKind.TIME}.get(how, StepKind.LEFT)
        async with self.host.lock(table):
            table = self.host.current(table)
            if len(table.names) != 2:
                raise WebError(ErrorCode.NOT_ALLOWED, W_("a match can be resigned only at a two-hand table"))
            if table.match is None:
                raise WebError(ErrorCode.NOT_ALLOWED, W_("the match has not started yet: there is nothing to resign"))
            if table.over:
                raise WebError(ErrorCode.NOT_ALLOWED, W_("the match is over already"))
            hook = self.host.on_end
            also = hook(table, player, how) if hook is not None else None
            await self.host._write(table, player, kind, kind.value, also)
            table.ended = (player, how)
            table.stored(kind, player)
            table.away.clear()
            self.schedule_leave(table)
        await self.host.changed(table)

    async def _deal_when_started(self, table: Table) -> None:
        try:
            async with self.host.lock(table):
                await self.host.deal_first_if_ready(self.host.current(table))
            await self.host.changed(table)
        except WebError:  # pragma: no cover - another process dealt it first
            pass

    async def stop(self) -> None:
        """Cancel the pending computer moves, stop the thinking pool's processes; write the
        steps waiting for a commit."""
        self.host.thinking.close()
        for t in self.host.tables.values():
            if t.bot_task is not None:
                t.bot_task.cancel()
            if t.clock_timer is not None:
                t.clock_timer.cancel()
            if t.leave_timer is not None:
                t.leave_timer.cancel()
        await self.host.committer.stop()
