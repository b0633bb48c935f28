# bench_lib.sh — what several benchmarks share; sourced once `here` names tests/bench:
#   here=$(cd "$(dirname "$0")" && pwd)
#   . "$here/bench_lib.sh"
# Sets `top` (the tree) and `collsim`: the built tree's real binary (.libs/collsim, with its
# libraries found) rather than libtool's wrapper, whose shell start-up an installed collsim
# does not have; the wrapper if that is all there is.
top=$(cd "$here/../.." && pwd)
collsim="$top/collsim"
if [ -x "$top/.libs/collsim" ]; then
    collsim="$top/.libs/collsim"
    export LD_LIBRARY_PATH="$top/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

# build_scale_probe WORK: WORK/probe.so (tests/bench/scale_probe.c) for collsim, and with
# smpi=yes WORK/probe.smpi for SMPI; smpi becomes no, with the reason, when smpicc or smpirun
# is missing or the build fails. Returns non-zero if collsim's probe does not build.
build_scale_probe() {
    cc -std=c11 -O2 -shared -fPIC -I"$top/src" "$here/scale_probe.c" -o "$1/probe.so" || return 1
    [ "$smpi" = yes ] || return 0
    if ! command -v smpicc >/dev/null || ! command -v smpirun >/dev/null; then
        echo "${0##*/}: smpicc/smpirun not found (libsimgrid-dev): SMPI left out" >&2
        smpi=no
    else
        smpicc -O2 -DSCALE_PROBE_NO_BCAST_INIT "$here/scale_probe.c" -o "$1/probe.smpi" \
            2>/dev/null || smpi=no
    fi
}
