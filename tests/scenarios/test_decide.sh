#!/bin/bash
# test_decide.sh — the libraries' decisions (models/decisions/*.rules, collsim decide,
# --decision):
#  1. every line of every tests/decisions/LIB.expected (written BY HAND from the library's own
#     source, never from collsim's output; format in the files) is the choice
#     `collsim decide COLLECTIVE -n P --bytes B [--noncommutative] --decision LIB` reports;
#  2. the MPI entry points choose as the decision says: for `collsim run --decision LIB` and
#     `collsim exec PROGRAM --decision LIB --stats`, the algorithm that served each call is the
#     one `collsim decide` says runs;
#  3. refusals: an unknown collective, library or number is one line and exit 2.
# Only library names are compared in 1, so it passes in a build that lacks some of the collsim
# algorithms the files name (test_decide_registry.sh checks that every name resolves).
set -u
: "${COLLSIM:?}" "${top_srcdir:?}" "${top_builddir:?}"
seeds="$top_builddir/scenarios/seeds"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# ---- 1. the hand-written expectations
checked=0
for expected in "$top_srcdir"/tests/decisions/*.expected; do
    lib=$(basename "$expected" .expected)
    lineno=0
    while IFS= read -r line; do
        lineno=$((lineno + 1))
        line=${line%%#*}
        [[ $line =~ ^[[:space:]]*$ ]] && continue
        if ! [[ $line =~ ^[[:space:]]*([a-z_]+)[[:space:]]+([0-9]+)[[:space:]]+([0-9]+)[[:space:]]*(noncommutative)?[[:space:]]*-\>[[:space:]]*([^[:space:]]+)[[:space:]]*$ ]]; then
            fail "$expected:$lineno: not 'COLLECTIVE P BYTES [noncommutative] -> NAME'"
            continue
        fi
        coll=${BASH_REMATCH[1]} p=${BASH_REMATCH[2]} bytes=${BASH_REMATCH[3]}
        nc=${BASH_REMATCH[4]} want=${BASH_REMATCH[5]}
        args=("$coll" -n "$p" --bytes "$bytes" --decision "$lib")
        [[ -n $nc ]] && args+=(--noncommutative)
        if ! "$COLLSIM" decide "${args[@]}" >"$tmp/out" 2>"$tmp/err"; then
            fail "$lib: collsim decide ${args[*]}: exit $?: $(head -1 "$tmp/err")"
            continue
        fi
        got=$(awk '$1 == "algorithm:" { print $3 }' "$tmp/out")
        if [[ $got != "$want" ]]; then
            fail "$expected:$lineno: $coll P=$p bytes=$bytes ${nc:-commutative}: $lib picks" \
                 "'$got', expected '$want'"
            sed 's/^/    /' "$tmp/out"
        fi
        checked=$((checked + 1))
    done <"$expected"
done
[[ $checked -ge 30 ]] || fail "only $checked expected decisions were checked"
echo "ok: $checked hand-written decisions"

# ---- 2. the entry points choose what the decision says
# collsim decide's "runs:" line for a call: the algorithm the MPI entry point must use
runs() { "$COLLSIM" decide "$@" | awk '$1 == "runs:" { print $2 }'; }

for lib in ompi mpich; do
    # a benchmark sweep: each point's served algorithm (column 2 of the table)
    if ! "$COLLSIM" run "$top_srcdir/scenarios/quickstart.ini" --no-progress \
        --set run.algorithms=default --set run.ranks=6,16 --set run.sizes=8,64KiB,1MiB \
        --decision "$lib" >"$tmp/run.$lib" 2>"$tmp/run.$lib.err"; then
        fail "collsim run --decision $lib: $(head -3 "$tmp/run.$lib.err")"
        continue
    fi
    points=0
    while read -r coll served p size unit _; do
        bytes=$size
        [[ $unit == KiB ]] && bytes=$((size * 1024))
        [[ $unit == MiB ]] && bytes=$((size * 1048576))
        want=$(runs "$coll" -n "$p" --bytes "$bytes" --decision "$lib")
        [[ $served == "$want" ]] ||
            fail "run --decision $lib: allreduce P=$p $size $unit served by $served, decide says $want"
        points=$((points + 1))
    done < <(awk '$1 == "allreduce" && $3 ~ /^[0-9]+$/' "$tmp/run.$lib")
    [[ $points -eq 6 ]] || fail "run --decision $lib: $points points read, expected 6"
    # the same through the scenario key
    "$COLLSIM" run "$top_srcdir/scenarios/quickstart.ini" --no-progress \
        --set run.algorithms=default --set run.ranks=6,16 --set run.sizes=8,64KiB,1MiB \
        --set run.decision="$lib" >"$tmp/key.$lib" 2>"$tmp/key.$lib.err"
    cmp -s "$tmp/run.$lib" "$tmp/key.$lib" ||
        fail "run.decision = $lib and --decision $lib give different tables"

    # a program: par_blas1 calls MPI_Allreduce and MPI_Reduce on one float
    if ! "$COLLSIM" exec "$seeds/par_blas1.so" -n 6 --decision "$lib" \
        --stats >"$tmp/exec.$lib" 2>"$tmp/exec.$lib.err"; then
        fail "exec --decision $lib: $(head -3 "$tmp/exec.$lib.err")"
        continue
    fi
    for coll in allreduce reduce; do
        want=$(runs "$coll" -n 6 --bytes 4 --count 1 --decision "$lib")
        mpi="MPI_${coll^}"
        grep -q "^collsim: $mpi: [0-9]* calls* served by $want\$" "$tmp/exec.$lib.err" ||
            fail "exec --decision $lib: $mpi not served by $want: $(grep "$mpi:" "$tmp/exec.$lib.err")"
    done
done
echo "ok: the entry points choose as collsim decide says (run, scenario key, exec)"

# a forced algorithm still wins for its collective
"$COLLSIM" exec "$seeds/par_blas1.so" -n 6 --decision ompi \
    --algorithm allreduce=reduce_bcast --stats >/dev/null 2>"$tmp/forced.err"
grep -q "MPI_Allreduce: 1 call served by reduce_bcast" "$tmp/forced.err" ||
    fail "--algorithm allreduce=reduce_bcast lost to --decision ompi: $(grep Allreduce "$tmp/forced.err")"

# the default stays collsim's own rules
"$COLLSIM" run "$top_srcdir/scenarios/quickstart.ini" --no-progress --set run.algorithms=default \
    >"$tmp/plain" 2>&1
"$COLLSIM" run "$top_srcdir/scenarios/quickstart.ini" --no-progress --set run.algorithms=default \
    --decision collsim >"$tmp/collsim" 2>&1
cmp -s "$tmp/plain" "$tmp/collsim" || fail "--decision collsim changed the table"

# ---- 3. the side-by-side view and the refusals
"$COLLSIM" decide allreduce -n 64 --bytes 65536 >"$tmp/all" 2>&1 || fail "decide without --decision"
for lib in collsim ompi mpich; do
    grep -q "^  $lib " "$tmp/all" || fail "decide without --decision has no line for $lib"
done
refuse() {
    local what=$1; shift
    if "$COLLSIM" decide "$@" >"$tmp/refused.out" 2>"$tmp/refused.err"; then
        fail "$what: accepted"
    else
        rc=$?
        [[ $rc -eq 2 ]] || fail "$what: exit $rc, expected 2"
        [[ $(wc -l <"$tmp/refused.err") -eq 1 ]] || fail "$what: not one line: $(cat "$tmp/refused.err")"
        [[ ! -s $tmp/refused.out ]] || fail "$what: wrote to stdout"
    fi
}
refuse "unknown collective" frobnicate -n 4 --bytes 8 --decision ompi
refuse "unknown library" allreduce -n 4 --bytes 8 --decision nosuchmpi
refuse "bad bytes" allreduce -n 4 --bytes 12x --decision ompi
refuse "negative bytes" allreduce -n 4 --bytes -8
refuse "no ranks" allreduce --bytes 8
refuse "bad count" allreduce -n 4 --bytes 8 --count many
if "$COLLSIM" exec "$seeds/par_blas1.so" -n 2 --decision nosuchmpi \
    >/dev/null 2>"$tmp/exec.err"; then
    fail "exec --decision nosuchmpi accepted"
else
    grep -q "unknown library 'nosuchmpi'" "$tmp/exec.err" || fail "exec: $(cat "$tmp/exec.err")"
fi
printf '[run]\ncollectives = barrier\nranks = 2\ndecision = nosuchmpi\n' >"$tmp/bad.ini"
"$COLLSIM" run "$tmp/bad.ini" >/dev/null 2>"$tmp/bad.err" && fail "run.decision = nosuchmpi accepted"
grep -q "bad.ini:4: \[run\] decision" "$tmp/bad.err" || fail "run.decision error: $(cat "$tmp/bad.err")"

if [[ $failures -ne 0 ]]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "ok: collsim decide"
