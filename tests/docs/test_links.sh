#!/bin/bash
# test_links.sh — every reference a document of the repository makes to a file resolves.
#
# Scans every *.md file under top_srcdir (build trees and distcheck copies below it excluded,
# by path: top_srcdir may itself be such a tree, as in `make check-sanitizers`) for
#  - relative Markdown links [text](path) and [text](path#anchor), resolved against the
#    folder of the document (http:, https:, mailto: and pure #anchor links are not files);
#  - backquoted repository paths: a word inside `...` that starts with one of the top
#    folders (src/ sim/ models/ tests/ platforms/ scenarios/) and ends in .c .h .ini .xml .md
#    or .sh (a file) or in / (a folder), resolved against top_srcdir. Words holding a
#    placeholder (<name>, *) are not paths and do not match.
# Fenced code blocks are skipped: what they hold is a command or an output, not a reference.
# Prints FILE:LINE: the missing target, for each one, and fails if there is any.
#   top_srcdir=. tests/docs/test_links.sh
set -u
: "${top_srcdir:?}"
top=$(cd "$top_srcdir" && pwd)

# One line per reference: KIND<TAB>LINE<TAB>TARGET, KIND being "link" or "path".
references() {
    awk '
    /^[ \t]*(```|~~~)/ { fenced = !fenced; next }
    fenced { next }
    {
        line = $0
        # Markdown links and images: [text](target) or [text](target "title")
        rest = line
        while (match(rest, /\]\([^)]*\)/)) {
            target = substr(rest, RSTART + 2, RLENGTH - 3)
            rest = substr(rest, RSTART + RLENGTH)
            sub(/^[ \t]*</, "", target); sub(/>[ \t]*$/, "", target)
            sub(/[ \t].*$/, "", target)
            if (target == "" || target ~ /^#/ || target ~ /^(https?|mailto|ftp):/)
                continue
            sub(/#.*$/, "", target)
            printf "link\t%d\t%s\n", NR, target
        }
        # backquoted code spans, then the path-like words inside them
        rest = line
        while (match(rest, /`[^`]+`/)) {
            span = substr(rest, RSTART + 1, RLENGTH - 2)
            rest = substr(rest, RSTART + RLENGTH)
            n = split(span, words, /[ \t,;:()="\047]+/)
            for (i = 1; i <= n; i++) {
                w = words[i]
                if (w ~ /^(src|sim|models|tests|platforms|scenarios)\/[A-Za-z0-9_.\/-]*(\.(c|h|ini|xml|md|sh)|\/)$/)
                    printf "path\t%d\t%s\n", NR, w
            }
        }
    }' "$1"
}

missing=0
checked=0
while IFS= read -r doc; do
    rel=${doc#"$top"/}
    dir=$(dirname "$doc")
    while IFS=$'\t' read -r kind line target; do
        checked=$((checked + 1))
        if [ "$kind" = link ]; then
            base=$dir
        else
            base=$top
        fi
        if [ ! -e "$base/$target" ]; then
            echo "$rel:$line: missing $target"
            missing=$((missing + 1))
        fi
    done < <(references "$doc")
done < <(find "$top" \( -name .git -o -name autom4te.cache -o -path "$top/_build" \
                        -o -path "$top/build-*" -o -path "$top/collsim-*" \) -prune \
              -o -name '*.md' -type f -print | LC_ALL=C sort)

if [ "$checked" -eq 0 ]; then
    echo "FAIL: no reference found in any document under $top (wrong top_srcdir?)"
    exit 1
fi
if [ "$missing" -gt 0 ]; then
    echo "FAIL: $missing of $checked references do not resolve"
    exit 1
fi
echo "ok: $checked references resolve"
