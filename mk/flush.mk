# mk/flush.mk — the batch/index stage's write side (included by the Makefile).
#
#   make bench-flush    scripts/bench-flush.sh: flush, --write and restore on a
#                       generated 200 MB session (MB/s, peak RSS); `make bench`
#                       runs it too, after scripts/bench.sh
#   make golden-flush   rewrite testdata/golden/flush/*.jsonl after an intended change

.PHONY: bench-flush golden-flush
bench-flush: ## flush, --write and restore on a 200 MB session (MB/s, peak RSS)
	./scripts/bench-flush.sh

bench: bench-flush

golden-flush:
	$(GO) test ./internal/pipeline -run Golden -update
