#!/usr/bin/env bash
# bench.sh: time `pruner now` against the same masking written in jq
# (scripts/prune.jq) on a generated session, and print MB/s, peak RSS and the
# ratio. Run from anywhere; `make bench` runs it after the Go benchmarks.
#
# Environment:
#   BENCH_SIZE=200MB   size of the generated session (KB/MB/GB = 1000^n)
#   BENCH_SEED=1       generator seed (same seed, same file)
#   BENCH_RUNS=3       runs per command; the best (lowest wall time) is kept
#   BENCH_JQ_RUNS=$BENCH_RUNS
#   BENCH_VERIFY=1     first check that pruner and jq agree (on a 5 MB file)
#   BENCH_PRUNER=PATH  time this pruner binary instead of building ./cmd/pruner
#   BENCH_JQ=1         also time jq (0: pruner only, e.g. for A/B runs)
#
# MB/s is input bytes (10^6) per second. "cpu s" is user+sys time: on a busy
# machine wall time swings with the load, CPU time much less.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
size=${BENCH_SIZE:-200MB}
seed=${BENCH_SEED:-1}
runs=${BENCH_RUNS:-3}
jqruns=${BENCH_JQ_RUNS:-$runs}
out=bench/out
mkdir -p "$out"

need() { # need CMD PACKAGE
	command -v "$1" >/dev/null 2>&1 && return 0
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		echo "bench: installing $2" >&2
		apt-get install -y -qq "$2" >/dev/null 2>&1 || { apt-get update -qq >/dev/null && apt-get install -y -qq "$2" >/dev/null; }
	fi
	command -v "$1" >/dev/null 2>&1 || { echo "bench: $1 is missing (apt-get install $2)" >&2; exit 1; }
}
need jq jq
[ -x /usr/bin/time ] || need /usr/bin/time time
TIME=/usr/bin/time

if [ -n "${BENCH_PRUNER:-}" ]; then
	echo "bench: building pruner-benchgen (timing $BENCH_PRUNER)" >&2
else
	echo "bench: building pruner and pruner-benchgen" >&2
fi
pruner=${BENCH_PRUNER:-$out/pruner}
[ -n "${BENCH_PRUNER:-}" ] || go build -trimpath -o "$out/pruner" ./cmd/pruner
go build -trimpath -o "$out/pruner-benchgen" ./cmd/pruner-benchgen

file="$out/session-$size-seed$seed.jsonl"
if [ ! -s "$file" ]; then
	echo "bench: generating $file" >&2
	"$out/pruner-benchgen" -o "$file.tmp" -size "$size" -seed "$seed"
	mv "$file.tmp" "$file"
fi
bytes=$(stat -c %s "$file")
lines=$(wc -l <"$file")

if [ "${BENCH_VERIFY:-1}" = 1 ]; then
	small="$out/session-5MB-seed$seed.jsonl"
	[ -s "$small" ] || "$out/pruner-benchgen" -o "$small" -size 5MB -seed "$seed"
	a=$("$pruner" now -q "$small" | jq -cS . | sha256sum | cut -c1-16)
	b=$(jq -c -f scripts/prune.jq "$small" | jq -cS . | sha256sum | cut -c1-16)
	if [ "$a" = "$b" ]; then
		echo "bench: equivalence OK: pruner and prune.jq outputs are equal after jq -cS . ($a, 5 MB file)" >&2
	else
		echo "bench: equivalence FAILED: pruner $a, prune.jq $b (5 MB file)" >&2
		exit 1
	fi
fi

cat "$file" >/dev/null # warm the page cache

# measure NAME RUNS CMD...: the run with the best wall time: wall, CPU, peak RSS.
results=()
measure() {
	local name=$1 n=$2
	shift 2
	local best="" line
	for _ in $(seq "$n"); do
		line=$($TIME -f '%e %U %S %M' "$@" 2>&1 >/dev/null | tail -1)
		if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN{exit !(a<b)}'; then
			best=$line
		fi
	done
	results+=("$name $best")
	echo "bench: $name: $best (wall user sys rssKB)" >&2
}

measure "cat" 1 cat "$file"
measure "pruner" "$runs" "$pruner" now -q "$file"
if command -v taskset >/dev/null; then
	measure "pruner-1core" "$runs" taskset -c 0 "$pruner" now -q "$file"
fi
[ "${BENCH_JQ:-1}" = 0 ] || measure "jq" "$jqruns" jq -c -f scripts/prune.jq "$file"

if command -v hyperfine >/dev/null; then
	hyperfine -N --warmup 1 --runs "$runs" "$pruner now -q $file" "taskset -c 0 $pruner now -q $file" || true
fi

echo
echo "input: $file, $bytes bytes, $lines lines; $(nproc) CPUs; $(jq --version); $(go version | cut -d' ' -f3)"
printf '%s\n' "${results[@]}" | awk -v bytes="$bytes" '
	{ name[NR]=$1; wall[NR]=$2; cpu[NR]=$3+$4; rss[NR]=$5/1024; idx[$1]=NR }
	END {
		printf "%-14s %9s %9s %11s %11s %13s\n", "tool", "wall s", "cpu s", "MB/s wall", "MB/s cpu", "peak RSS MB"
		for (i = 1; i <= NR; i++) {
			w = wall[i] > 0 ? bytes/1e6/wall[i] : 0; c = cpu[i] > 0 ? bytes/1e6/cpu[i] : 0
			printf "%-14s %9.2f %9.2f %11.1f %11.1f %13.1f\n", name[i], wall[i], cpu[i], w, c, rss[i]
		}
		j = idx["jq"]
		if (j) for (k in idx) if (k ~ /^pruner/) {
			p = idx[k]
			printf "ratio %s/jq: %.1fx (wall), %.1fx (cpu)\n", k, wall[j]/wall[p], cpu[j]/cpu[p]
		}
	}'
