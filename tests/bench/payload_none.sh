#!/bin/bash
# payload_none.sh — wall time and peak memory of sizes-only mode (payload none) against payload
# data, one point per run, for Alltoall pairwise, Allgather Bruck and Allreduce ring at a few
# P x sizes, up to Alltoall pairwise 1 MiB at P = 1024 in sizes only. Prints one line per run:
#
#   collective algorithm P size payload  wall_s  peak_MiB  time_max_s  (or why it did not run)
#
# The simulated time (time_max_s) is the same in both modes (tests/scenarios/test_payload_none.sh
# asserts it); payload data points that cannot fit in memory are refused by collsim at once,
# and the line says what they would need. Not a test: it asserts nothing. The big points take
# minutes and most of a GiB; run it on a quiet machine:
#
#   tests/bench/payload_none.sh            # every point
#   tests/bench/payload_none.sh quick      # the points under a few seconds
#   COLLSIM=/path/to/collsim tests/bench/payload_none.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
collsim=${COLLSIM:-$here/../../collsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
quick=${1:-}

cat >"$tmp/point.ini" <<'INI'
[scenario]
description = payload none against payload data, one point
[run]
collectives = alltoall
algorithms = pairwise
ranks = 4
sizes = 8
INI

point() {  # COLLECTIVE ALGORITHM P SIZE PAYLOAD
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$collsim" run "$tmp/point.ini" --no-progress \
        --set "run.collectives=$1" --set "run.algorithms=$2" --set "run.ranks=$3" \
        --set "run.sizes=$4" --set "run.payload=$5" -o "$tmp/point.csv" >"$tmp/out" 2>&1
    local why
    why=$(grep -o "[0-9]* ranks need at least [^(]*" "$tmp/out")
    if [ -n "$why" ]; then
        printf '%-10s %-9s %5s %-6s %-5s  refused: %s\n' "$1" "$2" "$3" "$4" "$5" "$why"
        return
    fi
    read -r wall kib <"$tmp/time"
    local t
    t=$(awk -F, 'NR == 2 { print $14 }' "$tmp/point.csv")
    printf '%-10s %-9s %5s %-6s %-5s %8.2f s %8.0f MiB  %s\n' "$1" "$2" "$3" "$4" "$5" \
        "$wall" "$((kib / 1024))" "$t"
}

printf '%-10s %-9s %5s %-6s %-5s %10s %12s  %s\n' collective algorithm P size mode wall peak \
    time_max_s
for spec in "alltoall pairwise" "allgather bruck" "allreduce ring"; do
    set -- $spec
    for p in 64 256 1024; do
        for size in 64KiB 1MiB; do
            for mode in none data; do
                # the slow ones: data mode at P >= 256 x 1 MiB, and Bruck / ring at P = 1024
                # (their local copies and op charges); Alltoall 1 MiB at 1024 in sizes only
                # is the goal point and always runs unless asked to be quick
                if [ "$quick" = quick ] && { [ "$p" -ge 256 ] && [ "$size" = 1MiB ] ||
                    [ "$p" -eq 1024 ]; }; then
                    continue
                fi
                if [ "$mode" = data ] && [ "$p" -ge 256 ] && [ "$size" = 1MiB ] &&
                    [ "$1" != allreduce ]; then
                    printf '%-10s %-9s %5s %-6s %-5s  not run: %s\n' "$1" "$2" "$p" "$size" \
                        "$mode" "P x P x 1 MiB of buffers (minutes of copying, or refused)"
                    continue
                fi
                point "$1" "$2" "$p" "$size" "$mode"
            done
        done
    done
done
