#!/bin/bash
# bench_waitall.sh — wall time of a rank waiting for many requests at once.
#
# A linear Alltoall(v) posts P-1 receives and P-1 sends on every rank and waits for all
# 2(P-1) in one MPI_Waitall, so the transport's cost per completed request decides how the
# run scales: constant, and the whole run grows like its P² messages; linear in the number of
# requests, and it grows like P³. For each collective and P, prints the simulated time, the
# messages, the wall time of the point (collsim's wall_s), the CPU seconds and peak memory of
# the whole `collsim run`, and the wall time per message.
#
#   tests/bench/bench_waitall.sh                            # P = 256, 512, 1024; 64 B blocks
#   BENCH_P="128 256 512 1024 2048" BENCH_BYTES=8 BENCH_COLLECTIVES=alltoall tests/bench/bench_waitall.sh
# Run from a built tree (./setup.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
collsim="$top/collsim"
ps=${BENCH_P:-256 512 1024}
bytes=${BENCH_BYTES:-64}
collectives=${BENCH_COLLECTIVES:-alltoallv alltoall}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -x "$collsim" ] || { echo "build collsim first (./setup.sh)"; exit 1; }

printf '%-10s %6s %8s %12s %10s %9s %9s %10s %11s\n' collective P bytes simulated messages \
    wall_s cpu_s rss_mib us/message
for coll in $collectives; do
    for p in $ps; do
        cat >"$work/point.ini" <<INI
[run]
collectives = $coll
algorithms = linear
ranks = $p
sizes = $bytes
datatype = byte
INI
        if ! /usr/bin/time -f "%U %S %M" -o "$work/time" \
            "$collsim" run "$work/point.ini" -q -o "$work/point.csv" >/dev/null 2>"$work/err"; then
            printf '%-10s %6s %8s failed: %s\n' "$coll" "$p" "$bytes" "$(head -1 "$work/err")"
            continue
        fi
        # CSV columns: ... 14 time_max_s ... 17 messages ... last wall_s
        tail -1 "$work/point.csv" | awk -F, -v coll="$coll" -v p="$p" -v b="$bytes" \
            -v t="$(cat "$work/time")" '{
            split(t, r, " ");
            printf "%-10s %6d %8d %12.6e %10d %9.2f %9.2f %10.1f %11.2f\n", coll, p, b, $14, $17,
                   $NF, r[1] + r[2], r[3] / 1024, ($17 > 0 ? 1e6 * $NF / $17 : 0) }'
    done
done
