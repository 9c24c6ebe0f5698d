#!/usr/bin/env bash
# loadtest.sh [N]: runs the README's test command, go test -race -count=1 ./...,
# N times (default 20) while two CPU-bound processes load the machine, and
# reports each run's result and time, then the passes, the failures and the
# slowest and fastest run. A failed run's output is kept in a file named in
# the report. Nothing is cached between runs beyond what the go command
# caches (-count=1 runs every test each time).
#
#   scripts/loadtest.sh 20
set -uo pipefail
runs=${1:-20}
cd "$(dirname "$0")/.."
out=$(mktemp -d)

# Two busy loops, one per core of a 2-core machine: the load a shared CI
# runner or a developer's build beside the tests puts on the machine.
burners=()
for _ in 1 2; do
  (while :; do :; done) &
  burners+=($!)
done
stop() { for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null; done; }
trap stop EXIT

pass=0 fail=0 times=()
for i in $(seq 1 "$runs"); do
  start=$SECONDS
  if go test -race -count=1 ./... >"$out/run$i.txt" 2>&1; then
    result=pass pass=$((pass + 1))
  else
    result=FAIL fail=$((fail + 1))
  fi
  took=$((SECONDS - start))
  times+=("$took")
  printf 'run %2d: %s in %s s\n' "$i" "$result" "$took"
  if [ "$result" = FAIL ]; then
    grep -E '^(--- FAIL|FAIL|panic:)' "$out/run$i.txt" | head -n 20 | sed 's/^/        /'
    echo "        output: $out/run$i.txt"
  else
    rm "$out/run$i.txt"
  fi
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
printf '%d runs under two CPU-bound processes: %d passed, %d failed; %s s to %s s a run\n' \
  "$runs" "$pass" "$fail" "$(head -n 1 <<<"$sorted")" "$(tail -n 1 <<<"$sorted")"
[ "$fail" -eq 0 ]
