#!/usr/bin/env bash
# release.sh [--dry-run] [--base REV] VERSION: releases dbcloud-go VERSION
# (0.1.0, no v) from a clean main, as the README's "Versioning" says: the
# root module is tagged vVERSION first, then otel/go.sum gets the root's
# checksum and the otel module is tagged otel/vVERSION. Tags are made by
# this script only; docs/releasing.md says when and how to run it. In
# order, stopping at the first failure:
#
#   1. checks: the work tree is clean and on main; client.go's
#      dbcloud.Version is VERSION; otel/go.mod requires the root module at
#      vVERSION, with no replace; neither tag exists; CHANGELOG.md has the
#      section "## [VERSION] - not yet tagged".
#   2. dates that section with today's UTC date, and commits it: the
#      release commit.
#   3. prints apidiff's report of the root module's API, from the base to
#      the release commit. The base is --base REV, or else the latest
#      earlier release tag on main; a first release has none, and without
#      --base the step is skipped (docs/releasing.md names a base for
#      0.1.0). Check the report against the CHANGELOG's
#      section before pushing: every removed or changed name is in Changed
#      or Removed, with what to do instead, every added one in Added. A
#      wrong CHANGELOG is fixed by deleting the two tags and the two
#      commits (git tag -d vVERSION otel/vVERSION && git reset --hard
#      HEAD~2), fixing it in a commit, and running the script again.
#   4. gorelease on the root module at vVERSION, as .ci/run runs it, then
#      the annotated tag vVERSION.
#   5. the otel module: go mod tidy against the root module at the tag,
#      zipped into a local module proxy as the module proxy will serve it
#      (nothing is published yet); only the root's lines of otel/go.sum may
#      change, and its checksum must be the one the go command computes
#      from the tag; commits them; gorelease on otel; the annotated tag
#      otel/vVERSION.
#   6. prints what to push. Nothing is pushed.
#
# A failure after step 1 says how to undo what was made (tags, commits).
#
# --dry-run does all of it in a scratch clone of main (the checks of step 1
# also in this repository), prints the clone's new commits and tags, and
# deletes the clone: this repository is left as it was.
set -euo pipefail

# usage prints the comment above.
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
die() {
  echo "release.sh: $*" >&2
  exit 1
}

dryrun=false base= basename=
while [ $# -gt 0 ]; do
  case $1 in
  --dry-run) dryrun=true ;;
  --base) [ $# -ge 2 ] || { usage >&2; exit 2; }; base=$2; shift ;;
  --base=*) base=${1#--base=} ;;
  -h | --help) usage; exit 0 ;;
  -*) usage >&2; exit 2 ;;
  *) break ;;
  esac
  shift
done
[ $# -eq 1 ] || { usage >&2; exit 2; }
version=$1
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "VERSION is X.Y.Z, without a v: $version"
tag=v$version oteltag=otel/v$version
heading="## [$version] - not yet tagged"

cd "$(dirname "$0")/.."
# shellcheck source=scripts/modenv.sh
. scripts/modenv.sh

# checks prints each of step 1's checks that fails, and fails if any did.
checks() {
  local failed=0 got
  if [ -n "$(git status --porcelain)" ]; then
    echo "the work tree is not clean (git status): commit or remove what it holds" >&2
    failed=1
  fi
  got=$(git symbolic-ref -q --short HEAD) || got="a detached HEAD"
  if [ "$got" != main ]; then
    echo "on $got, not main: a release is tagged on main" >&2
    failed=1
  fi
  got=$(rootversion) || got=none
  if [ "$got" != "$tag" ]; then
    echo "dbcloud.Version in client.go is ${got#v}, not $version: the version is changed in its own commit, before the release" >&2
    failed=1
  fi
  otelrequires "$tag" || failed=1
  for t in "$tag" "$oteltag"; do
    if git rev-parse -q --verify "refs/tags/$t" >/dev/null; then
      echo "the tag $t exists already" >&2
      failed=1
    fi
  done
  if ! grep -qxF "$heading" CHANGELOG.md; then
    echo "CHANGELOG.md has no line \"$heading\"" >&2
    failed=1
  fi
  if [ -n "$base" ] && ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
    echo "--base $base names no commit" >&2
    failed=1
  fi
  return "$failed"
}

step "1. checks"
checks || die "refused: nothing was changed"
echo "clean main at $(git rev-parse --short HEAD), Version $version, otel requires $tag, no tag $tag or $oteltag, CHANGELOG section \"$heading\""

# On a failure after step 1, a real run says how to undo what it made, so
# that the release can start again once the cause is fixed.
before=
finish() {
  local rc=$? made
  chmod -R u+w "$work" 2>/dev/null
  rm -rf "$work"
  if [ "$rc" -ne 0 ] && ! $dryrun && [ -n "$before" ]; then
    made=$(git tag -l "$tag" "$oteltag" | tr '\n' ' ')
    echo "release.sh: stopped; to undo what it made: ${made:+git tag -d $made&& }git reset --hard $before" >&2
  fi
}
work=$(mktemp -d)
trap finish EXIT
if $dryrun; then
  if [ -n "$base" ]; then
    # The clone has no branch but main: the base by its commit.
    basename=$base
    base=$(git rev-parse --verify "$base^{commit}")
  fi
  git clone -q --branch main . "$work/repo"
  cd "$work/repo"
  echo "dry run: in the scratch clone $work/repo, deleted at the end"
  checks || die "refused in the scratch clone"
fi

step "2. date the CHANGELOG section, commit"
before=$(git rev-parse HEAD)
today=$(date -u +%F)
dated="## [$version] - $today"
awk -v from="$heading" -v to="$dated" '$0 == from { $0 = to } { print }' CHANGELOG.md >"$work/CHANGELOG.md"
cat "$work/CHANGELOG.md" >CHANGELOG.md
git commit -q -m "CHANGELOG: $version dated $today, for its release" -- CHANGELOG.md
echo "$(git rev-parse --short HEAD): \"$dated\""

step "3. apidiff of the root module's API"
# runapidiff runs apidiff, less its line for each internal package it
# leaves out, as they are not API.
runapidiff() {
  if ! go run "$apidiff" "$@" 2>"$work/apidiff.err"; then
    cat "$work/apidiff.err" >&2
    return 1
  fi
  grep -v '^Ignoring internal package ' "$work/apidiff.err" >&2 || true
}
# The latest earlier release tag on main, or none: apidiff's base unless
# --base names one, and gorelease's (a release is published, so the module
# proxy serves it).
previous=$(git describe --tags --abbrev=0 --match 'v[0-9]*' "$before" 2>/dev/null) || previous=none
if [ -z "$base" ] && [ "$previous" != none ]; then
  base=$previous
fi
basename=${basename:-$base}
if [ -z "$base" ]; then
  echo "skipped: there is no earlier release tag (v*) on main, and no --base REV was given; a first release has no earlier API to compare with (give --base REV to see the changes since REV)"
else
  mkdir "$work/base"
  git archive "$base" | tar -x -C "$work/base"
  (cd "$work/base" && runapidiff -m -w "$work/base.api" "$rootmodule")
  runapidiff -m -w "$work/release.api" "$rootmodule"
  echo "API changes of $rootmodule from $basename ($(git rev-parse --short "$base^{commit}")) to the release commit ($(git rev-parse --short HEAD)):"
  runapidiff -m "$work/base.api" "$work/release.api" | tee "$work/apidiff.txt"
  [ -s "$work/apidiff.txt" ] || echo "(none)"
  echo "Check them against CHANGELOG.md's section [$version] (see the usage: scripts/release.sh -h)."
fi

step "4. gorelease, root module $tag (base $previous); tag $tag"
modenv "$work"
env "${rootenv[@]}" go run "$gorelease" -base="$previous" -version="$tag"
git tag -a "$tag" -m "dbcloud-go $tag"
echo "tagged $tag at $(git rev-parse --short HEAD)"

step "5. otel: go.sum with the root module $tag, commit, gorelease, tag $oteltag"
# The proxy of step 4 zipped the work tree, clean at the tag: the module
# zip the module proxy will serve for the tag.
(cd otel && env "${otelenv[@]}" go mod tidy)
changed=$(git status --porcelain)
if [ "$changed" != " M otel/go.sum" ]; then
  git status --short >&2
  die "go mod tidy in otel changed more than otel/go.sum"
fi
others=$(git diff -U0 -- otel/go.sum | sed -n '/^[-+][-+][-+] /d;/^[-+]/p' | grep -v "^+$rootmodule $tag[ /]" || true)
if [ -n "$others" ]; then
  printf '%s\n' "$others" >&2
  die "otel/go.sum changed lines other than the root module $tag's"
fi
git diff -U0 -- otel/go.sum | grep '^+[^+]'
# The checksum is the one the go command computes from the tag itself, as
# the module proxy will once it is pushed: else the otel module, at its
# tag, would fail its own build with a checksum mismatch.
vcsenv "$PWD" "$work/vcscache"
want=$(cd "$work" && env "${vcsenv[@]}" go mod download -json "$rootmodule@$tag" | sed -n 's/^[[:space:]]*"Sum": "\(.*\)",$/\1/p')
got=$(sed -n "s|^$rootmodule $tag \(h1:.*\)\$|\1|p" otel/go.sum)
if [ -z "$want" ] || [ "$want" != "$got" ]; then
  die "otel/go.sum has $rootmodule $tag ${got:-with no checksum}, but the go command computes ${want:-nothing} from the tag $tag"
fi
echo "the checksum is the one the go command computes from the tag $tag: $want"
git commit -q -m "otel: go.sum holds the checksums of $rootmodule $tag, for otel's release" -- otel/go.sum
(cd otel && env "${otelenv[@]}" go run "$gorelease" -base="$previous" -version="$tag")
git tag -a "$oteltag" -m "dbcloud-go/otel $tag, which requires dbcloud-go $tag"
echo "tagged $oteltag at $(git rev-parse --short HEAD)"

step "6. what to push"
git log --oneline "$before..HEAD"
git for-each-ref --format='%(refname:short) -> %(*objectname:short)' "refs/tags/$tag" "refs/tags/$oteltag"
if $dryrun; then
  echo "dry run: the release would be pushed with: git push origin main $tag $oteltag"
  echo "the scratch clone $work/repo is deleted now; this repository is unchanged"
else
  echo "nothing is pushed; to publish the release:"
  echo "  git push origin main $tag $oteltag"
fi
