#!/bin/bash
# test_payload_none.sh — sizes-only mode (payload none) and the memory refusal:
#  - the same scenario in payload data and payload none gives the same simulated times,
#    messages and bytes (CSV columns), point by point, for every algorithm of eight
#    collectives at 7 and 16 ranks on nodes of 4 cores, eager and rendezvous sizes (the
#    node-aware rows included: the layout they exchange arrives in payload none too; rows that
#    fall back in payload none, and say so, are left out);
#  - sizes-only points keep no payload: Alltoall pairwise 64 x 1 MiB, whose buffers alone
#    take 8 GiB in payload data, and Allgather Bruck 256 x 64 KiB (4 GiB in payload data)
#    peak under 1 GiB (measured: 80 MB and 40 MB);
#  - a rank count that cannot fit is refused at once, exit 2, one line with the estimate,
#    what is available and a hint; one that fits is not refused. COLLSIM_MEMORY_LIMIT sets
#    the memory available. No wall time is asserted.
set -u
: "${COLLSIM:?}" "${top_builddir:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# ---- the same simulated times in both modes
cat >"$tmp/both.ini" <<'INI'
[scenario]
description = sizes-only against data: the same simulated times
[platform]
file = flat:hosts=4,cores=4
[run]
collectives = alltoall, allgather, allreduce, reduce, bcast, reduce_scatter, scan, gather
algorithms = all
ranks = 7, 16
sizes = 8, 128KiB
INI
for mode in data none; do
    "$COLLSIM" run "$tmp/both.ini" -q --no-progress --set "run.payload=$mode" \
        -o "$tmp/$mode.csv" >"$tmp/$mode.out" 2>&1 ||
        fail "payload $mode: exit $?, $(head -3 "$tmp/$mode.out")"
done
# index..root, iterations, time max/min/mean, messages, bytes moved, prediction; rows that
# fall back in payload none (fallback_reason set) are compared with nothing
columns() { awk -F, 'NR > 1 { print $1","$2","$3","$6","$7","$8","$9","$10","$11","$13","$14","$15","$16","$17","$18","$21 }' "$1"; }
fallbacks=$(awk -F, 'NR > 1 && $5 != "" { print $1 }' "$tmp/none.csv" | tr '\n' ' ')
columns "$tmp/data.csv" | awk -F, -v skip=" $fallbacks" 'index(skip, " "$1" ") == 0' >"$tmp/data.cols"
columns "$tmp/none.csv" | awk -F, -v skip=" $fallbacks" 'index(skip, " "$1" ") == 0' >"$tmp/none.cols"
compared=$(wc -l <"$tmp/none.cols")
node_aware=$(grep -c ',smp,smp,' "$tmp/none.csv")
[ "$node_aware" -ge 10 ] || fail "payload none: $node_aware node-aware rows served, expected 10 or more"
if [ "$compared" -ge 150 ] && cmp -s "$tmp/data.cols" "$tmp/none.cols"; then
    pass "payload none: $compared points with the same times, messages and bytes as payload data"
else
    fail "payload none differs from payload data ($compared points compared): $(diff "$tmp/data.cols" "$tmp/none.cols" | head -4)"
fi
if awk -F, 'NR > 1 && $12 == "none" && $19 != "skipped" { bad = 1 } END { exit bad }' "$tmp/none.csv"; then
    pass "payload none: every check is skipped"
else
    fail "payload none: a point was checked"
fi

# ---- no payload kept: peak RSS far below what payload data needs
peak_kib() {  # SCENARIO-ARGS...: the run's peak resident set in KiB
    /usr/bin/time -f "%M" -o "$tmp/rss" "$COLLSIM" run "$@" -q --no-progress >"$tmp/rss.out" 2>&1 ||
        echo "exit $?: $(head -2 "$tmp/rss.out")" >&2
    tail -1 "$tmp/rss"
}
if [ -x /usr/bin/time ]; then
    cat >"$tmp/big.ini" <<'INI'
[scenario]
description = sizes only at a size payload data cannot afford
[run]
collectives = alltoall
algorithms = pairwise
ranks = 64
sizes = 1MiB
payload = none
INI
    for point in "alltoall pairwise 64" "allgather bruck 256"; do
        set -- $point
        size=1MiB
        [ "$1" = allgather ] && size=64KiB
        kib=$(peak_kib "$tmp/big.ini" --set "run.collectives=$1" --set "run.algorithms=$2" \
            --set "run.ranks=$3" --set "run.sizes=$size")
        if [ -n "$kib" ] && [ "$kib" -lt 1048576 ]; then
            pass "payload none: $1 $2 P=$3 x $size peaks at $kib KiB (< 1 GiB)"
        else
            fail "payload none: $1 $2 P=$3 x $size peaks at ${kib:-?} KiB, expected < 1 GiB"
        fi
    done
else
    echo "skip: no /usr/bin/time for the peak memory"
fi

# ---- the memory refusal
program="$top_builddir/scenarios/seeds/doubling_sum.so"
refused() {  # NAME ENV COMMAND...: exit 2, one line, the estimate and the hint
    local name=$1 env=$2
    shift 2
    env $env "$@" >"$tmp/refusal.out" 2>&1
    local rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/refusal.out")" -eq 1 ] &&
        grep -q "ranks need at least .* per rank: stack .*real use is up to [0-9]*% more) and .* is available (.*); try fewer ranks" "$tmp/refusal.out"; then
        pass "$name: $(cat "$tmp/refusal.out")"
    else
        fail "$name: exit $rc, $(head -3 "$tmp/refusal.out")"
    fi
}
refused "exec -n 1000000000" "" "$COLLSIM" exec "$program" -n 1000000000
grep -q -- "--no-privatize" "$tmp/refusal.out" || fail "exec -n 1000000000: no --no-privatize hint"
# a stack each: 64 ranks x 12.6 KiB = 0.79 MiB; on the shared stack 64 x 832 B = 52 KiB
refused "exec -n 64 --stacks separate within 512 KiB" COLLSIM_MEMORY_LIMIT=512K "$COLLSIM" exec \
    "$program" -n 64 --stacks separate -- 8
grep -q "(COLLSIM_MEMORY_LIMIT)" "$tmp/refusal.out" || fail "the override is not named"
grep -q "per rank: stack 12.0 KiB" "$tmp/refusal.out" || fail "separate stacks: not 12 KiB each"
refused "exec -n 64 within 32 KiB" COLLSIM_MEMORY_LIMIT=32K "$COLLSIM" exec "$program" -n 64 -- 8
# what fits is not refused: 64 ranks x 12.6 KiB = 0.79 MiB of 2 (the program's own buffers,
# 8 doubles here, are not estimated)
if COLLSIM_MEMORY_LIMIT=2M "$COLLSIM" exec "$program" -n 64 -- 8 >"$tmp/fits.out" 2>&1; then
    pass "exec -n 64 within 2 MiB runs"
else
    fail "exec -n 64 within 2 MiB: exit $?, $(head -2 "$tmp/fits.out")"
fi
if COLLSIM_MEMORY_LIMIT=lots "$COLLSIM" exec "$program" -n 4 >"$tmp/bad.out" 2>&1; then
    fail "COLLSIM_MEMORY_LIMIT=lots accepted"
elif grep -q "COLLSIM_MEMORY_LIMIT='lots' is not a byte count" "$tmp/bad.out"; then
    pass "COLLSIM_MEMORY_LIMIT=lots refused: $(cat "$tmp/bad.out")"
else
    fail "COLLSIM_MEMORY_LIMIT=lots: $(head -2 "$tmp/bad.out")"
fi
# a scenario point: payload data refused with the payload named, payload none runs
COLLSIM_MEMORY_LIMIT=1G "$COLLSIM" run "$tmp/big.ini" --set run.payload=data --no-progress \
    >"$tmp/point.out" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && grep -q "ERROR" "$tmp/point.out" &&
    grep -q "64 ranks need at least 8.0 GiB .*payload 128.0 MiB.*--payload none" "$tmp/point.out"; then
    pass "a payload-data point that cannot fit ends in ERROR with the estimate"
else
    fail "payload-data point within 1 GiB: exit $rc, $(head -8 "$tmp/point.out")"
fi
if COLLSIM_MEMORY_LIMIT=1G "$COLLSIM" run "$tmp/big.ini" -q --no-progress >"$tmp/point.out" 2>&1; then
    pass "the same point in payload none runs within 1 GiB"
else
    fail "payload-none point within 1 GiB: exit $?, $(head -4 "$tmp/point.out")"
fi
# The mesh Alltoalls hold a row's or a plane's whole send buffers at once: at 64 ranks of 4 MiB
# blocks that is 2 GiB (2dmesh, Y = 8) and 4 GiB (3dmesh, x = 4), more items than an int
# counts, while every message stays below INT_MAX (256 MiB and 1 GiB). They serve such a call
# (it once failed with MPI_ERR_COUNT), and in payload none that memory is scratch.
cat >"$tmp/mesh.ini" <<EOF
[run]
collectives = alltoall
algorithms = 2dmesh, 3dmesh
ranks = 64
sizes = 4MiB
payload = none
EOF
if "$COLLSIM" run "$tmp/mesh.ini" -o "$tmp/mesh.csv" --no-progress >"$tmp/mesh.out" 2>&1 &&
    grep -q '^0,alltoall,2dmesh,2dmesh,,64,4194304,' "$tmp/mesh.csv" &&
    grep -q '^1,alltoall,3dmesh,3dmesh,,64,4194304,' "$tmp/mesh.csv" && ! grep -q ERROR "$tmp/mesh.csv"; then
    pass "payload none: 2dmesh and 3dmesh Alltoall hold more than INT_MAX items of temporaries"
else
    fail "mesh Alltoall at 64 x 4 MiB: $(head -8 "$tmp/mesh.out")"
fi
[ "$failures" -eq 0 ]
