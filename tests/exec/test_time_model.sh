#!/bin/bash
# test_time_model.sh — what a message costs, end to end through `collsim exec`, against the
# network presets' documented numbers (platforms/README.md, "Network presets"). Every expected
# time below is derived by hand from the preset table, never read back from collsim.
set -u
: "${COLLSIM:?}" "${PROGRAMS_DIR:?}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# seconds NAME CMD... : run, print the simulated seconds of the program's output line
seconds() {
    local name=$1; shift
    if ! "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
        fail "$name: exit code $?"; sed 's/^/    /' "$tmp/$name.err" | head -5; echo nan; return
    fi
    sed -n 's/.*: \([0-9.e+-]*\) s.*/\1/p' "$tmp/$name.out" | head -1
}

# within NAME GOT WANT REL : |GOT - WANT| <= REL * WANT
within() {
    if awk -v g="$2" -v w="$3" -v r="$4" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g == g && d <= r * w) }'; then
        pass "$1: $2 s (expected $3 s)"
    else
        fail "$1: $2 s, expected $3 s within $4"
    fi
}

# One-way time of a message = round trip / 2, over 1000 round trips (the printed 9 decimals
# then resolve 0.001 ns per message). Preset numbers: o_s, two links of latency L, W, o_r.
#   ib-edr       0.2 + 2 x 0.3  + 8 B / 12.5 GB/s + 0.2 = 1.00064 us   (the default; the fabric's
#                                                                       published ~1.0 us)
#   ib-hdr       0.15 + 2 x 0.3 + 8 B / 25 GB/s   + 0.15 = 0.90032 us
#   omnipath     0.25 + 2 x 0.25 + 8 B / 12.5 GB/s + 0.25 = 1.00064 us
#   roce-100g    0.2 + 2 x 0.55 + 8 B / 12.5 GB/s + 0.2 = 1.50064 us
#   ethernet-10g 5 + 2 x 2.5 + 8 B / 1.25 GB/s + 5 = 15.0064 us (cross traffic: 5% of 8 B back)
#   cm02         0 + 2 x 1 + 8 B / 12.5 GB/s + 0 = 2.00064 us
#   lv08         13.01 x 2 us + 8 B / (0.97 x 12.5 GB/s) = 26.0206598 us
for entry in default:1.00064e-6 ib-edr:1.00064e-6 ib-hdr:0.90032e-6 omnipath:1.00064e-6 \
    roce-100g:1.50064e-6 ethernet-10g:15.0064e-6 cm02:2.00064e-6 lv08:26.0206598e-6; do
    net=${entry%%:*} want=${entry#*:}
    opt=(); [ "$net" = default ] || opt=(--network "$net")
    rt=$(seconds "pp-$net" "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 2 "${opt[@]}" -- 8 1000)
    one_way=$(awk -v t="$rt" 'BEGIN { printf "%.12g", t / 2000 }')
    # 5 % is the issue's bound; the CM02 presets match to the printed precision
    within "8 B one way, $net" "$one_way" "$want" 0.001
done

# The default preset within 5 % of its documented 1.0 us (the figure README quotes).
rt=$(seconds pp-doc "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 2 -- 8 1000)
within "default 8 B one way against its documented 1.0 us" \
    "$(awk -v t="$rt" 'BEGIN { printf "%.12g", t / 2000 }')" 1.0e-6 0.05

# A large message: eager below the 16 KiB threshold of ib-edr, rendezvous above it.
#   16384 B eager:       0.2 + 0.6 + 16384 / 12.5e9 + 0.2         = 2.31072 us
#   1 MiB rendezvous:    0.2 + 3 x 0.6 + (1048576 + 2) / 12.5e9 + 0.2 = 86.08624 us
#     (envelope, clear-to-send and data each cross the two links; the envelope and the
#      clear-to-send are one byte each)
rt=$(seconds pp-16k "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 2 -- 16384 100)
within "16 KiB one way (eager)" "$(awk -v t="$rt" 'BEGIN { printf "%.12g", t / 200 }')" 2.31072e-6 0.001
rt=$(seconds pp-1m "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 2 -- 1048576 10)
within "1 MiB one way (rendezvous)" "$(awk -v t="$rt" 'BEGIN { printf "%.12g", t / 20 }')" 86.08624e-6 0.001

# Receiving costs the receiver: a linear Reduce of 8 B at P = 1024 folds 1023 messages at
# rank 0, which pays o_r = 0.2 us for each: at least 1023 x 0.2 us = 204.6 us (plus the
# first message's o_s + 2L and 1023 additions of one double at 10 Gflop/s: 0.1 ns each).
t=$(seconds fanin "$COLLSIM" exec "$PROGRAMS_DIR/reduce_time.so" -n 1024 \
    --algorithm reduce=linear -- 8)
if awk -v t="$t" 'BEGIN { exit !(t >= 1023 * 0.2e-6) }'; then
    pass "linear reduce of 8 B at P = 1024 costs $t s >= 1023 x o_r"
else
    fail "linear reduce of 8 B at P = 1024 costs $t s < 1023 x o_r = 204.6 us"
fi
grep -q "sum 523776" "$tmp/fanin.out" && pass "fan-in result 0+1+...+1023 = 523776" ||
    fail "fan-in result: $(cat "$tmp/fanin.out")"
# The same with --recv-overhead 0 is far cheaper: the receive overhead is what it costs.
t0=$(seconds fanin0 "$COLLSIM" exec "$PROGRAMS_DIR/reduce_time.so" -n 1024 \
    --algorithm reduce=linear --recv-overhead 0 -- 8)
if awk -v a="$t" -v b="$t0" 'BEGIN { exit !(a - b >= 1023 * 0.2e-6 * 0.999) }'; then
    pass "o_r accounts for $(awk -v a="$t" -v b="$t0" 'BEGIN { printf "%.3g", a - b }') s of it"
else
    fail "o_r = 0 gives $t0 s, o_r = 0.2 us gives $t s: the difference is not 1023 x o_r"
fi

# Bad input: one line, exit 2, before anything runs.
for bad in "--network infiniband" "--gap -1" "--send-overhead nan" "--recv-overhead 1parsec"; do
    # shellcheck disable=SC2086
    "$COLLSIM" exec "$PROGRAMS_DIR/pingpong.so" -n 2 $bad >"$tmp/bad.out" 2>"$tmp/bad.err"
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && [ ! -s "$tmp/bad.out" ]; then
        pass "$bad refused: $(cat "$tmp/bad.err")"
    else
        fail "$bad: exit $rc, stderr: $(cat "$tmp/bad.err")"
    fi
done

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
