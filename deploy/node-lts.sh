#!/usr/bin/env bash
# The unit tests under the newest Node.js LTS (NODE_NEWEST_LTS in deploy/node.sh), beside the
# runtime's full run (NODE_RUNTIME), so the next move up stays a small step. CI runs it after
# the test command; extra arguments go to Jest (e.g. --ci). deploy/node.sh fetches the binary
# once into .cache/node/VERSION/ (git-ignored).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=deploy/node.sh
source deploy/node.sh
log() { echo "[lts] $*"; }

started=$(date +%s)
NODE="$(pinned_node_dir "$NODE_NEWEST_LTS")/node"
version="$("$NODE" --version)"
log "node $version ready in $(($(date +%s) - started)) s; unit tests"
started=$(date +%s)
rc=0
"$NODE" --experimental-vm-modules --no-warnings=ExperimentalWarning node_modules/jest/bin/jest.js \
  "$@" --selectProjects unit || rc=$?
log "unit tests under node $version: $(($(date +%s) - started)) s, exit $rc"
exit "$rc"
