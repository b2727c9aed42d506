#!/usr/bin/env bash
# End-to-end offline replay against its naive floor, in one run: generates a file, then runs
#   naive     readline + JSON.parse + a Map of Elo ratings, no validation (bench/naive-replay.ts)
#   pipeline  the replay's parse worker and hand-over with no fold (bench/replay-pipeline.ts):
#             the ceiling the replay nears as the fold gets cheaper
#   plain     ranking replay (a worker parses and validates, the main thread folds)
#   simulate  ranking replay --simulate --until 2027-01-01T00:00:00+08:00
# and prints each one's lines/s (whole process, start-up and output included), CPU µs a line
# (all threads: user + system), peak RSS, and its ratio to the naive loop. The CLI runs with
# its default heap flags (bin/ranking.js). BENCH_SINGLE_THREAD=1 adds both replays with
# --single-thread (the former path: parsing on the folding thread). The load average is
# printed before and after: on a shared machine compare the CPU figures.
# Run: npm run build && bash bench/replay.bench.sh [events=1000000] [existing.ndjson]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
events="${1:-1000000}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
file="${2:-}"
if [[ -z "$file" ]]; then
  file="$dir/events.ndjson"
  node bin/ranking.js generate --seed 42 --events "$events" --out "$file" 2>/dev/null
fi
lines="$(wc -l <"$file")"
echo "file: $(du -h "$file" | cut -f1), $lines lines; load average $(cut -d' ' -f1-3 /proc/loadavg)"

naive=""
# measure NAME COMMAND...: one line of figures; sets $rate to its lines/s.
measure() {
  local name="$1"
  shift
  /usr/bin/time -o "$dir/time" -f "%e %U %S %M" "$@" >"$dir/stdout" 2>"$dir/stderr" || {
    cat "$dir/stderr" >&2
    exit 1
  }
  read -r wall user sys rss <"$dir/time"
  rate="$(awk -v n="$lines" -v w="$wall" 'BEGIN { printf "%d", n / w }')"
  local ratio=""
  [[ -n "$naive" ]] && ratio="$(awk -v r="$rate" -v n="$naive" 'BEGIN { printf ", %.2f x naive", r / n }')"
  awk -v name="$name" -v n="$lines" -v w="$wall" -v u="$user" -v s="$sys" -v m="$rss" -v r="$rate" -v x="$ratio" \
    'BEGIN { printf "%-32s %8d lines/s  wall %6.2f s  CPU %5.2f µs/line  peak RSS %5d MB%s\n", name, r, w, (u + s) * 1e6 / n, m / 1024, x }'
}

measure naive node dist/bench/naive-replay.js "$file"
naive="$rate"
measure "pipeline, no fold" node --max-semi-space-size=64 dist/bench/replay-pipeline.js "$file"
# Which thread bounds the pipeline: CPU µs a line of the main thread, the worker, the helpers.
node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log(`  per thread: main ${r.mainMicrosPerLine}, parse worker ${r.workersMicrosPerLine}, helpers ${r.helpersMicrosPerLine} µs/line`)' "$dir/stdout"
modes=("plain" "simulate")
[[ "${BENCH_SINGLE_THREAD:-}" == 1 ]] && modes+=("plain --single-thread" "simulate --single-thread")
for mode in "${modes[@]}"; do
  flags=()
  [[ "$mode" == simulate* ]] && flags+=(--simulate --until 2027-01-01T00:00:00+08:00)
  [[ "$mode" == *--single-thread ]] && flags+=(--single-thread)
  measure "replay $mode" node bin/ranking.js replay --events "$file" --out "$dir/out.json" "${flags[@]}"
done
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
