# predictions.awk — every row of a `collsim run -o CSV` file that has an analytic prediction
# must agree with it: within 6 % where `collsim list models` calls its formula exact and the
# run has no software overheads (exact=1: the formulas fold o_s and o_r into α, an
# approximation), within a factor of 2 otherwise. Used by test_scenarios.sh and
# update_goldens.sh.
#   awk -F, -v name=NAME -v models=MODELS.txt -v exact=0|1 -f predictions.awk FILE.csv
# Prints one line per disagreeing row; exits 1 if there is one.
BEGIN { while ((getline line < models) > 0) { split(line, f, " "); kind[f[1] " " f[2]] = f[3] } }
NR == 1 { next }
$21 != "" && ($21 + 0 > 0 || $14 + 0 > 0) {
    r = $21 + 0 > 0 ? $14 / $21 : 99; k = exact ? kind[$2 " " $4] : "approx"
    if (k == "exact" && (r < 0.94 || r > 1.06)) {
        printf "    %s: %s %s P=%s bytes=%s: %.9g s vs exact formula %.9g s\n", name, $2, $4, $6, $7, $14, $21; bad++ }
    else if (k != "exact" && (r < 0.5 || r > 2)) {
        printf "    %s: %s %s P=%s bytes=%s: ratio %.3f outside [0.5, 2]\n", name, $2, $4, $6, $7, r; bad++ }
}
END { exit bad > 0 }
