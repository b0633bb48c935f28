#!/bin/bash
# test_scenarios.sh — `collsim run` end to end on every shipped scenario.
#
# Each scenario's table must equal its golden file (tests/golden/scenarios/NAME.out); for the
# longest sweeps, one slice of their points (see slices below; COLLSIM_CHECK=full: all). How the
# golden files were derived, so that they are not just the program's own output:
#  - the check column: every point's result is compared by collsim with a sequential fold in
#    rank order of regenerated inputs (sim/bench/bench.c), and this test demands "ok" everywhere;
#  - the times: every row that has an analytic prediction must agree with it — within 6 % where
#    models/predict/ says its formula is exact for collsim's transport, within a factor
#    of 2 where it is an approximation (check_predictions) — and only then were the tables
#    frozen; any change to a simulated value changes the digest line.
# Then: README's first command's scenario run from the source tree as README says, byte-identical
# CSV and digest run after run, bad scenarios and overrides (exit 2, FILE:LINE), a failing
# check (exit 1) that keeps the finished rows.
set -u
: "${COLLSIM:?}" "${top_srcdir:?}" "${top_builddir:?}" "${PROGRAMS_DIR:?}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
golden=$top_srcdir/tests/golden/scenarios

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# The program of a program scenario lives in the build tree (VPATH builds, distcheck).
program_override() {
    local prog
    prog=$(sed -n 's/^program *= *//p' "$1")
    [ -n "$prog" ] && printf -- '--set\nrun.program=%s\n' "$top_builddir/scenarios/$prog"
}

# Rows with a prediction must agree with it. `collsim list models` says which formulas are
# exact for collsim's transport at every P (tests/coll/check_timing.c proves them to 1e-6 on
# CM02 without overheads and without SimGrid's 1 ns time rounding). The shipped scenarios run
# the default preset, ib-edr, whose per-message overheads the formulas fold into α (an
# approximation): there every row must be within a factor of 2 (exact=0). The network alone
# (the cm02 preset: no overheads, SimGrid's cross traffic on, blocks not always even) is
# checked below with exact=1: exact formulas within 6 %, approximations within a factor of 2.
check_predictions() {  # NAME CSV
    awk -F, -v name="$1" -v models="$tmp/models.txt" -v exact="${exact:-0}" -f "$top_srcdir/tests/scenarios/predictions.awk" "$2"
}

"$COLLSIM" list models >"$tmp/models.txt" 2>/dev/null ||
    fail "collsim list models"

# The sweeps that take minutes on a 2-core VM (hundreds of points, GiBs of real data) run one
# slice of their points in `make check` (collsim run --shard 1/N, which keeps every point's
# simulation as the whole run has it); COLLSIM_CHECK=full runs every point (HACKING.md).
slices() {  # NAME: N
    if [ "${COLLSIM_CHECK:-}" = full ]; then echo 1; return; fi
    case $1 in
    compare_decisions | compare_decisions_fattree) echo 16 ;;
    contention_alltoall_fattree_2to1 | contention_alltoall_fattree_full) echo 8 ;;
    compare_allgather | compare_alltoall | compare_allreduce) echo 6 ;;
    doubling_sum | node_aware_allreduce_*) echo 3 ;;
    *) echo 1 ;;
    esac
}

# A slice's table: its header names M, the golden table's point count, and every row of it is
# one of the golden table's rows (the columns' widths aside: a slice's table fits its own rows).
slice_agrees() {  # NAME N
    local name=$1 n=$2 total
    total=$(sed -n '1s/^scenario [^:]*: \([0-9]*\) points\{0,1\}$/\1/p' "$golden/$name.out")
    if ! head -1 "$tmp/$name.out" | grep -qx "scenario $name, shard 1/$n: [0-9]* of $total points\{0,1\}"; then
        fail "$name: slice header $(head -1 "$tmp/$name.out") against $total points"
        return
    fi
    local rows
    # (the decision scenarios' summaries of the libraries' choices need every point)
    rows=$(sed -n "2,\$p; /^libraries' choices/q" "$tmp/$name.out" | sed '$d' | grep -v '^[0-9]* points\{0,1\}: \|^shard 1/.* digest \|^---' |
        sed 's/  */ /g' | grep -vxFf <(sed 's/  */ /g' "$golden/$name.out"))
    if [ -z "$rows" ]; then
        pass "$name: slice 1/$n of $total points, every row as in its golden file"
    else
        fail "$name: rows not in its golden file:"; printf '%s\n' "$rows" | head -5 | sed 's/^/    /'
    fi
}

for ini in "$top_srcdir"/scenarios/*.ini; do
    name=$(basename "$ini" .ini)
    mapfile -t extra < <(program_override "$ini")
    n=$(slices "$name")
    [ "$n" -gt 1 ] && extra+=("--shard=1/$n")
    "$COLLSIM" run "$ini" -j 2 "${extra[@]}" -o "$tmp/$name.csv" >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    if [ "$rc" -ne 0 ]; then
        fail "$name: exit code $rc"; head -5 "$tmp/$name.err" | sed 's/^/    /'; continue
    fi
    if [ ! -f "$golden/$name.out" ]; then
        fail "$name: no golden file $golden/$name.out"; continue
    fi
    if [ "$n" -gt 1 ]; then
        slice_agrees "$name" "$n"
        sed -i '/^#/d' "$tmp/$name.csv" # the shard's provenance line, for collsim merge
    elif diff -u "$golden/$name.out" "$tmp/$name.out" >"$tmp/$name.diff"; then
        pass "$name: table equals its golden file"
    else
        fail "$name: table differs from its golden file"; head -20 "$tmp/$name.diff" | sed 's/^/    /'
    fi
    if awk -F, 'NR > 1 && $19 != "ok" { bad = 1 } END { exit bad }' "$tmp/$name.csv"; then
        pass "$name: every point checked ok against the sequential reference"
    else
        fail "$name: a point is not ok"
    fi
    if check_predictions "$name" "$tmp/$name.csv"; then
        pass "$name: simulated times agree with the analytic formulas"
    else
        fail "$name: simulated times disagree with the analytic formulas"
    fi
done

# The network alone: with no software overheads the exact formulas hold within 6 %.
for name in quickstart compare_bcast compare_reduce compare_alltoall; do
    n=$(slices "$name")
    slice=()
    [ "$n" -gt 1 ] && slice=("--shard=1/$n")
    "$COLLSIM" run "$top_srcdir/scenarios/$name.ini" -j 2 --set platform.network=cm02 "${slice[@]}" \
        -o "$tmp/$name-cm02.csv" >/dev/null 2>"$tmp/$name-cm02.err"
    sed -i '/^#/d' "$tmp/$name-cm02.csv"
    if exact=1 check_predictions "$name (cm02)" "$tmp/$name-cm02.csv"; then
        pass "$name on the cm02 preset: exact formulas within 6 %"
    else
        fail "$name on the cm02 preset: simulated times disagree with the analytic formulas"
    fi
done

# README's first command runs the quick start from the source tree; its table is the golden one.
first=$(sed -n '/^## Two commands/,/^## /p' "$top_srcdir/README.md" | grep -m1 'setup.sh')
case "$first" in
*"./collsim run scenarios/quickstart.ini"*) pass "README's first command runs the quick start" ;;
*) fail "README's first command is not the quick start: $first" ;;
esac
(cd "$top_srcdir" && "$COLLSIM" run scenarios/quickstart.ini) >"$tmp/readme.out" 2>"$tmp/readme.err"
if diff -u "$golden/quickstart.out" "$tmp/readme.out" >/dev/null; then
    pass "quick start as README says equals its golden table"
else
    fail "quick start as README says differs"; diff -u "$golden/quickstart.out" "$tmp/readme.out" | head -10
fi

# Run after run, -j 1 or -j 2: byte-identical CSV (wall time aside), JSON and digest.
q=$top_srcdir/scenarios/quickstart.ini
"$COLLSIM" run "$q" -q -o "$tmp/a.csv" --json "$tmp/a.json" >/dev/null 2>&1
"$COLLSIM" run "$q" -j 2 -o "$tmp/b.csv" --json "$tmp/b.json" >"$tmp/b.out" 2>&1
strip_wall() { sed 's/,[^,]*$//' "$1"; }
if [ -s "$tmp/a.csv" ] && diff <(strip_wall "$tmp/a.csv") <(strip_wall "$tmp/b.csv") >/dev/null; then
    pass "CSV identical run after run"
else
    fail "CSV differs between runs"
fi
if diff <(sed 's/"wall_s" *: *[0-9.e+-]*//' "$tmp/a.json") \
        <(sed 's/"wall_s" *: *[0-9.e+-]*//' "$tmp/b.json") >/dev/null; then
    pass "JSON identical run after run"
else
    fail "JSON differs between runs"
fi
if [ "$(grep '^digest' "$tmp/b.out")" = "$(grep '^digest' "$golden/quickstart.out")" ]; then
    pass "digest identical run after run"
else
    fail "digest differs"
fi

# Bad input: one message naming file and line (or the override), exit 2, nothing run.
expect_bad() {  # NAME EXPECTED-MESSAGE-PREFIX INI-TEXT [ARGS...]
    local name=$1 want=$2 text=$3; shift 3
    printf '%s\n' "$text" >"$tmp/$name.ini"
    "$COLLSIM" run "$tmp/$name.ini" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "$want" "$tmp/$name.err" && [ ! -s "$tmp/$name.out" ] &&
        [ "$(wc -l <"$tmp/$name.err")" -eq 1 ]; then
        pass "$name: exit 2 with '$want'"
    else
        fail "$name: exit $rc, stderr:"; sed 's/^/    /' "$tmp/$name.err" | head -3
    fi
}
expect_bad unknown_key "$tmp/unknown_key.ini:3: [run] colectives:" \
    $'[run]\nranks = 4\ncolectives = bcast'
expect_bad bad_size "$tmp/bad_size.ini:4: [run] sizes:" \
    $'[run]\nranks = 4\ncollectives = bcast\nsizes = 12XB'
expect_bad bad_root "$tmp/bad_root.ini:4: [run] root:" \
    $'[run]\nranks = 2, 8\ncollectives = reduce\nroot = 3'
expect_bad illegal_op "$tmp/illegal_op.ini:5: [run] op:" \
    $'[run]\nranks = 4\ncollectives = allreduce\ndatatype = double\nop = band'
expect_bad too_many_ranks "$tmp/too_many_ranks.ini:4: [run] ranks:" \
    $'[platform]\nfile = platforms/cluster.xml\n[run]\nranks = 2048\ncollectives = bcast'
expect_bad missing_platform "$tmp/missing_platform.ini:2: [platform] file:" \
    $'[platform]\nfile = no/such/platform.xml\n[run]\nranks = 4\ncollectives = bcast'
expect_bad bad_override "--set run.ranks=0:" \
    $'[run]\nranks = 4\ncollectives = bcast' --set run.ranks=0

# A failing check: a non-associative plugin op under two algorithms that bracket differently.
# Exit 1, the FAIL row with its detail, and the CSV keeps every finished row.
cat >"$tmp/fails.ini" <<EOF
[run]
ranks = 8
collectives = reduce
algorithms = linear, binomial
datatype = int
op = plugin:$PROGRAMS_DIR/userops.so:int_subtract
commutative = false
sizes = 16
EOF
"$COLLSIM" run "$tmp/fails.ini" -o "$tmp/fails.csv" >"$tmp/fails.out" 2>"$tmp/fails.err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q ' FAIL ' "$tmp/fails.out" && grep -q 'element' "$tmp/fails.out" &&
    [ "$(wc -l <"$tmp/fails.csv")" -eq 3 ]; then
    pass "a failing check exits 1, shows the difference and keeps both rows"
else
    fail "failing check: exit $rc"; sed 's/^/    /' "$tmp/fails.out" | head -12
fi

# A point past [run] wall_limit: an ERROR row that names the limit, exit 1, and the sweep goes on
# (a million flows at once through a 2:1 fat tree keep the solver busy far longer than 0.3 s;
# Bruck's Allgather, next, has its own row: done within the limit, or, on a machine as slow
# as a sanitizer build, stopped at it too)
cat >"$tmp/limit.ini" <<EOF
[platform]
file = fattree:levels=2,down=16,oversubscription=2
[run]
collectives = allgather
algorithms = direct, bruck
ranks = 256
sizes = 64KiB
payload = none
wall_limit = 0.3
EOF
"$COLLSIM" run "$tmp/limit.ini" -o "$tmp/limit.csv" >"$tmp/limit.out" 2>"$tmp/limit.err"
rc=$?
if [ "$rc" -eq 1 ] &&
    grep -q '^0,allgather,direct,,,256,.*,ERROR,stopped at the wall-time limit of 0.3 s' "$tmp/limit.csv" &&
    grep -q '^1,allgather,bruck,\(bruck,,256,.*,skipped,\|,,256,.*,ERROR,stopped at the wall-time limit of 0.3 s\)' "$tmp/limit.csv" &&
    grep -q "stopped at the wall-time limit of 0.3 s (\\[run\\] wall_limit)" "$tmp/limit.out"; then
    pass "a point past its wall-time limit is an ERROR row naming it; the next point runs"
else
    fail "wall_limit: exit $rc"; cat "$tmp/limit.csv"; tail -5 "$tmp/limit.out"
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
