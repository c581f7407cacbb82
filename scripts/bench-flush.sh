#!/usr/bin/env bash
# bench-flush.sh: time the batch/index stage on a generated pi session (the
# same generator and file as scripts/bench.sh): `pruner now` with its
# defaults (flush + render + masking) against masking alone (--no-flush),
# then `--write` on a copy and `pruner restore` of it, checked byte for byte.
# Prints wall and CPU seconds, MB/s of input and peak RSS. `make bench` runs
# it after scripts/bench.sh; `make bench-flush` runs it alone.
#
# Environment:
#   BENCH_SIZE=200MB   size of the generated session (KB/MB/GB = 1000^n)
#   BENCH_SEED=1       generator seed (same seed, same file)
#   BENCH_RUNS=1       runs per command; the best (lowest wall time) is kept
#   BENCH_PRUNER=PATH  time this pruner binary instead of building ./cmd/pruner
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
size=${BENCH_SIZE:-200MB}
seed=${BENCH_SEED:-1}
runs=${BENCH_RUNS:-1}
out=bench/out
mkdir -p "$out"
[ -x /usr/bin/time ] || { echo "bench-flush: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }

pruner=${BENCH_PRUNER:-$out/pruner}
[ -n "${BENCH_PRUNER:-}" ] || go build -trimpath -o "$out/pruner" ./cmd/pruner
go build -trimpath -o "$out/pruner-benchgen" ./cmd/pruner-benchgen
file="$out/session-$size-seed$seed.jsonl"
if [ ! -s "$file" ]; then
	echo "bench-flush: generating $file" >&2
	"$out/pruner-benchgen" -o "$file.tmp" -size "$size" -seed "$seed"
	mv "$file.tmp" "$file"
fi
bytes=$(stat -c %s "$file")

# best RUN: wall cpu rss (the lowest wall time of $runs)
best() {
	local bestw="" line
	for _ in $(seq "$runs"); do
		line=$(/usr/bin/time -f '%e %U %S %M' "$@" 2>&1 >/dev/null | tail -n 1)
		read -r w u s m <<<"$line"
		if [ -z "$bestw" ] || awk "BEGIN{exit !($w < $bestw)}"; then
			bestw=$w; bestline="$w $(awk "BEGIN{print $u+$s}") $m"
		fi
	done
	echo "$bestline"
}

report() { # report NAME wall cpu rssKB
	awk -v n="$1" -v w="$2" -v c="$3" -v m="$4" -v b="$bytes" \
		'BEGIN{printf "%-26s %7.2f s wall %7.2f s cpu %8.1f MB/s %7.0f MB peak RSS\n", n, w, c, b/1e6/w, m/1024}'
}

echo "bench-flush: $file ($(awk -v b="$bytes" 'BEGIN{printf "%.0f", b/1e6}') MB), $runs run(s) each, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$pruner" now "$file" 2>&1 >/dev/null | grep -v warning | sed 's/^/  /'
report "now (flush+render+mask)" $(best "$pruner" now -q "$file")
report "now --no-flush (mask)" $(best "$pruner" now -q --no-flush "$file")
report "now --session" $(best "$pruner" now -q --session "$file")

copy="$out/write-$size-seed$seed.jsonl"
cp "$file" "$copy"
touch -d 2020-01-01T00:00:00 "$copy"
report "now --write" $(/usr/bin/time -f '%e %U %S %M' "$pruner" now -q --write "$copy" 2>&1 >/dev/null | tail -n 1 | awk '{print $1, $2+$3, $4}')
echo "  written: $(stat -c %s "$copy") bytes"
touch -d 2020-01-01T00:00:00 "$copy"
report "restore" $(/usr/bin/time -f '%e %U %S %M' "$pruner" restore -q "$copy" 2>&1 >/dev/null | tail -n 1 | awk '{print $1, $2+$3, $4}')
if cmp -s "$copy" "$file"; then echo "  restore: byte for byte"; else echo "  restore: DIFFERS" >&2; exit 1; fi
rm -f "$copy"
