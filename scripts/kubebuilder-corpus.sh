#!/usr/bin/env bash
# Generates real kubebuilder projects for the import test (test/import/kubebuilder-projects.test.ts)
# with kubebuilder's own generators, from the Go module proxy, into
#   ${XDG_CACHE_HOME:-$HOME/.cache}/tsop-ci/kubebuilder-corpus/v<version>/<project>
# Each project is what a kubebuilder user has: Go sources, Makefile, PROJECT, and the CRDs the
# Makefile's pinned controller-gen wrote to config/crd/bases. Prints that directory on the last line
# of stdout; a second run reuses what is there (a project counts once its `.corpus-complete` exists).
#
#   scripts/kubebuilder-corpus.sh          generate (or reuse) every project
#   scripts/kubebuilder-corpus.sh --print  print the directory, generate nothing (exit 1 if incomplete)
#
# The projects:
#   getting-started, cronjob-tutorial, multiversion-tutorial: the book's tutorials, made by the
#     programs under hack/docs/internal of the kubebuilder module (scaffold, then insert the
#     tutorial's code), run by a small driver built inside a copy of that module; as in the book,
#     the multiversion project is the CronJob one (copied) with a second version added;
#   project-v4, project-v4-multigroup, project-v4-with-plugins: kubebuilder's sample projects, made
#     by the scaffold_test_project function of its test/testdata/generate.sh with the flags that
#     script passes.
# Both call `make all` and `make build-installer`; a `make` placed first on PATH narrows `all` to
# `manifests generate` (the CRDs and the deep-copy code, not the manager binary, fmt or vet), so
# nothing needs a cluster or docker. The Makefile still builds its own controller-gen and kustomize
# with `go install` (the Go build cache makes every build after the first a link).
#
# KUBEBUILDER_VERSION overrides the pinned version (the proxy serves v4.10.1 and v4.15.0).
set -euo pipefail

KB_VERSION="${KUBEBUILDER_VERSION:-4.15.0}"
TUTORIALS=(getting-started cronjob-tutorial multiversion-tutorial)
SAMPLES=(project-v4 project-v4-multigroup project-v4-with-plugins)
log() { printf '[kubebuilder-corpus] %s\n' "$*" >&2; }
die() { printf '[kubebuilder-corpus] error: %s\n' "$*" >&2; exit 1; }

DEST="${XDG_CACHE_HOME:-$HOME/.cache}/tsop-ci/kubebuilder-corpus/v$KB_VERSION"
missing=()
for p in "${TUTORIALS[@]}" "${SAMPLES[@]}"; do [[ -f "$DEST/$p/.corpus-complete" ]] || missing+=("$p"); done

if [[ "${1:-}" == "--print" ]]; then
  ((${#missing[@]} == 0)) || die "missing ${missing[*]} in $DEST; run bash scripts/kubebuilder-corpus.sh"
  echo "$DEST"; exit 0
fi
[[ $# -eq 0 ]] || die "unknown argument '$1'; usage: scripts/kubebuilder-corpus.sh [--print]"
if ((${#missing[@]} == 0)); then
  log "reusing $DEST"
  echo "$DEST"; exit 0
fi

command -v go >/dev/null || die "Go is not installed; install Go 1.26+ (kubebuilder and its projects come from the Go module proxy)"
REAL_MAKE="$(command -v make)" || die "make is not installed; the kubebuilder projects' Makefiles run controller-gen (apt-get install make)"

mkdir -p "$DEST"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/tsop-kubebuilder-corpus.XXXXXX")"
# Files the Go module cache writes are read-only; make them removable before removing.
trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
start=$SECONDS

# A writable copy of the released module: its hack/docs/internal packages can only be imported from
# inside it, and generate.sh writes next to itself.
module="sigs.k8s.io/kubebuilder/v4@v$KB_VERSION"
src_dir="$(cd / && GOFLAGS= go mod download -json "$module" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
[[ -d "$src_dir" ]] || die "could not download $module from the Go module proxy"
SRC="$WORK/kubebuilder"
cp -r "$src_dir" "$SRC" && chmod -R u+w "$SRC"

log "building kubebuilder v$KB_VERSION and its tutorial generators"
mkdir -p "$WORK/bin" "$SRC/hack/docs/tsopcorpus"
cat >"$SRC/hack/docs/tsopcorpus/main.go" <<'GO'
// Runs one of the book's tutorial generators without its Prepare step, which deletes any
// controller-gen or kustomize found on PATH.
package main

import (
	"fmt"
	"os"

	cronjob "sigs.k8s.io/kubebuilder/v4/hack/docs/internal/cronjob-tutorial"
	gettingstarted "sigs.k8s.io/kubebuilder/v4/hack/docs/internal/getting-started"
	multiversion "sigs.k8s.io/kubebuilder/v4/hack/docs/internal/multiversion-tutorial"
)

type tutorial interface {
	GenerateSampleProject()
	UpdateTutorial()
	CodeGen()
}

func run(t tutorial) {
	t.GenerateSampleProject()
	t.UpdateTutorial()
	t.CodeGen()
}

func main() {
	kb, name, dir := os.Args[1], os.Args[2], os.Args[3]
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	switch name {
	case "getting-started":
		s := gettingstarted.NewSample(kb, dir)
		run(&s)
	case "cronjob-tutorial":
		s := cronjob.NewSample(kb, dir)
		run(&s)
	case "multiversion-tutorial":
		// The book makes the CronJob tutorial's project, then adds the second version on top; dir
		// already holds a copy of the first.
		m := multiversion.NewSample(kb, dir)
		run(&m)
	default:
		fmt.Fprintf(os.Stderr, "unknown tutorial %q\n", name)
		os.Exit(2)
	}
}
GO
(cd "$SRC" && CGO_ENABLED=0 go build -o "$WORK/bin/kubebuilder" . && CGO_ENABLED=0 go build -o "$WORK/bin/tutorials" ./hack/docs/tsopcorpus) >&2 \
  || die "could not build kubebuilder v$KB_VERSION"

mkdir -p "$WORK/shim"
cat >"$WORK/shim/make" <<SH
#!/usr/bin/env bash
# \`make all\` also formats, vets and builds the manager; the corpus needs only its generated files.
if [[ "\$*" == all ]]; then exec "$REAL_MAKE" manifests generate; fi
exec "$REAL_MAKE" "\$@"
SH
chmod +x "$WORK/shim/make"
# The PROJECT files say which kubebuilder wrote them; the module copy is otherwise "(devel)".
export PATH="$WORK/shim:$PATH" KUBEBUILDER_TEST_VERSION="$KB_VERSION" NO_COLOR=1 GOFLAGS=

generate_sample() {
  local project=$1 call
  call="$(grep "^scaffold_test_project $project " "$SRC/test/testdata/generate.sh")" \
    || die "kubebuilder v$KB_VERSION's test/testdata/generate.sh does not make $project"
  # The script's own function, with $0 its path so that it writes to $SRC/testdata/<project>.
  bash -c 'set -euo pipefail
    kb=$1; call=$2
    header_text() { printf "%s\n" "$*"; }
    eval "$(sed -n "/^function scaffold_test_project/,/^}/p" "$0")"
    eval "$call"' "$SRC/test/testdata/generate.sh" "$WORK/bin/kubebuilder" "$call"
  mv "$SRC/testdata/$project" "$WORK/out/$project"
}

mkdir -p "$WORK/out"
for p in "${missing[@]}"; do
  log "generating $p"
  t=$SECONDS
  if [[ " ${TUTORIALS[*]} " == *" $p "* ]]; then
    # In a folder named project, as in the book (the folder's name is the project's name).
    mkdir -p "$WORK/gen/$p"
    if [[ $p == multiversion-tutorial ]]; then
      # The CronJob tutorial's project (made above, or before) is where the multiversion one starts.
      [[ -f "$DEST/cronjob-tutorial/.corpus-complete" ]] || die "multiversion-tutorial needs cronjob-tutorial first"
      cp -r "$DEST/cronjob-tutorial" "$WORK/gen/$p/project" && rm "$WORK/gen/$p/project/.corpus-complete"
    fi
    "$WORK/bin/tutorials" "$WORK/bin/kubebuilder" "$p" "$WORK/gen/$p/project" >&2 || die "kubebuilder's $p generator failed"
    mv "$WORK/gen/$p/project" "$WORK/out/$p"
  else
    generate_sample "$p" >&2 || die "kubebuilder's scaffold of $p failed"
  fi
  ls "$WORK/out/$p"/config/crd/bases/*.yaml >/dev/null 2>&1 || die "$p has no CRDs in config/crd/bases"
  # The tools the Makefile built (hundreds of MB) are not part of the project.
  chmod -R u+w "$WORK/out/$p/bin" 2>/dev/null && rm -rf "$WORK/out/$p/bin"
  touch "$WORK/out/$p/.corpus-complete"
  # Moved into place last, so an interrupted run never leaves a half-made project in the cache.
  rm -rf "${DEST:?}/$p" && mv "$WORK/out/$p" "$DEST/$p"
  log "$p in $((SECONDS - t)) s"
done
log "generated ${#missing[@]} projects in $((SECONDS - start)) s: $DEST"
echo "$DEST"
