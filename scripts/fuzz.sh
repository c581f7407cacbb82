#!/usr/bin/env bash
# Timed fuzzing: run every Go fuzz target in the module for FUZZTIME each
# (default 10s). Not part of `make test`: under load Go's fuzzing coordinator
# can time out ("context deadline exceeded") without any bug, so the test
# suite runs the fuzz targets' seed corpora as plain tests instead.
# Each new interesting input is minimized for at most FUZZMINIMIZETIME
# (default 5s; Go's default is 60s, during which the worker reports no
# executions and a short run does little else: FuzzRender showed 0–5
# execs/s and found no new input in 30s, against 9 with 3s).
# Usage: scripts/fuzz.sh [FUZZTIME]      e.g. scripts/fuzz.sh 1m
set -euo pipefail
t="${1:-10s}"
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
n=0
while IFS=: read -r file name; do
  pkg="./$(dirname "$file")"
  echo "fuzz: $pkg $name ($t)"
  go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$t" -fuzzminimizetime "${FUZZMINIMIZETIME:-5s}" >"$log" 2>&1 || { cat "$log"; exit 1; }
  n=$((n+1))
done < <(grep -rHoE '^func (Fuzz[A-Za-z0-9_]+)\(' --include='*_test.go' internal cmd | sed -E 's/:func (Fuzz[A-Za-z0-9_]+)\(/:\1/' | sort)
echo "fuzz: $n targets ok"
