#!/bin/bash
# mpich_suite.sh — MPICH's own test suite (test/mpi of an MPICH source tree) run under collsim:
# each test of the chosen directories is built as a shared object against collsim's mpi.h
# (with MPICH's harness, util/mtest*.c, strict MPI) and run as its testlist says (ranks,
# arguments); a test passes when it exits 0 and prints "No Errors" (in any case). Prints one
# line per failure (the first lines of its stderr) and a count per directory. Not part of make
# check: it needs an MPICH checkout, and some tests take minutes or tens of GB (gather_big,
# large_vec).
#
#   tests/bench/mpich_suite.sh MPICH/test/mpi [DIR...]     (default: coll pt2pt datatype comm
#                                                           group attr topo errhan init info)
#   COLLSIM=path/to/collsim TIMEOUT=120 ...
#
# MPI-4 large-count (_c), one-sided, I/O, dynamic processes, Fortran and threads are out of
# collsim's scope: those tests fail with collsim's refusal naming the functions.
set -u
src=${1:?usage: mpich_suite.sh MPICH/test/mpi [DIR...]}
shift
dirs=${*:-coll pt2pt datatype comm group attr topo errhan init info}
top=$(cd "$(dirname "$0")/../.." && pwd)
collsim=${COLLSIM:-$top/collsim}
timeout=${TIMEOUT:-120}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp -r "$src/include" "$src/util" "$work/"
# what MPICH's configure would write: a plain C11 platform, no threads, no one-sided
cat >"$work/include/mpitestconf.h" <<'EOF'
#define HAVE_STDARG_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_STRING_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_LONG_LONG_INT 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_INT64_T 1
#define HAVE_MPI_INIT_THREAD 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_NONE
EOF
: >"$work/include/mtest_mpix.h"
cflags="-I$top/src -I$work/include -O1 -w -DUSE_STRICT_MPI"
harness="$work/util/mtest.c $work/util/mtest_common.c $work/util/mtest_single.c $work/util/dtypes.c"
# the datatype pools (dtpools) that the typed tests draw their buffers from (coll/allred,
# coll/reduce, pt2pt/sendself, ...): built once, with an empty configure header (it only
# asks for standard C headers)
if [ -d "$src/dtpools/src" ]; then
    cp -r "$src/dtpools" "$work/"
    : >"$work/dtpools/dtpoolsconf.h"
    # shellcheck disable=SC2086
    (cd "$work/dtpools" && cc -c -fPIC $cflags -Iinclude src/*.c && ar rc libdtpools.a ./*.o)
    cflags="$cflags -I$work/dtpools/include"
    harness="$harness $work/dtpools/libdtpools.a"
fi

total_pass=0
total_fail=0
for d in $dirs; do
    list=$src/$d/testlist.in
    [ -f "$list" ] || list=$src/$d/testlist
    [ -f "$list" ] || { echo "$d: no testlist"; continue; }
    pass=0
    fail=0
    while read -r name np rest; do
        # errors/coll marks its mismatched-length tests @coll_error@ (MPICH's configure keeps
        # them where its error checking is on, as collsim's always is)
        name=${name#@coll_error@}
        case "$name" in '' | \#* | @*) continue ;; esac
        c=$src/$d/$name.c
        [ -f "$c" ] || continue
        so=$work/${d//\//-}-$name.so
        if [ ! -f "$so" ]; then
            main=""
            grep -q '^int main' "$c" || main=$work/util/run_mpitests.c
            # shellcheck disable=SC2086
            if ! cc -shared -fPIC $cflags "$c" $main $harness -o "$so" 2>"$work/build.err"; then
                echo "BUILD $d/$name: $(grep -m1 error "$work/build.err" | cut -c1-160)"
                continue
            fi
        fi
        args=$(echo "$rest" | grep -o 'arg=[^ ]*' | sed 's/^arg=//' | tr '\n' ' ')
        # shellcheck disable=SC2086
        timeout "$timeout" "$collsim" exec "$so" -n "$np" -- $args >"$work/out" 2>"$work/err" \
            </dev/null
        rc=$?
        if [ $rc = 0 ] && grep -qi "No Errors" "$work/out"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL $d/$name -n $np $args(exit $rc): $(grep -v '^$' "$work/err" | head -1 | cut -c1-200)"
        fi
    done <"$list"
    echo "$d: $pass passed, $fail failed"
    total_pass=$((total_pass + pass))
    total_fail=$((total_fail + fail))
done
echo "all: $total_pass passed, $total_fail failed"
