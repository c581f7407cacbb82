# mk/realpi.mk — the real-pi integration test (included by the Makefile).
#
#   make realpi   pruner's pi extensions (extensions/) inside the real pi 1.6.0
#
# Installs Node 22 and pi 1.6.0 from npm once (cached in ~/.cache/pruner-realpi,
# or $PRUNER_REALPI_CACHE), then drives `pi --offline -p` / `-c -p` against a scripted
# model on 127.0.0.1 (internal/realpi). Where npm or its registry cannot be reached it
# prints "realpi: DID NOT RUN (…)"; PRUNER_REALPI_REQUIRE=1 makes that a failure.
# PRUNER_REALPI_KEEP=DIR keeps every request body pi sent; PRUNER_REALPI_VERBOSE=1
# logs pi's stdout and stderr.

.PHONY: realpi
realpi: ## pi extensions tested in the real pi 1.6.0 (npm; about 30 s once cached)
	@$(GO) vet -tags realpi ./internal/realpi/
	./scripts/realpi.sh
