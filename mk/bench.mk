# Benchmarks (included by the Makefile). See docs/performance.md.
#   make bench-go   Go benchmarks (MB/s via b.SetBytes) on a session generated
#                   in memory; BENCH_GO_SIZE=200MB BENCH_GO_COUNT=10 for more.
#   make bench      bench-go, then scripts/bench.sh: pruner now/context/
#                   --session/check, the jq one-liner and the node per-line
#                   script on pi-derived 20 MB, 200 MB and 1 GB sessions in
#                   bench/out/ (git-ignored): MB/s, µs per line, peak RSS,
#                   ratios. BENCH_SIZES, BENCH_SEED, BENCH_RUNS, BENCH_PRUNER:
#                   see the script. Not part of `make test`.

GO             ?= go
BENCH_GO_SIZE  ?= 20MB
BENCH_GO_COUNT ?= 1
BENCH_GO_FLAGS ?= -run '^$$' -bench . -benchmem -count $(BENCH_GO_COUNT)

.PHONY: bench bench-go

bench-go: ## Go benchmarks for session and prune (MB/s, -benchmem)
	PRUNER_BENCH_SIZE=$(BENCH_GO_SIZE) $(GO) test $(BENCH_GO_FLAGS) ./internal/jsonscan/ ./internal/session/ ./internal/prune/

bench: bench-go ## bench-go, then pruner vs jq and node on 20 MB/200 MB/1 GB sessions (scripts/bench.sh)
	./scripts/bench.sh
