#!/usr/bin/env bash
# Regenerates test/olm/parity/: the Memcached operator of the tutorials (deploy-image, defaulting
# and validating webhooks, the CSV decorators of test/olm/parity/memcached.ts.txt) scaffolded by
# this checkout's tsop, its `kubectl kustomize config/manifests` output (bundle-input.yaml), and
# what operator-sdk's `generate bundle` makes of that same input (operator-sdk/). The parity test
# (test/olm/csv-parity.test.ts) runs tsop's generator on bundle-input.yaml and compares.
# Needs operator-sdk v1.42.3 ($OPERATOR_SDK, or built by scripts/operator-sdk.sh), kubectl and a built tsop.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/scripts/olm-lib.sh"
sdk="$(operator_sdk)"
out="$repo/test/olm/parity"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tsop() { node "$repo/bin/tsop.js" "$@"; }
mkdir "$work/memcached-operator" && cd "$work/memcached-operator"
tsop init --domain example.com --skip-install >/dev/null 2>&1
tsop create api --group cache --version v1alpha1 --kind Memcached --plugins deploy-image/v1-alpha --image memcached:1.6.26-alpine3.19 \
  --image-container-command memcached,--memory-limit=64,-o,modern,-v --image-container-port 11211 --run-as-user 1001 >/dev/null 2>&1
tsop create webhook --group cache --version v1alpha1 --kind Memcached --defaulting --programmatic-validation >/dev/null 2>&1
cp "$out/memcached.ts.txt" src/api/v1alpha1/memcached.ts
tsop manifests >/dev/null 2>&1
tsop generate kustomize manifests -q
# What a user fills in before publishing: an icon and the oldest Kubernetes the operator supports.
base=config/manifests/bases/memcached-operator.clusterserviceversion.yaml
sed -i -e 's#base64data: ""#base64data: PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=#' -e 's#mediatype: ""#mediatype: image/svg+xml#' "$base"
printf '  minKubeVersion: 1.30.0\n' >> "$base"
kubectl kustomize config/manifests | sed 's#image: controller:latest#image: quay.io/example/memcached-operator:v0.0.1#' > "$out/bundle-input.yaml"
# operator-sdk refuses a PROJECT whose layout it does not know: run it in a folder without one.
mkdir "$work/sdk" && cd "$work/sdk"
cat "$out/bundle-input.yaml" | "$sdk" generate bundle --version 0.0.1 --package memcached-operator --channels alpha,stable --default-channel stable -q >/dev/null 2>&1
rm -rf "$out/operator-sdk" && mkdir -p "$out/operator-sdk"
cp -r bundle "$out/operator-sdk/" && cp bundle.Dockerfile "$out/operator-sdk/"
echo "wrote $out/bundle-input.yaml and $out/operator-sdk/"
