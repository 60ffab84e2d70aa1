#!/usr/bin/env sh
# Runs the node:test suite under Bun: every tests/**/*_test.ts except the
# files below. Every other file runs under Bun as it does under Deno (no test
# uses a Deno-only API, and .ci/run fails on any skip not allowed in
# tests/allowed_skips.txt). What is left out is left out for time, not
# because it cannot run under Bun:
#   tests/dist/binary_test.ts, npm_package_test.ts, runtime_matrix_test.ts
#       build the npm package and the compiled binary and run them (the
#       matrix itself starts `bun cli.ts`, `node` and `deno`); what they
#       test does not depend on the runner, so CI runs them once, under Deno.
#   tests/bindings/python_test.ts, go_test.ts
#       build the wheel or the binary and run the Python package's pytest
#       suite and the Go module's go test; the runner only starts them, so
#       CI runs them once, under Deno.
#   tests/interop/python_control_test.ts
#       the Python SDK client (tests/interop/setup.sh's venv) against
#       `replay --listen --control`; it needs Python, and the runner only
#       starts processes, so CI runs it once, under Deno.
# One file is left out because it fails under Bun, an open defect:
#   tests/http/record_get_stream_test.ts
#       the byte-level recorder running in Bun lets a session's tools/call
#       reach the upstream before its GET stream in some sessions (alone,
#       3-7 runs of 12-15 failed on 2 December 2026, at this tree and at
#       14cabdc; the same client straight to the upstream: 0 of 15). It
#       runs under Deno, where it passes; it comes back here once fixed.
# Usage: sh scripts/test_bun.sh [extra bun test flags]
set -eu
cd "$(dirname "$0")/.."
EXCLUDE='^\./tests/(dist/(binary|npm_package|runtime_matrix)|bindings/(python|go)|interop/python_control|http/record_get_stream)_test\.ts$'
if [ -x node_modules/.bin/bun ]; then BUN=node_modules/.bin/bun; else BUN=bun; fi
files=$(find ./tests -name '*_test.ts' | grep -Ev "$EXCLUDE" | sort)
# Bun's default 5 s per test is too short for the end-to-end tests on a busy CI runner.
# shellcheck disable=SC2086
exec "$BUN" test --timeout 60000 "$@" $files
