#!/usr/bin/env bash
# Regenerates the CRDs of test/fixtures/controller-gen/<case>/crd from the Go API packages next to
# them, with controller-gen v0.21.0 (the tool is not part of this repository). test/manifests/
# controller-gen-parity.test.ts asserts that tsop writes the same bytes from each case's TypeScript twin.
#
#   bash scripts/controller-gen-fixtures.sh [case …]
#
# controller-gen comes from $CONTROLLER_GEN, else from PATH, else from $HOME/anchors/bin; build it with
#   GOBIN=$HOME/anchors/bin go install sigs.k8s.io/controller-tools/cmd/controller-gen@v0.21.0
# Each case's options (maxDescLen) are in cases.json.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cases_dir="$root/test/fixtures/controller-gen"
want=v0.21.0

gen="${CONTROLLER_GEN:-}"
if [[ -z "$gen" ]]; then gen="$(command -v controller-gen || true)"; fi
if [[ -z "$gen" && -x "$HOME/anchors/bin/controller-gen" ]]; then gen="$HOME/anchors/bin/controller-gen"; fi
if [[ -z "$gen" ]]; then
  echo "controller-gen-fixtures: controller-gen not found; build it with: GOBIN=\$HOME/anchors/bin go install sigs.k8s.io/controller-tools/cmd/controller-gen@$want" >&2
  exit 1
fi
version="$("$gen" --version | awk '{print $2}')"
if [[ "$version" != "$want" ]]; then
  echo "controller-gen-fixtures: $gen is $version; the fixtures are controller-gen $want's output" >&2
  exit 1
fi

cd "$cases_dir"
if [[ $# -eq 0 ]]; then
  mapfile -t names < <(node -e 'for (const k of Object.keys(require(process.argv[1]))) console.log(k)' "$cases_dir/cases.json")
else
  names=("$@")
fi
for name in "${names[@]}"; do
  max="$(node -e 'const c = require(process.argv[1])[process.argv[2]]; if (!c) { console.error(`no case ${process.argv[2]} in cases.json`); process.exit(1); } process.stdout.write(c.maxDescLen === undefined ? "" : String(c.maxDescLen))' "$cases_dir/cases.json" "$name")"
  opts="crd:allowDangerousTypes=true${max:+,maxDescLen=$max}"
  rm -rf "$name/crd"
  GOFLAGS=-mod=mod "$gen" "$opts" paths="./$name/api/..." output:crd:dir="$name/crd"
  echo "$name: $(ls "$name/crd" | tr '\n' ' ')"
done
