#!/bin/bash
# bench_reductions.sh — every Reduce and Allreduce algorithm of collsim beside SimGrid SMPI's
# closest algorithm, same program (reduction_time.c), same platform (a flat cluster of P
# hosts with collsim's default parameters), same network model (LV08).
# Prints simulated time and wall time of both and their ratios.
#
#   tests/bench/bench_reductions.sh                       # P = 16, 256; 8 B, 64 KiB, 1 MiB
#   BENCH_P="16 256 4096 65536" BENCH_BYTES="8 65536 1048576 16777216" tests/bench/bench_reductions.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
collsim="$top/collsim"
ps=${BENCH_P:-16 256}
sizes=${BENCH_BYTES:-8 65536 1048576}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -shared -fPIC -I"$top/src" "$here/reduction_time.c" -o "$work/rt.so" || exit 1
have_smpi=0
if command -v smpicc >/dev/null && smpicc -O2 "$here/reduction_time.c" -o "$work/rt.smpi" 2>/dev/null; then
    have_smpi=1
fi

# collsim algorithm -> SMPI algorithm ("-" if SMPI has none alike)
declare -A smpi_reduce=([chain]=ompi_chain [linear]=flat_tree [binomial]=binomial
    [in_order_binary]=ompi_in_order_binary [knomial]=mvapich2_knomial
    [pipeline_chain]=ompi_pipeline [pipeline_binary]=ompi_binary [rabenseifner]=scatter_gather)
declare -A smpi_allreduce=([reduce_bcast]=redbcast [recursive_doubling]=rdb
    [halving_doubling]=- [ring]=lr [ring_segmented]=ompi_ring_segmented [rabenseifner]=rab_rdb)

platform() {
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
hostfile() { local f="$work/hosts-$1"; [ -f "$f" ] || seq 0 $(($1 - 1)) | sed 's/^/node-/' >"$f"; echo "$f"; }

measure() {  # CMD... -> "simulated wall"
    /usr/bin/time -f "%e" -o "$work/time" "$@" >"$work/out" 2>/dev/null
    local sim; sim=$(grep -o 'simulated=[0-9.e+-]*' "$work/out" | cut -d= -f2)
    [ -n "$sim" ] && echo "$sim $(cat "$work/time")" || echo "- -"
}

printf "%-10s %-20s %7s %9s | %13s %7s | %-22s %13s %7s | %7s %7s\n" collective algorithm P bytes \
    "collsim sim" wall "SMPI algorithm" "SMPI sim" wall "sim x" "wall x"
for coll in reduce allreduce; do
    if [ "$coll" = reduce ]; then algos="chain linear binomial in_order_binary knomial pipeline_chain pipeline_binary rabenseifner"
    else algos="reduce_bcast recursive_doubling halving_doubling ring ring_segmented rabenseifner"; fi
    for p in $ps; do
        for bytes in $sizes; do
            n=$((bytes / 8)); [ "$n" -lt 1 ] && n=1
            for a in $algos; do
                read -r cs cw < <(measure "$collsim" exec "$work/rt.so" -n "$p" \
                    --platform "$(platform "$p")" --algorithm "$coll=$a" -- "$coll" "$n")
                if [ "$coll" = reduce ]; then sa=${smpi_reduce[$a]}; else sa=${smpi_allreduce[$a]}; fi
                ss=- sw=-
                if [ "$have_smpi" = 1 ] && [ "$sa" != - ] && [ "$p" -le "${BENCH_SMPI_MAX_P:-16384}" ]; then
                    read -r ss sw < <(measure smpirun -np "$p" -platform "$(platform "$p")" \
                        -hostfile "$(hostfile "$p")" --cfg=smpi/privatization:no \
                        --cfg=smpi/simulate-computation:no --cfg=network/model:LV08 \
                        --cfg="smpi/$coll:$sa" --log=root.thres:critical "$work/rt.smpi" "$coll" "$n")
                fi
                awk -v c="$coll" -v a="$a" -v p="$p" -v b="$bytes" -v cs="$cs" -v cw="$cw" \
                    -v sa="$sa" -v ss="$ss" -v sw="$sw" 'BEGIN {
                    rs = (ss > 0 && cs > 0) ? sprintf("%.2f", cs / ss) : "-"
                    rw = (sw > 0 && cw > 0) ? sprintf("%.2f", cw / sw) : "-"
                    printf "%-10s %-20s %7d %9d | %13s %7s | %-22s %13s %7s | %7s %7s\n",
                        c, a, p, b, cs, cw, sa, ss, sw, rs, rw }'
            done
        done
    done
done
