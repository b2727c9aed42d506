#!/usr/bin/env bash
# End-to-end offline replay: generate a file, then time `ranking replay` on it and report peak RSS.
# Run: npm run build && bash bench/replay.bench.sh [events=1000000]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
events="${1:-1000000}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
node bin/ranking.js generate --seed 42 --events "$events" --out "$dir/events.ndjson"
echo "file: $(du -h "$dir/events.ndjson" | cut -f1), $events lines"
for mode in "" "--simulate --until 2027-01-01T00:00:00+08:00"; do
  # shellcheck disable=SC2086
  /usr/bin/time -f "wall %e s, peak RSS %M KB" node bin/ranking.js replay --events "$dir/events.ndjson" $mode --out "$dir/out.json" 2>&1 \
    | sed "s/^/[replay ${mode:-plain}] /"
done
