#!/bin/bash
# corrbench_suite.sh — MPI-CorrBench's micro-benchmarks (github.com/tudasc/MPI-Corrbench,
# micro-benches/0-level) run under collsim: erroneous MPI programs, each with one bug of a
# known kind (ArgError, ArgMismatch, InvalidParam, MissingCall, RequestLifecycle, LocalConcurrency,
# Deadlock, ...), and correct ones. Each is built as a shared object against collsim's mpi.h and
# run on 2 ranks, as CorrBench runs its tools. An erroneous program counts as detected when
# collsim stops it (non-zero exit) or warns about it ("collsim: warning"); a correct one passes
# when it exits 0 with no warning. Prints each miss and false alarm with its first lines, then
# the counts per directory. Not part of make check: it needs a CorrBench checkout.
#
#   tests/bench/corrbench_suite.sh CORRBENCH/micro-benches/0-level [DIR...]
#       (default: pt2pt coll usertypes conflo/pt2pt conflo/coll conflo/usertypes
#        correct/pt2pt correct/coll correct/datatype; rma and openmp are out of collsim's scope)
#   COLLSIM=path/to/collsim TIMEOUT=60 VERBOSE=1 ...
set -u
src=${1:?usage: corrbench_suite.sh CORRBENCH/micro-benches/0-level [DIR...]}
shift
dirs=${*:-pt2pt coll usertypes conflo/pt2pt conflo/coll conflo/usertypes correct/pt2pt \
correct/coll correct/datatype}
top=$(cd "$(dirname "$0")/../.." && pwd)
collsim=${COLLSIM:-$top/collsim}
timeout=${TIMEOUT:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

all_good=0
all_bad=0
for d in $dirs; do
    case "$d" in correct/*) correct=yes ;; *) correct=no ;; esac
    good=0
    bad=0
    for c in "$src/$d"/*.c; do
        [ -f "$c" ] || continue
        name=$(basename "$c" .c)
        so=$work/${d//\//-}-$name.so
        # the correct programs are MPICH's tests: built for a strict MPI, as MPICH's suite
        # builds them (rqfreeb then waits for its last receive instead of freeing it active)
        if ! cc -shared -fPIC -w -DUSE_STRICT_MPI -I"$top/src" -I"$src/correct/include" "$c" \
            -o "$so" -lm 2>"$work/build.err"; then
            echo "BUILD $d/$name: $(grep -m1 error "$work/build.err" | cut -c1-160)"
            continue
        fi
        timeout "$timeout" "$collsim" exec "$so" -n 2 >"$work/out" 2>"$work/err" </dev/null
        rc=$?
        warned=no
        grep -q '^collsim: warning' "$work/err" && warned=yes
        first=$(grep -m1 '^collsim' "$work/err" | cut -c1-200)
        if [ "$correct" = yes ]; then
            if [ $rc = 0 ] && [ $warned = no ]; then
                good=$((good + 1))
                [ -n "${VERBOSE:-}" ] && echo "ok $d/$name"
            else
                bad=$((bad + 1))
                echo "FALSE ALARM $d/$name (exit $rc): $first"
            fi
        elif [ $rc != 0 ] || [ $warned = yes ]; then
            good=$((good + 1))
            [ -n "${VERBOSE:-}" ] && echo "detected $d/$name (exit $rc): $first"
        else
            bad=$((bad + 1))
            echo "MISSED $d/$name: $(grep -m1 -A1 '^ \*' "$c" | tail -1 | sed 's/^ *\* *//' |
                cut -c1-120)"
        fi
    done
    if [ "$correct" = yes ]; then
        echo "$d: $good passed, $bad false alarms"
    else
        echo "$d: $good detected, $bad missed"
    fi
    all_good=$((all_good + good))
    all_bad=$((all_bad + bad))
done
echo "all: $all_good right, $all_bad wrong"
