#!/bin/bash
# test_shard.sh — `collsim run --shard I/N` and `collsim merge` end to end: a real sweep run
# whole and as N = 1, 2, 3 and 16 shards (16 > its 12 points: empty shards), each shard a
# separate process; the merge of the shards, named in a shuffled order, must be the whole run's
# CSV and JSON byte for byte (wall_s masked: it is each point's own wall time) with the same
# digest line exactly. The same for a program scenario (its outputs are in the digest, not in
# the CSV), for the scenario's own [output] files (named per shard), and for
# scenarios/slurm/sweep.sbatch and merge.sbatch run by hand with the SLURM_ARRAY_* variables a
# job array sets. Then the refusals: a missing shard, a repeated one, one of another scenario,
# one cut short, bad --shard values, a shard with no file; each exits non-zero with a message
# naming it and writes nothing.
set -u
: "${COLLSIM:?}" "${top_srcdir:?}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

scenario="$top_srcdir/scenarios/quickstart.ini"
small=(--set run.algorithms=recursive_doubling,ring,smp --set run.ranks=4,8 --no-progress)
run() { "$COLLSIM" run "$scenario" "${small[@]}" "$@"; }

# wall_s is the last CSV field and a JSON member of its own line
mask_csv() { sed 's/,[^,]*$/,WALL/' "$1"; }
mask_json() { sed 's/^\( *"wall_s" : \).*[^,]\(,\{0,1\}\)$/\1WALL\2/' "$1"; }
# a fixed shuffle: every other name from the last, then the rest from the last (s3 s1 s2)
shuffled() { printf '%s\n' "$@" |
    awk '{ a[NR] = $0 } END { for (i = NR; i >= 1; i -= 2) print a[i]; for (i = NR - 1; i >= 1; i -= 2) print a[i] }'; }

same_as_whole() { # what prefix
    local what=$1 p=$2
    if cmp -s <(mask_csv "$tmp/whole.csv") <(mask_csv "$p.csv"); then
        pass "$what: the merged CSV is the whole run's (wall_s masked)"
    else
        fail "$what: the merged CSV differs"; diff <(mask_csv "$tmp/whole.csv") <(mask_csv "$p.csv") | head -5
    fi
    if cmp -s <(mask_json "$tmp/whole.json") <(mask_json "$p.json"); then
        pass "$what: the merged JSON is the whole run's (wall_s masked, digest included)"
    else
        fail "$what: the merged JSON differs"; diff <(mask_json "$tmp/whole.json") <(mask_json "$p.json") | head -5
    fi
    if [ "$(tail -n 1 "$tmp/whole.out")" = "$(tail -n 1 "$p.out")" ] &&
        [ "$(tail -n 2 "$tmp/whole.out" | head -n 1)" = "$(head -n 1 "$p.out")" ]; then
        pass "$what: the same digest line ($(tail -n 1 "$p.out" | cut -c1-30)…) and point counts"
    else
        fail "$what: digest '$(tail -n 1 "$p.out")', the whole run's '$(tail -n 1 "$tmp/whole.out")'"
    fi
}

# ---------------------------------------------------------------- the whole run, then shards
run -j 2 -o "$tmp/whole.csv" --json "$tmp/whole.json" >"$tmp/whole.out" 2>"$tmp/whole.err" ||
    fail "the whole run: exit $?"
points=$(($(wc -l <"$tmp/whole.csv") - 1))
[ "$points" -eq 12 ] || fail "the sweep has $points points, not 12"

for n in 1 2 3 16; do
    d="$tmp/n$n"
    mkdir -p "$d"
    pids=()
    for i in $(seq "$n"); do
        run --shard "$i/$n" -o "$d/s$i.csv" --json "$d/s$i.json" >"$d/s$i.out" 2>"$d/s$i.err" &
        pids+=($!)
        # two shards at a time: the machine is shared
        if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}" || fail "N=$n: a shard exited $?"; pids=("${pids[@]:1}"); fi
    done
    for p in "${pids[@]}"; do wait "$p" || fail "N=$n: a shard exited $?"; done
    rows=0
    for i in $(seq "$n"); do rows=$((rows + $(grep -c '^[0-9]' "$d/s$i.csv"))); done
    [ "$rows" -eq "$points" ] || fail "N=$n: the shards hold $rows rows, not $points"
    # shard i holds points i-1, i-1+n, ...
    expected=$(seq $((2 - 1)) "$n" $((points - 1)) | tr '\n' ' ')
    [ "$n" -lt 2 ] || [ "$(grep -o '^[0-9]*' "$d/s2.csv" | tr '\n' ' ')" = "$expected" ] ||
        fail "N=$n: shard 2 holds $(grep -o '^[0-9]*' "$d/s2.csv" | tr '\n' ' '), not $expected"
    mapfile -t csvs < <(shuffled "$d"/s*.csv)
    mapfile -t jsons < <(shuffled "$d"/s*.json)
    "$COLLSIM" merge -o "$d/merged.csv" "${csvs[@]}" >"$d/merged.out" 2>"$d/merge.err" ||
        fail "N=$n: merge of the CSV exited $?: $(cat "$d/merge.err")"
    "$COLLSIM" merge -o "$d/merged.json" "${jsons[@]}" >"$d/merged-json.out" 2>&1 ||
        fail "N=$n: merge of the JSON exited $?"
    cmp -s "$d/merged.out" "$d/merged-json.out" || fail "N=$n: CSV and JSON merges print different lines"
    same_as_whole "N=$n (shards given as ${csvs[*]##*/})" "$d/merged"
    # the merged wall_s are the shards' own
    cmp -s <(grep -h '^[0-9]' "$d"/s*.csv | sort -n) <(tail -n +2 "$d/merged.csv") ||
        fail "N=$n: the merged rows are not the shards' rows"
done
[ "$(grep -c '^[0-9]' "$tmp/n16/s14.csv")" -eq 0 ] && grep -q '"points" : \[\]' "$tmp/n16/s14.json" &&
    pass "N=16 > 12 points: shard 14/16 is empty and still merges" || fail "shard 14/16 is not empty"
grep -q '^scenario quickstart, shard 2/3: 4 of 12 points$' "$tmp/n3/s2.out" &&
    grep -q '^shard 2/3 digest sha256:' "$tmp/n3/s2.out" && ! grep -q '^digest' "$tmp/n3/s2.out" &&
    pass "a shard's table says it is one, with a shard digest, never a run's digest line" ||
    fail "a shard's table: $(head -n 1 "$tmp/n3/s2.out")"

# ---------------------------------------------------------------- a program: its output is in the digest
# the program is built in the build tree (a VPATH build, distcheck, keeps it apart)
prog=(--set run.ranks=2,3,8 --set "run.program=${top_builddir:-$top_srcdir}/scenarios/seeds/barrier_from_messages.so"
    --no-progress)
"$COLLSIM" run "$top_srcdir/scenarios/barrier_from_messages.ini" "${prog[@]}" -o "$tmp/pw.csv" \
    --json "$tmp/pw.json" >"$tmp/pw.out" 2>&1 || fail "program sweep: exit $?"
for i in 1 2; do
    "$COLLSIM" run "$top_srcdir/scenarios/barrier_from_messages.ini" "${prog[@]}" --shard "$i/2" \
        -o "$tmp/ps$i.csv" --json "$tmp/ps$i.json" >/dev/null 2>&1 || fail "program shard $i: exit $?"
done
"$COLLSIM" merge -o "$tmp/pm.csv" "$tmp/ps2.csv" "$tmp/ps1.csv" >"$tmp/pm.out" 2>&1 || fail "program merge: exit $?"
"$COLLSIM" merge -o "$tmp/pm.json" "$tmp/ps2.json" "$tmp/ps1.json" >/dev/null 2>&1 || fail "program JSON merge"
if [ "$(tail -n 1 "$tmp/pw.out")" = "$(tail -n 1 "$tmp/pm.out")" ] &&
    cmp -s <(mask_csv "$tmp/pw.csv") <(mask_csv "$tmp/pm.csv") &&
    cmp -s <(mask_json "$tmp/pw.json") <(mask_json "$tmp/pm.json"); then
    pass "a program sweep in 2 shards: same CSV, JSON and digest line"
else
    fail "a program sweep: $(tail -n 1 "$tmp/pm.out") vs $(tail -n 1 "$tmp/pw.out")"
fi

# ---------------------------------------------------------------- the scenario's own [output] files
mkdir -p "$tmp/own"
sed 's|^file = platforms/|file = '"$top_srcdir"'/platforms/|' "$scenario" >"$tmp/own/q.ini"
printf '\n[output]\ncsv = r.csv\njson = r.json\n' >>"$tmp/own/q.ini"
(cd "$tmp/own" && for i in 1 2; do "$COLLSIM" run q.ini "${small[@]}" -q --shard "$i/2" || exit 1; done) ||
    fail "[output] shards: exit $?"
if [ -f "$tmp/own/r.shard-1-of-2.csv" ] && [ -f "$tmp/own/r.shard-2-of-2.json" ] && [ ! -e "$tmp/own/r.csv" ]; then
    "$COLLSIM" merge -o "$tmp/own/m.csv" "$tmp/own"/r.shard-*.csv >"$tmp/own/m.out" &&
        [ "$(tail -n 1 "$tmp/own/m.out")" = "$(tail -n 1 "$tmp/whole.out")" ] &&
        pass "[output] csv/json: each shard writes r.shard-I-of-N.csv/.json, merged to the same digest" ||
        fail "[output] shards do not merge to the whole run's digest"
else
    fail "[output] csv = r.csv: shards wrote $(ls "$tmp/own" | tr '\n' ' ')"
fi

# ---------------------------------------------------------------- the Slurm scripts by hand
slurm="$top_srcdir/scenarios/slurm"
for i in 3 1 2; do
    # what a job array with --array=1-3 sets in task i
    SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=3 SLURM_ARRAY_TASK_COUNT=3 \
        COLLSIM="$COLLSIM" bash "$slurm/sweep.sbatch" "$scenario" "$tmp/slurm" "${small[@]}" \
        >"$tmp/slurm-task$i.log" 2>&1 || fail "sweep.sbatch task $i: exit $?"
done
# an array numbered from 0 (--array=0-2) gives the same shards
for i in 0 1 2; do
    SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=2 SLURM_ARRAY_TASK_COUNT=3 \
        COLLSIM="$COLLSIM" bash "$slurm/sweep.sbatch" "$scenario" "$tmp/slurm0" "${small[@]}" \
        >/dev/null 2>&1 || fail "sweep.sbatch task $i of --array=0-2: exit $?"
done
ls "$tmp/slurm0"/shard-3-of-3.csv >/dev/null 2>&1 || fail "--array=0-2 did not write shard-3-of-3"
COLLSIM="$COLLSIM" bash "$slurm/merge.sbatch" "$tmp/slurm" "$tmp/slurm-merged" >"$tmp/slurm-merged.out" 2>&1 ||
    fail "merge.sbatch: exit $?: $(cat "$tmp/slurm-merged.out")"
same_as_whole "sweep.sbatch × 3 tasks + merge.sbatch" "$tmp/slurm-merged"

# ---------------------------------------------------------------- GNU parallel
# The README's one-machine line (setup.sh installs parallel), shards as parallel's jobs.
if command -v parallel >/dev/null; then
    mkdir -p "$tmp/par"
    if parallel --will-cite -j 2 "$COLLSIM" run "$scenario" "${small[@]}" --shard {}/5 -q \
        -o "$tmp/par/s{}.csv" --json "$tmp/par/s{}.json" ::: $(seq 5) >"$tmp/par.log" 2>&1 &&
        "$COLLSIM" merge -o "$tmp/par-merged.csv" "$tmp/par"/s*.csv >"$tmp/par-merged.out" &&
        "$COLLSIM" merge -o "$tmp/par-merged.json" "$tmp/par"/s*.json >/dev/null; then
        same_as_whole "GNU parallel, 5 shards as 2 jobs at a time" "$tmp/par-merged"
    else
        fail "GNU parallel shards: $(tail -3 "$tmp/par.log")"
    fi
else
    echo "note: GNU parallel not installed (setup.sh installs it): its line not run"
fi

# ---------------------------------------------------------------- refusals
refused() { # what expected-exit message-words command...
    local what=$1 code=$2 words=$3
    shift 3
    "$@" >"$tmp/r.out" 2>"$tmp/r.err"
    local rc=$?
    if [ "$rc" -eq "$code" ] && grep -qF -- "$words" "$tmp/r.err" && [ "$(wc -l <"$tmp/r.err")" -eq 1 ]; then
        pass "$what: exit $rc, $(cat "$tmp/r.err")"
    else
        fail "$what: exit $rc (want $code), stderr: $(cat "$tmp/r.err")"
    fi
}
d="$tmp/n3"
echo keep >"$tmp/out.csv"
refused "a missing shard" 2 "missing shard 2/3 of scenario 'quickstart' (2 of 3 given)" \
    "$COLLSIM" merge -o "$tmp/out.csv" "$d/s3.csv" "$d/s1.csv"
refused "two missing shards" 2 "missing shards 1/16, 16/16" \
    "$COLLSIM" merge -o "$tmp/out.csv" $(ls "$tmp"/n16/s*.csv | grep -v -e '/s1\.csv' -e '/s16\.csv')
refused "a repeated shard" 2 "shard 1/3 given twice: $d/s1.csv and $d/s1.csv" \
    "$COLLSIM" merge -o "$tmp/out.csv" "$d/s1.csv" "$d/s2.csv" "$d/s1.csv" "$d/s3.csv"
run --set run.sizes=8 --shard 2/3 -o "$tmp/other.csv" >/dev/null 2>&1
refused "a shard of another scenario" 2 "$tmp/other.csv is not a shard of the same sweep as $d/s1.csv: scenario" \
    "$COLLSIM" merge -o "$tmp/out.csv" "$d/s1.csv" "$tmp/other.csv" "$d/s3.csv"
refused "shards cut in another N" 2 "a sweep cut in N = 2, not 3" \
    "$COLLSIM" merge -o "$tmp/out.csv" "$d/s1.csv" "$tmp/n2/s2.csv" "$d/s3.csv"
refused "CSV and JSON shards mixed" 2 "format JSON, not CSV" \
    "$COLLSIM" merge -o "$tmp/out.csv" "$d/s1.csv" "$d/s2.json" "$d/s3.csv"
head -n 3 "$d/s2.csv" >"$tmp/cut.csv"
refused "a shard cut short" 2 "$tmp/cut.csv: shard 2/3 is incomplete: 1 of its 4 points and no end line" \
    "$COLLSIM" merge -o "$tmp/out.csv" "$d/s1.csv" "$tmp/cut.csv" "$d/s3.csv"
sed 's/,ring,ring,/,ring,RING,/' "$d/s2.csv" >"$tmp/edited.csv"
refused "an edited shard" 2 "$tmp/edited.csv: shard 2/3 does not match its own digest" \
    "$COLLSIM" merge -o "$tmp/out.csv" "$d/s1.csv" "$tmp/edited.csv" "$d/s3.csv"
refused "the whole run's CSV as a shard" 2 "not a collsim shard file" \
    "$COLLSIM" merge -o "$tmp/out.csv" "$tmp/whole.csv"
refused "merge with no shard" 2 "which shards?" "$COLLSIM" merge -o "$tmp/out.csv"
[ "$(cat "$tmp/out.csv")" = keep ] && [ ! -e "$tmp/out.csv.tmp" ] &&
    pass "refused merges left -o FILE as it was" || fail "a refused merge wrote -o FILE"

for bad in 0/3 4/3 1/0 0/0 abc 1/ /3 -1/3 " 1/3" 1.5/3 ""; do
    refused "--shard '$bad'" 2 "--shard '$bad'" run --shard "$bad" -o "$tmp/bad.csv"
done
[ ! -e "$tmp/bad.csv" ] && pass "a bad --shard writes nothing" || fail "a bad --shard wrote $tmp/bad.csv"
refused "a shard without a file" 2 "writes no file for collsim merge" run --shard 1/2
refused "--shard with --plot" 2 "--plot covers the whole sweep" run --shard 1/2 -o "$tmp/x.csv" --plot "$tmp/x.svg"

# ---------------------------------------------------------------- a point that FAILs: exit 1, as the run
"$COLLSIM" merge "$d"/s*.csv >/dev/null 2>&1 && pass "merge without -o: checks and prints, exit 0" ||
    fail "merge without -o: exit $?"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
