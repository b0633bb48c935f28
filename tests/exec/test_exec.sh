#!/bin/bash
# test_exec.sh — `collsim exec` end to end, as a user runs it: programs built as shared
# objects, outputs and exit codes compared with values derived by hand (see comments).
set -u
: "${COLLSIM:?}" "${PROGRAMS_DIR:?}" "${top_srcdir:?}" "${top_builddir:?}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# run NAME EXPECTED_RC CMD... : runs, keeps stdout/stderr in $tmp/NAME.{out,err}
run() {
    local name=$1 want=$2; shift 2
    "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$name: exit code $rc, expected $want"; sed 's/^/    /' "$tmp/$name.err" | head -5
        return 1
    fi
    return 0
}

expect_file() {  # NAME FILE-WITH-EXPECTED-STDOUT
    if diff -u "$2" "$tmp/$1.out" >"$tmp/$1.diff"; then pass "$1"; else
        fail "$1: stdout differs"; sed 's/^/    /' "$tmp/$1.diff" | head -20; fi
}

expect_err() {  # NAME TEXT : stderr must contain TEXT
    if grep -qF -- "$2" "$tmp/$1.err"; then pass "$1: stderr has '$2'"; else
        fail "$1: stderr lacks '$2'"; sed 's/^/    /' "$tmp/$1.err" | head -5; fi
}

# Per-rank globals. The token ring makes ranks 1, 2, 3 print in turn, then rank 0.
cat >"$tmp/globals.expected" <<'OUT'
rank 1 of 4: global rank 1, counter 1, table 0.5: ok
rank 2 of 4: global rank 2, counter 1, table 1.0: ok
rank 3 of 4: global rank 3, counter 1, table 1.5: ok
rank 0 of 4: global rank 0, counter 1, table 0.0: ok
OUT
run globals 0 "$COLLSIM" exec "$PROGRAMS_DIR/globals.so" -n 4 && expect_file globals "$tmp/globals.expected"
run globals-small 0 "$COLLSIM" exec "$PROGRAMS_DIR/globals_small.so" -n 4 &&
    expect_file globals-small "$tmp/globals.expected"
run globals-large 0 "$COLLSIM" exec "$PROGRAMS_DIR/globals_large.so" -n 4 &&
    expect_file globals-large "$tmp/globals.expected"

# Messages between privatized globals (tests/programs/globals_transfer.c): every check "ok",
# with a segment mapped per rank (1 MiB arrays, the big message a rendezvous), with one
# swapped by copy (3000-byte arrays: a rendezvous once the eager threshold is lowered, eager
# at the default) and with one kept as the chunks each rank changed (100000-byte arrays). Each
# array holds its rank's letter, so a copy under another rank's globals shows.
cat >"$tmp/globals-transfer.expected" <<'OUT'
posted into globals: big ok, small ok
sender's globals unchanged: big ok, small ok
unexpected into the heap: big ok, small ok
OUT
run globals-transfer 0 "$COLLSIM" exec "$PROGRAMS_DIR/globals_transfer.so" -n 3 &&
    expect_file globals-transfer "$tmp/globals-transfer.expected"
run globals-transfer-copy 0 "$COLLSIM" exec "$PROGRAMS_DIR/globals_transfer_small.so" -n 3 \
    --eager-threshold 1024 && expect_file globals-transfer-copy "$tmp/globals-transfer.expected"
run globals-transfer-eager 0 "$COLLSIM" exec "$PROGRAMS_DIR/globals_transfer_small.so" -n 3 &&
    expect_file globals-transfer-eager "$tmp/globals-transfer.expected"
for engine in collsim simgrid; do
    run "globals-transfer-delta-$engine" 0 "$COLLSIM" exec \
        "$PROGRAMS_DIR/globals_transfer_delta.so" -n 3 --engine "$engine" &&
        expect_file "globals-transfer-delta-$engine" "$tmp/globals-transfer.expected"
done

# Without privatization the ranks share their globals. All four set them at t = 0, before
# the ring moves (rank 0's first send is eager; the others block in their receive), in rank
# order: `rank` and `table` keep the last writer's values (rank 3), `counter` reaches 4.
cat >"$tmp/globals-shared.expected" <<'OUT'
rank 1 of 4: global rank 3, counter 4, table 1.5: MIXED
rank 2 of 4: global rank 3, counter 4, table 1.5: MIXED
rank 3 of 4: global rank 3, counter 4, table 1.5: MIXED
rank 0 of 4: global rank 3, counter 4, table 1.5: MIXED
OUT
run globals-shared 0 "$COLLSIM" exec "$PROGRAMS_DIR/globals.so" -n 4 --no-privatize &&
    expect_file globals-shared "$tmp/globals-shared.expected"

# The lazy-binding GOT is not privatized: it holds the addresses of the functions a program
# calls, the same for every rank (sim/engine/privatize.c). A program with no globals of its own
# (pingpong.c) keeps only the C runtime's few bytes per rank (16 with gcc on Debian, against
# 96 with the 80 bytes of its GOT past RELRO); the programs above, whose ranks call printf and
# MPI through the shared GOT, show each rank its own globals.
run globals-got 0 "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 2 --stats -- 8 1 &&
    got_bytes=$(sed -n 's/.*private globals \([0-9]*\) B.*/\1/p' "$tmp/globals-got.err") &&
    if [ -n "$got_bytes" ] && [ "$got_bytes" -le 64 ]; then
        pass "globals-got: $got_bytes B of private globals per rank"
    else
        fail "globals-got: private globals '${got_bytes}' B per rank, expected at most 64"
    fi

# Ping-pong on the default cluster (LV08 model): one way = 13.01 * (2 x 1 us) + B / (0.97 *
# 12.5 GB/s). For B = 1000: 2.602e-5 + 8.2474e-8 s; the round trip is twice that.
# The default preset, ib-edr: o_s 0.2 us + two links of 0.3 us + 1000 B / 12.5 GB/s (0.08 us)
# + o_r 0.2 us = 1.08 us one way (platforms/README.md), so 2.16 us for the round trip.
echo "1000 bytes x 1 round trips: 0.000002160 s" >"$tmp/pingpong.expected"
run pingpong 0 "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 2 -- 1000 1 &&
    expect_file pingpong "$tmp/pingpong.expected"

# Same run twice: byte-identical output.
run pingpong-again 0 "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 2 -- 1000 1 &&
    if cmp -s "$tmp/pingpong.out" "$tmp/pingpong-again.out"; then pass "deterministic"; else
        fail "two runs differ"; fi

# The shipped cluster platform: 1024 hosts, same link parameters as the default one.
run pingpong-platform 0 "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 2 \
    --platform "$top_srcdir/platforms/cluster.xml" -- 1000 1 &&
    expect_file pingpong-platform "$tmp/pingpong.expected"

# Errors.
run fatal 3 "$COLLSIM" exec "$PROGRAMS_DIR/errors.so" -n 2 -- rank &&
    expect_err fatal "collsim: rank 1: MPI_Send: invalid destination rank 99 (communicator size 2) [MPI_ERR_RANK]"
run errors-return 0 "$COLLSIM" exec "$PROGRAMS_DIR/errors.so" -n 2 -- return &&
    if grep -q "^MPI_Send to rank 99 returned class 6: " "$tmp/errors-return.out"; then
        pass "errors-return"; else fail "errors-return: $(cat "$tmp/errors-return.out")"; fi
run abort 9 "$COLLSIM" exec "$PROGRAMS_DIR/errors.so" -n 3 -- abort &&
    expect_err abort "collsim: rank 1 called MPI_Abort with error code 9"
run deadlock 4 "$COLLSIM" exec "$PROGRAMS_DIR/deadlock.so" -n 3 && {
    expect_err deadlock "collsim: deadlock: 3 of 3 ranks can never proceed"
    expect_err deadlock "rank 0 is blocked in MPI_Recv waiting for a message from rank 1 (tag 5)"
    expect_err deadlock "rank 2 is blocked in MPI_Recv waiting for a message from rank 0 (tag 5)"
    expect_err deadlock "wait-for cycle: rank 0 -> rank 1 -> rank 2 -> rank 0 (each waits"
}

# A rank that overflows its stack is named (AddressSanitizer keeps that signal for itself);
# a bigger stack lets the same program run.
if [ "${COLLSIM_SANITIZED:-no}" != yes ]; then
    run bigstack 6 "$COLLSIM" exec "$PROGRAMS_DIR/bigstack.so" -n 2 &&
        expect_err bigstack "collsim: rank 0 died of SIGSEGV (segmentation fault): its stack overflowed (8192 KiB each rank has): try --stack-kib."
    # the shared stack ends in a guard page at any P (a stack each has none beyond 16384)
    run bigstack-many 6 "$COLLSIM" exec "$PROGRAMS_DIR/bigstack.so" -n 20000 &&
        expect_err bigstack-many "collsim: rank 0 died of SIGSEGV (segmentation fault): its stack overflowed"
    run bigstack-separate 6 "$COLLSIM" exec "$PROGRAMS_DIR/bigstack.so" -n 2 --stacks separate &&
        expect_err bigstack-separate "its stack overflowed (256 KiB each rank has)"
    # reading past the top of the stack (a count too large for a local variable of main) is
    # told from an overflow, on a shared stack and on a stack each
    for stacks in shared separate; do
        run "past-top-$stacks" 6 "$COLLSIM" exec "$PROGRAMS_DIR/past_stack_top.so" -n 1 \
            --stacks "$stacks" &&
            expect_err "past-top-$stacks" "collsim: rank 0 died of SIGSEGV (segmentation fault), reaching past the top of its stack: an access past the end of a local variable of main"
    done
fi
printf 'rank 0: 0\nrank 1: 1\n' >"$tmp/bigstack-ok.expected"
run bigstack-ok 0 "$COLLSIM" exec "$PROGRAMS_DIR/bigstack.so" -n 2 --stack-kib 32768 --stats && {
    expect_file bigstack-ok "$tmp/bigstack-ok.expected"
    expect_err bigstack-ok "stack 32768 KiB"
}
# --stats names the stack a rank really has: collsim's own core raises 8 KiB to its 16 KiB
# floor (sim/core/core.h).
run stack-floor 0 "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 2 --stack-kib 8 --stats \
    --engine collsim -- 10 1 && expect_err stack-floor "stack 16 KiB"

# Buffers on the ranks' stacks (tests/programs/stack_buffers.c checks every value it receives
# against the formula its sender used): with one stack shared by the ranks, a stopped rank's
# frames are copied aside and other ranks reach its buffers there; with a stack each they are
# where they are. Eager and rendezvous both ways, strided and MPI_BOTTOM layouts, nonblocking
# and blocking collectives; 33 ranks make the trees uneven.
for n in 4 33; do
    echo "stack buffers, $n ranks: 0 failures" >"$tmp/stack-buffers-$n.expected"
    for mode in separate shared; do
        if [ "$mode" = shared ] && [ "${COLLSIM_SANITIZED:-no}" = yes ]; then
            continue # checked below: AddressSanitizer builds give a stack each
        fi
        for eager in 0 65536 1000000; do
            name=stack-buffers-$n-$mode-$eager
            run "$name" 0 "$COLLSIM" exec "$PROGRAMS_DIR/stack_buffers.so" -n "$n" \
                --stacks "$mode" --eager-threshold "$eager" --stats &&
                expect_file "$name" "$tmp/stack-buffers-$n.expected"
        done
    done
done
if [ "${COLLSIM_SANITIZED:-no}" != yes ]; then
    # shared by default on collsim's own core, and said so
    run stacks-default 0 "$COLLSIM" exec "$PROGRAMS_DIR/stack_buffers.so" -n 4 --stats &&
        expect_err stacks-default "stack 8192 KiB shared"
    run stacks-separate 0 "$COLLSIM" exec "$PROGRAMS_DIR/stack_buffers.so" -n 4 --stats \
        --stacks separate && expect_err stacks-separate "stack 256 KiB  private"
else
    run stacks-sanitized 2 "$COLLSIM" exec "$PROGRAMS_DIR/stack_buffers.so" -n 4 --stacks shared &&
        expect_err stacks-sanitized "--stacks shared: this build runs under AddressSanitizer"
fi
# MPI_Sendrecv lends its eager send buffer until the receive matches or the call returns
# (tests/programs/lent_sends.c checks every value, also of messages received only after their
# sender's call returned and overwrote the buffer, or matched by MPI_Mprobe). The program
# relies on eager buffering, so every threshold here keeps its 4000-byte messages eager; 5
# ranks leave one without a partner. On SimGrid's core too, and without privatized globals
# (then nothing is lent: the same answers).
echo "lent sends, 5 ranks: 0 failures" >"$tmp/lent-sends.expected"
for mode in separate shared; do
    if [ "$mode" = shared ] && [ "${COLLSIM_SANITIZED:-no}" = yes ]; then
        continue
    fi
    for eager in 4000 65536; do
        run "lent-sends-$mode-$eager" 0 "$COLLSIM" exec "$PROGRAMS_DIR/lent_sends.so" -n 5 \
            --stacks "$mode" --eager-threshold "$eager" &&
            expect_file "lent-sends-$mode-$eager" "$tmp/lent-sends.expected"
    done
done
run lent-sends-simgrid 0 "$COLLSIM" exec "$PROGRAMS_DIR/lent_sends.so" -n 5 --engine simgrid &&
    expect_file lent-sends-simgrid "$tmp/lent-sends.expected"
run lent-sends-shared-globals 0 "$COLLSIM" exec "$PROGRAMS_DIR/lent_sends.so" -n 5 \
    --no-privatize && expect_file lent-sends-shared-globals "$tmp/lent-sends.expected"

# Datatypes and ops freed while operations started with them are in flight, persistent
# collectives started in different orders, and requests given up with MPI_Request_free that
# MPI_Finalize completes (tests/programs/freed_objects.c checks every value; a rendezvous
# receive into a freed vector type crashed once, and a freed receive never completed).
for n in 2 5; do
    echo "freed objects, $n ranks: 0 failures" >"$tmp/freed-$n.expected"
    run "freed-objects-$n" 0 "$COLLSIM" exec "$PROGRAMS_DIR/freed_objects.so" -n "$n" &&
        expect_file "freed-objects-$n" "$tmp/freed-$n.expected"
done
run freed-objects-simgrid 0 "$COLLSIM" exec "$PROGRAMS_DIR/freed_objects.so" -n 5 --engine simgrid &&
    expect_file freed-objects-simgrid "$tmp/freed-5.expected"

# MPI_Comm_split, MPI_Comm_create, MPI_Comm_idup and MPI_Comm_idup_with_info on an
# inter-communicator (tests/programs/intercomm_split.c works out every size, rank and remote
# sum from the layout and checks them).
for n in 4 9; do
    echo "intercomm split, $n ranks: 0 failures" >"$tmp/icsplit-$n.expected"
    run "intercomm-split-$n" 0 "$COLLSIM" exec "$PROGRAMS_DIR/intercomm_split.so" -n "$n" &&
        expect_file "intercomm-split-$n" "$tmp/icsplit-$n.expected"
done
run intercomm-split-simgrid 0 "$COLLSIM" exec "$PROGRAMS_DIR/intercomm_split.so" -n 9 \
    --engine simgrid && expect_file intercomm-split-simgrid "$tmp/icsplit-9.expected"

# A spin on MPI_Wtime alone (`while (MPI_Wtime() - t0 < T);`) ends near T instead of never:
# rank r spins r + 1 s; the expected lines are the targets to the hundredth (within 1 %). Then
# each rank sleeps 1.5 s (sleep, usleep, nanosleep): simulated time, not the simulator's.
cat >"$tmp/wtime-spin.expected" <<'EOF'
reads in a row are free: yes
rank 0 spun 1.00 s, slept 1.50 s
rank 1 spun 2.00 s, slept 1.50 s
rank 2 spun 3.00 s, slept 1.50 s
EOF
for engine in collsim simgrid; do
    run "wtime-spin-$engine" 0 "$COLLSIM" exec "$PROGRAMS_DIR/wtime_spin.so" -n 3 --engine "$engine" &&
        expect_file "wtime-spin-$engine" "$tmp/wtime-spin.expected"
done

# getopt in every rank: each parses the whole command line, before or after a barrier, then
# again from the start (tests/programs/getopt_ranks.c checks each value). The second rank to
# parse used to find no option left: getopt's state is the C library's, one per process.
echo "getopt, 4 ranks: 0 failures" >"$tmp/getopt.expected"
for engine in collsim simgrid; do
    run "getopt-$engine" 0 "$COLLSIM" exec "$PROGRAMS_DIR/getopt_ranks.so" -n 4 \
        --engine "$engine" -- -v -n 5 --size=64 -qx input.dat &&
        expect_file "getopt-$engine" "$tmp/getopt.expected"
done

# MPI_INFO_ENV: the command's base name, its arguments, the number of ranks (MPI-3.1 §8.7,
# valued as Open MPI 4.1 values them); MPI_Info_create_env before MPI_Init gives the same.
cat >"$tmp/info-env.expected" <<'OUT'
command = info_env.so
argv = -x 2 y
maxprocs = 3
thread_level = MPI_THREAD_SINGLE
info env, 3 ranks: 0 failures
OUT
run info-env 0 "$COLLSIM" exec "$PROGRAMS_DIR/info_env.so" -n 3 -- -x 2 y &&
    expect_file info-env "$tmp/info-env.expected"

# The handle and status conversions of MPI-3.1 §17.2.4-17.2.5 (tests/programs/fint.c checks
# each kind's round trip, the converted handles in calls, freed objects' integers), both cores.
for engine in collsim simgrid; do
    echo "handle conversions, 3 ranks: 0 failures" >"$tmp/fint.expected"
    run "fint-$engine" 0 "$COLLSIM" exec "$PROGRAMS_DIR/fint.so" -n 3 --engine "$engine" &&
        expect_file "fint-$engine" "$tmp/fint.expected"
done

# A status's MPI_ERROR: set by the calls of MPI_ERR_IN_STATUS only, left as the program put
# it by every call that completes or probes one request or message (tests/programs/
# status_error.c), as Open MPI and MPICH leave it.
echo "status error field, 2 ranks: 0 failures" >"$tmp/status-error.expected"
run status-error 0 "$COLLSIM" exec "$PROGRAMS_DIR/status_error.so" -n 2 &&
    expect_file status-error "$tmp/status-error.expected"

# MPI_Comm_free with nonblocking collectives and point-to-point operations pending on the
# communicator: they complete normally (tests/programs/free_pending.c), on both cores.
for engine in collsim simgrid; do
    echo "free with operations pending, 5 ranks: 0 failures" >"$tmp/free-pending.expected"
    run "free-pending-$engine" 0 "$COLLSIM" exec "$PROGRAMS_DIR/free_pending.so" -n 5 \
        --engine "$engine" && expect_file "free-pending-$engine" "$tmp/free-pending.expected"
done

# MPI-4's MPI_Isendrecv and MPI_Isendrecv_replace (tests/programs/isendrecv.c works out each
# value and status from the ring), on both cores.
for engine in collsim simgrid; do
    echo "isendrecv, 5 ranks: 0 failures before MPI_Finalize" >"$tmp/isendrecv.expected"
    run "isendrecv-$engine" 0 "$COLLSIM" exec "$PROGRAMS_DIR/isendrecv.so" -n 5 \
        --engine "$engine" && expect_file "isendrecv-$engine" "$tmp/isendrecv.expected"
done
echo "isendrecv, 1 ranks: 0 failures before MPI_Finalize" >"$tmp/isendrecv-1.expected"
run isendrecv-1 0 "$COLLSIM" exec "$PROGRAMS_DIR/isendrecv.so" -n 1 &&
    expect_file isendrecv-1 "$tmp/isendrecv-1.expected"

# A program's globals and functions named like the C and maths libraries' (err, index, y1,
# error) are its own, as in an executable (under Open MPI it prints these lines); each rank
# keeps its own copy. Both cores, and without privatized globals.
cat >"$tmp/own-globals.expected" <<'OUT'
rank 0: err 5 y1 2.5 index 7 via pointer 5
own error(): called directly
own error(): called through a pointer
rank 1: err 6 y1 3.5 index 8 via pointer 6
rank 2: err 7 y1 4.5 index 9 via pointer 7
OUT
for engine in collsim simgrid; do
    run "own-globals-$engine" 0 "$COLLSIM" exec "$PROGRAMS_DIR/own_globals.so" -n 3 \
        --engine "$engine" && expect_file "own-globals-$engine" "$tmp/own-globals.expected"
done

# gettimeofday() and clock_gettime() in a program are its simulated time (rank r sleeps r + 1
# simulated seconds; a spin on CLOCK_MONOTONIC ends; they agree with MPI_Wtime), on both cores.
cat >"$tmp/clocks.expected" <<'OUT'
rank 0 slept 1.00 s by gettimeofday, 1.00 s by CLOCK_MONOTONIC; spun 0.25 s; clocks agree with MPI_Wtime: yes; CPU clock answers: yes
rank 1 slept 2.00 s by gettimeofday, 2.00 s by CLOCK_MONOTONIC; spun 0.25 s; clocks agree with MPI_Wtime: yes; CPU clock answers: yes
rank 2 slept 3.00 s by gettimeofday, 3.00 s by CLOCK_MONOTONIC; spun 0.25 s; clocks agree with MPI_Wtime: yes; CPU clock answers: yes
OUT
# (Under AddressSanitizer its interceptors stand between the program and the clocks, which
# then stay real.) SimGrid's thread contexts read the clocks while switching: they must not
# get the simulated answer (they hung).
if [ "${COLLSIM_SANITIZED:-no}" != yes ]; then
    for engine in collsim simgrid; do
        run "clocks-$engine" 0 "$COLLSIM" exec "$PROGRAMS_DIR/clocks.so" -n 3 \
            --engine "$engine" && expect_file "clocks-$engine" "$tmp/clocks.expected"
    done
    run clocks-threads 0 "$COLLSIM" exec "$PROGRAMS_DIR/clocks.so" -n 3 --engine simgrid \
        --cfg contexts/factory:thread && expect_file clocks-threads "$tmp/clocks.expected"
fi

run stacks-simgrid 2 "$COLLSIM" exec "$PROGRAMS_DIR/stack_buffers.so" -n 4 --stacks shared \
    --engine simgrid && expect_err stacks-simgrid \
    "--stacks shared: SimGrid's core runs this, and gives each rank a stack of its own"
run stacks-bad 2 "$COLLSIM" exec "$PROGRAMS_DIR/stack_buffers.so" -n 4 --stacks pooled &&
    expect_err stacks-bad "--stacks must be auto, shared or separate (got 'pooled')"

# Forcing algorithms. The concatenation op is not commutative: rank order gives 1234 on 5
# ranks (rank 0's digit 0 leads, so it does not show). An order-preserving algorithm serves
# it and --stats says so; one that needs a commutative op is refused, never replaced.
echo 1234 >"$tmp/noncomm.expected"
run noncomm-rd 0 "$COLLSIM" exec "$PROGRAMS_DIR/noncommutative.so" -n 5 --stats \
    --algorithm allreduce=recursive_doubling && {
    expect_file noncomm-rd "$tmp/noncomm.expected"
    expect_err noncomm-rd "MPI_Allreduce: 1 call served by recursive_doubling"
}
run noncomm-auto 0 "$COLLSIM" exec "$PROGRAMS_DIR/noncommutative.so" -n 7 --stats &&
    expect_err noncomm-auto "MPI_Allreduce: 1 call served by recursive_doubling"
run noncomm-ring 3 "$COLLSIM" exec "$PROGRAMS_DIR/noncommutative.so" -n 5 --algorithm allreduce=ring &&
    expect_err noncomm-ring "MPI_Allreduce: algorithm 'ring' cannot serve this call: requires commutative op"
run bad-collective 2 "$COLLSIM" exec "$PROGRAMS_DIR/noncommutative.so" -n 2 --algorithm allsum=ring &&
    expect_err bad-collective "unknown collective 'allsum'"
run bad-algorithm 2 "$COLLSIM" exec "$PROGRAMS_DIR/noncommutative.so" -n 2 --algorithm reduce=fastest &&
    expect_err bad-algorithm "MPI_Reduce has no algorithm named 'fastest'"
run bad-parameter 2 "$COLLSIM" exec "$PROGRAMS_DIR/noncommutative.so" -n 2 \
    --algorithm reduce=knomial,radix=1 && expect_err bad-parameter "bad value in 'radix=1'"

# Bad command lines: one message, exit code 2, nothing runs.
run no-program 2 "$COLLSIM" exec -n 2 && expect_err no-program "which program?"
run missing-so 2 "$COLLSIM" exec "$tmp/nothing.so" -n 2 && expect_err missing-so "cannot load"
run zero-ranks 2 "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 0 && expect_err zero-ranks "-n must be at least 1"
run too-many 2 "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 2000 \
    --platform "$top_srcdir/platforms/cluster.xml" &&
    expect_err too-many "2000 ranks but the platform has only 1024 cores"
# The zone opened on line 4 is never closed: SimGrid's parser stops at line 5.
cat >"$tmp/bad.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
<zone id="z" routing="Full">
</platform>
XML
run bad-platform 2 "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 2 --platform "$tmp/bad.xml" &&
    expect_err bad-platform "$tmp/bad.xml:5"
run bad-placement 2 "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 2 --placement diagonal &&
    expect_err bad-placement "--placement: unknown placement 'diagonal' (block, cyclic, random:SEED, hostfile:FILE)"

# A program built the way README tells users, against the build tree's pkg-config file.
cflags=$(PKG_CONFIG_PATH="$top_builddir" pkg-config --cflags collsim)
if cc -shared -fPIC $cflags "$top_srcdir/tests/programs/pingpong.c" -o "$tmp/user.so" 2>"$tmp/cc.err"; then
    run user-build 0 "$COLLSIM" exec "$tmp/user.so" -n 2 -- 1000 1 &&
        expect_file user-build "$tmp/pingpong.expected"
else
    fail "user build: $(cat "$tmp/cc.err")"
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
