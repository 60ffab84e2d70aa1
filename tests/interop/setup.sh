#!/usr/bin/env bash
# Installs what the interop suite needs, from the package registries, inside
# tests/interop/ (the Go module cache is the one thing kept outside).
# Idempotent: a second run only checks. For each language it writes
# .build/<lang>.ok (the SDK version) or .build/<lang>.skip (why not), which
# run.ts reads. Never fails because one language is missing: that language's
# rows are skipped with the reason.
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="$HERE/.build"
MCP_PY_VERSION="2.3.0"
mkdir -p "$BUILD"

note() { echo "interop setup: $*" >&2; }
ok() { rm -f "$BUILD/$1.skip"; echo "$2" >"$BUILD/$1.ok"; note "$1 ready ($2, $3 s)"; }
skip() { rm -f "$BUILD/$1.ok"; echo "$2" >"$BUILD/$1.skip"; note "$1 skipped: $2"; }

setup_python() {
  local start=$SECONDS venv="$HERE/.venv"
  if ! command -v python3 >/dev/null; then skip python "python3 not found on PATH"; return; fi
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" || { skip python "python3 -m venv failed"; return; }
  fi
  if [ "$("$venv/bin/python" -c 'from importlib.metadata import version; print(version("mcp"))' 2>/dev/null)" != "$MCP_PY_VERSION" ]; then
    "$venv/bin/pip" install --quiet --no-cache-dir --disable-pip-version-check "mcp==$MCP_PY_VERSION" >&2 ||
      { skip python "pip install mcp==$MCP_PY_VERSION failed"; return; }
  fi
  ok python "mcp $MCP_PY_VERSION" $((SECONDS - start))
}

setup_go() {
  local start=$SECONDS
  if ! command -v go >/dev/null; then skip go "go not found on PATH"; return; fi
  (
    cd "$HERE/go" &&
      export GOFLAGS=-mod=readonly GOCACHE="$BUILD/gocache" &&
      go mod download >&2 &&
      go build -o "$BUILD/bin/go-client" ./client >&2 &&
      go build -o "$BUILD/bin/go-server" ./server >&2
  ) || { skip go "go mod download or go build failed (see above)"; return; }
  ok go "go-sdk $(awk '$1 == "require" && $2 ~ /go-sdk$/ { print $3 }' "$HERE/go/go.mod")" $((SECONDS - start))
}

setup_python
setup_go
