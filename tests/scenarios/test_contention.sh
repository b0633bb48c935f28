#!/bin/bash
# test_contention.sh — what the contention scenarios are meant to show, asserted on their
# golden tables (test_scenarios.sh holds every golden equal to a fresh run):
#  - a 2:1 oversubscribed fat tree slows the Alltoall's large blocks (which cross the spine)
#    by at least 1.3x against full bisection, and leaves 64-byte blocks within 10 %;
#  - on an 8x8 torus, recursive doubling's far partners make it at least 3x slower than the
#    ring at 1 MiB (on a flat switch, compare_allreduce.ini, it is the other way round at
#    small sizes and within 4x at 1 MiB);
#  - node-aware Allreduce equals its inter-node algorithm with one core per node, and beats
#    flat recursive doubling by at least 3x at 1 MiB with 8 and with 64 cores per node.
set -u
: "${top_srcdir:?}"
golden="$top_srcdir/tests/golden/scenarios"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# time max of (collective, algorithm, P, size as printed: "64 KiB") in microseconds
time_us() {
    awk -v c="$2" -v a="$3" -v p="$4" -v s="$5" '
        $1 == c && $2 == a && $3 == p && ($4 " " $5) == s {
            v = $6; u = $7
            if (u == "ns") v /= 1000; else if (u == "ms") v *= 1000; else if (u == "s") v *= 1e6
            print v; found = 1; exit }
        END { if (!found) print "missing" }' "$golden/$1.out"
}
ratio_at_least() {  # LABEL A B MIN: A / B >= MIN
    if awk -v a="$2" -v b="$3" -v m="$4" 'BEGIN { exit !(a != "missing" && b != "missing" && a / b >= m) }'; then
        pass "$1: $2 us / $3 us >= $4"
    else
        fail "$1: $2 us / $3 us, expected at least $4"
    fi
}
ratio_within() {  # LABEL A B LO HI
    if awk -v a="$2" -v b="$3" -v lo="$4" -v hi="$5" 'BEGIN { exit !(a != "missing" && b != "missing" && a / b >= lo && a / b <= hi) }'; then
        pass "$1: $2 us / $3 us in [$4, $5]"
    else
        fail "$1: $2 us / $3 us, expected in [$4, $5]"
    fi
}

for algo in pairwise bruck linear ring; do
    ratio_at_least "fat tree 2:1 vs full, alltoall $algo 64 KiB" \
        "$(time_us contention_alltoall_fattree_2to1 alltoall $algo 64 "64 KiB")" \
        "$(time_us contention_alltoall_fattree_full alltoall $algo 64 "64 KiB")" 1.3
    ratio_within "fat tree 2:1 vs full, alltoall $algo 64 B" \
        "$(time_us contention_alltoall_fattree_2to1 alltoall $algo 64 "64 B")" \
        "$(time_us contention_alltoall_fattree_full alltoall $algo 64 "64 B")" 0.9 1.1
done

ratio_at_least "torus 8x8: recursive doubling vs ring at 1 MiB" \
    "$(time_us contention_allreduce_torus allreduce recursive_doubling 64 "1 MiB")" \
    "$(time_us contention_allreduce_torus allreduce ring 64 "1 MiB")" 3
ratio_within "flat switch: recursive doubling vs ring at 1 MiB" \
    "$(time_us compare_allreduce allreduce recursive_doubling 64 "1 MiB")" \
    "$(time_us compare_allreduce allreduce ring 64 "1 MiB")" 0.25 4

for size in "8 B" "64 KiB" "1 MiB"; do
    inter=recursive_doubling
    [ "$size" != "8 B" ] && inter=rabenseifner
    ratio_within "1 core per node: smp = $inter at $size" \
        "$(time_us node_aware_allreduce_1cores allreduce smp 256 "$size")" \
        "$(time_us node_aware_allreduce_1cores allreduce $inter 256 "$size")" 1 1
done
for cores in 8 64; do
    ratio_at_least "$cores cores per node: recursive doubling vs smp at 1 MiB" \
        "$(time_us node_aware_allreduce_${cores}cores allreduce recursive_doubling 256 "1 MiB")" \
        "$(time_us node_aware_allreduce_${cores}cores allreduce smp 256 "1 MiB")" 3
done

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
