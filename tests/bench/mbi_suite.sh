#!/bin/bash
# mbi_suite.sh — the MPI Bugs Initiative's generated programs (MBI: correct and erroneous MPI
# programs, each with the outcome its header states, "OK" or "ERROR: <kind>") run under collsim.
# The codes are generated afresh by MBI's own generators (scripts/*Generator.py), each built as a
# shared object against collsim's mpi.h and run with the rank count of its header's mpirun
# line. An erroneous program counts as detected when collsim stops it (non-zero exit) or warns
# about it ("collsim: warning"); a correct one passes when it exits 0 with no warning. Programs
# using one-sided communication (RMA: out of collsim's scope) are counted apart: collsim refuses
# them by name. Prints each miss and false alarm with collsim's first line, then the counts per
# expected outcome. Not part of make check: it needs an MBI checkout and python3.
#
#   tests/bench/mbi_suite.sh MBI_CHECKOUT [PATTERN]    (PATTERN: a glob on the generated names)
#   COLLSIM=path/to/collsim TIMEOUT=60 JOBS=2 VERBOSE=1 ...
set -u
src=${1:?usage: mbi_suite.sh MBI_CHECKOUT [PATTERN]}
pattern=${2:-*}
top=$(cd "$(dirname "$0")/../.." && pwd)
export collsim=${COLLSIM:-$top/collsim} top
export timeout=${TIMEOUT:-60}
jobs=${JOBS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export work

mkdir "$work/codes"
for g in "$src"/scripts/*Generator.py; do
    (cd "$work/codes" && PYTHONPATH="$src/scripts" python3 "$g" >/dev/null) ||
        echo "GENERATOR $(basename "$g") failed"
done

# one program: prints "<expected> <verdict> <name> <exit> <collsim's first line>"
run_one() {
    c=$1
    name=$(basename "$c" .c)
    expected=$(sed -n '/BEGIN_MBI_TESTS/,/END_MBI_TESTS/p' "$c" | grep -m1 '^ *| ' |
        sed 's/^ *| *//; s/:.*//')
    np=$(grep -m1 -o 'mpirun -np [0-9]*' "$c" | grep -o '[0-9]*$')
    so=$work/$name.so
    if grep -q 'MPI_Win_\|MPI_Put\|MPI_Get\b\|MPI_Accumulate' "$c"; then
        echo "$expected RMA $name"
        return
    fi
    if ! cc -shared -fPIC -w -I"$top/src" "$c" -o "$so" 2>"$work/$name.build"; then
        echo "$expected BUILD $name - $(grep -m1 error "$work/$name.build" | cut -c1-160)"
        return
    fi
    timeout "$timeout" "$collsim" exec "$so" -n "${np:-2}" >/dev/null 2>"$work/$name.err" </dev/null
    rc=$?
    first=$(grep -m1 '^collsim' "$work/$name.err" | cut -c1-220)
    flagged=no
    { [ $rc != 0 ] || grep -q '^collsim: warning' "$work/$name.err"; } && flagged=yes
    rm -f "$so" "$work/$name.err" "$work/$name.build"
    case "$expected,$flagged" in
    OK,no) verdict=right ;;
    OK,yes) verdict=FALSE_ALARM ;;
    *,yes) verdict=right ;;
    *) verdict=MISSED ;;
    esac
    echo "$expected $verdict $name $rc $first"
}
export -f run_one

# shellcheck disable=SC2016
find "$work/codes" -name "$pattern.c" | sort | xargs -P "$jobs" -I{} bash -c 'run_one {}' \
    >"$work/results"
sort -k3 "$work/results" | while read -r expected verdict name rc first; do
    case "$verdict" in
    FALSE_ALARM | MISSED | BUILD) echo "$verdict $name (expected $expected, exit $rc): $first" ;;
    *) [ -n "${VERBOSE:-}" ] && echo "$verdict $name (expected $expected, exit $rc): $first" ;;
    esac
done
echo "by expected outcome (right / false alarms or misses / RMA refused / build failures):"
awk '{ e[$1] = 1; n[$1 " " $2]++ }
     END { for (k in e) printf "  %-22s %4d right, %4d wrong, %4d RMA, %4d build\n", k,
           n[k " right"], n[k " FALSE_ALARM"] + n[k " MISSED"], n[k " RMA"], n[k " BUILD"] }' \
    "$work/results" | sort
awk '$2 == "right" { r++ } $2 == "FALSE_ALARM" || $2 == "MISSED" { w++ }
     END { printf "all: %d right, %d wrong\n", r, w }' "$work/results"
