# Shared by the scripts that ask operator-sdk for test fixtures: where operator-sdk is.
# operator_sdk prints its path ($OPERATOR_SDK, scripts/operator-sdk.sh's cache, PATH, then
# $HOME/anchors/bin) or fails with a hint.
operator_sdk() {
  local here; here="$(dirname "${BASH_SOURCE[0]}")"
  local sdk="${OPERATOR_SDK:-$(bash "$here/operator-sdk.sh" --print 2>/dev/null || command -v operator-sdk || echo "$HOME/anchors/bin/operator-sdk")}"
  [ -x "$sdk" ] || { echo "operator-sdk not found; build it with 'bash scripts/operator-sdk.sh' or set OPERATOR_SDK to an operator-sdk v1.42.3 binary" >&2; return 2; }
  echo "$sdk"
}
