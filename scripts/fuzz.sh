#!/usr/bin/env bash
# Runs every Fuzz target in the module for FUZZTIME each (default 20s).
set -euo pipefail
time=${1:-20s}
for pkg in $(go list ./...); do
  for f in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
    echo "== $pkg $f"
    go test -run '^$' -fuzz "^${f}\$" -fuzztime "$time" "$pkg"
  done
done
