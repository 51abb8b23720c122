#!/usr/bin/env bash
# Regenerates test/olm/fixtures/*/expected.json: what operator-sdk's `bundle validate` reports
# (json-alpha1) for each fixture bundle, with the arguments in its args.json. Needs operator-sdk
# (v1.42.3, in $OPERATOR_SDK, or built by scripts/operator-sdk.sh) and node.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/olm-lib.sh
sdk="$(operator_sdk)"
for dir in test/olm/fixtures/*/; do
  mapfile -t args < <(node -e 'for (const a of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))) console.log(a)' "$dir/args.json")
  # Run outside the project: operator-sdk refuses a PROJECT whose layout it does not know.
  out=$(cd "$dir" && "$sdk" bundle validate ./bundle -o json-alpha1 "${args[@]}" 2>/dev/null || true)
  node -e '
    const text = process.argv[1];
    const start = text.indexOf("{");
    const result = start < 0 ? { fatal: text.trim() } : JSON.parse(text.slice(start));
    require("fs").writeFileSync(process.argv[2], JSON.stringify(result, null, 2) + "\n");
  ' "$out" "$dir/expected.json"
  echo "wrote $dir/expected.json"
done
