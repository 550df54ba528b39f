"""``gin ladder --workers N`` / ``--ray [ADDRESS]`` (docs/accounts.md, "The computer on the
ladder"): the matches are played by the shard runner of ``gin simulate`` (ginrummy.shards), and
whatever the split, the ratings are updated in match order, so the database holds the same
ratings and the same recorded results, row for row, as a one-process run with the same seed.
The Ray test starts one local Ray with two CPUs (skipped when Ray is not installed)."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import create_engine, select

from ginrummy.analysis.shards import LOCAL, ShardError
from ginrummy.cli.main import main
from ginrummy.rules import preset
from ginrummy.web.community.accounts import accounts_t
from ginrummy.web.community.level_ladder import LadderTask, pairings, run_ladder
from ginrummy.web.community.ratings import result_players_t

LEVELS = "random,novice,club"
GAMES = 7  # every pair of the three twice, and one more: the pairings go round


def _rows(db: str) -> list[tuple]:
    """Every recorded ladder result, by match number: the level, the outcome, the deal
    statistics and the ratings before and after (the run's random id left out)."""
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                select(result_players_t, accounts_t.c.name).join(
                    accounts_t, accounts_t.c.id == result_players_t.c.account_id
                )
            ).all()
    finally:
        engine.dispose()
    out = []
    for r in rows:
        number = int(r.result_id.rsplit("-", 1)[1])
        out.append(
            (
                number,
                r.player,
                r.name,
                r.opponent_name,
                r.outcome,
                r.deals,
                r.deals_won,
                r.knocks,
                r.gins,
                r.undercuts_made,
                r.undercuts_suffered,
                r.points,
                r.knock_deadwood,
                r.mu_before,
                r.sigma_before,
                r.mu_after,
                r.sigma_after,
            )
        )
    return sorted(out)


def _ladder(db: str, capsys, *extra: str) -> dict:
    argv = ["ladder", "--json", "--games", str(GAMES), "--levels", LEVELS, "--seed", "5", "--database-url", db, *extra]
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_ladder_task_plays_the_pairs_in_turn_like_gin_simulate():
    task = LadderTask(preset("standard"), tuple(pairings(["random", "novice", "club"])))
    assert task.pairs == (("random", "novice"), ("random", "club"), ("novice", "club"))
    for i in (0, 1, 2, 3):
        game = task.play(i, 5)
        assert sorted(game.levels) == sorted(task.pairs[i % 3]) and game.match.finished and game.index == i


def test_gin_ladder_with_two_workers_writes_what_one_process_writes(tmp_path, capsys):
    one, two = (f"sqlite:///{tmp_path / name}" for name in ("one.sqlite3", "two.sqlite3"))
    alone = _ladder(one, capsys)
    split = _ladder(two, capsys, "--workers", "2")
    assert split == alone
    assert sorted(e["matches"] for e in alone["levels"]) == [4, 5, 5]  # 7 matches of 2 levels among 3
    rows = _rows(one)
    assert len(rows) == 2 * GAMES and [r[0] for r in rows[::2]] == list(range(1, GAMES + 1))
    assert _rows(two) == rows  # the same results and rating steps, match for match


def test_run_ladder_rates_in_match_order_whatever_order_the_shards_finish(tmp_path):
    db = f"sqlite:///{tmp_path / 'ladder.sqlite3'}"
    engine = create_engine(db)
    seen: list[int] = []
    try:
        board = run_ladder(
            engine,
            preset("standard"),
            ["random", "novice", "club"],
            GAMES,
            5,
            workers=2,
            shard_size=1,
            on_game=lambda g: seen.append(g.index),
        )
    finally:
        engine.dispose()
    assert seen == list(range(GAMES))
    ref = f"sqlite:///{tmp_path / 'ref.sqlite3'}"
    engine = create_engine(ref)
    try:
        want = run_ladder(engine, preset("standard"), ["random", "novice", "club"], GAMES, 5)
    finally:
        engine.dispose()
    assert board == want and _rows(db) == _rows(ref)


def test_a_second_run_plays_the_next_matches_not_the_same_ones(tmp_path, capsys):
    """Running the ladder again with the same seed, levels and rules plays its next matches:
    two runs of 3 write what one run of 6 writes, match for match (never the same match rated
    twice); another seed is another ladder and starts at match 1."""
    twice, once = (f"sqlite:///{tmp_path / name}" for name in ("twice.sqlite3", "once.sqlite3"))
    argv = ["ladder", "--json", "--levels", LEVELS, "--seed", "5"]
    assert main([*argv, "--games", "3", "--database-url", twice]) == 0
    assert json.loads(capsys.readouterr().out)["first"] == 1
    assert main([*argv, "--games", "3", "--database-url", twice]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["first"] == 4
    assert main([*argv, "--games", "6", "--database-url", once]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert second["levels"] == whole["levels"]
    rows = _rows(twice)
    assert [r[0] for r in rows[::2]] == [1, 2, 3, 4, 5, 6] and rows == _rows(once)
    assert main(["ladder", "--json", "--levels", LEVELS, "--seed", "6", "--games", "1", "--database-url", twice]) == 0
    assert json.loads(capsys.readouterr().out)["first"] == 1
    assert len(_rows(twice)) == 14
    assert main([*argv, "--games", "2", "--database-url", twice]) == 0
    capsys.readouterr()
    assert main(["ladder", "--levels", LEVELS, "--seed", "5", "--games", "1", "--database-url", twice]) == 0
    assert "Ladder after match 9 of seed 5" in capsys.readouterr().out  # one match: in the singular


def test_gin_ladder_bad_workers_or_ray_exit_2(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'ladder.sqlite3'}"
    for extra, needle in [
        (["--workers", "0"], "--workers 0"),
        (["--workers", "999"], "from 1 to 256"),
        (["--ray", " "], "--ray: give a Ray address"),
    ]:
        assert main(["ladder", "--games", "1", "--levels", "random,novice", "--database-url", db, *extra]) == 2
        assert needle in capsys.readouterr().err, extra
    with pytest.raises(ShardError, match="workers"):
        run_ladder(create_engine(db), preset("standard"), ["random", "novice"], 1, workers=0)


@pytest.mark.ray
def test_gin_ladder_on_a_local_ray_writes_what_one_process_writes(tmp_path, capsys):
    ray = pytest.importorskip("ray")
    one, on_ray = (f"sqlite:///{tmp_path / name}" for name in ("one.sqlite3", "ray.sqlite3"))
    alone = _ladder(one, capsys)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        object_store_memory=80 * 1024 * 1024,
        configure_logging=False,
    )
    try:
        assert _ladder(on_ray, capsys, "--ray") == alone  # the Ray already started is used, and left running
        assert ray.is_initialized() and ray.cluster_resources()["CPU"] == 2.0
        engine = create_engine(f"sqlite:///{tmp_path / 'direct.sqlite3'}")
        try:
            board = run_ladder(engine, preset("standard"), LEVELS.split(","), GAMES, 5, ray_address=LOCAL, shard_size=2)
        finally:
            engine.dispose()
    finally:
        ray.shutdown()
    assert _rows(on_ray) == _rows(one) == _rows(f"sqlite:///{tmp_path / 'direct.sqlite3'}")
    assert [e.to_json() for e in board] == alone["levels"]


def test_a_server_on_the_ladders_database_shows_the_calibrated_levels_and_people_move_them(tmp_path):
    from openskill.models import PlackettLuce
    from starlette.testclient import TestClient

    from ginrummy.web.app import create_app

    from .conftest import with_csrf
    from .test_ratings import _signup, play_out

    db = f"sqlite:///{tmp_path / 'gin.sqlite3'}"
    engine = create_engine(db)
    try:
        ladder = {e.level: e for e in run_ladder(engine, preset("standard"), ["random", "novice"], 4, 3)}
    finally:
        engine.dispose()
    with TestClient(create_app(db, bot_delay=0)) as c:
        with_csrf(c)
        board = {e["name"]: e for e in c.get("/api/leaderboard").json()}
        assert set(board) == {"random", "novice"}
        for lv, e in ladder.items():
            assert (board[lv]["kind"], board[lv]["matches"], board[lv]["rating"]) == ("computer", 4, e.rating)
            assert (board[lv]["mu"], board[lv]["sigma"]) == (round(e.mu, 4), round(e.sigma, 4))
        _signup(c, "Ann")
        table = c.post(
            "/api/tables",
            json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}], "rated": True},
        ).json()
        play_out(c, table)
        m = c.app.state.manager.tables[table["id"]].match
        after = {e["name"]: e for e in c.get("/api/leaderboard").json()}
    # an independent OpenSkill call: a new player against the novice's calibrated rating
    model = PlackettLuce()
    nov = ladder["novice"]
    [[ann], [bot]] = model.rate(
        [[model.rating()], [model.create_rating([nov.mu, nov.sigma])]], ranks=[0, 1] if m.winner == 0 else [1, 0]
    )
    assert (after["novice"]["mu"], after["novice"]["sigma"], after["novice"]["matches"]) == (
        round(bot.mu, 4),
        round(bot.sigma, 4),
        5,
    )
    assert (after["Ann"]["mu"], after["Ann"]["sigma"]) == (round(ann.mu, 4), round(ann.sigma, 4))
    assert after["random"] == board["random"]  # not in this match


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    from .conftest import database_url

    yield from database_url(request.param, tmp_path)


def test_the_ladder_leaderboard_and_player_page_on_both_stores(store_url):
    from ginrummy.web.community.members import Players
    from ginrummy.web.db.store import Store

    store = Store(store_url)  # the table store's tables, as gin serve makes them
    try:
        board = run_ladder(store.engine, preset("standard"), ["random", "novice", "club"], 3, 5)
        players = Players(store.engine)
        top = players.leaderboard(50, 0)
        assert [e["name"] for e in top] == [e.level for e in board]  # best first, as the ladder says
        assert players.leaderboard(1, 1) == top[1:2] and players.leaderboard(5, 3) == []  # paging
        page = players.player("NOVICE")  # names are case-insensitive
        assert page["name"] == "novice" and page["matches"] == page["rated_matches"] == 2
        assert [r["opponent"] for r in page["recent"]] == ["club", "random"]  # newest first (matches 3, 1)
        assert len(page["history"]) == 2 and page["history"][-1]["rating"] == page["rating"]
        assert players.player("nobody") is None
    finally:
        store.close()
