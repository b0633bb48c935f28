#!/bin/bash
# update_goldens.sh — regenerate tests/golden/scenarios/*.out after a change that moves simulated
# times (make update-goldens), and show what changed, for review before committing.
#
# A table is frozen only if, as test_scenarios.sh demands, every point checks ok against its
# sequential reference and every row with an analytic prediction agrees with it (exact formulas
# within 6 %, approximations within a factor of 2: predictions.awk). Otherwise the golden file is
# left as it was and the script says why and exits 1.
#   tests/scenarios/update_goldens.sh [BUILD_DIR]     (default: the current directory)
set -u
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-.}
COLLSIM=$(cd "$build" && pwd)/collsim
golden=$top_srcdir/tests/golden/scenarios
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$COLLSIM" list models >"$tmp/models.txt" || exit 1
status=0
for ini in "$top_srcdir"/scenarios/*.ini; do
    name=$(basename "$ini" .ini)
    extra=()
    prog=$(sed -n 's/^program *= *//p' "$ini")
    [ -n "$prog" ] && extra=(--set "run.program=$(cd "$build" && pwd)/scenarios/$prog")
    if ! "$COLLSIM" run "$ini" -j 2 "${extra[@]}" -o "$tmp/$name.csv" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
        echo "$name: collsim run failed, golden kept:"; head -5 "$tmp/$name.err"; status=1; continue
    fi
    if ! awk -F, 'NR > 1 && $19 != "ok" { bad = 1 } END { exit bad }' "$tmp/$name.csv"; then
        echo "$name: a point is not ok, golden kept"; status=1; continue
    fi
    if ! awk -F, -v name="$name" -v models="$tmp/models.txt" -v exact="${exact:-0}" -f "$top_srcdir/tests/scenarios/predictions.awk" "$tmp/$name.csv"; then
        echo "$name: simulated times disagree with the formulas (above), golden kept"; status=1; continue
    fi
    if cmp -s "$tmp/$name.out" "$golden/$name.out"; then
        echo "$name: unchanged"
    else
        echo "$name: updated ($(diff "$golden/$name.out" "$tmp/$name.out" | grep -c '^>') lines changed)"
        cp "$tmp/$name.out" "$golden/$name.out"
    fi
done
exit $status
