#!/bin/bash
# page_cost.sh — what a fresh page, a population call and a guard page cost on this machine
# (tests/bench/page_cost.c), the figures sim/core/page_batch.h quotes. On a virtual machine
# whose page faults are dear, the own core's start-up is mostly these.
#
#   tests/bench/page_cost.sh            # 32768 pages, three times
#   PAGES=8192 REPEAT=1 tests/bench/page_cost.sh
# A benchmark, not a test (EXTRA_DIST, not TESTS).
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -std=c11 -O2 "$here/page_cost.c" -o "$work/page_cost" || exit 1
echo "kernel $(uname -r)"
for _ in $(seq "${REPEAT:-3}"); do
    "$work/page_cost" "${PAGES:-32768}"
done
