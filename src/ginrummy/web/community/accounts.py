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
import json
import re
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import (Column, Float, Index, Integer, MetaData, String, Table, Text, and_, delete, insert, select,
                        update)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ..texts import W_, request_lang, web_translator
from ..room.seats import player_levels

__all__ = ["Accounts", "Account", "AccountError", "CsrfGuard", "RateLimiter", "check_name", "name_key",
           "name_skeleton", "name_skeletons", "strip_invisible",
           "typed_name_key", "is_reserved_name", "RESERVED_NAMES", "SESSION_COOKIE", "CSRF_COOKIE", "CSRF_HEADER", "NAME_MIN", "NAME_MAX", "PASSWORD_MIN", "PASSWORD_MAX",
           "metadata", "accounts_t", "sessions_t", "seat_accounts_t"]

SESSION_COOKIE = "gin_session"
CSRF_COOKIE = "gin_csrf"
CSRF_HEADER = "x-csrf-token"
NAME_MIN, NAME_MAX = 2, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 128
SESSION_DAYS = 30
"""A session ends this many days after sign-in (or at sign-out, or when the account is deleted)."""

metadata = MetaData()

accounts_t = Table(
    "gin_accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(80), nullable=True),
    Column("name_key", String(80), nullable=True, unique=True),
    Column("kind", String(10), nullable=False),
    Column("password_hash", Text, nullable=True),
    Column("created", String(40), nullable=False),
    Column("deleted", Integer, nullable=False, default=0),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),
    Column("matches", Integer, nullable=False, default=0),
    # the ladder order, covering its filter: a page at any offset is read from the index alone
    Index("gin_accounts_board", "deleted", "ordinal", "id", "matches"),
)

sessions_t = Table(
    "gin_sessions", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, nullable=False, index=True),
    Column("created", String(40), nullable=False),
    Column("expires", String(40), nullable=False),
)

seat_accounts_t = Table(
    "gin_seat_accounts", metadata,
    Column("table_id", String(40), primary_key=True),
    Column("player", Integer, primary_key=True, autoincrement=False),
    Column("account_id", Integer, nullable=False),
)


class AccountError(ValueError):
    """A refused account request.  ``code``: ``bad_name``, ``bad_password``, ``name_taken``,
    ``wrong_password`` (also for an unknown name: the answer does not say which),
    ``rate_limited`` (``retry_after`` seconds), ``not_signed_in``.  ``message`` is a
    :class:`~ginrummy.errors.Msg` (:func:`~ginrummy.web.texts.W_`).  ``hashed``: the
    refusal came after a password was hashed (a name taken meanwhile by another sign-up), so
    it cost what a sign-up costs."""

    def __init__(self, code: str, message: Any, retry_after: int = 0, hashed: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.hashed = hashed


_BAD_CHARS = re.compile(r"[/\\]")


def name_key(name: str) -> str:
    """The uniqueness key of a name: NFKC-normalised and case-folded (``"Ann"`` and ``"ANN"``
    are one name)."""
    return unicodedata.normalize("NFKC", name).casefold()


def typed_name_key(name: str) -> str:
    """The :func:`name_key` of a name as someone typed it: its whitespace runs folded to one
    space and its ends trimmed first, as :func:`check_name` stores names, so that ``"  ann
    LEE "`` and ``"Ann Lee"`` are one name.  Used to find an account by name
    (:meth:`Accounts.verify` and its sign-in limit, :meth:`Accounts.name_in_use`, the player
    page).  Names that only look alike are told by :func:`name_skeletons`."""
    return name_key(" ".join(name.split()))


_IGNORABLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
                        "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\U0001bca0-\U0001bca3\U000e0000-\U000e0fff]")
"""Unicode's default-ignorable code points (drawn as nothing: the zero-width joiner, variation
selectors, the Hangul fillers...) and the bidirectional marks."""


def strip_invisible(name: str) -> str:
    """``name`` without the characters that are drawn as nothing: every format character
    (category ``Cf``: the zero-width joiner and non-joiner, the bidirectional controls) and the
    other default-ignorable code points (variation selectors, Hangul fillers).  A name is
    read by people, so two names that look the same must be one (``"Computer (nov\u200dice)"``
    is ``"Computer (novice)"``)."""
    return "".join(c for c in _IGNORABLE.sub("", name) if unicodedata.category(c) != "Cf")


_LOOKALIKES = str.maketrans({
    # Cyrillic letters drawn as Latin ones (Unicode TR39's confusables, the Latin targets only)
    "а": "a", "в": "b", "е": "e", "ё": "ë", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i",
    "ї": "ï", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ь": "b", "к": "k",
    "м": "m", "н": "h", "т": "t", "г": "r", "п": "n", "ш": "w", "ɡ": "g",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "Ѕ": "S", "І": "l", "Ј": "J", "Ү": "Y", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "l", "Ь": "b", "З": "3",
    # Greek letters drawn as Latin ones
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "υ": "u", "χ": "x", "γ": "y", "τ": "t",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "l", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ϲ": "c", "Ϲ": "C", "ϳ": "j",
    # Latin and digits that pass for one another (TR39 maps them to one skeleton too)
    "0": "o", "1": "l", "|": "l", "ı": "i", "ɩ": "i", "ſ": "f",
})
_CAPITAL_I = str.maketrans({"I": "l", "Ι": "l", "І": "l", "Ӏ": "l"})
"""A capital I (Latin, Greek, Cyrillic) is drawn as a small l: :func:`name_skeletons` reads
a name once with it so."""


def name_skeleton(name: str) -> str:
    """The look of a name, to tell names that pass for one another (after Unicode TR39's
    skeleton): invisible characters left out (:func:`strip_invisible`), NFKC, the Cyrillic and
    Greek letters that look like Latin ones (and ``0``/``O``, ``1``/``l``/``I``) made the Latin
    one, case-folded, whitespace runs one space.  ``"Cоmputer (nоvice)"`` (Cyrillic о),
    ``"Ѕystem"`` and ``"аlice"`` have the skeletons of ``"Computer (novice)"``, ``"System"`` and
    ``"alice"``.  Not TR39's full table: the Latin look-alikes of Cyrillic and Greek, which
    cover names typed on the keyboards people use here."""
    text = unicodedata.normalize("NFKC", strip_invisible(name)).translate(_LOOKALIKES)
    return " ".join(unicodedata.normalize("NFKC", text).casefold().translate(_LOOKALIKES).split())


def name_skeletons(name: str) -> frozenset[str]:
    """The skeletons two names that pass for one another share one of: :func:`name_skeleton`
    (any case), and the same with every capital I read as a small l first, as typed and in
    capitals (``"AIice"`` passes for ``"Alice"``, ``"ALlCE"`` for ``"alice"`` written ``"ALICE"``;
    ``"ALICE"`` is ``"alice"`` by the first)."""
    return frozenset((name_skeleton(name), name_skeleton(name.translate(_CAPITAL_I)),
                      name_skeleton(name.upper().translate(_CAPITAL_I))))


RESERVED_NAMES = ("System",)
"""Names no guest may chat under and no person may take as a seat name (compared by
:func:`typed_name_key`: ``"SYSTEM"`` and ``"Ｓｙｓｔｅｍ"`` too): a line or a seat under them
would pass for the server's own (:func:`is_reserved_name`)."""


_RESERVED_KEYS = frozenset(k for n in RESERVED_NAMES for k in name_skeletons(n))


def is_reserved_name(name: Any) -> bool:
    """Whether ``name`` is one of :data:`RESERVED_NAMES`, or passes for one: in any case or
    width, with any spacing, look-alike letters or invisible characters (:func:`name_skeleton`).  The lobby chat refuses it to a guest
    (:meth:`ginrummy.web.room.lobby.RoomMixin.say_in_lobby`), and a table refuses it as a person's
    seat name at creation and at a sit, as it refuses a computer seat's."""
    return isinstance(name, str) and not name_skeletons(name).isdisjoint(_RESERVED_KEYS)


def check_name(name: Any) -> str:
    """The name as it will be stored: whitespace collapsed, NFC.  Raises :class:`AccountError`
    (``bad_name``) unless it is text of :data:`NAME_MIN`-:data:`NAME_MAX` characters without
    control characters or slashes.  Any other character is allowed (``<b>`` too): names are
    only ever shown as text."""
    if not isinstance(name, str):
        raise AccountError("bad_name", W_("a name is text of {lo} to {hi} characters", lo=NAME_MIN, hi=NAME_MAX))
    clean = unicodedata.normalize("NFC", " ".join(name.split()))
    if not NAME_MIN <= len(clean) <= NAME_MAX:
        raise AccountError("bad_name", W_("a name is text of {lo} to {hi} characters", lo=NAME_MIN, hi=NAME_MAX))
    if _BAD_CHARS.search(clean) or _IGNORABLE.search(clean) or any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in clean):
        raise AccountError("bad_name", W_("a name may not hold slashes or control characters"))
    return clean


def check_password(password: Any) -> str:
    """Raises :class:`AccountError` (``bad_password``) unless ``password`` is text of
    :data:`PASSWORD_MIN`-:data:`PASSWORD_MAX` characters."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError("bad_password", W_("a password is {lo} to {hi} characters long",
                                              lo=PASSWORD_MIN, hi=PASSWORD_MAX))
    return password


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


def token_hash(token: str) -> str:
    """SHA-256 of a session token (its UTF-8 bytes), hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class RateLimiter:
    """At most ``limit`` events per key in any ``window`` seconds (a sliding window kept in
    memory; ``clock`` returns seconds, ``time.monotonic`` by default)."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._seen: dict[str, deque[float]] = {}

    def _events(self, key: str) -> deque[float]:
        now = self.clock()
        q = self._seen.setdefault(key, deque())
        while q and q[0] <= now - self.window:
            q.popleft()
        if not q:
            self._seen.pop(key, None)
            if len(self._seen) > 100_000:  # bounded memory under a flood of names
                self._seen.clear()
            q = self._seen.setdefault(key, deque())
        return q

    def retry_after(self, key: str) -> int:
        """0 if another event of ``key`` is allowed now, else whole seconds to wait."""
        q = self._events(key)
        if len(q) < self.limit:
            return 0
        return max(1, int(q[0] + self.window - self.clock()) + 1)

    def hit(self, key: str) -> None:
        """Count one event of ``key``."""
        self._events(key).append(self.clock())


@dataclass(frozen=True)
class Account:
    """A signed-in person (or a computer level): ``id``, ``name``, ``kind``."""

    id: int
    name: str
    kind: str


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

    def __init__(self, engine: Engine, *, hasher: PasswordHasher | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        from .ratings import INITIAL  # the starting rating of a new account

        self.engine = engine
        self.hasher = hasher or PasswordHasher()
        self.by_pair = RateLimiter(self.PER_PAIR, self.WINDOW, clock)
        self.by_address = RateLimiter(self.PER_ADDRESS, self.WINDOW, clock)
        self.by_name = RateLimiter(self.PER_NAME, self.NAME_WINDOW, clock)
        self.known: set[str] = set()
        """``"<name key>\\n<address>"`` of the pairs that signed in (exempt from :attr:`by_name`)."""
        self._initial = INITIAL
        metadata.create_all(engine)
        self._dummy = self.hasher.hash(secrets.token_hex(16))  # same work for unknown names

    # -- accounts ---------------------------------------------------------------------------

    def _new_row(self, name: str, kind: str, password_hash: str | None) -> dict[str, Any]:
        mu, sigma, ordinal = self._initial
        return {"name": name, "name_key": name_key(name), "kind": kind, "password_hash": password_hash,
                "created": _iso(_now()), "deleted": 0, "mu": mu, "sigma": sigma, "ordinal": ordinal, "matches": 0}

    def sign_up(self, name: Any, password: Any) -> Account:
        """Make a person's account.  Raises :class:`AccountError`: ``bad_name``,
        ``bad_password``, ``name_taken`` (names are unique case-insensitively, and computer
        levels' and computer seats' names, ``Computer (novice)`` in any language, are taken),
        ``bad_name`` too for a reserved name (:func:`is_reserved_name`:
        ``System``, which the server's own lines carry).  A name that passes for a taken one
        (:func:`name_skeleton`: ``аlice`` with a Cyrillic ``а`` beside ``alice``) is taken too."""
        clean = check_name(name)
        if is_reserved_name(clean):
            raise AccountError("bad_name", W_("the name {name} is reserved; choose another", name=clean))
        check_password(password)
        taken = W_("the name {name} is taken; choose another", name=clean)
        from ..room.tables import is_computer_name  # tables imports this module

        if is_computer_name(clean) \
                or self.name_in_use(clean):  # an account's, or one that passes for it ("аlice" beside "alice")
            # a computer level's, made or not yet made, or a computer seat's ("Computer (novice)"):
            # an account under it would chat and sit as the computer
            raise AccountError("name_taken", taken)
        hashed = self.hasher.hash(password)
        try:
            with self.engine.begin() as conn:
                res = conn.execute(insert(accounts_t).values(**self._new_row(clean, "human", hashed)))
                new_id = int(res.inserted_primary_key[0])
        except IntegrityError:
            raise AccountError("name_taken", taken, hashed=True) from None
        self._looks = None
        return Account(new_id, clean, "human")

    def computer(self, level: str, conn: Connection | None = None) -> int:
        """The account id of computer level ``level`` (made on first use; found by its name and
        kind, so a person who took that name on an older server, before the level existed, never
        stops the level's matches from being recorded).  People cannot take a level's name
        (:meth:`sign_up`)."""
        def run(c: Connection) -> int:
            values = self._new_row(level, "computer", None)
            for found in (accounts_t.c.name_key == values["name_key"], accounts_t.c.name == level):
                row = c.execute(select(accounts_t.c.id).where(and_(found, accounts_t.c.kind == "computer"))).first()
                if row is not None:
                    return int(row.id)
            held = c.execute(select(accounts_t.c.id).where(accounts_t.c.name_key == values["name_key"])).first()
            if held is not None:  # a person took the name before this level existed: the level's
                values["name_key"] = None  # account is found by its name and kind instead
            return int(c.execute(insert(accounts_t).values(**values)).inserted_primary_key[0])
        if conn is not None:
            return run(conn)
        with self.engine.begin() as c:
            return run(c)

    def verify(self, name: Any, password: Any, address: str = "") -> Account:
        """The account whose name and password these are; ``address`` is the client's (the
        peer, or the address a trusted proxy forwarded: ``gin serve --forwarded-allow-ips``).
        Raises :class:`AccountError`: ``rate_limited`` after too many failures (per name and
        address, per address, per name from every address: see the class), else
        ``wrong_password`` for an unknown name or a wrong password (one answer for both)."""
        key = typed_name_key(name) if isinstance(name, str) else ""
        pair = key + "\n" + address
        waits = [self.by_pair.retry_after("p:" + pair), self.by_address.retry_after("a:" + address)]
        if pair not in self.known:
            waits.append(self.by_name.retry_after("n:" + key))
        wait = max(waits)
        if wait:
            raise AccountError("rate_limited", W_("too many sign-in attempts; try again in {seconds} seconds",
                                                  seconds=wait), retry_after=wait)
        wrong = AccountError("wrong_password", W_("that name and password do not match an account"))
        row = None
        if isinstance(name, str) and isinstance(password, str) and len(password) <= PASSWORD_MAX:
            with self.engine.connect() as conn:
                row = conn.execute(select(accounts_t).where(and_(
                    accounts_t.c.name_key == key, accounts_t.c.kind == "human",
                    accounts_t.c.deleted == 0))).first()
        ok = False
        try:
            ok = self.hasher.verify(row.password_hash if row is not None else self._dummy,
                                    password if isinstance(password, str) else "")
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            ok = False
        if not ok or row is None:
            self.by_pair.hit("p:" + pair)
            self.by_address.hit("a:" + address)
            self.by_name.hit("n:" + key)
            raise wrong
        if len(self.known) >= self.KNOWN_MAX:
            self.known.clear()
        self.known.add(pair)
        return Account(int(row.id), str(row.name), "human")

    def delete(self, account: Account, password: Any) -> None:
        """Delete ``account`` after checking its password: its name is freed, its password
        hash and sessions are gone; its matches stay, shown under "deleted player".  Raises
        :class:`AccountError` (``wrong_password``, ``rate_limited``)."""
        self.verify(account.name, password, address=f"delete:{account.id}")
        with self.engine.begin() as conn:
            conn.execute(update(accounts_t).where(accounts_t.c.id == account.id).values(
                name=None, name_key=None, password_hash=None, deleted=1))
            conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account.id))
        self._looks = None

    # -- sessions ---------------------------------------------------------------------------

    def open_session(self, account: Account) -> str:
        """A new session for ``account``: the token to put in the session cookie (only its
        hash is stored)."""
        token = secrets.token_urlsafe(32)
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(insert(sessions_t).values(token_hash=token_hash(token), account_id=account.id,
                                                   created=_iso(now), expires=_iso(now + timedelta(days=SESSION_DAYS))))
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
            row = conn.execute(select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.kind, sessions_t.c.expires)
                               .join(accounts_t, accounts_t.c.id == sessions_t.c.account_id)
                               .where(and_(sessions_t.c.token_hash == token_hash(token),
                                           accounts_t.c.deleted == 0))).first()
        if row is None or row.expires < _iso(_now()):
            return None
        return Account(int(row.id), str(row.name), str(row.kind))

    LOOKS_SECONDS = 30.0
    """How long the skeletons of the account names (:meth:`name_in_use`) are kept before they
    are read again (another server's new accounts are seen within this time)."""

    def name_in_use(self, name: str) -> bool:
        """Whether ``name`` is an account's (a person's or a computer level's, not deleted) or
        passes for one: compared by :func:`typed_name_key` (NFKC, case-folded, whitespace runs
        as one space: ``"ANN"`` and ``"Ann"`` are one name) and by :func:`name_skeleton`
        (``"Аnn"`` with a Cyrillic ``А``, ``"An\u200dn"``).  The lobby chat refuses it to a
        guest (:meth:`ginrummy.web.room.lobby.RoomMixin.say_in_lobby`), and so do a guest's seat
        names, so that no guest posts or sits as an account holder; sign-up refuses it."""
        key = typed_name_key(name) if isinstance(name, str) else ""
        if not key:
            return False
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts_t.c.id).where(and_(
                accounts_t.c.name_key == key, accounts_t.c.deleted == 0))).first()
        return row is not None or not name_skeletons(name).isdisjoint(self._skeletons())

    _looks: tuple[float, frozenset[str]] | None = None

    def _skeletons(self) -> frozenset[str]:
        """The :func:`name_skeleton` of every account's name (not deleted), read again after
        :data:`LOOKS_SECONDS` or a sign-up here."""
        now = time.monotonic()
        if self._looks is None or now - self._looks[0] > self.LOOKS_SECONDS:
            with self.engine.connect() as conn:
                names = [r.name for r in conn.execute(select(accounts_t.c.name).where(and_(
                    accounts_t.c.deleted == 0, accounts_t.c.name.is_not(None))))]
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


# -- CSRF ---------------------------------------------------------------------------------------

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]]

_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{20,100}$")


def _cookies(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in scope.get("headers", ()):
        if key == b"cookie":
            for part in value.decode("latin-1").split(";"):
                k, _, v = part.strip().partition("=")
                if k and k not in out:
                    out[k] = v
    return out


class CsrfGuard:
    """ASGI middleware: every ``POST``/``PUT``/``PATCH``/``DELETE`` from a browser (a request
    that carries our ``gin_csrf`` or ``gin_session`` cookie) must carry the header
    ``X-CSRF-Token`` equal to the ``gin_csrf`` cookie (compared in constant time), else it is
    answered ``403 {"error", "code": "csrf"}`` (in the request's language) before anything
    runs.  A request with none of our cookies carries no session, but it could still sign a
    browser in (a cross-site form posting to ``/api/session`` sets the session cookie it
    answers with), so it must not come from another site: its ``Sec-Fetch-Site``, when sent,
    is ``same-origin`` or ``none``, and its ``Origin``, when sent, is this request's own host
    (:func:`cross_site`); else the same ``403 csrf``.  A program (curl, a script) sends neither
    header and passes.  Any answer to a request without a well-formed ``gin_csrf`` cookie sets
    a new one (SameSite=Strict, readable by the page's script, which sends it back:
    ``common.js``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cookies = _cookies(scope)
        cookie = cookies.get(CSRF_COOKIE, "")
        has = bool(_TOKEN_RE.match(cookie))
        # A request with none of our cookies is a program's (a script, a benchmark, curl): it can
        # act for no one, since a session rides on its cookie, so there is nothing to forge.  A
        # browser that has been here carries gin_csrf, and a signed-in one gin_session: those
        # are checked.  (A cross-site request gets neither: SameSite keeps them at home.)
        browser = CSRF_COOKIE in cookies or SESSION_COOKIE in cookies
        if scope.get("method", "GET") in _UNSAFE:
            header = ""
            for key, value in scope.get("headers", ()):
                if key == CSRF_HEADER.encode():
                    header = value.decode("latin-1")
            if (cross_site(scope) if not browser
                    else not (has and secrets.compare_digest(header.encode(), cookie.encode()))):
                from starlette.requests import Request

                tr = web_translator(request_lang(Request(scope)))
                body = json.dumps({"error": tr.t("this request did not carry its CSRF token; load the page again "
                                                 "and retry"), "code": "csrf"}, ensure_ascii=False).encode()
                await send({"type": "http.response.start", "status": 403, "headers": [
                    (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
                    + ([] if has else [_set_csrf(scope)])})
                await send({"type": "http.response.body", "body": body})
                return
        if has:
            await self.app(scope, receive, send)
            return

        async def send_with_cookie(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                msg = dict(msg)
                msg["headers"] = list(msg.get("headers", [])) + [_set_csrf(scope)]
            await send(msg)

        await self.app(scope, receive, send_with_cookie)


def cross_site(scope: Scope) -> bool:
    """Whether the request of ``scope`` says it comes from another site's page: a
    ``Sec-Fetch-Site`` other than ``same-origin`` or ``none``, or an ``Origin`` whose host and
    port are not the request's ``Host`` (``Origin: null`` too).  A request with neither header
    (not a browser's) is not."""
    headers = {k: v.decode("latin-1") for k, v in scope.get("headers", ()) if k in (b"sec-fetch-site", b"origin",
                                                                                   b"host")}
    site = headers.get(b"sec-fetch-site")
    if site is not None and site.strip().lower() not in ("same-origin", "none"):
        return True
    origin = headers.get(b"origin")
    if origin is None:
        return False
    host = headers.get(b"host", "").strip().lower()
    scheme, sep, rest = origin.strip().lower().partition("://")
    return not (sep and scheme in ("http", "https") and host and rest.rstrip("/") == host)


def _secure(scope: Scope) -> str:
    return "; Secure" if scope.get("scheme") == "https" else ""


def _set_csrf(scope: Scope) -> tuple[bytes, bytes]:
    value = f"{CSRF_COOKIE}={secrets.token_urlsafe(24)}; Path=/; SameSite=Strict{_secure(scope)}"
    return (b"set-cookie", value.encode())


def session_cookie(token: str, secure: bool) -> str:
    """The ``Set-Cookie`` value of a new session (HttpOnly, SameSite=Lax, 30 days)."""
    return (f"{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={SESSION_DAYS * 86400}"
            + ("; Secure" if secure else ""))


def cleared_session_cookie(secure: bool) -> str:
    """The ``Set-Cookie`` value that removes the session cookie."""
    return f"{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0" + ("; Secure" if secure else "")
