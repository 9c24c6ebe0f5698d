#!/usr/bin/env bash
# benchrounds.sh [ROUNDS] [OUT]: the cost tables of docs/performance.md.
# Builds the test binaries of the root, dbcloudtest and otel packages once,
# then runs ROUNDS rounds (default 8), each running every per-call
# benchmark once, the SDK beside its baseline, so that a busy moment of the
# machine weighs on both sides alike; then AllLogs six times. The per-call
# benchmarks run on a loopback socket and in memory (net=), and each also
# as impl=paired, the SDK and the baseline called in turn, whose ratio
# is the steadiest figure on a noisy machine. The raw
# results go to OUT (default a temporary file), and benchstat prints the
# medians of each side and their ratio. Run it on an idle machine: times
# vary by about 10% from one run to the next on a 2-core one; cpu-us/op,
# the process's CPU per call (client and server), varies less.
#
#   scripts/benchrounds.sh 8 /tmp/bench.txt
set -euo pipefail
rounds=${1:-8}
out=${2:-$(mktemp)}
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go test -c -o "$bin/root.test" .
go test -c -o "$bin/dbcloudtest.test" ./dbcloudtest
(cd otel && go test -c -o "$bin/otel.test" .)

bench() { # dir binary pattern
  (cd "$1" && "$bin/$2" -test.run '^$' -test.bench "$3" -test.benchmem -test.count 1) | grep '^Benchmark' || true
}
: >"$out"
for i in $(seq "$rounds"); do
  {
    bench . root.test 'GetService$|ListServices$|CreateService$|GetParallel$|ContextPerRequest$'
    bench otel otel.test 'Get$'
    bench dbcloudtest dbcloudtest.test 'Get$'
  } >>"$out"
  echo "round $i of $rounds done" >&2
done
for _ in 1 2 3 4 5 6; do bench . root.test 'AllLogs$' >>"$out"; done

benchstat=golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
echo "raw results: $out"
grep -E '/impl=(sdk|baseline)' "$out" | go run "$benchstat" -col '/impl@(baseline sdk)' -
# impl=paired: the two clients called in turn, the ratio per run (sdk/baseline).
grep -E '/impl=paired' "$out" | go run "$benchstat" -
grep -E '^BenchmarkContextPerRequest' "$out" | go run "$benchstat" -
grep -E '^BenchmarkGet/(obs|impl)=' "$out" | go run "$benchstat" -
grep -E '^BenchmarkGet/pair=' "$out" | go run "$benchstat" -
grep -E '^BenchmarkGet-' "$out" | go run "$benchstat" -
