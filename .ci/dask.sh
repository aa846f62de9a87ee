#!/usr/bin/env bash
# CI: examples/dask/score_dask.py, run on Debian's Dask (python3-distributed,
# importable by /usr/bin/python3 and not by another Python first on PATH),
# must give byte for byte what one `callgrade score` gives. Its last line
# is the test's "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."

if ! /usr/bin/python3 -c 'import dask.bag, distributed' >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-distributed >/dev/null
fi

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/callgrade" ./cmd/callgrade

echo "== Dask: score_dask.py against one callgrade score"
CALLGRADE="$bin/callgrade" /usr/bin/python3 examples/dask/test_score_dask.py
