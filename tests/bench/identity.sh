#!/bin/bash
# identity.sh — one line per sweep that names everything a refactoring must keep: the run's
# digest (the SHA-256 of its CSV without the wall-time column: every point's simulated times,
# messages, bytes and results) and the SHA-256 of its order certificates. Four sweeps run every
# collective and every algorithm: odd and even P with root 2 and 0, a non-commutative op on
# every reduction, and MPI_IN_PLACE with segments, radix 3 and rendezvous sizes (about 20 s).
# Compare two builds, e.g. before and after moving code into a shared helper:
#
#   tests/bench/identity.sh > before.txt     # on the old commit
#   tests/bench/identity.sh | diff before.txt -   # on the new one: no output = identical
#
#   COLLSIM=/path/to/collsim tests/bench/identity.sh   # another build
set -u
here=$(cd "$(dirname "$0")" && pwd)
collsim=${COLLSIM:-$here/../../collsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for sweep in a b c d; do
    if ! "$collsim" run "$here/identity/sweep_$sweep.ini" --certify "$tmp/cert" \
        >"$tmp/out" 2>&1; then
        echo "sweep $sweep failed:"; cat "$tmp/out"; status=1; continue
    fi
    printf '%s %s certificates:%s\n' "$sweep" "$(tail -n 1 "$tmp/out")" \
        "$(sha256sum <"$tmp/cert" | cut -c1-64)"
done
exit $status
