#!/usr/bin/env bash
# A real Slurm on this one machine: install slurm-wlm and munge when missing (Debian, as root),
# start munged, slurmctld and slurmd with a minimal private configuration, submit `cargo xtask
# slurm --submit` for a sweep of a few hundred runs, wait for the final job, and check that every
# output is bitwise identical to a local `cargo xtask figures` of the same manifests. Then time the
# same sweep locally with --jobs 1 and --jobs 2 and through Slurm (cold caches each time).
#
#   bash bench/slurm.sh            # from the workspace root; CI runs it from .ci/run
#
# The daemons are stopped when the script exits. Nothing outside a temporary directory is
# written but Debian's packages (when missing) and the munge key they install.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

cargo build --release -q -p xtask
xtask="${CARGO_TARGET_DIR:-$root/target}/release/xtask"

tmp=$(mktemp -d /tmp/fric-slurm.XXXXXX)
chmod 755 "$tmp"
conf="$tmp/etc"
mkdir -p "$conf" "$tmp/spool/ctld" "$tmp/spool/d" "$tmp/log" "$tmp/run"
node=$(hostname -s)
cpus=$(nproc)
cat > "$conf/slurm.conf" <<CONF
ClusterName=fric
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
StateSaveLocation=$tmp/spool/ctld
SlurmdSpoolDir=$tmp/spool/d
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=2000 State=UNKNOWN
PartitionName=fric Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF

export SLURM_CONF="$conf/slurm.conf"

cleanup() {
  local rc=$?
  if [ $rc -ne 0 ]; then
    for f in "$tmp"/log/*.log "$tmp"/munge/munged.log; do
      [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; } >&2
    done
  fi
  [ -f "$tmp/run/slurmd.pid" ] && kill "$(cat "$tmp/run/slurmd.pid")" 2>/dev/null || true
  [ -f "$tmp/run/slurmctld.pid" ] && kill "$(cat "$tmp/run/slurmctld.pid")" 2>/dev/null || true
  [ -n "${munge_pid:-}" ] && kill "$munge_pid" 2>/dev/null || true
  sleep 1
  rm -rf "$tmp"
}
trap cleanup EXIT

# munge: its own socket and state in $tmp, the key the package installed.
mkdir -p "$tmp/munge"
munge_sock="$tmp/munge/munge.socket.2"
if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
  chmod 400 /etc/munge/munge.key
fi
munged --force --socket="$munge_sock" --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/seed"
munge_pid=$(cat "$tmp/munge/munged.pid")
echo "AuthInfo=socket=$munge_sock" >> "$conf/slurm.conf"

slurmctld -f "$conf/slurm.conf"
slurmd -f "$conf/slurm.conf"
for _ in $(seq 60); do
  sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)' && break
  sleep 1
done
sinfo

# The sweep: 20 × 15 = 300 LuGre runs of 10 periods each (the example follow-up document's
# grid, widened), in three workspaces with cold caches: local --jobs 1, local --jobs 2, Slurm.
make_ws() {
  local ws=$1
  mkdir -p "$ws/experiments/sweep"
  touch "$ws/Cargo.toml"
  cat > "$ws/experiments/sweep/document.yaml" <<DOC
title: "A sweep for the Slurm test"
source: none
DOC
  cat > "$ws/experiments/sweep/fig1.yaml" <<MAN
id: sweep/fig1
kind: figure
source: {document: sweep, number: "1", caption: "LuGre loop area over (σ1, ω)"}
content: simulation
status: computed
runs:
  - id: lugre
    system: lugre
    params: {sigma0: 1.0e5, sigma1: 300, sigma2: 0.4, fc: 1, fs: 1.5, vs: 0.001}
    input: {kind: sine, amplitude: 0.002, omega: 1}
    sim: {periods: 10, samples_per_period: 500}
    sweep:
      grid:
        - {param: sigma1, values: [$(seq -s, 0 50 950 | sed 's/,$//')]}
        - {param: input.omega, values: [$(seq -s, 1 1 15 | sed 's/,$//')]}
panels:
  - id: main
    x: {label: σ_1, unit: N-s/m}
    y: {label: area, unit: J}
    series:
      - {metric: area, x: sigma1, group: input.omega, style: points}
metrics:
  - {name: area, kind: loop-area, run: lugre, x: u, y: F, window: {periods: [9, 10]}, unit: J}
MAN
}
for w in local1 local2 slurm; do make_ws "$tmp/$w"; done

t0=$(date +%s.%N)
"$xtask" --root "$tmp/local1" figures --jobs 1 >/dev/null
t1=$(date +%s.%N)
"$xtask" --root "$tmp/local2" figures --jobs 2 >/dev/null
t2=$(date +%s.%N)
"$xtask" --root "$tmp/slurm" slurm --shards 2 --cpus 1 --time 00:10:00 --final-time 00:10:00 --mem 500M --submit
final=$(squeue -h -n fric-figures -o %i | head -1)
for _ in $(seq 600); do
  [ -z "$(squeue -h -o %i)" ] && break
  sleep 0.5
done
t3=$(date +%s.%N)
echo "--- final job log:"; cat "$tmp/slurm/data/slurm/logs/figures.out"
state=$(scontrol show job "$final" 2>/dev/null | grep -o 'JobState=[A-Z]*' || true)
echo "final job $final: ${state:-finished}"

# Bitwise identical outputs.
status=0
if diff -r "$tmp/local1/figures" "$tmp/slurm/figures" >/dev/null && diff -r "$tmp/local1/figures" "$tmp/local2/figures" >/dev/null; then
  echo "outputs: every file under figures/ is identical (local --jobs 1, local --jobs 2, Slurm): $(find "$tmp/slurm/figures" -type f | wc -l) files"
else
  diff -rq "$tmp/local1/figures" "$tmp/slurm/figures" || true
  echo "error: Slurm outputs differ from the local run" >&2
  status=1
fi
for f in "$tmp"/slurm/data/slurm/logs/shard-*.out; do echo "--- $(basename "$f"): $(grep '^shard' "$f")"; done
if ! grep -q "(0 computed, 300 cached" "$tmp/slurm/data/slurm/logs/figures.out"; then
  echo "error: the final figures job computed runs the shards should have computed" >&2
  status=1
fi
shard_max=$(grep -ho 'in [0-9.]* s$' "$tmp"/slurm/data/slurm/logs/shard-*.out | awk '{ if ($2 > m) m = $2 } END { print m + 0 }')
final_t=$(grep -o 'time: *[0-9.]* s' "$tmp/slurm/data/slurm/logs/figures.out" | awk '{ print $2 }')
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v s="$shard_max" -v f="$final_t" 'BEGIN {
  printf "300 runs, wall time: local --jobs 1 %.2f s, local --jobs 2 %.2f s, Slurm 2-task array (1 CPU each) + final figures job %.2f s\n", b - a, c - b, d - c
  printf "Slurm: slowest shard computed in %.2f s, final figures job %.2f s; scheduling, start-up and polling %.2f s (%.2f s per job of the 3)\n", s, f, (d - c) - s - f, ((d - c) - s - f) / 3 }'
exit $status
