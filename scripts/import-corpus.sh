#!/usr/bin/env bash
# Downloads the Go modules whose CRDs the import corpus test reads (test/import/corpus.txt) into
# the Go module cache, where `go mod download` keeps them between runs (a second run downloads
# nothing). Prints the module cache directory on the last line of stdout.
#
#   scripts/import-corpus.sh          download (or find) every module of the list
#   scripts/import-corpus.sh --print  print the cache directory; exit 1 if a module is missing
set -euo pipefail
cd "$(dirname "$0")/.."
LIST=test/import/corpus.txt

log() { printf '[import-corpus] %s\n' "$*" >&2; }
die() { printf '[import-corpus] error: %s\n' "$*" >&2; exit 1; }

command -v go >/dev/null || die "Go is not installed; install Go 1.26+ (the corpus comes from the Go module proxy)"
CACHE="$(go env GOMODCACHE)"
mapfile -t modules < <(grep -v '^[[:space:]]*\(#\|$\)' "$LIST" | awk '{print $1}' | sort -u)
[[ ${#modules[@]} -gt 0 ]] || die "$LIST lists no modules"

# A module's directory in the cache: upper-case letters are stored as '!' and the lower-case letter.
dir_of() { local path="${1%@*}" version="${1##*@}"; printf '%s/%s@%s' "$CACHE" "$(sed 's/[A-Z]/!\L&/g' <<<"$path")" "$version"; }

missing=0
for m in "${modules[@]}"; do
  if [[ -d "$(dir_of "$m")" ]]; then continue; fi
  if [[ "${1:-}" == "--print" ]]; then log "missing $m"; missing=1; continue; fi
  log "downloading $m"
  # Outside any module, with the proxy's checksums checked as for any download.
  (cd / && GOFLAGS= go mod download "$m") || die "could not download $m from the Go module proxy"
  [[ -d "$(dir_of "$m")" ]] || die "go mod download $m left no $(dir_of "$m")"
done
[[ $missing == 0 ]] || die "run scripts/import-corpus.sh to download the modules above"
log "${#modules[@]} modules in $CACHE"
echo "$CACHE"
