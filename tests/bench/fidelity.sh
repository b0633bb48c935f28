#!/bin/bash
# fidelity.sh — collsim's simulated time beside SimGrid SMPI's for the same collective
# algorithm, the same platform file and the same SimGrid network model.
#
# Like for like:
#   - one program, tests/bench/fidelity_coll.c, built for both tools; every rank starts at
#     simulated time 0 (no synchronising barrier), calls the collective once, and the time
#     is the latest rank's completion;
#   - one platform file per P: a flat SimGrid cluster of P single-core hosts, each with a
#     private SPLITDUPLEX link (10 Gbps, 1 us: 2 us and 0.8 ns/B host to host) to a FATPIPE
#     backbone of 10 Tbps; hosts of 1 Pflop/s so that collsim's charge for applying a
#     reduction op is negligible (SMPI runs with smpi/simulate-computation:no);
#   - one network model: SimGrid's CM02 (latency + size / bandwidth, max-min sharing,
#     cross traffic on), with no per-message overheads. collsim runs with `--network cm02`
#     (o_s = o_r = g = 0; NOT its default ib-edr preset, whose 0.2 us overheads, NIC gap and
#     16 KiB eager threshold would dominate small messages), and reads the platform's links;
#     SMPI runs with --cfg=network/model:CM02, whose latency and bandwidth factors are 1
#     (SMPI's own piecewise factors belong to network/model:SMPI, which is not used), and
#     smpi/wtime:0 so that MPI_Wtime itself costs nothing.
#   What still differs is each tool's transport, and the notes at the end say where it shows:
#   collsim's NIC injects one message at a time, an empty message travels as 1 byte, and a
#   message above 64 KiB waits for a rendezvous round trip; SMPI puts all of a rank's sends
#   on the wire at once, sharing the link, adds a 16-byte envelope to every message, and
#   starts a transfer only when its receive is posted. Large buffers come from SMPI's shared
#   malloc (blocks of 16 MiB, to stay under vm.max_map_count).
#
# Output: one row per point (family, the two algorithm names, P, bytes, both simulated times
# in seconds, collsim / SMPI), then per family and per algorithm pair the median and largest
# |ratio - 1|, then a note for every pair more than 5 % apart. "refused" means collsim
# declined the forced algorithm for that call (count < ranks, ...); "skipped" means the
# point's buffers (P x P x bytes over all ranks) exceed FIDELITY_MAX_FOOTPRINT.
#
#   tests/bench/fidelity.sh                                   # P = 16 64 256; 8 B and 1 MiB
#   FIDELITY_P="16 64 256 1024" FIDELITY_SIZES="8 65536 1048576" tests/bench/fidelity.sh
#   FIDELITY_FAMILIES="bcast allreduce" tests/bench/fidelity.sh   # some families only
#   FIDELITY_MAX_FOOTPRINT=4294967296 ...                     # bytes; default 1 GiB
#   FIDELITY_COLLSIM_ARGS="--eager-threshold 1048576" ...     # extra collsim exec options
#   FIDELITY_SMPI_ARGS="--cfg=smpi/async-small-thresh:65536"  # extra smpirun options
# Run from a built tree (./setup.sh, or ./bootstrap && ./configure && make). Needs smpicc and
# smpirun (libsimgrid-dev); without them it says so and exits 0. A benchmark, not a test:
# it is in EXTRA_DIST (tests/bench) but not in TESTS.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
collsim="$top/collsim"
ps=${FIDELITY_P:-16 64 256}
sizes=${FIDELITY_SIZES:-8 1048576}
families=${FIDELITY_FAMILIES:-bcast reduce allreduce allgather alltoall barrier gather scatter}
max_footprint=${FIDELITY_MAX_FOOTPRINT:-1073741824}
collsim_args=${FIDELITY_COLLSIM_ARGS:-}
smpi_args=${FIDELITY_SMPI_ARGS:-}
threshold=0.05

[ -x "$collsim" ] || { echo "fidelity.sh: build collsim first (./setup.sh): no $collsim" >&2; exit 1; }
if ! command -v smpicc >/dev/null || ! command -v smpirun >/dev/null; then
    echo "fidelity.sh: smpicc/smpirun not found (install libsimgrid-dev); nothing compared"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -std=c11 -O2 -Wall -Wextra -shared -fPIC -I"$top/src" "$here/fidelity_coll.c" \
    -o "$work/fc.so" || exit 1
if ! smpicc -O2 "$here/fidelity_coll.c" -o "$work/fc.smpi" >"$work/smpicc.log" 2>&1; then
    echo "fidelity.sh: smpicc failed; nothing compared"
    cat "$work/smpicc.log"
    exit 0
fi

# family | collsim --algorithm value | SMPI smpi/<family> value | short collsim name.
# Only algorithms both tools have; SMPI's ompi_pipeline bcast is a chain of 128 KiB
# segments at these sizes, NTSL a chain of 8 KiB segments posted with Isend.
pairs="
bcast|binomial|binomial_tree|binomial
bcast|scatter_ring_allgather|scatter_LR_allgather|scatter_ring_allgather
bcast|scatter_recursive_doubling_allgather|scatter_rdb_allgather|scatter_rdb_allgather
bcast|pipeline_chain,segment_bytes=131072|ompi_pipeline|pipeline_chain:128K
bcast|pipeline_chain,segment_bytes=8192|NTSL|pipeline_chain:8K
reduce|binomial|binomial|binomial
allreduce|recursive_doubling|rdb|recursive_doubling
allreduce|ring|lr|ring
allreduce|rabenseifner|rab_rdb|rabenseifner
allreduce|rabenseifner|rab1|rabenseifner
allgather|ring|ring|ring
allgather|recursive_doubling|rdb|recursive_doubling
allgather|bruck|bruck|bruck
alltoall|pairwise|pair|pairwise
alltoall|bruck|bruck|bruck
barrier|dissemination|ompi_bruck|dissemination
barrier|recursive_doubling|ompi_recursivedoubling|recursive_doubling
barrier|double_ring|ompi_doublering|double_ring
barrier|linear|ompi_basic_linear|linear
gather|binomial|ompi_binomial|binomial
scatter|binomial|ompi_binomial|binomial
"

platform() {  # P -> the platform file both tools read
    local f="$work/cluster-$1.xml"
    [ -f "$f" ] || cat >"$f" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="fidelity" prefix="node-" suffix="" radical="0-$(($1 - 1))" speed="1Pf"
           bw="10Gbps" lat="1us" sharing_policy="SPLITDUPLEX"
           bb_bw="10Tbps" bb_lat="0us" bb_sharing_policy="FATPIPE"/>
</platform>
XML
    echo "$f"
}
hostfile() {
    local f="$work/hosts-$1"
    [ -f "$f" ] || seq 0 $(($1 - 1)) | sed 's/^/node-/' >"$f"
    echo "$f"
}

# measure CMD... -> the simulated time, "refused" (collsim declined the algorithm) or "failed"
measure() {
    "$@" >"$work/out" 2>"$work/err"
    local rc=$? sim
    sim=$(grep -o 'simulated=[0-9.e+-]*' "$work/out" | head -1 | cut -d= -f2)
    if [ $rc -eq 0 ] && [ -n "$sim" ]; then
        echo "$sim"
        if ! grep -q 'start_spread=0\.000e+00' "$work/out"; then  # ranks did not start together
            echo "--- start times differ: $*: $(grep -o 'start_spread=.*' "$work/out")" >>"$work/failures"
        fi
    elif grep -q 'cannot serve this call' "$work/err"; then
        echo refused
    else
        echo failed
        { echo "--- failed: $*"; tail -5 "$work/err"; } >>"$work/failures"
    fi
}

rows="$work/rows"
: >"$rows"
fmt="%-9s %-24s %-22s %5s %8s %13s %13s %7s\n"
printf "$fmt" family collsim_algo smpi_algo P bytes collsim_s smpi_s ratio
for fam in $families; do
    for p in $ps; do
        if [ "$fam" = barrier ]; then fam_sizes=0; else fam_sizes=$sizes; fi
        for bytes in $fam_sizes; do
            while IFS='|' read -r f cspec salgo cname; do
                [ "$f" = "$fam" ] || continue
                cs=- ss=-
                case $fam in
                allgather | alltoall) footprint=$((p * p * bytes)) ;;
                *) footprint=0 ;;
                esac
                if [ "$footprint" -gt "$max_footprint" ]; then
                    cs=skipped ss=skipped
                else
                    # shellcheck disable=SC2086
                    cs=$(measure "$collsim" exec "$work/fc.so" -n "$p" --platform "$(platform "$p")" \
                        --network cm02 --algorithm "$fam=$cspec" $collsim_args -- "$fam" "$bytes")
                    # shellcheck disable=SC2086
                    ss=$(measure smpirun -np "$p" -platform "$(platform "$p")" \
                        -hostfile "$(hostfile "$p")" --cfg=smpi/privatization:no \
                        --cfg=smpi/simulate-computation:no --cfg=network/model:CM02 \
                        --cfg=network/crosstraffic:1 --cfg=smpi/wtime:0 \
                        --cfg=smpi/shared-malloc-blocksize:16777216 \
                        --cfg="smpi/$fam:$salgo" $smpi_args --log=root.thres:critical \
                        "$work/fc.smpi" "$fam" "$bytes")
                fi
                ratio=$(awk -v c="$cs" -v s="$ss" 'BEGIN {
                    if (c ~ /^[0-9]/ && s ~ /^[0-9]/ && s + 0 > 0) printf "%.3f", c / s; else print "-" }')
                printf "$fmt" "$fam" "$cname" "$salgo" "$p" "$bytes" "$cs" "$ss" "$ratio"
                echo "$fam $cname $salgo $p $bytes $cs $ss $ratio" >>"$rows"
            done <<<"$pairs"
        done
    done
done

# Median and largest |ratio - 1| over the compared points of each group (field 1, or 1-3).
summarise() {  # KEYFIELDS TITLE
    echo
    echo "$2"
    awk -v keys="$1" '
    $8 != "-" {
        k = (keys == 1) ? $1 : sprintf("%s %s/%s", $1, $2, $3)
        d = $8 - 1; if (d < 0) d = -d
        if (!(k in n)) order[++nk] = k
        v[k, ++n[k]] = d
        if (d >= worst[k]) { worst[k] = d; at[k] = sprintf("P=%s %s B", $4, $5) }
    }
    $8 == "-" { k = (keys == 1) ? $1 : sprintf("%s %s/%s", $1, $2, $3); other[k]++ }
    END {
        for (i = 1; i <= nk; i++) {
            k = order[i]; m = n[k]
            for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++)
                if (v[k, b] < v[k, a]) { t = v[k, a]; v[k, a] = v[k, b]; v[k, b] = t }
            med = (m % 2) ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2
            printf "  %-52s n=%3d median|r-1|=%6.3f max|r-1|=%7.3f (at %s)%s\n", k, m, med,
                worst[k], at[k], (k in other) ? sprintf(", %d not compared", other[k]) : ""
        }
    }' "$rows"
}
summarise 1 "per family (compared points only):"
summarise 3 "per algorithm pair:"

# Why a pair differs. Each cause below was isolated by hand on this platform (varying one
# setting of one tool at a time); a pair without one gets the generic list of suspects.
why() {  # FAMILY COLLSIM_NAME SMPI_ALGO
    case "$1/$2/$3" in
    bcast/pipeline_chain:8K/NTSL)
        echo "SMPI's NTSL posts every 8 KiB segment with Isend at once: the segments of a hop share" \
            "its link max-min fairly and all finish together, so the chain degenerates into" \
            "store-and-forward of the whole message per hop (about (P-1) x n x beta). collsim's NIC" \
            "injects one segment after another (one-port), so the chain pipelines (about" \
            "(P-2 + n/seg) x (alpha + seg x beta)). A transport difference, not an algorithm one." ;;
    bcast/pipeline_chain:128K/ompi_pipeline)
        echo "128 KiB segments exceed collsim's 64 KiB eager threshold (cm02 preset): every segment" \
            "of every hop waits for a rendezvous round trip (envelope + clear-to-send, 2 x 2 us)" \
            "before its data; SMPI starts the data when the receive is posted. With" \
            "FIDELITY_COLLSIM_ARGS=\"--eager-threshold 262144\" the two agree within 0.4 %." ;;
    barrier/linear/ompi_basic_linear)
        echo "SMPI adds a 16-byte envelope to every message (smpi_request.cpp: payload = size + 16)," \
            "while collsim sends an empty message as 1 byte. The root's link carries P-1 of them" \
            "at once in the fan-in and again in the fan-out: 2 x (P-1) x 16 B x 0.8 ns = 6.5 us at" \
            "P = 256 against 2 x 2 us of latency. (The same envelope costs 12.8 ns per hop" \
            "everywhere else: the ratios of 0.993 on small messages.)" ;;
    scatter/binomial/ompi_binomial)
        echo "the same tree, another order of the children: SMPI's ompi_binomial serves the root's" \
            "children smallest subtree first (1, 2, 4 ... P/2 blocks), so the largest subtree gets" \
            "its data last and forwards it last in turn: (P-1) + (P/2-1) + (P/4-1) ... blocks on the" \
            "critical path, close to 2P x n x beta; collsim sends the largest subtree first," \
            "(P-1) x n x beta. At 8 B, SMPI's root has all its sends in flight at once," \
            "sharing its link, so the largest subtree's message again ends last. An algorithm" \
            "difference (the order of the children), not a transport one." ;;
    allreduce/ring/lr)
        echo "at 8 B (count < P) SMPI's lr falls back to redbcast while collsim refuses ring;" \
            "only the 1 MiB points are compared." ;;
    *)
        echo "no cause isolated for this pair yet. Usual suspects: several messages in flight from" \
            "one host (SMPI shares the link among them at once, collsim's NIC injects them one after" \
            "another), collsim's rendezvous round trip above 64 KiB (2 latencies per message) that" \
            "SMPI omits, SMPI's 16-byte envelope per message, and the order of sends." ;;
    esac
}

echo
echo "notes (pairs more than $(awk -v t=$threshold 'BEGIN { print t * 100 }') % apart on some point):"
noted=0
while read -r fam cname salgo; do
    worst=$(awk -v f="$fam" -v c="$cname" -v s="$salgo" '
        $1 == f && $2 == c && $3 == s && $8 != "-" {
            d = $8 - 1; if (d < 0) d = -d
            if (d > w) { w = d; at = sprintf("P=%s %s B ratio %s", $4, $5, $8) } }
        END { if (w > 0) printf "%.4f %s\n", w, at }' "$rows")
    [ -n "$worst" ] || continue
    if awk -v w="${worst%% *}" -v t=$threshold 'BEGIN { exit !(w > t) }'; then
        noted=1
        echo "  $fam $cname/$salgo: worst ${worst#* }"
        why "$fam" "$cname" "$salgo" | fold -s -w 92 | sed 's/^/      /'
    fi
done < <(awk '!seen[$1 " " $2 " " $3]++ { print $1, $2, $3 }' "$rows")
[ "$noted" = 1 ] || echo "  none"
if awk '$6 == "refused" { found = 1 } END { exit !found }' "$rows"; then
    echo "  refused points:"
    echo "collsim refuses an algorithm forced on a call it cannot serve (rabenseifner and ring" \
        "need count >= ranks, and 8 B is one double); SMPI runs it anyway, or silently another" \
        "(lr falls back to redbcast). Those points are not compared." | fold -s -w 92 | sed 's/^/      /'
fi
if [ -f "$work/failures" ]; then
    echo
    echo "failed runs and warnings:"
    cat "$work/failures"
fi
exit 0
