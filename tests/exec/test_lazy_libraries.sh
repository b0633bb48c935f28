#!/bin/bash
# test_lazy_libraries.sh — SimGrid is loaded only by the runs that need it (sim/core/
# simgrid_glue.h): libcollsim does not link it; a run of collsim's own core on its own flat
# cluster (the default platform, or `flat:`) has no libsimgrid in its process and runs even
# when the SimGrid module cannot be found; SimGrid's core and the platforms SimGrid builds
# load it; a module that cannot be loaded is named in one message and exit status 2. Likewise
# cairo (sim/picture/cairo_api.h): not linked, not mapped in a run that draws nothing, loaded
# by one that draws (the pictures themselves are checked by check_picture, test_plot, ...).
# And json-glib (sim/report/json_api.h): not linked, not mapped in a run that writes no JSON,
# loaded by one that does.
set -u
: "${COLLSIM:?}" "${top_srcdir:?}" "${top_builddir:?}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
cc -std=c11 -shared -fPIC -I"$top_srcdir/src" "$top_srcdir/tests/exec/lazy_libraries/maps.c" \
    -o "$tmp/maps.so" || { echo "FAIL: cannot build maps.c"; exit 1; }

# 1. The library and the program do not name libsimgrid (or ns-3), libcairo or json-glib
#    among what they need.
for f in "$top_builddir/.libs/libcollsim.so" "$top_builddir/.libs/collsim"; do
    if [ ! -f "$f" ]; then
        fail "$f not built"
    elif readelf -d "$f" | grep -E 'NEEDED.*(simgrid|ns3|cairo|json-glib|gio)'; then
        fail "$(basename "$f") needs libsimgrid, libcairo or json-glib"
    else
        pass "$(basename "$f") needs none of libsimgrid, libcairo, json-glib"
    fi
done

# run EXPECTED_MAPPED ARGS...: exit 0 and rank 0's line
run() {
    local expected=$1
    shift
    if "$COLLSIM" exec "$tmp/maps.so" "$@" >"$tmp/out" 2>"$tmp/err" &&
        [ "$(head -1 "$tmp/out")" = "libsimgrid mapped: $expected" ] &&
        [ "$(sed -n 2p "$tmp/out")" = "libcairo mapped: no" ] &&
        [ "$(sed -n 3p "$tmp/out")" = "json-glib mapped: no" ]; then
        pass "$* : libsimgrid mapped: $expected, libcairo and json-glib not"
    else
        fail "$*: expected 'libsimgrid mapped: $expected', no libcairo, no json-glib"
        cat "$tmp/out" "$tmp/err" | head -5
    fi
}

# 2. The own core on its own flat clusters, generated or a file of one plain <cluster>
#    (sim/engine/platform_file.h): no SimGrid in the process.
run no -n 4
run no -n 4 --platform flat:hosts=2,cores=2
run no -n 4 --engine collsim --cfg network/model:CM02 --cfg network/crosstraffic:0
run no -n 4 --platform "$top_srcdir/platforms/cluster.xml"
# 3. What SimGrid does: its core, and the platforms it builds (a cluster with a backbone).
cat >"$tmp/backbone.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-3" speed="1Gf" bw="1GBps" lat="1us"
           bb_bw="2GBps" bb_lat="1us"/>
</platform>
XML
run yes -n 4 --engine simgrid
run yes -n 4 --engine simgrid --platform "$top_srcdir/platforms/cluster.xml"
run yes -n 4 --platform fattree:levels=2,down=2
run yes -n 4 --platform "$tmp/backbone.xml"

# 4. Without the module: the own core's runs still run, the others stop with one message.
export COLLSIM_SIMGRID_MODULE="$tmp/none/collsim-simgrid.so"
run no -n 4
# (TMPDIR: a platform file generated for SimGrid must not be left behind by a run that stops)
mkdir "$tmp/scratch"
TMPDIR="$tmp/scratch" "$COLLSIM" exec "$tmp/maps.so" -n 4 --engine simgrid >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "needs SimGrid" "$tmp/err" &&
    grep -qF "$tmp/none/collsim-simgrid.so: not there" "$tmp/err"; then
    pass "--engine simgrid without the module: exit 2, the path named"
else
    fail "--engine simgrid without the module: exit $rc"; cat "$tmp/out" "$tmp/err" | head -5
fi
echo "not a module" >"$tmp/bad.so"
export COLLSIM_SIMGRID_MODULE="$tmp/bad.so"
TMPDIR="$tmp/scratch" "$COLLSIM" exec "$tmp/maps.so" -n 4 --platform fattree:levels=2,down=2 \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -qF "$tmp/bad.so:" "$tmp/err"; then
    pass "a file that is not a module: exit 2, the path and the loader's reason named"
else
    fail "a file that is not a module: exit $rc"; cat "$tmp/err" | head -5
fi
if [ -z "$(ls -A "$tmp/scratch")" ]; then
    pass "runs stopped for want of the module leave no file in TMPDIR"
else
    fail "left in TMPDIR: $(ls "$tmp/scratch")"
fi
unset COLLSIM_SIMGRID_MODULE

# 5. A run that draws loads cairo then, and draws.
if "$COLLSIM" exec "$tmp/maps.so" -n 4 --timeline "$tmp/run.svg" >"$tmp/out" 2>"$tmp/err" &&
    grep -q '^<svg' "$tmp/run.svg" 2>/dev/null; then
    pass "--timeline FILE.svg: drawn"
else
    fail "--timeline FILE.svg"; cat "$tmp/err" | head -5
fi

# 6. A run that writes JSON loads json-glib then, and writes it (what it writes is checked by
#    the scenario tests' golden files): one point is enough.
cat >"$tmp/one.ini" <<'INI'
[scenario]
name = one_point

[run]
collectives = allreduce
algorithms = recursive_doubling
ranks = 4
sizes = 8
INI
if "$COLLSIM" run "$tmp/one.ini" --json "$tmp/q.json" >/dev/null 2>"$tmp/err" &&
    grep -q '"scenario" : "one_point"' "$tmp/q.json" 2>/dev/null; then
    pass "run --json FILE: written"
else
    fail "run --json FILE"; cat "$tmp/err" | head -5
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
exit 0
