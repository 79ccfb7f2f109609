#!/usr/bin/env bash
# The cost of `cargo xtask figures` when everything is cached: wall time and peak memory of the
# command a user types and of the binary alone (median of N runs, default 5), after one warm-up
# run. Usage: bash bench/noop.sh [N]. Needs GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5}
cargo xtask figures > /dev/null 2>&1
measure() {
  for _ in $(seq "$n"); do
    /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1
  done | sort -n | awk -v what="$*" '{ t[NR] = $1; if ($2 > m) m = $2 }
    END { printf "%-32s median %.2f s  peak %.1f MiB  (%d runs)\n", what, t[int((NR + 1) / 2)], m / 1024, NR }'
}
measure cargo xtask figures
measure target/release/xtask figures
