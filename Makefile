# pruner — build, test, fuzz, man pages, bench. `make help` lists targets.
GO       ?= go
FUZZTIME ?= 10s
MANDIR   ?= man
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
STATICCHECK_VERSION := v0.8.2
# staticcheck at the pinned version, built by the go command on first use and
# cached (a fresh machine needs only Go); STATICCHECK=staticcheck uses one on PATH
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
LDFLAGS  := -s -w -X main.version=$(VERSION) -X main.commit=$(shell git rev-parse --short HEAD 2>/dev/null || echo none) -X main.date=$(shell TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ 2>/dev/null || echo unknown)

.PHONY: help build install test unit fuzz lint golden man
help: ## list targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-22s %s\n", $$1, $$2}'

# CGO_ENABLED=0: a static binary starts ~2 ms faster (no dynamic loader), which
# matters for `pruner hook`, run once per tool call.
build: ## build ./pruner (static)
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o pruner ./cmd/pruner

install: ## put pruner on PATH: go install ./cmd/pruner (static) into $(go env GOPATH)/bin
	CGO_ENABLED=0 $(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/pruner
	@bin=$$($(GO) env GOBIN); [ -n "$$bin" ] || bin=$$($(GO) env GOPATH)/bin; \
	  echo "installed $$bin/pruner"; \
	  case ":$$PATH:" in *":$$bin:"*) ;; *) echo "note: $$bin is not on PATH; add it: export PATH=\"$$bin:\$$PATH\"";; esac; \
	  on=$$(command -v pruner || true); \
	  if [ -n "$$on" ] && [ "$$on" != "$$bin/pruner" ]; then echo "warning: the pruner on PATH is $$on, not this build ($$bin/pruner): put $$bin first on PATH, or remove the other one"; fi

test: lint unit ## the full suite: gofmt, vet, tidy, then every test once with -race (no timed fuzzing)

unit: ## every test once (-race; fuzz seeds as tests), closing with "unit: N passed, M failed, K skipped"
	./scripts/unit.sh

fuzz: ## timed fuzzing: every fuzz target for FUZZTIME (default 10s); not part of test
	./scripts/fuzz.sh $(FUZZTIME)

lint: ## gofmt, go vet, staticcheck, go.mod tidy, and a Windows build (a release target with its own code paths)
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; }
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/pruner

# every package whose tests take -update (its golden tests are named *Golden*):
# prune (testdata/golden/now), pipeline (testdata/golden/flush), render
# (testdata/render/*.golden.jsonl), and any added later
GOLDEN_PKGS = $(patsubst %/,./%,$(sort $(dir $(shell grep -rl --include='*_test.go' '^var update = flag.Bool' internal cmd))))
golden: ## rewrite every golden set (masking, flush, render) after an intended output change
	$(GO) test -count=1 -run Golden $(GOLDEN_PKGS) -update

man: ## man pages for every command into MANDIR (default man/), from the cobra commands
	SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct 2>/dev/null || date +%s) $(GO) run ./cmd/pruner-man -dir $(MANDIR) -version $(VERSION)

-include mk/*.mk
