#!/usr/bin/env bash
# checkfiles.sh [DIR]: fails when a file tracked in the git repository at DIR
# (by default the current folder) is binary or larger than 1 MB
# (1,000,000 bytes), so that no built program, archive or data dump enters
# the repository, its history, and the module zip every `go get` downloads.
# Run by .ci/run as its first step; by hand: scripts/checkfiles.sh
#
# What is checked is the index, the files as `git add` staged them, so a
# file is refused before its commit. Binary is git's own test, the one that
# makes `git diff` print "Binary files differ": a NUL byte in the first
# 8,000 bytes, or a .gitattributes rule that marks the file binary (-diff).
#
# A file that must be tracked anyway (test data that must be big, an
# image of the documentation) is listed, one path a line, as `git ls-files`
# prints it, in .ci/allowed-files, with a comment that says why; a # starts
# a comment, blank lines are skipped. A listed path that is no longer
# tracked is an error too, so that the list holds only what it allows.
set -euo pipefail
cd "${1:-.}"
limit=1000000
allowfile=.ci/allowed-files

declare -A allowed=()
if [ -f "$allowfile" ]; then
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%%#*}
    line=${line%"${line##*[![:space:]]}"} # trailing white space
    line=${line#"${line%%[![:space:]]*}"} # leading white space
    if [ -n "$line" ]; then
      allowed[$line]=1
    fi
  done <"$allowfile"
fi

# Every tracked file with its blob, submodules (mode 160000) left out: their
# object is a commit of another repository.
paths=() blobs=()
while IFS= read -r -d '' entry; do
  meta=${entry%%$'\t'*}
  read -r mode blob _ <<<"$meta"
  if [ "$mode" != 160000 ]; then
    paths+=("${entry#*$'\t'}")
    blobs+=("$blob")
  fi
done < <(git ls-files -z -s)

# The sizes, in one git process for all blobs.
sizes=()
if [ ${#blobs[@]} -gt 0 ]; then
  mapfile -t sizes < <(printf '%s\n' "${blobs[@]}" | git cat-file --batch-check='%(objectsize)')
fi

# Binary files: the index against the empty tree, where git's numstat
# prints "-" for the lines of a binary file.
declare -A binary=()
empty=$(git hash-object -t tree /dev/null)
while IFS= read -r -d '' entry; do
  if [ "${entry%%$'\t'*}" = - ]; then
    binary[${entry#-$'\t'-$'\t'}]=1
  fi
done < <(git -c core.quotepath=off diff --cached --no-renames --numstat -z "$empty")

bad=0
declare -A tracked=()
for i in "${!paths[@]}"; do
  path=${paths[$i]}
  tracked[$path]=1
  if [ -n "${allowed[$path]:-}" ]; then
    continue
  fi
  if [ -n "${binary[$path]:-}" ]; then
    echo "binary: $path"
    bad=1
  fi
  if [ "${sizes[$i]}" -gt "$limit" ]; then
    echo "larger than 1 MB: $path (${sizes[$i]} bytes)"
    bad=1
  fi
done
for path in "${!allowed[@]}"; do
  if [ -z "${tracked[$path]:-}" ]; then
    echo "$allowfile lists $path, which is not tracked: remove the line"
    bad=1
  fi
done
if [ "$bad" -ne 0 ]; then
  echo "Untrack a built file (git rm --cached FILE, and add it to .gitignore); a file that must be tracked is listed in $allowfile, with why." >&2
  exit 1
fi
echo "${#paths[@]} tracked files: none binary, none larger than 1 MB (${#allowed[@]} allowed in $allowfile)"
