#!/bin/bash
# inflight_rate.sh — the message rate as collectives in flight grow: W MPI_Ibarriers started at
# once on every rank (dissemination, ceil(log2 P) rounds each) and completed by one
# MPI_Waitall (tests/bench/scale_probe.c's `ibarrier W`), for each P and W. Prints the messages
# (from --stats), the wall time and their ratio; the wall time includes start-up, so the rate
# is a lower bound. A simulator whose wake-ups cost O(W) shows a rate that falls as W grows.
# With INFLIGHT_SMPI=yes each point also runs under SMPI (smpirun, the same program built
# with smpicc, on the same flat cluster); SMPI implements MPI_Ibarrier its own way and counts
# no messages, so only its wall time is printed.
#
#   tests/bench/inflight_rate.sh                       # P = 1024 4096 16384, W = 1 2 4 8 16
#   INFLIGHT_P="1024" INFLIGHT_W="1 8" INFLIGHT_SMPI=yes tests/bench/inflight_rate.sh
#   INFLIGHT_LIMIT=300 (seconds a run may take)
# Run from a built tree (./setup.sh). A benchmark, not a test (EXTRA_DIST, not TESTS).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench_lib.sh"
[ -x "$collsim" ] || { echo "inflight_rate.sh: build collsim first (./setup.sh)" >&2; exit 1; }
ps=${INFLIGHT_P:-1024 4096 16384}
ws=${INFLIGHT_W:-1 2 4 8 16}
limit=${INFLIGHT_LIMIT:-300}
smpi=${INFLIGHT_SMPI:-no}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_scale_probe "$work" || exit 1

if [ "$smpi" = yes ]; then
    printf "%6s %3s | %9s %8s %10s | %8s\n" P W messages wall_s msgs/s smpi_s
else
    printf "%6s %3s | %9s %8s %10s\n" P W messages wall_s msgs/s
fi
for p in $ps; do
    if [ "$smpi" = yes ]; then
        "$collsim" platform describe "flat:hosts=$p" -n "$p" --network cm02 --xml |
            sed -n '/^<?xml/,$p' >"$work/cluster.xml"
        seq 0 $((p - 1)) | sed 's/^/node-/' >"$work/hosts"
    fi
    for w in $ws; do
        line=$(timeout "$limit" "$collsim" exec --stats "$work/probe.so" -n "$p" -- ibarrier "$w" \
            2>&1 >"$work/out" | grep '^collsim: ranks')
        if [ -z "$line" ] || ! grep -q ' ok$' "$work/out"; then
            printf "%6s %3s | %s\n" "$p" "$w" "failed or past ${limit} s"
            continue
        fi
        messages=$(echo "$line" | sed -n 's/.* messages \([0-9]*\) .*/\1/p')
        wall=$(echo "$line" | sed -n 's/.* wall \([0-9.]*\) s .*/\1/p')
        rate=$(awk -v m="$messages" -v w="$wall" 'BEGIN { printf "%.0f", m / w }')
        if [ "$smpi" = yes ]; then
            start=$(date +%s.%N)
            extra=()
            [ "$p" -ge 16384 ] && extra=(--cfg=contexts/stack-size:16 --cfg=contexts/guard-size:0)
            # the options of scale_probes.sh: no privatization, no computation, CM02, no wtime
            if timeout "$limit" smpirun -np "$p" -platform "$work/cluster.xml" \
                -hostfile "$work/hosts" --cfg=smpi/privatization:no \
                --cfg=smpi/simulate-computation:no --cfg=network/model:CM02 \
                --cfg=smpi/wtime:0 "${extra[@]}" --log=root.thres:critical \
                "$work/probe.smpi" ibarrier "$w" >"$work/smpi.out" 2>&1 &&
                grep -q ' ok$' "$work/smpi.out"; then
                smpi_s=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
            else
                smpi_s=">$limit"
            fi
            printf "%6s %3s | %9s %8s %10s | %8s\n" "$p" "$w" "$messages" "$wall" "$rate" "$smpi_s"
        else
            printf "%6s %3s | %9s %8s %10s\n" "$p" "$w" "$messages" "$wall" "$rate"
        fi
    done
done
