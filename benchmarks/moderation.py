"""What the moderators' queue and a voided series cost on a big ladder (issue 31 part 2).

The farming flags are read from the data at each look at the queue
(:func:`ginrummy.web.community.flags.farming_flags`), and voiding a series computes every rating
again from all the remaining rated matches (:func:`ginrummy.web.community.ratings.recompute_ratings`,
in the moderator's request).  This fills a temp SQLite file with ``--accounts`` accounts and
``--matches`` rated results between random pairs (one every 10 minutes; a farmed pair among
them), then times each once.  No server is started.

    python benchmarks/moderation.py                         # 1,000 accounts, 20,000 matches
    python benchmarks/moderation.py --accounts 200 --matches 2000
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import create_engine, insert

from ginrummy.web.community.accounts import Accounts
from ginrummy.web.community.flags import farming_flags
from ginrummy.web.community.ratings import recompute_ratings, result_players_t, results_t
from ginrummy.web.community.schema import accounts_t


def fill(engine, accounts: int, matches: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    with engine.begin() as conn:
        ids = [
            int(
                conn.execute(
                    insert(accounts_t).values(
                        name=f"p{i}",
                        name_key=f"p{i}",
                        kind="human",
                        password_hash=None,
                        created=t0.isoformat(),
                        deleted=0,
                        mu=25.0,
                        sigma=25 / 3,
                        ordinal=0.0,
                        matches=0,
                    )
                ).inserted_primary_key[0]
            )
            for i in range(accounts)
        ]
        res, players = [], []
        for m in range(matches):
            a, b = (ids[0], ids[1]) if m < 20 else rng.sample(ids, 2)  # one pair farms: 20 in a row
            when = (t0 + timedelta(minutes=10 * m)).isoformat(timespec="seconds")
            w = rng.randrange(2)
            res.append({"id": f"r{m:07d}", "finished": when, "rated": 1, "source": "table", "public": 1})
            for p, (me, other) in enumerate(((a, b), (b, a))):
                players.append(
                    {
                        "result_id": f"r{m:07d}",
                        "player": p,
                        "account_id": me,
                        "opponent_id": other,
                        "opponent_name": "x",
                        "finished": when,
                        "outcome": "win" if p == w else "loss",
                        "deals": 1,
                        "deals_won": int(p == w),
                        "knocks": 0,
                        "gins": 0,
                        "undercuts_made": 0,
                        "undercuts_suffered": 0,
                        "points": 0,
                        "knock_deadwood": 0,
                    }
                )
        conn.execute(insert(results_t), res)
        conn.execute(insert(result_players_t), players)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--accounts", type=int, default=1000)
    ap.add_argument("--matches", type=int, default=20000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        engine = create_engine(f"sqlite:///{Path(d) / 'gin.sqlite3'}")
        Accounts(engine)  # the tables
        fill(engine, args.accounts, args.matches)
        t = time.perf_counter()
        flags = farming_flags(engine)
        t_flags = time.perf_counter() - t
        t = time.perf_counter()
        with engine.begin() as conn:
            n = recompute_ratings(conn)
        t_re = time.perf_counter() - t
        print(
            f"{args.accounts} accounts, {args.matches} rated matches: {len(flags)} flags in {t_flags:.2f} s; "
            f"every rating recomputed from {n} matches in {t_re:.2f} s"
        )
        engine.dispose()


if __name__ == "__main__":
    main()
