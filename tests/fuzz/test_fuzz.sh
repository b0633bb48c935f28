#!/bin/bash
# test_fuzz.sh — the short deterministic fuzzing run of `make check`: the corpus of
# tests/fuzz/corpus/ and FUZZ_ITERATIONS mutants per target (default 1500; the platform files,
# which cost a process each, get a sixth) through the scenario parser, the platform generator
# specs, the --set overrides, the --algorithm values and the platform file inspection. Fails on
# any crash, abort, broken property or sanitizer report; prints the counts and times. Long
# runs: tests/fuzz/README.md.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
driver=$top_builddir/tests/fuzz/fuzz_driver
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export TMPDIR=$work # the targets' input files go away with it
if "$driver" --iterations "${FUZZ_ITERATIONS:-1500}" "$top_srcdir/tests/fuzz/corpus"; then
    echo PASS
    exit 0
fi
echo "FAIL: the fuzzer found a crash; input:"
for f in fuzz-crash-*.bin; do
    [ -e "$f" ] && { echo "  $f:"; od -c "$f" | head -20; }
done
exit 1
