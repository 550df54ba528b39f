"""Stored tables written straight into a ``gin serve`` store, for the benchmarks (issue 27).

``fill_table`` writes one table the way the server stores it (``Store.create_table`` and the
``actions`` rows ``TableManager`` appends: ``client_seed``, ``deal``, ``action``,
``next_deal``), its moves chosen by the engine's own players, and checks nothing else: the
server replays the steps at start-up (``TableManager.load_all``), so a wrong step would show
there as a skipped table.  Used by ``benchmarks/abuse.py`` (a long match whose record is
downloaded) and ``benchmarks/restart.py`` (a store of 1,000 tables of every kind).
"""

from __future__ import annotations

import random
import secrets
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from sqlalchemy import insert  # noqa: E402

from ginrummy.players import make_player  # noqa: E402
from ginrummy.rules import RuleSet, preset  # noqa: E402
from ginrummy.web.room.seats import secret_hash  # noqa: E402
from ginrummy.web.db.store import SeatSecret, Store, TableRow, actions_t  # noqa: E402
from ginrummy.web.room.table import Table  # noqa: E402


def fill_table(store: Store, kinds: list[str], rules: RuleSet, *, max_steps: int, rng: random.Random,
               options: dict[str, Any] | None = None, level: str = "novice") -> tuple[str, str | None, int]:
    """Store one table of seats ``kinds`` (``"human"`` or ``"bot:LEVEL"``) under ``rules`` and
    play it with ``level`` players for every seat (people too) for at most ``max_steps`` stored
    steps, or to the end of the match.  Returns ``(table id, the first person's seat token or
    None, steps stored)``.  The person's client seeds are sent for every deal, as the page does."""
    names = [("Ann", "Bob", "Cy")[i] if k == "human" else f"Computer {i + 1}" for i, k in enumerate(kinds)]
    rules = rules.replace(players=len(kinds)) if rules.players != len(kinds) else rules
    row = TableRow(id=secrets.token_hex(6), created=Store.now(), rules=rules.to_dict(), names=names,
                   seats=kinds, tokens=[], seed=rng.randbytes(32))
    token = None
    seats: list[SeatSecret] = []
    for i, k in enumerate(kinds):
        if k == "human":
            t = secrets.token_urlsafe(18)
            if token is None:
                token = t
                seats.append(SeatSecret(i, secret_hash(t), None))
            else:
                seats.append(SeatSecret(i, None, secret_hash(secrets.token_urlsafe(18))))
    store.create_table(row, seats, options)
    from ginrummy.match import Match

    table = Table(row, None if seats else Match.new(rules, names, row.seed), seat_secrets=seats,
                  options=dict(options or {}))
    players = [make_player(level, random.Random(rng.random())) for _ in kinds]
    steps: list[dict[str, Any]] = []
    t0 = datetime.now(timezone.utc) - timedelta(hours=1)

    def add(player: int | None, kind: str, text: str) -> None:
        at = (t0 + timedelta(milliseconds=len(steps))).isoformat(timespec="milliseconds")
        steps.append({"table_id": row.id, "seq": len(steps) + 1, "player": player, "kind": kind, "text": text,
                      "created": at})

    humans = [i for i, k in enumerate(kinds) if k == "human"]

    def seeds_then(kind: str) -> None:
        deal = table.next_deal_number
        for p in humans:
            seed = f"s{rng.getrandbits(64):x}"
            add(p, "client_seed", f'{{"deal": {deal}, "seed": "{seed}"}}')
            table.pending_seeds[p] = seed
        add(None, kind, "deal" if kind == "deal" else "next deal")
        table.deal_next(kind)

    if humans:
        seeds_then("deal")
    while len(steps) < max_steps:
        m = table.started_match()
        if m.deal.is_over:
            if m.finished:
                break
            if humans:
                seeds_then("next_deal")
            else:
                add(None, "next_deal", "next deal")
                table.deal_next("next_deal")
            continue
        p = m.player_to_act()
        v = m.view(p)
        a = players[p].choose(v, v.legal)
        add(p, "action", a.text)
        m.apply(p, a)
    with store.engine.begin() as conn:
        if steps:
            conn.execute(insert(actions_t), steps)
    return row.id, token, len(steps)


def rules_of(name: str, **fields: Any) -> RuleSet:
    """The preset ``name`` with ``fields`` replaced."""
    return preset(name).replace(**fields) if fields else preset(name)
