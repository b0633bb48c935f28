#!/bin/bash
# test_valgrind.sh — collsim running MPI programs under valgrind: no invalid access, and no
# memory definitely lost. SimGrid's thread contexts are used (valgrind follows threads;
# it would lose track of SimGrid's own stack switching).
set -u
: "${COLLSIM:?}" "${PROGRAMS_DIR:?}" "${top_builddir:?}"
if [ "${COLLSIM_SANITIZED:-no}" = yes ]; then
    echo "sanitizer build: valgrind does not run over AddressSanitizer"; exit 77
fi
command -v valgrind >/dev/null || { echo "valgrind not found (setup.sh installs it)"; exit 1; }
failures=0
check() {  # NAME ARGS... (collsim exec arguments)
    local name=$1; shift
    local log; log=$(mktemp)
    # the libtool wrapper would be traced instead of collsim: run the real binary
    LD_LIBRARY_PATH="$top_builddir/.libs" valgrind --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite --log-file="$log" \
        "$top_builddir/.libs/collsim" exec "$@" --cfg contexts/factory:thread >/dev/null 2>&1
    local rc=$?
    if [ $rc -eq 99 ]; then
        echo "FAIL: $name"; grep -E "Invalid|definitely lost|at 0x|by 0x" "$log" | head -20
        failures=$((failures + 1))
    elif [ $rc -ne 0 ]; then
        echo "FAIL: $name: exit $rc"; tail -5 "$log"; failures=$((failures + 1))
    else
        echo "ok: $name: $(grep -o 'definitely lost: [0-9,]* bytes' "$log" || echo 'no leak')"
    fi
    rm -f "$log"
}
check pingpong "$PROGRAMS_DIR/pingpong.so" -n 2 -- 100000 3
check globals "$PROGRAMS_DIR/globals_small.so" -n 4
# globals kept as the chunks each rank changed; getopt's state per rank; MPI_Isendrecv's flows
check "globals by chunks" "$PROGRAMS_DIR/globals_transfer_delta.so" -n 3
check getopt "$PROGRAMS_DIR/getopt_ranks.so" -n 4 -- -v -n 5 --size=64 -qx input.dat
check isendrecv "$PROGRAMS_DIR/isendrecv.so" -n 4
# nonblocking collectives into uninitialized receive buffers, which collsim digests while
# the operations run (p2p.c, "coll_watch"): no error of the program's for valgrind
check "fresh receive buffers" "$PROGRAMS_DIR/icoll_fresh_buffers.so" -n 4
check collectives "$top_builddir/scenarios/seeds/par_blas2.so" -n 5
# on a shared stack (the default), frames copied aside and back, buffers reached in the copies
check "stack buffers" "$PROGRAMS_DIR/stack_buffers.so" -n 5
# nonblocking collectives run on flows (their own stacks): every kind, several in flight
flows_so=$(mktemp --suffix=.so)
cc -std=c11 -shared -fPIC -I"$top_srcdir/src" "$top_srcdir/tests/realmpi/nonblocking.c" \
    -o "$flows_so" && check nonblocking "$flows_so" -n 4 &&
    check "nonblocking, asynchronous progress" "$flows_so" -n 4 --progress async
rm -f "$flows_so"
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
