#!/bin/bash
# scale_probes.sh — MPI constructs at many ranks, looking for what grows faster than P.
#
# Runs tests/bench/scale_probe.c once per construct and rank count, and prints the wall time,
# the peak RSS and its share per rank, and whether the results were right. What a simulator
# keeps per rank should be O(1) or O(log P) for these: a line whose time or bytes per rank
# grow with P points at a table walked by every rank, an object copied by every rank, or
# records kept too long. With SCALE_SMPI=yes each point also runs under SMPI (smpirun, the
# same program built with smpicc, on the same flat cluster), side by side.
#
#   tests/bench/scale_probes.sh                          # P = 16384 65536, every construct
#   SCALE_P="1024 4096" SCALE_SMPI=yes tests/bench/scale_probes.sh split ibarrier
#   SCALE_LIMIT=600 (seconds a run may take; default 300); alltoall, allgather, allgatherv and
#   reduce_scatter move P^2 data, waitany makes P calls over P requests: they run only up to
#   SCALE_QUADRATIC_MAX ranks (default 4096)
# Run from a built tree (./setup.sh). A benchmark, not a test (EXTRA_DIST, not TESTS).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench_lib.sh"
[ -x "$collsim" ] || { echo "scale_probes.sh: build collsim first (./setup.sh)" >&2; exit 1; }
ps=${SCALE_P:-16384 65536}
limit=${SCALE_LIMIT:-300}
quadratic_max=${SCALE_QUADRATIC_MAX:-4096} # alltoall, allgather(v), reduce_scatter, waitany: P^2
smpi=${SCALE_SMPI:-no}
constructs=("$@")
[ ${#constructs[@]} -gt 0 ] || constructs=(split dup split_type group_range group_incl cart
    dist_graph intercomm barrier scan exscan ibarrier alltoall allgather gatherv waitany
    split_self comm_idup cart_sub neighbor ibcast iallreduce bcast_init type_vector attr_dup
    user_op any_source reduce_scatter allgatherv)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_scale_probe "$work" || exit 1

# run CMD... -> "wall_s rss_kib verdict": ">LIMIT" past the limit, "failed" on an error
run() {
    timeout "$limit" /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err"
    local rc=$?
    if [ $rc -eq 124 ]; then
        echo ">$limit - -"
    elif grep -q 'Not yet implemented' "$work/err"; then
        echo "- - unsupported" # SMPI 3.32: MPI_Dist_graph_create_adjacent, MPI_Intercomm_create,
        # MPI_Bcast_init
    elif [ $rc -ne 0 ] || ! grep -q ' ok$' "$work/out"; then
        echo "failed - $(cat "$work/out" "$work/err" | head -c 60 | tr "\n" " ")"
    else
        echo "$(tail -1 "$work/time") ok"
    fi
}

fmt="%-12s %8s | %9s %9s %8s %-6s"
[ "$smpi" = yes ] && fmt="$fmt | %9s %9s %-6s"
fmt="$fmt\n"
if [ "$smpi" = yes ]; then
    printf "$fmt" construct P wall_s MiB B/rank result smpi_s MiB result
else
    printf "$fmt" construct P wall_s MiB B/rank result
fi
for p in $ps; do
    platform="$work/cluster-$p.xml"
    if [ "$smpi" = yes ]; then
        "$collsim" platform describe "flat:hosts=$p" -n "$p" --network cm02 --xml |
            sed -n '/^<?xml/,$p' >"$platform"
        seq 0 $((p - 1)) | sed 's/^/node-/' >"$work/hosts-$p"
    fi
    for c in "${constructs[@]}"; do
        if [ "$p" -gt "$quadratic_max" ] &&
            case " alltoall allgather waitany reduce_scatter allgatherv " in *" $c "*) true ;; *) false ;; esac; then
            printf "%-12s %8s | skipped: P^2 work (SCALE_QUADRATIC_MAX=%s)\n" "$c" "$p" \
                "$quadratic_max"
            continue
        fi
        read -r wall rss verdict < <(run "$collsim" exec "$work/probe.so" -n "$p" -- "$c")
        per_rank=$(awk -v r="$rss" -v p="$p" 'BEGIN { if (r ~ /^[0-9]+$/) printf "%.0f", r * 1024 / p; else print "-" }')
        mib=$(awk -v r="$rss" 'BEGIN { if (r ~ /^[0-9]+$/) printf "%.0f", r / 1024; else print "-" }')
        if [ "$smpi" = yes ]; then
            extra=()
            [ "$p" -ge 16384 ] && extra=(--cfg=contexts/stack-size:16 --cfg=contexts/guard-size:0)
            read -r swall srss sverdict < <(run smpirun -np "$p" -platform "$platform" \
                -hostfile "$work/hosts-$p" --cfg=smpi/privatization:no \
                --cfg=smpi/simulate-computation:no --cfg=network/model:CM02 \
                --cfg=smpi/wtime:0 "${extra[@]}" --log=root.thres:critical "$work/probe.smpi" "$c")
            smib=$(awk -v r="$srss" 'BEGIN { if (r ~ /^[0-9]+$/) printf "%.0f", r / 1024; else print "-" }')
            printf "$fmt" "$c" "$p" "$wall" "$mib" "$per_rank" "$verdict" "$swall" "$smib" "$sverdict"
        else
            printf "$fmt" "$c" "$p" "$wall" "$mib" "$per_rank" "$verdict"
        fi
    done
done
echo "wall_s and MiB: the whole run (start-up included) and its peak RSS; B/rank: that RSS over P."
echo "group_incl builds a list of P ranks on every rank (the program's own O(P^2) work and memory)."
