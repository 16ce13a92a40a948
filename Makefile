# roster — see README.md. `make test` is what CI runs (.ci/run).
GO ?= go
PKGS := ./...
# Packages whose tests start khatru relays and whose races would be khatru's
# or go-nostr's own (khatru's listener code races under -race), so these run
# without it, and so do the command tree's packages whose end-to-end tests
# use the harness (internal/clitest), found by their test imports.
# Everything else runs with -race, including relaypool: its tests start
# devrelay relays, but devrelay does its own delivery (not khatru's racy
# broadcast), and the pool's concurrency is what -race should watch.
RELAY_PKGS := ./cmd/roster ./devrelay/... ./golden ./interop
# The interop suite's JavaScript side (nostr-tools, @nostr-relay): installed
# by `npm ci` only when interop/node_modules is missing or older than the
# lockfile, so repeated runs reuse it (better-sqlite3 compiles for minutes).
INTEROP_DEPS := interop/node_modules/.package-lock.json
BIN := bin/roster
# A static build (no cgo): no dynamic loader or libc start-up in every
# roster process (docs/PERFORMANCE.md, "Start-up, fourth pass"). Host names
# then resolve through /etc/hosts and DNS only (Go's own resolver), not
# through NSS modules such as mDNS; `make build CGO_ENABLED=1` builds with cgo.
CGO_ENABLED ?= 0

.PHONY: test vet fmtcheck modcheck build demo bench startup fuzz lint clean interop-deps

build:
	CGO_ENABLED=$(CGO_ENABLED) $(GO) build -o $(BIN) ./cmd/roster

vet:
	$(GO) vet $(PKGS)

fmtcheck:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# go.mod and go.sum say exactly what the code imports: `go mod tidy -diff`
# prints what tidy would change and fails if anything would.
modcheck:
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; }

interop-deps: $(INTEROP_DEPS)

$(INTEROP_DEPS): interop/package.json interop/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "the interop suite needs node and npm (Debian: apt-get install nodejs npm), then npm ci in interop/"; exit 1; }
	@# node-gyp compiles better-sqlite3 against node's headers and would
	@# download them from nodejs.org; point it at the system's when they are
	@# installed (Debian's libnode-dev puts them in /usr/include/node).
	cd interop && if [ -z "$${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then \
		export npm_config_nodedir=/usr; fi; npm ci --no-audit --no-fund
	@touch $@

# The two groups run side by side: cmd/roster, the longest package, spends
# much of its time waiting on relays, Git servers and its own timeouts, and
# the -race group fills those waits (docs/PERFORMANCE.md "The test suite").
# Each prints a package's lines when that package ends; the exit status is
# non-zero when either group fails.
test: vet fmtcheck modcheck $(INTEROP_DEPS)
	@relay=$$( { $(GO) list $(RELAY_PKGS) 2>/dev/null; \
		$(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./internal/cli/... | grep ' github.com/roster-cli/roster/internal/clitest' | cut -d' ' -f1; } ); \
	race=$$($(GO) list $(PKGS) | grep -v -x -F "$$relay"); \
	echo "== go test (packages that start relays) and go test -race (the others), side by side"; \
	$(GO) test -count=1 $$relay & relay_pid=$$!; \
	$(GO) test -race -count=1 $$race; race_rc=$$?; \
	wait $$relay_pid; relay_rc=$$?; \
	[ $$race_rc -eq 0 ] && [ $$relay_rc -eq 0 ]

demo: build
	./scripts/demo.sh $(BIN)

# Every benchmark: graph resolution at 10..10,000 announcements, discovery
# round trips and signature checks, cache writes, object availability on
# loopback Git servers, and cold vs warm `roster repo --json`. Figures and how to read them: docs/PERFORMANCE.md.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./graph ./relaypool ./cache ./gitstate ./cmd/roster ./internal/cli/repo

# Start-up: a warm `roster repo --offline --json` against `git rev-parse HEAD`,
# side by side (docs/PERFORMANCE.md "Start-up"; the Go benchmark
# BenchmarkStartupRepoOfflineVersusGitRevParse measures the same, CPU time too).
STARTUP_RUNS ?= 50
startup: build
	./scripts/startup.sh $(BIN) $(STARTUP_RUNS)

FUZZTIME ?= 20s
fuzz:
	./scripts/fuzz.sh $(FUZZTIME)

lint: vet fmtcheck modcheck

clean:
	rm -rf bin
