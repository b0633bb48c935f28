#!/bin/bash
# test_nonblocking.sh — tests/realmpi/nonblocking.c (every nonblocking collective, several in
# flight, mixed with point-to-point and blocking collectives) built once with Open MPI's mpicc
# and run with mpirun, once with collsim's mpi.h and run with `collsim exec`: both must print
# exactly the same lines at every P.
# Needs mpicc and mpirun (Debian: libopenmpi-dev, openmpi-bin; setup.sh installs them).
set -u
: "${COLLSIM:?}" "${top_srcdir:?}"
if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
    echo "mpicc/mpirun not found: install libopenmpi-dev and openmpi-bin (./setup.sh does)"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src="$top_srcdir/tests/realmpi/nonblocking.c"

if ! mpicc -std=c11 -O1 -Wall "$src" -o "$tmp/prog.ompi" 2>"$tmp/mpicc.err"; then
    echo "FAIL: does not compile against Open MPI:"; cat "$tmp/mpicc.err"; exit 1
fi
if ! cc -std=c11 -O1 -Wall -Wextra -Werror -shared -fPIC -I"$top_srcdir/src" "$src" \
    -o "$tmp/prog.so" 2>"$tmp/cc.err"; then
    echo "FAIL: does not compile against collsim's mpi.h:"; cat "$tmp/cc.err"; exit 1
fi

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
failures=0
for p in 1 2 3 5 8; do
    if ! timeout 300 mpirun --oversubscribe -np "$p" "$tmp/prog.ompi" >"$tmp/ompi.$p" \
        2>"$tmp/ompi.$p.err"; then
        echo "FAIL: mpirun -np $p"; head -20 "$tmp/ompi.$p.err"; failures=$((failures + 1))
        continue
    fi
    lines=$(wc -l <"$tmp/ompi.$p")
    if [ "$lines" -lt 17 ]; then
        echo "FAIL: P=$p: Open MPI printed only $lines lines"; failures=$((failures + 1))
        continue
    fi
    # both progress models: when operations move must not change what they compute
    for progress in calls async; do
        out="$tmp/collsim.$p.$progress"
        if ! "$COLLSIM" exec "$tmp/prog.so" -n "$p" --progress "$progress" >"$out" 2>"$out.err"
        then
            echo "FAIL: collsim exec -n $p --progress $progress"; head -20 "$out.err"
            failures=$((failures + 1))
        elif diff -u "$tmp/ompi.$p" "$out" >"$tmp/diff.$p"; then
            echo "ok: P=$p, progress $progress: $lines identical lines"
        else
            echo "FAIL: P=$p, progress $progress: Open MPI and collsim differ"
            head -30 "$tmp/diff.$p"; head -5 "$out.err"; failures=$((failures + 1))
        fi
    done
done
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
