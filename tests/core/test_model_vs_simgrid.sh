#!/bin/bash
# test_model_vs_simgrid.sh — collsim's own models (sim/core/model.h) against SimGrid 3.32 itself:
# the same workloads, started at the same dates, must complete at the same dates (to 1e-9
# relative; the table counts how many are bit-identical) and in the same order.
#
# For each network model (CM02 with and without cross traffic, LV08, SMPI's piecewise factors)
# and each platform of tests/core/model_vs_simgrid.cpp (a: cluster, split-duplex links; b:
# shared links and backbone; c: fat-pipe backbone, loopback; d: two clusters joined by a link;
# e: 4-core hosts; f: unequal links around a fat-pipe switch), two seeds of timer-started flows and executions, two seeds of actor chains
# (flows, executions, sleeps, each started when the previous ends, SimGrid's wait detectors
# included), one seed of timer-started flows and executions among which flows' remains are read
# (model_action_remains, SimGrid's get_remains: a lazy update that changes later roundings) or
# flows are cancelled (model_action_cancel: they leave their links only when SimGrid handles
# ended actions), and the fixed tie case. `make check` builds the harness; this script only runs it.
#
#   tests/core/test_model_vs_simgrid.sh            # from make check, or with top_builddir set
#   MODEL_VS_SIMGRID_SEEDS="1 2 3 4" tests/core/test_model_vs_simgrid.sh
set -u
bin="${top_builddir:-.}/tests/core/model_vs_simgrid"
[ -x "$bin" ] || { echo "test_model_vs_simgrid.sh: $bin not built (make check builds it)"; exit 99; }
seeds=${MODEL_VS_SIMGRID_SEEDS:-1 2}
# the sanitizer build asks SimGrid for thread contexts
read -r -a extra <<<"${COLLSIM_SIMGRID_CFG:-}"

models=("CM02" "CM02 --cfg=network/crosstraffic:0" "LV08" "SMPI")
failures=0
runs=0
printf '%-9s %s %7s %9s %10s %s\n' model P actions identical max_rel order
for m in "${models[@]}"; do
    read -r -a cfg <<<"--cfg=network/model:$m"
    for platform in a b c d e f; do
        for mode in timers actors cancels; do
            run_seeds=$seeds
            [ "$mode" = cancels ] && run_seeds=${seeds%% *} # one seed: the suite stays fast
            for seed in $run_seeds; do
                flag=()
                [ "$mode" = actors ] && flag=(--actors)
                [ "$mode" = cancels ] && flag=(--cancels)
                out=$("$bin" --platform=$platform --seed="$seed" "${flag[@]}" "${cfg[@]}" \
                    "${extra[@]}" --log=root.thres:critical 2>&1)
                rc=$?
                runs=$((runs + 1))
                printf '%s\n' "$out" | tail -n 1
                if [ $rc -ne 0 ]; then
                    failures=$((failures + 1))
                    echo "  ^ FAILED (seed $seed): rerun with --verbose for the differing dates"
                fi
            done
        done
    done
    out=$("$bin" --platform=a --ties "${cfg[@]}" "${extra[@]}" --log=root.thres:critical 2>&1)
    rc=$?
    runs=$((runs + 1))
    printf '%s\n' "$out" | tail -n 1
    [ $rc -eq 0 ] || { failures=$((failures + 1)); echo "  ^ FAILED (tie case)"; }
done
echo "$runs runs, $failures failed"
[ $failures -eq 0 ]
