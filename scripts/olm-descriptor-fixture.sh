#!/usr/bin/env bash
# Regenerates test/olm/parity/descriptors/operator-sdk-base.yaml: the CSV base operator-sdk's
# `generate kustomize manifests` writes for the Go twin of the descriptor test's API (the
# *_types.go.txt files beside it). Needs operator-sdk v1.42.3 ($OPERATOR_SDK, or built by
# scripts/operator-sdk.sh) and Go; the first run downloads the project's modules (a few minutes).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/scripts/olm-lib.sh"
sdk="$(operator_sdk)"
fixtures="$repo/test/olm/parity/descriptors"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/memcached-operator" && cd "$work/memcached-operator"
"$sdk" init --domain example.com --repo github.com/example/memcached-operator --project-name memcached-operator >/dev/null
"$sdk" create api --group cache --version v1alpha1 --kind Memcached --resource --controller=false --make=false >/dev/null
"$sdk" create api --group cache --version v1alpha1 --kind MemcachedBackup --resource --controller=false --make=false >/dev/null
cp "$fixtures/memcached_types.go.txt" api/v1alpha1/memcached_types.go
cp "$fixtures/memcachedbackup_types.go.txt" api/v1alpha1/memcachedbackup_types.go
"$sdk" generate kustomize manifests --interactive=false -q
cp config/manifests/bases/memcached-operator.clusterserviceversion.yaml "$fixtures/operator-sdk-base.yaml"
echo "wrote $fixtures/operator-sdk-base.yaml"
