#!/bin/sh
# Rewrites the expected transcripts (tests/golden/*.out) from the current build. Run it only
# after a deliberate change to what the REPL prints, then review `git diff tests/golden`.
#   tests/golden/regenerate.sh [BUILD_DIR]     (default: build)
set -eu
build=${1:-build}
BN_GOLDEN_UPDATE=ON ctest --test-dir "$build" -R '^golden\.' --output-on-failure
