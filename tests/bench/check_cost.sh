#!/bin/bash
# check_cost.sh — wall time and peak memory of the collective-call checker, per collective:
# the same program (check_cost.c: CALLS calls of one collective, one double per block) with
# the checker on (the default) and off (--no-check). The simulated times must be equal (the
# checker costs no simulated time); "µs/call" is the extra wall time per rank and call,
# (wall(on) - wall(off)) / (P × CALLS), and the ratio is wall(on) / wall(off). Differences
# within a few percent are the machine's noise: run it on an idle machine.
#
#   tests/bench/check_cost.sh                       # P = 256, 200 calls, every collective
#   BENCH_P="64 1024" BENCH_CALLS=50 BENCH_COLLS="alltoallv mix" tests/bench/check_cost.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
collsim="$top/collsim"
ps=${BENCH_P:-256}
calls=${BENCH_CALLS:-200}
colls=${BENCH_COLLS:-barrier bcast reduce allreduce scan gather scatter gatherv allgather \
allgatherv alltoall alltoallv reduce_scatter mix}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -shared -fPIC -I"$top/src" "$here/check_cost.c" -o "$work/cc.so" || exit 1

run() {  # P COLLECTIVE OPTION... -> "wall_s peak_kib simulated_s"
    local p=$1 coll=$2; shift 2
    /usr/bin/time -f "%e %M" -o "$work/time" "$collsim" exec "$work/cc.so" -n "$p" --stats "$@" \
        -- "$coll" "$calls" >"$work/out" 2>"$work/err" ||
        { echo "failed: $(tail -2 "$work/err")" >&2; return 1; }
    local sim
    sim=$(sed -n 's/.*simulated \([0-9.e+-]*\) s .*/\1/p' "$work/err" | head -1)
    echo "$(cat "$work/time") ${sim:--}"
}

printf '%-15s %6s %6s  %8s %8s %6s %8s  %9s %9s  %14s\n' collective P calls "wall on" \
    "wall off" ratio "µs/call" "KiB on" "KiB off" simulated
for p in $ps; do
    for coll in $colls; do
        read -r won mon son < <(run "$p" "$coll") || continue
        read -r woff moff soff < <(run "$p" "$coll" --no-check) || continue
        ratio=$(awk -v a="$won" -v b="$woff" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
        per=$(awk -v a="$won" -v b="$woff" -v p="$p" -v c="$calls" \
            'BEGIN { printf "%.2f", (a - b) * 1e6 / (p * c) }')
        same=$([ "$son" = "$soff" ] && echo "$son" || echo "$son/$soff DIFFER")
        printf '%-15s %6s %6s  %8s %8s %6s %8s  %9s %9s  %14s\n' "$coll" "$p" "$calls" "$won" \
            "$woff" "$ratio" "$per" "$mon" "$moff" "$same"
    done
done
