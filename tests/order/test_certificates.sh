#!/bin/bash
# test_certificates.sh — the shipped reduction order certificates (tests/golden/certificates.txt)
# regenerated with `collsim order` and compared, so that no change to an algorithm alters its
# order unnoticed; plus what the certificates must say whatever the algorithms do: rank order
# for every non-commutative witness, and a recorded fallback for every algorithm that
# `collsim list algorithms` says requires a commutative op.
#
# After an intended change of order, review the diff this test prints, then rewrite the file:
#   COLLSIM=./collsim top_srcdir=. tests/order/test_certificates.sh --regenerate
set -u
: "${COLLSIM:?}" "${top_srcdir:?}"
golden="$top_srcdir/tests/golden/certificates.txt"
RANKS=2,3,5,8,13,16,64
# counts >= ranks let rabenseifner and the rings run instead of falling back
WIDE_RANKS=5,8,13,16,64

# Every certificate line, each section in both op modes. Exit codes are checked by the caller.
generate() {
    local mode rc=0
    for mode in "" --commutative; do
        "$COLLSIM" order all all -n $RANKS --count 3 --certificate $mode || rc=$?
        "$COLLSIM" order reduce all -n $RANKS --count 3 --root 1 --certificate $mode || rc=$?
        "$COLLSIM" order reduce all -n $WIDE_RANKS --count 64 --certificate $mode || rc=$?
        "$COLLSIM" order allreduce all -n $WIDE_RANKS --count 64 --certificate $mode || rc=$?
        # one element per segment, and a radix other than the default
        "$COLLSIM" order reduce pipeline_chain -n $RANKS --count 3 --segment-bytes 8 \
            --certificate $mode || rc=$?
        "$COLLSIM" order reduce pipeline_binary -n $RANKS --count 3 --segment-bytes 8 \
            --certificate $mode || rc=$?
        "$COLLSIM" order reduce knomial -n $RANKS --count 3 --radix 3 --certificate $mode || rc=$?
        "$COLLSIM" order allreduce ring_segmented -n $WIDE_RANKS --count 64 --segment-bytes 8 \
            --certificate $mode || rc=$?
        # node-aware reductions on 4-core hosts: by node (block placement keeps rank order; a
        # non-commutative op under cyclic placement falls back)
        for placement in block cyclic; do
            "$COLLSIM" order reduce smp -n 8,13,16 --count 3 --root 6 \
                --platform flat:hosts=4,cores=4 --placement $placement --certificate $mode || rc=$?
            "$COLLSIM" order allreduce smp -n 5,8,13,16 --count 3 \
                --platform flat:hosts=4,cores=4 --placement $placement --certificate $mode || rc=$?
        done
    done
    return $rc
}

if [ "${1:-}" = --regenerate ]; then
    {
        echo "# Reduction order certificates: one line per (collective, algorithm, P, count, root,"
        echo "# parameters, op), written by tests/order/test_certificates.sh --regenerate, which"
        echo "# lists the collsim order commands. order=rank: every result folds its ranks in"
        echo "# rank order; fallback: the algorithm cannot serve the call, the named one did."
        generate
    } >"$golden.new" || { echo "a generating command failed; $golden left alone"; exit 1; }
    mv "$golden.new" "$golden"
    echo "wrote $golden ($(grep -vc '^#' "$golden") certificates)"
    exit 0
fi

failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# 1. The shipped certificates, regenerated. Every non-commutative witness must see rank order
#    (exit 0), and so must every commutative run be acceptable.
if generate >"$tmp/now.txt" 2>"$tmp/now.err"; then pass "every point certified (exit 0)"; else
    fail "collsim order failed or saw a non-rank order"; head -20 "$tmp/now.err"; fi
grep -v '^#' "$golden" >"$tmp/golden.txt"
if diff -u "$tmp/golden.txt" "$tmp/now.txt" >"$tmp/diff"; then
    pass "certificates equal $golden ($(wc -l <"$tmp/now.txt") points)"
else
    fail "certificates differ from $golden (an algorithm's order changed?)"
    head -40 "$tmp/diff"
fi

# 1b. The nonblocking forms (MPI_I<collective> + MPI_Wait) run the same algorithms: each of
#     their certificates is the shipped blocking one, with form=nonblocking after count/root.
if "$COLLSIM" order all all -n $RANKS --count 3 --certificate --nonblocking >"$tmp/nb.txt" \
    2>"$tmp/nb.err"; then pass "nonblocking forms: every point certified (exit 0)"; else
    fail "collsim order --nonblocking failed or saw a non-rank order"; head -20 "$tmp/nb.err"; fi
if [ "$(grep -c ' form=nonblocking ' "$tmp/nb.txt")" -eq "$(wc -l <"$tmp/nb.txt")" ] &&
    sed 's/ form=nonblocking / /' "$tmp/nb.txt" | head -n "$(wc -l <"$tmp/nb.txt")" |
    diff -u <(head -n "$(wc -l <"$tmp/nb.txt")" "$tmp/golden.txt") - >"$tmp/nb.diff"; then
    pass "nonblocking certificates equal the blocking ones ($(wc -l <"$tmp/nb.txt") points)"
else
    fail "nonblocking certificates differ from the blocking ones"; head -20 "$tmp/nb.diff"
fi

# 2. What the certificates must say, checked on the file itself.
bad=$(grep ' op=noncommutative ' "$tmp/golden.txt" | grep -v ' order=rank ' | head -3)
if [ -z "$bad" ]; then pass "every non-commutative certificate says order=rank"; else
    fail "non-commutative certificates not in rank order:"; echo "$bad"; fi
bad=$(grep -E 'order=(BROKEN|NOT-RANK)\(' "$tmp/golden.txt" | grep -v ' op=commutative ' | head -3)
[ -z "$bad" ] || { fail "broken or reordered results:"; echo "$bad"; }
grep -q ' op=commutative .*order=NOT-RANK' "$tmp/golden.txt" &&
    pass "some commutative-only algorithms visibly reorder ranks" ||
    fail "no commutative run shows another order than rank order"

# Each algorithm the registry marks commutative-only falls back, at every P, naming that need;
# an order-preserving one never falls back for want of commutativity.
"$COLLSIM" list algorithms >"$tmp/list.txt"
commutative_only=$(awk '$1 ~ /^(reduce|allreduce|reduce_scatter|reduce_scatter_block|scan|exscan)$/ &&
    /requires commutative op/ {print $1 " " $2}' "$tmp/list.txt")
[ -n "$commutative_only" ] || fail "collsim list algorithms names no commutative-only reduction"
while read -r kind name; do
    [ -n "$kind" ] || continue
    lines=$(grep -c "^$kind $name P=[0-9]* count=3 \(root=0 \)\?\(segment_bytes=[0-9]* \)\?\(radix=[0-9]* \)\?op=noncommutative fallback: [a-z_]* (requires commutative op) order=rank " "$tmp/golden.txt")
    if [ "$lines" -eq 7 ]; then pass "$kind $name: fallback recorded at all 7 P"; else
        fail "$kind $name: $lines of 7 non-commutative points record the fallback"; fi
done <<<"$commutative_only"
bad=$(grep 'fallback: .*(requires commutative op)' "$tmp/golden.txt" | while read -r kind name _; do
    grep -q "^  $kind  *$name  *requires commutative op" "$tmp/list.txt" || echo "$kind $name"
done | sort -u)
[ -z "$bad" ] && pass "only commutative-only algorithms fall back for commutativity" ||
    fail "order-preserving algorithms fell back: $bad"

# 3. --against: the shipped file passes; a changed point is named with old and new line.
run() {  # NAME WANT_RC CMD...
    local name=$1 want=$2; shift 2
    "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    [ "$rc" -eq "$want" ] && return 0
    fail "$name: exit code $rc, expected $want"; head -5 "$tmp/$name.err"; return 1
}
has() {  # NAME TEXT: stderr of NAME contains TEXT
    grep -qF -- "$2" "$tmp/$1.err" && pass "$1: names '$2'" ||
        { fail "$1: stderr lacks '$2'"; head -8 "$tmp/$1.err"; }
}
run against-golden 0 "$COLLSIM" order allreduce all -n 5,8 --count 3 --against "$golden" &&
    pass "--against the shipped file: no difference"
key="allreduce recursive_doubling P=8 count=3 op=noncommutative"
sed "s/^\($key .*\) depth=3 /\1 depth=4 /" "$golden" >"$tmp/tampered.txt"
run against-tampered 3 "$COLLSIM" order allreduce recursive_doubling -n 5,8 --count 3 \
    --certificate --against "$tmp/tampered.txt" &&
    { has against-tampered "$key differs from"; has against-tampered "1 of 2 points differ"; }
run against-missing 3 "$COLLSIM" order scan linear -n 4 --count 3 --against "$tmp/tampered.txt" &&
    has against-missing "scan linear P=4 count=3 op=noncommutative is not in"

# With expressions saved, the first differing element is named with both expressions.
"$COLLSIM" order reduce chain -n 4 >"$tmp/chain.txt"
sed 's/^  rank 0 element 0 depth=3 .*/  rank 0 element 0 depth=2 ((r0·r1)·(r2·r3))/' \
    "$tmp/chain.txt" | sed 's/ depth=3 / depth=2 /' >"$tmp/chain-edited.txt"
run against-expressions 3 "$COLLSIM" order reduce chain -n 4 --against "$tmp/chain-edited.txt" &&
    { has against-expressions "first differing element: rank 0 element 0";
      has against-expressions "old: depth=2 ((r0·r1)·(r2·r3))";
      has against-expressions "new: depth=3 (((r0·r1)·r2)·r3)"; }

# 4. The display: expressions and the tree for a small case, derived by hand (the seed chain).
cat >"$tmp/tree.expected" <<'OUT'
reduce chain P=3 count=1 root=2 op=noncommutative order=rank depth=2 applications=2 op_calls=2 sha256=HASH
  rank 2 element 0 depth=2 ((r0·r1)·r2)
      ·
      ├── ·
      │   ├── r0
      │   └── r1
      └── r2
OUT
run tree 0 "$COLLSIM" order reduce chain -n 3 --root 2 --tree &&
    if diff -u "$tmp/tree.expected" <(sed 's/sha256=[0-9a-f]*/sha256=HASH/' "$tmp/tree.out") \
        >"$tmp/tree.diff"; then pass "--tree draws the chain"; else
        fail "--tree output differs"; cat "$tmp/tree.diff"; fi
run big 0 "$COLLSIM" order scan linear -n 17 &&
    { [ "$(wc -l <"$tmp/big.out")" -eq 1 ] && pass "no expressions above 16 ranks" ||
        fail "expressions printed at 17 ranks"; }
run big-expressions 0 "$COLLSIM" order scan linear -n 17 --expressions &&
    { [ "$(wc -l <"$tmp/big-expressions.out")" -eq 18 ] && pass "--expressions at 17 ranks" ||
        fail "--expressions did not print 17 expressions"; }

# 5. Bad arguments: one message, exit 2, nothing run.
run bad-collective 2 "$COLLSIM" order bcast binomial -n 4 && has bad-collective "does not reduce"
run bad-algorithm 2 "$COLLSIM" order allreduce nosuch -n 4 && has bad-algorithm "'nosuch'"
run bad-ranks 2 "$COLLSIM" order allreduce ring -n 2,0 && has bad-ranks "-n wants rank counts"
run bad-root 2 "$COLLSIM" order reduce binomial -n 4 --root 4 && has bad-root "root must be a rank"
echo "not a certificate" >"$tmp/garbage.txt"
run bad-against 2 "$COLLSIM" order reduce chain -n 4 --against "$tmp/garbage.txt" &&
    has bad-against "garbage.txt:1: not a certificate line"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
