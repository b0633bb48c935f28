#!/bin/bash
# recorder_cost.sh — what the event recorder (sim/trace/recorder.h) costs: wall time of the same
# program (ROUNDS blocking Allreduces of COUNT doubles, tests/bench/nbc_cost.c) without
# recording, with --trace FILE.json, and, if BASELINE names another collsim binary (one built
# without the recorder's hooks, e.g. the main branch's), with that one, which shows the cost of
# the hooks when recording is off. With recording on, the extra wall time is also given per
# recorded event (slices and message flows in the JSON).
#
#   tests/bench/recorder_cost.sh                      # P = 256, 200 rounds of 8 B, 3 repeats
#   BENCH_P="64 1024" BENCH_ROUNDS=50 BENCH_REPEAT=5 BASELINE=/path/to/old/collsim \
#       tests/bench/recorder_cost.sh
# Run from a built tree (./setup.sh). Each wall time is the best of BENCH_REPEAT runs, the
# baseline, off and on runs taking turns. BASELINE may be a build tree's libtool wrapper
# (/tmp/old/collsim): it runs that tree's own library.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
collsim="$top/collsim"
ps=${BENCH_P:-256}
rounds=${BENCH_ROUNDS:-200}
count=${BENCH_COUNT:-1}
repeat=${BENCH_REPEAT:-3}
baseline=${BASELINE:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -x "$collsim" ] || { echo "build collsim first (./setup.sh)"; exit 1; }
cc -shared -fPIC -I"$top/src" "$here/nbc_cost.c" -o "$work/prog.so" || exit 1

# wall BINARY ARGS... : the wall time of one run (collsim's --stats), or nan
wall() {
    local bin=$1; shift
    if ! "$bin" exec "$work/prog.so" --stats "$@" >"$work/out" 2>"$work/err"; then
        echo "failed: $(head -1 "$work/err")" >&2; echo nan; return
    fi
    sed -n 's/.* wall \([0-9.]*\) s.*/\1/p' "$work/err"
}
least() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || (b != "nan" && b < a)) ? b : a }'; }

printf '%6s %8s %12s %12s %12s %10s %12s\n' P rounds baseline_s off_s on_s events ns/event
for p in $ps; do
    args=(-n "$p" -- 0 "$rounds" 1 "$count")
    base="" off="" on=""
    # the three kinds of run take turns, so that a change in the machine's load (other jobs)
    # weighs on all of them alike rather than on whichever ran last
    for _ in $(seq "$repeat"); do
        [ -n "$baseline" ] && base=$(least "$base" "$(wall "$baseline" "${args[@]}")")
        off=$(least "$off" "$(wall "$collsim" "${args[@]}")")
        on=$(least "$on" "$(wall "$collsim" --trace "$work/t.json" "${args[@]}")")
    done
    [ -n "$base" ] || base=nan
    events=$(grep -o '"ph":"[Xs]"' "$work/t.json" | wc -l)
    awk -v p="$p" -v r="$rounds" -v b="$base" -v off="$off" -v on="$on" -v e="$events" 'BEGIN {
        per = (e > 0) ? 1e9 * (on - off) / e : 0
        printf("%6d %8d %12s %12.3f %12.3f %10d %12.1f\n", p, r, b, off, on, e, per) }'
done
