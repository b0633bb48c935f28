#!/bin/bash
# model_speed.sh — flows per second of collsim's own network model (sim/core/model.h) against
# SimGrid 3.32 on the same ring: P hosts of a cluster without backbone (split-duplex private
# links, 12.5 GB/s, 0.3 us), host i sending 8 B to host i+1, each chain starting its next flow
# when the previous one ends, R flows per chain; CM02 with SimGrid's default cross traffic.
# The model runs from tests/bench/model_speed.c (compiled here with the model's sources);
# SimGrid from tests/core/model_vs_simgrid --ring (maestro-driven sendto_async chains, built by
# make check). Both print the simulated end date: with the same R they must agree.
#
# SimGrid keeps maestro's transfers in a list it scans to remove each finished one, so its cost
# per flow grows with P: it runs fewer rounds at P = 16384 (BENCH_SIMGRID_ROUNDS).
#
#   tests/bench/model_speed.sh
#   BENCH_P="64 1024" BENCH_ROUNDS="2000 200" BENCH_SIMGRID_ROUNDS="2000 200" tests/bench/model_speed.sh
# Run from a built tree (./setup.sh, then make check for the SimGrid side).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
read -r -a ps <<<"${BENCH_P:-64 1024 16384}"
read -r -a rounds <<<"${BENCH_ROUNDS:-2000 200 20}"
read -r -a sg_rounds <<<"${BENCH_SIMGRID_ROUNDS:-2000 200 5}"
harness="$top/tests/core/model_vs_simgrid"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck disable=SC2046
cc -std=c11 -O2 -D_GNU_SOURCE -I"$top" $(pkg-config --cflags glib-2.0) "$here/model_speed.c" \
    "$top/sim/core/model.c" "$top/sim/core/model_lmm.c" -o "$work/model_speed" \
    $(pkg-config --libs glib-2.0) -lm || exit 1
[ -x "$harness" ] || echo "($harness not built: make check builds it; SimGrid's figures skipped)"

for i in "${!ps[@]}"; do
    p=${ps[$i]}
    "$work/model_speed" "$p" "${rounds[$i]}" || exit 1
    if [ -x "$harness" ]; then
        "$harness" --ring="$p" --rounds="${sg_rounds[$i]}" \
            --cfg=network/model:CM02 --log=root.thres:critical || exit 1
        if [ "${sg_rounds[$i]}" != "${rounds[$i]}" ]; then
            "$work/model_speed" "$p" "${sg_rounds[$i]}" | sed 's/^model  /model* /'
        fi
    fi
done
echo "(model*: the model over SimGrid's rounds, for its simulated date)"
