"""The computer's advice at the table: the hint (what the table's hint player would do for the
player to act) and the adviser's suggestion to the captain (R10.2).

:class:`Advice` is a collaborator of :class:`~ginrummy.web.room.tables.TableManager` (whose
``hint`` and ``suggest`` are its methods); it holds the manager as a
:class:`~ginrummy.web.room.host.TableHost`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...actions import Action
from ..errors import ErrorCode, WebError
from ..texts import W_
from .table import Table
from .thinking import CHEAP_LEVELS, FALLBACK_LEVEL, HINT_DEADLINE, decision_seed, hint_text

if TYPE_CHECKING:
    from .host import TableHost

__all__ = ["Advice"]


class Advice:
    """Hints and suggestions at the tables of ``host``."""

    def __init__(self, host: TableHost) -> None:
        self.host = host

    async def suggest(self, table: Table, player: int, text: str) -> None:
        """Record the adviser's suggestion for the captain (R10.2) and send it to both.
        Raises :class:`WebError` (``not_allowed``) for anyone but the adviser."""
        m = table.match
        if m is None or m.roles is None or m.roles[2] != player:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("only the player sitting out advises the captain (R10.2)"))
        if m.deal.is_over:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("the deal is over"))
        if table.rated:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("a rated match is played without advice: no hints or suggestions"))
        entry = {"type": "suggestion", "from": table.names[player], "text": text, "seq": table.seq}
        table.suggestions.append(entry)
        del table.suggestions[:-20]
        for p, send in list(table.watchers):
            if p in (m.roles[1], m.roles[2]):
                await self.host.send_to(table, p, send, entry)

    async def hint(
        self, table: Table, player: int, *, owner: str | None = None, on_queued: Callable[[int], None] | None = None
    ) -> tuple[int, Action, str]:
        """What the table's hint player (:attr:`Table.hint_level`) would do for ``player`` now:
        ``(seq, action, reason)``, ``seq`` the step it is about, ``reason`` a
        :class:`~ginrummy.errors.Msg`.  The hint player is given only ``Match.view`` of the
        player to act and its legal actions; its random choices come from the match seed and
        the step, so the same position always gets the same hint (also for the adviser and the
        captain, R10.2).  Nothing changes.  Raises :class:`WebError` (``not_allowed``) at a
        rated table (:attr:`Table.rated`: no computer advice in rated play), and
        :class:`~ginrummy.errors.NotYourTurnError` when ``player`` may not ask (see
        :meth:`~ginrummy.web.room.table.Table.hint_target`).

        A sampling level's hint is worked out in the thinking pool (:mod:`ginrummy.web.room.thinking`)
        under the fair queue's key ``owner`` (the asker's address; default the table), within
        :data:`~ginrummy.web.room.thinking.HINT_DEADLINE` seconds of reaching a worker, else the
        :data:`~ginrummy.web.room.thinking.FALLBACK_LEVEL`'s hint from the same seed;
        ``on_queued(ahead)`` is told the jobs before it.  A hint asked while the same one (same
        step and player) is worked out shares that job."""
        table = self.host.current(table)
        if table.rated:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("a rated match is played without advice: no hints or suggestions"))
        target = table.hint_target(player)
        key = (table.seq, target)
        if key not in table.hints:
            job = table.hint_job
            if job is None or job[0] != key or job[1].done():
                job = (key, asyncio.get_running_loop().create_task(self._hint_job(table, key, owner, on_queued)))
                table.hint_job = job
            elif on_queued is not None:
                on_queued(0)
            action, reason = await asyncio.shield(job[1])
            table = self.host.current(table)
            if table.seq != key[0]:  # the deal moved on meanwhile: still the answer for that step
                return key[0], action, reason
            table.hints = {key: (action, reason)}
        action, reason = table.hints[key]
        return key[0], action, reason

    async def _hint_job(
        self, table: Table, key: tuple[int, int], owner: str | None, on_queued: Callable[[int], None] | None
    ) -> tuple[Action, str]:
        seq, target = key
        seed = decision_seed(table.row.seed, "hint", target, seq)
        view = table.started_match().view(target)
        level = table.hint_level
        if level in CHEAP_LEVELS:
            text, reason = hint_text(level, seed, view)
        else:
            text, reason = await self.host.thinking.run(
                hint_text,
                (level, seed, view),
                owner=f"addr:{owner}" if owner else f"table:{table.id}",
                table=table.id,
                deadline=HINT_DEADLINE,
                fallback=lambda: hint_text(FALLBACK_LEVEL, seed, view),
                on_queued=on_queued,
            )
        return next(a for a in view.legal if a.text == text), reason
