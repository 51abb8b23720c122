#!/usr/bin/env bash
# Builds operator-sdk (github.com/operator-framework/operator-sdk) from the Go module proxy, for
# the OLM comparison tests (test/anchors/operator-sdk.test.ts, `npm run test:anchors`) and the fixture scripts, and caches
# it next to the control-plane binaries:
#   ${TSOP_ASSETS_ROOT:-$XDG_DATA_HOME/kubebuilder-envtest}/operator-sdk/<version>-<os>-<arch>/operator-sdk
# Prints the binary's path on the last line of stdout; a second run reuses it.
#
#   scripts/operator-sdk.sh            build (or reuse) the pinned version
#   scripts/operator-sdk.sh --print    print the path, build nothing (exit 1 if it is not built)
#
# OPERATOR_SDK_VERSION overrides the pinned version.
set -euo pipefail

OPERATOR_SDK_VERSION="${OPERATOR_SDK_VERSION:-1.42.3}"
# operator-sdk's go.mod names ansible-operator-plugins at a version the module proxy does not serve;
# the release before it is API-compatible for what operator-sdk imports.
ANSIBLE_PLUGINS_VERSION="${ANSIBLE_PLUGINS_VERSION:-1.42.2}"
log() { printf '[operator-sdk] %s\n' "$*" >&2; }
die() { printf '[operator-sdk] error: %s\n' "$*" >&2; exit 1; }

command -v go >/dev/null || { [[ "${1:-}" == "--print" ]] || die "Go is not installed; install Go 1.26+, or set OPERATOR_SDK to an operator-sdk v$OPERATOR_SDK_VERSION binary"; }
if command -v go >/dev/null; then GOOS_ARCH="$(go env GOOS)-$(go env GOARCH)"; else GOOS_ARCH="linux-amd64"; fi
ROOT="${TSOP_ASSETS_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/kubebuilder-envtest}"
DEST="$ROOT/operator-sdk/${OPERATOR_SDK_VERSION}-${GOOS_ARCH}"

if [[ "${1:-}" == "--print" ]]; then
  [[ -x "$DEST/operator-sdk" ]] || die "no operator-sdk in $DEST; run scripts/operator-sdk.sh"
  echo "$DEST/operator-sdk"; exit 0
fi
[[ $# -eq 0 ]] || die "unknown argument '$1'; usage: scripts/operator-sdk.sh [--print]"

if [[ -x "$DEST/operator-sdk" ]]; then
  log "reusing $DEST/operator-sdk"
  echo "$DEST/operator-sdk"; exit 0
fi

mkdir -p "$DEST"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/tsop-operator-sdk.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
start=$SECONDS
log "building operator-sdk v$OPERATOR_SDK_VERSION from the Go module proxy (several minutes cold)"
# A throwaway module that requires operator-sdk, so its dependencies resolve as its go.mod pins
# them, with the one replacement the proxy makes necessary.
cd "$WORK"
go mod init tsop.local/operator-sdk-build >/dev/null 2>&1
go mod edit -replace "github.com/operator-framework/ansible-operator-plugins=github.com/operator-framework/ansible-operator-plugins@v$ANSIBLE_PLUGINS_VERSION"
printf '//go:build tools\npackage tools\n\nimport _ "github.com/operator-framework/operator-sdk/cmd/operator-sdk"\n' >tools.go
go get "github.com/operator-framework/operator-sdk@v$OPERATOR_SDK_VERSION" >&2
go mod tidy >&2
# Static, and without the gpgme C library (containers/image's pure-Go OpenPGP instead); the
# ldflags set the versions its release build sets: `operator-sdk version`, the builder stamp of
# bundles and the scorecard-test image tag come from them.
V="github.com/operator-framework/operator-sdk/internal/version"
CGO_ENABLED=0 go build -trimpath -tags containers_image_openpgp \
  -ldflags "-s -w -X $V.Version=v$OPERATOR_SDK_VERSION -X $V.GitVersion=v$OPERATOR_SDK_VERSION -X $V.ImageVersion=v$OPERATOR_SDK_VERSION" \
  -o "$WORK/operator-sdk" github.com/operator-framework/operator-sdk/cmd/operator-sdk
"$WORK/operator-sdk" version >&2 || die "the built operator-sdk does not run"
# Moved into place last, so an interrupted build never leaves a half-written binary in the cache.
mv "$WORK/operator-sdk" "$DEST/operator-sdk.tmp" && mv "$DEST/operator-sdk.tmp" "$DEST/operator-sdk"
log "built in $((SECONDS - start)) s: $DEST/operator-sdk"
echo "$DEST/operator-sdk"
