#!/usr/bin/env bash
# CI: callgrade's Python wheel (integrations/python). The tests build the
# host's wheel twice with the repository's Go (the bytes must match, and the
# checkout must be left as it was), install it with pip --no-index into a
# fresh venv that sees Debian's pytest, and use it there: the callgrade
# command, python -m callgrade, callgrade.score() and the pytest plugin on
# examples/weather and examples/agent. Nothing comes from a package index.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=/usr/bin/python3   # Debian's, whose pytest the venv sees; not a pyenv one
need=()
[ -x "$PY" ] || need+=(python3)
# Debian's python3 makes venvs with pip only with python3-venv installed.
if command -v dpkg >/dev/null 2>&1 && ! dpkg -s python3-venv >/dev/null 2>&1; then need+=(python3-venv); fi
if [ ! -x "$PY" ] || ! "$PY" -c 'import pytest' >/dev/null 2>&1; then need+=(python3-pytest); fi
if [ ${#need[@]} -gt 0 ]; then
  echo "== apt-get install ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then export PATH="$PATH:/usr/local/go/bin"; fi

echo "== python: build the wheel, pip install --no-index into a venv, test it"
# No __pycache__ or .pytest_cache in the checkout.
export PYTHONDONTWRITEBYTECODE=1
"$PY" -m pytest -p no:cacheprovider -ra integrations/python/tests
