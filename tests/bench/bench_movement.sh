#!/bin/bash
# bench_movement.sh — every Barrier, Bcast, Gather, Scatter, Allgather and Alltoall algorithm
# of collsim beside SimGrid SMPI's closest algorithm, same program (movement_time.c), same
# platform (a flat cluster of P hosts with collsim's default parameters), same network model
# (LV08). Sizes are per block (bcast: the whole message).
# Prints simulated time and wall time of both and their ratios.
#
#   tests/bench/bench_movement.sh                       # P = 16, 256; 8 B, 64 KiB, 1 MiB
#   BENCH_P="16 256 4096" BENCH_BYTES="8 65536" BENCH_COLLECTIVES="bcast allgather" tests/bench/bench_movement.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
collsim="$top/collsim"
ps=${BENCH_P:-16 256}
sizes=${BENCH_BYTES:-8 65536 1048576}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -shared -fPIC -I"$top/src" "$here/movement_time.c" -o "$work/mt.so" || exit 1
have_smpi=0
if command -v smpicc >/dev/null && smpicc -O2 "$here/movement_time.c" -o "$work/mt.smpi" 2>/dev/null; then
    have_smpi=1
fi

# collective:algorithm of collsim -> SMPI algorithm ("-" if SMPI has none alike)
declare -A smpi=(
    [barrier:linear]=ompi_basic_linear [barrier:binomial]=ompi_tree [barrier:dissemination]=ompi_bruck
    [barrier:recursive_doubling]=ompi_recursivedoubling [barrier:double_ring]=ompi_doublering
    [bcast:linear]=flattree [bcast:binomial]=binomial_tree [bcast:knomial]=-
    [bcast:pipeline_chain]=ompi_pipeline [bcast:pipeline_binary]=-
    [bcast:split_binary]=ompi_split_bintree [bcast:scatter_ring_allgather]=scatter_LR_allgather
    [bcast:scatter_recursive_doubling_allgather]=scatter_rdb_allgather
    [gather:linear]=ompi_basic_linear [gather:binomial]=ompi_binomial
    [scatter:linear]=ompi_basic_linear [scatter:binomial]=ompi_binomial
    [allgather:ring]=ring [allgather:recursive_doubling]=rdb [allgather:bruck]=bruck
    [allgather:neighbor_exchange]=ompi_neighborexchange [allgather:gather_bcast]=GB
    [alltoall:pairwise]=pair [alltoall:bruck]=bruck [alltoall:linear]=basic_linear
    [alltoall:ring]=ring)
algorithms_of() {  # collective -> its collsim algorithms, from the mapping above
    for key in "${!smpi[@]}"; do [ "${key%%:*}" = "$1" ] && echo "${key#*:}"; done | sort
}

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
for coll in ${BENCH_COLLECTIVES:-barrier bcast gather scatter allgather alltoall}; do
    algos=$(algorithms_of "$coll")
    for p in $ps; do
        for bytes in $sizes; do
            n=$bytes
            for a in $algos; do
                read -r cs cw < <(measure "$collsim" exec "$work/mt.so" -n "$p" \
                    --platform "$(platform "$p")" --algorithm "$coll=$a" -- "$coll" "$n")
                sa=${smpi[$coll:$a]}
                ss=- sw=-
                if [ "$have_smpi" = 1 ] && [ "$sa" != - ] && [ "$p" -le "${BENCH_SMPI_MAX_P:-16384}" ]; then
                    read -r ss sw < <(measure smpirun -np "$p" -platform "$(platform "$p")" \
                        -hostfile "$(hostfile "$p")" --cfg=smpi/privatization:no \
                        --cfg=smpi/simulate-computation:no --cfg=network/model:LV08 \
                        --cfg="smpi/$coll:$sa" --log=root.thres:critical "$work/mt.smpi" "$coll" "$n")
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
