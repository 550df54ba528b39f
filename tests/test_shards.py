"""The shard runner (ginrummy.analysis.shards) and ``gin simulate --workers N`` / ``--ray [ADDRESS]``:
any split of the games gives the same results, game for game, as one process (each game is
seeded from the simulation seed and its number alone); records keep their names and contents;
bad arguments are one clear error.  The Ray tests start one local Ray with two CPUs."""

from __future__ import annotations

import json
import os
import socket
import sys
from dataclasses import dataclass

import pytest

from ginrummy.analysis.shards import (
    LOCAL,
    ShardError,
    _finer_tail,
    init_local_ray,
    iter_shards,
    plan_shards,
    run_shard,
    run_shards,
    simulate_sharded,
    start_method,
)
from ginrummy.analysis.simulate import GameResult, SimulationTask, match_seed, play_game, simulate
from ginrummy.cli.main import _fill_optional_values, main
from ginrummy.rules import PRESETS

SHORT = PRESETS["standard"].replace(target=25)  # games of one or two deals


@dataclass(frozen=True)
class SeedTask:
    """A task whose result is its game's seed (the first 4 bytes of match_seed)."""

    def play(self, index: int, seed: int) -> tuple[int, str]:
        return index, match_seed(seed, index)[:4].hex()


@dataclass(frozen=True)
class FailingTask:
    """Game 3 raises (a player's illegal move, say)."""

    def play(self, index: int, seed: int) -> int:
        if index == 3:
            raise ValueError("game 3 went wrong")
        return index


def test_plan_shards_cuts_contiguous_ranges():
    assert plan_shards(7, 1, start=5, size=3) == [range(5, 8), range(8, 11), range(11, 12)]
    # 10 games on 2 workers: ceil(10 / 32) = 1 game a shard
    assert plan_shards(10, 2) == [range(k, k + 1) for k in range(10)]
    # 100 games on 2 workers: ceil(100 / 32) = 4 a shard, the last shard the rest
    shards = plan_shards(100, 2)
    assert len(shards) == 25 and shards[0] == range(0, 4) and shards[-1] == range(96, 100)
    # 1000 games on 2 workers: ceil(1000 / 32) = 32, capped at 25: 40 shards
    shards = plan_shards(1000, 2)
    assert len(shards) == 40 and shards[0] == range(0, 25) and shards[-1] == range(975, 1000)
    assert plan_shards(0, 4) == []
    for bad in ((-1, 1), (5, 0), (5, 1, -2), (5, 1, 0, 0), (5.0, 1)):
        with pytest.raises(ShardError):
            plan_shards(*bad)


def test_every_split_gives_the_same_results():
    task = SeedTask()
    one = [task.play(i, 9) for i in range(4, 17)]
    assert run_shard(task, 9, 4, 17) == one
    for size in (1, 2, 5, 13, 100):
        assert run_shards(task, 13, 9, start=4, shard_size=size) == one
    assert [i for i, _ in iter_shards(task, 13, 9, start=4, shard_size=4)] == list(range(4, 17))


def test_game_result_counts_one_match():
    game = play_game(SHORT, ["novice", "random"], 2, seed=5)
    result = GameResult.of(game)
    assert result.index == 2 and result.winner == game.winner and result.record is None
    assert result.deals == len(game.match.deals)
    assert sum(result.points) == sum(d.result.points for d in game.match.deals if d.result.winner is not None)
    assert SimulationTask.new(SHORT, ["novice", "random"]).play(2, 5) == result


def test_sharded_in_process_equals_simulate():
    want = simulate(SHORT, ["novice", "random", "novice"], 7, seed=4)
    for size in (1, 3, 7):
        got = simulate_sharded(SHORT, ["novice", "random", "novice"], 7, seed=4, shard_size=size)
        assert got == want and got.to_json() == want.to_json()


def test_two_worker_processes_equal_one_process():
    want = simulate(SHORT, ["novice", "random"], 12, seed=8)
    seen: list[int] = []
    got = simulate_sharded(SHORT, ["novice", "random"], 12, seed=8, workers=2,
                           on_result=lambda r: seen.append(r.index))
    assert got == want
    assert sorted(seen) == list(range(12))
    # a game's error reaches the caller
    with pytest.raises(ValueError, match="game 3 went wrong"):
        run_shards(FailingTask(), 6, 0, workers=2, shard_size=2)


def test_bad_arguments_are_refused():
    for bad in (0, 257, 2.0):
        with pytest.raises(ShardError, match="workers"):
            run_shards(SeedTask(), 3, 0, workers=bad)
    with pytest.raises(ShardError, match="seed"):
        run_shards(SeedTask(), 3, "1")
    with pytest.raises(ShardError, match="ray_address"):
        run_shards(SeedTask(), 3, 0, ray_address=" ")
    with pytest.raises(ValueError, match="unknown player"):
        simulate_sharded(SHORT, ["novice", "grandmaster"], 2)


def test_ray_missing_is_one_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if it were not installed
    with pytest.raises(ShardError, match=r'pip install "ginrummy\[ray\]"'):
        run_shards(SeedTask(), 2, 0, ray_address=LOCAL)


# -- gin simulate --------------------------------------------------------------------------------

def test_ray_option_value_may_be_left_out():
    assert _fill_optional_values(["simulate", "--ray"]) == ["simulate", "--ray=local"]
    assert _fill_optional_values(["simulate", "--ray", "--json"]) == ["simulate", "--ray=local", "--json"]
    assert _fill_optional_values(["simulate", "--ray", "auto"]) == ["simulate", "--ray", "auto"]
    assert _fill_optional_values(["simulate", "--", "--ray"]) == ["simulate", "--", "--ray"]


def test_cli_workers_same_json_and_records(capsys, tmp_path):
    argv = ["simulate", "--json", "--players", "novice,random", "--games", "5", "--seed", "6", "--set", "target=25"]
    assert main(argv + ["--records", str(tmp_path / "one")]) == 0
    one, err = capsys.readouterr()
    assert err == ""
    assert main(argv + ["--workers", "2", "--records", str(tmp_path / "two")]) == 0
    two, err = capsys.readouterr()
    assert err == ""
    assert json.loads(one) == json.loads(two)
    names = [f"game-{k:04d}.gin" for k in range(1, 6)]
    assert sorted(p.name for p in (tmp_path / "one").iterdir()) == names
    for name in names:
        assert (tmp_path / "two" / name).read_text(encoding="utf-8") == (tmp_path / "one" / name).read_text(encoding="utf-8")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("extra, needle", [
    (["--workers", "0"], "--workers 0: the number of processes is from 1 to 256"),
    (["--workers", "257"], "--workers 257: the number of processes is from 1 to 256"),
    (["--ray", ""], "--ray: give a Ray address"),
    (["--ray", "nowhere:port"], "is not auto, HOST:PORT or ray://HOST:PORT"),
    (["--ray", "127.0.0.1:{port}"], "cannot connect to the Ray cluster at '127.0.0.1:"),
])
def test_cli_bad_workers_or_ray_exit_2(capsys, extra, needle):
    extra = [x.format(port=_closed_port()) for x in extra]
    rc = main(["simulate", "--games", "2", *extra])
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    assert err.startswith("gin: error: ") and err.count("\n") == 1 and needle in err


# -- Ray -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    init_local_ray(num_cpus=2, log_to_driver=False, object_store_memory=80 * 1024 * 1024, configure_logging=False)
    try:
        yield ray
    finally:
        ray.shutdown()


@pytest.mark.ray
def test_ray_two_workers_equal_one_process(local_ray, capsys):
    want = simulate(SHORT, ["novice", "random"], 6, seed=2)
    got = simulate_sharded(SHORT, ["novice", "random"], 6, seed=2, ray_address=LOCAL, workers=2, records=True)
    assert got == want
    assert local_ray.cluster_resources()["CPU"] == 2.0
    # the command line, on the same Ray (already started, so left running for the fixture)
    argv = ["simulate", "--json", "--players", "novice,random", "--games", "6", "--seed", "2", "--set", "target=25"]
    assert main(argv + ["--ray"]) == 0
    out, _ = capsys.readouterr()
    assert json.loads(out) == want.to_json()
    assert local_ray.is_initialized()


@pytest.mark.ray
def test_a_local_ray_stays_on_the_loopback(local_ray):
    # the node (and so every Ray process and server of it) is 127.0.0.1, not the machine's address
    where = local_ray.remote(local_ray.util.get_node_ip_address)  # asked inside a Ray worker
    assert local_ray.get([where.remote() for _ in range(2)]) == ["127.0.0.1"] * 2
    assert all(n["NodeManagerAddress"] == "127.0.0.1" for n in local_ray.nodes())
    assert "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER" not in os.environ  # put back after ray.init


def test_progress_bar_on_a_terminal_only_without_json(capsys, monkeypatch):
    # Rich treats stderr as a terminal when FORCE_COLOR is set (as it would a real TTY)
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    argv = ["simulate", "--players", "novice,random", "--games", "3", "--set", "target=25"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "simulating (1 process)" in err and "3/3" in err
    assert "1. novice" in out
    assert main(argv + ["--json"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and json.loads(out)["games"] == 3


def test_the_last_shards_are_cut_finer_and_keep_every_game_in_order():
    shards = plan_shards(100, 2, start=5)  # 4 games a shard (100 / (2 * 16), rounded up)
    fine = _finer_tail(shards, 2)
    assert [i for s in fine for i in s] == list(range(5, 105))
    assert [len(s) for s in fine[-4:]] == [1, 1, 1, 1] and len(fine) == len(shards) - 4 + 16
    assert _finer_tail([range(0, 3)], 2) == [range(0, 1), range(1, 2), range(2, 3)]


def test_worker_start_method_linux_forks_and_can_be_chosen(monkeypatch):
    monkeypatch.delenv("GIN_WORKER_START", raising=False)
    assert start_method() == ("fork" if sys.platform.startswith("linux") else "spawn")
    monkeypatch.setenv("GIN_WORKER_START", "spawn")
    assert start_method() == "spawn"
    monkeypatch.setenv("GIN_WORKER_START", "no-such-method")
    assert start_method() in ("fork", "spawn")


def test_spawned_workers_equal_one_process_too(monkeypatch):
    monkeypatch.setenv("GIN_WORKER_START", "spawn")  # the macOS and Windows way
    want = simulate(SHORT, ["novice", "random"], 6, seed=3)
    assert simulate_sharded(SHORT, ["novice", "random"], 6, seed=3, workers=2) == want
