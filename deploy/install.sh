#!/usr/bin/env bash
# Installs the npm dependencies (when missing or out of date) and builds the TypeScript.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "[install] npm ci"
  npm ci --no-audit --no-fund
fi
echo "[install] build"
npm run --silent build
