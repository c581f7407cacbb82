# mk/realpi.mk — the real-pi integration test (included by the Makefile).
#
#   make realpi   pruner's pi extensions (extensions/) inside the real pi 1.6.0
#   make realpi-condense PI_CONDENSE=DIR
#                 the handoff: the real pi-condense 2.9.x (a checkout in DIR, never
#                 copied into this repository) inside the real pi 1.6.0, started on a
#                 session `pruner now --write` flushed (internal/realpi/condense_test.go)
#
# Installs Node 22 and pi 1.6.0 from npm once (cached in ~/.cache/pruner-realpi,
# or $PRUNER_REALPI_CACHE), then drives `pi --offline -p` / `-c -p` against a scripted
# model on 127.0.0.1 (internal/realpi). Where npm or its registry cannot be reached it
# prints "realpi: DID NOT RUN (…)"; PRUNER_REALPI_REQUIRE=1 makes that a failure.
# PRUNER_REALPI_KEEP=DIR keeps every request body pi sent; PRUNER_REALPI_VERBOSE=1
# logs pi's stdout and stderr. pi-condense is on no registry, so .ci/run cannot
# fetch it and does not run realpi-condense.

.PHONY: realpi realpi-condense
realpi: ## pi extensions tested in the real pi 1.6.0 (npm; measured 3m29s, 1m03s of it the install, at load 12 on 2 cores)
	@$(GO) vet -tags realpi ./internal/realpi/
	./scripts/realpi.sh

realpi-condense: ## the real pi-condense (PI_CONDENSE=DIR, a 2.9.x checkout) reads a session pruner flushed
	@$(GO) vet -tags realpi ./internal/realpi/
	PRUNER_PI_CONDENSE="$(if $(PI_CONDENSE),$(abspath $(PI_CONDENSE)))" REALPI_RUN='^TestRealPiCondenseHandoff$$' ./scripts/realpi.sh
