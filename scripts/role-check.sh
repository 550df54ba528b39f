#!/usr/bin/env bash
# Each extra, installed alone from the built wheel, does its role (issue 30; docs/deploy.md,
# "Installs by role"). A separate script from scripts/wheel-check.sh (which .ci/run calls):
#   scripts/role-check.sh [--python PYTHON] [research] [postgres] [pipx]   (default: all three)
# research  a fresh venv with the wheel plus [research] and the test tools beside it (pytest,
#           pytest-timeout, hypothesis) runs the env tests (tests/test_env*.py,
#           tests/test_action_maps.py) against the installed package, none of them skipped;
# postgres  a fresh venv with the wheel plus [postgres] serves on a throw-away PostgreSQL cluster
#           (initdb into a temp folder, as the postgres user when run as root, a free port on
#           127.0.0.1): /readyz answers 200, and a whole deal is played against the computer
#           over the WebSocket (scripts/wheel_check_client.py); then the server and the cluster stop;
# pipx      pipx (installed from the package index into a temp venv, PIPX_HOME in a temp folder)
#           runs `pipx install .` on this tree, and the `gin --version` it made runs.
# PYTHON (default .venv/bin/python when ./dev made it, else python3) must have `build` (the dev
# extra). Everything lives in one temp folder, removed at exit; the server and the cluster are
# stopped at exit too. Each check prints its time; the script exits 1 at the first failure.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py=""
checks=()
while [ $# -gt 0 ]; do
  case "$1" in
    --python) py="$2"; shift 2 ;;
    research|postgres|pipx) checks+=("$1"); shift ;;
    *) echo "role-check: unknown argument '$1'; allowed: --python PYTHON, research, postgres, pipx" >&2; exit 2 ;;
  esac
done
[ ${#checks[@]} -gt 0 ] || checks=(research postgres pipx)
if [ -z "$py" ]; then
  if [ -x "$here/.venv/bin/python" ]; then py="$here/.venv/bin/python"; else py=python3; fi
fi
work="$(mktemp -d /tmp/gin-roles.XXXXXX)"
chmod 755 "$work"  # the postgres user reaches its cluster folder inside
server_pid="" pg_ctl_bin="" pg_as=()
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  if [ -n "$pg_ctl_bin" ]; then "${pg_as[@]}" "$pg_ctl_bin" -D "$work/pg/data" -m immediate -w stop >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
say() { echo "role-check: $*" >&2; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
pip_quiet=(--quiet --disable-pip-version-check)

say "building the wheel (from the sdist: nothing is built inside the tree)"
t0=$SECONDS
"$py" -m build --outdir "$work/dist" "$here" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
wheel="$(ls "$work"/dist/ginrummy-*.whl)"
say "built $(basename "$wheel") in $((SECONDS - t0)) s"

check_research() {
  local t0=$SECONDS v="$work/research"
  say "research: the wheel plus [research] and the test tools in a fresh venv"
  python3 -m venv "$v"
  "$v/bin/python" -m pip install "${pip_quiet[@]}" "$wheel[research]" pytest pytest-timeout hypothesis
  # nothing of the source tree on the path: the tests and examples are copied beside the venv
  mkdir -p "$work/rt"
  cp -r "$here/tests" "$here/examples" "$work/rt/"
  cd "$work/rt"
  "$v/bin/python" -c 'import ginrummy, sys; sys.exit("ginrummy" not in ginrummy.__file__ or "site-packages" not in ginrummy.__file__)' \
    || { say "research: ginrummy is not the installed one"; exit 1; }
  "$v/bin/python" -c 'import pettingzoo, gymnasium, pyspiel, rlcard' || { say "research: an extra's package is missing"; exit 1; }
  local out
  out="$("$v/bin/python" -m pytest -p no:cacheprovider -q -rs -o addopts= -o timeout=300 \
         tests/test_env.py tests/test_env_control.py tests/test_env_examples.py tests/test_env_text.py \
         tests/test_action_maps.py 2>&1)" || { printf '%s\n' "$out" | tail -n 40 >&2; say "research: the env tests failed"; exit 1; }
  printf '%s\n' "$out" | tail -n 1 >&2
  if printf '%s\n' "$out" | grep -qi "skipped"; then
    printf '%s\n' "$out" | grep -i "skip" >&2; say "research: tests were skipped (an extra's package missing?)"; exit 1
  fi
  cd "$here"
  say "research: ok in $((SECONDS - t0)) s"
}

check_postgres() {
  local t0=$SECONDS v="$work/postgres" bin port gin
  bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  [ -n "$bin" ] || { say "postgres: PostgreSQL is not installed (apt-get install postgresql)"; exit 1; }
  say "postgres: the wheel plus [postgres] in a fresh venv, a throw-away cluster"
  python3 -m venv "$v"
  "$v/bin/python" -m pip install "${pip_quiet[@]}" "$wheel[postgres]"
  gin="$v/bin/gin"
  mkdir -p "$work/pg"
  if [ "$(id -u)" = 0 ]; then chown postgres "$work/pg"; pg_as=(runuser -u postgres --); fi
  port="$(free_port)"
  "${pg_as[@]}" "$bin/initdb" -D "$work/pg/data" -A trust -U gin -E UTF8 --no-sync >"$work/initdb.log" 2>&1 \
    || { cat "$work/initdb.log" >&2; exit 1; }
  pg_ctl_bin="$bin/pg_ctl"
  "${pg_as[@]}" "$bin/pg_ctl" -D "$work/pg/data" -l "$work/pg/server.log" -w -t 60 \
    -o "-p $port -k $work/pg -c listen_addresses=127.0.0.1" start >/dev/null \
    || { cat "$work/pg/server.log" >&2; exit 1; }
  local url="postgresql://gin@127.0.0.1:$port/postgres" sport
  sport="$(free_port)"
  cd "$work"
  "$gin" serve --host 127.0.0.1 --port "$sport" --bot-delay 0 --log-level warning --database-url "$url" \
    >"$work/serve-pg.log" 2>&1 &
  server_pid=$!
  local ready=""
  for _ in $(seq 1 300); do
    if "$v/bin/python" -c 'import sys, urllib.request; urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/readyz", timeout=1)' "$sport" 2>/dev/null; then
      ready=1; break
    fi
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve-pg.log" >&2; say "postgres: gin serve ended early"; exit 1; }
    sleep 0.1
  done
  [ -n "$ready" ] || { cat "$work/serve-pg.log" >&2; say "postgres: /readyz never answered 200"; exit 1; }
  grep -q "(database postgresql://gin@127.0.0.1:$port/postgres)" "$work/serve-pg.log" \
    || { cat "$work/serve-pg.log" >&2; say "postgres: the server is not on PostgreSQL"; exit 1; }
  "$v/bin/python" "$here/scripts/wheel_check_client.py" "$sport"
  kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
  # the deal is in PostgreSQL: one table, its actions stored
  "$v/bin/python" - "$url" <<'PY'
import sys
import psycopg
with psycopg.connect(sys.argv[1]) as c:
    tables = c.execute("select count(*) from gin_tables").fetchone()[0]
    steps = c.execute("select count(*) from gin_actions").fetchone()[0]
print(f"role-check: postgres: {tables} table, {steps} actions stored", file=sys.stderr)
sys.exit(not (tables == 1 and steps > 0))
PY
  "${pg_as[@]}" "$pg_ctl_bin" -D "$work/pg/data" -m fast -w stop >/dev/null; pg_ctl_bin=""
  cd "$here"
  say "postgres: ok in $((SECONDS - t0)) s"
}

check_pipx() {
  local t0=$SECONDS v="$work/pipx-venv"
  say "pipx: pipx install . (PIPX_HOME in a temp folder)"
  python3 -m venv "$v"
  "$v/bin/python" -m pip install "${pip_quiet[@]}" pipx
  export PIPX_HOME="$work/pipx" PIPX_BIN_DIR="$work/pipx-bin" PIPX_MAN_DIR="$work/pipx-man"
  # `pipx install .` in a copy of the checkout's files (pip builds a directory in place: the
  # tree keeps no build/ folder from this check)
  mkdir -p "$work/tree"
  if git -C "$here" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$here" && git ls-files -z | xargs -0 tar -cf -) | tar -xf - -C "$work/tree"
  else
    cp -r "$here/." "$work/tree/"; rm -rf "$work/tree/.venv"
  fi
  (cd "$work/tree" && "$v/bin/pipx" install . >"$work/pipx.log" 2>&1) \
    || { cat "$work/pipx.log" >&2; say "pipx: pipx install . failed"; exit 1; }
  local version
  version="$("$work/pipx-bin/gin" --version)" || { say "pipx: gin --version failed"; exit 1; }
  say "pipx: $version"
  unset PIPX_HOME PIPX_BIN_DIR PIPX_MAN_DIR
  say "pipx: ok in $((SECONDS - t0)) s"
}

for c in "${checks[@]}"; do "check_$c"; done
t0=$SECONDS
cleanup; trap - EXIT
say "ok (${checks[*]}) in $SECONDS s, removing the temp folder included ($((SECONDS - t0)) s)"
