#!/bin/bash
# test_profiling.sh — the profiling interface (MPI-3.1 chapter 14): every MPI_ function
# libcollsim defines has its PMPI_ name; a profiling layer (tests/exec/profiling/profiled.c)
# linked with -Wl,-Bsymbolic-functions sees exactly the program's own calls (the counts are
# derived by hand in profiled.c, and Open MPI, when installed, must print the same); the same
# layer linked without it is refused before any rank starts, naming its functions.
set -u
: "${COLLSIM:?}" "${top_srcdir:?}" "${top_builddir:?}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
src="$top_srcdir/tests/exec/profiling/profiled.c"

# 1. PMPI_X for every MPI_X the library exports, and nothing else under PMPI_.
lib="$top_builddir/.libs/libcollsim.so"
nm -D --defined-only "$lib" | awk '$3 ~ /^MPI_/ {print substr($3, 5)}' | sort >"$tmp/mpi"
nm -D --defined-only "$lib" | awk '$3 ~ /^PMPI_/ {print substr($3, 6)}' | sort >"$tmp/pmpi"
if [ -s "$tmp/mpi" ] && diff -u "$tmp/mpi" "$tmp/pmpi" >"$tmp/names.diff"; then
    pass "$(wc -l <"$tmp/mpi") MPI_ functions, each with its PMPI_ name"
else
    fail "MPI_ and PMPI_ names differ"; head -10 "$tmp/names.diff"
fi

# 2. The layer linked -Bsymbolic-functions: every rank counts its own calls only.
cc -std=c11 -shared -fPIC -Wl,-Bsymbolic-functions -I"$top_srcdir/src" "$src" \
    -o "$tmp/symbolic.so" || { echo "FAIL: cannot build $src"; exit 1; }
for p in 3 4; do
    for r in $(seq 0 $((p - 1))); do echo "rank $r: 3 sends, 2 allreduces"; done >"$tmp/expected"
    if "$COLLSIM" exec "$tmp/symbolic.so" -n "$p" >"$tmp/out" 2>"$tmp/err" &&
        sort "$tmp/out" | diff -u "$tmp/expected" - >"$tmp/diff"; then
        pass "P=$p: each rank's wrappers counted its own calls"
    else
        fail "P=$p: profiling layer output"; cat "$tmp/diff" "$tmp/err" | head -10
    fi
done

# 3. Linked without it, the program's calls would bind to collsim's MPI_Send: refused.
cc -std=c11 -shared -fPIC -I"$top_srcdir/src" "$src" -o "$tmp/plain.so"
"$COLLSIM" exec "$tmp/plain.so" -n 2 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] &&
    grep -q 'defines MPI_Allreduce, MPI_Finalize, MPI_Send itself' "$tmp/err" &&
    grep -q -- '-Wl,-Bsymbolic-functions' "$tmp/err"; then
    pass "a layer that would be bypassed is refused (exit 2) with the link option to use"
else
    fail "plain-linked layer: exit $rc"; head -5 "$tmp/err"
fi

# 4. The same source under Open MPI prints the same counts (skipped without mpicc).
if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_btl_vader_single_copy_mechanism=none
    if mpicc -std=c11 "$src" -o "$tmp/profiled.ompi" 2>"$tmp/mpicc.err" &&
        timeout 300 mpirun --oversubscribe -np 4 "$tmp/profiled.ompi" 2>/dev/null | sort \
            >"$tmp/ompi" && "$COLLSIM" exec "$tmp/symbolic.so" -n 4 | sort | diff -u "$tmp/ompi" - \
            >"$tmp/ompi.diff"; then
        pass "Open MPI counts the same calls"
    else
        fail "Open MPI and collsim differ"; head -10 "$tmp/ompi.diff" "$tmp/mpicc.err"
    fi
else
    echo "skip: mpicc/mpirun not found"
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
