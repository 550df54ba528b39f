"""Farming flags (``docs/accounts.md``, "Farming flags"), read from the data at each look, not
stored: a pair of accounts that played each other at least :data:`PAIR_FLAG_MATCHES` rated
matches within :data:`PAIR_FLAG_HOURS` hours, and accounts that signed in from one address (a
keyed hash of it: ``gin_signins``).  A flag leaves the moderators' queue once a moderator acted
on it (an audit entry naming the flag)."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.engine import Connection, Engine

from .ratings import result_players_t, results_t
from .schema import accounts_t, mod_actions_t, signins_t

__all__ = ["farming_flags", "PAIR_FLAG_MATCHES", "PAIR_FLAG_HOURS"]

PAIR_FLAG_MATCHES = 10
PAIR_FLAG_HOURS = 24


def _names(conn: Connection, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    rows = conn.execute(select(accounts_t.c.id, accounts_t.c.name).where(accounts_t.c.id.in_(sorted(ids))))
    return {int(r.id): (r.name or "") for r in rows}


def _flag(key: str, kind: str, accounts: list[str], matches: list[Any]) -> dict[str, Any]:
    return {
        "flag": key,
        "kind": kind,
        "accounts": accounts,
        "count": len(matches),
        "first": matches[0].finished if matches else None,
        "last": matches[-1].finished if matches else None,
        "matches": [m.result_id for m in matches],
    }


def farming_flags(engine: Engine) -> list[dict[str, Any]]:
    """The farming flags no moderator acted on: ``{"flag": key, "kind": "pair" |
    "address", "accounts": [names], "count", "first", "last", "matches": [ids]}``.  A
    ``pair`` flag: the two accounts played each other at least :data:`PAIR_FLAG_MATCHES`
    rated matches within :data:`PAIR_FLAG_HOURS` hours (``count`` in the busiest such
    window, ``matches`` and dates of that window); an ``address`` flag: accounts that
    signed in from one address (``count`` accounts; ``matches``: their rated matches
    against each other)."""
    with engine.connect() as conn:
        done = {r.flag for r in conn.execute(select(mod_actions_t.c.flag).where(mod_actions_t.c.flag.is_not(None)))}
        rp, o = result_players_t, result_players_t.alias("o")
        rows = conn.execute(
            select(rp.c.result_id, rp.c.finished, rp.c.account_id, o.c.account_id.label("other"))
            .join(o, and_(o.c.result_id == rp.c.result_id, o.c.player != rp.c.player))
            .join(results_t, results_t.c.id == rp.c.result_id)
            .join(accounts_t, accounts_t.c.id == rp.c.account_id)
            .where(and_(results_t.c.rated == 1, rp.c.player == 0, accounts_t.c.kind == "human"))
            .order_by(rp.c.finished, rp.c.result_id)
        ).all()
        shared = conn.execute(
            select(signins_t.c.address_hash)
            .group_by(signins_t.c.address_hash)
            .having(func.count(signins_t.c.account_id) > 1)
        ).all()
        groups = {
            s.address_hash: sorted(
                int(r.account_id)
                for r in conn.execute(select(signins_t.c.account_id).where(signins_t.c.address_hash == s.address_hash))
            )
            for s in shared
        }
        ids = {int(x) for r in rows for x in (r.account_id, r.other) if x is not None}
        names = _names(conn, ids | {a for g in groups.values() for a in g})
    pairs: dict[tuple[int, int], list[Any]] = defaultdict(list)
    for r in rows:
        if r.account_id is not None and r.other is not None:
            pairs[(min(r.account_id, r.other), max(r.account_id, r.other))].append(r)
    out: list[dict[str, Any]] = []
    span = timedelta(hours=PAIR_FLAG_HOURS)
    for (a, b), ms in sorted(pairs.items()):
        best: list[Any] = []
        lo = 0
        for hi in range(len(ms)):
            while datetime.fromisoformat(ms[hi].finished) - datetime.fromisoformat(ms[lo].finished) > span:
                lo += 1
            if hi - lo + 1 > len(best):
                best = ms[lo : hi + 1]
        key = f"pair:{a}:{b}"
        if len(best) >= PAIR_FLAG_MATCHES and key not in done:
            out.append(_flag(key, "pair", [names[a], names[b]], best))
    for h, accs in sorted(groups.items()):
        key = f"address:{h[:16]}:" + ",".join(map(str, accs))
        if key not in done:
            mine = [ms for (a, b), ms in pairs.items() if a in accs and b in accs]
            matches = sorted((m for ms in mine for m in ms), key=lambda m: (m.finished, m.result_id))
            f = _flag(key, "address", [names[a] for a in accs], matches)
            out.append({**f, "count": len(accs)})
    return out
