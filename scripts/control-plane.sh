#!/usr/bin/env bash
# Builds the control-plane binaries tests run against (etcd, kube-apiserver, kubectl) from the Go
# module proxy and caches them in setup-envtest's layout:
#   ${TSOP_ASSETS_ROOT:-$XDG_DATA_HOME/kubebuilder-envtest}/k8s/<version>-<os>-<arch>/
# Prints that directory on the last line of stdout. Reuses it when every binary is present.
# This is the build from source; `tsop envtest use` downloads the same binaries in seconds (and
# runs this script itself with --source, or when the download hosts are unreachable).
#
#   scripts/control-plane.sh            build (or reuse) the pinned versions
#   scripts/control-plane.sh --print    print the directory, build nothing (exit 1 if incomplete)
#   scripts/control-plane.sh --if-possible   as `npm test` runs it: nothing to do when KUBEBUILDER_ASSETS
#                                       or TEST_ASSET_* name binaries or any cached version is complete;
#                                       else `tsop envtest use --fuller` (download, or this build when
#                                       offline with Go); when that fails, say how to get them and exit 0
#                                       (exit 1 in CI)
#
# Besides the envtest trio it builds the fuller plane that suites may ask for: kube-controller-manager
# (garbage collection, Deployments → ReplicaSets → Pods, namespace deletion), kube-scheduler, and
# kwok (fake nodes whose pods report Running). KUBE_VERSION, ETCD_VERSION and KWOK_VERSION override
# the pinned versions; MINIMAL=1 builds only etcd, kube-apiserver and kubectl.
set -euo pipefail

KUBE_VERSION="${KUBE_VERSION:-1.36.3}"
ETCD_VERSION="${ETCD_VERSION:-3.6.16}"
KWOK_VERSION="${KWOK_VERSION:-0.7.0}"
# Go's names for this platform, from Go when it is there (the build needs it), else from uname.
if command -v go >/dev/null; then
  GOOS_ARCH="$(go env GOOS)-$(go env GOARCH)"
else
  case "$(uname -m)" in x86_64) arch=amd64 ;; aarch64 | arm64) arch=arm64 ;; *) arch="$(uname -m)" ;; esac
  GOOS_ARCH="$(uname -s | tr '[:upper:]' '[:lower:]')-$arch"
fi
ROOT="${TSOP_ASSETS_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/kubebuilder-envtest}"
DEST="$ROOT/k8s/${KUBE_VERSION}-${GOOS_ARCH}"
BINARIES=(etcd kube-apiserver kubectl)
[[ "${MINIMAL:-0}" == 1 ]] || BINARIES+=(kube-controller-manager kube-scheduler kwok)

log() { printf '[control-plane] %s\n' "$*" >&2; }
die() { printf '[control-plane] error: %s\n' "$*" >&2; exit 1; }

complete() {
  local b
  for b in "${BINARIES[@]}"; do [[ -x "$DEST/$b" ]] || return 1; done
}

if [[ "${1:-}" == "--print" ]]; then
  complete || die "no complete control plane in $DEST; run scripts/control-plane.sh"
  echo "$DEST"; exit 0
fi
if [[ "${1:-}" == "--if-possible" ]]; then
  shift
  [[ $# -eq 0 ]] || die "unknown argument '$1' after --if-possible"
  if [[ -n "${KUBEBUILDER_ASSETS:-}" || -n "${TEST_ASSET_KUBE_APISERVER:-}" ]]; then
    log "using ${KUBEBUILDER_ASSETS:-$TEST_ASSET_KUBE_APISERVER} (set by you)"; exit 0
  fi
  # Any complete version in the cache serves (the harness prefers the pinned one, else the newest).
  for dir in "$ROOT"/k8s/*-"$GOOS_ARCH"; do
    DEST="$dir"
    if complete; then log "using $dir"; echo "$dir"; exit 0; fi
  done
  # Download them (checked); tsop envtest builds them here itself when the hosts are unreachable and Go is installed.
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  tsop=""
  if [[ -f "$here/bin/tsop.js" && -f "$here/dist/bundle/cli.cjs" ]]; then tsop="$here/bin/tsop.js"
  elif [[ -x "$here/node_modules/.bin/tsop" ]]; then tsop="$here/node_modules/.bin/tsop"; fi
  fuller=(); [[ "${MINIMAL:-0}" == 1 ]] || fuller=(--fuller)
  if [[ -n "$tsop" ]] && node "$tsop" envtest use "${fuller[@]}" -p path; then exit 0; fi
  log "no control-plane binaries: tests that need a control plane will be skipped."
  log "to run them: 'npx tsop envtest use --fuller' where the download hosts (or a mirror: TSOP_ENVTEST_INDEX_URL) answer, or install Go 1.26+ and run 'bash scripts/control-plane.sh', or set KUBEBUILDER_ASSETS to setup-envtest's directory"
  [[ "${CI:-}" == "true" ]] && die "CI needs the control plane"
  exit 0
fi
[[ $# -eq 0 ]] || die "unknown argument '$1'; usage: scripts/control-plane.sh [--print | --if-possible]"

command -v go >/dev/null || die "Go is not installed; install Go 1.26+ or point KUBEBUILDER_ASSETS at setup-envtest's binaries"

if complete; then
  log "reusing $DEST"
  echo "$DEST"; exit 0
fi

mkdir -p "$DEST"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/tsop-control-plane.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
export GOFLAGS="${GOFLAGS:-} -mod=mod"
start=$SECONDS

build_kube() {
  local v="v$KUBE_VERSION" minor gomod
  minor="$(cut -d. -f2 <<<"$KUBE_VERSION")"
  log "resolving k8s.io/kubernetes@$v"
  gomod="$(go mod download -json "k8s.io/kubernetes@$v" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
  [[ -f "$gomod" ]] || die "could not download k8s.io/kubernetes@$v from the Go module proxy"

  mkdir -p "$WORK/kube"
  {
    echo "module tsop.local/controlplane/kube"
    echo
    grep -E '^go [0-9]' "$gomod"
    grep -E '^godebug' "$gomod" || true
    echo
    echo "require k8s.io/kubernetes $v"
    echo
    # Every staging module k/k replaces with ./staging/... is published as k8s.io/<name> v0.<minor>.<patch>.
    sed -n 's#^[[:space:]]*\(k8s.io/[A-Za-z0-9._/-]*\) => ./staging/.*#\1#p' "$gomod" | sort -u |
      while read -r m; do echo "replace $m => $m v0.${KUBE_VERSION#*.}"; done
  } >"$WORK/kube/go.mod"
  local n; n="$(grep -c '^replace' "$WORK/kube/go.mod")"
  [[ "$n" -gt 0 ]] || die "found no staging modules in $gomod"
  log "wrapper module replaces $n staging modules with v0.${KUBE_VERSION#*.}"
  cat >"$WORK/kube/tools.go" <<GO
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kubectl"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
)
GO
  local pkg="k8s.io/component-base/version"
  local ldflags="-s -w -X $pkg.gitVersion=$v -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"
  ldflags+=" -X k8s.io/client-go/pkg/version.gitVersion=$v -X k8s.io/client-go/pkg/version.gitMajor=1 -X k8s.io/client-go/pkg/version.gitMinor=$minor"
  (cd "$WORK/kube" && log "downloading modules (go mod tidy)" && go mod tidy -e >&2)
  local b
  for b in "${BINARIES[@]}"; do
    [[ "$b" == etcd || "$b" == kwok || -x "$DEST/$b" ]] && continue
    log "building $b $v (this takes minutes on 2 cores)"
    (cd "$WORK/kube" && CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$WORK/$b" "k8s.io/kubernetes/cmd/$b")
    mv "$WORK/$b" "$DEST/$b"
    log "$b ready after $((SECONDS - start)) s"
  done
}

build_etcd() {
  [[ -x "$DEST/etcd" ]] && return 0
  local v="v$ETCD_VERSION"
  log "building etcd $v"
  mkdir -p "$WORK/etcd"
  cat >"$WORK/etcd/go.mod" <<MOD
module tsop.local/controlplane/etcd

go 1.24

require go.etcd.io/etcd/server/v3 $v
MOD
  cat >"$WORK/etcd/tools.go" <<GO
//go:build tools

package tools

import _ "go.etcd.io/etcd/server/v3"
GO
  (cd "$WORK/etcd" && go mod tidy -e >&2 &&
    CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$WORK/etcd-bin" go.etcd.io/etcd/server/v3)
  mv "$WORK/etcd-bin" "$DEST/etcd"
  log "etcd ready after $((SECONDS - start)) s"
}

build_kwok() {
  [[ " ${BINARIES[*]} " == *" kwok "* && ! -x "$DEST/kwok" ]] || return 0
  local v="v$KWOK_VERSION"
  log "building kwok $v (fake nodes)"
  mkdir -p "$WORK/kwok"
  cat >"$WORK/kwok/go.mod" <<MOD
module tsop.local/controlplane/kwok

go 1.24

require sigs.k8s.io/kwok $v
MOD
  cat >"$WORK/kwok/tools.go" <<GO
//go:build tools

package tools

import _ "sigs.k8s.io/kwok/cmd/kwok"
GO
  (cd "$WORK/kwok" && go mod tidy -e >&2 &&
    CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$WORK/kwok-bin" sigs.k8s.io/kwok/cmd/kwok)
  mv "$WORK/kwok-bin" "$DEST/kwok"
  log "kwok ready after $((SECONDS - start)) s"
}

build_etcd
build_kube
build_kwok
"$DEST/kube-apiserver" --version >&2 || die "kube-apiserver does not run"
"$DEST/etcd" --version >&2 || die "etcd does not run"
complete || die "some binaries are missing in $DEST"
log "done in $((SECONDS - start)) s: $DEST"
echo "$DEST"
