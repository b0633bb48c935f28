#!/bin/bash
# must_suite.sh — the test programs of the MUST correctness checker (tests/ of a MUST source
# tree, 1.7) run under collsim. MUST's CMakeLists.txt files list each test with its rank count
# and two regular expressions for MUST's own report: one that must appear (a test of an
# erroneous program: an error or warning expected) and one that must not ("Error;ERROR;
# Warning;WARNING": a correct program). Each C test is built as a shared object against
# collsim's mpi.h and run so: an erroneous program counts as detected when collsim stops the
# run or warns ("collsim: warning"), a correct one passes when it exits 0 with no warning.
# Tests of MUST's own internals (its tracking and datatype dumps, the ELP and template
# directories), Fortran sources, one-sided and threaded tests are counted apart; C++ sources
# (C calls) are built with c++.
# Prints each miss and false alarm with collsim's first line, then the counts. Not part of
# make check: it needs a MUST checkout and python3.
#
#   tests/bench/must_suite.sh MUST/tests
#   COLLSIM=path/to/collsim TIMEOUT=60 VERBOSE=1 ...
set -u
src=${1:?usage: must_suite.sh MUST/tests}
top=$(cd "$(dirname "$0")/../.." && pwd)
collsim=${COLLSIM:-$top/collsim}
timeout=${TIMEOUT:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# one line per test: directory, name, source, ranks, expectation (error, correct or other)
python3 - "$src" >"$work/list" <<'EOF'
import glob, os, re, sys
root = sys.argv[1]
test = re.compile(r'add(?:ProcessLocal|DDl|Hybrid)Test\s*\(\s*"([^"]+)"\s+"([^"]+)"\s+(\d+)'
                  r'\s+"([^"]*)"\s+"([^"]*)"')
for cm in sorted(glob.glob(os.path.join(root, '**', 'CMakeLists.txt'), recursive=True)):
    text = open(cm, errors='replace').read()
    for name, source, ranks, must_match, must_not in test.findall(text):
        internal = re.search(r'Track|DatatypeImplementation|/basic|Templates|ELP', cm)
        if internal:
            kind = 'other'
        elif must_match:
            kind = 'error'
        elif not must_match and 'Error' in must_not:
            kind = 'correct'
        else:
            kind = 'other'
        print(os.path.dirname(cm), name, source, ranks, kind)
EOF

right=0
wrong=0
apart=0
while read -r dir name source ranks kind; do
    c=$dir/$source
    case "$source" in
    *.c) compiler=cc ;;
    *.cpp) compiler=c++ ;;
    *) apart=$((apart + 1)); continue ;;
    esac
    if [ "$kind" = other ] || [ ! -f "$c" ] ||
        grep -q 'MPI_Win_\|MPI_Put\|MPI_Get\b\|pthread\|omp\.h' "$c"; then
        apart=$((apart + 1))
        continue
    fi
    so=$work/$name.so
    if ! $compiler -shared -fPIC -w -I"$top/src" -I"$dir" "$c" -o "$so" 2>"$work/build.err"; then
        apart=$((apart + 1))
        [ -n "${VERBOSE:-}" ] && echo "BUILD $name: $(grep -m1 error "$work/build.err" | cut -c1-160)"
        continue
    fi
    timeout "$timeout" "$collsim" exec "$so" -n "$ranks" >/dev/null 2>"$work/err" </dev/null
    rc=$?
    first=$(grep -m1 '^collsim' "$work/err" | cut -c1-200)
    flagged=no
    { [ $rc != 0 ] || grep -q '^collsim: warning' "$work/err"; } && flagged=yes
    case "$kind,$flagged" in
    correct,no | error,yes)
        right=$((right + 1))
        [ -n "${VERBOSE:-}" ] && echo "ok $name ($kind, exit $rc): $first"
        ;;
    correct,yes)
        wrong=$((wrong + 1))
        echo "FALSE ALARM $name (exit $rc): $first"
        ;;
    *)
        wrong=$((wrong + 1))
        echo "MISSED $name ($dir)"
        ;;
    esac
done <"$work/list"
echo "all: $right right, $wrong wrong, $apart apart (Fortran, one-sided, threads, MUST's own tests, missing sources)"
