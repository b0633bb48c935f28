#!/bin/bash
# osu_suite.sh — the OSU micro-benchmarks (c/mpi of an OMB source tree, 7.x) run under
# collsim: each benchmark is built as a shared object against collsim's mpi.h, with OMB's own
# utility files, and run with small sizes and few iterations; a run passes when it exits 0 and
# prints its table. Prints one line per benchmark (the exit code, the last line of its table
# or the first line collsim printed on stderr) and the counts. Not part of make check: it
# needs an OMB checkout.
#
#   tests/bench/osu_suite.sh OMB/c              (e.g. osu-micro-benchmarks-7.4/c)
#   COLLSIM=path/to/collsim RANKS=8 ARGS="-m 1:65536 -i 20 -x 5" ...
#
# What does not run, and why: the one-sided benchmarks stop at their first MPI_Win_* call
# (out of collsim's scope: the refusal names the call); osu_latency_mt wants
# MPI_THREAD_MULTIPLE; osu_latency_mp forks its ranks, which collsim refuses.
set -u
src=${1:?usage: osu_suite.sh OMB/c}
top=$(cd "$(dirname "$0")/../.." && pwd)
collsim=${COLLSIM:-$top/collsim}
ranks=${RANKS:-4}
args=${ARGS:--m 1:4096 -i 10 -x 2}
timeout=${TIMEOUT:-120}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

utils="$src/util/osu_util.c $src/util/osu_util_mpi.c $src/util/osu_util_graph.c"
for extra in osu_util_validation.c osu_util_papi.c; do
    [ -f "$src/util/$extra" ] && utils="$utils $src/util/$extra"
done
cflags="-O1 -w -I$top/src -I$src/util -DFIELD_WIDTH=18 -DFLOAT_PRECISION=2"

pass=0
fail=0
while read -r c; do
    name=$(basename "$c" .c)
    case "$c" in */utils/*) continue ;; esac
    extra=
    [ -d "$(dirname "$c")/utils" ] && extra=$(ls "$(dirname "$c")"/utils/*.c) &&
        cflags_extra="-I$(dirname "$c")/utils" || cflags_extra=
    # shellcheck disable=SC2086
    if ! cc $cflags $cflags_extra -shared -fPIC "$c" $utils $extra -o "$work/$name.so" -lm \
        2>"$work/$name.cc"; then
        echo "$name: does not build: $(grep -m1 error "$work/$name.cc")"
        fail=$((fail + 1))
        continue
    fi
    np=$ranks
    case "$c" in */pt2pt/standard/* | */pt2pt/persistent/* | */one-sided/*) np=2 ;; esac
    case "$name" in osu_multi_lat | osu_mbw_mr | osu_bw_fan_*) np=$ranks ;; esac
    a=$args
    case "$name" in osu_hello | osu_init) a= ;; osu_barrier* | osu_ibarrier) a="-i 10 -x 2" ;; esac
    # shellcheck disable=SC2086
    timeout "$timeout" "$collsim" exec "$work/$name.so" -n "$np" -- $a >"$work/$name.out" \
        2>"$work/$name.err"
    rc=$?
    if [ "$rc" -eq 0 ] && [ -s "$work/$name.out" ]; then
        pass=$((pass + 1))
        echo "$name: ok, -n $np: $(tail -1 "$work/$name.out")"
    else
        fail=$((fail + 1))
        echo "$name: exit $rc, -n $np: $(grep -v '^collsim: exec: note:' "$work/$name.err" |
            head -1)"
    fi
done < <(find "$src/mpi" -name 'osu_*.c' | LC_ALL=C sort)
echo "osu: $pass passed, $fail failed"
