#!/bin/bash
# test_tune.sh — `collsim tune` end to end on a small sweep (flat cluster, P = 4, 8, 16, three
# sizes, allreduce, bcast and allgather): the times are exactly those `collsim run` reports for
# the same points; PREFIX-winners.csv names the fastest and the runner-up of PREFIX-times.csv;
# rules files written from those times (through a test-only library mapping) and read back with
# collsim's readers select each library's fastest at every measured point (tests/tune/
# tune_verify); PREFIX-decisions.txt divides each library's default choice, as `collsim run`
# times it, by the winner; the outputs are the same with -j 1 and -j 2; the rules files are either written
# and readable, or refused with a message naming them (a build without the libraries'
# catalogues), never missing silently; bad options end in exit 2 naming the option.
set -u
: "${COLLSIM:?}" "${top_srcdir:?}" "${top_builddir:?}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
verify="$top_builddir/tests/tune/tune_verify"

sweep=(-n 4,8,16 --sizes 8,1KiB,64KiB --collectives allreduce,bcast,allgather)
"$COLLSIM" tune "${sweep[@]}" -j 2 -o "$tmp/a" >"$tmp/a.out" 2>"$tmp/a.err"
status=$?
for f in a-times.csv a-winners.csv a-winners.svg; do
    [ -s "$tmp/$f" ] && pass "$f written" || fail "$f missing"
done
grep -q '^collsim tune: 27 points of' "$tmp/a.out" && grep -q 'runs skipped' "$tmp/a.out" &&
    pass "summary line counts points and skipped runs" || fail "summary: $(cat "$tmp/a.out")"
if [ -e "$tmp/a-ompi.rules" ] && [ -e "$tmp/a-mpich.json" ]; then
    [ $status -eq 0 ] && pass "rules files written (exit 0)" ||
        fail "rules written but exit $status"
elif grep -q 'a-ompi.rules and .*a-mpich.json NOT written' "$tmp/a.err"; then
    [ $status -eq 1 ] && pass "rules files refused with a message (exit 1)" ||
        fail "refused rules: exit $status"
else
    fail "rules files missing without a message (exit $status): $(cat "$tmp/a.err")"
fi

# every time is collsim run's for the same point
cat >"$tmp/s.ini" <<'EOF'
[run]
ranks = 4,8,16
collectives = allreduce, bcast, allgather
algorithms = all
sizes = 8, 1KiB, 64KiB
EOF
"$COLLSIM" run "$tmp/s.ini" -j 2 -o "$tmp/s.csv" >/dev/null 2>&1
# collsim run's rows that served the requested algorithm: collective,ranks,bytes,algorithm,time
awk -F, 'NR > 1 && $5 == "" { print $2 "," $6 "," $7 "," $3 "," $14 }' "$tmp/s.csv" |
    sort >"$tmp/run.times"
awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $5 "," $6 }' "$tmp/a-times.csv" |
    sort >"$tmp/tune.times"
if [ -s "$tmp/run.times" ] && cmp -s "$tmp/run.times" "$tmp/tune.times"; then
    pass "every time equals collsim run's ($(wc -l <"$tmp/tune.times") runs)"
else
    fail "times differ from collsim run's: $(diff "$tmp/run.times" "$tmp/tune.times" | head -5)"
fi

# PREFIX-decisions.txt: each library's default choice (collsim run with the library as the
# algorithm) divided by the winner of PREFIX-winners.csv, recomputed here
sed -i 's/^algorithms = all$/algorithms = impi, mpich, mvapich2, ompi/' "$tmp/s.ini"
"$COLLSIM" run "$tmp/s.ini" -j 2 -o "$tmp/libs.csv" >/dev/null 2>&1
awk -F, 'FNR == NR { if (FNR > 1) { key = $1 " " $2 " " $3; win[key] = $5; name[key] = $4 }
                     next }
         FNR > 1 { key = $2 " " $6 " " $7
                   if (!(key in seen)) { seen[key] = 1; order[++n] = key }
                   ratio[key] = ratio[key] " " sprintf("%.3f", $14 / win[key]) }
         END { for (i = 1; i <= n; i++) print order[i], name[order[i]] ratio[order[i]] }' \
    "$tmp/a-winners.csv" "$tmp/libs.csv" >"$tmp/decisions.expected"
awk 'function bytes(v, u) { return u == "B" ? v : u == "KiB" ? v * 1024 : v * 1048576 }
     /^libraries/ { on = 1; getline; next }
     /^per collective/ { on = 0 }
     on { line = $1 " " $2 " " bytes($3, $4) " " $5
          for (i = 8; i <= NF; i++) line = line " " $i
          print line }' "$tmp/a-decisions.txt" >"$tmp/decisions.printed"
# the printed columns are the libraries in name order (collsim tune's order), as listed above
if [ "$(wc -l <"$tmp/decisions.expected")" -eq 27 ] &&
    cmp -s "$tmp/decisions.expected" "$tmp/decisions.printed"; then
    pass "PREFIX-decisions.txt: the four libraries' defaults / the winner at all 27 points"
else
    fail "PREFIX-decisions.txt: $(diff "$tmp/decisions.expected" "$tmp/decisions.printed" | head)"
fi

if "$verify" "$tmp/a" >"$tmp/verify.out" 2>"$tmp/verify.err"; then
    pass "$(tr '\n' ' ' <"$tmp/verify.out")"
else
    fail "tune_verify: $(cat "$tmp/verify.out" "$tmp/verify.err" | head -20)"
fi

"$COLLSIM" tune "${sweep[@]}" -j 1 -o "$tmp/b" >/dev/null 2>&1
if cmp -s "$tmp/a-times.csv" "$tmp/b-times.csv" &&
    cmp -s "$tmp/a-winners.csv" "$tmp/b-winners.csv"; then
    pass "the same CSVs with -j 1 and -j 2"
else
    fail "-j 1 and -j 2 differ"
fi

# bad options: exit 2, the option named, nothing run
"$COLLSIM" tune -n 4 --sizes 3x -o "$tmp/c" >/dev/null 2>"$tmp/c.err"
[ $? -eq 2 ] && grep -q -- '--sizes 3x' "$tmp/c.err" && pass "a bad --sizes is named" ||
    fail "bad --sizes: $(cat "$tmp/c.err")"
"$COLLSIM" tune --sizes 8 -o "$tmp/d" >/dev/null 2>"$tmp/d.err"
[ $? -eq 2 ] && grep -q -- '-n P1,P2' "$tmp/d.err" && pass "-n is required" ||
    fail "missing -n: $(cat "$tmp/d.err")"
"$COLLSIM" tune -n 4 --collectives allreduc -o "$tmp/e" >/dev/null 2>"$tmp/e.err"
[ $? -eq 2 ] && grep -q -- '--collectives allreduc' "$tmp/e.err" &&
    pass "a bad --collectives is named" ||
    fail "bad --collectives: $(cat "$tmp/e.err")"
[ ! -e "$tmp/c-times.csv" ] && [ ! -e "$tmp/e-times.csv" ] &&
    pass "nothing written after a bad option" ||
    fail "files written after a bad option"

[ $failures -eq 0 ] && echo "all tune checks passed" || echo "$failures failure(s)"
[ $failures -eq 0 ]
