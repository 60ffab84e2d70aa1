#!/usr/bin/env sh
# Runs the node:test suite under Bun: every tests/**/*_test.ts except the
# folders below. No test uses a Deno-only API; what is left out is left out
# for time, not for Bun:
#   tests/dist/  builds and runs the npm package, the compiled binary and
#                the runtime matrix (which itself runs `bun cli.ts`); the
#                artifacts do not depend on the test runner, so CI runs
#                these once, under Deno.
# Usage: sh scripts/test_bun.sh [extra bun test flags]
set -eu
cd "$(dirname "$0")/.."
EXCLUDE='^\./tests/dist/'
if [ -x node_modules/.bin/bun ]; then BUN=node_modules/.bin/bun; else BUN=bun; fi
files=$(find ./tests -name '*_test.ts' | grep -Ev "$EXCLUDE" | sort)
# Bun's default 5 s per test is too short for the end-to-end tests on a busy CI runner.
# shellcheck disable=SC2086
exec "$BUN" test --timeout 60000 "$@" $files
