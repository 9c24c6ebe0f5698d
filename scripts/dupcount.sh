#!/usr/bin/env bash
# dupcount.sh: how many pairs of places repeat each other in the files the
# `duplicates` tool of the development machine reads in this checkout (the
# tracked ones and the untracked ones not ignored; the tool must be on PATH,
# and CI has none), counted two ways:
#
#   - every pair but those that lie wholly inside import blocks;
#   - the pairs the tool finds once the lines of Go import blocks are blanked
#     (line numbers kept). The tool passes over Python imports and Go's
#     one-line `import "x"`, but not the lines of a Go import block, so two
#     test files with alike imports and openings (`func TestX(t *testing.T)
#     {` and a fixture line) make a pair of the first count that no code
#     outside the imports would make.
#
#   scripts/dupcount.sh        # both counts, then the second count's rows
set -euo pipefail
cd "$(dirname "$0")/.."
command -v duplicates >/dev/null || { echo "dupcount: no duplicates command on PATH" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every pair but those wholly inside import blocks.
duplicates --most 200 --seconds 180 >"$tmp/all.txt"
python3 - "$tmp/all.txt" <<'EOF'
import re, sys
def import_lines(path):
    inside, block = set(), False
    for i, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        if line.startswith("import ("):
            block = True
        if block:
            inside.add(i)
            if line.startswith(")"):
                block = False
    return inside
n = 0
for row in open(sys.argv[1]):
    m = re.match(r"D\d+ (\S+):(\d+)-(\d+) ~ (\S+):(\d+)-(\d+)", row)
    if not m:
        continue
    a, b = import_lines(m[1]), import_lines(m[4])
    if all(i in a for i in range(int(m[2]), int(m[3]) + 1)) and all(i in b for i in range(int(m[5]), int(m[6]) + 1)):
        continue
    n += 1
print(f"pairs, leaving out those wholly inside import blocks: {n}")
EOF

# The pairs with Go import blocks blanked, in a copy of the files the tool
# reads in a checkout: the tracked ones and the untracked ones not ignored.
mkdir "$tmp/tree"
git ls-files -z --cached --others --exclude-standard | python3 -c '
import os, shutil, sys
for path in sys.stdin.buffer.read().decode().split("\0"):
    if not os.path.isfile(path):
        continue  # deleted in the work tree
    dest = os.path.join(sys.argv[1], path)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    if not path.endswith(".go"):
        shutil.copyfile(path, dest)
        continue
    out, block = [], False
    for line in open(path, encoding="utf-8").read().split("\n"):
        if line.startswith("import ("):
            block = True
        out.append("" if block else line)
        if block and line.startswith(")"):
            block = False
    open(dest, "w", encoding="utf-8").write("\n".join(out))
' "$tmp/tree"
(cd "$tmp/tree" && duplicates --most 200 --seconds 180) >"$tmp/rows.txt"
echo "pairs with Go import blocks passed over: $(grep -c '^D[0-9]' "$tmp/rows.txt" || true)"
cat "$tmp/rows.txt"
