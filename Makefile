# pruner — build, test, fuzz, bench. `make help` lists targets.
GO       ?= go
FUZZTIME ?= 5s
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
STATICCHECK ?= staticcheck
STATICCHECK_VERSION := v0.8.2
LDFLAGS  := -s -w -X main.version=$(VERSION) -X main.commit=$(shell git rev-parse --short HEAD 2>/dev/null || echo none)

.PHONY: help build test unit fuzz-short lint fmt golden install
help: ## list targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

# CGO_ENABLED=0: a static binary starts ~2 ms faster (no dynamic loader), which
# matters for `pruner hook`, run once per tool call.
build: ## build ./pruner (static)
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o pruner ./cmd/pruner

install: ## go install pruner (static)
	CGO_ENABLED=0 $(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/pruner

test: lint fuzz-short unit ## the full suite: gofmt + vet, each fuzz target briefly, every test

unit: ## every test once, closing with "unit: N passed, M failed"
	./scripts/unit.sh

fuzz-short: ## run every fuzz target for FUZZTIME (default 5s)
	./scripts/fuzz-short.sh $(FUZZTIME)

lint: ## gofmt, go vet, staticcheck, go.mod tidy
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@command -v $(STATICCHECK) >/dev/null || { echo "staticcheck not found: go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)"; exit 1; }
	$(STATICCHECK) ./...
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; }

golden: ## rewrite golden files after an intended output change
	$(GO) test ./internal/prune -run Golden -update

-include mk/*.mk
