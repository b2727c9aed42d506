#!/usr/bin/env bash
# Installs the npm dependencies (when missing or out of date), builds the TypeScript, and installs
# Chromium for the browser test when it is missing.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# Node 24 (deploy/node.sh): the pinned binary first on PATH when the machine's node is another.
# shellcheck source=deploy/node.sh
source "$ROOT/deploy/node.sh"
use_node_runtime
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
# The page's Chinese names, titles and levels need a CJK font; without one Chromium draws boxes
# and the browser test's glyph check fails (it sees what a player without the font would see).
# (grep reads all of fc-list's output: with -q, pipefail would see fc-list's SIGPIPE.)
if ! fc-list ':lang=zh-cn' family 2>/dev/null | grep 'Noto Sans CJK' >/dev/null; then
  echo "[install] apt-get install fonts-noto-cjk"
  if ! apt-get install -y fonts-noto-cjk >/dev/null; then
    apt-get update >/dev/null && apt-get install -y fonts-noto-cjk >/dev/null
  fi
fi
# PostgreSQL high availability (ADR 38, deploy/postgres-ha.sh and its failover test): Patroni,
# etcd as its store, HAProxy in front (curl: the script asks Patroni's REST API).
if ! command -v patroni >/dev/null || ! command -v etcd >/dev/null ||
  ! command -v haproxy >/dev/null || ! command -v curl >/dev/null; then
  echo "[install] apt-get install patroni etcd-server haproxy curl"
  ha_packages=(patroni etcd-server haproxy curl)
  if ! apt-get install -y --no-install-recommends "${ha_packages[@]}" >/dev/null; then
    apt-get update >/dev/null && apt-get install -y --no-install-recommends "${ha_packages[@]}" >/dev/null
  fi
fi
