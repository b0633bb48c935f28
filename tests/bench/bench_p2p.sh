#!/bin/bash
# bench_p2p.sh — point-to-point runtime benchmarks, collsim beside SimGrid SMPI.
#
# For each program (ping-pong, ring exchange, binomial broadcast of 8 bytes written with
# Send/Recv) and rank count P, prints the simulated time both simulators report, their wall
# times, simulated messages per wall second and peak memory per rank. Both run the same C
# source on the same platform (a flat cluster of P hosts with collsim's default parameters)
# and the same network model (LV08).
#
# The rates of the first table include start-up. The second gives the ring's steady rate: the
# messages of 50 more laps over the wall time they add (a run of 60 laps against one of 10),
# what a long simulation sustains once its ranks exist. Each run is the best of
# BENCH_REPEAT (default 3) on a machine shared with other work. The third gives the rate with
# W messages in flight per rank (window.c: W receives and W sends of 8 bytes, one
# MPI_Waitall, repeated; about BENCH_WINDOW_MESSAGES messages a point, start-up included) for
# W = 1, 8, 64, 512 at each P of BENCH_WINDOW_P (default 256 and 4096). A run past
# BENCH_TIMEOUT seconds (default 300) shows as failed.
#
#   tests/bench/bench_p2p.sh                 # P up to 2^16 (collsim), 2^14 (SMPI)
#   BENCH_MAX_P=1048576 BENCH_SMPI_MAX_P=65536 tests/bench/bench_p2p.sh
# Run from a built tree (./setup.sh). Needs smpicc/smpirun (libsimgrid-dev ships them).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
collsim="$top/collsim"
max_p=${BENCH_MAX_P:-65536}
smpi_max_p=${BENCH_SMPI_MAX_P:-16384}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -x "$collsim" ] || { echo "build collsim first (./setup.sh)"; exit 1; }
for prog in pingpong ring bcast_p2p window; do
    cc -O2 -shared -fPIC -I"$top/src" "$here/$prog.c" -o "$work/$prog.so" || exit 1
    if command -v smpicc >/dev/null; then
        smpicc -O2 "$here/$prog.c" -o "$work/$prog.smpi" 2>/dev/null || rm -f "$work/$prog.smpi"
    fi
done

platform() {  # P -> platform file with P hosts, collsim's default cluster parameters
    local f="$work/cluster-$1.xml"
    [ -f "$f" ] || cat >"$f" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="cluster" prefix="node-" suffix="" radical="0-$(($1 - 1))" speed="10Gf" bw="12.5GBps"
           lat="1us" loopback_bw="50GBps" loopback_lat="0.1us"/>
</platform>
XML
    echo "$f"
}

hostfile() {
    local f="$work/hosts-$1"
    [ -f "$f" ] || seq 0 $(($1 - 1)) | sed 's/^/node-/' >"$f"
    echo "$f"
}

# measure LABEL CMD... : prints "simulated wall rss_kib" (simulated from the program's output)
measure() {
    local out="$work/out" tm="$work/time"
    timeout "${BENCH_TIMEOUT:-300}" /usr/bin/time -f "%e %M" -o "$tm" "$@" >"$out" 2>"$work/err"
    local rc=$?
    local sim
    sim=$(grep -o '\(simulated\|round_trip\)=[0-9.e+-]*' "$out" | head -1 | cut -d= -f2)
    if [ $rc -ne 0 ] || [ -z "$sim" ]; then echo "failed - -"; return; fi
    echo "$sim $(cat "$tm")"
}

row() {  # NAME P MESSAGES ARGS...: the row is labelled ROW_LABEL if set, else NAME
    local name=$1 p=$2 msgs=$3; shift 3
    read -r c_sim c_wall c_rss < <(measure "$collsim" exec "$work/$name.so" -n "$p" \
        --platform "$(platform "$p")" -- "$@")
    local s_sim="-" s_wall="-" s_rss="-"
    if [ -x "$work/$name.smpi" ] && [ "$p" -le "$smpi_max_p" ]; then
        read -r s_sim s_wall s_rss < <(measure smpirun -np "$p" -platform "$(platform "$p")" \
            -hostfile "$(hostfile "$p")" --cfg=smpi/privatization:no \
            --cfg=smpi/simulate-computation:no --cfg=network/model:LV08 \
            --log=root.thres:critical "$work/$name.smpi" "$@")
    fi
    awk -v n="${ROW_LABEL:-$name}" -v p="$p" -v m="$msgs" -v cs="$c_sim" -v cw="$c_wall" -v cr="$c_rss" \
        -v ss="$s_sim" -v sw="$s_wall" -v sr="$s_rss" 'BEGIN {
        rate = (cw > 0) ? m / cw : 0; srate = (sw > 0) ? m / sw : 0
        printf "%-10s %8d %10d | %13s %8s %10.0f %8.0f | %13s %8s %10.0f %8.0f\n", n, p, m,
            cs, cw, rate, (cr * 1024) / p, ss, sw, srate, (sr > 0 ? sr * 1024 / p : 0) }'
}

printf "%-10s %8s %10s | %-45s | %-45s\n" "" "" "" "collsim" "SMPI 3.32"
printf "%-10s %8s %10s | %13s %8s %10s %8s | %13s %8s %10s %8s\n" program P messages \
    "simulated s" "wall s" "msgs/s" "B/rank" "simulated s" "wall s" "msgs/s" "B/rank"
row pingpong 2 20000 8 10000
row pingpong 2 200 1048576 100
p=2
while [ "$p" -le "$max_p" ]; do
    row ring "$p" $((p * 10)) 8 10
    row bcast_p2p "$p" $((p - 1))
    p=$((p * 8))
done
if [ "$max_p" -ge 1048576 ]; then row bcast_p2p 1048576 1048575; fi

repeat=${BENCH_REPEAT:-3}
# best_wall CMD...: the least wall seconds of `repeat` runs, or "failed"
best_wall() {
    local best="" w
    for _ in $(seq "$repeat"); do
        read -r _ w _ < <(measure "$@")
        [ "$w" = "-" ] && { echo failed; return; }
        best=$(awk -v a="$w" -v b="${best:-$w}" 'BEGIN { print (a < b) ? a : b }')
    done
    echo "$best"
}
steady() {  # P: the ring's rate over laps 11 to 60, both tools
    local p=$1 c10 c60 s10="-" s60="-"
    c10=$(best_wall "$collsim" exec "$work/ring.so" -n "$p" --platform "$(platform "$p")" -- 8 10)
    c60=$(best_wall "$collsim" exec "$work/ring.so" -n "$p" --platform "$(platform "$p")" -- 8 60)
    if [ -x "$work/ring.smpi" ] && [ "$p" -le "$smpi_max_p" ]; then
        local smpi=(smpirun -np "$p" -platform "$(platform "$p")" -hostfile "$(hostfile "$p")"
            --cfg=smpi/privatization:no --cfg=smpi/simulate-computation:no
            --cfg=network/model:LV08 --log=root.thres:critical "$work/ring.smpi")
        s10=$(best_wall "${smpi[@]}" 8 10)
        s60=$(best_wall "${smpi[@]}" 8 60)
    fi
    awk -v p="$p" -v c10="$c10" -v c60="$c60" -v s10="$s10" -v s60="$s60" 'BEGIN {
        m = 50 * p
        cr = (c60 + 0 > c10 + 0) ? sprintf("%.0f", m / (c60 - c10)) : "-"
        sr = (s60 + 0 > s10 + 0) ? sprintf("%.0f", m / (s60 - s10)) : "-"
        printf "%-10s %8d %10d | %8s %8s %12s | %8s %8s %12s\n", "ring", p, m, c10, c60, cr,
            s10, s60, sr }'
}

echo
printf "%-10s %8s %10s | %-30s | %-30s\n" "steady" "" "" "collsim" "SMPI 3.32"
printf "%-10s %8s %10s | %8s %8s %12s | %8s %8s %12s\n" program P "messages" "10 laps" \
    "60 laps" "msgs/s" "10 laps" "60 laps" "msgs/s"
p=1024
while [ "$p" -le "$max_p" ]; do
    steady "$p"
    p=$((p * 4))
done

echo
printf "%-10s %8s %10s | %-45s | %-45s\n" "in flight" "" "" "collsim" "SMPI 3.32"
printf "%-10s %8s %10s | %13s %8s %10s %8s | %13s %8s %10s %8s\n" "W" P messages \
    "simulated s" "wall s" "msgs/s" "B/rank" "simulated s" "wall s" "msgs/s" "B/rank"
for p in ${BENCH_WINDOW_P:-256 4096}; do
    for w in 1 8 64 512; do
        rounds=$(( ${BENCH_WINDOW_MESSAGES:-262144} / (p * w) ))
        [ "$rounds" -ge 2 ] || rounds=2
        ROW_LABEL="W=$w" row window "$p" $((p * w * rounds)) "$w" "$rounds"
    done
done
