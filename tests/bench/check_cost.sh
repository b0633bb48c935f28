#!/bin/bash
# check_cost.sh — wall time and peak memory of the collective-call checker: the same program
# (check_cost.c: CALLS rounds of Allreduce, Bcast and Allgatherv of one double) with the
# checker on (the default) and off (--no-check), at several P. The simulated times are equal
# (the checker costs no simulated time); the printed ratio is wall(on) / wall(off).
#
#   tests/bench/check_cost.sh                      # P = 16, 256, 1024; 200 rounds
#   BENCH_P="64 4096" BENCH_CALLS=50 tests/bench/check_cost.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
collsim="$top/collsim"
ps=${BENCH_P:-16 256 1024}
calls=${BENCH_CALLS:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -shared -fPIC -I"$top/src" "$here/check_cost.c" -o "$work/cc.so" || exit 1

run() {  # P OPTION... -> "wall_s peak_kib simulated_s"
    local p=$1; shift
    /usr/bin/time -f "%e %M" -o "$work/time" "$collsim" exec "$work/cc.so" -n "$p" --stats "$@" \
        -- "$calls" >"$work/out" 2>"$work/err" || { echo "failed: $(tail -2 "$work/err")" >&2; return 1; }
    local sim
    sim=$(sed -n 's/.*simulated \([0-9.e+-]*\) s .*/\1/p' "$work/err" | head -1)
    echo "$(cat "$work/time") ${sim:--}"
}

printf '%6s %7s  %10s %10s %6s  %10s %10s  %14s\n' P calls "wall on" "wall off" ratio \
    "KiB on" "KiB off" "simulated"
for p in $ps; do
    read -r won mon son < <(run "$p") || continue
    read -r woff moff soff < <(run "$p" --no-check) || continue
    ratio=$(awk -v a="$won" -v b="$woff" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
    same=$([ "$son" = "$soff" ] && echo "$son" || echo "$son/$soff DIFFER")
    printf '%6s %7s  %10s %10s %6s  %10s %10s  %14s\n' "$p" "$calls" "$won" "$woff" "$ratio" \
        "$mon" "$moff" "$same"
done
