#!/usr/bin/env bash
# The cost of `cargo xtask figures` when everything is cached: wall time, CPU time (user + system;
# steadier than wall time on a shared machine) and peak memory of the command a user types and of
# the binary alone (median of N runs, default 5), after one warm-up run. The no-op stats each
# output instead of hashing it, so its cost does not grow with figures/ (`--verify` hashes).
# Usage: bash bench/noop.sh [N]. Needs GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
cargo xtask figures > /dev/null 2>&1
measure() {
  for _ in $(seq "$n"); do
    /usr/bin/time -f "%e %U %S %M" "$@" 2>&1 >/dev/null | tail -1
  done | awk '{ print $1, $2 + $3, $4 }' > "$tmp"
  # Medians of wall and CPU time taken separately (each column sorted on its own).
  paste <(cut -d' ' -f1 "$tmp" | sort -n) <(cut -d' ' -f2 "$tmp" | sort -n) <(cut -d' ' -f3 "$tmp") |
    awk -v what="$*" '{ t[NR] = $1; c[NR] = $2; if ($3 > m) m = $3 }
    END { printf "%-32s median %.2f s wall, %.2f s CPU  peak %.1f MiB  (%d runs)\n", what, t[int((NR + 1) / 2)], c[int((NR + 1) / 2)], m / 1024, NR }'
}
measure cargo xtask figures
measure target/release/xtask figures
