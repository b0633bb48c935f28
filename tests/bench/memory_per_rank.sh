#!/bin/bash
# memory_per_rank.sh — where a simulated rank's bytes go, measured by peak RSS differences.
#
# Runs a program that only calls MPI_Init and MPI_Finalize (and one that broadcasts 8 bytes)
# at P ranks, changing one thing at a time:
#   base        collsim with one rank on a platform of P hosts: the hosts, links and routes
#   ranks       P ranks on P / 16 hosts of 16 cores, the smallest stacks (--stack-kib 8, which
#               collsim's own core raises to its 16 KiB floor): actors and rank state
#   stack       P ranks on P / 16 hosts, the automatic stack size for P
#   flat        P ranks on the default flat cluster of P hosts, automatic stacks (a user's run)
#   bcast       the same with one 8-byte binomial broadcast (messages, requests, inboxes)
# and prints each run's peak RSS, per rank, and the differences that isolate each part.
#
#   tests/bench/memory_per_rank.sh              # P = 16384 65536
#   MEMORY_P="65536 262144" tests/bench/memory_per_rank.sh
# Run from a built tree (./setup.sh). A benchmark, not a test (EXTRA_DIST, not TESTS).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench_lib.sh"
ps=${MEMORY_P:-16384 65536}
[ -x "$collsim" ] || { echo "memory_per_rank.sh: build collsim first (./setup.sh)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/empty.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv) { MPI_Init(&argc, &argv); MPI_Finalize(); return 0; }
C
cc -std=c11 -O2 -shared -fPIC -I"$top/src" "$work/empty.c" -o "$work/empty.so" || exit 1
cc -std=c11 -O2 -shared -fPIC -I"$top/src" "$here/fidelity_coll.c" -o "$work/fc.so" || exit 1

rss() {  # CMD... -> peak RSS in KiB, or "failed"
    if /usr/bin/time -f "%M" -o "$work/time" "$@" >/dev/null 2>"$work/err"; then
        cat "$work/time"
    else
        echo failed
        tail -2 "$work/err" >&2
    fi
}

printf "%8s | %10s %10s %10s %10s %10s | %8s %8s %8s %8s\n" P "base KiB" "ranks KiB" \
    "stack KiB" "flat KiB" "bcast KiB" "host B" "rank B" "+stack B" "msgs B"
for p in $ps; do
    hosts=$((p / 16))
    base=$(rss "$collsim" exec "$work/empty.so" -n 1 --platform "flat:hosts=$p")
    ranks=$(rss "$collsim" exec "$work/empty.so" -n "$p" --platform "flat:hosts=$hosts,cores=16" \
        --stack-kib 8)
    stack=$(rss "$collsim" exec "$work/empty.so" -n "$p" --platform "flat:hosts=$hosts,cores=16")
    flat=$(rss "$collsim" exec "$work/empty.so" -n "$p")
    bcast=$(rss "$collsim" exec "$work/fc.so" -n "$p" --algorithm bcast=binomial -- bcast 8)
    one=$(rss "$collsim" exec "$work/empty.so" -n 1)
    awk -v p="$p" -v base="$base" -v ranks="$ranks" -v stack="$stack" -v flat="$flat" \
        -v bcast="$bcast" -v one="$one" -v hosts="$hosts" 'BEGIN {
        host = (base - one) * 1024 / p                   # a host, its links and routes
        rank = (ranks - one - (base - one) * hosts / p) * 1024 / p   # with the smallest stack
        stk = (stack - ranks) * 1024 / p                  # the automatic stack instead
        msgs = (bcast - flat) * 1024 / p                  # one broadcast: messages, requests
        printf "%8d | %10s %10s %10s %10s %10s | %8.0f %8.0f %8.0f %8.0f\n", p, base, ranks,
            stack, flat, bcast, host, rank, stk, msgs }'
done
echo "host B: a host of the flat cluster with its links; rank B: a rank (actor, context,"
echo "mailbox, collsim's state, and its stack: on collsim's own core, the default, the ranks"
echo "share one stack and a stopped rank keeps the copy of its frames, which grows to about"
echo "1.3 KiB in a collective call (counted in msgs B); with --stacks separate a stack costs the"
echo "pages its rank touches, 4 KiB at least; on SimGrid's core, --engine simgrid, stacks beyond"
echo "16384 ranks come zeroed from the heap and cost their whole size); +stack B: what the"
echo "automatic stack size for P adds; msgs B: what one 8-byte broadcast adds per rank. A run of"
echo "P ranks on the flat cluster needs about P x (host + rank + stack) plus what its calls add."
