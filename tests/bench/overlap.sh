#!/bin/bash
# overlap.sh — MPI_Iallreduce overlapped with computation, in simulated time, against the
# progress model's prediction (tests/bench/overlap.c says how each figure is measured).
#
# For 8 B (eager) and 1 MiB (rendezvous) per rank at P = 64 and 1024, recursive doubling on the
# default network, the computation as long as the blocking Allreduce (SECONDS = t_b, the
# case where perfect overlap would hide it all), under both progress models (--progress):
# prints t_b, t_s, t_0, t_c, the model's t_c, the difference, and the hidden fraction
# (t_b + SECONDS - t_c) / t_b. The models' t_c:
#   calls: SECONDS + t_b - lambda, lambda = t_s - o_s - o_r: one message's flight (overlap.c
#          says why);
#   async: max(t_b, o_s + SECONDS): the call pays its first message's send overhead, then the
#          whole operation runs during the computation, or the computation during it.
#
#   tests/bench/overlap.sh                      # the eight points
#   BENCH_P="64" BENCH_COUNTS="1" BENCH_PROGRESS=async tests/bench/overlap.sh
# Run from a built tree (./setup.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
collsim="$top/collsim"
ps=${BENCH_P:-64 1024}
counts=${BENCH_COUNTS:-1 131072}
models=${BENCH_PROGRESS:-calls async}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -x "$collsim" ] || { echo "build collsim first (./setup.sh)"; exit 1; }
cc -shared -fPIC -I"$top/src" "$here/overlap.c" -o "$work/overlap.so" || exit 1
# the default network's send and receive overheads (its row of `collsim list networks`), in s
read -r o_s o_r <<<"$("$collsim" list networks | awk '/^networks/ {sub(/.*default /, "");
    sub(/;.*/, ""); d = $0; next} $1 == d {print $4 * 1e-6, $5 * 1e-6}')"

run() { # PROGRESS P COUNT SECONDS -> "t_b t_1 t_0 t_c"
    "$collsim" exec "$work/overlap.so" -n "$2" --payload none --progress "$1" \
        --algorithm allreduce=recursive_doubling -- "$3" "$4"
}

printf '%8s %6s %9s %13s %13s %13s %13s %13s %9s %7s\n' progress P bytes t_b t_s t_0 t_c \
    model_t_c model-t_c hidden
for model in $models; do
    for p in $ps; do
        for count in $counts; do
            bytes=$((count * 8))
            # a first run measures t_b; the second computes for that long
            read -r t_b _ <<<"$(run "$model" "$p" "$count" 0)" || exit 1
            read -r t_b t_s t_0 t_c <<<"$(run "$model" "$p" "$count" "$t_b")" || exit 1
            awk -v m="$model" -v p="$p" -v b="$bytes" -v tb="$t_b" -v ts="$t_s" -v t0="$t_0" \
                -v tc="$t_c" -v s="$t_b" -v os="$o_s" -v or="$o_r" 'BEGIN {
                    if (m == "async")
                        model = (tb > os + s) ? tb : os + s
                    else
                        model = s + tb - (ts - os - or)
                    printf "%8s %6d %9d %13.9f %13.9f %13.9f %13.9f %13.9f %6.0f ns %6.1f%%\n",
                        m, p, b, tb, ts, t0, tc, model, 1e9 * (model - tc),
                        100 * (tb + s - tc) / tb }'
        done
    done
done
