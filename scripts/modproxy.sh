#!/usr/bin/env bash
# modproxy.sh DIR: lays out two module proxies in folders, for GOPROXY=file://...
#
#   DIR/release     holds the root module github.com/dbcloud/dbcloud-go at
#                   the version of its Version constant (v0.1.0), zipped as
#                   the module proxy will serve it once that version is
#                   tagged: the otel module builds and tests against it the
#                   way a dependent would, with no replace and no go.work.
#   DIR/unreleased  lists no version of the root module: gorelease checks
#                   the root's first release against it.
#
# The zip holds the tracked files as they are in the work tree (uncommitted
# edits of tracked files included), less the otel module's folder, zipped
# by the go command as the module proxy will zip the tag. Used by .ci/run and
# scripts/release.sh, through modenv in scripts/modenv.sh; by hand:
#
#   scripts/modproxy.sh /tmp/dbcloud-proxy
#   cd otel && GOWORK=off GOFLAGS=-mod=mod GONOSUMDB=github.com/dbcloud/dbcloud-go \
#     GOPROXY="file:///tmp/dbcloud-proxy/release,$(go env GOPROXY)" go test ./...
set -euo pipefail
dir=${1:?usage: scripts/modproxy.sh DIR}
cd "$(dirname "$0")/.."
# shellcheck source=scripts/modenv.sh
. scripts/modenv.sh
module=$rootmodule
version=$(rootversion)

rm -rf "$dir/release" "$dir/unreleased"
mkdir -p "$dir/release/$module/@v" "$dir/unreleased/$module/@v"
: >"$dir/unreleased/$module/@v/list"

# The module is zipped by the go command, from a tag in a scratch clone, as
# the module proxy zips it from the tag pushed: the files of the module zip
# layout (no folder of another module, no directory entries), so that the
# checksum otel/go.sum takes from this zip is the one every go command will
# see. (A zip of git archive's has an entry for each folder, which changes
# the checksum.) git stash create makes a commit of the work tree's tracked
# files without touching the tree or the stash; with nothing changed it
# prints nothing.
commit=$(git stash create)
commit=${commit:-$(git rev-parse HEAD)}
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
git clone -q --shared --no-tags --no-checkout . "$tmp/repo"
git -C "$tmp/repo" tag "$version" "$commit"
vcsenv "$tmp/repo" "$tmp/modcache"
(cd "$tmp" && env "${vcsenv[@]}" go mod download "$module@$version")
at="$dir/release/$module/@v"
echo "$version" >"$at/list"
cp "$tmp/modcache/cache/download/$module/@v/$version".{info,mod,zip} "$at/"
echo "modproxy.sh: $module@$version in $dir/release ($(wc -c <"$at/$version.zip") bytes zipped); none in $dir/unreleased"
