#!/bin/bash
# test_teaching.sh — every command line of scenarios/seeds/README.md (the teaching material:
# an indented line starting with `collsim `) runs as written, from the top of a built tree,
# and makes what it names: a non-empty picture for --timeline, --picture and --plot (checked
# by its signature), a walk that ends with its result for `collsim explain`.
set -u
: "${COLLSIM:?}" "${top_srcdir:?}" "${top_builddir:?}"
doc="$top_srcdir/scenarios/seeds/README.md"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the seed programs are built in the build tree, the scenarios live in the source tree
mkdir -p "$work/scenarios"
ln -s "$(cd "$top_builddir/scenarios/seeds" && pwd)" "$work/scenarios/seeds"
for ini in "$top_srcdir"/scenarios/*.ini; do ln -s "$(cd "$(dirname "$ini")" && pwd)/$(basename "$ini")" "$work/scenarios/"; done
failures=0
commands=0
while IFS= read -r line; do
    commands=$((commands + 1))
    read -r -a words <<<"${line#collsim }"
    out="$work/out.txt"
    if ! (cd "$work" && "$COLLSIM" "${words[@]}") >"$out" 2>"$work/err.txt"; then
        echo "FAIL: $line"; head -5 "$work/err.txt"; failures=$((failures + 1)); continue
    fi
    made=""
    for ((i = 0; i < ${#words[@]}; i++)); do
        case ${words[$i]} in
        --timeline | --picture | --plot) made=${words[$((i + 1))]} ;;
        esac
    done
    if [ -n "$made" ]; then
        case $made in
        *.svg) magic='<?xml' ;;
        *.png) magic=$'\x89PNG' ;;
        *.pdf) magic='%PDF-' ;;
        esac
        if [ ! -s "$work/$made" ] || [ "$(head -c ${#magic} "$work/$made")" != "$magic" ]; then
            echo "FAIL: $line: no $made"; failures=$((failures + 1)); continue
        fi
        rm -f "$work/$made"
    elif [ "${words[0]}" = explain ] && ! grep -q '^result:' "$out"; then
        echo "FAIL: $line: no walk"; head -5 "$out"; failures=$((failures + 1)); continue
    fi
    echo "ok: $line"
done < <(sed -n 's/^    \(collsim .*\)$/\1/p' "$doc")
[ "$commands" -ge 20 ] || { echo "FAIL: only $commands commands found in $doc"; exit 1; }
echo "$commands commands, $failures failure(s)"
[ "$failures" -eq 0 ]
