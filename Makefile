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

# Tests that push much data through one goroutine: the cache's floods over
# its size cap and 10,000 sybil announcements read through one relay. Under
# -race they cost six to eight times the CPU (cache 40 s against 5 s) and
# give the detector little to watch (the cache's and the pool's concurrency
# tests run with it), so they run in the group without -race and are left
# out of their packages' -race run: every test still runs once.
FLOOD_PKGS := ./cache ./discovery
FLOOD_TESTS := ^(TestEventsOverTheSizeLimitAreSkippedAndCounted|TestReSignedFloodKeepsOnlyTheLatestPerAddressUnderTheDefaultCap|TestFloodOverTheDefaultCapStaysUnderIt|TestFloodOverTheCapEvictsTheLeastRecentlyRead|TestFileOverTheCapIsShrunkOnOpen|TestPinnedRepositorySurvivesAFloodOfOtherRepositoriesEvents|TestSybilAnnouncementsDoNotGrowTheDeletionRound)$$
# The end-to-end tests mostly wait (on relays, Git servers over loopback and
# their own timeouts): go test's default -parallel is GOMAXPROCS, 2 here, so
# they run wider (internal/cli/repo/change 55 s -> 22 s alone, same CPU).
RELAY_PARALLEL ?= 6
# Passed to every go test: `make test TESTFLAGS=-json > t.json` gives each
# test's elapsed time (docs/PERFORMANCE.md "The test suite").
TESTFLAGS ?=
# Git's own housekeeping after every commit, fetch and push in the fixtures
# (`git maintenance run --auto`, `git gc --auto`) finds nothing to do in
# repositories this small and costs a process each time.
GIT_QUIET := GIT_CONFIG_COUNT=3 GIT_CONFIG_KEY_0=maintenance.auto GIT_CONFIG_VALUE_0=false \
	GIT_CONFIG_KEY_1=gc.auto GIT_CONFIG_VALUE_1=0 GIT_CONFIG_KEY_2=receive.autogc GIT_CONFIG_VALUE_2=false

# The two groups run side by side: the end-to-end packages spend much of
# their time waiting, and the -race group fills those waits
# (docs/PERFORMANCE.md "The test suite"). Each lane prints a package's
# lines when that package ends; the exit status is non-zero when any fails.
test: vet fmtcheck modcheck $(INTEROP_DEPS)
	@relay=$$( { $(GO) list $(RELAY_PKGS) 2>/dev/null; \
		$(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./internal/cli/... | grep ' github.com/roster-cli/roster/internal/clitest' | cut -d' ' -f1; } ); \
	flood=$$($(GO) list $(FLOOD_PKGS)); \
	race=$$($(GO) list $(PKGS) | grep -v -x -F "$$relay" | grep -v -x -F "$$flood"); \
	export $(GIT_QUIET); \
	echo "== go test (packages that start relays, and the flood tests) and go test -race (the others), side by side"; \
	{ $(GO) test $(TESTFLAGS) -count=1 -parallel $(RELAY_PARALLEL) $$relay; a=$$?; \
		$(GO) test $(TESTFLAGS) -count=1 -run '$(FLOOD_TESTS)' $$flood; b=$$?; \
		[ $$a -eq 0 ] && [ $$b -eq 0 ]; } & relay_pid=$$!; \
	$(GO) test $(TESTFLAGS) -race -count=1 $$race; a=$$?; \
	$(GO) test $(TESTFLAGS) -race -count=1 -skip '$(FLOOD_TESTS)' $$flood; b=$$?; \
	wait $$relay_pid; relay_rc=$$?; \
	[ $$a -eq 0 ] && [ $$b -eq 0 ] && [ $$relay_rc -eq 0 ]

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
