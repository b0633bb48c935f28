#!/bin/bash
# test_accuracy.sh — the accuracy figures of `collsim run` and the reproducible selection mode.
#
#  1. scenarios/accuracy.ini: every point is ok, every Allreduce holds identical bits on every
#     rank, every point has its figures and a results digest; and for the Reduce algorithms
#     that fold sequentially (chain and pipeline_chain fold left, ((r0·r1)·r2)·…; linear's root
#     folds right, r0·(r1·(…·r(P-1))), as `collsim order reduce ALGORITHM -n 5` shows), the
#     reported max ulps and relative error equal those of an independent oracle
#     (tests/scenarios/accuracy_reference.c: that fold in double against an exact integer
#     sum), which must also show a real loss.
#  2. `algorithms = reproducible`: the same results, bit for bit (the same results_sha256 on
#     every row), on the generated cluster with block placement and on platforms/cluster.xml
#     with cyclic placement, CM02, another eager threshold, a per-message overhead and another
#     root, while the times differ. As a control, the decision table (binomial Reduce, which
#     brackets around the root) must give different bits when only the root changes — so the
#     comparison can tell. And `collsim exec --algorithm reproducible` pins the same algorithms.
set -u
: "${COLLSIM:?}" "${top_srcdir:?}" "${top_builddir:?}" "${ACCURACY_REFERENCE:?}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# CSV columns (scenarios/README.md): 2 collective, 4 algorithm_served, 6 ranks, 8 count,
# 14 time_max_s, 19 check, 22 inputs, 23 max_ulps, 24 max_rel_error, 25 identical,
# 26 results_sha256.
csv=$tmp/accuracy.csv
if "$COLLSIM" run "$top_srcdir/scenarios/accuracy.ini" -j 2 -o "$csv" >"$tmp/accuracy.out" 2>"$tmp/accuracy.err"; then
    pass "accuracy.ini runs"
else
    fail "accuracy.ini: exit $?"; head -5 "$tmp/accuracy.err"
fi
rows=$(($(wc -l <"$csv") - 1))
# (Reduce + Allreduce algorithms, as the registry lists them) x 3 rank counts x 2 inputs
algorithms=$("$COLLSIM" list collectives |
    awk '$1 == "reduce" || $1 == "allreduce" { n += $3 } END { print n + 0 }')
expected=$((algorithms * 3 * 2))
if [ "$algorithms" -ge 16 ] && [ "$rows" -eq "$expected" ] && awk -F, 'NR > 1 && ($19 != "ok" || $23 == "" || $24 == "" ||
        length($26) != 64 || $26 ~ /[^0-9a-f]/ || ($2 == "allreduce") != ($25 == "yes")) { bad = 1 }
        END { exit bad }' "$csv"; then
    pass "$rows points ok, measured, digested; every allreduce identical on every rank"
else
    fail "accuracy.ini rows: $rows (expected $expected), or a row not ok / unmeasured / not identical"
fi

# The left folds against the oracle.
compared=0
lossy=0
while IFS=, read -r algorithm ranks count inputs ulps rel; do
    fold=left
    [ "$algorithm" = linear ] && fold=right
    read -r want_ulps want_rel < <("$ACCURACY_REFERENCE" "$fold" "$inputs" "$ranks" "$count")
    if awk -v a="$ulps" -v b="$want_ulps" -v c="$rel" -v d="$want_rel" 'function off(x, y) {
            return (x - y > 1e-12 * (y > 0 ? y : -y)) || (y - x > 1e-12 * (y > 0 ? y : -y)) }
            BEGIN { exit off(a, b) || off(c, d) }'; then
        compared=$((compared + 1))
        awk -v r="$want_rel" 'BEGIN { exit !(r > 0.01) }' && lossy=$((lossy + 1))
    else
        fail "reduce $algorithm P=$ranks $inputs: collsim says $ulps ulps, $rel; the oracle $want_ulps ulps, $want_rel"
    fi
done < <(awk -F, 'NR > 1 && $2 == "reduce" && ($4 == "chain" || $4 == "linear" || $4 == "pipeline_chain") {
        print $4 "," $6 "," $8 "," $22 "," $23 "," $24 }' "$csv")
# 3 algorithms x 3 rank counts x 2 inputs; cancellation loses over 1 % at every P
if [ "$compared" -eq 18 ] && [ "$lossy" -ge 9 ]; then
    pass "sequential-fold Reduce errors equal the independent oracle's ($compared rows, $lossy with a real loss)"
else
    fail "oracle comparison: $compared of 18 rows agree, $lossy lossy"
fi

# Reproducible across virtual clusters.
cat >"$tmp/repro.ini" <<EOT
[platform]
file = generated
[run]
ranks = 7, 16
collectives = reduce, allreduce, reduce_scatter, reduce_scatter_block, scan, exscan
algorithms = reproducible
inputs = random:99, cancellation
sizes = 64, 8KiB
EOT
other=(--set platform.file=platforms/cluster.xml --set platform.placement=cyclic
       --set platform.network_model=CM02 --set platform.eager_threshold=1KiB
       --set platform.send_overhead=1us --set run.root=5)
run_repro() {  # NAME [ARGS...]
    local name=$1; shift
    (cd "$top_srcdir" && "$COLLSIM" run "$tmp/repro.ini" -q -j 2 -o "$tmp/$name.csv" "$@") \
        >"$tmp/$name.out" 2>"$tmp/$name.err" || fail "$name: exit $?"
}
run_repro here
run_repro there "${other[@]}"
run_repro table_here --set run.algorithms=default
run_repro table_there --set run.algorithms=default --set run.root=5
column() { awk -F, -v c="$2" 'NR > 1 { print $c }' "$tmp/$1.csv"; }
if [ -s "$tmp/here.csv" ] && [ "$(column here 26 | grep -c '^[0-9a-f]\{64\}$')" -eq 48 ] &&
    diff <(column here 26) <(column there 26) >/dev/null; then
    pass "reproducible: identical results digests on both clusters ($(column here 26 | sha256sum | cut -c1-16))"
else
    fail "reproducible: results differ between the clusters"
    diff <(paste -d' ' <(column here 4) <(column here 26)) <(paste -d' ' <(column there 4) <(column there 26)) | head -6
fi
if [ "$(paste -d' ' <(column here 14) <(column there 14) | awk '$1 != $2' | wc -l)" -ge 40 ]; then
    pass "reproducible: the times differ between the clusters"
else
    fail "reproducible: the times hardly differ, so the clusters were not different"
fi
if [ "$(column here 4 | sort -u | tr '\n' ' ')" = "in_order_binary recursive_doubling " ]; then
    pass "reproducible: served by in_order_binary (reduce) and recursive_doubling"
else
    fail "reproducible: served by $(column here 4 | sort -u | tr '\n' ' ')"
fi
if ! diff <(column table_here 26) <(column table_there 26) >/dev/null; then
    pass "control: the decision table's results move with the root"
else
    fail "control: the decision table gave the same bits; the comparison above proves nothing"
fi

# Certificates of reproducible points name the algorithm the mode pinned.
if (cd "$top_srcdir" && "$COLLSIM" run "$tmp/repro.ini" -q -j 2 --set run.ranks=7 \
        --set run.collectives=reduce,allreduce --certify "$tmp/repro.certs") >/dev/null 2>&1 &&
    [ "$(grep -c '^reduce in_order_binary P=7 ' "$tmp/repro.certs")" -ge 1 ] &&
    [ "$(grep -c '^allreduce recursive_doubling P=7 ' "$tmp/repro.certs")" -ge 1 ] &&
    ! grep -q 'not certified' "$tmp/repro.certs"; then
    pass "run --certify certifies the reproducible points' pinned algorithms"
else
    fail "run --certify on reproducible points:"; sed 's/^/    /' "$tmp/repro.certs" | grep -v '^     ' | head -6
fi

# The same mode for a user program: collsim exec --algorithm reproducible.
if "$COLLSIM" exec "$top_builddir/scenarios/seeds/par_blas2.so" -n 7 --algorithm reproducible \
        --stats >/dev/null 2>"$tmp/exec.err" &&
    grep -q 'MPI_Reduce: .* served by in_order_binary' "$tmp/exec.err" &&
    grep -q 'MPI_Allreduce: .* served by recursive_doubling' "$tmp/exec.err"; then
    pass "exec --algorithm reproducible pins Reduce and Allreduce"
else
    fail "exec --algorithm reproducible:"; sed 's/^/    /' "$tmp/exec.err" | head -5
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
