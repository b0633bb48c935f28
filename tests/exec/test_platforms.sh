#!/bin/bash
# test_platforms.sh — virtual clusters by name, end to end: every generator runs a real
# program, and SimGrid's routes have the length `collsim platform describe` says; bad specs
# are refused with one line, exit 2.
set -u
: "${COLLSIM:?}" "${PROGRAMS_DIR:?}" "${top_srcdir:?}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# On the cm02 preset (links of 1 us, 12.5 GB/s, no overheads) the farthest pair of hosts is
# diameter x 1 us + 8 B / 12.5 GB/s apart one way; every pair is measured (farthest.c).
# With several cores per host, ranks fill hosts in blocks; the farthest pair is still hosts apart.
for spec in "flat:hosts=8" "fattree:levels=2,down=4" "torus:dims=4x4" "torus:dims=3x3x4" \
    "dragonfly:groups=3,chassis=2,routers=3,nodes=2" "fattree:levels=2,down=2,cores=4" \
    "torus:dims=2x3,cores=3"; do
    "$COLLSIM" platform describe "$spec" --network cm02 >"$tmp/d.out" 2>&1 ||
        { fail "describe $spec: $(cat "$tmp/d.out")"; continue; }
    hosts=$(awk '$1 == "cores" && $2 ~ /^[0-9]+$/ { print $2 }' "$tmp/d.out")
    diameter=$(awk '$1 == "diameter" { print $2 }' "$tmp/d.out")
    if ! "$COLLSIM" exec "$PROGRAMS_DIR/farthest.so" -n "$hosts" --platform "$spec" \
        --network cm02 >"$tmp/f.out" 2>"$tmp/f.err"; then
        fail "exec on $spec: $(head -3 "$tmp/f.err")"; continue
    fi
    got=$(sed -n 's/.*: \([0-9.e+-]*\) s$/\1/p' "$tmp/f.out")
    want=$(awk -v d="$diameter" 'BEGIN { printf "%.12g", d * 1e-6 + 8 / 12.5e9 }')
    if awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= 1e-8) }'; then
        pass "$spec: $hosts hosts, farthest pair $got s = $diameter links"
    else
        fail "$spec: farthest pair $got s, describe says $diameter links ($want s): $(cat "$tmp/f.out")"
    fi
done

# Bad specs: one line, exit 2, nothing run.
for bad in "mesh" "torus" "torus:dims=4" "fattree:arity=4" "fattree:down=6,oversubscription=4" \
    "dragonfly:groups=5,routers=4" "flat:bw=-1"; do
    for how in describe exec; do
        if [ "$how" = describe ]; then
            "$COLLSIM" platform describe "$bad" >"$tmp/b.out" 2>"$tmp/b.err"
        else
            "$COLLSIM" exec "$PROGRAMS_DIR/farthest.so" -n 4 --platform "$bad" >"$tmp/b.out" 2>"$tmp/b.err"
        fi
        rc=$?
        if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/b.err")" -eq 1 ] && [ ! -s "$tmp/b.out" ]; then
            pass "$how $bad: $(cat "$tmp/b.err")"
        else
            fail "$how $bad: exit $rc, $(cat "$tmp/b.err")"
        fi
    done
done
"$COLLSIM" exec "$PROGRAMS_DIR/farthest.so" -n 65 --platform fattree:levels=2,down=8 >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "65 ranks but the platform has only 64 cores" "$tmp/b.err"; then
    pass "more ranks than the fat tree's cores refused: $(cat "$tmp/b.err")"
else
    fail "65 ranks on 64 cores: exit $rc, $(cat "$tmp/b.err")"
fi

# Platform files SimGrid loads but cannot simulate, or would never finish loading: FILE:LINE.
zone() {
    cat <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
<zone id="z" routing="Full">
  <host id="a" speed="$1"/>
  <host id="b" speed="1Gf"/>
  <link id="l" bandwidth="$2" latency="$3"/>
  <route src="a" dst="b"><link_ctn id="l"/></route>
</zone>
</platform>
EOF
}
cluster() {
    cat <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
<cluster id="c" prefix="n-" suffix="" radical="$1" speed="1Gf" bw="1GBps" lat="1us" $2/>
</platform>
EOF
}
zone 0f 1GBps 1us >"$tmp/speed0.xml"
zone inf 1GBps 1us >"$tmp/speedinf.xml"
zone 1Gf 0Bps 1us >"$tmp/bw0.xml"
zone 1Gf 1GBps 1us >"$tmp/good.xml"
# SimGrid warns of the unit-less speed before it stops at the bad attribute: the error is told
zone 1000000000 1GBps 1us | sed '8s/src=/source=/' >"$tmp/warned.xml"
cluster 0-999999999 "" >"$tmp/radical.xml"
cluster "$(printf '\n0-999999999')" "" >"$tmp/radical_break.xml" # one line all the same
cluster 0-15 'topology="FAT_TREE" topo_parameters="2;4,4;1,2"' >"$tmp/fattree.xml"
cluster 0-15 'topology="TORUS" topo_parameters="0,3"' >"$tmp/torus.xml"
for case in "speed0.xml:5: host 'a' has a speed of 0" "speedinf.xml:5: host 'a' has a speed of inf" \
    "bw0.xml:7: link 'l' has a bandwidth of 0" "radical.xml:4: radical \"0-999999999\"" \
    "radical_break.xml:4: radical \"\\n0-999999999\"" "warned.xml:8: Invalid XML" \
    "fattree.xml:4: Fat trees are defined by" "torus.xml: Uncaught exception std::invalid_argument: TorusZone"; do
    file=${case%%:*}
    "$COLLSIM" exec "$PROGRAMS_DIR/farthest.so" -n 2 --platform "$tmp/$file" >"$tmp/b.out" 2>"$tmp/b.err"
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/b.err")" -eq 1 ] && grep -qF "${case#*:}" "$tmp/b.err"; then
        pass "bad platform $file: $(cat "$tmp/b.err")"
    else
        fail "bad platform $file: exit $rc, $(head -3 "$tmp/b.err") (wanted ${case#*:})"
    fi
done
if "$COLLSIM" exec "$PROGRAMS_DIR/farthest.so" -n 2 --platform "$tmp/good.xml" >"$tmp/g.out" 2>&1 &&
    grep -q "farthest pair 0-1" "$tmp/g.out"; then
    pass "the same zone with sound values runs"
else
    fail "good zone: $(cat "$tmp/g.out")"
fi

# Placement, as MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) sees it (nodes.c), 6 ranks on
# 4 hosts of 2 cores: block fills hosts in order, cyclic deals ranks out one per host.
# (SimGrid's own "[time] ..." log lines, such as the thread factory's note under sanitizers, aside)
nodes() {
    "$COLLSIM" exec "$PROGRAMS_DIR/nodes.so" -n "$1" --platform "$2" --placement "$3" 2>&1 |
        grep -v '^\[ *[0-9.]*\] '
}
expect_nodes() {
    local got
    got=$(nodes "$1" "$2" "$3")
    if [ "$got" = "$4" ]; then pass "placement $3 on $2: $got"; else fail "placement $3 on $2: '$got', expected '$4'"; fi
}
expect_nodes 6 flat:hosts=4,cores=2 block "node: 0 1 | node: 2 3 | node: 4 5"
expect_nodes 6 flat:hosts=4,cores=2 cyclic "node: 0 4 | node: 1 5 | node: 2 | node: 3"
printf '# ranks 0-2 on the last host, 3 on node-1\nnode-3:3\n\nnode-1 slots=1\n' >"$tmp/hosts"
expect_nodes 4 flat:hosts=4,cores=4 "hostfile:$tmp/hosts" "node: 0 1 2 | node: 3"
r7=$(nodes 6 flat:hosts=4,cores=2 random:7)
r7again=$(nodes 6 flat:hosts=4,cores=2 random:7)
seeds_differ=0
for seed in 1 2 3 4 5; do
    [ "$(nodes 6 flat:hosts=4,cores=2 "random:$seed")" != "$r7" ] && seeds_differ=1
done
if [ "$r7" = "$r7again" ] && [ "$seeds_differ" = 1 ] && [ "$r7" != "node: 0 1 | node: 2 3 | node: 4 5" ] &&
    [ "$(echo "$r7" | grep -o '[0-9]' | sort | tr -d '\n')" = "012345" ]; then
    pass "random:7 is reproducible, another seed differs: $r7"
else
    fail "random placement: '$r7' then '$r7again' (seeds differ: $seeds_differ)"
fi
printf 'node-0:3\n' >"$tmp/crowded"
printf 'node-0\nnode-9\n' >"$tmp/unknown"
printf 'node-0\n' >"$tmp/short"
for case in "hostfile:$tmp/crowded|more ranks on node-0 than its 2 cores" \
    "hostfile:$tmp/unknown|unknown:2: no host 'node-9'" "hostfile:$tmp/short|places 1 of the 3 ranks" \
    "random:x|unknown placement 'random:x'" "spread|unknown placement 'spread'"; do
    "$COLLSIM" exec "$PROGRAMS_DIR/nodes.so" -n 3 --platform flat:hosts=4,cores=2 \
        --placement "${case%%|*}" >"$tmp/b.out" 2>"$tmp/b.all"
    rc=$?
    grep -v '^\[ *[0-9.]*\] ' "$tmp/b.all" >"$tmp/b.err"
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/b.err")" -eq 1 ] && grep -qF "${case#*|}" "$tmp/b.err"; then
        pass "placement ${case%%|*} refused: $(cat "$tmp/b.err")"
    else
        fail "placement ${case%%|*}: exit $rc, $(cat "$tmp/b.err")"
    fi
done

# Node-aware algorithms on 4-core hosts, 13 and 16 ranks (the last node short), a root that
# is not a leader, every placement, with and without MPI_IN_PLACE: every result checked.
smp_ini() {
    cat <<EOF
[scenario]
name = smp_check
description = node-aware algorithms on multi-core hosts
[platform]
file = flat:hosts=4,cores=4
placement = $1
[run]
collectives = $2
algorithms = smp
ranks = 13, 16
sizes = 8, 24KiB
root = 6
in_place = $3
EOF
}
for placement in block cyclic random:3; do
    smp_ini "$placement" "bcast, reduce, allreduce, barrier, allgather, gather, scatter" false >"$tmp/smp.ini"
    smp_ini "$placement" "reduce, allreduce, allgather, gather, scatter" true >"$tmp/smp_in_place.ini"
    for ini in smp smp_in_place; do
        "$COLLSIM" run "$tmp/$ini.ini" >"$tmp/$ini.out" 2>&1
        rc=$?
        want=26
        [ "$ini" = smp_in_place ] && want=20
        if [ "$rc" -eq 0 ] && grep -q "^$want points: $want ok, 0 FAIL, 0 ERROR" "$tmp/$ini.out" &&
            [ "$(grep -c ' smp  ' "$tmp/$ini.out")" -eq "$want" ]; then
            pass "$ini on 4-core hosts, placement $placement: $want points checked ok"
        else
            fail "$ini, placement $placement: exit $rc, $(tail -3 "$tmp/$ini.out")"
        fi
    done
done
# A non-commutative op: block placement keeps each node's ranks consecutive and the rank
# order with them; cyclic does not, and the node-aware reductions step aside, saying why.
for placement in block cyclic; do
    cat >"$tmp/nc.ini" <<EOF
[scenario]
name = smp_noncommutative
description = a non-commutative op under node-aware reductions
[platform]
file = flat:hosts=4,cores=4
placement = $placement
[run]
collectives = reduce, allreduce
algorithms = smp
ranks = 13
sizes = 32, 4KiB
root = 6
op = witness_matrix
commutative = false
datatype = witness_matrix
EOF
    "$COLLSIM" run "$tmp/nc.ini" >"$tmp/nc.out" 2>&1
    rc=$?
    served=$(grep -c ' smp  ' "$tmp/nc.out")
    fell=$(grep -c ' smp→' "$tmp/nc.out")
    if [ "$rc" -eq 0 ] && grep -q "^4 points: 4 ok" "$tmp/nc.out" &&
        { { [ "$placement" = block ] && [ "$served" -eq 4 ]; } ||
          { [ "$placement" = cyclic ] && [ "$fell" -eq 4 ] &&
            grep -q "each node's ranks consecutive (block placement)" "$tmp/nc.out"; }; }; then
        pass "non-commutative node-aware reductions, placement $placement: $served served, $fell fell back"
    else
        fail "non-commutative, placement $placement: exit $rc, served $served, fell back $fell"
    fi
done

# The shipped quick start on every generator (its points, every Allreduce algorithm at 2 rank
# counts and 2 sizes, checked against the sequential fold), multi-core hosts included.
quick=$(("$("$COLLSIM" list collectives | awk '$1 == "allreduce" { print $3 }')" * 4))
[ "$quick" -ge 28 ] || fail "collsim list collectives: $quick quick-start points"
for spec in "fattree:levels=2,down=4,cores=2" "torus:dims=4x4" \
    "dragonfly:groups=3,chassis=2,routers=3,nodes=2" "flat:hosts=4,cores=4"; do
    "$COLLSIM" run "$top_srcdir/scenarios/quickstart.ini" --set "platform.file=$spec" -j 2 \
        >"$tmp/q.out" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q "^$quick points: $quick ok, 0 FAIL, 0 ERROR" "$tmp/q.out"; then
        pass "quickstart.ini on $spec: $quick points ok"
    else
        fail "quickstart.ini on $spec: exit $rc, $(tail -3 "$tmp/q.out")"
    fi
done

# Node-aware algorithms exchange the node layout from memory of their own: with payload none
# they run, in the times of payload data. The gather and scatter move whole nodes with the
# binomial gatherv/scatterv, which read block sizes sent as data: exec refuses them, and a
# scenario row names the algorithm that served instead, and why.
"$COLLSIM" exec "$PROGRAMS_DIR/reduce_time.so" -n 4 --payload none --algorithm reduce=smp \
    >"$tmp/p.out" 2>"$tmp/p.err"
rc=$?
"$COLLSIM" exec "$PROGRAMS_DIR/reduce_time.so" -n 4 --payload data --algorithm reduce=smp \
    >"$tmp/pd.out" 2>"$tmp/pd.err"
# the time, not the sum: sizes-only runs charge reductions without applying them
if [ "$rc" -eq 0 ] && [ -s "$tmp/p.out" ] && [ "$(cut -d, -f1 "$tmp/p.out")" = "$(cut -d, -f1 "$tmp/pd.out")" ]; then
    pass "exec --payload none --algorithm reduce=smp runs as with payload data: $(head -1 "$tmp/p.out")"
else
    fail "payload none with reduce=smp: exit $rc, $(cat "$tmp/p.err"), $(diff "$tmp/pd.out" "$tmp/p.out" | head -3)"
fi
"$COLLSIM" exec "$PROGRAMS_DIR/reduce_time.so" -n 4 --payload none --algorithm gather=smp \
    >"$tmp/p.out" 2>"$tmp/p.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "gather=smp moves whole nodes with the binomial gatherv or scatterv" "$tmp/p.err"; then
    pass "exec --payload none --algorithm gather=smp refused: $(cat "$tmp/p.err")"
else
    fail "payload none with gather=smp: exit $rc, $(cat "$tmp/p.err")"
fi
smp_ini block "barrier, gather" false | sed 's/^\[run\]$/[run]\npayload = none/' >"$tmp/none.ini"
"$COLLSIM" run "$tmp/none.ini" >"$tmp/none.out" 2>&1
if grep -q "^barrier  *smp  " "$tmp/none.out" && grep -q "smp→binomial \[1\]" "$tmp/none.out" &&
    grep -q "^\[1\] moves whole nodes with the binomial gatherv or scatterv, which send the block sizes as data (payload = data)" "$tmp/none.out"; then
    pass "a payload-none scenario's smp barrier runs; its smp gather falls back to binomial, saying why"
else
    fail "payload-none smp: $(tail -8 "$tmp/none.out")"
fi

# The binomial Gatherv/Scatterv send each subtree's block sizes as data: without payload they
# would read sizes that were never carried (they truncated or deadlocked), so they fall back.
printf '[scenario]\nname = gv\n[run]\nranks = 5\ncollectives = gatherv, scatterv\nalgorithms = binomial\nsizes = 8, 64KiB\npayload = none\n' >"$tmp/gv.ini"
"$COLLSIM" run "$tmp/gv.ini" >"$tmp/gv.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && [ "$(grep -c "binomial→linear \[1\]" "$tmp/gv.out")" -eq 4 ] &&
    grep -q "^\[1\] sends the block sizes as data (payload = data)" "$tmp/gv.out"; then
    pass "payload-none binomial gatherv/scatterv fall back to linear, saying why"
else
    fail "payload-none binomial gatherv/scatterv: exit $rc, $(tail -5 "$tmp/gv.out")"
fi
"$COLLSIM" exec "$PROGRAMS_DIR/reduce_time.so" -n 4 --payload none --algorithm gatherv=binomial \
    >"$tmp/p.out" 2>"$tmp/p.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "gatherv=binomial sends the block sizes as data" "$tmp/p.err"; then
    pass "exec --payload none --algorithm gatherv=binomial refused"
else
    fail "exec payload none gatherv=binomial: exit $rc, $(cat "$tmp/p.err")"
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
