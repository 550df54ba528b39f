"""Opening tables and claiming their seats: the names and kinds of the seats asked for, the
secrets shown once to whoever opens a table, the store's write, and the one-time invites.

:class:`Opening` is a collaborator of :class:`~ginrummy.web.room.tables.TableManager` (whose
``create``, ``create_async``, ``opened`` and ``claim`` are its methods); it holds the manager as
a :class:`~ginrummy.web.room.host.TableHost`.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from ...match import Match
from ...rules import RuleSet
from ..db.store import SeatSecret, Store, TableRow
from ..errors import ErrorCode, WebError
from ..levels import SeatKind, bot_kind
from ..protocol.inbound import plain_text
from ..texts import W_, web_translator
from .names import computer_seat_name, is_computer_name, is_reserved_name, strip_invisible
from .seats import MAX_NAME_CHARS, SeatSpec, level_refusal, player_levels, secret_hash
from .table import Table

if TYPE_CHECKING:
    from .host import TableHost

__all__ = ["Opening"]


class Opening:
    """Creates the tables of ``host`` and seats the people who claim an invite."""

    def __init__(self, host: TableHost) -> None:
        self.host = host

    def create(
        self,
        rules: RuleSet,
        seats: list[SeatSpec],
        *,
        seed: bytes | None = None,
        lang: str = "en",
        options: dict[str, Any] | None = None,
        seat_all: bool = False,
        first_dealer: int | None = None,
        stored_later: bool = False,
        allowed_names: Collection[str] = (),
        table_id: str | None = None,
    ) -> tuple[Table, dict[int, tuple[str, str]]]:
        """A new table with ``seats`` (2, or 3 for three-hand gin, R10) under ``rules``; the
        match seed is 32 secret random bytes unless given.  Stored before it is returned.

        Returns ``(table, secrets)``: ``secrets[player]`` is ``("token", TOKEN)`` for the first
        human seat (whoever opens the table sits there) and ``("invite", CODE)`` for every
        other human seat: a one-time code that :meth:`claim` turns into a new token.  Only
        their hashes are stored; these values are shown once, to whoever opens the table.
        At a table with a person the first deal waits for the client seeds; a table of
        computer players is dealt at once.  ``options``: ``public`` (listed in the lobby, free
        seats taken with one click, spectators), ``spectator_chat``; ``seat_all`` gives every
        human seat a token (a rematch: the same people sit again); ``first_dealer`` (player 0
        or 1) deals first instead of R3.1's random choice (a rematch goes on by R11.2);
        ``stored_later`` leaves the store's write and :meth:`opened` to the caller
        (:meth:`create_async`).  A seat without a name gets "Player 2" or "Computer (novice)" in ``lang`` (the language
        of whoever opens the table; names are then fixed for everyone).

        Raises :class:`WebError` (``bad_request``) for a bad seat list or level, a person's seat named as a computer seat or
        with a reserved name ("System", :func:`~ginrummy.web.room.names.is_reserved_name`), and
        :class:`~ginrummy.errors.RuleSetError` for rules that do not fit (e.g. Hollywood with 3).
        A person's seat name is also refused when it is an account's or passes for one
        (:attr:`account_name_taken`), unless it is in ``allowed_names`` (the signed-in opener's
        own account name; a rematch's names).  ``table_id``: the id (letters and digits, at
        most 40) instead of a random one (a tournament's game, so that two processes opening it
        collide in the store).  Invisible characters are left out of every name
        (:func:`~ginrummy.web.room.names.strip_invisible`).
        """
        if not isinstance(seats, list) or len(seats) not in (2, 3):
            raise WebError(ErrorCode.BAD_REQUEST, W_("a table has 2 seats, or 3 for three-hand gin (R10)"))
        levels = player_levels()
        tr = web_translator(lang)
        names: list[str] = []
        kinds: list[str] = []
        for i, spec in enumerate(seats):
            name, kind = self._seat(i, spec, levels, tr, names, allowed_names)
            names.append(name)
            kinds.append(kind)
        rules = rules.replace(players=len(seats)) if rules.players != len(seats) else rules
        seed = seed if seed is not None else secrets.token_bytes(32)
        options = dict(options or {})
        if first_dealer is not None:
            options["first_dealer"] = first_dealer
        match = Match.new(rules, names, seed, first_dealer=first_dealer)  # validates rules vs players
        row = TableRow(
            id=table_id or secrets.token_hex(6),
            created=Store.now(),
            rules=rules.to_dict(),
            names=names,
            seats=kinds,
            tokens=[],
            seed=seed,
        )
        shown: dict[int, tuple[str, str]] = {}
        stored: list[SeatSecret] = []
        for i, kind in enumerate(kinds):
            if kind != "human":
                continue
            secret = secrets.token_urlsafe(18)
            if not shown or seat_all:
                shown[i] = ("token", secret)
                stored.append(SeatSecret(i, secret_hash(secret), None))
            else:
                shown[i] = ("invite", secret)
                stored.append(SeatSecret(i, None, secret_hash(secret)))
        # a daily deal (options "daily") is dealt at once: its cards are the day's, no client seeds
        table = Table(row, None if stored and "daily" not in options else match, seat_secrets=stored, options=options)
        if not stored_later:
            self.host.store.create_table(row, stored, options)
            self.opened(table)
        return table, shown

    def _seat(
        self, i: int, s: SeatSpec, levels: list[str], tr: Any, names: list[str], allowed_names: Collection[str]
    ) -> tuple[str, str]:
        """The name and stored kind of seat ``i`` asked for as ``s``, its name made unique
        among ``names`` (the seats before it); raises :class:`WebError` as :meth:`create`."""
        if s.kind not in tuple(SeatKind):
            raise WebError(
                ErrorCode.BAD_REQUEST,
                W_("seat {seat}: kind {kind!r} is not allowed; allowed: human, bot", seat=str(i + 1), kind=s.kind),
            )
        if s.kind == "bot" and not s.level:
            raise WebError(
                ErrorCode.BAD_REQUEST,
                W_(
                    "seat {seat}: a computer seat needs a level; levels: {levels}",
                    seat=str(i + 1),
                    levels=", ".join(levels),
                ),
            )
        if s.kind == "bot" and s.level not in levels:
            raise WebError(ErrorCode.BAD_REQUEST, level_refusal(s.level, levels, i + 1))
        name = " ".join(strip_invisible(plain_text(str(s.name or ""))).split())[:MAX_NAME_CHARS]
        if s.kind == "human" and is_computer_name(name):
            raise WebError(
                ErrorCode.BAD_REQUEST,
                W_("seat {seat}: the name {name} is a computer seat's; choose another", seat=str(i + 1), name=name),
            )
        if s.kind == "human" and is_reserved_name(name):
            raise WebError(
                ErrorCode.BAD_REQUEST,
                W_("seat {seat}: the name {name} is reserved; choose another", seat=str(i + 1), name=name),
            )
        if (
            s.kind == "human"
            and name
            and name not in allowed_names
            and self.host.account_name_taken is not None
            and self.host.account_name_taken(name)
        ):
            raise WebError(
                ErrorCode.BAD_REQUEST,
                W_(
                    "seat {seat}: the name {name} is an account's, or looks like one; "
                    "choose another (a person signed in sits under his account's "
                    "name)",
                    seat=str(i + 1),
                    name=name,
                ),
            )
        if not name:
            # the level names are the terminal table's ("Novice"), in the messages domain
            name = tr.t("Player {n}", n=i + 1) if s.kind == "human" else computer_seat_name(s.level, tr)
        base, k = name, 2
        while name.casefold() in (n.casefold() for n in names):
            name = f"{base} {k}"
            k += 1
        return name, SeatKind.HUMAN.value if s.kind == SeatKind.HUMAN else bot_kind(s.level)

    async def create_async(
        self, rules: RuleSet, seats: list[SeatSpec], **kwargs: Any
    ) -> tuple[Table, dict[int, tuple[str, str]]]:
        """:meth:`create` (same arguments, same errors), its store write (a commit with the
        store's full durability) in a worker thread: the event loop serves the other tables
        meanwhile."""
        table, shown = self.create(rules, seats, **kwargs, stored_later=True)
        await asyncio.to_thread(self.host.store.create_table, table.row, table.seat_secrets, table.options)
        self.opened(table)
        return table, shown

    def opened(self, table: Table) -> None:
        """A new table is stored: keep it (its states read the manager's clock), and tell the lobby.

        A request may have loaded the table from the store while it was being written (a
        tournament's seat link asked for as soon as the round was paired): that copy's new
        seat tokens are in the store, so they are read again, and its connections carried
        over; the copy made here is kept (a step the other copy stored is caught up as any
        other process's step is)."""
        table.runtime.now = self.host.now
        held = self.host.tables.get(table.id)
        if held is not None and held is not table:
            table.seat_secrets = self.host.store.seat_secrets(table.id)
            table.watchers = held.watchers + table.watchers
        self.host.tables[table.id] = table
        if table.public:
            self.host.lobby_changed()

    def claim(self, table_id: str, invite: str, account: str | None = None) -> tuple[Table, int, str]:
        """Claim a human seat with its one-time invite code: ``(table, player, token)``, the
        token minted now for whoever claims.  ``account``: the name of the signed-in person who
        claims: the seat then shows it (made unique among the seats as at creation), not the
        name the host gave the seat, and is marked signed in (:attr:`Table.signed_in`).  Raises :class:`WebError`: ``not_found``,
        ``bad_invite`` for a code that is not this table's, ``claimed`` when the invite was
        used already (also by another server process: the store decides atomically)."""
        table = self.host.load(table_id)
        token = secrets.token_urlsafe(18)
        result, player = self.host.store.claim(table.id, secret_hash(invite), secret_hash(token))
        if result == "unknown":
            raise WebError(ErrorCode.BAD_INVITE, W_("this invite link is not valid for this table"))
        if result == "claimed":
            raise WebError(
                ErrorCode.CLAIMED,
                W_(
                    "this invite link was used already: each link seats one person, once; "
                    "ask whoever invited you for a new table"
                ),
            )
        assert player is not None
        table.seat_secrets = self.host.store.seat_secrets(table.id)
        if account is not None and table.match is None:
            names, wanted, k = list(table.names), account, 2
            while wanted.casefold() in (n.casefold() for i, n in enumerate(names) if i != player):
                wanted = f"{account} {k}"
                k += 1
            names[player] = wanted
            self.host.store.set_names(table.id, names)
            table.row = type(table.row)(**{**table.row.__dict__, "names": names})
        if account is not None:
            table.signed_in.add(player)
        return table, player, token
