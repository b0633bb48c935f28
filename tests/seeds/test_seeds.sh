#!/bin/bash
# test_seeds.sh — the textbook seed programs (scenarios/seeds/*.so) run through `collsim exec`
# at several rank counts; every line that does not report a time must equal what
# tests/seeds/reference.c, a sequential program without MPI, computes for the same program and
# P. Time lines ("... time = T") must show T with nine decimals and be the same run after run.
set -u
: "${COLLSIM:?}" "${top_srcdir:?}" "${top_builddir:?}"
seeds="$top_builddir/scenarios/seeds"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

if ! cc -std=c11 -Wall -Wextra -O1 "$top_srcdir/tests/seeds/reference.c" -o "$tmp/reference" \
    2>"$tmp/reference.err"; then
    echo "FAIL: cannot build the reference:"; cat "$tmp/reference.err"; exit 1
fi

# check NAME PROGRAM P [ARGS...]: run PROGRAM.so on P ranks and compare with the reference.
check() {
    local name=$1 prog=$2 p=$3; shift 3
    local so="$seeds/$prog.so"
    if [ ! -f "$so" ]; then fail "$name: $so not built"; return; fi
    "$COLLSIM" exec "$so" -n "$p" -- "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    if [ "$rc" -ne 0 ]; then
        fail "$name: exit code $rc"; sed 's/^/    /' "$tmp/$name.err" | head -5; return
    fi
    "$tmp/reference" "$prog" "$p" "$@" >"$tmp/$name.expected"
    grep -v 'time =' "$tmp/$name.out" >"$tmp/$name.values"
    if ! diff -u "$tmp/$name.expected" "$tmp/$name.values" >"$tmp/$name.diff"; then
        fail "$name: values differ from the reference"; sed 's/^/    /' "$tmp/$name.diff" | head -20
        return
    fi
    # every time line: "time = " followed by a number with exactly nine decimals
    local bad
    bad=$(grep -oE 'time = [^ ]*' "$tmp/$name.out" | grep -vE '^time = [0-9]+\.[0-9]{9}$' || true)
    if [ -n "$bad" ]; then fail "$name: badly formatted time line: $bad"; return; fi
    pass "$name"
}

for p in 1 2 3 8; do
    check "complex_product-commute-$p" complex_product "$p" commute
    check "complex_product-noncommute-$p" complex_product "$p" noncommute
    check "smod5-$p" smod5 "$p"
    check "maxloc-$p" maxloc "$p"
    check "minloc-$p" minloc "$p"
    check "par_blas1-$p" par_blas1 "$p"
    check "par_blas2-$p" par_blas2 "$p"
    check "allreduce_from_reduce_bcast-$p" allreduce_from_reduce_bcast "$p"
    check "barrier_from_messages-$p" barrier_from_messages "$p"
    check "gather_from_messages-$p" gather_from_messages "$p"
    check "bcast_vs_scatter-$p" bcast_vs_scatter "$p"
    check "recv_from_bcast-$p" recv_from_bcast "$p"
done
# the textbook's doubling scheme: powers of two only
for p in 1 2 8; do
    check "doubling_sum-$p" doubling_sum "$p"
done
# non-default arguments
check "par_blas1-m7-5" par_blas1 5 7
check "par_blas2-m3-n9-5" par_blas2 5 3 9
check "allreduce_from_reduce_bcast-n17-5" allreduce_from_reduce_bcast 5 17
check "doubling_sum-n1000-4" doubling_sum 4 1000

# Each time line is printed by every rank: there must be P of each.
for kind in model reduce; do
    n=$(grep -c "^rank= [0-9]* $kind time = " "$tmp/doubling_sum-8.out")
    if [ "$n" -eq 8 ]; then pass "doubling_sum-8: 8 '$kind time' lines"; else
        fail "doubling_sum-8: $n '$kind time' lines, expected 8"; fi
done

# Same program, same P: byte-identical output, time lines included.
for prog in doubling_sum allreduce_from_reduce_bcast barrier_from_messages; do
    "$COLLSIM" exec "$seeds/$prog.so" -n 8 >"$tmp/$prog-again.out" 2>/dev/null
    if cmp -s "$tmp/$prog-8.out" "$tmp/$prog-again.out"; then pass "$prog: two runs identical"
    else fail "$prog: two runs differ"; diff "$tmp/$prog-8.out" "$tmp/$prog-again.out" | head -5; fi
done

# The doubling scheme refuses a rank count that is not a power of two, and says why.
"$COLLSIM" exec "$seeds/doubling_sum.so" -n 3 >"$tmp/refuse.out" 2>"$tmp/refuse.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q "power-of-two number of ranks (1, 2, 4, 8, ...), not 3" "$tmp/refuse.err"
then pass "doubling_sum refuses 3 ranks (exit code $rc)"
else fail "doubling_sum -n 3: exit code $rc, stderr: $(head -3 "$tmp/refuse.err")"; fi

# A wrong argument is refused too.
"$COLLSIM" exec "$seeds/complex_product.so" -n 2 -- sideways >/dev/null 2>"$tmp/badarg.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q "must be 'commute' or 'noncommute', not 'sideways'" "$tmp/badarg.err"
then pass "complex_product refuses a bad argument"
else fail "complex_product sideways: exit code $rc"; fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
