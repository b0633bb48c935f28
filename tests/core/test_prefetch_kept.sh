#!/bin/bash
# test_prefetch_kept.sh — the own core's scheduler still asks for the next actors' memory.
#
# With thousands of ranks, what a switch reads (a rank's image on the shared stack, its frames
# on a stack of its own, its record) is out of the caches, and the scheduler prefetches it
# while the actor before runs (sim/core/core_own.c, prefetch_actor). Nothing observable
# depends on it but the wall time, and GCC once deleted every prefetch without a word (a
# function made only of prefetches looked pure to it once it was no longer inlined): an
# 8-byte ring at P = 65536 then ran a quarter slower. This test reads the built library and
# fails if no prefetch instruction is left in it. Timing stays out of `make check`; the figures
# are in tests/bench/bench_p2p.sh.
set -u
: "${top_builddir:?}"
lib="$top_builddir/.libs/libcollsim.so"
command -v objdump >/dev/null || { echo "SKIP: objdump (binutils) is not installed"; exit 77; }
[ -f "$lib" ] || { echo "FAIL: $lib not built"; exit 1; }
case $(uname -m) in
x86_64 | i?86) pattern='prefetch(t[012]|nta|w)?[[:space:]]' ;;
aarch64) pattern='prfm[[:space:]]' ;;
*) echo "SKIP: no prefetch instruction known for $(uname -m)"; exit 77 ;;
esac
count=$(objdump -d --no-show-raw-insn "$lib" | grep -cE "$pattern")
if [ "$count" -ge 4 ]; then
    echo "ok: $count prefetch instructions in libcollsim.so"
    exit 0
fi
echo "FAIL: $count prefetch instructions in $lib (at least 4 expected: an image's lines, a"
echo "      stack's frames, two actor records); has the compiler dropped prefetch_actor's calls?"
exit 1
