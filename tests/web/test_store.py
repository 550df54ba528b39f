"""The table store on SQLite and PostgreSQL: database URLs (``postgres://`` and
``postgresql://`` mean psycopg 3), passwords never printed, and the group commit of
web/db/commit.py (steps that arrive together share one transaction; a step that lost a race
fails alone; nothing is acknowledged before it is stored)."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest
from sqlalchemy.exc import IntegrityError

from ginrummy.cli.server.serve import database_error
from ginrummy.web.db.commit import CommitterStopped, GroupCommitter
from ginrummy.web.db.store import Store, TableRow, engine_url, masked_url
from ginrummy.web.room.follower import parse_payload

from .conftest import STORES, database_url


@pytest.fixture(params=STORES)
def db_url(request, tmp_path):
    yield from database_url(request.param, tmp_path)


def test_postgres_urls_map_to_psycopg_and_others_stay() -> None:
    assert engine_url("postgres://ann@db.example/gin").drivername == "postgresql+psycopg"
    assert engine_url("postgresql://ann:pw@db.example:5433/gin").drivername == "postgresql+psycopg"
    assert engine_url("postgresql+psycopg://ann@h/gin").drivername == "postgresql+psycopg"
    u = engine_url("postgres://ann:pw@db.example:5433/gin")
    assert (u.username, u.password, u.host, u.port, u.database) == ("ann", "pw", "db.example", 5433, "gin")
    assert engine_url("sqlite:///x.db").drivername == "sqlite"


def test_masked_url_hides_the_password() -> None:
    assert masked_url("postgresql://ann:s3cret@db.example/gin") == "postgresql://ann:***@db.example/gin"
    assert masked_url("sqlite:///tmp/x.db") == "sqlite:///tmp/x.db"
    assert masked_url("ann:s3cret and nonsense") == "<not a database URL>"


def test_database_error_never_shows_the_password() -> None:
    url = "postgresql://ann:s3cret@127.0.0.1:1/gin"
    line = database_error(url, RuntimeError(f"could not connect to {url} as ann with s3cret"))
    assert "s3cret" not in line
    assert line == (
        "cannot open the database postgresql://ann:***@127.0.0.1:1/gin: could not connect to "
        "postgresql://ann:***@127.0.0.1:1/gin as ann with ***"
    )
    missing = database_error(url, ModuleNotFoundError("No module named 'psycopg'"))
    assert 'pip install "ginrummy[postgres]"' in missing and "s3cret" not in missing


def test_gin_serve_with_an_unreachable_postgresql_masks_the_password() -> None:
    # port 1 on 127.0.0.1: nothing listens there, so the connection is refused at once
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ginrummy",
            "serve",
            "--port",
            "0",
            "--database-url",
            "postgres://ann:s3cret@127.0.0.1:1/gin",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "s3cret" not in out.stdout + out.stderr
    assert out.stderr.startswith("gin: error: cannot open the database postgres://ann:***@127.0.0.1:1/gin: ")
    assert "Connection refused" in out.stderr


def test_notify_payloads_are_parsed_strictly() -> None:
    assert parse_payload("ab12cd:17") == ("ab12cd", 17)
    assert parse_payload("ab12cd:") is None
    assert parse_payload("x y:3") is None
    assert parse_payload("'; drop:1") is None


def _table(store: Store, tid: str) -> None:
    store.create_table(
        TableRow(
            id=tid,
            created=Store.now(),
            rules={"preset": "standard"},
            names=["A", "B"],
            seats=["human", "human"],
            tokens=["t1", "t2"],
            seed=b"\x01" * 32,
        )
    )


def test_steps_arriving_together_share_one_transaction(db_url: str) -> None:
    store = Store(db_url)
    try:
        for tid in ("aa", "bb", "cc"):
            _table(store, tid)
        committer = GroupCommitter(store)

        async def main() -> None:
            # nine steps of three tables arrive at once: one transaction
            await asyncio.gather(
                *(
                    committer.append(tid, seq, seq % 2, "action", f"discard {seq}S")
                    for tid in ("aa", "bb", "cc")
                    for seq in (1, 2, 3)
                )
            )
            assert (committer.batches, committer.steps) == (1, 9)
            # then one alone: its own transaction, at once
            await committer.append("aa", 4, None, "next_deal", "next deal")
            assert (committer.batches, committer.steps) == (2, 10)
            await committer.stop()

        asyncio.run(main())
        loaded = store.load("aa")
        assert loaded is not None
        assert [(s.seq, s.player, s.kind, s.text) for s in loaded[1]] == [
            (1, 1, "action", "discard 1S"),
            (2, 0, "action", "discard 2S"),
            (3, 1, "action", "discard 3S"),
            (4, None, "next_deal", "next deal"),
        ]
        assert [s.seq for s in store.load("cc")[1]] == [1, 2, 3]  # type: ignore[index]
    finally:
        store.close()


def test_a_step_asked_for_after_stop_is_refused_and_starts_no_writer(db_url: str) -> None:
    """After ``stop()`` (the server's shutdown, before the store is closed) a late step, say from
    a connection still open, is refused with nothing stored, and no writer thread or connection
    starts again; a new event loop (the same app run again) writes as before."""
    store = Store(db_url)
    try:
        _table(store, "aa")
        committer = GroupCommitter(store)

        async def first() -> None:
            await committer.append("aa", 1, 0, "action", "pass")
            await committer.stop()
            with pytest.raises(CommitterStopped, match="stopping"):
                await committer.append("aa", 2, 1, "action", "pass")
            assert committer._executor is None and committer._raw is None
            assert (committer.batches, committer.steps) == (1, 1)

        asyncio.run(first())
        assert [(s.seq, s.text) for s in store.load("aa")[1]] == [(1, "pass")]  # type: ignore[index]

        async def again() -> None:
            await committer.append("aa", 2, 1, "action", "draw stock")
            await committer.stop()

        asyncio.run(again())
        assert [(s.seq, s.text) for s in store.load("aa")[1]] == [(1, "pass"), (2, "draw stock")]  # type: ignore[index]
    finally:
        store.close()


def test_a_step_that_lost_the_race_fails_alone(db_url: str) -> None:
    store = Store(db_url)
    try:
        _table(store, "aa")
        _table(store, "bb")
        store.append("aa", 1, 0, "action", "pass")  # another writer stored aa's step 1 first
        committer = GroupCommitter(store)

        async def main() -> list[object]:
            out = await asyncio.gather(
                committer.append("aa", 1, 1, "action", "draw stock"),
                committer.append("bb", 1, 0, "action", "pass"),
                committer.append("bb", 2, 1, "action", "pass"),
                return_exceptions=True,
            )
            await committer.stop()
            return out

        results = asyncio.run(main())
        assert isinstance(results[0], IntegrityError) and results[1:] == [None, None]
        assert [(s.seq, s.text) for s in store.load("aa")[1]] == [(1, "pass")]  # type: ignore[index]
        assert [(s.seq, s.text) for s in store.load("bb")[1]] == [(1, "pass"), (2, "pass")]  # type: ignore[index]
    finally:
        store.close()


def test_postgresql_notifies_each_committed_step(db_url: str) -> None:
    if not db_url.startswith("postgres"):
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's")
    import psycopg

    store = Store(db_url)
    listener = psycopg.connect(
        engine_url(db_url).set(drivername="postgresql").render_as_string(hide_password=False), autocommit=True
    )
    try:
        _table(store, "aa")
        listener.execute("LISTEN gin_steps")
        committer = GroupCommitter(store)

        async def main() -> None:
            await asyncio.gather(*(committer.append("aa", seq, 0, "action", "pass") for seq in (1, 2, 3)))
            await committer.stop()

        asyncio.run(main())
        got = [(n.channel, n.payload) for n in listener.notifies(timeout=2.0, stop_after=3)]
        assert got == [("gin_steps", "aa:1"), ("gin_steps", "aa:2"), ("gin_steps", "aa:3")]
        assert committer.written == {"aa": 3}
    finally:
        listener.close()
        store.close()


def test_a_group_of_steps_is_stored_whole_or_not_at_all(db_url: str, monkeypatch) -> None:
    """``append_steps``: a person's move and the computer's answer (web/room/tables.py) go into one
    transaction, never split between two even at the batch limit, and a group with a step
    that lost its race stores none of its steps while the other groups of the batch commit."""
    import ginrummy.web.db.commit as commit

    monkeypatch.setattr(commit, "MAX_BATCH", 2)
    store = Store(db_url)
    try:
        for tid in ("aa", "bb", "cc"):
            _table(store, tid)
        store.append("cc", 2, 0, "action", "pass")  # another writer stored cc's step 2 first
        committer = GroupCommitter(store)

        async def main() -> list[object]:
            out = await asyncio.gather(
                committer.append_steps(
                    "aa",
                    [(1, 0, "action", "discard 7H"), (2, 1, "action", "draw stock"), (3, 1, "action", "discard 2C")],
                ),
                committer.append_steps("bb", [(1, 0, "action", "pass"), (2, 1, "action", "pass")]),
                committer.append_steps("cc", [(1, 1, "action", "draw stock"), (2, 1, "action", "discard 9S")]),
                return_exceptions=True,
            )
            await committer.stop()
            return out

        results = asyncio.run(main())
        assert results[:2] == [None, None] and isinstance(results[2], IntegrityError)
        # aa's three steps in the first transaction (past MAX_BATCH 2), bb's two in the next;
        # cc's group lost in the third: on SQLite that transaction fails, on PostgreSQL it
        # commits without cc's rows (its step 1 went in and was deleted again)
        assert (committer.batches, committer.steps) == (3 if store.is_postgresql else 2, 5)
        assert [(s.seq, s.text) for s in store.load("aa")[1]] == [  # type: ignore[index]
            (1, "discard 7H"),
            (2, "draw stock"),
            (3, "discard 2C"),
        ]
        assert [s.seq for s in store.load("bb")[1]] == [1, 2]  # type: ignore[index]
        assert [(s.seq, s.text) for s in store.load("cc")[1]] == [(2, "pass")]  # type: ignore[index]
    finally:
        store.close()


def test_the_sqlite_writer_keeps_full_durability_and_runs_also_work_in_the_step_transaction(tmp_path) -> None:
    """The group writer's own driver connection on SQLite (docs/deploy.md, "Group commit and
    durability") has the store's pragmas (WAL, ``synchronous=FULL``: 2); a batch with ``also``
    work is one transaction with it: a failing ``also`` stores none of its steps, a working one
    stores its rows with them."""
    store = Store(f"sqlite:///{tmp_path}/writer.db")
    try:
        _table(store, "aa")
        committer = GroupCommitter(store)
        pragmas: list[object] = []

        def extra_row(conn) -> None:  # work of the same transaction: one more row
            conn.exec_driver_sql(
                "INSERT INTO gin_actions (table_id, seq, player, kind, text, created) "
                "VALUES ('aa', 4, 0, 'action', 'pass', '2026-12-01T00:00:00.000+00:00')"
            )

        def fails(conn) -> None:
            raise RuntimeError("the rating could not be written")

        async def main() -> None:
            await committer.append("aa", 1, 0, "action", "pass")
            db = committer._raw.driver_connection
            pragmas.extend(
                [db.execute("PRAGMA journal_mode").fetchone()[0], db.execute("PRAGMA synchronous").fetchone()[0]]
            )
            with pytest.raises(RuntimeError):
                await committer.append_steps(
                    "aa", [(2, 1, "action", "pass"), (3, 0, "action", "draw stock")], also=fails
                )
            await committer.append_steps(
                "aa", [(2, 1, "action", "draw stock"), (3, 1, "action", "discard 2C")], also=extra_row
            )
            await committer.stop()

        asyncio.run(main())
        assert pragmas == ["wal", 2]
        assert committer._raw is None  # closed by stop()
        assert [(s.seq, s.text) for s in store.load("aa")[1]] == [  # type: ignore[index]
            (1, "pass"),
            (2, "draw stock"),
            (3, "discard 2C"),
            (4, "pass"),
        ]
    finally:
        store.close()
