#!/bin/bash
# test_check.sh — determinism checks and order certificates of scenarios, end to end.
#
#  - `collsim check` on a small scenario: exit 0, every run's digest the same (two under the
#    default engine, collsim's own core, then SimGrid's core under each factory), and every
#    context factory listed that this SimGrid can run (found here independently, by running a
#    program under each with `collsim exec --cfg contexts/factory:NAME`); the runs say which
#    core they used; on a program whose output depends on its process id: exit 1, naming the
#    point, the fields and each run's value.
#  - `collsim run --certify`: one certificate per distinct reduction point, in sweep order, each
#    line equal to what `collsim order` prints for the same point (an independent path: no
#    scenario involved), counts above 64 capped and said so, fallbacks recorded; --against the
#    same file passes; a tampered expression or line fails (exit 3) naming the point with the
#    old and new expression; a scenario without reductions writes no certificate and says so.
#  - [output] certificates and bad input (exit 2, nothing run).
set -u
: "${COLLSIM:?}" "${top_srcdir:?}" "${top_builddir:?}" "${PROGRAMS_DIR:?}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# ---------------------------------------------------------------- collsim check

# Which factories can run a simulation here, asked without collsim check.
expected=""
for f in thread ucontext raw boost; do
    if "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 2 --cfg "contexts/factory:$f" \
        >/dev/null 2>&1; then
        expected="$expected $f"
    fi
done
factories=()
if [ "${COLLSIM_SANITIZED:-no}" = yes ]; then
    # the sanitizers understand only thread contexts (Makefile.am, check-sanitizers)
    expected=" thread"
    factories=(--factories thread)
fi
[ -n "$expected" ] || fail "no context factory runs a simulation here"

cat >"$tmp/small.ini" <<'EOF'
[run]
collectives = allreduce, bcast
algorithms = recursive_doubling, ring, binomial
ranks = 3, 4
sizes = 8, 4KiB
EOF
"$COLLSIM" check "$tmp/small.ini" -j 2 "${factories[@]}" >"$tmp/check.out" 2>"$tmp/check.err"
rc=$?
nruns=$(($(wc -w <<<"$expected") + 2))
if [ $rc -ne 0 ]; then
    fail "check of a deterministic scenario: exit $rc"
    cat "$tmp/check.out" "$tmp/check.err"
elif ! grep -qx "check small: 12 points, $nruns runs; context factories:$expected" "$tmp/check.out"; then
    fail "check does not list the factories$expected"
    cat "$tmp/check.out"
elif [ "$(grep -c '^run [0-9]* (.*): digest sha256:[0-9a-f]\{64\}$' "$tmp/check.out")" -ne $nruns ]; then
    fail "check prints $nruns digests"
    cat "$tmp/check.out"
elif [ "$(sed -n 's/^run .*digest //p' "$tmp/check.out" | sort -u | wc -l)" -ne 1 ]; then
    fail "check says identical but the digests differ"
    cat "$tmp/check.out"
elif ! grep -qx "deterministic: all $nruns runs identical, point by point" "$tmp/check.out"; then
    fail "check's verdict line"
    cat "$tmp/check.out"
elif [ "$(grep -c '^run [0-9]* (SimGrid core, factory [a-z]*): digest' "$tmp/check.out")" -ne $((nruns - 2)) ]; then
    fail "check does not run SimGrid's core under each factory"
    cat "$tmp/check.out"
else
    pass "check: $nruns identical runs, the own core twice and SimGrid's under factories$expected"
fi
# the digest check prints is the one collsim run prints
digest=$("$COLLSIM" run "$tmp/small.ini" -j 2 | sed -n 's/^digest //p')
grep -q "^run 1 (default engine): digest $digest$" "$tmp/check.out" &&
    pass "check's digest is collsim run's" || fail "check's digest differs from run's ($digest)"

cat >"$tmp/nondeterministic.ini" <<EOF
[run]
program = $PROGRAMS_DIR/nondeterministic.so
ranks = 2
EOF
"$COLLSIM" check "$tmp/nondeterministic.ini" "${factories[@]}" >"$tmp/nd.out" 2>"$tmp/nd.err"
rc=$?
if [ $rc -ne 1 ]; then
    fail "check of a non-deterministic program: exit $rc, expected 1"
    cat "$tmp/nd.out" "$tmp/nd.err"
elif ! grep -qx "point 0 (program nondeterministic.so P=2): bytes_moved differs" "$tmp/nd.out" ||
    ! grep -qx "point 0 (program nondeterministic.so P=2): output differs" "$tmp/nd.out" ||
    ! grep -q "^    run 2 (default engine, again): process [0-9]*$" "$tmp/nd.out" ||
    ! grep -qx "NOT deterministic: 1 of 1 points differ between runs" "$tmp/nd.out"; then
    fail "check does not name the differing fields with each run's value"
    cat "$tmp/nd.out"
else
    # the values printed are the runs' own: two different process ids
    pids=$(sed -n 's/^    run [12] (.*): process //p' "$tmp/nd.out" | sort -u | wc -l)
    [ "$pids" -eq 2 ] && pass "check: a non-deterministic program is caught, field by field" ||
        fail "check shows the same value for the differing runs"
fi

"$COLLSIM" check "$tmp/small.ini" --factories nosuch >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "unknown context factory 'nosuch'" "$tmp/err" &&
    pass "check: unknown factory, exit 2" || fail "check --factories nosuch: exit $rc"
"$COLLSIM" check "$tmp/small.ini" --set run.ranks=0 >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "\[run\] ranks" "$tmp/err" && pass "check: bad override, exit 2" ||
    fail "check --set run.ranks=0: exit $rc"

# ---------------------------------------------------------------- certificates

# A non-commutative user op: allreduce ring (commutative only) falls back; 16 B is one complex
# double, 2 KiB is 128 (capped at 64).
cat >"$tmp/reduce.ini" <<'EOF'
[run]
collectives = reduce, allreduce, scan
algorithms = reduce:in_order_binary, allreduce:ring, scan:linear, scan:recursive_doubling
ranks = 3, 5
sizes = 16, 2KiB
datatype = c_double_complex
op = complex_prod
commutative = false
EOF
"$COLLSIM" run "$tmp/reduce.ini" -j 2 --certify "$tmp/certs.txt" >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
if [ $rc -ne 0 ]; then
    fail "run --certify: exit $rc"
    cat "$tmp/run.err"
fi
grep -v '^#' "$tmp/certs.txt" | grep -v '^ ' >"$tmp/lines.txt"
# the points of the sweep, in its order: collective, algorithm, P, size
expected_points="reduce in_order_binary 3 1 0
reduce in_order_binary 3 64 128
reduce in_order_binary 5 1 0
reduce in_order_binary 5 64 128
allreduce ring 3 1 0
allreduce ring 3 64 128
allreduce ring 5 1 0
allreduce ring 5 64 128
scan linear 3 1 0
scan linear 3 64 128
scan linear 5 1 0
scan linear 5 64 128
scan recursive_doubling 3 1 0
scan recursive_doubling 3 64 128
scan recursive_doubling 5 1 0
scan recursive_doubling 5 64 128"
if [ "$(wc -l <"$tmp/lines.txt")" -ne 16 ]; then
    fail "run --certify wrote $(wc -l <"$tmp/lines.txt") certificates, expected 16"
    cat "$tmp/lines.txt"
fi
n=0
before=$failures
while read -r kind alg P count capped; do
    n=$((n + 1))
    line=$(sed -n "${n}p" "$tmp/lines.txt")
    root=""
    [ "$kind" = reduce ] && root=" --root 0"
    # the same point certified by collsim order (no scenario): the same line, except that run
    # says when it capped the count
    want=$("$COLLSIM" order "$kind" "$alg" -n "$P" --count "$count" $root --certificate)
    [ "$capped" -gt 0 ] && want=$(sed "s/ count=$count / count=$count capped_from=$capped /" <<<"$want")
    if [ "$line" != "$want" ]; then
        fail "certificate $n: '$line', collsim order says '$want'"
    fi
done <<<"$expected_points"
[ "$failures" -eq "$before" ] && pass "run --certify: 16 certificates in sweep order, equal to collsim order's"
[ "$(grep -c "^allreduce ring P=[35] count=.* op=noncommutative fallback: [a-z_]* (requires commutative op) order=rank " \
    "$tmp/lines.txt")" -eq 4 ] && pass "certificates record the fallback of a commutative-only algorithm" ||
    fail "no fallback recorded for allreduce ring with a non-commutative op"
[ "$(grep -c " order=rank " "$tmp/lines.txt")" -eq 16 ] && pass "every certificate: rank order" ||
    fail "a certificate shows another order than rank order"
grep -A5 "^scan linear P=5 count=1 " "$tmp/certs.txt" | grep -qxF "  rank 4 element 0 depth=4 ((((r0·r1)·r2)·r3)·r4)" &&
    pass "certificate file holds the expressions" || fail "no expressions in the certificate file"

"$COLLSIM" run "$tmp/reduce.ini" -j 2 -q --against "$tmp/certs.txt" 2>"$tmp/err"
rc=$?
# (the sanitizer build runs on SimGrid's thread factory, which warns that it ignores stack sizes)
[ $rc -eq 0 ] && ! grep -v 'Stack size modifications are ignored' "$tmp/err" | grep -q . &&
    pass "run --against its own certificates: exit 0" ||
    fail "run --against an unchanged file: exit $rc: $(cat "$tmp/err")"

# Tamper with one expression of scan linear P=5 count=1: rank 3's fold.
awk '
    /^scan linear P=5 count=1 / { in_point = 1; print; next }
    /^[^ ]/ { in_point = 0 }
    in_point && /^  rank 3 element 0 / { sub(/r0·r1/, "r1·r0") }
    { print }' "$tmp/certs.txt" >"$tmp/tampered.txt"
old=$(grep -A4 "^scan linear P=5 count=1 " "$tmp/tampered.txt" | sed -n 's/^  rank 3 element 0 //p')
new=$(grep -A4 "^scan linear P=5 count=1 " "$tmp/certs.txt" | sed -n 's/^  rank 3 element 0 //p')
if [ "$old" = "$new" ]; then
    fail "the test could not tamper with the file ($old)"
fi
"$COLLSIM" run "$tmp/reduce.ini" -j 2 -q --against "$tmp/tampered.txt" 2>"$tmp/err"
rc=$?
if [ $rc -ne 3 ]; then
    fail "run --against a tampered file: exit $rc, expected 3"
elif ! grep -qx "collsim: run: scan linear P=5 count=1 op=noncommutative differs from $tmp/tampered.txt" "$tmp/err" ||
    ! grep -qx "  first differing element: rank 3 element 0" "$tmp/err" ||
    ! grep -qxF "    old: $old" "$tmp/err" || ! grep -qxF "    new: $new" "$tmp/err" ||
    ! grep -qx "collsim: run: the order of 1 of 16 certified points differs from $tmp/tampered.txt" "$tmp/err"; then
    fail "run --against does not name the point with its old and new expression"
    cat "$tmp/err"
else
    pass "run --against a tampered expression: exit 3, point, element, old and new named"
fi
# A tampered summary line (another hash) of a point whose expressions are not in the file.
sed 's/^\(reduce in_order_binary P=3 count=64 capped_from=128 .*sha256=\)[0-9a-f]/\1x/' \
    "$tmp/certs.txt" >"$tmp/tampered2.txt"
"$COLLSIM" run "$tmp/reduce.ini" -j 2 -q --against "$tmp/tampered2.txt" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] &&
    grep -qx "collsim: run: reduce in_order_binary P=3 count=64 capped_from=128 root=0 op=noncommutative differs from $tmp/tampered2.txt" "$tmp/err" &&
    grep -q "^  old: .*sha256=x" "$tmp/err" &&
    pass "run --against a tampered line: exit 3, the point named" ||
    { fail "run --against a tampered line: exit $rc"; cat "$tmp/err"; }
# A point the file lacks (its line and its expressions).
awk '/^[^ ]/ { skip = /^scan recursive_doubling P=3 count=1 / } !skip' "$tmp/certs.txt" \
    >"$tmp/short.txt"
"$COLLSIM" run "$tmp/reduce.ini" -j 2 -q --against "$tmp/short.txt" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && [ "$(grep -c '^collsim: run: [a-z_]* [a-z_]* P=' "$tmp/err")" -eq 1 ] && grep -qx "collsim: run: scan recursive_doubling P=3 count=1 op=noncommutative is not in $tmp/short.txt" "$tmp/err" &&
    pass "run --against: a point missing from the file is named" ||
    { fail "run --against a file without a point: exit $rc"; cat "$tmp/err"; }

# Data movement only: no certificate, and it says so.
cat >"$tmp/bcast.ini" <<EOF
[run]
collectives = bcast
ranks = 4
sizes = 8
[output]
certificates = $tmp/bcast-certs.txt
EOF
"$COLLSIM" run "$tmp/bcast.ini" -q 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "no point of this scenario reduces" "$tmp/err" &&
    grep -q "^# no point of this scenario reduces" "$tmp/bcast-certs.txt" &&
    [ -z "$(grep -v '^#' "$tmp/bcast-certs.txt")" ]; then
    pass "[output] certificates of a scenario without reductions: no certificate, said so"
else
    fail "bcast scenario with [output] certificates: exit $rc"
    cat "$tmp/err" "$tmp/bcast-certs.txt"
fi
"$COLLSIM" run "$tmp/bcast.ini" -q --against "$tmp/bcast-certs.txt" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && pass "run --against an empty certificate file: exit 0" ||
    fail "run --against an empty certificate file: exit $rc"

# Bad input: nothing runs.
"$COLLSIM" run "$tmp/reduce.ini" --set output.certificates=/nonexistent/dir/c.txt >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "\[output\] certificates: directory '/nonexistent/dir' does not exist" "$tmp/err" &&
    pass "[output] certificates in a missing directory: exit 2" ||
    { fail "[output] certificates in a missing directory: exit $rc"; cat "$tmp/err"; }
"$COLLSIM" run "$tmp/reduce.ini" --against "$tmp/nosuch.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "collsim: run: --against: " "$tmp/err" &&
    pass "--against a missing file: exit 2 before running" ||
    fail "--against a missing file: exit $rc"
echo "not a certificate" >"$tmp/garbage.txt"
"$COLLSIM" run "$tmp/reduce.ini" --against "$tmp/garbage.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "garbage.txt:1: not a certificate line" "$tmp/err" &&
    pass "--against a file that is not certificates: exit 2, FILE:LINE" ||
    fail "--against garbage: exit $rc: $(cat "$tmp/err")"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
exit 0
