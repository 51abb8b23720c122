# Shared by the scripts that ask operator-sdk for test fixtures: where operator-sdk is.
# operator_sdk prints its path ($OPERATOR_SDK, PATH, then $HOME/anchors/bin) or fails with a hint.
operator_sdk() {
  local sdk="${OPERATOR_SDK:-$(command -v operator-sdk || echo "$HOME/anchors/bin/operator-sdk")}"
  [ -x "$sdk" ] || { echo "operator-sdk not found; set OPERATOR_SDK to an operator-sdk v1.42.3 binary" >&2; return 2; }
  echo "$sdk"
}
