#!/bin/bash
# test_disk_full.sh — the disk fills while `collsim run` writes its outputs: the run ends with
# one message naming the file and exit 1, and every file keeps complete rows only.
#
# The full disk is a file size limit (bash's ulimit -f, in 1024-byte blocks), which needs no
# root: a write that crosses it writes what fits and the next one fails with EFBIG, as a full
# disk does with ENOSPC. The limit also raises SIGXFSZ, which collsim ignores itself: nothing
# here ignores it for collsim, so a collsim that dies of it (exit 153) fails.
#
# The reference is the same sweep without a limit. Its CSV is larger than the limit, so the
# limit falls inside some row (wall_s varies in length, so which row is not fixed); what is
# left must be the reference's first lines exactly, wall_s aside. The JSON must be the previous
# complete document, equal to the reference's first points closed as a document, and no
# temporary file may remain. The table on standard output: a file that fills, and /dev/full.
# The CSV at /dev/full; the JSON named as a FIFO, which a rename would replace.
set -u
: "${COLLSIM:?}" "${top_srcdir:?}"
export LC_ALL=C
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

q=$top_srcdir/scenarios/quickstart.ini
limit_blocks=2
limit_bytes=$((limit_blocks * 1024))

# Run collsim with the file size limit; a run that hangs on a full disk fails instead. Its
# standard error goes to ERR through a pipe, out of the limit's reach: the messages must not
# fill up first (the sanitizers' warnings would).
limited() {  # BLOCKS ERR ARGS...
    local blocks=$1 err=$2; shift 2
    { (ulimit -f "$blocks" && exec timeout 300 "$COLLSIM" "$@") 2>&1 1>&3 3>&- |
        cat >"$err"; } 3>&1
    return "${PIPESTATUS[0]}"
}

# wall_s is the last CSV column: the only one that differs run after run.
strip_wall() { sed 's/,[^,]*$//' "$1"; }
fields_per_line() { awk -F, '{ print NF }' "$1" | sort -u | tr '\n' ' '; }
ends_with_newline() { [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ]; }
# FILE has one message of collsim's and it holds TEXT (SimGrid may add its own warnings, as
# with the thread factory the sanitizer build uses).
one_message_with() {  # FILE TEXT
    [ "$(grep -c '^collsim: ' "$1")" -eq 1 ] && grep '^collsim: ' "$1" | grep -qF -- "$2"
}

if ! "$COLLSIM" run "$q" -q -o "$tmp/ref.csv" --json "$tmp/ref.json" 2>"$tmp/ref.err"; then
    fail "the reference run failed"; sed 's/^/    /' "$tmp/ref.err" | head -5
    echo "$failures failure(s)"; exit 1
fi
header_fields=$(head -n 1 "$tmp/ref.csv" | awk -F, '{ print NF }')
ref_rows=$(($(wc -l <"$tmp/ref.csv") - 1))
if [ "$(fields_per_line "$tmp/ref.csv")" = "$header_fields " ] &&
    [ "$(wc -c <"$tmp/ref.csv")" -gt $((2 * limit_bytes)) ]; then
    pass "reference CSV: $ref_rows rows of $header_fields fields, more than twice the limit"
else
    fail "the reference CSV cannot serve (fields per line: $(fields_per_line "$tmp/ref.csv"))"
fi

# ---------------------------------------------------------------- the CSV fills

limited "$limit_blocks" "$tmp/cut.err" run "$q" -q -o "$tmp/cut.csv" >/dev/null
rc=$?
if [ "$rc" -eq 1 ] && one_message_with "$tmp/cut.err" "cannot write '$tmp/cut.csv': File too large"
then
    pass "CSV past the limit: exit 1, one message naming the file and the error"
else
    fail "CSV past the limit: exit $rc, stderr:"; sed 's/^/    /' "$tmp/cut.err" | head -5
fi
if [ "$(fields_per_line "$tmp/cut.csv")" = "$header_fields " ] && ends_with_newline "$tmp/cut.csv"
then
    pass "CSV past the limit: every line has the header's $header_fields fields and ends"
else
    fail "CSV past the limit: a row is cut (fields per line: $(fields_per_line "$tmp/cut.csv")," \
        "last bytes: $(tail -c 20 "$tmp/cut.csv" | od -An -c | tr -s ' '))"
fi
cut_lines=$(wc -l <"$tmp/cut.csv")
if [ "$cut_lines" -ge 2 ] && [ "$((cut_lines - 1))" -lt "$ref_rows" ] &&
    [ "$(wc -c <"$tmp/cut.csv")" -le "$limit_bytes" ] &&
    diff <(strip_wall "$tmp/cut.csv") <(strip_wall "$tmp/ref.csv" | head -n "$cut_lines") \
        >"$tmp/cut.diff"; then
    pass "CSV past the limit: its $((cut_lines - 1)) rows are the sweep's first rows"
else
    fail "CSV past the limit: $cut_lines lines, $(wc -c <"$tmp/cut.csv") bytes, not the" \
        "reference's first lines"; head -10 "$tmp/cut.diff" | sed 's/^/    /'
fi

# ---------------------------------------------------------------- the JSON fills

# The JSON is rewritten whole after each point and is some ten times the CSV: a larger limit
# lets a few points in before the rewrite fails.
json_blocks=8
limited "$json_blocks" "$tmp/cut-json.err" run "$q" -q --json "$tmp/cut.json" >/dev/null
rc=$?
if [ "$rc" -eq 1 ] &&
    one_message_with "$tmp/cut-json.err" "cannot write '$tmp/cut.json.tmp': File too large"; then
    pass "JSON past the limit: exit 1, one message naming the file and the error"
else
    fail "JSON past the limit: exit $rc, stderr:"; sed 's/^/    /' "$tmp/cut-json.err" | head -5
fi
if [ ! -e "$tmp/cut.json.tmp" ]; then
    pass "JSON past the limit: no temporary file left"
else
    fail "JSON past the limit: $tmp/cut.json.tmp left behind"
fi
# The reference's first K points closed as a document (no digest: the sweep did not end),
# wall_s lines aside; K is the number of points the cut file holds.
points=$(grep -c '^      "index" : ' "$tmp/cut.json")
strip_json_wall() { grep -v '^      "wall_s" : ' "$1"; }
awk -v k="$points" '
    $0 == "    }," && ++closed == k { print "    }"; print "  ]"; print "}"; done = 1; exit }
    { print }
    END { if (!done) print "fewer than " k " points in the reference" }' \
    <(strip_json_wall "$tmp/ref.json") >"$tmp/expected.json"
if [ "$points" -ge 1 ] && [ "$points" -lt "$ref_rows" ] &&
    diff "$tmp/expected.json" <(strip_json_wall "$tmp/cut.json") >"$tmp/json.diff"; then
    pass "JSON past the limit: the last complete document, the sweep's first $points points"
else
    fail "JSON past the limit: $points points, not the reference's first points closed"
    head -10 "$tmp/json.diff" | sed 's/^/    /'
fi

# ---------------------------------------------------------------- the table fills

limited "$limit_blocks" "$tmp/table.err" run "$q" >"$tmp/table.out"
rc=$?
if [ "$rc" -eq 1 ] && one_message_with "$tmp/table.err" \
    "cannot write the table to standard output: File too large"; then
    pass "table past the limit: exit 1, one message"
else
    fail "table past the limit: exit $rc, stderr:"; sed 's/^/    /' "$tmp/table.err" | head -5
fi

# ---------------------------------------------------------------- devices and pipes

if [ -c /dev/full ]; then
    timeout 300 "$COLLSIM" run "$q" >/dev/full 2>"$tmp/full-table.err"
    rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] && one_message_with "$tmp/full-table.err" \
        "cannot write the table to standard output: No space left on device"; then
        pass "table to /dev/full: exit $rc, one message"
    else
        fail "table to /dev/full: exit $rc, stderr:"; sed 's/^/    /' "$tmp/full-table.err" | head
    fi
    timeout 300 "$COLLSIM" run "$q" -q -o /dev/full 2>"$tmp/full-csv.err"
    rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] && one_message_with "$tmp/full-csv.err" \
        "cannot write '/dev/full': No space left on device"; then
        pass "CSV to /dev/full: exit $rc, one message"
    else
        fail "CSV to /dev/full: exit $rc, stderr:"; sed 's/^/    /' "$tmp/full-csv.err" | head
    fi
else
    echo "skip: no /dev/full"
fi

# A rename would replace the FIFO by a regular file (and, as root, /dev/full itself).
mkfifo "$tmp/fifo.json"
timeout 300 "$COLLSIM" run "$q" -q --json "$tmp/fifo.json" 2>"$tmp/fifo.err"
rc=$?
if [ "$rc" -eq 2 ] && [ -p "$tmp/fifo.json" ] && [ ! -e "$tmp/fifo.json.tmp" ] &&
    one_message_with "$tmp/fifo.err" "cannot write '$tmp/fifo.json': not a regular file"; then
    pass "JSON named as a FIFO: refused (exit 2), the FIFO untouched"
else
    fail "JSON named as a FIFO: exit $rc, stderr:"; sed 's/^/    /' "$tmp/fifo.err" | head -5
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
