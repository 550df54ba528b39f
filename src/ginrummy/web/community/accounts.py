"""Player accounts of the web table: names, passwords, server-side sessions and CSRF tokens.

Tables (created by ``metadata.create_all`` on the table store's engine):

``gin_accounts``
    one row per ladder entry: ``id`` (integer key), ``name`` (as typed, 2-20 characters, shown
    as text only), ``name_key`` (the name case-folded and NFKC-normalised: unique, ``NULL`` once
    deleted), ``kind`` (``"human"`` or ``"computer"``: a computer level, named by its level),
    ``password_hash`` (argon2id, PHC string; ``NULL`` for computers and deleted accounts),
    ``created`` (ISO time, UTC), ``deleted`` (0/1), and the rating (``mu``, ``sigma``,
    ``ordinal``, ``matches``: see :mod:`ginrummy.web.community.ratings`).
``gin_sessions``
    ``token_hash`` (SHA-256 of the session cookie's value, hex, the key), ``account_id``,
    ``created``, ``expires``.  Only the hash is stored; signing out deletes the row, so the
    cookie opens nothing afterwards.
``gin_seat_accounts``
    ``(table_id, player)`` key, ``account_id``: who sits at a table's seat (the host at
    creation, an invited person at the claim), when signed in.

Cookies: ``gin_session`` (HttpOnly, SameSite=Lax, ``Secure`` over https) holds the session
token; ``gin_csrf`` (readable by the page's script, SameSite=Strict) holds the CSRF token that
every ``POST``/``PUT``/``PATCH``/``DELETE`` must repeat in the ``X-CSRF-Token`` header
(:class:`CsrfGuard`, a double-submit check: another site can make a browser send the cookie
but cannot read it to write the header).

Passwords are hashed with argon2-cffi's :class:`argon2.PasswordHasher` (argon2id).  Failed
sign-ins are limited per (name, address) pair, per address and, more slowly, per name
(:class:`RateLimiter`, :class:`Accounts`).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ...errors import Msg
from ..errors import ErrorCode, WebError
from ..limits import RateLimiter
from ..protocol.bodies import NAME_MAX, NAME_MIN, NAME_RULE
from ..room.names import (
    IGNORABLE,
    RESERVED_NAMES,
    is_reserved_name,
    name_key,
    name_skeleton,
    name_skeletons,
    strip_invisible,
    typed_name_key,
)
from ..security import CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, SESSION_DAYS, CsrfGuard
from ..texts import W_
from .moderation import Moderation
from .ratings import INITIAL, ordinal
from .schema import accounts_t, metadata, seat_accounts_t, sessions_t

__all__ = [
    "Accounts",
    "Account",
    "CsrfGuard",
    "RateLimiter",
    "check_name",
    "name_key",
    "name_skeleton",
    "name_skeletons",
    "strip_invisible",
    "typed_name_key",
    "is_reserved_name",
    "RESERVED_NAMES",
    "SESSION_COOKIE",
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "NAME_MIN",
    "NAME_MAX",
    "PASSWORD_MIN",
    "PASSWORD_MAX",
    "metadata",
    "accounts_t",
    "sessions_t",
    "seat_accounts_t",
]

PASSWORD_MIN, PASSWORD_MAX = 8, 128


_BAD_CHARS = re.compile(r"[/\\]")


def check_name(name: Any) -> str:
    """The name as it will be stored: whitespace collapsed, NFC.  Raises :class:`WebError`
    (``bad_name``) unless it is text of :data:`NAME_MIN`-:data:`NAME_MAX` characters without
    control characters or slashes.  Any other character is allowed (``<b>`` too): names are
    only ever shown as text."""
    if not isinstance(name, str):
        raise WebError(ErrorCode.BAD_NAME, NAME_RULE)
    clean = unicodedata.normalize("NFC", " ".join(name.split()))
    if not NAME_MIN <= len(clean) <= NAME_MAX:
        raise WebError(ErrorCode.BAD_NAME, NAME_RULE)
    if (
        _BAD_CHARS.search(clean)
        or IGNORABLE.search(clean)
        or any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in clean)
    ):
        raise WebError(ErrorCode.BAD_NAME, W_("a name may not hold slashes or control characters"))
    return clean


def check_password(password: Any) -> str:
    """Raises :class:`WebError` (``bad_password``) unless ``password`` is text of
    :data:`PASSWORD_MIN`-:data:`PASSWORD_MAX` characters."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise WebError(
            ErrorCode.BAD_PASSWORD, W_("a password is {lo} to {hi} characters long", lo=PASSWORD_MIN, hi=PASSWORD_MAX)
        )
    return password


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


def token_hash(token: str) -> str:
    """SHA-256 of a session token (its UTF-8 bytes), hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Account:
    """A signed-in person (or a computer level): ``id``, ``name``, ``kind``, ``role``
    (``None`` or ``"moderator"``)."""

    id: int
    name: str
    kind: str
    role: str | None = None


class Accounts:
    """Accounts, sessions and seat owners over the table store's SQLAlchemy ``engine``.

    ``hasher``: an argon2 :class:`~argon2.PasswordHasher` (defaults to argon2-cffi's
    recommended parameters).  ``clock``: seconds for the sign-in rate limits.  Failed sign-ins,
    counted under the name's :func:`typed_name_key` (the key the account is found by, so that
    ``"ann"``, ``" ANN"`` and ``"ann\t"`` are one counter) and the client's address:

    * at most :attr:`PER_PAIR` per (name, address) pair and :attr:`PER_ADDRESS` per address
      in :attr:`WINDOW` seconds: one address's guesses lock out that address only;
    * at most :attr:`PER_NAME` per name from every address together in :attr:`NAME_WINDOW`
      seconds (many addresses guessing one password), except for an address that signed in
      to that account before (:attr:`known`): the person's own browser still gets in.

    More are refused with ``rate_limited`` without checking the password.
    """

    PER_PAIR = 5
    PER_ADDRESS = 20
    WINDOW = 300.0
    PER_NAME = 50
    NAME_WINDOW = 3600.0
    KNOWN_MAX = 100_000
    """At most this many (name, address) pairs that signed in are remembered (then forgotten
    all at once: memory stays bounded whatever is sent)."""

    def __init__(
        self,
        engine: Engine,
        *,
        hasher: PasswordHasher | None = None,
        clock: Callable[[], float] = time.monotonic,
        address_key: bytes | None = None,
    ) -> None:

        self.engine = engine
        self.moderation = Moderation(engine, address_key)
        """Blocks, mutes, reports, sanctions (a suspended or closed account cannot sign in)."""
        self.hasher = hasher or PasswordHasher()
        self.by_pair = RateLimiter(self.PER_PAIR, self.WINDOW, clock)
        self.by_address = RateLimiter(self.PER_ADDRESS, self.WINDOW, clock)
        self.by_name = RateLimiter(self.PER_NAME, self.NAME_WINDOW, clock)
        self.known: set[str] = set()
        """``"<name key>\\n<address>"`` of the pairs that signed in (exempt from :attr:`by_name`)."""
        self._initial = INITIAL
        self.computer_start: dict[str, tuple[float, float]] = {}
        """``level -> (mu, sigma)`` a computer level's account starts from when it is made
        (:meth:`computer`); a level not here starts as a new person does.  ``gin serve`` sets the
        reference ladder's (:func:`ginrummy.web.community.level_ladder.reference_ratings`)."""
        metadata.create_all(engine)
        self._dummy = self.hasher.hash(secrets.token_hex(16))  # same work for unknown names

    # -- accounts ---------------------------------------------------------------------------

    def _new_row(self, name: str, kind: str, password_hash: str | None) -> dict[str, Any]:
        mu, sigma, ordinal = self._initial
        return {
            "name": name,
            "name_key": name_key(name),
            "kind": kind,
            "password_hash": password_hash,
            "created": _iso(_now()),
            "deleted": 0,
            "mu": mu,
            "sigma": sigma,
            "ordinal": ordinal,
            "matches": 0,
        }

    def sign_up(self, name: Any, password: Any) -> Account:
        """Make a person's account.  Raises :class:`WebError`: ``bad_name``,
        ``bad_password``, ``name_taken`` (names are unique case-insensitively, and computer
        levels' and computer seats' names, ``Computer (novice)`` in any language, are taken),
        ``bad_name`` too for a reserved name (:func:`is_reserved_name`:
        ``System``, which the server's own lines carry).  A name that passes for a taken one
        (:func:`name_skeleton`: ``аlice`` with a Cyrillic ``а`` beside ``alice``) is refused as
        ``name_taken`` too, saying that it is too like an existing name."""
        clean = check_name(name)
        if is_reserved_name(clean):
            raise WebError(ErrorCode.BAD_NAME, W_("the name {name} is reserved; choose another", name=clean))
        check_password(password)
        taken = W_("the name {name} is taken; choose another", name=clean)
        from ..room.tables import is_computer_name  # tables imports this module

        # a computer level's, made or not yet made, or a computer seat's ("Computer (novice)"):
        # an account under it would chat and sit as the computer
        if is_computer_name(clean) or self._same_key(name_key(clean)):
            raise WebError(ErrorCode.NAME_TAKEN, taken)
        if self.name_in_use(clean):  # one that passes for an account's ("аlice" beside "alice")
            raise WebError(
                ErrorCode.NAME_TAKEN, W_("the name {name} is too like an existing name; choose another", name=clean)
            )
        hashed = self.hasher.hash(password)
        try:
            with self.engine.begin() as conn:
                res = conn.execute(insert(accounts_t).values(**self._new_row(clean, "human", hashed)))
                new_id = int(res.inserted_primary_key[0])  # type: ignore[index]  # one row inserted
        except IntegrityError:
            raise WebError(ErrorCode.NAME_TAKEN, taken, hashed=True) from None
        self._looks = None
        return Account(new_id, clean, "human")

    def computer(self, level: str, conn: Connection | None = None) -> int:
        """The account id of computer level ``level`` (made on first use; found by its name and
        kind, so a person who took that name on an older server, before the level existed, never
        stops the level's matches from being recorded).  A new one starts from
        :attr:`computer_start`'s rating for ``level`` when it has one.  People cannot take a
        level's name (:meth:`sign_up`)."""

        def run(c: Connection) -> int:
            values = self._new_row(level, "computer", None)
            if level in self.computer_start:
                mu, sigma = self.computer_start[level]
                values.update(mu=mu, sigma=sigma, ordinal=ordinal(mu, sigma))  # the reference ladder's
            for found in (accounts_t.c.name_key == values["name_key"], accounts_t.c.name == level):
                row = c.execute(select(accounts_t.c.id).where(and_(found, accounts_t.c.kind == "computer"))).first()
                if row is not None:
                    return int(row.id)
            held = c.execute(select(accounts_t.c.id).where(accounts_t.c.name_key == values["name_key"])).first()
            if held is not None:  # a person took the name before this level existed: the level's
                values["name_key"] = None  # account is found by its name and kind instead
            return int(c.execute(insert(accounts_t).values(**values)).inserted_primary_key[0])  # type: ignore[index]

        if conn is not None:
            return run(conn)
        with self.engine.begin() as c:
            return run(c)

    def verify(self, name: Any, password: Any, address: str = "", wrong_words: Msg | None = None) -> Account:
        """The account whose name and password these are; ``address`` is the client's (the
        peer, or the address a trusted proxy forwarded: ``gin serve --forwarded-allow-ips``).
        Raises :class:`WebError`: ``rate_limited`` after too many failures (per name and
        address, per address, per name from every address: see the class), else
        ``wrong_password`` for an unknown name or a wrong password (one answer for both), in
        ``wrong_words`` when given (a caller that asked for the password alone says so)."""
        key = typed_name_key(name) if isinstance(name, str) else ""
        pair = key + "\n" + address
        waits = [self.by_pair.retry_after("p:" + pair), self.by_address.retry_after("a:" + address)]
        if pair not in self.known:
            waits.append(self.by_name.retry_after("n:" + key))
        wait = max(waits)
        if wait:
            raise WebError(
                ErrorCode.RATE_LIMITED,
                W_("too many sign-in attempts; try again in {seconds} seconds", seconds=wait),
                retry_after=wait,
            )
        wrong = WebError(ErrorCode.WRONG_PASSWORD, wrong_words or W_("that name and password do not match an account"))
        row = None
        if isinstance(name, str) and isinstance(password, str) and len(password) <= PASSWORD_MAX:
            with self.engine.connect() as conn:
                row = conn.execute(
                    select(accounts_t).where(
                        and_(accounts_t.c.name_key == key, accounts_t.c.kind == "human", accounts_t.c.deleted == 0)
                    )
                ).first()
        ok = False
        try:
            ok = self.hasher.verify(
                row.password_hash if row is not None else self._dummy, password if isinstance(password, str) else ""
            )
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            ok = False
        if not ok or row is None:
            self.by_pair.hit("p:" + pair)
            self.by_address.hit("a:" + address)
            self.by_name.hit("n:" + key)
            raise wrong
        refused = self.moderation.refusal(int(row.id), ("suspend", "close"))
        if refused is not None:  # the right password: he learns what was done and why
            raise refused
        if len(self.known) >= self.KNOWN_MAX:
            self.known.clear()
        self.known.add(pair)
        return Account(int(row.id), str(row.name), "human")

    def delete(self, account: Account, password: Any) -> None:
        """Delete ``account`` after checking its password: its name is freed, its password
        hash and sessions are gone; its matches stay, shown under "deleted player".  Raises
        :class:`WebError` (``wrong_password``: "that is not this account's password", the one
        signed in; ``rate_limited``)."""
        self.verify(
            account.name,
            password,
            address=f"delete:{account.id}",
            wrong_words=W_("that is not this account's password"),
        )
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts_t)
                .where(accounts_t.c.id == account.id)
                .values(name=None, name_key=None, password_hash=None, deleted=1)
            )
            conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account.id))
        self._looks = None

    # -- sessions ---------------------------------------------------------------------------

    def open_session(self, account: Account) -> str:
        """A new session for ``account``: the token to put in the session cookie (only its
        hash is stored)."""
        token = secrets.token_urlsafe(32)
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions_t).values(
                    token_hash=token_hash(token),
                    account_id=account.id,
                    created=_iso(now),
                    expires=_iso(now + timedelta(days=SESSION_DAYS)),
                )
            )
        return token

    def close_session(self, token: str | None) -> None:
        """End the session of ``token`` (nothing if there is none)."""
        if token and len(token) <= 200:
            with self.engine.begin() as conn:
                conn.execute(delete(sessions_t).where(sessions_t.c.token_hash == token_hash(token)))

    def account_of(self, token: str | None) -> Account | None:
        """The signed-in account of a session token, or ``None`` (no, unknown or expired session)."""
        if not token or len(token) > 200:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.kind, accounts_t.c.role, sessions_t.c.expires)
                .join(accounts_t, accounts_t.c.id == sessions_t.c.account_id)
                .where(and_(sessions_t.c.token_hash == token_hash(token), accounts_t.c.deleted == 0))
            ).first()
        if row is None or row.expires < _iso(_now()):
            return None
        if self.moderation.sanction(int(row.id), ("suspend", "close")) is not None:
            return None  # suspended meanwhile (on any process): his sessions open nothing
        return Account(int(row.id), str(row.name), str(row.kind), row.role)

    LOOKS_SECONDS = 30.0
    """How long the skeletons of the account names (:meth:`name_in_use`) are kept before they
    are read again (another server's new accounts are seen within this time)."""

    def name_in_use(self, name: str) -> bool:
        """Whether ``name`` is an account's (a person's or a computer level's, not deleted) or
        passes for one: compared by :func:`typed_name_key` (NFKC, case-folded, whitespace runs
        as one space: ``"ANN"`` and ``"Ann"`` are one name) and by :func:`name_skeleton`
        (``"Аnn"`` with a Cyrillic ``А``, ``"An\u200dn"``).  The lobby chat refuses it to a
        guest (:meth:`ginrummy.web.room.lobby.Room.say_in_lobby`), and so do a guest's seat
        names, so that no guest posts or sits as an account holder; sign-up refuses it."""
        key = typed_name_key(name) if isinstance(name, str) else ""
        if not key:
            return False
        return self._same_key(key) or not name_skeletons(name).isdisjoint(self._skeletons())

    def _same_key(self, key: str) -> bool:
        """Whether an account (not deleted) has the :func:`typed_name_key` ``key`` (``"ANN"`` and
        ``"Ann"`` are one; not the look-alikes of :meth:`name_in_use`)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts_t.c.id).where(and_(accounts_t.c.name_key == key, accounts_t.c.deleted == 0))
            ).first()
        return row is not None

    _looks: tuple[float, frozenset[str]] | None = None

    def _skeletons(self) -> frozenset[str]:
        """The :func:`name_skeleton` of every account's name (not deleted), read again after
        :data:`LOOKS_SECONDS` or a sign-up here."""
        now = time.monotonic()
        if self._looks is None or now - self._looks[0] > self.LOOKS_SECONDS:
            with self.engine.connect() as conn:
                names = [
                    r.name
                    for r in conn.execute(
                        select(accounts_t.c.name).where(and_(accounts_t.c.deleted == 0, accounts_t.c.name.is_not(None)))
                    )
                ]
            self._looks = (now, frozenset(k for n in names for k in name_skeletons(n)))
        return self._looks[1]

    # -- seats --------------------------------------------------------------------------------

    def sit(self, table_id: str, player: int, account_id: int) -> None:
        """Record that ``account_id`` sits at ``player`` of table ``table_id``."""
        with self.engine.begin() as conn:
            conn.execute(insert(seat_accounts_t).values(table_id=table_id, player=player, account_id=account_id))

    def seats(self, table_id: str, conn: Connection | None = None) -> dict[int, int]:
        """``{player: account_id}`` of a table's signed-in seats (read on ``conn`` when given:
        inside the caller's transaction)."""
        query = select(seat_accounts_t).where(seat_accounts_t.c.table_id == table_id)
        if conn is not None:
            rows = conn.execute(query).all()
        else:
            with self.engine.connect() as c:
                rows = c.execute(query).all()
        return {int(r.player): int(r.account_id) for r in rows}


def session_cookie(token: str, secure: bool) -> str:
    """The ``Set-Cookie`` value of a new session (HttpOnly, SameSite=Lax, 30 days)."""
    return f"{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={SESSION_DAYS * 86400}" + (
        "; Secure" if secure else ""
    )


def cleared_session_cookie(secure: bool) -> str:
    """The ``Set-Cookie`` value that removes the session cookie."""
    return f"{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0" + ("; Secure" if secure else "")
