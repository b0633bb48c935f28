#!/bin/bash
# test_foreign.sh — `collsim exec` never lets a program bind an MPI name outside collsim: before
# any rank starts it refuses (exit 2) a program that needs MPI functions collsim does not define,
# naming each, and a program built for another MPI (Open MPI's mpicc, or linked with
# libsimgrid), giving the command that rebuilds it. mpi.h declares all of MPI 3.1, so programs
# compile; the functions of the parts collsim leaves out are defined to refuse their call, so a
# program that only references them runs. The Open MPI cases are skipped when mpicc is absent.
set -u
: "${COLLSIM:?}" "${top_srcdir:?}" "${top_builddir:?}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$top_srcdir/tests/exec/foreign
rebuild='cc -shared -fPIC $(pkg-config --cflags collsim) prog.c -o prog.so'

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# build NAME.so from foreign/NAME.c against collsim's mpi.h, as a user does
build() {
    cc -std=c11 -Wall -Werror=implicit-function-declaration -shared -fPIC -I"$top_srcdir/src" \
        "$src/$1.c" -o "$tmp/$1.so" "${@:2}" 2>"$tmp/$1.cc.err" ||
        { fail "$1.c does not compile against collsim's mpi.h"; cat "$tmp/$1.cc.err"; }
}

# run NAME EXPECTED_RC CMD... : runs, keeps stdout/stderr in $tmp/NAME.{out,err}
run() {
    local name=$1 want=$2; shift 2
    "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$name: exit code $rc, expected $want"; sed 's/^/    /' "$tmp/$name.err" | head -5
        return 1
    fi
    pass "$name: exit code $rc"
}

expect_err() {  # NAME TEXT : stderr must contain TEXT
    if grep -qF -- "$2" "$tmp/$1.err"; then pass "$1: stderr has '$2'"; else
        fail "$1: stderr lacks '$2'"; sed 's/^/    /' "$tmp/$1.err" | head -5; fi
}

expect_no_err() {  # NAME TEXT : stderr must not contain TEXT
    if grep -qF -- "$2" "$tmp/$1.err"; then
        fail "$1: stderr has '$2'"; sed 's/^/    /' "$tmp/$1.err" | head -5
    else pass "$1: stderr has no '$2'"; fi
}

expect_silent_ranks() {  # NAME : refused before any rank ran: no stdout, one line on stderr
    if [ -s "$tmp/$1.out" ]; then fail "$1: a rank printed:"; head -3 "$tmp/$1.out"; else
        pass "$1: no rank printed anything"; fi
    if [ "$(wc -l <"$tmp/$1.err")" -eq 1 ]; then pass "$1: a one-line refusal"; else
        fail "$1: stderr is not one line"; head -5 "$tmp/$1.err"; fi
}

# does libcollsim define NAME? (other parts of issue 11 add functions: the expectations follow)
defines() {
    nm -D --defined-only "$top_builddir/.libs/libcollsim.so" 2>/dev/null | grep -qE " T $1\$"
}

# 1. mpi.h declares every function of MPI 3.1: foreign/every_function.c names each one.
if cc -std=c11 -Wall -Werror -Werror=implicit-function-declaration -I"$top_srcdir/src" \
    -c "$src/every_function.c" -o "$tmp/every_function.o" 2>"$tmp/every.err"; then
    pass "mpi.h declares all $(grep -o 'F(MPI_' "$src/every_function.c" | wc -l) MPI 3.1 functions"
else
    fail "mpi.h lacks MPI 3.1 functions:"; grep -o "'MPI_[A-Za-z0-9_]*' undeclared" \
        "$tmp/every.err" | sort -u | head -20
fi

# 2. Functions collsim lacks and mpi.h does not declare: refused by name, sorted, before any
# rank prints its first line. Without the check, such a name bound to libsimgrid's SMPI (an
# MPI_Iallreduce made the rank die of SIGSEGV). MPI_Win_create, which collsim defines only to
# refuse its call, is no reason to refuse the program (and MPI_Init is collsim's own).
build needs_missing
run missing 2 "$COLLSIM" exec "$tmp/needs_missing.so" -n 4 &&
    expect_silent_ranks missing
expect_err missing "needs_missing.so needs MPI functions collsim does not provide: MPIX_Comm_revoke, MPI_Send_c"
if grep -q "MPI_Send_c.*[,]" "$tmp/missing.err" || grep -q "MPI_Win_create\|MPI_Init" "$tmp/missing.err"; then
    fail "missing: names more than the two missing functions"; head -3 "$tmp/missing.err"
else pass "missing: names the two missing functions only"; fi

# 3. Functions of the parts collsim leaves out: the program runs, after a note that names
# each under its part (profiling names too); a rank that calls one stops the run there with
# the name, the rank and the line, as a fatal MPI error (exit 3), its output so far kept.
build out_of_scope -g
run out-of-scope 0 "$COLLSIM" exec "$tmp/out_of_scope.so" -n 2 &&
    if [ "$(cat "$tmp/out-of-scope.out")" = "no rank called a function collsim leaves out" ]; then
        pass "out-of-scope: ran to the end"; else
        fail "out-of-scope: printed '$(cat "$tmp/out-of-scope.out")'"; fi
expect_err out-of-scope "collsim: exec: note: $tmp/out_of_scope.so references functions collsim leaves out (see README): one-sided communication (PMPI_Win_fence), MPI-IO (MPI_File_open), dynamic processes (MPI_Comm_get_parent), MPI_T tool interface (MPI_T_init_thread); it runs, and a rank that calls one of them stops the run"
[ "$(wc -l <"$tmp/out-of-scope.err")" -eq 1 ] && pass "out-of-scope: the note alone on stderr" ||
    { fail "out-of-scope: stderr is not the note alone"; head -5 "$tmp/out-of-scope.err"; }
run out-of-scope-call 3 "$COLLSIM" exec "$tmp/out_of_scope.so" -n 2 -- call &&
    if [ "$(cat "$tmp/out-of-scope-call.out")" = "rank 0 opens a file" ]; then
        pass "out-of-scope-call: output up to the call kept, nothing after"; else
        fail "out-of-scope-call: printed '$(cat "$tmp/out-of-scope-call.out")'"; fi
expect_err out-of-scope-call "collsim: rank 0: MPI_File_open at main+0x"
expect_err out-of-scope-call "(out_of_scope.so, out_of_scope.c:24): collsim does not provide this function (MPI-IO: out of scope, see README) [MPI_ERR_UNSUPPORTED_OPERATION]"

# 4. A program using only collsim's functions still runs: ranks 0..3 give 1+2+3+4 = 10.
build allreduce
run allreduce 0 "$COLLSIM" exec "$tmp/allreduce.so" -n 4 &&
    if [ "$(cat "$tmp/allreduce.out")" = "sum of 1..4 = 10" ]; then pass "allreduce: output";
    else fail "allreduce: printed '$(cat "$tmp/allreduce.out")'"; fi

# 5. Linked with libsimgrid: its MPI would answer every name collsim lacks.
build allreduce -Wl,--no-as-needed -lsimgrid
cp "$tmp/allreduce.so" "$tmp/with_simgrid.so"
run with-simgrid 2 "$COLLSIM" exec "$tmp/with_simgrid.so" -n 2 && expect_silent_ranks with-simgrid
expect_err with-simgrid "with_simgrid.so was built for SimGrid's SMPI (it is linked with libsimgrid.so"
expect_err with-simgrid "$rebuild"

# 6. Built with Open MPI: with mpicc (needs libmpi.so.40 and Open MPI's handle objects), and
# with Open MPI's mpi.h but plain cc (the handle objects alone give it away).
if command -v mpicc >/dev/null; then
    mpicc -shared -fPIC "$src/allreduce.c" -o "$tmp/ompi.so" 2>"$tmp/mpicc.err" ||
        { fail "mpicc cannot build allreduce.c"; cat "$tmp/mpicc.err"; }
    run ompi 2 "$COLLSIM" exec "$tmp/ompi.so" -n 2 && expect_silent_ranks ompi
    expect_err ompi "ompi.so was built for Open MPI (it is linked with libmpi.so.40; it references ompi_mpi_comm_world"
    expect_err ompi "$rebuild"
    ompi_include=$(mpicc --showme:incdirs | awk '{print $1}')
    cc -shared -fPIC -I"$ompi_include" "$src/allreduce.c" -o "$tmp/ompi_header.so"
    run ompi-header 2 "$COLLSIM" exec "$tmp/ompi_header.so" -n 2 &&
        expect_silent_ranks ompi-header
    expect_err ompi-header "ompi_header.so was built for Open MPI (it references ompi_mpi_comm_world"
    expect_err ompi-header "$rebuild"
else
    echo "skip: mpicc not found: the Open MPI cases (install libopenmpi-dev, as ./setup.sh does)"
fi

# 7. Not a program at all: one message, exit 2.
run directory 2 "$COLLSIM" exec "$tmp" -n 2 && expect_err directory "is a directory"
echo 'int main(void) { return 0; }' >"$tmp/source.so"
run not-elf 2 "$COLLSIM" exec "$tmp/source.so" -n 2 && expect_err not-elf "is not an ELF file"

# 8. `collsim run` loads a scenario's program through the same check, before any point runs.
printf '[run]\nprogram = %s\nranks = 2\n' "$tmp/needs_missing.so" >"$tmp/missing.ini"
run scenario 2 "$COLLSIM" run "$tmp/missing.ini" -q &&
    expect_err scenario "missing.ini:2: [run] program: $tmp/needs_missing.so needs MPI functions collsim does not provide"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
