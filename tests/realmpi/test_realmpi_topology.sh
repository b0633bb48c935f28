#!/bin/bash
# test_realmpi_topology.sh — tests/realmpi/topology.c (Cartesian halo exchange, distributed
# graph ring, Cart_sub), compiled once with Open MPI's mpicc and once as a collsim program,
# must print the same lines under mpirun and under collsim exec; the program also checks its
# halo and ring values itself ("ok"). Needs mpicc and mpirun (./setup.sh installs them).
set -u
: "${COLLSIM:?}" "${top_srcdir:?}"
if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
    echo "mpicc/mpirun not found: install libopenmpi-dev and openmpi-bin (./setup.sh does)"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src="$top_srcdir/tests/realmpi/topology.c"
if ! mpicc -std=c11 -O2 -Wall "$src" -o "$tmp/topology.ompi" 2>"$tmp/mpicc.err"; then
    echo "FAIL: topology.c does not compile against Open MPI:"; cat "$tmp/mpicc.err"
    exit 1
fi
if ! cc -std=c11 -O2 -Wall -shared -fPIC -I"$top_srcdir/src" "$src" -o "$tmp/topology.so" \
    2>"$tmp/cc.err"; then
    echo "FAIL: topology.c does not build for collsim:"; cat "$tmp/cc.err"
    exit 1
fi

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
failures=0
# 1 and 2: dimensions of size 1 and 2, where both neighbours of a dimension are one rank
for p in 1 2 3 4 6 9 12; do
    if ! timeout 300 mpirun --oversubscribe -np "$p" "$tmp/topology.ompi" >"$tmp/ompi.$p" \
        2>"$tmp/ompi.$p.err"; then
        echo "FAIL: mpirun -np $p"; head -20 "$tmp/ompi.$p.err"; failures=$((failures + 1))
        continue
    fi
    if ! "$COLLSIM" exec "$tmp/topology.so" -n "$p" >"$tmp/collsim.$p" \
        2>"$tmp/collsim.$p.err"; then
        echo "FAIL: collsim exec -n $p"; head -20 "$tmp/collsim.$p.err"; failures=$((failures + 1))
        continue
    fi
    lines=$(wc -l <"$tmp/ompi.$p")
    if [ "$lines" -ne $((5 * p)) ] || grep -q WRONG "$tmp/ompi.$p"; then
        echo "FAIL: P=$p: Open MPI printed $lines lines (expected $((5 * p))) or a WRONG value"
        head -30 "$tmp/ompi.$p"; failures=$((failures + 1))
    elif diff -u "$tmp/ompi.$p" "$tmp/collsim.$p" >"$tmp/diff.$p"; then
        echo "ok: P=$p: $lines identical lines"
    else
        echo "FAIL: P=$p: Open MPI and collsim differ"; head -30 "$tmp/diff.$p"
        failures=$((failures + 1))
    fi
done
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
