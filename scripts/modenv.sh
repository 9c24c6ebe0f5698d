# modenv.sh: sourced (". scripts/modenv.sh", from the repository's root) by
# .ci/run and scripts/release.sh, which check the two modules the same way:
# the pinned release tools, and the environments in which the root module is
# checked before its version is published and the otel module is built as a
# dependent builds it, and the heading each of their steps prints. Not a
# command: it only defines names.

# Every step runs as a user or a dependent would: without the go.work of
# local development, which builds otel against this work tree.
export GOWORK=off

# step NAME prints the heading of a step and when it starts, so that a slow
# run shows where its time went.
step() { printf '\n== %s (at %d s)\n' "$*" "$SECONDS"; }

rootmodule=github.com/dbcloud/dbcloud-go
# golang.org/x/exp, pinned like staticcheck, for the Go project's release
# checker (gorelease) and API differ (apidiff), at the same version.
xexp=v0.0.0-20261113113407-e3970619a1a4
gorelease=golang.org/x/exp/cmd/gorelease@$xexp
apidiff=golang.org/x/exp/cmd/apidiff@$xexp

# rootversion prints the root module's version: v and client.go's Version.
rootversion() {
  local v
  v=$(sed -n 's/^const Version = "\(.*\)"$/\1/p' client.go)
  if [ -z "$v" ]; then
    echo "no Version constant in client.go" >&2
    return 1
  fi
  echo "v$v"
}

# otelrequires VERSION checks that otel/go.mod requires the root module at
# VERSION, with no replace; else it says what otel/go.mod has, and fails.
otelrequires() {
  local got
  if grep -q '^replace' otel/go.mod; then
    got="a replace"
  else
    got=$(sed -n "s|^[[:space:]]*$rootmodule \(v[^ ]*\)\$|\1|p" otel/go.mod)
  fi
  if [ "$got" != "$1" ]; then
    echo "otel/go.mod must require $rootmodule $1, with no replace; it has ${got:-no requirement of it}" >&2
    return 1
  fi
}

# modenv DIR lays out, in DIR, the module proxies of scripts/modproxy.sh
# (the root module zipped from the work tree's tracked files) and a module
# cache of its own, and sets:
#
#   rootenv  the environment gorelease checks the root module in: a proxy
#            that lists no version of it ahead of the machine's, since
#            nothing is published before the tag.
#   otelenv  the environment the otel module is built in as a dependent
#            builds it, with no replace and no go.work: the root module from
#            the proxy of its zip, a module cache of its own (so that no root
#            module of an earlier run, zipped from other files, is reused),
#            the machine's module cache as a proxy for everything else, and
#            no checksum database for the root, which holds none of it yet.
#
# The caller removes DIR, after chmod -R u+w (a module cache is read-only).
modenv() {
  local dir=$1 goproxy
  scripts/modproxy.sh "$dir/proxy"
  goproxy=$(go env GOPROXY)
  rootenv=(GOPROXY="file://$dir/proxy/unreleased,$goproxy")
  otelenv=(GOFLAGS=-mod=mod GONOSUMDB="$rootmodule" GOMODCACHE="$dir/modcache"
    GOPROXY="file://$dir/proxy/release,file://$(go env GOMODCACHE)/cache/download,$goproxy")
}

# vcsenv REPO MODCACHE sets vcsenv: the environment in which the go command
# fetches the root module straight from the git repository REPO, by its
# tags, into the module cache MODCACHE, zipping it as the module proxy zips
# a tag it fetches from GitHub.
vcsenv() {
  vcsenv=(GOPROXY=direct GONOSUMDB="$rootmodule" GOPRIVATE="$rootmodule" GOMODCACHE="$2"
    GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0="url.file://$1.insteadOf" GIT_CONFIG_VALUE_0="https://$rootmodule")
}
