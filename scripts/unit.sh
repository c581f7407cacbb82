#!/usr/bin/env bash
# Run every Go test once — fuzz targets run their seed corpora, no timed
# fuzzing — with the race detector when cgo can build it, and close with a
# one-line count:
#   unit: N passed, M failed, K skipped
# (N counts tests and subtests). On failure the failing packages are re-run
# without -json so their output is readable. RACE=0 turns -race off;
# UNIT_PKGS=./internal/x runs only those packages.
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
flags=(-count=1)
if [ "${RACE:-1}" != 0 ]; then
  if [ "$(go env CGO_ENABLED)" = 1 ] && command -v "$(go env CC)" >/dev/null 2>&1; then
    flags+=(-race)
  else
    echo "unit: -race off (it needs cgo and a C compiler: install gcc)"
  fi
fi
# the user's real summary cache must come out untouched: every test runs
# pruner with its own HOME / XDG_CACHE_HOME
cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/pruner"
cache_state() { find "$cache_dir" -printf '%p %s %T@\n' 2>/dev/null | sort | sha256sum; }
cache_before=$(cache_state)
go test "${flags[@]}" -json ${UNIT_PKGS:-./...} >"$out" 2>&1
status=$?
if [ "$(cache_state)" != "$cache_before" ]; then
  echo "unit: the test suite changed the real cache $cache_dir (a test ran pruner without its own HOME/XDG_CACHE_HOME)"
  find "$cache_dir" -newer "$out" 2>/dev/null | head -5
  status=1
fi
# package summary lines (ok / FAIL / no test files), as plain go test prints them
grep '"Action":"output"' "$out" | grep -v '"Test":' | sed -E 's/.*"Output":"(.*)"\}$/\1/; s/\\n$//; s/\\t/\t/g' |
  grep -E '^(ok|FAIL|\?|---|panic)' || true
pass=$(grep -c '"Action":"pass","Package":"[^"]*","Test":' "$out")
fail=$(grep -c '"Action":"fail","Package":"[^"]*","Test":' "$out")
skip=$(grep -c '"Action":"skip","Package":"[^"]*","Test":' "$out")
# names of the tests that failed or were skipped, from the JSON log
tests_with() {
  grep "\"Action\":\"$1\",\"Package\":\"[^\"]*\",\"Test\":" "$out" |
    sed -E 's/.*"Package":"([^"]*)","Test":"([^"]*)".*/\1 \2/' | sed 's|^github.com/pruner-dev/pruner/||' | sort
}
if [ "$status" -ne 0 ]; then
  # build errors have no JSON; show everything for the failing packages
  grep -v '^{' "$out" || true
  if [ "$fail" -gt 0 ]; then
    echo "unit: failed in the first run:"
    tests_with fail | sed 's/^/  /'
    # the failing tests' own output, from the log
    tests_with fail | while read -r pkg name; do
      grep -F "\"Test\":\"$name\",\"Output\"" "$out" | grep -F "/$pkg\"," |
        sed -E 's/.*"Output":"(.*)"\}$/\1/; s/\\n$//; s/\\t/\t/g' | tail -40
    done
  fi
  pkgs=$(grep '"Action":"fail"' "$out" | grep -v '"Test":' | sed -E 's/.*"Package":"([^"]*)".*/\1/' | sort -u)
  if [ -n "$pkgs" ]; then
    echo "unit: re-running the failing packages without -json (a pass here still fails the run: the first run counts)"
    go test "${flags[@]}" $pkgs 2>&1 | tail -200
  fi
  [ "$fail" -eq 0 ] && fail=1
fi
if [ "$skip" -gt 0 ] && [ "${UNIT_LIST_SKIPS:-1}" != 0 ]; then
  echo "unit: skipped (each says why with -v):"
  tests_with skip | sed 's/^/  /'
fi
echo "unit: $pass passed, $fail failed, $skip skipped"
exit "$status"
