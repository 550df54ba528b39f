"""Run numbered, seeded games in shards: in this process, in local worker processes, or on Ray.

A *task* says how to play one game: any picklable object with a method
``play(index: int, seed: int) -> result`` whose result depends only on the task, ``index`` and
``seed`` (never on which games were played before it, in which process or in which order).
:class:`ginrummy.analysis.simulate.SimulationTask` is the one behind ``gin simulate``; a later
``gin ladder`` plays its pairings the same way.  Because every game is its own seeded unit, any
split of ``range(start, start + games)`` into shards gives the same results, game for game, as
one process playing them in order.

- :func:`run_shard` plays one shard ``[start, stop)`` and returns its results in order.  It is
  the one function every backend runs: this process (``workers=1``), local processes
  (``workers=N``: this process and ``N - 1`` others from :mod:`concurrent.futures`; see
  :func:`start_method` for how they start) and Ray
  (``ray_address``, as a remote function).
- :func:`iter_shards` yields ``(index, result)`` as each shard finishes (completion order, every
  index exactly once); :func:`run_shards` collects them in index order.
- :func:`plan_shards` cuts the games into contiguous shards.

Ray is an optional extra (``pip install "ginrummy[ray]"``).  With ``ray_address=LOCAL`` a Ray
instance is started on this machine for the run (``workers`` CPUs, or all of them) and shut down
after it; with an address (``"auto"``, ``"HOST:PORT"`` or ``"ray://HOST:10001"``) the shards go
to that cluster, whose nodes must have ``ginrummy`` installed.  If this process has already
called ``ray.init``, that Ray is used and left running.
"""

from __future__ import annotations

import importlib
import math
import multiprocessing
import os
import socket
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:  # imported for real inside simulate_sharded (the runner itself is generic)
    from ..rules import RuleSet
    from .simulate import GameResult, SimulationSummary

__all__ = [
    "GameTask",
    "LOCAL",
    "LOCAL_RAY_ENV",
    "init_local_ray",
    "MAX_WORKERS",
    "ShardError",
    "plan_shards",
    "run_shard",
    "iter_shards",
    "run_shards",
    "simulate_sharded",
]

R = TypeVar("R")

#: ``ray_address`` value meaning "start a Ray instance on this machine for the run".
LOCAL = "local"

#: Most local processes (or local Ray CPUs) one run may ask for.
MAX_WORKERS = 256
#: Most games in one shard chosen by :func:`plan_shards` (progress and load balance).
MAX_SHARD = 25
#: Shards per worker aimed at by :func:`plan_shards`, so that a slow shard does not leave
#: the other workers idle at the end.
SHARDS_PER_WORKER = 16


class ShardError(ValueError):
    """Bad arguments to the shard runner, or Ray asked for but not installed."""


class GameTask(Protocol[R]):  # type: ignore[misc]
    """What :func:`run_shards` plays: picklable, with ``play(index, seed) -> result`` that
    depends only on the task, ``index`` (the game's number, an int >= 0) and ``seed`` (an int)."""

    def play(self, index: int, seed: int) -> R:  # pragma: no cover - a protocol
        ...


def plan_shards(games: int, parts: int, start: int = 0, size: int | None = None) -> list[range]:
    """Cut ``range(start, start + games)`` into contiguous shards (``range`` objects, in order).

    ``parts`` is the number of workers: without ``size`` each shard has
    ``ceil(games / (parts * SHARDS_PER_WORKER))`` games, at most :data:`MAX_SHARD` and at least
    1.  Raises :class:`ShardError` unless ``games >= 0``, ``parts >= 1``, ``start >= 0`` and
    ``size`` (when given) ``>= 1`` are ints.
    """
    for name, value, least in (("games", games, 0), ("parts", parts, 1), ("start", start, 0)):
        if type(value) is not int or value < least:
            raise ShardError(f"{name} must be an int >= {least}, not {value!r}")
    if size is None:
        size = max(1, min(MAX_SHARD, math.ceil(games / (parts * SHARDS_PER_WORKER)) if games else 1))
    elif type(size) is not int or size < 1:
        raise ShardError(f"shard size must be an int >= 1, not {size!r}")
    end = start + games
    return [range(a, min(a + size, end)) for a in range(start, end, size)]


def run_shard(task: GameTask[R], seed: int, start: int, stop: int) -> list[R]:
    """Play games ``start .. stop - 1`` of ``task`` with ``seed``; their results in order.

    The unit of work of every backend (it runs in a worker process or a Ray worker as it is).
    Errors raised by ``task.play`` propagate.
    """
    return [task.play(i, seed) for i in range(start, stop)]


def _check_workers(workers: int) -> None:
    if type(workers) is not int or not 1 <= workers <= MAX_WORKERS:
        raise ShardError(f"workers must be an int from 1 to {MAX_WORKERS}, not {workers!r}")


def iter_shards(
    task: GameTask[R],
    games: int,
    seed: int,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    start: int = 0,
    shard_size: int | None = None,
) -> Iterator[tuple[int, R]]:
    """Play games ``start .. start + games - 1`` of ``task`` with ``seed``, in shards; yield
    ``(index, result)`` for each as its shard finishes (every index once, shards in the order
    they finish, games of a shard in order; with ``workers=1`` and no Ray, each game as it ends).

    Args:
        task: a :class:`GameTask` (picklable when ``workers > 1`` or with Ray).
        games: the number of games (an int >= 0); seed: an int passed to every ``play``.
        workers: local processes playing (``1``: this process alone; ``N``: this process and
            ``N - 1`` spawned ones); with Ray and ``ray_address=LOCAL``, the CPUs of the local
            Ray instance.
        ray_address: ``None`` (no Ray), :data:`LOCAL`, or a Ray cluster address.
        start: the first game's index; shard_size: games per shard (default: :func:`plan_shards`).

    Raises :class:`ShardError` for bad arguments or when Ray is asked for but not installed; an
    error raised by a game propagates (the remaining shards are cancelled).  Closing the
    iterator early cancels the shards not yet started and stops the workers.
    """
    _check_workers(workers)
    if type(seed) is not int:
        raise ShardError(f"seed must be an int, not {seed!r}")
    if ray_address is not None:
        if not isinstance(ray_address, str) or not ray_address.strip():
            raise ShardError(f"ray_address must be {LOCAL!r} or a Ray cluster address, not {ray_address!r}")
        yield from _ray(task, games, seed, workers, ray_address.strip(), start, shard_size)
        return
    shards = plan_shards(games, workers, start, shard_size)
    if workers == 1:  # in this process: game by game (what run_shard does), for a smooth progress bar
        for shard in shards:
            for i in shard:
                yield i, task.play(i, seed)
        return
    method = start_method()
    if method == "spawn":
        yield from _processes(task, seed, workers, shards)
    else:
        yield from _pool(task, seed, workers, _finer_tail(shards, workers), method)


def run_shards(
    task: GameTask[R],
    games: int,
    seed: int,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    start: int = 0,
    shard_size: int | None = None,
) -> list[R]:
    """The results of games ``start .. start + games - 1`` in index order: :func:`iter_shards`
    collected (same arguments and errors).  The list is the same for every ``workers``,
    ``ray_address`` and ``shard_size``."""
    got = dict(
        iter_shards(task, games, seed, workers=workers, ray_address=ray_address, start=start, shard_size=shard_size)
    )
    return [got[i] for i in range(start, start + games)]


def start_method() -> str:
    """How the local worker processes start: ``"fork"`` on Linux, ``"spawn"`` elsewhere.

    A forked worker starts as a copy of this process, with the package and the task's players
    already imported: it costs almost nothing, where a spawned one starts a new Python and
    imports everything again (about a second of CPU on a 2-core machine, which the speed-up of
    ``--workers 2`` pays in full).  A worker only plays its shards (pure computation: no
    threads, no files, no terminal), so the fork is safe even while this process draws a
    progress bar from a thread.  macOS and Windows spawn (fork is unsafe on macOS, absent on
    Windows); ``GIN_WORKER_START=spawn|forkserver|fork`` chooses another method where it exists.
    """
    chosen = os.environ.get("GIN_WORKER_START", "").strip()
    methods = multiprocessing.get_all_start_methods()
    if chosen in methods:
        return chosen
    return "fork" if sys.platform.startswith("linux") and "fork" in methods else "spawn"


def _finer_tail(shards: list[range], workers: int) -> list[range]:
    """``shards`` with the last ``2 * workers`` of them cut in four (or single games), so
    every worker finishes close to the others: the same games, in the same order."""
    cut = max(0, len(shards) - 2 * workers)
    out = shards[:cut]
    for s in shards[cut:]:
        step = max(1, math.ceil(len(s) / 4))
        out.extend(range(a, min(a + step, s.stop)) for a in range(s.start, s.stop, step))
    return out


def _pool(task: GameTask[R], seed: int, workers: int, shards: list[range], method: str) -> Iterator[tuple[int, R]]:
    """Shards on ``workers`` processes started by ``method`` (fork: nearly free), each taking
    the next shard as it finishes one; this process only collects the results."""
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method))
    try:
        pending: dict[Future[list[R]], range] = {pool.submit(run_shard, task, seed, s.start, s.stop): s for s in shards}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                shard = pending.pop(future)
                yield from zip(shard, future.result())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _processes(task: GameTask[R], seed: int, workers: int, shards: list[range]) -> Iterator[tuple[int, R]]:
    """Shards on ``workers`` processes: this one and ``workers - 1`` started ones (:func:`start_method`).

    The spawned workers always have two shards each queued (so they never wait for this process);
    between collecting their results this process plays the next shard itself.  Saving one
    spawned process saves its start-up (a Python and the package imported anew).
    """
    queue = deque(shards)
    helpers = workers - 1
    pool = ProcessPoolExecutor(max_workers=helpers, mp_context=multiprocessing.get_context(start_method()))
    pending: dict[Future[list[R]], range] = {}
    try:
        while queue or pending:
            while queue and len(pending) < 2 * helpers:
                shard = queue.popleft()
                pending[pool.submit(run_shard, task, seed, shard.start, shard.stop)] = shard
            for future in [f for f in pending if f.done()]:
                shard = pending.pop(future)
                yield from zip(shard, future.result())
            if queue:
                shard = queue.popleft()
                yield from zip(shard, run_shard(task, seed, shard.start, shard.stop))
            elif pending:
                wait(pending, return_when=FIRST_COMPLETED)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Raise :class:`ShardError` at once if ``HOST:PORT`` (or ``ray://HOST:PORT``) does not take
    a TCP connection within ``timeout`` seconds (Ray itself keeps retrying for minutes)."""
    text = address.removeprefix("ray://")
    host, colon, port = text.rpartition(":")
    if not colon:
        return  # "auto" or a name Ray resolves itself
    if not port.isdigit() or not host:
        raise ShardError(f"the Ray address {address!r} is not auto, HOST:PORT or ray://HOST:PORT")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ShardError(f"cannot connect to the Ray cluster at {address!r}: {exc.strerror or exc}") from None


#: What keeps a local Ray on 127.0.0.1: Ray on Linux takes the machine's address (for
#: example 192.0.2.2) as its node address, even for ``_node_ip_address="127.0.0.1"``, and its
#: gRPC servers listen on every interface; as on macOS (no cluster), it stays on the loopback.
LOCAL_RAY_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}


def init_local_ray(**options: Any) -> None:
    """``ray.init`` of a Ray instance on this machine that listens on 127.0.0.1 only (its node
    address, every gRPC server and agent; no dashboard): ``options`` go to ``ray.init``.

    Ray reads :data:`LOCAL_RAY_ENV` when it is imported and its processes read it when they
    start: it is set for ``ray.init`` (the processes started then inherit it) and put back
    after.  Raises what ``ray.init`` raises (``ImportError`` without Ray)."""
    import ray

    saved = {k: os.environ.get(k) for k in LOCAL_RAY_ENV}
    os.environ.update(LOCAL_RAY_ENV)
    ray_constants: Any  # Ray's private module, or None: its flag below is not in Ray's type information
    try:  # read by ray.init in this process
        ray_constants = importlib.import_module("ray._private.ray_constants")
    except ImportError:  # pragma: no cover - another Ray layout: the environment alone
        ray_constants = None
    cluster = getattr(ray_constants, "ENABLE_RAY_CLUSTER", None)
    if ray_constants is not None and cluster is not None:
        ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        ray.init(_node_ip_address="127.0.0.1", **{"include_dashboard": False, **options})
    finally:
        if ray_constants is not None and cluster is not None:
            ray_constants.ENABLE_RAY_CLUSTER = cluster
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _ray(
    task: GameTask[R], games: int, seed: int, workers: int, address: str, start: int, shard_size: int | None
) -> Iterator[tuple[int, R]]:
    """Shards as Ray tasks (each runs :func:`run_shard`), on a local instance or a cluster."""
    try:
        import ray
    except ImportError:
        raise ShardError('Ray is not installed: pip install "ginrummy[ray]"') from None
    started = False
    if not ray.is_initialized():
        import logging

        if address != LOCAL:
            _check_reachable(address)

        options: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING, "configure_logging": True}
        try:
            if address == LOCAL:
                init_local_ray(num_cpus=workers if workers > 1 else None, **options)
            else:
                ray.init(address=address, **options)
        except Exception as exc:  # Ray raises ConnectionError, ValueError, RuntimeError...
            where = "start a local Ray" if address == LOCAL else f"connect to the Ray cluster at {address!r}"
            raise ShardError(f"cannot {where}: {' '.join(str(exc).split()) or type(exc).__name__}") from exc
        started = True
    try:
        cpus = int(ray.cluster_resources().get("CPU", workers)) or 1
        shards = plan_shards(games, max(cpus, 1), start, shard_size)
        # Any: mypy cannot infer Ray's RemoteFunction type through the options overload of ray.remote
        remote: Any = ray.remote(num_cpus=1, max_retries=0)(run_shard)
        task_ref = ray.put(task)
        pending = {remote.remote(task_ref, seed, s.start, s.stop): s for s in shards}
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    shard = pending.pop(ref)
                    yield from zip(shard, ray.get(ref))
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
    finally:
        if started:
            ray.shutdown()


def simulate_sharded(
    rules: RuleSet,
    levels: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    records: bool = False,
    on_result: Callable[[GameResult], None] | None = None,
    shard_size: int | None = None,
) -> SimulationSummary:
    """:func:`ginrummy.analysis.simulate.simulate` split into shards: the same
    :class:`~ginrummy.analysis.simulate.SimulationSummary`, equal field for field, for any ``workers``,
    ``ray_address`` and ``shard_size``.

    ``rules``, ``levels``, ``games`` and ``seed`` are as for ``simulate`` (and raise the same
    errors); ``workers`` and ``ray_address`` as for :func:`iter_shards`.  ``on_result`` is called
    in this process with each match's :class:`~ginrummy.analysis.simulate.GameResult` as its shard
    finishes (any order; with its record text when ``records``), e.g. to save records or advance
    a progress bar.  Only the counts are kept, so memory does not grow with ``games``.
    """
    from .simulate import SimulationTask, _check, summarise

    _check(rules, levels, games, seed)
    task = SimulationTask.new(rules, levels, records)

    def results() -> Iterator[GameResult]:
        for _, result in iter_shards(
            task, games, seed, workers=workers, ray_address=ray_address, shard_size=shard_size
        ):
            if on_result is not None:
                on_result(result)
            yield result

    return summarise(task.levels, games, seed, results())
