# Benchmarks (included by the Makefile). See docs/performance.md.
#   make bench-go   Go benchmarks (MB/s via b.SetBytes) on a session generated
#                   in memory; BENCH_GO_SIZE=200MB BENCH_GO_COUNT=10 for more.
#   make bench      bench-go, then scripts/bench.sh: pruner vs jq on a 200 MB
#                   generated session in bench/out/ (git-ignored); BENCH_SIZE,
#                   BENCH_SEED, BENCH_RUNS, BENCH_PRUNER: see the script.

GO             ?= go
BENCH_GO_SIZE  ?= 20MB
BENCH_GO_COUNT ?= 1
BENCH_GO_FLAGS ?= -run '^$$' -bench . -benchmem -count $(BENCH_GO_COUNT)

.PHONY: bench bench-go

bench-go: ## Go benchmarks for session and prune (MB/s, -benchmem)
	PRUNER_BENCH_SIZE=$(BENCH_GO_SIZE) $(GO) test $(BENCH_GO_FLAGS) ./internal/session/ ./internal/prune/

bench: bench-go ## bench-go, then pruner vs jq on a 200 MB session (scripts/bench.sh)
	./scripts/bench.sh
