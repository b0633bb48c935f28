#!/bin/bash
# imb_suite.sh — the Intel MPI Benchmarks (IMB-MPI1 and IMB-NBC, from the C sources of an
# intel/mpi-benchmarks tree) built as shared objects against collsim's mpi.h and run: every
# benchmark of each must print its table and the run exit 0. Prints, per binary and rank
# count, the benchmarks run and the wall time. Not part of make check: it needs an IMB
# checkout.
#
#   tests/bench/imb_suite.sh IMB      (the tree's root, holding src_c/)
#   COLLSIM=path/to/collsim RANKS="4 64" ARGS="-msglog 0:8 -iter 10" ...
set -u
src=${1:?usage: imb_suite.sh IMB}/src_c
top=$(cd "$(dirname "$0")/../.." && pwd)
collsim=${COLLSIM:-$top/collsim}
ranks=${RANKS:-4 64}
args=${ARGS:--msglog 0:8 -iter 10 -time 1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

failures=0
for target in MPI1 NBC; do
    # the sources the tree's own Makefile lists for the target
    files=$(make -s -C "$src" -f Makefile TARGET=$target -pn 2>/dev/null | sed -n 's/^SRC = //p' |
        head -1)
    # shellcheck disable=SC2086
    if ! (cd "$src" && cc -O1 -w -shared -fPIC -I"$top/src" -D$target -DIMB2018 $files \
        -o "$work/IMB-$target.so" -lm) 2>"$work/$target.cc"; then
        echo "IMB-$target: does not build: $(grep -m1 error "$work/$target.cc")"
        failures=$((failures + 1))
        continue
    fi
    for p in $ranks; do
        start=$(date +%s.%N)
        # shellcheck disable=SC2086
        "$collsim" exec "$work/IMB-$target.so" -n "$p" -- $args -npmin "$p" >"$work/out" \
            2>"$work/err"
        rc=$?
        wall=$(echo "$(date +%s.%N) - $start" | bc)
        benchmarks=$(grep -c '^# Benchmarking' "$work/out")
        if [ "$rc" -eq 0 ] && [ "$benchmarks" -gt 0 ] && grep -q 'All processes entering MPI_Finalize' "$work/out"; then
            echo "IMB-$target -n $p: ok, $benchmarks benchmarks, $(printf '%.2f' "$wall") s"
        else
            echo "IMB-$target -n $p: exit $rc, $benchmarks benchmarks: $(grep -v '^collsim: warning' "$work/err" | head -1)"
            failures=$((failures + 1))
        fi
    done
done
echo "imb: $failures failure(s)"
