#!/bin/bash
# update_goldens.sh — regenerate tests/golden/scenarios/*.out after a change that moves simulated
# times (make update-goldens), and show what changed, for review before committing.
#
# Use: `make update-goldens` (or the script itself, below), read the diff it ends with, then
# commit the golden files that changed on purpose with the change that moved them, or undo them
# (git checkout -- tests/golden/scenarios). In a git checkout the diff is `git diff --stat` and
# `git diff` of tests/golden/scenarios (so it also shows golden changes made before this run
# and not yet committed); elsewhere (an unpacked tarball) it is `diff -u` of each old file
# against its new one.
#
# A table is frozen only if, as test_scenarios.sh demands, every point checks ok against its
# sequential reference and every row with an analytic prediction agrees with it (exact formulas
# within 6 %, approximations within a factor of 2: predictions.awk). Otherwise the golden file is
# left as it was and the script says why and exits 1.
#   tests/scenarios/update_goldens.sh [BUILD_DIR]     (default: the current directory)
set -u
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd -P)
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
        diff -u --label "old/$name.out" --label "new/$name.out" "$golden/$name.out" "$tmp/$name.out" \
            >>"$tmp/changes.diff"
        cp "$tmp/$name.out" "$golden/$name.out"
    fi
done

# What changed, for review: git's view when the sources are a git checkout of their own (not,
# say, an unpacked tarball inside one), else the diffs collected above.
if [ "$(git -C "$top_srcdir" rev-parse --show-toplevel 2>/dev/null)" = "$top_srcdir" ]; then
    if ! git -C "$top_srcdir" diff --quiet -- tests/golden/scenarios; then
        echo
        echo "== golden files changed (review before committing) =="
        git -C "$top_srcdir" --no-pager diff --stat -- tests/golden/scenarios
        git -C "$top_srcdir" --no-pager diff -- tests/golden/scenarios
    fi
elif [ -s "$tmp/changes.diff" ]; then
    echo
    echo "== golden files changed (review before keeping them) =="
    cat "$tmp/changes.diff"
fi
exit $status
