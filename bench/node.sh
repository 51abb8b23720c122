#!/usr/bin/env bash
# Installs one Node major from the npm registry (the `node` package carries the real binary) into
# the benchmarks' cache, once, and prints the binary's path: to run a benchmark on the Node a
# generated project's image runs or users run, not only on the machine's. The operator and the
# minimal client then run on that Node, the Go side is unchanged.
#
#   "$(bash bench/node.sh 22)" --import ./runtime/testing/register.mjs bench/compare-runtime.ts
#   bash bench/node.sh image     the major of the generated Dockerfile's runtime image
#
# TSOP_BENCH_CACHE overrides the cache (default ~/.cache/tsop-bench).
set -euo pipefail

major="${1:-}"
if [[ "$major" == image ]]; then
  dockerfile="$(dirname "$0")/../templates/base/Dockerfile"
  major="$(sed -nE 's|^FROM gcr\.io/distroless/nodejs([0-9]+)-.*|\1|p' "$dockerfile")"
  if [[ -z "$major" ]]; then
    echo "bench/node.sh: no 'FROM gcr.io/distroless/nodejs<major>-...' line in $dockerfile; update bench/node.sh" >&2
    exit 1
  fi
fi
if [[ ! "$major" =~ ^[0-9]+$ ]]; then
  echo "bench/node.sh: give a Node major version as a number (e.g. 22) or 'image', got '${major}'" >&2
  exit 1
fi
dir="${TSOP_BENCH_CACHE:-${HOME}/.cache/tsop-bench}/node$major"
bin="$dir/node_modules/.bin/node"
if [[ ! -x "$bin" ]] || [[ "$("$bin" --version)" != "v$major."* ]]; then
  echo "installing node@$major into $dir" >&2
  npm install --prefix "$dir" --no-audit --no-fund --no-save "node@$major" >&2
fi
echo "$bin"
