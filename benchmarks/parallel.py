"""Speed-up of ``gin simulate --workers N`` over one process, with the same results.

Run from the repository root:

    python benchmarks/parallel.py [--players novice,novice] [--games 600] [--seed 1] [--workers 2]
                                  [--runs 5] [--write]

Each run starts the whole command as a new process (``gin simulate --json ...``, then the same
with ``--workers N``), the two commands taken in turn, and times it from start to exit
(whole-process timings: start-up, starting the workers and printing included).  It reports the
median games a second of each and their ratio, and checks that every run printed the same JSON
summary.  ``--write`` replaces the ``## Parallel simulation`` section of
``benchmarks/RESULTS.md`` and keeps the others.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
SECTION = "## Parallel simulation"


def gin_command() -> list[str]:
    """The ``gin`` of this environment (the script beside this Python, else ``python -m``)."""
    script = Path(sys.executable).with_name("gin")
    return [str(script)] if script.exists() else [sys.executable, "-m", "ginrummy.cli.main"]


def timed_run(argv: list[str]) -> tuple[float, float, dict]:
    """Seconds from start to exit of ``argv``, the CPU seconds (user + system) it and its worker
    processes used, and the JSON it printed; exits on failure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        sys.exit(f"parallel.py: {shlex.join(argv)} failed ({done.returncode}): {done.stderr.strip()}")
    return seconds, cpu, json.loads(done.stdout)


def write_section(text: str) -> None:
    """Replace the section of RESULTS.md (or append it), keeping the others."""
    old = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
    lines = old.splitlines(keepends=True)
    out: list[str] = []
    i, found = 0, False
    while i < len(lines):
        if lines[i].rstrip("\n") == SECTION:
            found = True
            out.append(text if text.endswith("\n") else text + "\n")
            i += 1
            while i < len(lines) and not lines[i].startswith("## "):
                i += 1
            if i < len(lines):
                out.append("\n")
            continue
        out.append(lines[i])
        i += 1
    if not found:
        if out and not out[-1].endswith("\n"):
            out.append("\n")
        out.append("\n" + text)
    RESULTS.write_text("".join(out))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="novice,novice", help="levels, as gin simulate --players")
    ap.add_argument("--games", type=int, default=600, help="games a run")
    ap.add_argument("--seed", type=int, default=1, help="seed of every run")
    ap.add_argument("--workers", type=int, default=2, help="worker processes of the parallel command")
    ap.add_argument("--runs", type=int, default=5, help="runs of each command, taken in turn")
    ap.add_argument("--write", action="store_true", help=f"replace the {SECTION!r} section of RESULTS.md")
    args = ap.parse_args(argv)
    if args.games < 1 or args.runs < 1 or args.workers < 2:
        ap.error("--games and --runs are 1 or more, --workers 2 or more")
    command = "python benchmarks/parallel.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    base = [*gin_command(), "simulate", "--json", "--players", args.players, "--games", str(args.games),
            "--seed", str(args.seed)]
    shown = ["gin", *base[len(gin_command()):]]
    one_cmd, par_cmd = base, [*base, "--workers", str(args.workers)]
    times: dict[str, list[float]] = {"one": [], "par": []}
    cpus: dict[str, list[float]] = {"one": [], "par": []}
    summaries: list[dict] = []
    for run in range(args.runs):
        for key, cmd in (("one", one_cmd), ("par", par_cmd)):
            seconds, cpu, summary = timed_run(cmd)
            times[key].append(seconds)
            cpus[key].append(cpu)
            summaries.append(summary)
            print(f"run {run + 1} {'1 process' if key == 'one' else f'{args.workers} workers'}: "
                  f"{seconds:.2f} s, {args.games / seconds:.1f} games/s, {cpu:.2f} CPU s", flush=True)
    same = all(s == summaries[0] for s in summaries)
    med = {k: statistics.median(v) for k, v in times.items()}
    ratio = med["one"] / med["par"]
    cpu_med = {k: statistics.median(v) for k, v in cpus.items()}
    s0 = summaries[0]
    lines = [
        SECTION, "", f"Command: `{command}`", "",
        f"_Run: {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} cores shared with other work (load average at the end "
        f"{os.getloadavg()[0]:.1f})._", "",
        "| command | runs | whole-process seconds (median) | games/s (median) | all runs (s) | CPU seconds (median) |",
        "|---|---|---|---|---|---|",
        f"| `{shlex.join(shown)}` | {args.runs} | {med['one']:.2f} | {args.games / med['one']:.1f} | "
        f"{', '.join(f'{t:.1f}' for t in times['one'])} | {cpu_med['one']:.2f} |",
        f"| `{shlex.join(shown + ['--workers', str(args.workers)])}` | {args.runs} | {med['par']:.2f} | "
        f"{args.games / med['par']:.1f} | {', '.join(f'{t:.1f}' for t in times['par'])} | {cpu_med['par']:.2f} |",
        "",
        f"- Speed-up with {args.workers} workers: **{ratio:.2f}x** games/s (ratio of the medians); run by "
        f"run (each pair of runs back to back): {', '.join(f'{a / b:.2f}x' for a, b in zip(times['one'], times['par']))}, "
        f"median **{statistics.median(a / b for a, b in zip(times['one'], times['par'])):.2f}x**.",
        f"- CPU seconds: user + system time of the command and its worker processes (medians); with "
        f"{args.workers} workers the command uses {cpu_med['par'] / cpu_med['one']:.2f} times the CPU of one "
        "process (on Linux the workers are forked, so they start at almost no cost; on a busy machine CPU time varies too).",
        f"- Same results: {'yes' if same else 'NO'}: all {len(summaries)} runs printed the same JSON summary "
        f"({s0['games']} games, wins {s0['wins']}, {s0['deals']} deals, knocks {s0['knocks']}, gins {s0['gins']}, "
        f"undercuts {s0['undercuts']}, draws {s0['draws']}).",
        "- Whole-process timings: each command is started as a new process and timed from start to exit, "
        "Python start-up, starting the workers and printing included; the two commands run in turn.", "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write:
        write_section(text)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
