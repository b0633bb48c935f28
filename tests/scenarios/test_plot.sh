#!/bin/bash
# test_plot.sh — `collsim run --plot FILE` and the compact table end to end: a small sweep's
# SVG, PNG and PDF (format by signature, the SVG well-formed XML with one winner-map cell per
# size × P), the same bytes from two runs (two processes: cairo numbers an SVG's glyphs per
# process), the CSV and digest the same with or without --plot and --wide, every table line
# within 100 columns, [output] plot in a scenario, and bad paths refused with exit 2 before
# anything is simulated, leaving an existing file as it was.
set -u
: "${COLLSIM:?}" "${top_srcdir:?}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

small=(--set run.algorithms=recursive_doubling,ring,smp --set run.ranks=4,8 --set run.sizes=8,64KiB)
run() { "$COLLSIM" run "$top_srcdir/scenarios/quickstart.ini" -j 2 "${small[@]}" "$@"; }

run -o "$tmp/plain.csv" >"$tmp/plain.out" 2>"$tmp/plain.err" || fail "run without --plot: exit $?"
for ext in svg png pdf; do
    for n in 1 2; do
        run --plot "$tmp/p$n.$ext" -o "$tmp/p$n-$ext.csv" >"$tmp/p$n-$ext.out" 2>"$tmp/p$n.err" ||
            fail "--plot $ext: exit $?"
    done
    if cmp -s "$tmp/p1.$ext" "$tmp/p2.$ext"; then
        pass "--plot .$ext: two runs give the same bytes ($(wc -c <"$tmp/p1.$ext") bytes)"
    else
        fail "--plot .$ext: two runs differ"
    fi
    if cmp -s <(cut -d, -f1-26 "$tmp/plain.csv") <(cut -d, -f1-26 "$tmp/p1-$ext.csv") &&
        [ "$(grep '^digest' "$tmp/plain.out")" = "$(grep '^digest' "$tmp/p1-$ext.out")" ]; then
        pass "--plot .$ext: same CSV and digest as without it"
    else
        fail "--plot .$ext: the CSV or the digest changed"
    fi
done
[ "$(head -c 8 "$tmp/p1.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
    pass "PNG signature" || fail "PNG signature"
[ "$(head -c 5 "$tmp/p1.pdf")" = "%PDF-" ] && pass "PDF signature" || fail "PDF signature"
# winner-map cells are the only fills at opacity 0.85 (sim/report/plot.c): 2 sizes × 2 Ps
if xmllint --noout "$tmp/p1.svg" 2>/dev/null || ! command -v xmllint >/dev/null; then
    cells=$(grep -c 'fill-opacity:0.85;' "$tmp/p1.svg")
    [ "$cells" -eq 4 ] && pass "SVG: 4 winner-map cells" || fail "SVG: $cells winner-map cells, not 4"
else
    fail "SVG is not well-formed XML"
fi

# the table: 100 columns at most (characters, not bytes: → is one), every column with --wide
width=$(LC_ALL=C.UTF-8 wc -L <"$tmp/plain.out")
if [ "$width" -le 100 ]; then
    pass "the default table fits 100 columns ($width)"
else
    fail "the default table is $width columns wide"
fi
run --wide -o "$tmp/wide.csv" >"$tmp/wide.out" 2>/dev/null || fail "--wide: exit $?"
if grep -q 'time min   time mean    messages  bytes moved  check   predicted   ratio  inputs' "$tmp/wide.out" &&
    [ "$(grep '^digest' "$tmp/wide.out")" = "$(grep '^digest' "$tmp/plain.out")" ] &&
    cmp -s <(cut -d, -f1-26 "$tmp/plain.csv") <(cut -d, -f1-26 "$tmp/wide.csv"); then
    pass "--wide: every column, same CSV and digest"
else
    fail "--wide: columns, CSV or digest"
fi

# [output] plot in a scenario
sed "s|^\[platform\]|[output]\nplot = $tmp/from_ini.svg\n\n[platform]|" \
    "$top_srcdir/scenarios/quickstart.ini" >"$tmp/withplot.ini"
(cd "$top_srcdir" && "$COLLSIM" run "$tmp/withplot.ini" -q -j 2 "${small[@]}") 2>"$tmp/ini.err" &&
    [ -s "$tmp/from_ini.svg" ] && pass "[output] plot writes its file" ||
    fail "[output] plot: $(head -2 "$tmp/ini.err")"

# bad paths: one message, exit 2, nothing simulated, an existing file untouched
echo keep >"$tmp/keep.gif"
for bad in "$tmp/keep.gif" "$tmp/no/such/dir/p.svg"; do
    start=$(date +%s%N)
    run --plot "$bad" -o "$tmp/bad.csv" >"$tmp/bad.out" 2>"$tmp/bad.err"
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && grep -q -- '--plot' "$tmp/bad.err" &&
        [ ! -s "$tmp/bad.out" ] && [ ! -e "$tmp/bad.csv" ]; then
        pass "--plot $(basename "$bad"): exit 2 before the run: $(cat "$tmp/bad.err")"
    else
        fail "--plot $bad: exit $rc: $(head -2 "$tmp/bad.err")"
    fi
done
[ "$(cat "$tmp/keep.gif")" = keep ] && pass "the refused file is untouched" || fail "keep.gif changed"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
