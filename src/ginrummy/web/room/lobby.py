"""The card room around the tables: the lobby of open tables, seats taken from it, spectators,
chat and rematch (``docs/protocol.md``, "The card room").

:class:`Room` is a collaborator of :class:`~ginrummy.web.room.tables.TableManager`: it holds the
manager as a :class:`~ginrummy.web.room.host.TableHost` (its ``tables``, ``store``, ``load``,
``create``, ``changed`` and ``send_to``).

* A **public** table is listed in the lobby (:meth:`Room.lobby`) until the match is over;
  anyone can take a free seat with one click (:meth:`Room.sit`) and anyone can watch it
  as a spectator, who is sent only what is public (:func:`ginrummy.views.spectator_json`).
* **Chat**: at most :data:`MAX_CHAT_CHARS` characters a message and :data:`CHAT_BURST`
  messages per :data:`CHAT_WINDOW` seconds per connection; text only (the pages show it with
  ``textContent``, and the content security policy runs no inline script); spectators neither
  read nor write the table chat unless the players allowed it when they made the table.  Chat
  is not stored: the last :data:`CHAT_KEPT` messages of a table live in memory.
* **Rematch**: once the match is over each person may ask; when all have, a new table with the
  same rules and seats opens (first dealer by R11.2), and each person gets his new seat link.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import ErrorCode, WebError
from ..levels import SeatKind, is_bot_kind, seat_level
from ..limits import CHAT_BURST, CHAT_WINDOW
from ..protocol.chat_guard import LOBBY, ChatGuard
from ..protocol.inbound import lobby_guest_name_help, lobby_name_help, plain_text
from ..texts import W_
from .clock import parse_time
from .names import is_computer_name, is_reserved_name, strip_invisible
from .seats import MAX_NAME_CHARS, SPECTATOR, SeatSpec, secret_hash

if TYPE_CHECKING:
    from .host import TableHost

__all__ = [
    "Room",
    "WATCHERS_INTERVAL",
    "MAX_CHAT_CHARS",
    "CHAT_BURST",
    "CHAT_WINDOW",
    "CHAT_KEPT",
    "MAX_LOBBY_TABLES",
    "LOBBY_IDLE_SECONDS",
]

WATCHERS_INTERVAL = 0.5
"""Seconds between two ``watchers`` messages of a table (who came and went meanwhile: one message)."""

MAX_CHAT_CHARS = 200
CHAT_KEPT = 50
MAX_LOBBY_TABLES = 100
LOBBY_IDLE_SECONDS = 600.0
"""An open table none of whose seated people is connected leaves the lobby this many seconds
after its last step (or its creation): a stranger who sits there would wait for nobody."""

UNSTARTED_LOBBY_SECONDS = 1800.0
"""An open table whose match has not started (a seat still waits for a player) leaves the lobby
this many seconds (30 minutes) after it was made, even while its host's page is open: a table
opened and forgotten is not listed for ever (issue 34).  Each entry says when (``"expires"``)."""

Send = Callable[[dict[str, Any]], Awaitable[None]]


def _iso(seconds: float) -> str:
    """``seconds`` since the epoch as ISO 8601 UTC to the second (``2026-12-04T20:15:00+00:00``)."""
    return datetime.fromtimestamp(round(seconds), UTC).isoformat()


class Limiter(Protocol):
    """A connection's chat rate limit (:class:`~ginrummy.web.limits.ChatLimiter`)."""

    def allow(self) -> bool: ...


class Room:
    """Lobby, seats from the lobby, spectators' chat rights, table and lobby chat, rematch, for
    the tables of ``host``."""

    def __init__(self, host: TableHost) -> None:
        self.host = host
        self.lobby_watchers: list[Send] = []
        self.lobby_chat: list[dict[str, Any]] = []
        self._lobby_pending = False
        self.watchers_interval = WATCHERS_INTERVAL
        """Seconds between two ``watchers`` messages of one table (a test may set 0)."""
        self._watchers_pending: set[str] = set()
        self.on_rematch: Callable[[Any, Any], None] | None = None
        """Called with ``(old_table, new_table)`` once a rematch table is made, before anyone
        is sent its link: the players' ladder (:mod:`ginrummy.web.community.members`) carries the seats'
        accounts and the rated mark over to it."""
        self.guard = ChatGuard()
        """Who sees whose chat (blocks and mutes)."""
        self.rematch_refused: Callable[[Any], Any] | None = None
        """A table -> why its rematch may not open (two of its accounts blocked one another,
        a ban), else ``None``: set by the players' ladder."""
        self.account_name_taken: Callable[[str], bool] | None = None
        """Whether a name is an account's (:meth:`ginrummy.web.community.accounts.Accounts.name_in_use`,
        set by the players' ladder): a guest may not chat in the lobby under it."""

    # -- the lobby ---------------------------------------------------------------------------

    def lobby_entry(self, table: Any) -> dict[str, Any]:
        """One open table as the lobby lists it: ``{"id", "rules": {"preset"...}, "seats":
        [{"name", "kind", "level", "free", "bot"?}], "started", "watchers", "rated", "host", "created",
        "expires"}``: ``host`` the name of the person who opened it (his seat has no invite;
        ``None`` when every seat was an invitation), ``created`` when it was made and ``expires``
        when it leaves the lobby unless its match has started (``None`` once it has), both ISO
        8601 UTC."""
        free = {s.player for s in table.seat_secrets if s.token_hash is None}
        hosts = [s.player for s in table.seat_secrets if s.invite_hash is None and s.player not in free]
        created = parse_time(table.row.created)
        started = table.match is not None
        return {
            "id": table.id,
            "rules": {k: table.row.rules.get(k) for k in ("name", "variant", "scoring", "target")},
            "seats": [
                {
                    "name": n,
                    "kind": "human" if k == "human" else "computer",
                    "level": seat_level(k) if is_bot_kind(k) else None,
                    "free": i in free,
                    **({"bot": True} if i in table.bot_seats else {}),  # a bot account's seat (docs/bot-api.md)
                }
                for i, (n, k) in enumerate(zip(table.names, table.row.seats))
            ],
            "started": started,
            "watchers": table.spectators,
            "rated": getattr(table, "rating", None) is not None,  # set by the players' ladder
            "host": table.names[hosts[0]] if hosts else None,
            "created": table.row.created,
            "expires": None if started or not created else _iso(created + table.lobby_seconds(UNSTARTED_LOBBY_SECONDS)),
            "days": table.clock.days if table.clock is not None else 0,  # a turn-based table's days a move
        }

    def lobby(self) -> list[dict[str, Any]]:
        """The public tables whose match is not over and that someone still plays or waits at
        (:meth:`attended`), and not left unstarted for :data:`UNSTARTED_LOBBY_SECONDS`
        (:meth:`expired`), at most :data:`MAX_LOBBY_TABLES`: those with a free seat first, then
        the newest first."""
        listed = sorted(
            (
                t
                for t in self.host.tables.values()
                if t.public and not t.over and self.attended(t) and not self.expired(t)
            ),
            key=lambda t: t.row.created or "",
            reverse=True,
        )
        out = [self.lobby_entry(t) for t in listed]
        out.sort(key=lambda e: not any(s["free"] for s in e["seats"]))  # stable: newest first within
        return out[:MAX_LOBBY_TABLES]

    def expired(self, table: Any) -> bool:
        """Whether ``table``'s match has not started and it was made :data:`UNSTARTED_LOBBY_SECONDS`
        (a turn-based table's days) or more ago by :attr:`now` (then it is no longer listed)."""
        created, wait = parse_time(table.row.created), table.lobby_seconds(UNSTARTED_LOBBY_SECONDS)
        return table.match is None and bool(created) and self.host.now() - created >= wait

    def attended(self, table: Any) -> bool:
        """Whether a person who took a seat at ``table`` is connected to this server, or its
        last step (or its creation, before any) is less than :data:`LOBBY_IDLE_SECONDS` old
        by :attr:`now`, or it is turn-based.  An open table whose host went away leaves the lobby after that."""

        free = {s.player for s in table.seat_secrets if s.token_hash is None}
        if any(p != SPECTATOR and p not in free and not table.is_bot(p) for p, _ in table.watchers):
            return True
        last = table.last_write or parse_time(table.row.created)
        return not last or table.turn_based or self.host.now() - last < LOBBY_IDLE_SECONDS

    def watch_lobby(self, send: Send) -> None:
        self.lobby_watchers.append(send)

    def unwatch_lobby(self, send: Send) -> None:
        if send in self.lobby_watchers:
            self.lobby_watchers.remove(send)

    def lobby_changed(self) -> None:
        """Send the lobby list to every lobby watcher soon (many changes in one loop turn are
        sent once)."""
        if self._lobby_pending or not self.lobby_watchers:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not on the event loop (a table made by a script): no one to tell
            return
        self._lobby_pending = True
        loop.create_task(self._send_lobby())

    async def _send_lobby(self) -> None:
        await asyncio.sleep(0)
        self._lobby_pending = False
        msg = {"type": "lobby", "tables": self.lobby()}
        for send in list(self.lobby_watchers):
            try:
                await send(msg)
            except Exception:
                self.unwatch_lobby(send)

    # -- spectators -----------------------------------------------------------------------

    async def spectator_came(self, table: Any, send: Send) -> None:
        """A spectator connected to ``table`` (already among its watchers, with ``send``): he
        is sent the table's state; the others only learn the new count, in one small
        ``{"type": "watchers", "count", "seq"}`` message at most every :attr:`watchers_interval`
        seconds (:meth:`spectators_changed`), not a fresh state each (1,000 spectators cost a
        state per watcher per arrival before: O(watchers²))."""

        await self.host.send_to(table, SPECTATOR, send, table.state_for(SPECTATOR))
        self.spectators_changed(table)

    def spectators_changed(self, table: Any) -> None:
        """Tell ``table``'s watchers its spectator count soon (and the lobby, for a public
        table): one ``watchers`` message per :attr:`watchers_interval` whatever came and went."""
        if table.public:
            self.lobby_changed()
        if table.id in self._watchers_pending:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - not on the event loop: no one to tell
            return
        self._watchers_pending.add(table.id)
        loop.create_task(self._send_watchers(table.id))

    async def _send_watchers(self, table_id: str) -> None:
        try:
            await asyncio.sleep(self.watchers_interval)
        finally:
            self._watchers_pending.discard(table_id)
        table = self.host.tables.get(table_id)
        if table is None:
            return
        msg = {"type": "watchers", "count": table.spectators, "seq": table.seq}
        for p, send in list(table.watchers):
            await self.host.send_to(table, p, send, msg)

    async def sit(self, table_id: str, player: int, name: str, account: str | None = None) -> tuple[Any, str]:
        """Take the free seat ``player`` of a public table as ``name`` (cut and made unique as
        at creation; empty keeps the seat's name), or under ``account``, the name of the
        signed-in person who sits (whatever ``name`` says): ``(table, token)``, a token minted now.
        A guest's ``name`` that is an account's or passes for one (:attr:`account_name_taken`)
        is refused (``bad_request``), as a computer's or a reserved one.
        Raises :class:`~ginrummy.web.room.tables.WebError`: ``not_found``, ``not_allowed`` for a
        private table or a seat that is not a person's, ``claimed`` when the seat is taken,
        ``bad_request`` for a computer seat's name or a reserved one ("System",
        :func:`~ginrummy.web.room.names.is_reserved_name`)."""

        table = self.host.load(table_id)
        if not table.public:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("this table is private: its seats are taken only by invite links"))
        free = {s.player for s in table.seat_secrets if s.token_hash is None}
        if player not in {s.player for s in table.seat_secrets}:
            # "seat" counts from 0, as the request's field does: name the seats one may take
            raise WebError(
                ErrorCode.NOT_ALLOWED,
                W_(
                    '"seat": {seat} is not a person\'s seat at this table; free seats: {free}',
                    seat=player,
                    free=", ".join(str(p) for p in sorted(free)) or "-",
                ),
            )
        if player not in free or table.match is not None:
            raise WebError(ErrorCode.CLAIMED, W_("that seat is taken"))
        names = list(table.names)
        wanted = " ".join(strip_invisible(plain_text(name)).split())[:MAX_NAME_CHARS]

        if account is not None:
            wanted = account
        elif wanted and self.account_name_taken is not None and self.account_name_taken(wanted):
            raise WebError(
                ErrorCode.BAD_REQUEST,
                W_(
                    "the name {name} is an account's, or looks like one; choose another "
                    "(or sign in to sit under your account's name)",
                    name=wanted,
                ),
            )
        elif is_computer_name(wanted):
            raise WebError(
                ErrorCode.BAD_REQUEST, W_("the name {name} is a computer seat's; choose another", name=wanted)
            )
        elif is_reserved_name(wanted):
            raise WebError(ErrorCode.BAD_REQUEST, W_("the name {name} is reserved; choose another", name=wanted))
        if wanted:
            base, k = wanted, 2
            while wanted.casefold() in (n.casefold() for i, n in enumerate(names) if i != player):
                wanted = f"{base} {k}"
                k += 1
            names[player] = wanted
        token = secrets.token_urlsafe(18)
        if not self.host.store.take_seat(table.id, player, secret_hash(token), names):
            raise WebError(ErrorCode.CLAIMED, W_("that seat is taken"))
        table.row = type(table.row)(**{**table.row.__dict__, "names": names})
        table.seat_secrets = self.host.store.seat_secrets(table.id)
        if account is not None:
            table.signed_in.add(player)
        await self.host.changed(table)
        return table, token

    # -- chat ------------------------------------------------------------------------------

    async def say(
        self,
        table: Any,
        player: int,
        text: str,
        limiter: Limiter,
        watcher: int | None = None,
        account: int | None = None,
    ) -> None:
        """Post ``text`` (already folded and bounded by the schema) to the table chat as
        ``player`` (or a spectator, when allowed; ``watcher`` is his number at this table,
        1 for the first spectator connection this server opened to it, sent as ``"watcher"``
        so that the players can tell spectators apart without learning who they are).
        ``account``: the sender's account id when signed in: the line is kept from those who
        blocked or muted him and those he blocked (:class:`~ginrummy.web.protocol.chat_guard.ChatGuard`).
        Raises ``WebError`` (``not_allowed``) for a spectator without the right or a sender
        over the rate limit."""

        if player == SPECTATOR and not table.options.get("spectator_chat"):
            raise WebError(ErrorCode.NOT_ALLOWED, W_("spectators cannot chat at this table"))
        if not limiter.allow():
            raise WebError(
                ErrorCode.NOT_ALLOWED,
                W_("slow down: at most {n} messages in {s} seconds", n=CHAT_BURST, s=int(CHAT_WINDOW)),
            )
        entry = {
            "type": "chat",
            "from": None if player == SPECTATOR else table.names[player],
            "spectator": player == SPECTATOR,
            "text": text,
            "seq": table.seq,
        }
        if player == SPECTATOR:
            entry["watcher"] = watcher
        elif player in table.bot_seats:
            entry["bot"] = True  # a bot account's line (docs/bot-api.md)
        table.chat.append(entry)
        del table.chat[:-CHAT_KEPT]
        self.guard.note(table.id, table.chat, entry, account)
        kept = self.guard.kept_from_line(account)
        for p, send in list(table.watchers):
            if table.sees_chat(p) and self.guard.viewers.get(send) not in kept:
                await self.host.send_to(table, p, send, entry)

    async def say_in_lobby(
        self,
        name: str | None,
        text: str,
        limiter: Limiter,
        *,
        account: str | None = None,
        account_id: int | None = None,
    ) -> None:
        """Post ``text`` to the lobby chat (``docs/protocol.md``, "Chat").

        ``account``: the name of the signed-in account of the sender's session cookie, or
        ``None`` for a guest.  A signed-in person posts under his account's name, whatever
        ``name`` says (``None``: he gave none, which he need not):
        ``{"type": "chat", "from": account, "account": true, "text"}``; ``account_id`` is his
        account's id (his line is kept from those who blocked or muted him).  A guest
        posts under ``name`` (folded by :func:`~ginrummy.web.protocol.inbound.plain_text`, at most 24
        characters), marked: ``{"type": "chat", "from": name, "guest": true, "text"}`` (the page
        shows "(guest)" after it), unless that name is a computer seat's
        (:func:`~ginrummy.web.room.tables.is_computer_name`) or an account's
        (:attr:`account_name_taken`, compared by :func:`~ginrummy.web.room.names.name_key`), which
        would let him pass for the computer or for that account holder, or a reserved name
        (:func:`~ginrummy.web.room.names.is_reserved_name`: "System"), which would pass for the
        server's own line.

        Raises ``WebError``, and then posts nothing: ``not_allowed`` over the rate limit
        (:data:`CHAT_BURST` messages in :data:`CHAT_WINDOW` seconds), ``bad_message`` for a
        guest's line without a name (:func:`~ginrummy.web.protocol.inbound.lobby_guest_name_help`), ``bad_request`` for a
        guest's name that is empty once folded, a computer seat's, a reserved one or an account's."""

        if account is None and name is None:  # before the rate limit: the line was never a line
            raise WebError(ErrorCode.BAD_MESSAGE, lobby_guest_name_help())
        if not limiter.allow():
            raise WebError(
                ErrorCode.NOT_ALLOWED,
                W_("slow down: at most {n} messages in {s} seconds", n=CHAT_BURST, s=int(CHAT_WINDOW)),
            )
        entry: dict[str, Any]
        if account is not None:
            entry = {"type": "chat", "from": account, "account": True, "text": text}
        else:
            shown = " ".join(strip_invisible(plain_text(name or "")).split())[:MAX_NAME_CHARS]
            if not shown:
                raise WebError(ErrorCode.BAD_REQUEST, lobby_name_help())
            if is_computer_name(shown):
                raise WebError(
                    ErrorCode.BAD_REQUEST,
                    W_(
                        "the name {name} is a computer seat's; a guest may chat under any "
                        "other name (or sign in to chat under your account's)",
                        name=shown,
                    ),
                )
            if is_reserved_name(shown):
                raise WebError(
                    ErrorCode.BAD_REQUEST,
                    W_(
                        "the name {name} is reserved; a guest may chat under any "
                        "other name (or sign in to chat under your account's)",
                        name=shown,
                    ),
                )
            taken = self.account_name_taken
            if taken is not None and taken(shown):
                raise WebError(
                    ErrorCode.BAD_REQUEST,
                    W_(
                        "the name {name} is an account's; a guest may chat under any "
                        "other name (or sign in to chat under your account's)",
                        name=shown,
                    ),
                )
            entry = {"type": "chat", "from": shown, "guest": True, "text": text}
        self.lobby_chat.append(entry)
        del self.lobby_chat[:-CHAT_KEPT]
        self.guard.note(LOBBY, self.lobby_chat, entry, account_id)
        kept = self.guard.kept_from_line(account_id)
        for send in list(self.lobby_watchers):
            if self.guard.viewers.get(send) in kept:
                continue
            try:
                await send(entry)
            except Exception:
                self.unwatch_lobby(send)

    # -- rematch ---------------------------------------------------------------------------

    async def ask_rematch(self, table: Any, player: int, base_of: Callable[[Send], str | None]) -> None:
        """``player`` asks for a rematch.  When every person at the table has asked, a new table
        opens with the same rules, seats and options, its first dealer by R11.2 (two-hand), the
        same accounts at the same seats (:attr:`on_rematch`: a rematch of a rated match is
        rated), and each person connected is sent ``{"type": "rematch", "id", "link"}`` with his
        own new seat link, made from his own connection: ``base_of(send)`` is the start of the
        links of the connection ``send`` (its own ``Host``, checked, or the configured public
        URL; never the asker's); ``None``: the link is the path alone (``/table/ID?seat=...``).  Raises ``WebError`` (``not_allowed``) before the match is over or for a
        spectator."""

        m = table.match
        if m is None or not table.over:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("a rematch can be asked for once the match is over"))
        if player not in table.humans:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("only a player at the table can ask for a rematch"))
        refused = None if self.rematch_refused is None else self.rematch_refused(table)
        if refused is not None:
            raise WebError(ErrorCode.BLOCKED, refused)
        if table.options.get("tournament"):
            raise WebError(
                ErrorCode.NOT_ALLOWED, W_("a tournament's table has no rematch: its next round is paired for you")
            )
        table.rematch_votes.add(player)
        if set(table.humans) - table.rematch_votes:
            await self.host.changed(table)
            return
        seats = [
            SeatSpec(
                kind=SeatKind.BOT if is_bot_kind(k) else SeatKind.HUMAN,
                name=n,
                level=seat_level(k) if is_bot_kind(k) else "",
            )
            for n, k in zip(table.names, table.row.seats)
        ]
        # a daily deal's rematch is an ordinary game: a seed of its own, dealt with client seeds
        options = {**{k: v for k, v in table.options.items() if k != "daily"}, "rematch_of": table.id}
        new, shown = self.host.create(
            m.rules,
            seats,
            options=options,
            seat_all=True,
            first_dealer=m.next_dealer() if m.finished else None,
            allowed_names=list(table.names),
        )
        if self.on_rematch is not None:
            self.on_rematch(table, new)
        table.rematch_votes = set()
        table.options = {**table.options, "rematch": new.id}
        for p, send in list(table.watchers):
            if p in shown:
                await self.host.send_to(
                    table,
                    p,
                    send,
                    {
                        "type": "rematch",
                        "id": new.id,
                        "link": f"{base_of(send) or ''}/table/{new.id}?seat={shown[p][1]}",
                    },
                )
        await self.host.changed(table)
