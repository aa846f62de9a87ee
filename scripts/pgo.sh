#!/usr/bin/env bash
# Writes the CPU profile that `go build` and `go install` use to optimise
# the callgrade command (profile-guided optimisation; docs/performance.md
# says what it gives): cmd/callgrade/default.pgo, or the file named as the
# first argument. The profile is taken from the benchmarks of what the
# command spends its time on: BFCL's candidates of every family (python
# AST, live, Java/JavaScript, agentic) under both semantics, ACEBench's,
# the 200,000-case bench corpus loaded and scored whole, suites with tools,
# and runs. PGO_BENCHTIME (default 4s) is how long each benchmark runs.
#
# Run it from a checkout with ../shared beside it after a change to the
# scoring path; a profile that lags the code a little still applies.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-cmd/callgrade/default.pgo}")
benchtime=${PGO_BENCHTIME:-4s}

corpus=/tmp/callgrade-bench/corpus-200000 # where BenchmarkCorpus200k reads it
if [ ! -f "$corpus/responses.jsonl" ]; then
  python3 ../shared/bench/gen_corpus.py "$corpus" 200000
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
profile() { # package, benchmarks
  go test -c -pgo=off -o "$tmp/$1.test" "./$1/"
  (cd "$1" && "$tmp/$1.test" -test.run '^$' -test.bench "$2" -test.benchtime "$benchtime" \
    -test.cpuprofile "$tmp/$1.prof" >/dev/null)
}
profile bfcl 'ScoreCandidates|ScoreFamilies'
profile acebench 'ScoreCandidates'
profile engine 'Corpus200k|ScoreTools|^BenchmarkRun$'
go tool pprof -proto "$tmp/bfcl.prof" "$tmp/acebench.prof" "$tmp/engine.prof" > "$out"
echo "wrote $out"
