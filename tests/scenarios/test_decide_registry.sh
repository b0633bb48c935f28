#!/bin/bash
# test_decide_registry.sh — every collsim algorithm that a library's decision file names
# (models/decisions/*.rules, catalogue lines `algorithm ID SHORT = COLLSIM ...`) is in this
# build's registry with the parameters given: `collsim decide --check` reads each file with the
# strict reader (src/coll_decision.h, COLL_DECISION_STRICT), which refuses an unknown name
# or a parameter the algorithm does not take with the file and line.
set -u
: "${COLLSIM:?}" "${top_srcdir:?}"
failures=0
found=0
for rules in "$top_srcdir"/models/decisions/*.rules; do
    found=$((found + 1))
    if ! "$COLLSIM" decide --check --decision "$rules"; then
        echo "FAIL: $rules names a collsim algorithm this build lacks (above)"
        failures=$((failures + 1))
    fi
done
[[ $found -ge 2 ]] || { echo "FAIL: only $found decision files"; failures=$((failures + 1)); }
[[ $failures -eq 0 ]] || exit 1
echo "ok: every name of $found decision files resolves"
