#!/bin/bash
# vs_smpi.sh — collsim's wall time and memory beside SimGrid SMPI's, in one run, for the
# collectives of the speed issue: one call of broadcast (binomial), reduce (binomial) and
# allreduce (recursive doubling, ring), each forced in both tools, at each P and size.
#
# Like for like:
#   - one program, tests/bench/fidelity_coll.c, built for both tools: one collective call,
#     then every rank's start and end times gathered on rank 0 (P - 1 more messages);
#   - one platform file per P, read by both: a SimGrid <cluster> of P hosts (10 Gflop/s),
#     each with a private split-duplex link of 12.5 GB/s and 1 us, and no backbone, as
#     `collsim platform describe flat:... --xml` writes it (a plain cluster, which collsim's
#     own core builds without SimGrid: sim/engine/platform_file.h);
#   - one network model: SimGrid's CM02, with no per-message overheads (collsim
#     --network cm02, as tests/bench/fidelity.sh does), SMPI with privatization off and
#     computation not simulated, and for P >= 16384 the small stacks without guard pages that
#     it needs to start that many ranks (collsim chooses them on its own);
#   - collsim's real binary (.libs/collsim of the built tree), not libtool's wrapper script,
#     whose shell start-up (about 15 ms) an installed collsim does not have.
#   The simulated times are printed beside the wall times to show that both solved the same
#   problem (they differ by the transports' models: see tests/bench/fidelity.sh).
#
# Also measured: the start-up (a program that only calls MPI_Init and MPI_Finalize; its
# "simulated" column is the wall time from launch to the end of MPI_Init on rank 0, the first
# simulated event) and the mean wall time of a point of the quickstart scenario.
#
# collsim runs on its own core (--engine collsim, sim/core/core_own.c) and, for reference,
# on SimGrid's actors and network model (--engine simgrid): both give the same simulated
# times (tests/core/test_engines_agree.sh), so the columns differ only in wall time and memory.
# VS_SMPI_ENGINES="collsim" leaves the SimGrid-core column out (its runs take as long as SMPI's).
#
# Wall time is the tool's own, from its launch to its exit (a small launcher forks it and waits,
# so the shell, timeout and time are not counted), to the millisecond; a run under 2 s is
# repeated and the median shown (VS_SMPI_REPEAT).
#
# Output: one row per case with wall seconds and peak RSS (MiB) of each, and SMPI / collsim
# (the speed-up of the own core: above 1, collsim is faster). A run past VS_SMPI_TIMEOUT
# seconds shows as ">T" and its ratio as a lower or upper bound. Then the floor: the wall time
# of the program's own part of the call (its buffers allocated, initialised and written where
# the call writes them, all held at once; fidelity_coll's touch:COLLECTIVE), and SMPI's time
# over it, the "ceiling": the speed-up of a simulator whose work for the call cost nothing
# more than a broadcast of 8 bytes. Where the ceiling is below 5, so is every simulator's ratio.
#
#   tests/bench/vs_smpi.sh                                  # P = 64 1024 4096; 8 B and 64 KiB
#   VS_SMPI_P="64 1024 4096 16384 65536" tests/bench/vs_smpi.sh      # the issue's whole table
#   VS_SMPI_CASES="bcast:binomial" VS_SMPI_SIZES=8 tests/bench/vs_smpi.sh
#   VS_SMPI_TIMEOUT=1800 ...                                # seconds per run, default 900
#   VS_SMPI_REPEAT=5 ...        # runs under 2 s: the median of 5 (default 3; 1: one run each)
# Run from a built tree (./setup.sh). Needs smpicc and smpirun (libsimgrid-dev); without them
# it says so and exits 0. A benchmark, not a test: in EXTRA_DIST, not in TESTS.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench_lib.sh"
ps=${VS_SMPI_P:-64 1024 4096}
sizes=${VS_SMPI_SIZES:-8 65536}
cases=${VS_SMPI_CASES:-bcast:binomial:binomial_tree reduce:binomial:binomial \
allreduce:recursive_doubling:rdb allreduce:ring:lr}
limit=${VS_SMPI_TIMEOUT:-900}
repeat=${VS_SMPI_REPEAT:-3}
engines=${VS_SMPI_ENGINES:-collsim simgrid}

[ -x "$collsim" ] || { echo "vs_smpi.sh: build collsim first (./setup.sh): no $collsim" >&2; exit 1; }
if ! command -v smpicc >/dev/null || ! command -v smpirun >/dev/null; then
    echo "vs_smpi.sh: smpicc/smpirun not found (install libsimgrid-dev); nothing compared"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -std=c11 -O2 -shared -fPIC -I"$top/src" "$here/fidelity_coll.c" -o "$work/fc.so" || exit 1
# The start-up probe: rank 0 prints the wall clock (ns) once MPI_Init has returned, which is
# the first simulated event; the script subtracts the time at which the tool was launched.
cat >"$work/empty.c" <<'C'
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        struct timespec t;
        syscall(SYS_clock_gettime, CLOCK_REALTIME, &t); /* SMPI's clock_gettime is simulated */
        printf("first_event_ns=%lld\n", (long long)t.tv_sec * 1000000000LL + t.tv_nsec);
    }
    MPI_Finalize();
    return 0;
}
C
cc -std=c11 -O2 -shared -fPIC -I"$top/src" "$work/empty.c" -o "$work/empty.so" || exit 1
# The launcher: it prints the wall clock (ns) just before it starts the tool, then runs the tool
# as its child and prints the wall time (ns) from there to the tool's exit. The shell, timeout
# and time start before it and end after it (a few ms of process creation on the 2-core VM,
# which neither tool can help and which would hide a start-up of a few ms); the tool's own exec,
# its libraries' loading and its exit are counted. A SIGTERM from timeout is passed on to the
# tool. time's maximum RSS is the tool's: the launcher's child, larger than the launcher.
cat >"$work/stamp.c" <<'C'
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static pid_t child;
static void pass_on(int sig) { if (child > 0) kill(child, sig); }
static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}
int main(int argc, char **argv) {
    if (argc < 2)
        return 127;
    signal(SIGTERM, pass_on);
    long long launched = now_ns();
    fprintf(stderr, "launched_ns=%lld\n", launched);
    fflush(stderr);
    child = fork();
    if (child == 0) {
        execvp(argv[1], argv + 1);
        perror("stamp: exec");
        _exit(127);
    }
    int status = 0;
    while (child > 0 && waitpid(child, &status, 0) < 0)
        ;
    fprintf(stderr, "tool_wall_ns=%lld\n", now_ns() - launched);
    return child < 0 ? 127 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
C
cc -std=c11 -O2 "$work/stamp.c" -o "$work/stamp" || exit 1
for prog in fc:"$here/fidelity_coll.c" empty:"$work/empty.c"; do
    if ! smpicc -O2 "${prog#*:}" -o "$work/${prog%%:*}.smpi" >"$work/smpicc.log" 2>&1; then
        echo "vs_smpi.sh: smpicc failed; nothing compared"
        cat "$work/smpicc.log"
        exit 0
    fi
done

spec() {  # P -> the platform, as collsim's generator names it (to write the file)
    echo "flat:hosts=$1,speed=10Gf,bw=12.5GBps,lat=1us"
}
platform() {  # P -> the platform file both tools read
    local f="$work/cluster-$1.xml"
    [ -f "$f" ] || "$collsim" platform describe "$(spec "$1")" -n "$1" --network cm02 --xml |
        sed -n '/^<?xml/,$p' >"$f"
    echo "$f"
}
hostfile() {
    local f="$work/hosts-$1"
    [ -f "$f" ] || seq 0 $(($1 - 1)) | sed 's/^/node-/' >"$f"
    echo "$f"
}

# measure_once CMD... -> "wall rss_mib simulated"; wall is ">T" past the limit, "failed" on error
measure_once() {
    local launched
    timeout "$limit" /usr/bin/time -f "%M" -o "$work/time" "$work/stamp" "$@" >"$work/out" \
        2>"$work/err"
    local rc=$? sim first
    launched=$(grep -o 'launched_ns=[0-9]*' "$work/err" | head -1 | cut -d= -f2)
    sim=$(grep -o 'simulated=[0-9.e+-]*' "$work/out" | head -1 | cut -d= -f2)
    first=$(grep -o 'first_event_ns=[0-9]*' "$work/out" | head -1 | cut -d= -f2)
    # for the start-up probe, the "simulated" column holds the wall time to the first event
    [ -n "$first" ] && sim=$(awk -v a="$launched" -v b="$first" 'BEGIN { printf "%.3f s", (b - a) / 1e9 }')
    if [ $rc -eq 124 ]; then
        echo ">$limit - -"
    elif grep -q 'cannot serve this call' "$work/err"; then
        echo "refused - -"    # collsim declined the forced algorithm (count < ranks, ...)
    elif [ $rc -ne 0 ]; then
        echo "failed - -"
        { echo "--- failed ($rc): $*"; tail -3 "$work/err"; } >>"$work/failures"
    else
        # the tool's wall, from the launcher, to the millisecond (time's %e has hundredths and
        # counts the launcher: small runs showed 0.00 s, then a few ms too many); time gives
        # the peak RSS only
        read -r rss <"$work/time"
        wall=$(grep -o 'tool_wall_ns=[0-9]*' "$work/err" | tail -1 | cut -d= -f2)
        wall=$(awk -v w="$wall" 'BEGIN { printf "%.3f", w / 1e9 }')
        echo "$wall $((rss / 1024)) ${sim:--}"
    fi
}

# measure CMD... -> measure_once's line of the median run by wall time: runs shorter than 2 s
# are repeated (VS_SMPI_REPEAT times in all, 3 by default), since a few milliseconds of either
# tool's start-up vary by a third from one run to the next on a VM
measure() {
    local first wall lines
    first=$(measure_once "$@")
    wall=${first%% *}
    if [ "$repeat" -le 1 ] || ! awk -v w="$wall" 'BEGIN { exit !(w ~ /^[0-9.]+$/ && w < 2) }'
    then
        echo "$first"
        return
    fi
    lines=$first
    for _ in $(seq 2 "$repeat"); do
        lines=$(printf '%s\n%s' "$lines" "$(measure_once "$@")")
    done
    # the median of the runs that succeeded (a failure shows if every run failed)
    printf '%s\n' "$lines" | awk '$1 ~ /^[0-9.]+$/' | sort -n -k1,1 |
        awk '{ l[NR] = $0 } END { if (NR > 0) print l[int((NR + 1) / 2)] }' | grep . ||
        echo "$first"
}

smpi_cmd() {  # P PROGRAM -> sets the array smpi to smpirun with the options above
    local p=$1 prog=$2
    smpi=(smpirun -np "$p" -platform "$(platform "$p")" -hostfile "$(hostfile "$p")"
        --cfg=smpi/privatization:no --cfg=smpi/simulate-computation:no --cfg=network/model:CM02
        --cfg=network/crosstraffic:1 --cfg=smpi/wtime:0)
    [ "$p" -ge 16384 ] && smpi+=(--cfg=contexts/stack-size:16 --cfg=contexts/guard-size:0)
    smpi+=(--log=root.thres:critical "$work/$prog.smpi")
}

ratio() {  # SMPI_WALL COLLSIM_WALL -> SMPI / collsim, a bound when one of them timed out
    awk -v s="$1" -v c="$2" 'BEGIN {
        if (s ~ /^>/ && c ~ /^>/) { print "-"; exit }
        if (s ~ /^>/) { printf ">%.1f\n", substr(s, 2) / (c > 0 ? c : 0.001); exit }
        if (c ~ /^>/) { printf "<%.2f\n", s / substr(c, 2); exit }
        if (s !~ /^[0-9.]+$/ || c !~ /^[0-9.]+$/) { print "-"; exit }
        printf "%.1f\n", s / (c > 0 ? c : 0.001) }'
}

fmt="%-10s %-19s %7s %6s | %9s %7s %11s | %9s %7s | %9s %7s %11s | %7s | %8s %7s\n"
printf "$fmt" case algorithm P bytes "collsim_s" MiB "simulated" "on_sg_s" MiB "smpi_s" MiB \
    "simulated" "speedup" "floor_s" "ceiling"
# collsim_row CASE ALGORITHM P BYTES COLLSIM exec PROG ARGS...: the own core's run, the
# SimGrid core's, and SMPI's (sw sm ss, measured before)
collsim_row() {
    local label=$1 algo=$2 p=$3 bytes=$4
    shift 4
    local head=("$1" "$2" "$3")
    shift 3
    read -r cw cm cs < <(measure "${head[@]}" --engine collsim "$@")
    gw=- gm=-
    case " $engines " in
    *" simgrid "*) read -r gw gm _ < <(measure "${head[@]}" --engine simgrid "$@") ;;
    esac
    local ceiling=-
    [ "$fw" != - ] && ceiling=$(ratio "$sw" "$fw")
    printf "$fmt" "$label" "$algo" "$p" "$bytes" "$cw" "$cm" "$cs" "$gw" "$gm" "$sw" "$sm" "$ss" \
        "$(ratio "$sw" "$cw")" "$fw" "$ceiling"
}
# floor P FAMILY BYTES -> the wall time of the program's own part of the call (fidelity_coll's
# touch:FAMILY: its buffers allocated, initialised and written where the call writes them, all
# held at once over an 8-byte binomial broadcast), on collsim's own core, once per P, family
# and size. No simulator of the call runs faster than that: SMPI's time over it ("ceiling")
# is the most any could gain. At 64 KiB it is mostly the first touch of the buffers' pages.
# Sets fw (not in a subshell: the table of floors measured stays).
declare -A floors
floor() {
    local key="$1:$2:$3" w
    if [ -z "${floors[$key]:-}" ]; then
        read -r w _ < <(measure "$collsim" exec "$work/fc.so" -n "$1" \
            --platform "$(platform "$1")" --network cm02 --algorithm bcast=binomial \
            -- "touch:$2" "$3")
        floors[$key]=$w
    fi
    fw=${floors[$key]}
}
for p in $ps; do
    smpi_cmd "$p" empty
    read -r sw sm ss < <(measure "${smpi[@]}")
    fw=-
    collsim_row start-up "to 1st event" "$p" - "$collsim" exec "$work/empty.so" -n "$p" \
        --platform "$(platform "$p")" --network cm02
    for c in $cases; do
        IFS=: read -r fam calgo salgo <<<"$c"
        for bytes in $sizes; do
            smpi_cmd "$p" fc
            read -r sw sm ss < <(measure "${smpi[@]}" --cfg="smpi/$fam:$salgo" "$fam" "$bytes")
            floor "$p" "$fam" "$bytes"
            collsim_row "$fam" "$calgo" "$p" "$bytes" "$collsim" exec "$work/fc.so" -n "$p" \
                --platform "$(platform "$p")" --network cm02 --algorithm "$fam=$calgo" \
                -- "$fam" "$bytes"
        done
    done
done
# One point of the quickstart scenario: the whole file's wall time over its points.
start=$(date +%s.%N)
"$collsim" run "$top/scenarios/quickstart.ini" -o "$work/quickstart.csv" >/dev/null 2>&1
end=$(date +%s.%N)
points=$(tail -n +2 "$work/quickstart.csv" | wc -l)
awk -v s="$start" -v e="$end" -v n="$points" 'BEGIN {
    printf "quickstart: %d points in %.2f s wall, %.0f ms per point\n", n, e - s, (e - s) * 1000 / (n > 0 ? n : 1) }'
if [ -s "$work/failures" ]; then
    echo "failures:"
    cat "$work/failures"
fi
