#!/usr/bin/env bash
# Installs what the interop suite needs, from the package registries, inside
# tests/interop/ (the Go module cache, Maven's local repository ~/.m2 and
# Cargo's registry ~/.cargo are the things kept outside).
# Idempotent: a second run only checks (and rebuilds what changed). For each
# language it writes .build/<lang>.ok (the SDK version) or .build/<lang>.skip
# (why not), which clients.ts reads: that language's rows are then skipped with
# the reason, and the other languages still run.
#
# Exit status: 1, with a FAILED line naming each, when a toolchain is on PATH
# but its install or build failed; with --strict (what CI runs) also when a
# toolchain is missing. 0 otherwise.
#
# Rust: the target folder is tests/interop/rust/target (git-ignored), for CI to
# keep between its steps; a build into an empty one writes its seconds to
# target/interop-cold-build-seconds, which docs/interop.md reports.
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="$HERE/.build"
MCP_PY_VERSION="2.3.0"
STRICT=0
[ "${1:-}" = "--strict" ] && STRICT=1
FAILED=()
mkdir -p "$BUILD"

note() { echo "interop setup: $*" >&2; }
ok() { rm -f "$BUILD/$1.skip"; echo "$2" >"$BUILD/$1.ok"; note "$1 ready ($2, $3 s)"; }
skip() { rm -f "$BUILD/$1.ok"; echo "$2" >"$BUILD/$1.skip"; note "$1 skipped: $2"; }
# A toolchain that is not there: the language's rows skip (an error only with --strict).
missing() { skip "$1" "$2"; [ "$STRICT" = 1 ] && FAILED+=("$1: $2"); }
# A toolchain that is there but whose install or build failed: always an error.
broken() { skip "$1" "$2"; FAILED+=("$1: $2"); }

# Python: INTEROP_PYTHON (default python3) makes the venv; mcp 2.3.0 needs 3.10+.
setup_python() {
  local start=$SECONDS venv="$HERE/.venv" python="${INTEROP_PYTHON:-python3}"
  if ! command -v "$python" >/dev/null; then missing python "$python not found on PATH"; return; fi
  if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
    broken python "$python is $("$python" -V 2>&1); mcp $MCP_PY_VERSION needs Python 3.10 or newer"
    return
  fi
  if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv" || { broken python "$python -m venv failed"; return; }
  fi
  if [ "$("$venv/bin/python" -c 'from importlib.metadata import version; print(version("mcp"))' 2>/dev/null)" != "$MCP_PY_VERSION" ]; then
    "$venv/bin/pip" install --quiet --no-cache-dir --disable-pip-version-check "mcp==$MCP_PY_VERSION" >&2 ||
      { broken python "pip install mcp==$MCP_PY_VERSION failed"; return; }
  fi
  ok python "mcp $MCP_PY_VERSION" $((SECONDS - start))
}

setup_go() {
  local start=$SECONDS
  if ! command -v go >/dev/null; then missing go "go not found on PATH"; return; fi
  (
    cd "$HERE/go" &&
      export GOFLAGS=-mod=readonly GOCACHE="$BUILD/gocache" &&
      go mod download >&2 &&
      go build -o "$BUILD/bin/go-client" ./client >&2 &&
      go build -o "$BUILD/bin/go-server" ./server >&2
  ) || { broken go "go mod download or go build failed (see above)"; return; }
  ok go "go-sdk $(awk '$1 == "require" && $2 ~ /go-sdk$/ { print $3 }' "$HERE/go/go.mod")" $((SECONDS - start))
}

# The Java client: compiled by Maven into java/target/classes, with the
# dependency classpath written to .build/java.classpath and a launcher at
# .build/bin/java-client. Offline first (a warm ~/.m2 needs no network);
# online only when something is missing from the local repository. Measured on
# the 2-core machine: 7 s cold (empty ~/.m2, Maven plugins included, 31 MB),
# 2-3 s warm (mvn -o start-up is most of it).
setup_java() {
  local start=$SECONDS pom="$HERE/java/pom.xml" version
  if ! command -v java >/dev/null; then missing java "java not found on PATH"; return; fi
  if ! command -v mvn >/dev/null; then missing java "mvn not found on PATH"; return; fi
  version="$(sed -n 's:.*<mcp.sdk.version>\(.*\)</mcp.sdk.version>.*:\1:p' "$pom")"
  local goals=(-q -B -Dstyle.color=never -f "$pom" compile dependency:build-classpath
    "-Dmdep.outputFile=$BUILD/java.classpath" -Dmdep.includeScope=runtime)
  if ! mvn -o "${goals[@]}" >/dev/null 2>&1; then
    mvn "${goals[@]}" >&2 ||
      { broken java "mvn compile of java/ (io.modelcontextprotocol.sdk:mcp $version) failed (see above)"; return; }
  fi
  mkdir -p "$BUILD/bin"
  {
    echo '#!/bin/sh'
    echo '# Written by setup.sh: runs the interop Java client (java/src/main/java/interop/Client.java).'
    # C1 only and serial GC: the client lives for a second or two, so start-up is what counts.
    printf 'exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp %q interop.Client "$@"\n' \
      "$HERE/java/target/classes:$(cat "$BUILD/java.classpath")"
  } >"$BUILD/bin/java-client"
  chmod +x "$BUILD/bin/java-client"
  ok java "io.modelcontextprotocol.sdk:mcp $version" $((SECONDS - start))
}

# The Rust client and server (rust/): rmcp from crates.io, default features
# off, only client, server, transport-child-process, transport-io and
# transport-streamable-http-client-reqwest (no TLS: the suite talks to
# 127.0.0.1). Cargo.lock is committed and used as is (--locked).
setup_rust() {
  local start=$SECONDS dir="$HERE/rust" target="$HERE/rust/target" version cold=0
  if ! command -v cargo >/dev/null; then missing rust "cargo not found on PATH"; return; fi
  version="$(sed -n 's/^rmcp = { version = "=\([^"]*\)".*/\1/p' "$dir/Cargo.toml")"
  [ -d "$target/debug" ] || cold=1
  CARGO_TARGET_DIR="$target" cargo build --quiet --locked --manifest-path "$dir/Cargo.toml" >&2 ||
    { broken rust "cargo build of rust/ (rmcp $version) failed (see above)"; return; }
  if [ "$cold" = 1 ]; then echo $((SECONDS - start)) >"$target/interop-cold-build-seconds"; fi
  ok rust "rmcp $version" $((SECONDS - start))
}

setup_python
setup_go
setup_java
setup_rust

if [ ${#FAILED[@]} -gt 0 ]; then
  for failure in "${FAILED[@]}"; do note "FAILED: $failure"; done
  exit 1
fi
