# Benchmarks (included by the Makefile).
#   make bench-go   Go micro-benchmarks (MB/s via SetBytes) on a 20 MB session
#                   generated in memory; BENCH_GO_SIZE=200MB for a bigger one.
#   make bench      bench-go, then scripts/bench.sh: pruner vs jq on a 200 MB
#                   generated session (bench/out/, git-ignored); see its header
#                   for BENCH_SIZE, BENCH_SEED, BENCH_RUNS.

BENCH_GO_SIZE ?= 20MB
BENCH_GO_COUNT ?= 1
BENCH_GO_FLAGS ?= -run '^$$' -bench . -benchmem -count $(BENCH_GO_COUNT)

.PHONY: bench bench-go

bench-go:
	PRUNER_BENCH_SIZE=$(BENCH_GO_SIZE) go test $(BENCH_GO_FLAGS) ./internal/session/ ./internal/prune/

bench: bench-go
	./scripts/bench.sh
