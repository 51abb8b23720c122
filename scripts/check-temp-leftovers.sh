#!/usr/bin/env bash
# Fails if tsop's tests left anything in the temp directory.
#
#   bash scripts/check-temp-leftovers.sh -- <command…>   run the command with a fresh, empty TMPDIR;
#                                                         afterwards anything left in it is a leftover
#   bash scripts/check-temp-leftovers.sh [dir]            look in dir (default: $TMPDIR or /tmp) for
#                                                         folders named as tsop's tests name theirs
#
# The first form catches every leftover whatever its name and is the one for CI; the second is for
# a shared /tmp, where only tsop's own naming can be told apart from other programs' files.
# The compile caches are not leftovers: tsop keeps them on purpose across runs, its own on Node 20
# (tsop-compile-cache) and Node's on 22+ (node-compile-cache, from module.enableCompileCache; see
# src/typescript/compile-cache.ts), and the TypeScript hooks' that test children, the demo and
# the benchmarks load through (tsop-ts-hooks-cache; runtime/testing/ts-hooks.mjs). Exit status: the command's own if it failed, else 1 when
# something was left, else 0. The leftovers are listed, then removed so the next run starts clean.
set -euo pipefail

KEEP=' tsop-compile-cache node-compile-cache tsop-ts-hooks-cache '
# Prefixes tsop's tests and its control-plane harness give their temp folders.
OWN=('tsop-*' 'assets-*' 'fake-go-*' 'no-assets-*' 'trio-only-*')

report() { # dir, names…
  local dir=$1
  shift
  (($# == 0)) && return 0
  echo "check-temp-leftovers: $# temp entr$( (($# == 1)) && echo y || echo ies) left in $dir by the tests; each test must remove what it creates:" >&2
  for name in "$@"; do
    printf '  %s\n' "$dir/$name" >&2
  done
  return 1
}

if [[ ${1:-} == -- ]]; then
  shift
  (($# > 0)) || { echo "check-temp-leftovers: usage: $0 -- <command…>" >&2; exit 2; }
  fresh=$(mktemp -d "${TMPDIR:-/tmp}/tsop-run-XXXXXX")
  status=0
  TMPDIR=$fresh "$@" || status=$?
  left=()
  while IFS= read -r -d '' entry; do
    name=${entry#"$fresh"/}
    [[ $KEEP == *" $name "* ]] || left+=("$name")
  done < <(find "$fresh" -mindepth 1 -maxdepth 1 -print0 | sort -z)
  ok=0
  report "$fresh" "${left[@]}" || ok=1
  rm -rf "$fresh"
  ((status != 0)) && exit "$status"
  exit "$ok"
fi

dir=${1:-${TMPDIR:-/tmp}}
[[ -d $dir ]] || { echo "check-temp-leftovers: $dir is not a directory" >&2; exit 2; }
left=()
shopt -s nullglob
for pattern in "${OWN[@]}"; do
  for entry in "$dir"/$pattern; do
    name=${entry#"$dir"/}
    [[ $KEEP == *" $name "* ]] || left+=("$name")
  done
done
report "$dir" "${left[@]}"
