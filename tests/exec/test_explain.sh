#!/bin/bash
# test_explain.sh — `collsim explain`: the walks of small cases against texts written BY HAND
# from the algorithms' definitions (never read back from collsim), the 100-column limit, the
# same text twice, and the refusals (exit 2, nothing on stdout).
#
# The round rule (README, "Pictures of reduction order and step-by-step walks"): a message's
# round is 1 + the highest round its sender had sent or received before starting it.
set -u
: "${COLLSIM:?}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# The header every walk starts with, after its first line.
notation='notation: rI is rank I'"'"'s contribution; [a..b] is ra+...+rb combined in rank order;
  X+Y is X combined with Y, X the left operand; - nothing yet; ×k: k equal elements.
a round holds the messages whose sender had reached the round before (see README).
'

# walk NAME EXPECTED ARGS... : the walk's stdout must be EXPECTED exactly, exit 0
walk() {
    local name=$1 expected=$2; shift 2
    if ! "$COLLSIM" explain "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
        fail "$name: exit code $?"; sed 's/^/    /' "$tmp/$name.err" | head -5; return
    fi
    printf '%s' "$expected" >"$tmp/$name.want"
    if cmp -s "$tmp/$name.want" "$tmp/$name.out"; then
        pass "$name"
    else
        fail "$name: the walk differs from the one derived by hand"
        diff "$tmp/$name.want" "$tmp/$name.out" | sed 's/^/    /' | head -30
    fi
}

# Binomial reduce to rank 0, P = 4: in step 1 every odd rank sends its contribution to the
# even rank below (1 -> 0, 3 -> 2), which combines it on the right; in step 2 rank 2 sends
# its r2+r3 to rank 0, which now holds r0+r1+r2+r3, in rank order.
walk reduce_binomial_4 "collsim explain: reduce binomial P=4 count=1 root=0 op=noncommutative
$notation
start
  holds: 0: r0   1: r1   2: r2   3: r3
round 1: 2 messages
  1 -> 0: r1
  3 -> 2: r3
  holds: 0: [0..1]   1: r1   2: [2..3]   3: r3
round 2: 1 message
  2 -> 0: [2..3]
  holds: 0: [0..3]   1: r1   2: [2..3]   3: r3

result: 0: [0..3]
rank order kept: yes
" reduce binomial -n 4

# Recursive doubling, P = 4: step 1 partners differ in bit 0 (0<->1, 2<->3), step 2 in bit 1
# (0<->2, 1<->3); each pair exchanges what it holds and combines lower ranks on the left.
walk allreduce_recursive_doubling_4 "collsim explain: allreduce recursive_doubling P=4 count=1 op=noncommutative
$notation
start
  holds: 0: r0   1: r1   2: r2   3: r3
round 1: 4 messages
  0 -> 1: r0
  1 -> 0: r1
  2 -> 3: r2
  3 -> 2: r3
  holds: 0: [0..1]   1: [0..1]   2: [2..3]   3: [2..3]
round 2: 4 messages
  0 -> 2: [0..1]
  1 -> 3: [0..1]
  2 -> 0: [2..3]
  3 -> 1: [2..3]
  holds: 0: [0..3]   1: [0..3]   2: [0..3]   3: [0..3]

result: 0: [0..3]   1: [0..3]   2: [0..3]   3: [0..3]
rank order kept: yes
" allreduce recursive_doubling -n 4

# Binomial broadcast from rank 0, P = 4: the root sends to the rank half-way (2) first, then
# to 1 — its second send, so round 2 — while 2 passes the data on to 3 in the same round.
walk bcast_binomial_4 "collsim explain: bcast binomial P=4 count=1 root=0
$notation
start
  holds: 0: r0   1: -   2: -   3: -
round 1: 1 message
  0 -> 2: r0
  holds: 0: r0   1: -   2: r0   3: -
round 2: 2 messages
  0 -> 1: r0
  2 -> 3: r0
  holds: 0: r0   1: r0   2: r0   3: r0

result: 0: r0   1: r0   2: r0   3: r0
every rank holds r0: yes
" bcast binomial -n 4

# The same from root 1: the tree is the one above on ranks relative to the root
# (relative 0 -> 2 -> 3 and 0 -> 1 are ranks 1 -> 3 -> 0 and 1 -> 2).
walk bcast_binomial_4_root1 "collsim explain: bcast binomial P=4 count=1 root=1
$notation
start
  holds: 0: -   1: r1   2: -   3: -
round 1: 1 message
  1 -> 3: r1
  holds: 0: -   1: r1   2: -   3: r1
round 2: 2 messages
  1 -> 2: r1
  3 -> 0: r1
  holds: 0: r1   1: r1   2: r1   3: r1

result: 0: r1   1: r1   2: r1   3: r1
every rank holds r1: yes
" bcast binomial -n 4 --root 1

# Linear scan, P = 3, two elements: a chain 0 -> 1 -> 2, each rank combining what comes from
# below on the left of its own contribution and passing the prefix on.
walk scan_linear_3 "collsim explain: scan linear P=3 count=2 op=noncommutative
$notation
start
  holds: 0: r0   1: r1   2: r2
round 1: 1 message
  0 -> 1: r0 ×2
  holds: 0: r0   1: [0..1]   2: r2
round 2: 1 message
  1 -> 2: [0..1] ×2
  holds: 0: r0   1: [0..1]   2: [0..2]

result: 0: r0 ×2   1: [0..1] ×2   2: [0..2] ×2
rank order kept: yes
" scan linear -n 3 --count 2

# One rank: nothing moves.
walk reduce_one_rank "collsim explain: reduce binomial P=1 count=1 root=0 op=noncommutative
$notation
start
  holds: 0: r0
no messages

result: 0: r0
rank order kept: yes
" reduce binomial -n 1

# The largest walk allowed fits 100 columns (× counted as one column) and is the same twice.
for run in 1 2; do
    "$COLLSIM" explain allreduce rabenseifner -n 64 --count 64 >"$tmp/big$run.out" 2>&1 ||
        fail "64-rank walk: exit code $?"
done
widest=$(sed 's/×/x/g' "$tmp/big1.out" | awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }')
if [ "$widest" -le 100 ] && [ "$(wc -l <"$tmp/big1.out")" -gt 64 ]; then
    pass "64-rank walk fits 100 columns (widest line: $widest)"
else
    fail "64-rank walk: widest line $widest columns"
fi
cmp -s "$tmp/big1.out" "$tmp/big2.out" && pass "same walk twice" || fail "two walks differ"

# refuse NAME PATTERN ARGS... : exit 2, nothing on stdout, PATTERN in the message
refuse() {
    local name=$1 pattern=$2; shift 2
    "$COLLSIM" explain "$@" >"$tmp/r.out" 2>"$tmp/r.err"
    local rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$tmp/r.out" ] && grep -q -e "$pattern" "$tmp/r.err"; then
        pass "refused: $name"
    else
        fail "$name: exit $rc, stderr: $(head -c 300 "$tmp/r.err")"
    fi
}
refuse "unknown collective" "bcast, reduce, allreduce, reduce_scatter" gather binomial -n 4
refuse "unknown algorithm" "no algorithm named 'nope' (.*binomial" reduce nope -n 4
refuse "too many ranks" "from 1 to 64" reduce binomial -n 65
refuse "no ranks" "how many ranks" reduce binomial
refuse "zero ranks" "from 1 to 64" reduce binomial -n 0
refuse "count 0" "count wants 1 to" reduce binomial -n 4 --count 0
refuse "count too large" "count wants 1 to" reduce binomial -n 4 --count 100000
refuse "count not a number" "count" reduce binomial -n 4 --count abc
refuse "root of allreduce" "root applies to reduce and bcast" allreduce ring -n 4 --root 1
refuse "root not a rank" "root must be a rank" bcast binomial -n 4 --root 4
refuse "no algorithm" "which collective and algorithm" reduce

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
