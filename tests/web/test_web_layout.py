"""The web step of issue 29 (docs/architecture.md, "Inside web/"): one error type with a code
enum and one code -> HTTP status table, the level of a ``"bot:<level>"`` seat kind read in one
place, the game socket's dispatch table, and a step whose own work fails answered ``internal``
(a fault of ours), not passed off as a ``conflict``."""

from __future__ import annotations

import asyncio
import sqlite3
import typing

import pytest

from ginrummy.errors import GinRummyError
from ginrummy.rules import preset
from ginrummy.web.db.store import Store
from ginrummy.web.errors import HTTP_STATUS, ErrorCode, WebError, http_status
from ginrummy.web.levels import SeatKind, bot_kind, is_bot_kind, seat_level
from ginrummy.web.protocol.inbound import Inbound, SetLangMsg
from ginrummy.web.room.tables import SeatSpec, TableManager
from ginrummy.web.ws.game import HANDLERS


def test_the_four_coded_errors_are_one_type_with_one_name():
    # the old names of the four classes, kept as aliases of WebError after the web step, are gone:
    # nothing outside web/ documented them, and every module raises and catches WebError itself
    import importlib
    import pathlib
    import re

    import ginrummy.web

    old = {
        "community.accounts": "AccountError",
        "protocol.inbound": "MessageError",
        "protocol.bodies": "MessageError",
        "protocol.reading": "MessageError",
        "room.review_service": "ReviewError",
        "room.seats": "TableError",
        "room.tables": "TableError",
    }
    assert [
        f"{m}.{name}" for m, name in old.items() if hasattr(importlib.import_module(f"ginrummy.web.{m}"), name)
    ] == []
    web = pathlib.Path(ginrummy.web.__file__).parent
    said = re.compile(r"\b(TableError|MessageError|AccountError|ReviewError)\b")
    assert [p.name for p in sorted(web.rglob("*.py")) if said.search(p.read_text(encoding="utf-8"))] == []
    exc = WebError(ErrorCode.CLAIMED, "that seat is taken")
    assert (exc.code, exc.status, str(exc), exc.reply_to, isinstance(exc, GinRummyError)) == (
        "claimed",
        409,
        "that seat is taken",
        None,
        True,
    )


def test_one_code_to_status_table():
    assert {str(k): v for k, v in HTTP_STATUS.items()} == {
        "not_found": 404,
        "bad_token": 403,
        "bad_request": 400,
        "not_allowed": 403,
        "conflict": 409,
        "bad_invite": 403,
        "claimed": 409,
        "too_large": 413,
        "bad_json": 400,
        "bad_message": 400,
        "unsupported_media_type": 415,
        "bad_deal": 400,
        "bad_name": 400,
        "bad_password": 400,
        "name_taken": 409,
        "wrong_password": 401,
        "rate_limited": 429,
        "not_signed_in": 401,
        "rated_refused": 403,
        "blocked": 403,
        "suspended": 403,
        "barred": 403,
        "muted": 403,
        "forbidden": 403,
        "bad_api_token": 401,
        "missing_scope": 403,
        "not_over": 400,
        "busy": 503,
        "server_busy": 503,
        "bad_move": 400,
        "no_puzzle": 404,
        "internal": 500,
    }
    assert ErrorCode.NAME_TAKEN == "name_taken" and http_status("no_such_code") == 400


def test_the_level_of_a_seat_kind():
    assert (bot_kind("novice"), seat_level("bot:novice"), is_bot_kind("bot:expert"), is_bot_kind("human")) == (
        "bot:novice",
        "novice",
        True,
        False,
    )
    assert [str(k) for k in SeatKind] == ["human", "bot"]
    with pytest.raises(ValueError, match="not a computer seat kind: 'human'"):
        seat_level("human")


def test_every_inbound_message_type_has_a_handler():
    assert set(HANDLERS) | {SetLangMsg} == set(typing.get_args(Inbound))


def _bots_table(tmp_path):
    manager = TableManager(Store(f"sqlite:///{tmp_path / 'gin.sqlite3'}"), bot_delay=0, workers=1)
    table, _ = manager.create(
        preset("standard"), [SeatSpec("bot", "", "random"), SeatSpec("bot", "", "random")], seed=bytes(range(32))
    )
    return manager, table


@pytest.mark.parametrize(
    ("failure", "code"),
    [(RuntimeError("a bug"), "internal"), (sqlite3.OperationalError("database is locked"), "conflict")],
)
def test_a_step_that_cannot_be_stored_is_a_conflict_only_when_the_database_said_no(tmp_path, failure, code):
    async def run() -> tuple[str, int, int]:
        manager, table = _bots_table(tmp_path)

        async def refuse(*args, **kwargs):
            raise failure

        manager.committer.append_steps = refuse  # type: ignore[method-assign]
        seq = table.seq
        with pytest.raises(WebError) as info:
            await manager._write(table, 0, "action", "draw stock")
        fresh = manager.tables[table.id]
        await manager.stop()
        manager.store.close()
        return info.value.code, fresh.seq, seq

    got, seq_after, seq_before = asyncio.run(run())
    assert (got, seq_after) == (code, seq_before)


def test_a_lobby_update_leaves_the_watchers_interval_and_pending_counts_alone(tmp_path):
    """The lobby's send reset ``watchers_interval`` (a test's 0 went back to 0.5 s) and dropped
    the tables whose ``watchers`` message was pending (two lines left by a merge)."""

    async def run() -> tuple[float, set[str], list[dict]]:
        manager, table = _bots_table(tmp_path)
        got: list[dict] = []

        async def send(msg: dict) -> None:
            got.append(msg)

        manager.watchers_interval = 0.0
        manager.room._watchers_pending.add(table.id)
        manager.watch_lobby(send)
        manager.lobby_changed()
        await asyncio.sleep(0.01)
        out = (manager.watchers_interval, set(manager.room._watchers_pending), got)
        await manager.stop()
        manager.store.close()
        return out

    interval, pending, sent = asyncio.run(run())
    assert (interval, len(pending), [m["type"] for m in sent]) == (0.0, 1, ["lobby"])


def test_step_kinds_are_stored_as_their_strings(tmp_path):
    from sqlalchemy import select

    from ginrummy.web.db.store import StepKind, actions_t

    assert [str(k) for k in StepKind] == [
        "action",
        "timeout",
        "client_seed",
        "deal",
        "next_deal",
        "resign",
        "left",
        "time",
    ]

    async def run() -> list[tuple[type, str]]:
        manager, table = _bots_table(tmp_path)
        await manager.act(table, table.match.player_to_act(), table.match.view(table.match.player_to_act()).legal[0])
        await manager.stop()
        with manager.store.engine.connect() as conn:
            rows = conn.execute(select(actions_t.c.kind).order_by(actions_t.c.seq)).all()
        manager.store.close()
        return [(type(r.kind), r.kind) for r in rows]

    assert asyncio.run(run()) == [(str, "action")]
