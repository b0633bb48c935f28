#!/bin/bash
# nbc_cost.sh — what running a nonblocking collective on a flow (HACKING.md, "Nonblocking
# collectives") costs the simulator, beside the blocking form: wall time, peak memory and
# simulated time of ROUNDS x DEPTH Allreduces of 8 B at each P, blocking, then nonblocking with
# DEPTH operations in flight at once.
#
#   tests/bench/nbc_cost.sh                          # P = 64, 1024; 200 rounds of 4
#   BENCH_P="256" BENCH_ROUNDS=50 BENCH_DEPTH=16 tests/bench/nbc_cost.sh
# Run from a built tree (./setup.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
collsim="$top/collsim"
ps=${BENCH_P:-64 1024}
rounds=${BENCH_ROUNDS:-200}
depth=${BENCH_DEPTH:-4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -x "$collsim" ] || { echo "build collsim first (./setup.sh)"; exit 1; }
cc -shared -fPIC -I"$top/src" "$here/nbc_cost.c" -o "$work/nbc_cost.so" || exit 1

printf '%6s %12s %8s %6s %14s %9s %10s %12s\n' P form rounds depth simulated wall_s rss_mib \
    us/operation
for p in $ps; do
    for form in 0 1; do
        name=$([ "$form" = 0 ] && echo blocking || echo nonblocking)
        if ! "$collsim" exec "$work/nbc_cost.so" -n "$p" --stats -- "$form" "$rounds" "$depth" 1 \
            >"$work/out" 2>"$work/err"; then
            echo "P=$p $name failed: $(head -1 "$work/err")"; continue
        fi
        wall=$(sed -n 's/.* wall \([0-9.]*\) s.*/\1/p' "$work/err")
        rss=$(sed -n 's/.*peak RSS \([0-9]*\) KiB.*/\1/p' "$work/err")
        awk -v p="$p" -v f="$name" -v r="$rounds" -v d="$depth" -v sim="$(cat "$work/out")" \
            -v w="$wall" -v k="$rss" 'BEGIN {
                printf "%6d %12s %8d %6d %14.9f %9.3f %10.1f %12.3f\n",
                    p, f, r, d, sim, w, k / 1024, 1e6 * w / (r * d * p) }'
    done
done
