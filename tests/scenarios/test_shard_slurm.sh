#!/bin/bash
# test_shard_slurm.sh — the Slurm job array of scenarios/slurm/ on a real (single-node) Slurm:
# sbatch --array=1-3 sweep.sbatch, then merge.sbatch after it, and the merge compared with the
# whole run (CSV with wall_s masked, digest line exactly). Skipped (exit 77, automake's skip)
# when this machine has no Slurm that accepts jobs; test_shard.sh runs the same scripts by hand.
set -u
: "${COLLSIM:?}" "${top_srcdir:?}"
skip() { echo "SKIP: $*"; exit 77; }
command -v sbatch >/dev/null 2>&1 || skip "sbatch not found (Slurm, Debian package slurm-wlm, is not installed)"
command -v scontrol >/dev/null 2>&1 && scontrol ping >/dev/null 2>&1 ||
    skip "sbatch exists but no slurmctld answers (scontrol ping fails)"
sinfo -h -o %a 2>/dev/null | grep -q up || skip "no Slurm partition is up (sinfo)"

# the jobs write where every node sees it: a directory under the build tree
work=$(mktemp -d "${top_builddir:-.}/slurm-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
scenario="$top_srcdir/scenarios/quickstart.ini"
small=(--set run.algorithms=recursive_doubling,ring,smp --set run.ranks=4,8 --no-progress)
"$COLLSIM" run "$scenario" "${small[@]}" -o "$work/whole.csv" >"$work/whole.out" 2>&1 ||
    { echo "FAIL: the whole run"; exit 1; }
export COLLSIM
cd "$work" || exit 1
job=$(timeout 600 sbatch --parsable --wait --array=1-3 "$top_srcdir/scenarios/slurm/sweep.sbatch" \
    "$scenario" "$work/shards" "${small[@]}") || { echo "FAIL: the array job ($job)"; exit 1; }
timeout 600 sbatch --wait --dependency=afterany:"${job%%;*}" --output="$work/merge.log" \
    "$top_srcdir/scenarios/slurm/merge.sbatch" "$work/shards" "$work/merged" >/dev/null ||
    { echo "FAIL: the merge job: $(cat "$work/merge.log")"; exit 1; }
mask() { sed 's/,[^,]*$/,WALL/' "$1"; }
if cmp -s <(mask "$work/whole.csv") <(mask "$work/merged.csv") &&
    [ "$(tail -n 1 "$work/whole.out")" = "$(tail -n 1 "$work/merge.log")" ]; then
    echo "ok: a 3-task Slurm array and its merge give the whole run's CSV and digest"
    exit 0
fi
echo "FAIL: the Slurm merge differs: $(tail -n 1 "$work/merge.log")"
exit 1
