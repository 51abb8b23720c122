#!/usr/bin/env bash
# Builds the `helm` CLI (helm.sh/helm/v3) from the Go module proxy, for the Helm chart test, and
# caches it next to the control-plane binaries:
#   ${TSOP_ASSETS_ROOT:-$XDG_DATA_HOME/kubebuilder-envtest}/helm/<version>-<os>-<arch>/helm
# Prints the binary's path on the last line of stdout; a second run reuses it.
#
#   scripts/helm.sh            build (or reuse) the pinned version
#   scripts/helm.sh --print    print the path, build nothing (exit 1 if it is not built)
#
# HELM_VERSION overrides the pinned version. A static build (CGO_ENABLED=0), like the control plane.
set -euo pipefail

HELM_VERSION="${HELM_VERSION:-3.22.0}"
log() { printf '[helm] %s\n' "$*" >&2; }
die() { printf '[helm] error: %s\n' "$*" >&2; exit 1; }

command -v go >/dev/null || { [[ "${1:-}" == "--print" ]] || die "Go is not installed; install Go 1.26+, or point HELM at a helm v3 binary for the tests"; }
if command -v go >/dev/null; then GOOS_ARCH="$(go env GOOS)-$(go env GOARCH)"; else GOOS_ARCH="linux-amd64"; fi
ROOT="${TSOP_ASSETS_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/kubebuilder-envtest}"
DEST="$ROOT/helm/${HELM_VERSION}-${GOOS_ARCH}"

if [[ "${1:-}" == "--print" ]]; then
  [[ -x "$DEST/helm" ]] || die "no helm in $DEST; run scripts/helm.sh"
  echo "$DEST/helm"; exit 0
fi
[[ $# -eq 0 ]] || die "unknown argument '$1'; usage: scripts/helm.sh [--print]"

if [[ -x "$DEST/helm" ]]; then
  log "reusing $DEST/helm"
  echo "$DEST/helm"; exit 0
fi

mkdir -p "$DEST"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/tsop-helm.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
start=$SECONDS
log "building helm v$HELM_VERSION from the Go module proxy (a few minutes cold)"
# `go install pkg@version` builds the module exactly as released (its own go.mod and go.sum); the
# ldflag gives `helm version` the real version instead of "v3.x-dev".
GOBIN="$WORK" CGO_ENABLED=0 go install -trimpath \
  -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=v$HELM_VERSION" \
  "helm.sh/helm/v3/cmd/helm@v$HELM_VERSION"
"$WORK/helm" version --short >&2 || die "the built helm does not run"
# Moved into place last, so an interrupted build never leaves a half-written binary in the cache.
mv "$WORK/helm" "$DEST/helm.tmp" && mv "$DEST/helm.tmp" "$DEST/helm"
log "built in $((SECONDS - start)) s: $DEST/helm"
echo "$DEST/helm"
