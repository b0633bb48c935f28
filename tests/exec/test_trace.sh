#!/bin/bash
# test_trace.sh — `collsim exec --trace` and `--timeline` end to end (sim/trace/): the JSON
# trace read back with json-glib (tests/exec/trace_inspect) has a track per rank and a flow per
# message of the run's statistics, its slices in order and nested; the Paje trace has its
# definitions, a container per rank, balanced states and a link per message, in time order;
# the timeline SVG, parsed as XML, has a row per rank (a row per group beyond 64 ranks), a
# line per message and a label per axis tick; PNG and PDF have their signatures; every file is
# the same bytes on a second run; bad paths, unknown extensions and SimGrid's own tracing are
# refused with one message and exit 2 before anything runs, leaving other files alone.
set -u
: "${COLLSIM:?}" "${PROGRAMS_DIR:?}" "${top_builddir:?}"
inspect="$top_builddir/tests/exec/trace_inspect"
prog="$PROGRAMS_DIR/trace_mix.so"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
# expect NAME GOT WANT
expect() { if [ "$2" = "$3" ]; then pass "$1: $2"; else fail "$1: got '$2', want '$3'"; fi; }
# field KEY FILE: the value of KEY=VALUE in FILE
field() { sed -n "s/^$1=//p" "$2"; }

# run NAME ARGS...: collsim exec PROG with ARGS and --stats; sets $messages
run() {
    local name=$1; shift
    if ! "$COLLSIM" exec "$prog" --stats "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
        fail "$name: exit code $?"; sed 's/^/    /' "$tmp/$name.err" | head -5
    fi
    messages=$(sed -n 's/.* messages \([0-9]*\) .*/\1/p' "$tmp/$name.err")
}

# --- JSON
run json -n 4 --trace "$tmp/t.json"
"$inspect" json "$tmp/t.json" >"$tmp/json.txt" || fail "the JSON trace does not parse"
expect "json: tracks (ranks)" "$(field ranks "$tmp/json.txt")" 4
expect "json: flow starts = messages" "$(field flow_starts "$tmp/json.txt")" "$messages"
expect "json: flow finishes = messages" "$(field flow_finishes "$tmp/json.txt")" "$messages"
expect "json: every flow finishes" "$(field flows_matched "$tmp/json.txt")" yes
expect "json: slices in time order per track" "$(field slices_ordered "$tmp/json.txt")" yes
expect "json: slices nested" "$(field slices_nested "$tmp/json.txt")" yes
grep -q '"algorithm":"' "$tmp/t.json" || fail "json: no slice names its algorithm"
run json2 -n 4 --trace "$tmp/t2.json"
cmp -s "$tmp/t.json" "$tmp/t2.json" && pass "json: same bytes twice" || fail "json: runs differ"

# --- Paje
run paje -n 4 --trace "$tmp/t.paje"
p="$tmp/t.paje"
expect "paje: event definitions" "$(grep -c '^%EventDef' "$p")" 11
expect "paje: containers (program + ranks)" "$(grep -c '^4 ' "$p")" 5
expect "paje: pushes = pops" "$(grep -c '^7 ' "$p")" "$(grep -c '^8 ' "$p")"
expect "paje: link starts = messages" "$(grep -c '^9 ' "$p")" "$messages"
expect "paje: link ends = messages" "$(grep -c '^10 ' "$p")" "$messages"
awk '!/^%/ && $1 >= 4 { if ($2 < last) bad = 1; last = $2 } END { exit bad }' "$p" &&
    pass "paje: events in time order" || fail "paje: events out of time order"
run paje2 -n 4 --trace "$tmp/t2.paje"
cmp -s "$p" "$tmp/t2.paje" && pass "paje: same bytes twice" || fail "paje: runs differ"

# --- timeline SVG, a row per rank
run svg -n 4 --timeline "$tmp/t.svg"
"$inspect" svg "$tmp/t.svg" >"$tmp/svg.txt" || fail "the SVG does not parse as XML"
expect "svg: rows" "$(field bands "$tmp/svg.txt")" 4
expect "svg: row labels" "$(field row_labels "$tmp/svg.txt")" 4
expect "svg: message lines = messages" "$(field messages "$tmp/svg.txt")" "$messages"
ticks=$(field ticks "$tmp/svg.txt")
expect "svg: a label per axis tick" "$(field tick_labels "$tmp/svg.txt")" "$ticks"
[ "${ticks:-0}" -ge 3 ] && pass "svg: $ticks ticks" || fail "svg: only ${ticks:-0} ticks"
run svg2 -n 4 --timeline "$tmp/t2.svg"
cmp -s "$tmp/t.svg" "$tmp/t2.svg" && pass "svg: same bytes twice" || fail "svg: runs differ"

# --- beyond 64 ranks: 64 rows of 2 ranks
run groups -n 128 --timeline "$tmp/g.svg"
"$inspect" svg "$tmp/g.svg" >"$tmp/g.txt" || fail "the grouped SVG does not parse as XML"
expect "svg, 128 ranks: rows" "$(field bands "$tmp/g.txt")" 64
expect "svg, 128 ranks: row labels" "$(field row_labels "$tmp/g.txt")" 64

# --- PNG and PDF
for ext in png pdf; do
    run "$ext" -n 4 --timeline "$tmp/t.$ext" --trace "$tmp/both.json"
    run "${ext}2" -n 4 --timeline "$tmp/t2.$ext"
    size=$(wc -c <"$tmp/t.$ext")
    [ "$size" -gt 2000 ] && pass "$ext: $size bytes" || fail "$ext: only $size bytes"
    cmp -s "$tmp/t.$ext" "$tmp/t2.$ext" && pass "$ext: same bytes twice" || fail "$ext: runs differ"
done
[ "$(head -c 8 "$tmp/t.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
    pass "png: signature" || fail "png: no PNG signature"
[ "$(head -c 5 "$tmp/t.pdf")" = "%PDF-" ] && pass "pdf: signature" || fail "pdf: no PDF signature"
cmp -s "$tmp/both.json" "$tmp/t.json" && pass "json beside a timeline: the same trace" ||
    fail "json beside a timeline differs"

# --- bad input: one message, exit 2, nothing run, nothing else touched
echo keep >"$tmp/keep.json"
# refused NAME PATTERN ARGS...
refused() {
    local name=$1 pattern=$2; shift 2
    "$COLLSIM" exec "$prog" -n 4 "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
    local rc=$?
    if [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/bad.err")" = 1 ] && grep -q -- "$pattern" "$tmp/bad.err" &&
        [ ! -s "$tmp/bad.out" ]; then
        pass "$name: $(cat "$tmp/bad.err")"
    else
        fail "$name: exit $rc, stderr:"; sed 's/^/    /' "$tmp/bad.err" | head -5
    fi
}
refused "unknown trace extension" "\.paje" --trace "$tmp/t.txt" --timeline "$tmp/x.svg"
refused "unknown timeline extension" "\.svg" --timeline "$tmp/t.gif" --trace "$tmp/keep.json"
refused "trace in a missing directory" "--trace" --trace "$tmp/no/such/t.json"
refused "timeline in a missing directory" "--timeline" --timeline "$tmp/no/such/t.png"
mkdir "$tmp/d.json"
refused "trace is a directory" "directory" --trace "$tmp/d.json"
refused "SimGrid's own tracing" "--trace FILE.json" --cfg tracing:yes
[ "$(cat "$tmp/keep.json")" = keep ] && pass "a refused run leaves other files alone" ||
    fail "a refused run touched keep.json"
[ ! -e "$tmp/x.svg" ] && pass "a refused run draws nothing" || fail "a refused run drew x.svg"

if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "all trace tests passed"
