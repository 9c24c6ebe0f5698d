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
# edits of tracked files included), less the otel module's folder, under the
# path@version/ prefix of the module zip layout. Used by .ci/run and
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

at="$dir/release/$module/@v"
echo "$version" >"$at/list"
printf '{"Version":"%s","Time":"%s"}\n' "$version" "$(git log -1 --format=%cI)" >"$at/$version.info"
cp go.mod "$at/$version.mod"
# git stash create makes a commit of the work tree's tracked files without
# touching the tree or the stash; with nothing changed it prints nothing.
tree=$(git stash create)
# Folders that hold a go.mod of their own are other modules: not in the zip.
excludes=()
while IFS= read -r m; do
  excludes+=(":(exclude)$(dirname "$m")")
done < <(git ls-files '*/go.mod')
git archive --format=zip --prefix="$module@$version/" -o "$at/$version.zip" "${tree:-HEAD}" -- . "${excludes[@]}"
echo "modproxy.sh: $module@$version in $dir/release ($(wc -c <"$at/$version.zip") bytes zipped); none in $dir/unreleased"
