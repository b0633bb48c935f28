#!/bin/bash
# test_realmpi.sh — the collective algorithm files, compiled unchanged against Open MPI and run
# with mpirun, must print exactly the digests they print under collsim (driver.c explains); so
# must the whole programs of tests/realmpi/programs/ print the same output under both.
# Needs mpicc and mpirun (Debian: libopenmpi-dev, openmpi-bin; setup.sh installs them).
set -u
: "${COLLSIM:?}" "${top_srcdir:?}"
if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
    echo "mpicc/mpirun not found: install libopenmpi-dev and openmpi-bin (./setup.sh does)"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Headers the algorithms include as "coll/...", without collsim's mpi.h beside them, so that
# "mpi.h" is Open MPI's in the Open MPI build.
mkdir -p "$tmp/inc/coll"
ln -s "$top_srcdir"/src/coll/*.h "$top_srcdir/sim/bench/witness.h" "$tmp/inc/coll/"
# every file of every collective's home but collsim's own MPI entry points (mpi_*.c)
mapfile -t algorithms < <(cd "$top_srcdir" && find src/coll -mindepth 2 -name '*.c' \
    ! -name 'mpi_*.c' | sort)
sources=("$top_srcdir/tests/realmpi/driver.c" "$top_srcdir/sim/bench/witness.c"
    "$top_srcdir/src/coll/coll_registry.c" "$top_srcdir/src/coll/coll_kinds.c"
    "$top_srcdir/src/coll/coll_util.c" "$top_srcdir/src/coll/coll_blocks.c"
    "$top_srcdir/src/coll/coll_fold.c" "$top_srcdir/src/coll/coll_tree.c"
    "$top_srcdir/src/coll/coll_node.c")
for f in "${algorithms[@]}"; do sources+=("$top_srcdir/$f"); done

if ! mpicc -std=c11 -O2 -Wall -I"$tmp/inc" "${sources[@]}" -o "$tmp/driver.ompi" \
    2>"$tmp/mpicc.err"; then
    echo "FAIL: the algorithm files do not compile against Open MPI:"; cat "$tmp/mpicc.err"
    exit 1
fi
if ! cc -std=c11 -O2 -Wall -shared -fPIC -Wl,-Bsymbolic -I"$tmp/inc" -I"$top_srcdir/src" \
    "${sources[@]}" -o "$tmp/driver.so" 2>"$tmp/cc.err"; then
    echo "FAIL: the driver does not build for collsim:"; cat "$tmp/cc.err"
    exit 1
fi

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
failures=0
for p in 1 2 3 5 8; do
    if ! timeout 300 mpirun --oversubscribe -np "$p" "$tmp/driver.ompi" >"$tmp/ompi.$p" \
        2>"$tmp/ompi.$p.err"; then
        echo "FAIL: mpirun -np $p"; head -20 "$tmp/ompi.$p.err"; failures=$((failures + 1))
        continue
    fi
    # mpirun runs every rank on this one machine: so does collsim (the node-aware algorithms'
    # order of combination depends on which ranks share a node)
    if ! "$COLLSIM" exec "$tmp/driver.so" -n "$p" --platform "flat:hosts=1,cores=$p" \
        >"$tmp/collsim.$p" 2>"$tmp/collsim.$p.err"; then
        echo "FAIL: collsim exec -n $p"; head -20 "$tmp/collsim.$p.err"; failures=$((failures + 1))
        continue
    fi
    lines=$(wc -l <"$tmp/ompi.$p")
    if [ "$lines" -lt 10 ]; then
        echo "FAIL: P=$p: Open MPI printed only $lines lines"; failures=$((failures + 1))
    elif diff -u "$tmp/ompi.$p" "$tmp/collsim.$p" >"$tmp/diff.$p"; then
        echo "ok: P=$p: $lines identical digests"
    else
        echo "FAIL: P=$p: Open MPI and collsim differ"; head -30 "$tmp/diff.$p"
        failures=$((failures + 1))
    fi
done
# Whole programs (tests/realmpi/programs/*.c), each built unchanged against both libraries:
# at every P, Open MPI's output and collsim's must be the same.
for src in "$top_srcdir"/tests/realmpi/programs/*.c; do
    name=$(basename "$src" .c)
    if ! mpicc -std=c11 -O2 -Wall "$src" -o "$tmp/$name.ompi" 2>"$tmp/$name.err" ||
        ! cc -std=c11 -O2 -Wall -shared -fPIC -I"$top_srcdir/src" "$src" -o "$tmp/$name.so" \
            2>>"$tmp/$name.err"; then
        echo "FAIL: $name does not build:"; cat "$tmp/$name.err"; failures=$((failures + 1))
        continue
    fi
    sizes="1 2 3 5"
    # inter-communicators: 8 ranks give two groups of 4, and groups of 3 and 5
    [ "$name" = intercomm ] && sizes="1 2 3 5 8"
    for p in $sizes; do
        if ! timeout 300 mpirun --oversubscribe -np "$p" "$tmp/$name.ompi" >"$tmp/$name.ompi.$p" \
            2>"$tmp/$name.ompi.$p.err"; then
            echo "FAIL: $name: mpirun -np $p"; head -20 "$tmp/$name.ompi.$p.err"
            failures=$((failures + 1))
        elif ! "$COLLSIM" exec "$tmp/$name.so" -n "$p" --platform "flat:hosts=1,cores=$p" \
            >"$tmp/$name.collsim.$p" 2>"$tmp/$name.collsim.$p.err"; then
            echo "FAIL: $name: collsim exec -n $p"; head -20 "$tmp/$name.collsim.$p.err"
            failures=$((failures + 1))
        elif diff -u "$tmp/$name.ompi.$p" "$tmp/$name.collsim.$p" >"$tmp/$name.diff.$p"; then
            echo "ok: $name: P=$p: $(wc -l <"$tmp/$name.ompi.$p") identical lines"
        else
            echo "FAIL: $name: P=$p: Open MPI and collsim differ"; head -30 "$tmp/$name.diff.$p"
            failures=$((failures + 1))
        fi
    done
done

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
