#!/usr/bin/env bash
# Regenerate the exact lockfiles from pyproject.toml's ranges (`make lock`): requirements/run.lock (what `make run`
# installs: playing and serving) and requirements/test.lock (`make test`: every extra and the test tools).
# Universal locks (markers per Python version), so one file serves Python 3.11 to 3.13 (Debian 12 and 13).
# uv does the resolving; it is installed from PyPI into a throw-away environment when not on PATH.
# tests/test_lock.py checks that the locks still satisfy pyproject.toml and each other.
set -euo pipefail
cd "$(dirname "$0")/.."
UV=${UV:-$(command -v uv || true)}
if [ -z "$UV" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  python3 -m venv "$tmp/uv" && "$tmp/uv/bin/pip" install -q uv
  UV="$tmp/uv/bin/uv"
fi
common=(pip compile pyproject.toml --universal --python-version 3.11 -q)
"$UV" "${common[@]}" -o requirements/run.lock
"$UV" "${common[@]}" --extra test -o requirements/test.lock
echo "requirements/run.lock and requirements/test.lock regenerated"
