#!/bin/bash
# test_misuse.sh — wrong programs get a diagnosis, never a crash or a silent answer.
# Each tests/misuse/NAME.c says in its header how to run it (`run:`), the exit status
# expected (`exit:`) and lines its output must contain (`expect:`, compared as fixed
# strings; what follows "expect: " up to the end of the line, leading spaces included).
# The expectations were written from the MPI rules each program breaks, before running it.
set -u
: "${COLLSIM:?}" "${MISUSE_DIR:?}" "${top_srcdir:?}"
dir=$top_srcdir/tests/misuse
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# check NAME SOURCE OUTPUT RC: 0 if RC and OUTPUT meet SOURCE's header
check() {
    local name=$1 source=$2 output=$3 rc=$4 want bad=0
    want=$(sed -n 's/^ \* exit: //p' "$source")
    if [ "$rc" != "$want" ]; then
        echo "  $name: exit status $rc, expected $want"
        bad=1
    fi
    while IFS= read -r line; do
        if ! grep -qF -- "$line" "$output"; then
            echo "  $name: output lacks '$line'"
            bad=1
        fi
    done < <(sed -n 's/^ \* expect: //p' "$source")
    return $bad
}

count=0
for source in "$dir"/*.c; do
    name=$(basename "$source" .c)
    args=$(sed -n 's/^ \* run: //p' "$source")
    if [ "${COLLSIM_SANITIZED:-no}" = yes ] && grep -q '^ \* sanitized: skip' "$source"; then
        echo "skip: $name (its behaviour differs under the sanitizers)"
        continue
    fi
    # shellcheck disable=SC2086
    "$COLLSIM" exec "$MISUSE_DIR/$name.so" $args >"$tmp/$name.out" 2>&1
    rc=$?
    count=$((count + 1))
    if check "$name" "$source" "$tmp/$name.out" "$rc"; then
        pass "$name: exit $rc, $(head -1 "$tmp/$name.out")"
    else
        fail "$name"
        sed 's/^/    | /' "$tmp/$name.out" | head -12
    fi
    # a report is printed once, never interleaved with a crash or SimGrid's own messages
    if grep -qE 'SIGSEGV|Assertion|terminate called|backtrace' "$tmp/$name.out"; then
        fail "$name: crashed: $(head -3 "$tmp/$name.out")"
    fi
done
[ "$count" -ge 14 ] || fail "only $count programs in $dir"

# Bad options: one line naming the problem, exit 2, before anything runs.
while IFS='|' read -r options message; do
    # shellcheck disable=SC2086
    "$COLLSIM" exec "$MISUSE_DIR/correct_calls.so" $options >"$tmp/opt.out" 2>&1
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/opt.out")" -eq 1 ] && grep -qF -- "$message" "$tmp/opt.out"; then
        pass "exec $options: $(cat "$tmp/opt.out")"
    else
        fail "exec $options: exit $rc, $(head -3 "$tmp/opt.out")"
    fi
done <<'OPTIONS'
-n 4 --cfg bogus|--cfg bogus: not of the form NAME:VALUE
-n 4 --cfg no/such-item:1|--cfg no/such-item:1: Uncaught exception std::out_of_range: Bad config key: no/such-item
-n 4 --cfg network/model:Constant|there is no link in the Constant network model
-n 4 --cfg network/model:Nope|Model 'Nope' is invalid
-n 4 --cfg contexts/nthreads:2|--cfg contexts/nthreads:2: collsim runs its ranks one at a time
-n 4 --eager-threshold -5|--eager-threshold must be at least 0 bytes (got -5)
-n 4 --send-overhead -1|--send-overhead: '-1' is not a duration >= 0
-n 4 --gap nan|--gap: 'nan' is not a duration >= 0
-n 4 --progress thread|--progress must be calls or async (got 'thread')
-n 4 --time-limit -1s|--time-limit: '-1s' is not a duration >= 0
-n 1000000000|-n 1000000000: 1000000000 ranks need at least
-n 0|-n must be at least 1
-n 2 --algorithm=|--algorithm wants COLLECTIVE=NAME (got '')
-n 2 --platform flat:hosts=8,|platform: flat: '' is not key=value
OPTIONS

# The harness itself must be able to fail: a wrong exit status or a missing line is refused.
sed 's/^ \* exit: 7$/ * exit: 0/' "$dir/bcast_vs_reduce.c" >"$tmp/wrong_exit.c"
sed 's/^ \* expect:   rank 1: MPI_Reduce/ * expect:   rank 1: MPI_Scan/' "$dir/bcast_vs_reduce.c" \
    >"$tmp/wrong_line.c"
for wrong in wrong_exit wrong_line; do
    if check "$wrong" "$tmp/$wrong.c" "$tmp/bcast_vs_reduce.out" 7 >/dev/null; then
        fail "the harness accepted $wrong"
    else
        pass "the harness refuses $wrong"
    fi
done

# --no-check removes the checker: the same program then ends as under a real MPI, silently
# (which is why the checker is on by default).
"$COLLSIM" exec "$MISUSE_DIR/bcast_vs_reduce.so" -n 4 --no-check >"$tmp/nocheck.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && ! grep -q "mismatch" "$tmp/nocheck.out"; then
    pass "--no-check: bcast_vs_reduce runs unchecked (exit 0)"
else
    fail "--no-check: exit $rc, $(head -3 "$tmp/nocheck.out")"
fi
# and the send-buffer watch with it: the changed buffers go unseen, as under a real MPI
"$COLLSIM" exec "$MISUSE_DIR/isend_buffer_changed.so" -n 2 --no-check >"$tmp/nowatch.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && ! grep -q "MPI_ERR_BUFFER" "$tmp/nowatch.out" &&
    grep -qF "rank 0: MPI_Wait MPI_SUCCESS" "$tmp/nowatch.out"; then
    pass "--no-check: isend_buffer_changed runs unchecked (exit 0)"
else
    fail "--no-check, isend_buffer_changed: exit $rc, $(head -3 "$tmp/nowatch.out")"
fi
# A program that is safe only with eager buffering (rank 1 receives rank 0's two sends in the
# other order) runs by default, as under a real MPI; with every send waiting for its receive
# (--eager-threshold 0, MPI's minimum of buffering) the deadlock it hides is reported.
cat >"$tmp/unsafe.c" <<'C'
#include <mpi.h>
int
main(int argc, char **argv)
{
    int rank, a = 1, b = 2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Send(&b, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&b, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&a, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
C
if cc -std=c11 -shared -fPIC -I"$top_srcdir/src" "$tmp/unsafe.c" -o "$tmp/unsafe.so"; then
    "$COLLSIM" exec "$tmp/unsafe.so" -n 2 >"$tmp/unsafe.out" 2>&1
    rc_eager=$?
    "$COLLSIM" exec "$tmp/unsafe.so" -n 2 --eager-threshold 0 >"$tmp/unsafe0.out" 2>&1
    rc_sync=$?
    if [ "$rc_eager" -eq 0 ] && [ "$rc_sync" -eq 4 ] &&
        grep -qF "rank 0 is blocked in MPI_Send waiting for a send to rank 1 (tag 0)" \
            "$tmp/unsafe0.out"; then
        pass "an unsafe program: runs eagerly, deadlocks with --eager-threshold 0"
    else
        fail "an unsafe program: exit $rc_eager, then $rc_sync: $(head -2 "$tmp/unsafe0.out")"
    fi
else
    fail "cannot build unsafe.c"
fi

# Text that is not UTF-8, or a key no scenario has, is refused with where it is: the
# scenario's line, the option's position or text; exit 2, one line, nothing run.
printf '[run]\ncollectives = allreduce\nranks = 4\nsizes = 8\nalgorithms = r\351\n' \
    >"$tmp/latin1.ini"
check_refusal() {  # NAME MESSAGE COMMAND...
    local name=$1 message=$2 rc
    shift 2
    "$@" >"$tmp/refusal.out" 2>&1
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/refusal.out")" -eq 1 ] &&
        grep -qF -- "$message" "$tmp/refusal.out"; then
        pass "$name: $(cat "$tmp/refusal.out")"
    else
        fail "$name: exit $rc, $(head -3 "$tmp/refusal.out")"
    fi
}
check_refusal "scenario not UTF-8" "latin1.ini:5: [run] algorithms:" \
    "$COLLSIM" run "$tmp/latin1.ini"
iconv -f UTF-8 -t UTF-8 "$tmp/refusal.out" >/dev/null 2>&1 ||
    fail "the refusal of latin1.ini is not itself valid UTF-8"
check_refusal "argument not UTF-8" 'argument 4 ("fl\377at") is not valid UTF-8' \
    "$COLLSIM" exec "$MISUSE_DIR/correct_calls.so" --platform $'fl\xffat' -n 2
check_refusal "non-ASCII --set key" "--set rün.ranks=4: [rün]: unknown group" \
    "$COLLSIM" run "$top_srcdir/scenarios/quickstart.ini" --set "rün.ranks=4"

# Without --verbose, what was not freed is one summary line, not a line per object.
"$COLLSIM" exec "$MISUSE_DIR/unfreed_handles.so" -n 4 >"$tmp/summary.out" 2>&1
rc=$?
# (SimGrid's own notes, such as the sanitizer build's thread-factory warning, are not ours)
if [ "$rc" -eq 0 ] && [ "$(grep -c '^collsim:' "$tmp/summary.out")" -eq 1 ] &&
    grep -qF "rank 3: 2 communicators (collsim exec --verbose lists each)" "$tmp/summary.out"; then
    pass "unfreed_handles without --verbose: $(grep '^collsim:' "$tmp/summary.out")"
else
    fail "unfreed_handles without --verbose: exit $rc, $(head -3 "$tmp/summary.out")"
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "PASS"
