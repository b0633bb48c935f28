#!/bin/bash
# test_point_outputs.sh — a trace and a timeline per point of a scenario ([output] trace and
# timeline, collsim run --trace/--timeline; sim/trace/point_outputs.h) and the progress lines
# of a sweep whose stderr is not a terminal (sim/report/progress_lines.h):
#  - the exact list of files a small program sweep and a small collective sweep produce;
#  - a point's JSON read back (tests/exec/trace_inspect): its flows are the point's messages
#    in the CSV; the same bytes from -j 1 and -j 2;
#  - standard output and the CSV the same with or without traces and progress lines;
#  - bad paths refused with exit 2 before any point runs;
#  - progress lines: on stderr only, one per point with COLLSIM_PROGRESS_SECONDS=0, in the
#    documented form; none with --quiet or --no-progress.
set -u
: "${COLLSIM:?}" "${top_builddir:?}" "${PROGRAMS_DIR:?}"
failures=0
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
# expect NAME GOT WANT
expect() { if [ "$2" = "$3" ]; then pass "$1: $2"; else fail "$1: got '$2', want '$3'"; fi; }
field() { sed -n "s/^$1=//p" "$2"; }
inspect="$top_builddir/tests/exec/trace_inspect"
strip_wall() { sed 's/,[^,]*$//' "$1"; }

mkdir "$tmp/out" "$tmp/out2"
cat >"$tmp/prog.ini" <<INI
[scenario]
name = traced
[run]
program = $PROGRAMS_DIR/trace_mix.so
ranks = 2, 4
[output]
trace = $tmp/out/t.json
timeline = $tmp/out/tl.svg
INI

# --- a program sweep with both keys
"$COLLSIM" run "$tmp/prog.ini" -o "$tmp/prog.csv" >"$tmp/prog.out" 2>"$tmp/prog.err" ||
    fail "program sweep: exit $?"
expect "program sweep: files" "$(cd "$tmp/out" && ls | tr '\n' ' ')" \
    "t-000-trace_mix-P2.json t-001-trace_mix-P4.json tl-000-trace_mix-P2.svg tl-001-trace_mix-P4.svg "
"$inspect" json "$tmp/out/t-001-trace_mix-P4.json" >"$tmp/json.txt" || fail "the JSON does not parse"
messages=$(awk -F, 'NR == 3 { print $17 }' "$tmp/prog.csv")
[ -n "$messages" ] && [ "$messages" -gt 0 ] || fail "no message count in the CSV"
expect "point 1: tracks = ranks" "$(field ranks "$tmp/json.txt")" 4
expect "point 1: flows = the CSV's messages" "$(field flow_starts "$tmp/json.txt")" "$messages"
expect "point 1: every flow finishes" "$(field flows_matched "$tmp/json.txt")" yes
expect "point 1: slices nested" "$(field slices_nested "$tmp/json.txt")" yes
head -c 5 "$tmp/out/tl-000-trace_mix-P2.svg" | grep -q '<?xml' && pass "timeline is SVG" ||
    fail "timeline is not SVG"

# the same files from -j 2, the same table and CSV as without any trace
sed "s|$tmp/out/|$tmp/out2/|" "$tmp/prog.ini" >"$tmp/prog2.ini"
"$COLLSIM" run "$tmp/prog2.ini" -j 2 >/dev/null 2>&1 || fail "-j 2: exit $?"
for f in "$tmp"/out/*; do
    cmp -s "$f" "$tmp/out2/$(basename "$f")" || fail "$(basename "$f") differs between runs"
done
pass "the same bytes from -j 1 and -j 2"
grep -v '^\[output\]\|^trace\|^timeline' "$tmp/prog.ini" >"$tmp/plain.ini"
"$COLLSIM" run "$tmp/plain.ini" -o "$tmp/plain.csv" >"$tmp/plain.out" 2>/dev/null
cmp -s "$tmp/plain.out" "$tmp/prog.out" && pass "table unchanged by traces" ||
    fail "table changed by traces"
diff -q <(strip_wall "$tmp/plain.csv") <(strip_wall "$tmp/prog.csv") >/dev/null &&
    pass "CSV unchanged by traces" || fail "CSV changed by traces"

# --- a collective sweep, --trace on the command line (a barrier has no size)
cat >"$tmp/coll.ini" <<INI
[run]
collectives = allreduce, barrier
algorithms = ring, default
ranks = 4
sizes = 8, 64KiB
INI
mkdir "$tmp/c"
"$COLLSIM" run "$tmp/coll.ini" -q --trace "$tmp/c/c.paje" >/dev/null 2>"$tmp/coll.err" ||
    fail "collective sweep: exit $?"
expect "collective sweep: files" "$(cd "$tmp/c" && ls | tr '\n' ' ')" \
    "c-000-allreduce-ring-P4-8B.paje c-001-allreduce-ring-P4-64KiB.paje c-002-allreduce-default-P4-8B.paje c-003-allreduce-default-P4-64KiB.paje c-004-barrier-default-P4.paje "
p="$tmp/c/c-001-allreduce-ring-P4-64KiB.paje"
[ "$(grep -c '^9 ' "$p")" = "$(grep -c '^10 ' "$p")" ] && [ "$(grep -c '^9 ' "$p")" -gt 0 ] &&
    pass "paje: links start and end" || fail "paje: links unbalanced"

# --- bad paths: one message, exit 2, nothing run (the CSV is not even created)
bad() {
    local name=$1; shift
    "$COLLSIM" run "$tmp/coll.ini" -o "$tmp/bad.csv" "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
    local rc=$?
    if [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/bad.err")" = 1 ] && [ ! -e "$tmp/bad.csv" ] &&
        [ ! -s "$tmp/bad.out" ]; then
        pass "$name: exit 2, one line: $(cat "$tmp/bad.err")"
    else
        fail "$name: exit $rc, stderr:"; sed 's/^/    /' "$tmp/bad.err"
    fi
}
bad "--trace with an unknown extension" --trace "$tmp/c/t.txt"
bad "--timeline with an unknown extension" --timeline "$tmp/c/t.gif"
bad "--trace in a missing directory" --trace "$tmp/nowhere/t.json"
bad "[output] trace with an unknown extension" --set "output.trace=$tmp/c/t.csv"
bad "[output] timeline in a missing directory" --set "output.timeline=$tmp/nowhere/t.svg"
if [ "$(id -u)" != 0 ]; then
    mkdir "$tmp/ro" && chmod a-w "$tmp/ro"
    bad "--timeline in a read-only directory" --timeline "$tmp/ro/t.png"
fi

# --- progress lines
COLLSIM_PROGRESS_SECONDS=0 "$COLLSIM" run "$tmp/coll.ini" -j 2 -o "$tmp/p1.csv" \
    >"$tmp/p1.out" 2>"$tmp/p1.err" || fail "progress run: exit $?"
"$COLLSIM" run "$tmp/coll.ini" -j 2 --no-progress -o "$tmp/p0.csv" >"$tmp/p0.out" \
    2>"$tmp/p0.err" || fail "run without progress: exit $?"
# the sanitizer build runs SimGrid's thread factory, which notes once per point that it
# ignores collsim's stack size: not collsim's output
for f in "$tmp/p0.err" "$tmp/p1.err"; do
    sed -i '/Stack size modifications are ignored by thread factory/d' "$f"
done
cmp -s "$tmp/p0.out" "$tmp/p1.out" && pass "stdout unchanged by progress lines" ||
    fail "stdout changed by progress lines"
diff -q <(strip_wall "$tmp/p0.csv") <(strip_wall "$tmp/p1.csv") >/dev/null &&
    pass "CSV unchanged by progress lines" || fail "CSV changed by progress lines"
[ ! -s "$tmp/p0.err" ] && pass "--no-progress: no lines" || fail "--no-progress: stderr not empty"
expect "a line per point" "$(wc -l <"$tmp/p1.err")" 5
d='([0-9]+h[0-9]{2}m[0-9]{2}s|[0-9]+m[0-9]{2}s|[0-9]+s)'
expect "lines 1-4 in the documented form" "$(head -4 "$tmp/p1.err" |
    grep -cE "^collsim: run: point [1-4]/5 done, $d elapsed, ETA $d\$")" 4
expect "last line without ETA" "$(tail -1 "$tmp/p1.err" |
    grep -cE "^collsim: run: point 5/5 done, $d elapsed\$")" 1
expect "points counted in order" "$(sed -E 's/.*point ([0-9]+)\/.*/\1/' "$tmp/p1.err" | tr -d '\n')" \
    12345
COLLSIM_PROGRESS_SECONDS=0 "$COLLSIM" run "$tmp/coll.ini" -q >"$tmp/q.out" 2>"$tmp/q.err"
sed -i '/Stack size modifications are ignored by thread factory/d' "$tmp/q.err"
[ ! -s "$tmp/q.err" ] && pass "--quiet: no lines" || fail "--quiet: stderr not empty"

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "all point output tests passed"
