# Protected paths: check and hook benchmarks (included by the Makefile).

PROTECT_BENCH_DIR ?= $(or $(TMPDIR),/tmp)/pruner-bench
PROTECT_SESSIONS  ?= 1000

.PHONY: bench-hook bench-check bench-protect fuzz-protect gate-corpus

## bench-hook: whole-process `pruner hook` latency (p50/p90/p99)
bench-hook:
	CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o $(PROTECT_BENCH_DIR)/pruner ./cmd/pruner
	go run ./scripts/protect/benchhook -bin $(PROTECT_BENCH_DIR)/pruner -n 300

## bench-check: `pruner check` throughput over generated sessions, 1 vs 2 workers
bench-check:
	CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o $(PROTECT_BENCH_DIR)/pruner ./cmd/pruner
	rm -rf $(PROTECT_BENCH_DIR)/sessions
	go run ./scripts/protect/gensessions -n $(PROTECT_SESSIONS) -out $(PROTECT_BENCH_DIR)/sessions
	for j in 1 2; do $(PROTECT_BENCH_DIR)/pruner check --exit-zero --jobs $$j $(PROTECT_BENCH_DIR)/sessions > /dev/null; done
	go test -run '^$$' -bench 'BenchmarkCheckRun|BenchmarkMatcherCheck' -benchtime 3x ./internal/check/

bench-protect: bench-hook bench-check

## fuzz-protect: fuzz the gate (spellings denied/allowed, paths, bash, events; FUZZTIME=1m each)
fuzz-protect:
	for f in FuzzDeniedSpellings FuzzAllowedSpellings FuzzNormalize FuzzBash FuzzEvent; do \
		go test -run '^$$' -fuzz "^$$f$$" -fuzztime $(or $(FUZZTIME),1m) ./internal/guard/ || exit 1; \
	done

## gate-corpus: the attack/benign corpus through hook and check, with the two counts
gate-corpus:
	go test -count=1 -run 'TestGateCorpus|TestCorpusPure' -v ./internal/cli/ ./internal/guard/ | grep -E 'gate corpus:|decisions|attack allowed|benign|^(ok|FAIL)'

