#!/usr/bin/env bash
# The README's two commands on a fresh machine: clone the repository (HEAD, committed files only)
# into a temporary directory and run exactly the commands at the top of README.md there, with an
# empty target directory and no environment of ours (no CARGO_TARGET_DIR, no FRIC_* variable),
# printing the wall time of each. Fails if either command fails. Then `cargo xtask figures` once
# more (everything cached: the no-op).
# Usage: bash bench/fresh.sh [KEEP_DIR]   (the clone is removed at the end unless KEEP_DIR is given)
# Takes ~15-25 minutes on 2 cores: it compiles every dependency.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$(mktemp -d)}"
[ -n "${1:-}" ] || trap 'rm -rf "$dir"' EXIT
git clone --quiet --no-hardlinks "$repo" "$dir/repo"
# The documents the manifests cite live beside the repository (../shared): link them.
[ -d "$repo/../shared" ] && ln -s "$(cd "$repo/../shared" && pwd)" "$dir/shared"
cd "$dir/repo"
echo "fresh clone of $(git rev-parse --short HEAD) in $dir/repo"
# The commands are read from the README, so this tests what the README says.
mapfile -t cmds < <(awk '/^```sh$/ { on = 1; next } on && /^```$/ { exit } on { sub(/ *#.*/, ""); print }' README.md)
[ "${#cmds[@]}" -eq 2 ] || { echo "expected two commands at the top of README.md, got: ${cmds[*]}" >&2; exit 1; }
cmds+=("${cmds[0]}")
for c in "${cmds[@]}"; do
  echo "== $c"
  start=$(date +%s.%N)
  env -u CARGO_TARGET_DIR -u FRIC_SKIP_BROWSER -u FRIC_REQUIRE_BROWSER -u FRIC_CHROMIUM bash -c "$c" > "$dir/log" 2>&1 || {
    tail -40 "$dir/log" >&2
    echo "FAILED: $c" >&2
    exit 1
  }
  end=$(date +%s.%N)
  grep -E '^(note|test result|warning: site)' "$dir/log" | sort | uniq -c | sed 's/^/   /' || true
  awk -v a="$start" -v b="$end" -v c="$c" 'BEGIN { s = b - a; printf "%-40s %d m %04.1f s\n", c, int(s / 60), s - 60 * int(s / 60) }'
done
