#!/bin/bash
# test_compare_decisions.sh — a scenario's library entries (`algorithms = all, ompi, mpich,
# mvapich2, impi`) and the closing table of libraries' choices against the fastest algorithm,
# checked against sources other than the run's own rows:
#  1. every library row ran what `collsim decide` says that library chooses for the call (the
#     decisions themselves are held to hand-written expectations by test_decide.sh);
#  2. a library row whose choice runs with the registry's default parameters took exactly the
#     time of the same algorithm's own row: a decision picks, it does not change the run;
#  3. the closing table, recomputed from the CSV (fastest time among the algorithm rows, each
#     library's time divided by it, per collective the geometric mean and the largest of those
#     ratios, the "within 0.1 %" counts), equals what collsim printed.
# The shipped scenarios' whole tables are golden files (test_scenarios.sh).
set -u
: "${COLLSIM:?}" "${top_srcdir:?}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

ini=$top_srcdir/scenarios/compare_decisions.ini
if ! "$COLLSIM" run "$ini" -j 2 --set run.collectives=bcast,allreduce,alltoall \
    --set run.ranks=6,16 --set run.sizes=8,64KiB -o "$tmp/run.csv" >"$tmp/run.out" \
    2>"$tmp/run.err"; then
    fail "collsim run $ini"; cat "$tmp/run.err"
fi

# 1 and 2: each library row against collsim decide and against the algorithm's own row
libs=0 timed=0
while IFS=, read -r kind lib served ranks bytes time; do
    libs=$((libs + 1))
    decided=$("$COLLSIM" decide "$kind" -n "$ranks" --bytes "$bytes" --decision "$lib" 2>&1)
    runs=$(sed -n 's/^runs: *//p' <<<"$decided" | awk '{print $1}')
    [[ "$runs" == "$served" ]] ||
        fail "$lib $kind P=$ranks $bytes B: the run served '$served', collsim decide says '$runs'"
    # the choice's parameters: none beyond the algorithm's name means the registry's defaults
    words=$(sed -n 's/^collsim: *//p' <<<"$decided" | wc -w)
    [[ $words -eq 1 ]] || continue
    own=$(awk -F, -v k="$kind" -v a="$served" -v p="$ranks" -v b="$bytes" \
        '$2 == k && $3 == a && $4 == a && $6 == p && $7 == b {print $14}' "$tmp/run.csv")
    [[ -n "$own" ]] || continue   # a node-aware or fallback choice the sweep ran under no row
    timed=$((timed + 1))
    [[ "$own" == "$time" ]] ||
        fail "$lib $kind P=$ranks $bytes B: $served took $time s, its own row $own s"
done < <(awk -F, 'NR > 1 && ($3 == "ompi" || $3 == "mpich" || $3 == "mvapich2" ||
                              $3 == "impi") {print $2 "," $3 "," $4 "," $6 "," $7 "," $14}' \
             "$tmp/run.csv")
[[ $timed -ge 24 ]] || fail "only $timed library rows compared with their algorithm's own row"
[[ $libs -eq 48 ]] || fail "expected 48 library rows (3 collectives x 2 P x 2 sizes x 4), got $libs"

# 3: the closing table, recomputed
awk -F, 'NR > 1 {
        call = $2 " " $6 " " $7
        if (!(call in seen)) { seen[call] = 1; order[++ncalls] = call; kind[call] = $2 }
        if (!(($2) in kseen)) { kseen[$2] = 1; kinds[++nkinds] = $2 }
        if ($3 == "ompi" || $3 == "mpich" || $3 == "mvapich2" || $3 == "impi") {
            if (!(($3) in libseen)) { libseen[$3] = 1; libs[++nlibs] = $3 }
            t[call, $3] = $14
        } else if (!(call in best) || $14 + 0 < best[call] + 0) {
            best[call] = $14; name[call] = $4
        }
    }
    END {
        for (i = 1; i <= ncalls; i++) {
            c = order[i]; line = c " " name[c]
            for (l = 1; l <= nlibs; l++) {
                r = t[c, libs[l]] / best[c]
                line = line " " sprintf("%.3f", r)
                if (r < 1.001) within[libs[l]]++
                logs[kind[c], libs[l]] += log(r); n[kind[c], libs[l]]++
                if (r > most[kind[c], libs[l]]) most[kind[c], libs[l]] = r
            }
            print line
        }
        for (k = 1; k <= nkinds; k++) {
            line = kinds[k]
            for (l = 1; l <= nlibs; l++) {
                key = kinds[k] SUBSEP libs[l]
                line = line " " sprintf("%.3f (%.3f)", exp(logs[key] / n[key]), most[key])
            }
            print line
        }
        for (l = 1; l <= nlibs; l++)
            printf "%s %d of %d\n", libs[l], within[libs[l]], ncalls
    }' "$tmp/run.csv" >"$tmp/expected.txt"
# the printed table in the same words: the calls (bytes as the CSV has them), the collectives,
# the libraries' lines
sed -n '/^libraries. choices/,/^$/p' "$tmp/run.out" >"$tmp/printed.txt"
awk 'function bytes(v, u) { return u == "B" ? v : u == "KiB" ? v * 1024 : v * 1048576 }
     NR <= 2 || /^$/ { next }
     /^per collective/ { part = 2; next }
     part == 2 && /^collective/ { next }
     /: within 0.1% of the fastest at/ {
         lib = $1; sub(":", "", lib); print lib, $8, "of", $10; next }
     part == 2 { line = $1; for (i = 2; i <= NF; i += 2) line = line " " $i " " $(i + 1)
                 print line; next }
     { line = $1 " " $2 " " bytes($3, $4) " " $5
       for (i = 8; i <= NF; i++) line = line " " $i
       print line }' "$tmp/printed.txt" >"$tmp/printed_norm.txt"
if ! diff -u "$tmp/expected.txt" "$tmp/printed_norm.txt" >"$tmp/summary.diff"; then
    fail "the closing table differs from the one recomputed from the CSV:"; cat "$tmp/summary.diff"
fi
[[ $(wc -l <"$tmp/expected.txt") -eq 19 ]] ||
    fail "expected 12 calls, 3 collectives and 4 library lines in the closing table"

# sizes only: MVAPICH2's node-aware smp Bcast and Allreduce learn the node layout from data
# of their own, which arrives in sizes-only runs too: they serve there, in the same times as
# with payload data
"$COLLSIM" run "$ini" --set run.collectives=bcast,allreduce --set run.algorithms=mvapich2,smp \
    --set run.ranks=16 --set run.sizes=8 --set run.payload=none -o "$tmp/none.csv" \
    >"$tmp/none.out" 2>&1
rc=$?
[[ $rc -eq 0 ]] || fail "payload none with mvapich2's decision: exit $rc"
[[ $(grep -c "^[0-9]*,[a-z]*,mvapich2,smp,," "$tmp/none.csv") -eq 2 ]] ||
    fail "payload none: mvapich2's smp did not serve: $(cat "$tmp/none.csv")"
"$COLLSIM" run "$ini" --set run.collectives=bcast,allreduce --set run.algorithms=mvapich2,smp \
    --set run.ranks=16 --set run.sizes=8 --set run.payload=data -o "$tmp/data.csv" \
    >"$tmp/data.out" 2>&1 || fail "payload data with mvapich2's decision: exit $?"
times() { awk -F, 'NR > 1 { print $2, $3, $4, $14, $15, $16, $17, $18 }' "$1"; }
[[ "$(times "$tmp/none.csv")" == "$(times "$tmp/data.csv")" ]] ||
    fail "payload none: smp's times differ from payload data's: $(diff <(times "$tmp/data.csv") <(times "$tmp/none.csv"))"

# a library's choice that reads values from its scratch buffers (MVAPICH2's two-level gather:
# block sizes sent ahead of packed blocks) cannot serve in sizes-only runs; collsim's fallback
# serves, and the row and its footnote say so
"$COLLSIM" run "$ini" --set run.collectives=gather,reduce --set run.algorithms=mvapich2 \
    --set run.ranks=64 --set run.sizes=8 --set run.payload=none -o "$tmp/none.csv" \
    >"$tmp/none.out" 2>&1
rc=$?
[[ $rc -eq 0 ]] || fail "payload none with mvapich2's gather: exit $rc"
reason="mvapich2's choice smp: needs payload data"
[[ $(grep -c "^[0-9]*,[a-z]*,mvapich2,[a-z_]*,$reason" "$tmp/none.csv") -eq 1 ]] ||
    fail "payload none: the fallback from smp is not in the CSV: $(cat "$tmp/none.csv")"
grep -q "mvapich2→[a-z_]* \[1\]" "$tmp/none.out" && grep -q "^\[1\] $reason" "$tmp/none.out" ||
    fail "payload none: the table does not name the fallback: $(cat "$tmp/none.out")"
grep -q "^libraries' choices" "$tmp/none.out" &&
    fail "payload none: a closing table without any algorithm row to compare with"

# an unknown library entry is refused with the key's file:line
printf '[scenario]\nname = x\n[run]\nranks = 4\ncollectives = bcast\nalgorithms = openmpi\n' >"$tmp/bad.ini"
"$COLLSIM" run "$tmp/bad.ini" >"$tmp/bad.out" 2>&1
rc=$?
[[ $rc -eq 2 ]] || fail "algorithms = openmpi: exit $rc, expected 2"
grep -q "bad.ini:6" "$tmp/bad.out" || fail "algorithms = openmpi: no file:line in: $(cat "$tmp/bad.out")"

if [[ $failures -eq 0 ]]; then
    echo "ok: $libs library rows ran what collsim decide says ($timed timed as their" \
        "algorithm's own row); the closing table recomputed"
    exit 0
fi
exit 1
