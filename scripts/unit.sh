#!/usr/bin/env bash
# Run every Go test once and close with a one-line count:
#   unit: N passed, M failed, K skipped
# (N counts tests and subtests). On failure the failing packages are re-run
# without -json so their output is readable.
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go test -count=1 -json ./... >"$out" 2>&1
status=$?
# package summary lines (ok / FAIL / no test files), as plain go test prints them
grep '"Action":"output"' "$out" | grep -v '"Test":' | sed -E 's/.*"Output":"(.*)"\}$/\1/; s/\\n$//; s/\\t/\t/g' |
  grep -E '^(ok|FAIL|\?|---|panic)' || true
pass=$(grep -c '"Action":"pass","Package":"[^"]*","Test":' "$out")
fail=$(grep -c '"Action":"fail","Package":"[^"]*","Test":' "$out")
skip=$(grep -c '"Action":"skip","Package":"[^"]*","Test":' "$out")
if [ "$status" -ne 0 ]; then
  # build errors have no JSON; show everything for the failing packages
  grep -v '^{' "$out" || true
  pkgs=$(grep '"Action":"fail"' "$out" | grep -v '"Test":' | sed -E 's/.*"Package":"([^"]*)".*/\1/' | sort -u)
  [ -n "$pkgs" ] && go test -count=1 $pkgs 2>&1 | tail -200
  [ "$fail" -eq 0 ] && fail=1
fi
echo "unit: $pass passed, $fail failed, $skip skipped"
exit "$status"
