#!/usr/bin/env bash
# Builds the Go anchors the side-by-side benchmarks compare tsop with — kubebuilder v4.15.0 and
# controller-gen v0.21.0 — from the Go module proxy, once, into a cache directory, and prints
# that directory. Run on demand by bench/compare-*.ts; never part of `npm test`.
#
#   bash bench/anchors.sh            # prints the bin directory (builds what is missing)
#
# TSOP_ANCHORS_DIR overrides the cache (default ~/.cache/tsop-bench/anchors). Needs Go 1.24+.
# `go install sigs.k8s.io/kubebuilder/v4@latest` cannot be used: the proxy refuses kubebuilder's
# version list, so it is fetched by exact version inside a throwaway module and built from there.
set -euo pipefail

KUBEBUILDER_VERSION=v4.15.0
CONTROLLER_GEN_VERSION=v0.21.0
dir="${TSOP_ANCHORS_DIR:-${HOME}/.cache/tsop-bench/anchors}"
bin="$dir/bin"
mkdir -p "$bin"

if ! command -v go >/dev/null 2>&1; then
  echo "bench/anchors.sh: Go is not installed; install Go 1.24+ to build kubebuilder and controller-gen" >&2
  exit 1
fi

# A binary is reused only when it reports the pinned version.
has() { [[ -x "$bin/$1" ]] && "$bin/$1" "$2" 2>/dev/null | grep -q -- "$3"; }

if ! has controller-gen --version "$CONTROLLER_GEN_VERSION"; then
  echo "building controller-gen $CONTROLLER_GEN_VERSION" >&2
  GOBIN="$bin" go install "sigs.k8s.io/controller-tools/cmd/controller-gen@$CONTROLLER_GEN_VERSION" >&2
fi

if ! has kubebuilder version "${KUBEBUILDER_VERSION#v}"; then
  echo "building kubebuilder $KUBEBUILDER_VERSION" >&2
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (
    cd "$work"
    go mod init tsop.bench/anchors >/dev/null 2>&1
    go get "sigs.k8s.io/kubebuilder/v4@$KUBEBUILDER_VERSION" >&2
    # Built as a dependency, it reads its version from the module's build info.
    go build -o "$bin/kubebuilder" sigs.k8s.io/kubebuilder/v4 >&2
  )
fi

echo "$bin"
