#!/usr/bin/env bash
# Installs the npm dependencies (when missing or out of date), builds the TypeScript, and installs
# Chromium for the browser test when it is missing.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "[install] npm ci"
  npm ci --no-audit --no-fund
fi
echo "[install] build"
npm run --silent build
# The browser test drives Debian's Chromium (playwright-core brings no browser of its own).
if [[ ! -x /usr/bin/chromium ]]; then
  echo "[install] apt-get install chromium"
  if ! apt-get install -y chromium >/dev/null; then
    apt-get update >/dev/null && apt-get install -y chromium >/dev/null
  fi
fi
