"""Bot accounts and their API tokens (issue 35, docs/bot-api.md).

A signed-in person turns a fresh account (no rated match played, a person's account, not his
own) into a bot account he owns (``gin_bots``; its ``gin_accounts.kind`` becomes ``"bot"``, for
good): it can no longer sign in to the pages (:meth:`~ginrummy.web.community.accounts.Accounts.verify`
finds people only) and its sessions end.  The owner makes named API tokens for it, each with
some of :data:`SCOPES`: the secret (``gin_`` + 43 URL-safe characters, 32 random bytes) is
shown once, only its SHA-256 is stored (``gin_api_tokens``), with the time of its last use; a
revoked token opens nothing.  Tables: :mod:`ginrummy.web.community.schema`.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Engine

from ..errors import ErrorCode, WebError
from ..texts import W_
from .accounts import Account, Accounts
from .schema import accounts_t, api_tokens_t, bots_t, sessions_t

__all__ = ["Bots", "BotToken", "SCOPES", "TOKEN_PREFIX", "TOKENS_PER_BOT", "BOTS_PER_OWNER", "api_token_hash"]

SCOPES = ("play", "challenge", "chat")
"""``play``: seek, accept or decline challenges, take a seat, read the events; ``challenge``:
challenge an account or a computer level; ``chat``: say a line at the bot's table."""
TOKEN_PREFIX = "gin_"
TOKENS_PER_BOT = 20
"""At most this many live (not revoked) tokens per bot account."""
BOTS_PER_OWNER = 10
"""At most this many bot accounts per person."""


def api_token_hash(secret: str) -> str:
    """SHA-256 of an API token's secret (its UTF-8 bytes), hex."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def _iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class BotToken:
    """An authenticated API request: the bot ``account``, the token's ``id`` and ``scopes``."""

    account: Account
    id: int
    scopes: frozenset[str]


class Bots:
    """Bot accounts and API tokens over ``accounts`` (its engine)."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.engine: Engine = accounts.engine

    def make_bot(self, owner: Account, name: Any, password: Any, address: str = "") -> Account:
        """Turn the account ``name`` (its ``password`` proves it is the owner's) into a bot
        account owned by ``owner``.  Raises :class:`WebError`: ``not_signed_in`` unless
        ``owner`` is a person; ``wrong_password``/``rate_limited`` (the sign-in's checks);
        ``not_allowed`` for the owner's own account, an account that played a rated match, or
        too many bots (:data:`BOTS_PER_OWNER`)."""
        if owner.kind != "human":
            raise WebError(ErrorCode.NOT_ALLOWED, W_("only a person's account can own a bot account"))
        bot = self.accounts.verify(name, password, address=f"bot:{owner.id}:{address}")
        if bot.id == owner.id:
            raise WebError(ErrorCode.NOT_ALLOWED, W_("make a new account for the bot: your own cannot become one"))
        with self.engine.begin() as conn:
            row = conn.execute(select(accounts_t.c.matches).where(accounts_t.c.id == bot.id)).one()
            if int(row.matches):
                raise WebError(
                    ErrorCode.NOT_ALLOWED, W_("only a fresh account, with no rated match played, can become a bot")
                )
            owned = conn.execute(select(bots_t.c.account_id).where(bots_t.c.owner_id == owner.id)).all()
            if len(owned) >= BOTS_PER_OWNER:
                raise WebError(ErrorCode.NOT_ALLOWED, W_("you own {n} bot accounts already", n=len(owned)))
            conn.execute(update(accounts_t).where(accounts_t.c.id == bot.id).values(kind="bot", password_hash=None))
            conn.execute(delete(sessions_t).where(sessions_t.c.account_id == bot.id))
            conn.execute(insert(bots_t).values(account_id=bot.id, owner_id=owner.id, created=_iso()))
        return Account(bot.id, bot.name, "bot")

    def owned(self, owner: Account) -> list[dict[str, Any]]:
        """``[{"name", "created", "tokens": [{"id", "name", "scopes", "created", "last_used",
        "revoked"}]}]`` of ``owner``'s bot accounts (never a secret, nor its hash)."""
        with self.engine.connect() as conn:
            bots = conn.execute(
                select(accounts_t.c.id, accounts_t.c.name, bots_t.c.created)
                .join(accounts_t, accounts_t.c.id == bots_t.c.account_id)
                .where(and_(bots_t.c.owner_id == owner.id, accounts_t.c.deleted == 0))
                .order_by(bots_t.c.created, accounts_t.c.id)
            ).all()
            tokens = conn.execute(
                select(api_tokens_t)
                .where(api_tokens_t.c.account_id.in_([b.id for b in bots]))
                .order_by(api_tokens_t.c.id)
            ).all()
        return [
            {
                "name": b.name,
                "created": b.created,
                "tokens": [
                    {
                        "id": int(t.id),
                        "name": t.name,
                        "scopes": t.scopes.split(),
                        "created": t.created,
                        "last_used": t.last_used,
                        "revoked": bool(t.revoked),
                    }
                    for t in tokens
                    if t.account_id == b.id
                ],
            }
            for b in bots
        ]

    def _owned_bot(self, owner: Account, bot_name: str) -> int:
        for_owner = self.owner_of_name(bot_name)
        if for_owner is None or for_owner[1] != owner.id:
            raise WebError(ErrorCode.NOT_FOUND, W_("you own no bot account named {name}", name=bot_name[:40]))
        return for_owner[0]

    def owner_of_name(self, bot_name: str) -> tuple[int, int] | None:
        """``(bot account id, owner id)`` of the bot account named ``bot_name``, else ``None``."""
        from .accounts import typed_name_key

        with self.engine.connect() as conn:
            row = conn.execute(
                select(bots_t.c.account_id, bots_t.c.owner_id)
                .join(accounts_t, accounts_t.c.id == bots_t.c.account_id)
                .where(and_(accounts_t.c.name_key == typed_name_key(bot_name), accounts_t.c.deleted == 0))
            ).first()
        return None if row is None else (int(row.account_id), int(row.owner_id))

    def mint(self, owner: Account, bot_name: str, token_name: str, scopes: list[str]) -> tuple[dict[str, Any], str]:
        """A new token for ``owner``'s bot ``bot_name``: ``(its listing, the secret)``; the
        secret is never stored nor shown again.  Raises :class:`WebError`: ``not_found`` (not
        his bot), ``bad_message`` (an unknown or no scope), ``not_allowed`` (too many tokens)."""
        bot_id = self._owned_bot(owner, bot_name)
        wanted = sorted(set(scopes))
        if not wanted or any(s not in SCOPES for s in wanted):
            raise WebError(
                ErrorCode.BAD_MESSAGE,
                W_("a token's scopes are some of: {allowed}", allowed=", ".join(SCOPES)),
            )
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        row = {
            "token_hash": api_token_hash(secret),
            "account_id": bot_id,
            "name": token_name,
            "scopes": " ".join(wanted),
            "created": _iso(),
            "last_used": None,
            "revoked": 0,
        }
        with self.engine.begin() as conn:
            live = conn.execute(
                select(api_tokens_t.c.id).where(and_(api_tokens_t.c.account_id == bot_id, api_tokens_t.c.revoked == 0))
            ).all()
            if len(live) >= TOKENS_PER_BOT:
                raise WebError(ErrorCode.NOT_ALLOWED, W_("a bot account has at most {n} tokens", n=TOKENS_PER_BOT))
            new_id = int(conn.execute(insert(api_tokens_t).values(**row)).inserted_primary_key[0])  # type: ignore[index]
        listing = {"id": new_id, "name": token_name, "scopes": wanted, "created": row["created"]}
        return {**listing, "last_used": None, "revoked": False}, secret

    def revoke(self, owner: Account, bot_name: str, token_id: int) -> None:
        """Revoke token ``token_id`` of ``owner``'s bot ``bot_name`` (for good).  Raises
        :class:`WebError` ``not_found`` for no such token of his."""
        bot_id = self._owned_bot(owner, bot_name)
        with self.engine.begin() as conn:
            n = conn.execute(
                update(api_tokens_t)
                .where(and_(api_tokens_t.c.id == token_id, api_tokens_t.c.account_id == bot_id))
                .values(revoked=1)
            ).rowcount
        if not n:
            raise WebError(ErrorCode.NOT_FOUND, W_("no such token"))

    def authenticate(self, secret: str | None) -> BotToken | None:
        """The bot and scopes of a live token's ``secret`` (its last use noted), else ``None``
        (no, unknown or revoked token, or a deleted bot)."""
        if not secret or len(secret) > 200:
            return None
        with self.engine.begin() as conn:
            row = conn.execute(
                select(api_tokens_t.c.id, api_tokens_t.c.scopes, accounts_t.c.id.label("aid"), accounts_t.c.name)
                .join(accounts_t, accounts_t.c.id == api_tokens_t.c.account_id)
                .where(
                    and_(
                        api_tokens_t.c.token_hash == api_token_hash(secret),
                        api_tokens_t.c.revoked == 0,
                        accounts_t.c.deleted == 0,
                        accounts_t.c.kind == "bot",
                    )
                )
            ).first()
            if row is None:
                return None
            conn.execute(update(api_tokens_t).where(api_tokens_t.c.id == row.id).values(last_used=_iso()))
        return BotToken(Account(int(row.aid), str(row.name), "bot"), int(row.id), frozenset(row.scopes.split()))

    def is_bot(self, account_id: int) -> bool:
        """Whether ``account_id`` is a bot account."""
        with self.engine.connect() as conn:
            return (
                conn.execute(select(bots_t.c.account_id).where(bots_t.c.account_id == account_id)).first() is not None
            )
