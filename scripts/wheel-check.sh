#!/usr/bin/env bash
# The built package, installed alone, serves and plays (issue 30; called by .ci/run).
#   scripts/wheel-check.sh [PYTHON]
# 1. builds the wheel and the sdist (python -m build, into a temp folder; PYTHON defaults to
#    .venv/bin/python when ./dev made it, else python3, and must have `build`: the dev extra);
# 2. installs the wheel, with no extras, into a fresh virtual environment;
# 3. starts `gin serve` from it on 127.0.0.1 on a free port with a temp SQLite file, checks
#    /healthz, plays one whole deal against the computer over the WebSocket
#    (scripts/wheel_check_client.py), and stops it;
# 4. runs `gin play` on a script in Greek against the expert (the translations and the model
#    files must be in the wheel) and checks its last line.
# Everything lives in one temp folder, removed at exit; the server is stopped at exit too.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py="${1:-}"
if [ -z "$py" ]; then
  if [ -x "$here/.venv/bin/python" ]; then py="$here/.venv/bin/python"; else py=python3; fi
fi
work="$(mktemp -d /tmp/gin-wheel.XXXXXX)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
say() { echo "wheel-check: $*" >&2; }

say "building the wheel and the sdist"
"$py" -m build --outdir "$work/dist" "$here" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
wheel="$(ls "$work"/dist/ginrummy-*.whl)"
ls "$work"/dist/ginrummy-*.tar.gz >/dev/null
for member in ginrummy/web/static/lobby.html ginrummy/locale/el/LC_MESSAGES/messages.mo \
              ginrummy/locale/mt/LC_MESSAGES/web.mo ginrummy/players/opponent_model.json \
              ginrummy/web/db/migrations/env.py; do
  "$py" -c 'import sys, zipfile; sys.exit(sys.argv[2] not in zipfile.ZipFile(sys.argv[1]).namelist())' "$wheel" "$member" \
    || { say "the wheel lacks $member"; exit 1; }
done

say "installing $(basename "$wheel") alone into a fresh virtual environment"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel"
gin="$work/venv/bin/gin"
"$gin" --version

port="$("$work/venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
cd "$work"  # nothing of the source tree on the path: the installed package only
"$gin" serve --host 127.0.0.1 --port "$port" --bot-delay 0 --log-level warning \
  --database-url "sqlite:///$work/gin.sqlite3" >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 300); do
  if "$work/venv/bin/python" -c 'import sys, urllib.request; urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1)' "$port" 2>/dev/null; then
    break
  fi
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.log" >&2; say "gin serve ended early"; exit 1; }
  sleep 0.1
done
"$work/venv/bin/python" "$here/scripts/wheel_check_client.py" "$port"
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""

say "gin play on a script (Greek, against the expert)"
for _ in $(seq 1 500); do echo auto; done >"$work/script.txt"  # (yes | head would end in SIGPIPE)
out="$("$gin" play --opponent expert --lang el --seed 18 --set target=10 --no-clear <"$work/script.txt")"
last="$(printf '%s\n' "$out" | tail -n 1)"
case "$last" in
  *"Υπολογιστής (ειδήμων)"*) say "gin play: $last" ;;
  *) printf '%s\n' "$out" | tail -n 20 >&2; say "gin play did not end in Greek as expected"; exit 1 ;;
esac
say "ok"
