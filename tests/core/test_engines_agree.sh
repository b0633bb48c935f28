#!/bin/bash
# test_engines_agree.sh — collsim's own core gives SimGrid's results, bit for bit.
#
# The same scenarios and programs run under --engine simgrid and --engine collsim, and every
# output is compared byte for byte (the CSV's wall_s column aside): every simulated time
# written with 17 significant digits, message and byte counts, results, the digest, the
# programs' own output and their trace files. The cases cover what the core has to reproduce:
#  - contention: an Alltoall on a 2:1 fat tree, an Allreduce on a torus, incasts (gather,
#    reduce, the rendezvous handshakes of large messages), flows sharing links at unequal
#    latencies (dragonfly);
#  - multi-core nodes: ranks sharing a NIC and a memory bus, node-aware algorithms;
#  - the three network models a preset can pick (CM02, LV08 with its factors and cross traffic,
#    SMPI with piecewise factors), per-message overheads and NIC gaps, reduction compute time;
#  - SimGrid's lazy bookkeeping: a transfer's progress brought up to date when its receiver
#    takes it from a mailbox with a permanent receiver;
#  - programs: nonblocking collectives on flows, under both progress models (asynchronous
#    progress computes while transfers fly), the textbook seeds, a deadlock report, traces.
# Each case also checks that the run really used the core it asked for (--stats names it).
set -u
: "${COLLSIM:?}" "${top_srcdir:?}" "${top_builddir:?}" "${PROGRAMS_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
cases=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# the CSV without its last column (wall_s), nor a shard's provenance line (which names the
# overrides, the engine among them)
strip_wall() { sed '/^#/d; s/,[^,]*$//' "$1"; }

# --shard=1/N for a case whose whole sweep takes minutes (every point's simulation is as in the
# whole run); COLLSIM_CHECK=full runs every point
slice() { [ "${COLLSIM_CHECK:-}" = full ] || echo "--shard=1/$1"; }

# scenario NAME FILE [--set K=V ...]: run under both cores, compare CSV and table
scenario() {
    local name=$1 file=$2
    shift 2
    cases=$((cases + 1))
    for engine in simgrid collsim; do
        "$COLLSIM" run "$file" --no-progress --set "run.engine=$engine" "$@" \
            -o "$tmp/$name.$engine.csv" >"$tmp/$name.$engine.out" 2>"$tmp/$name.$engine.err"
        echo $? >"$tmp/$name.$engine.rc"
    done
    if ! cmp -s "$tmp/$name.simgrid.rc" "$tmp/$name.collsim.rc"; then
        fail "$name: exit $(cat "$tmp/$name.simgrid.rc") under simgrid, $(cat "$tmp/$name.collsim.rc") under collsim: $(tail -2 "$tmp/$name.collsim.err")"
        return
    fi
    local rows
    rows=$(($(grep -vc '^#' "$tmp/$name.simgrid.csv") - 1))
    if [ "$rows" -lt 1 ]; then
        fail "$name: no row ($(tail -2 "$tmp/$name.simgrid.err"))"
    elif ! diff <(strip_wall "$tmp/$name.simgrid.csv") <(strip_wall "$tmp/$name.collsim.csv") \
        >"$tmp/$name.diff"; then
        fail "$name: the cores differ on $(grep -c '^>' "$tmp/$name.diff") of $rows points:"
        head -4 "$tmp/$name.diff"
    elif ! cmp -s "$tmp/$name.simgrid.out" "$tmp/$name.collsim.out"; then
        fail "$name: same CSV, different tables: $(diff "$tmp/$name.simgrid.out" "$tmp/$name.collsim.out" | head -3)"
    else
        pass "$name: $rows points identical ($(grep -o 'digest sha256:.\{12\}' "$tmp/$name.collsim.out"))"
    fi
}

# program NAME SO -n P [OPTIONS...] [-- ARGS]: exec under both cores, compare stdout, stderr
# (deadlock reports and warnings; the --stats line aside) and the trace
program() {
    local name=$1 so=$2
    shift 2
    cases=$((cases + 1))
    for engine in simgrid collsim; do
        "$COLLSIM" exec "$so" --engine "$engine" --stats --trace "$tmp/$name.$engine.json" "$@" \
            >"$tmp/$name.$engine.out" 2>"$tmp/$name.$engine.err"
        echo $? >>"$tmp/$name.$engine.out"
        grep -q "engine $engine\$" "$tmp/$name.$engine.err" ||
            fail "$name: --engine $engine ran $(grep -o 'engine [a-z]*$' "$tmp/$name.$engine.err")"
        grep -v '^collsim: ranks .* engine [a-z]*$' "$tmp/$name.$engine.err" |
            grep -v '^  [a-z_]* served ' >"$tmp/$name.$engine.msgs"
    done
    if ! cmp -s "$tmp/$name.simgrid.out" "$tmp/$name.collsim.out"; then
        fail "$name: output differs: $(diff "$tmp/$name.simgrid.out" "$tmp/$name.collsim.out" | head -4)"
    elif ! cmp -s "$tmp/$name.simgrid.msgs" "$tmp/$name.collsim.msgs"; then
        fail "$name: messages differ: $(diff "$tmp/$name.simgrid.msgs" "$tmp/$name.collsim.msgs" | head -4)"
    elif ! cmp -s "$tmp/$name.simgrid.json" "$tmp/$name.collsim.json"; then
        fail "$name: traces differ ($(wc -c <"$tmp/$name.simgrid.json") and $(wc -c <"$tmp/$name.collsim.json") bytes)"
    else
        pass "$name: output, messages and trace identical ($(head -1 "$tmp/$name.collsim.out"))"
    fi
}

s=$top_srcdir/scenarios
scenario quickstart "$s/quickstart.ini"
scenario fattree_alltoall "$s/contention_alltoall_fattree_2to1.ini" $(slice 5)
scenario torus_allreduce "$s/contention_allreduce_torus.ini"
scenario node_aware "$s/node_aware_allreduce_8cores.ini" --set run.sizes=8,64KiB
scenario cyclic_cores "$s/quickstart.ini" --set platform.file=flat:hosts=4,cores=4 \
    --set platform.placement=cyclic --set run.ranks=13,16 \
    --set run.collectives=bcast,reduce,allgather,alltoall,gather,scatter,barrier \
    --set run.algorithms=default,smp,linear --set run.sizes=8,24KiB
scenario dragonfly "$s/quickstart.ini" \
    --set platform.file=dragonfly:groups=3,chassis=2,routers=3,nodes=2 --set run.ranks=24,36 \
    --set run.algorithms=ring,recursive_doubling,rabenseifner,smp --set run.sizes=8,1MiB
scenario gather_scatter "$s/compare_gather_scatter.ini" --set run.ranks=16 \
    --set run.sizes=8,64KiB
scenario lv08 "$s/quickstart.ini" --set platform.network=lv08 --set run.ranks=7,16 \
    --set run.algorithms=default,ring,linear,recursive_doubling
scenario smpi_factors "$s/quickstart.ini" --set platform.network=smpi --set run.ranks=7,16 \
    --set run.sizes=8,1KiB,64KiB,1MiB --set run.algorithms=default,ring,linear
scenario sizes_only "$s/contention_alltoall_fattree_2to1.ini" --set run.payload=none \
    --set run.sizes=1MiB --set run.algorithms=pairwise,bruck,linear
scenario accuracy "$s/accuracy.ini" --set run.ranks=5,8
scenario seeds "$s/seed_complex_product.ini"
# a rank takes from its inbox a transfer already started for it: SimGrid reads what remains of
# its flow there, a lazy update that rounds the flow's later progress differently
scenario inbox_remains "$s/compare_decisions.ini" --set run.collectives=allreduce \
    --set run.algorithms=recexch --set run.ranks=32 --set run.sizes=16KiB

nb_so="$tmp/nonblocking.so"
cc -std=c11 -shared -fPIC -I"$top_srcdir/src" "$top_srcdir/tests/realmpi/nonblocking.c" \
    -o "$nb_so" || fail "cannot build tests/realmpi/nonblocking.c"
program nonblocking "$nb_so" -n 5
program nonblocking_async "$nb_so" -n 8 --progress async --platform flat:hosts=4,cores=2
program pingpong "$PROGRAMS_DIR/pingpong.so" -n 2 -- 100000 5
program trace_mix "$PROGRAMS_DIR/trace_mix.so" -n 6
program deadlock "$PROGRAMS_DIR/deadlock.so" -n 4
program par_blas2 "$top_builddir/scenarios/seeds/par_blas2.so" -n 5 --network ib-hdr
program reduce_compute "$PROGRAMS_DIR/reduce_time.so" -n 16 --platform flat:hosts=4,cores=4 \
    -- 1048576

echo "$cases cases, $failures failure(s)"
[ "$failures" -eq 0 ]
