"""Block, mute, report and the moderators' work, all in the database (``docs/accounts.md``,
"Block, mute, report" and "Moderation"), so that every server process sees a block, a ban or
a suspension made on another one at its next check (every check reads the database).

Tables (web/community/schema.py, migration ``0003_moderation``): ``gin_relations`` (who
blocked or muted whom), ``gin_reports``, ``gin_sanctions`` (lobby mutes, bars from rated
play, suspensions, closings; each until a time or for good), ``gin_mod_actions`` (the audit
log: who, when, what, why), ``gin_signins`` (a keyed hash of each address an account signed
in from, never the address), ``gin_voided_results`` and ``gin_settings``.

Farming flags are read from the data, not stored (:mod:`ginrummy.web.community.flags`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Column, and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ..errors import WebError
from ..room.names import typed_name_key
from ..texts import W_
from .flags import PAIR_FLAG_HOURS, PAIR_FLAG_MATCHES, farming_flags
from .ratings import recompute_ratings, results_t
from .schema import (
    accounts_t,
    metadata,
    mod_actions_t,
    relations_t,
    reports_t,
    sanctions_t,
    sessions_t,
    settings_t,
    signins_t,
    voided_t,
)

__all__ = [
    "Moderation",
    "REASONS",
    "ACTIONS",
    "SANCTIONS",
    "PAIR_FLAG_MATCHES",
    "PAIR_FLAG_HOURS",
    "MAX_REPORT_TEXT",
    "MAX_REASON_TEXT",
    "MAX_OPEN_REPORTS",
    "MAX_RELATIONS",
]

REASONS = ("abuse", "cheating", "farming", "stalling", "spam", "other")
"""The reasons a report may give (``reason``), with free text beside."""

SANCTIONS = {"mute_lobby": "lobby_mute", "bar_rated": "rated_bar", "suspend": "suspend", "close": "close"}
"""The actions that put a sanction on an account, and the sanction's kind."""

ACTIONS = ("warn", "delete_message", *SANCTIONS, "void_series", "dismiss")
"""The moderators' actions (``POST /api/moderation/actions``)."""

MAX_REPORT_TEXT = 500
MAX_REASON_TEXT = 500
MAX_OPEN_REPORTS = 20
"""At most this many open reports (no moderator answered yet) from one account."""
MAX_RELATIONS = 1000
"""At most this many accounts blocked and muted by one account."""


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


class Moderation:
    """Relations, reports, sanctions and the audit log over ``engine`` (the table store's).

    ``address_key``: the secret key of the sign-in address hashes (``gin serve`` reads
    ``GIN_ADDRESS_KEY``); ``None``: a random key made once and kept in ``gin_settings``, so
    that every process of one database hashes alike."""

    def __init__(self, engine: Engine, address_key: bytes | None = None) -> None:
        self.engine = engine
        metadata.create_all(engine)
        self._key = address_key

    # -- names ------------------------------------------------------------------------------

    def account_id(self, name: Any, conn: Connection | None = None) -> int:
        """The id of the person's account called ``name`` (case-insensitively), not deleted.
        Raises :class:`WebError` ``not_found``."""
        key = typed_name_key(name) if isinstance(name, str) else ""
        q = select(accounts_t.c.id).where(
            and_(accounts_t.c.name_key == key, accounts_t.c.deleted == 0, accounts_t.c.kind == "human")
        )
        if conn is None:
            with self.engine.connect() as c:
                row = c.execute(q).first()
        else:
            row = conn.execute(q).first()
        if row is None:
            raise WebError("not_found", W_("no player is called {name}", name=str(name)[:80]))
        return int(row.id)

    def _names(self, conn: Connection, ids: set[int]) -> dict[int, str]:
        if not ids:
            return {}
        rows = conn.execute(select(accounts_t.c.id, accounts_t.c.name).where(accounts_t.c.id.in_(sorted(ids))))
        return {int(r.id): (r.name or "") for r in rows}

    # -- block and mute ---------------------------------------------------------------------

    def relate(self, owner: int, name: Any, kind: str) -> str:
        """``owner`` blocks (``kind`` ``"block"``) or mutes (``"mute"``) the account ``name``;
        doing it twice changes nothing.  Returns the account's name.  Raises :class:`WebError`
        ``not_found``, ``bad_request`` for oneself, ``rate_limited`` past :data:`MAX_RELATIONS`."""
        with self.engine.begin() as conn:
            target = self.account_id(name, conn)
            if target == owner:
                raise WebError("bad_request", W_("you cannot block or mute yourself"))
            have = conn.execute(
                select(relations_t.c.kind).where(
                    and_(relations_t.c.owner_id == owner, relations_t.c.target_id == target, relations_t.c.kind == kind)
                )
            ).first()
            if have is None:
                held = conn.execute(select(func.count()).where(relations_t.c.owner_id == owner)).scalar_one()
                if held >= MAX_RELATIONS:
                    raise WebError(
                        "rate_limited",
                        W_("you block and mute {n} accounts already, the most there may be", n=MAX_RELATIONS),
                    )
                conn.execute(
                    insert(relations_t).values(owner_id=owner, target_id=target, kind=kind, created=_iso(_now()))
                )
            return self._names(conn, {target})[target]

    def unrelate(self, owner: int, name: Any, kind: str) -> None:
        """Undo :meth:`relate` (nothing if there was none).  Raises ``not_found``."""
        with self.engine.begin() as conn:
            target = self.account_id(name, conn)
            conn.execute(
                delete(relations_t).where(
                    and_(relations_t.c.owner_id == owner, relations_t.c.target_id == target, relations_t.c.kind == kind)
                )
            )

    def relations(self, owner: int) -> dict[str, list[str]]:
        """``{"blocked": [names], "muted": [names]}`` of ``owner``, sorted."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(relations_t.c.kind, accounts_t.c.name)
                .join(accounts_t, accounts_t.c.id == relations_t.c.target_id)
                .where(and_(relations_t.c.owner_id == owner, accounts_t.c.deleted == 0))
            ).all()
        out: dict[str, list[str]] = {"blocked": [], "muted": []}
        for r in rows:
            out["blocked" if r.kind == "block" else "muted"].append(r.name)
        return {k: sorted(v, key=str.casefold) for k, v in out.items()}

    def blocked_among(self, account: int, others: set[int]) -> bool:
        """Whether ``account`` blocked any of ``others`` or one of them blocked him."""
        others = others - {account}
        if not others:
            return False
        ids = sorted(others)
        with self.engine.connect() as conn:
            row = conn.execute(
                select(relations_t.c.owner_id).where(
                    and_(
                        relations_t.c.kind == "block",
                        or_(
                            and_(relations_t.c.owner_id == account, relations_t.c.target_id.in_(ids)),
                            and_(relations_t.c.target_id == account, relations_t.c.owner_id.in_(ids)),
                        ),
                    )
                )
            ).first()
        return row is not None

    def _kept_apart(self, account: int, *, block_side: Column[Any], any_side: Column[Any]) -> set[int]:
        """The accounts at the other end of ``account``'s relations (``gin_relations``) that
        keep chat apart: the rows where ``account`` stands in the ``any_side`` column (a block
        or a mute) and the blocks where he stands in the ``block_side`` column. The two
        directions: :meth:`kept_from` (the sender is a target, or an owner of a block) and
        :meth:`hidden_for` (the viewer is an owner, or a target of a block)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(block_side, any_side).where(
                    or_(
                        any_side == account,
                        and_(block_side == account, relations_t.c.kind == "block"),
                    )
                )
            ).all()
        return {int(block) if int(any_) == account else int(any_) for block, any_ in rows}

    def kept_from(self, sender: int) -> set[int]:
        """The accounts that must not see ``sender``'s chat: those who blocked or muted him,
        and those he blocked."""
        return self._kept_apart(sender, block_side=relations_t.c.owner_id, any_side=relations_t.c.target_id)

    def hidden_for(self, viewer: int) -> set[int]:
        """The accounts whose chat ``viewer`` must not see: those he blocked or muted, and
        those who blocked him."""
        return self._kept_apart(viewer, block_side=relations_t.c.target_id, any_side=relations_t.c.owner_id)

    # -- sanctions ----------------------------------------------------------------------------

    def sanction(self, account: int, kinds: tuple[str, ...]) -> dict[str, Any] | None:
        """The sanction of one of ``kinds`` in force on ``account`` now (the longest), as
        ``{"kind", "until" (ISO time, or None: for good), "reason"}``, else ``None``."""
        now = _iso(_now())
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(sanctions_t.c.kind, sanctions_t.c.until, mod_actions_t.c.reason)
                .join(mod_actions_t, mod_actions_t.c.id == sanctions_t.c.action_id)
                .where(
                    and_(
                        sanctions_t.c.account_id == account,
                        sanctions_t.c.kind.in_(kinds),
                        or_(sanctions_t.c.until.is_(None), sanctions_t.c.until > now),
                    )
                )
            ).all()
        if not rows:
            return None
        r = max(rows, key=lambda r: "9" if r.until is None else r.until)
        return {"kind": r.kind, "until": r.until, "reason": r.reason}

    def refusal(self, account: int, kinds: tuple[str, ...]) -> WebError | None:
        """The error refusing ``account`` because of a sanction of ``kinds`` in force (its
        reason and until when), else ``None``: ``suspended`` for a suspension or a closing,
        ``barred`` for a bar from rated play, ``muted`` for a lobby mute."""
        s = self.sanction(account, kinds)
        if s is None:
            return None
        until, reason = s["until"], s["reason"]
        if s["kind"] == "close":
            return WebError("suspended", W_("this account was closed by a moderator: {reason}", reason=reason))
        if s["kind"] == "suspend":
            if until is None:
                return WebError("suspended", W_("this account is suspended by a moderator: {reason}", reason=reason))
            return WebError(
                "suspended",
                W_("this account is suspended until {until} by a moderator: {reason}", until=until, reason=reason),
            )
        if s["kind"] == "rated_bar":
            if until is None:
                return WebError("barred", W_("you are barred from rated play by a moderator: {reason}", reason=reason))
            return WebError(
                "barred",
                W_("you are barred from rated play until {until} by a moderator: {reason}", until=until, reason=reason),
            )
        if until is None:
            return WebError("muted", W_("you are muted in the lobby by a moderator: {reason}", reason=reason))
        return WebError(
            "muted", W_("you are muted in the lobby until {until} by a moderator: {reason}", until=until, reason=reason)
        )

    # -- sign-in addresses -------------------------------------------------------------------

    def _address_key(self) -> bytes:
        if self._key is None:
            with self.engine.begin() as conn:
                row = conn.execute(select(settings_t.c.value).where(settings_t.c.name == "address_key")).first()
            if row is None:
                try:
                    with self.engine.begin() as conn:
                        conn.execute(insert(settings_t).values(name="address_key", value=secrets.token_hex(32)))
                except IntegrityError:  # another process made it first: read his
                    pass
                with self.engine.connect() as conn:
                    row = conn.execute(select(settings_t.c.value).where(settings_t.c.name == "address_key")).one()
            self._key = bytes.fromhex(row.value)
        return self._key

    def address_hash(self, address: str) -> str:
        """HMAC-SHA256 of ``address`` under the address key, hex (the address is never stored)."""
        return hmac.new(self._address_key(), address.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    def signed_in(self, account: int, address: str) -> None:
        """Note that ``account`` signed in (or up) from ``address`` (its keyed hash only)."""
        h, now = self.address_hash(address), _iso(_now())
        with self.engine.begin() as conn:
            done = conn.execute(
                update(signins_t)
                .where(and_(signins_t.c.account_id == account, signins_t.c.address_hash == h))
                .values(last=now)
            ).rowcount
            if not done:
                try:
                    with conn.begin_nested():
                        conn.execute(insert(signins_t).values(account_id=account, address_hash=h, last=now))
                except IntegrityError:  # the same sign-in on another process at once
                    pass

    # -- reports ------------------------------------------------------------------------------

    def report(
        self,
        reporter: int,
        *,
        reason: str,
        text: str,
        subject: str | None = None,
        table_id: str | None = None,
        message: str | None = None,
        chat: list[dict[str, Any]] | None = None,
    ) -> int:
        """File a report; returns its id.  ``subject``: the reported person's name (or
        ``None``); ``table_id``: the table (its replay is kept with the table); ``message``: the
        reported chat line; ``chat``: the table's (or lobby's) chat log now, kept as evidence.
        Raises ``not_found`` for an unknown ``subject``, ``rate_limited`` past
        :data:`MAX_OPEN_REPORTS` open reports of ``reporter``."""
        with self.engine.begin() as conn:
            sid = None if subject is None else self.account_id(subject, conn)
            open_now = conn.execute(
                select(func.count()).where(and_(reports_t.c.reporter_id == reporter, reports_t.c.closed.is_(None)))
            ).scalar_one()
            if open_now >= MAX_OPEN_REPORTS:
                raise WebError(
                    "rate_limited",
                    W_("you have {n} reports waiting for the moderators, the most there may be", n=MAX_OPEN_REPORTS),
                )
            res = conn.execute(
                insert(reports_t).values(
                    reporter_id=reporter,
                    subject_id=sid,
                    table_id=table_id,
                    message=message,
                    reason=reason,
                    text=text,
                    chat=json.dumps(chat or [], ensure_ascii=False),
                    created=_iso(_now()),
                    closed=None,
                )
            )
            return int(res.inserted_primary_key[0])  # type: ignore[index]

    # -- the queue ----------------------------------------------------------------------------

    def queue(self) -> dict[str, Any]:
        """The moderators' queue: ``{"reports": [...], "flags": [...]}``, open ones only.
        A report: ``{"id", "created", "reporter", "subject", "table_id", "message", "reason",
        "text", "chat"}``; a flag (:func:`~ginrummy.web.community.flags.farming_flags`)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(reports_t).where(reports_t.c.closed.is_(None)).order_by(reports_t.c.id)).all()
            names = self._names(
                conn, {int(r.reporter_id) for r in rows} | {int(r.subject_id) for r in rows if r.subject_id}
            )
        reports = [
            {
                "id": int(r.id),
                "created": r.created,
                "reporter": names.get(int(r.reporter_id)),
                "subject": None if r.subject_id is None else names.get(int(r.subject_id)),
                "table_id": r.table_id,
                "message": r.message,
                "reason": r.reason,
                "text": r.text,
                "chat": json.loads(r.chat),
            }
            for r in rows
        ]
        return {"reports": reports, "flags": farming_flags(self.engine)}

    # -- actions ------------------------------------------------------------------------------

    def act(
        self,
        moderator: int,
        action: str,
        *,
        reason: str,
        name: str | None = None,
        until: str | None = None,
        report_id: int | None = None,
        flag: str | None = None,
        detail: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Take moderator ``action`` (:data:`ACTIONS`) on the account ``name`` and write it to
        the audit log in one transaction; closes ``report_id`` and ``flag``.  ``until``: ISO
        time of a sanction's end (``None``: for good).  ``detail``: what else the action
        needs: ``{"message": text}`` (``delete_message``: the table's id is
        ``detail["table_id"]``; the caller removes the line from the live chat),
        ``{"matches": [result ids]}`` (``void_series``: their ratings are voided and every
        rating recomputed from the remaining rated matches).  Returns the audit entry.
        Raises :class:`WebError` ``not_found`` (a name), ``bad_request`` (an action without
        the account it needs)."""
        if until is not None:  # one form, UTC, so that times compare as text
            t = datetime.fromisoformat(until)
            until = _iso((t if t.tzinfo else t.replace(tzinfo=UTC)).astimezone(UTC))
        with self.engine.begin() as conn:
            account = None if name is None else self.account_id(name, conn)
            if account is None and action in ("warn", *SANCTIONS):
                raise WebError("bad_request", W_("the action {action} needs the name of an account", action=action))
            res = conn.execute(
                insert(mod_actions_t).values(
                    created=_iso(_now()),
                    moderator_id=moderator,
                    account_id=account,
                    action=action,
                    reason=reason,
                    until=until,
                    report_id=report_id,
                    flag=flag,
                    detail=json.dumps(detail or {}, ensure_ascii=False),
                    seen=0,
                )
            )
            aid = int(res.inserted_primary_key[0])  # type: ignore[index]
            if action in SANCTIONS and account is not None:
                conn.execute(
                    insert(sanctions_t).values(account_id=account, kind=SANCTIONS[action], until=until, action_id=aid)
                )
                if action in ("suspend", "close"):  # every session ends now, on every process
                    conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account))
            if action == "void_series":
                ids = [str(m) for m in (detail or {}).get("matches", [])]
                for rid in ids:
                    if conn.execute(select(voided_t.c.result_id).where(voided_t.c.result_id == rid)).first() is None:
                        conn.execute(insert(voided_t).values(result_id=rid, action_id=aid))
                conn.execute(update(results_t).where(results_t.c.id.in_(ids)).values(rated=0))
                recompute_ratings(conn)
            if report_id is not None:
                conn.execute(update(reports_t).where(reports_t.c.id == report_id).values(closed=_iso(_now())))
        return self.audit(1, action_id=aid)[0]

    def audit(self, limit: int = 100, *, action_id: int | None = None) -> list[dict[str, Any]]:
        """The audit log, newest first: ``{"id", "created", "moderator", "account", "action",
        "reason", "until", "report_id", "flag", "detail"}``."""
        q = select(mod_actions_t).order_by(mod_actions_t.c.id.desc()).limit(limit)
        if action_id is not None:
            q = q.where(mod_actions_t.c.id == action_id)
        with self.engine.connect() as conn:
            rows = conn.execute(q).all()
            names = self._names(
                conn, {int(r.moderator_id) for r in rows} | {int(r.account_id) for r in rows if r.account_id}
            )
        return [
            {
                "id": int(r.id),
                "created": r.created,
                "moderator": names.get(int(r.moderator_id)),
                "account": None if r.account_id is None else names.get(int(r.account_id)),
                "action": r.action,
                "reason": r.reason,
                "until": r.until,
                "report_id": r.report_id,
                "flag": r.flag,
                "detail": json.loads(r.detail),
            }
            for r in rows
        ]

    def notices(self, account: int) -> list[dict[str, Any]]:
        """What moderators did about ``account``, newest first: ``{"action", "reason",
        "until", "created"}`` (the moderator's name is not said)."""
        q = (
            select(mod_actions_t.c.action, mod_actions_t.c.reason, mod_actions_t.c.until, mod_actions_t.c.created)
            .where(mod_actions_t.c.account_id == account)
            .order_by(mod_actions_t.c.id.desc())
            .limit(50)
        )
        with self.engine.connect() as c:
            rows = c.execute(q).all()
        return [{"action": r.action, "reason": r.reason, "until": r.until, "created": r.created} for r in rows]

    def is_moderator(self, account: int) -> bool:
        """Whether ``account`` has the moderator role (read now: a role taken away holds at once)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts_t.c.role).where(accounts_t.c.id == account)).first()
        return row is not None and row.role == "moderator"
